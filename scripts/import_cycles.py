"""Count the import cycles among lexitrain's modules, lazy imports (inside functions) included.

Imports under `if TYPE_CHECKING:` are left out: they never run. Relative imports are resolved.
Prints each strongly connected group of modules that import one another, the number of
elementary cycles (exits 1 when there is any) and how many imports sit inside functions.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "lexitrain"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking_nodes(tree: ast.Module) -> set[int]:
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped |= {id(child) for stmt in node.body for child in ast.walk(stmt)}
    return skipped


def imports(path: Path, known: set[str]) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = _type_checking_nodes(tree)
    here = module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                origin = ".".join(base + ([node.module] if node.module else []))
            else:
                origin = node.module or ""
            for alias in node.names:
                sub = f"{origin}.{alias.name}"
                found.add(sub if sub in known else origin)
    return {name for name in found if name in known and name != here}


def graph() -> dict[str, set[str]]:
    paths = sorted(PACKAGE.rglob("*.py"))
    known = {module_name(p) for p in paths}
    return {module_name(p): imports(p, known) for p in paths}


def components(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    sys.setrecursionlimit(10_000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


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
    edges = graph()
    groups = components(edges)
    loops = cycles(edges)
    for group in groups:
        print("cycle group:", " ".join(group))
    for loop in loops[:20]:
        print("  cycle:", " -> ".join(loop + loop[:1]))
    print(f"{len(edges)} modules, {sum(map(len, edges.values()))} imports, "
          f"{len(groups)} cycle groups, {len(loops)} elementary cycles; {lazy_imports()} imports inside functions")
    return 1 if loops else 0


if __name__ == "__main__":
    raise SystemExit(main())
