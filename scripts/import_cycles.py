"""Count the import cycles among lexitrain's modules, lazy imports (inside functions) and imports under
`if TYPE_CHECKING:` included (a type-only import is no way round a circle: the architecture guard counts
them too). Relative imports are resolved.
Prints each strongly connected group of modules that import one another, the number of
elementary cycles (exits 1 when there is any), the same for the imports that run alone, and how many
imports sit inside functions.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# The import graph and its circles are the architecture guard's (tests/test_architecture.py):
# this report reads the very graph the guard checks.
from tests.test_architecture import PACKAGE, circles, graph  # noqa: E402


def cycles(edges: dict[str, set[str]], limit: int = 100_000) -> list[list[str]]:
    """Elementary cycles, each found once from its smallest module (bounded by `limit`)."""
    found: list[list[str]] = []
    for start in sorted(edges):
        path = [start]
        todo = [iter(sorted(w for w in edges[start] if w >= start))]
        while todo and len(found) < limit:
            step = next(todo[-1], None)
            if step is None:
                todo.pop()
                path.pop()
            elif step == start:
                found.append(list(path))
            elif step not in path:
                path.append(step)
                todo.append(iter(sorted(w for w in edges[step] if w >= start)))
    return found


def lazy_imports() -> int:
    """Import statements inside functions (start-up work put off until a command needs it)."""
    count = 0
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                count += sum(isinstance(inner, (ast.Import, ast.ImportFrom)) for inner in ast.walk(node))
    return count


def main() -> int:
    edges = graph(typing_too=True)
    groups = circles(edges)
    loops = cycles(edges)
    for group in groups:
        print("cycle group:", " ".join(group))
    for loop in loops[:20]:
        print("  cycle:", " -> ".join(loop + loop[:1]))
    print(f"{len(edges)} modules, {sum(map(len, edges.values()))} imports, "
          f"{len(groups)} cycle groups, {len(loops)} elementary cycles (type-only imports counted; "
          f"{len(cycles(graph()))} counting only the imports that run); {lazy_imports()} imports inside functions")
    return 1 if loops else 0


if __name__ == "__main__":
    raise SystemExit(main())
