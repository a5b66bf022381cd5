"""The layers of docs/architecture.md, checked on the source (ast), so a shortcut
across them fails here instead of slowly turning the core into one knot.

Imports are read as Python runs them: relative ones resolved, lazy ones (inside a
function) counted; only those under `if TYPE_CHECKING:` never run, so they count
for the layers but not for circles. The probes at the end show each check failing
on the offence it is for."""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pytest

from lexitrain.lexicon import schema as lexicon_schema

PACKAGE = Path(__file__).resolve().parent.parent / "lexitrain"
DOC = PACKAGE.parent / "docs" / "architecture.md"

#: Each top-level part and its level: a module may import only its own part or lower levels.
LEVELS = {
    "errors": -1,  # the one error type: every part may raise it (paths too, for a data folder it cannot make)
    "paths": 0, "children": 0, "wording": 0, "implementation": 0,
    "tiles": 1, "layouts": 1,
    "lexicon": 2,
    "search": 3,
    "engine": 4,
    "study": 5,
    "sheets": 6,
    "cli": 7, "web": 7,
    "club": 8,  # (the club is a face over the local app's: its edge, its pages under /study)
    "__main__": 9,
}
#: The floors of study/: a module imports only its own floor and those below.
STUDY_FLOORS = {"store": 0, "quiz": 1, "records": 2, "drills": 3}
#: Pairs forbidden even though the levels would allow them.
FORBIDDEN = {("sheets", "study"), ("cli", "web"), ("web", "cli"), ("cli", "club"), ("club", "cli"), ("web", "club")}
#: The exceptions: `lexitrain web` and `lexitrain serve` are commands, so the CLI starts the web app and the club.
ALLOWED = {("cli/web_cmd.py", "web"), ("cli/serve_cmd.py", "club")}
FACES = {"cli", "web", "club", "__main__"}
#: What `lexitrain --help`, `judge` and `anagram` must start without.
HEAVY = ("pandas", "matplotlib", "fpdf", "starlette", "numpy", "sqlite_utils")
#: Libraries a function may import when it runs: slow to load or an optional extra, needed only by some commands.
LAZY_LIBRARIES = {*HEAVY, "psycopg", "psycopg_pool", "argon2", "distributed", "dask", "torch", "uvicorn", "jinja2",
                  "fsrs", "fsrs_rs_python", "multipart"}

_SQL = re.compile(r"\b(SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|REPLACE|PRAGMA)\b", re.IGNORECASE)
#: A statement of any kind, on any table (the club's modules outside club/store have none), in any case.
_STATEMENT = re.compile(r"\bSELECT\b[\s\S]*\bFROM\b|\bINSERT\s+(OR\s+\w+\s+)?INTO\b|\bUPDATE\s+\S+\s+SET\b|"
                        r"\bDELETE\s+FROM\b|\b(CREATE|DROP|ALTER)\s+(TABLE|SCHEMA|INDEX|VIEW|DATABASE)\b|"
                        r"\b(LISTEN|NOTIFY|PRAGMA|TRUNCATE)\s+\w", re.IGNORECASE)
#: Schemas made and dropped: only in the one SQL layer, study/store (the pool makes and drops members' schemas).
_SCHEMA_STATEMENT = re.compile(r"\b(CREATE|DROP|ALTER)\s+SCHEMA\b", re.IGNORECASE)
_CREATED = re.compile(r"\bCREATE\s+(?:VIRTUAL\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(\w+)", re.IGNORECASE)


def tables_created(path: Path) -> tuple[str, ...]:
    """Every table the SQL strings of a module create (its migrations or schema)."""
    return tuple(sorted({name for _, text in strings(path) for name in _CREATED.findall(text)}))


def _table_names(tables: tuple[str, ...]) -> re.Pattern[str]:
    """A table named after the word that names one, however spelled: any case, quoted ("members", `members`,
    [members]) or with its schema (public.members)."""
    names = "|".join(sorted(tables, key=len, reverse=True))
    quote = r"[\"`\[]?"
    unquote = r"[\"`\]]?"
    return re.compile(rf"\b(FROM|JOIN|INTO|UPDATE|TABLE|EXISTS)\s+({quote}\w+{unquote}\.)?{quote}({names}){unquote}(?!\w)",
                      re.IGNORECASE)


#: the compiled lexicon's tables (sqlite-utils creates them: schema.py names them)
LEXICON_TABLES = lexicon_schema.TABLES
LEXICON_COLUMNS = re.compile(r"\b(alphagram_rank|probability_rank|combinations)[012]\b")


def modules(root: Path = PACKAGE) -> list[Path]:
    return sorted(root.rglob("*.py"))


def tree(path: Path) -> ast.Module:
    return _tree(path, path.stat().st_mtime_ns)


@lru_cache(maxsize=None)
def _tree(path: Path, _stamp: int) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def module_name(path: Path, root: Path = PACKAGE) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def part(path: Path, root: Path = PACKAGE) -> str:
    return path.relative_to(root).parts[0].removesuffix(".py")


@dataclass(frozen=True)
class Import:
    target: str  # the module imported, e.g. lexitrain.study.quiz.session
    line: int
    runs: bool  # False: under `if TYPE_CHECKING:`, for the type checker only


def _type_checking(tree: ast.Module) -> set[int]:
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            found |= {id(child) for stmt in node.body for child in ast.walk(stmt)}
    return found


def targets(node: ast.Import | ast.ImportFrom, path: Path, root: Path = PACKAGE) -> list[str]:
    """The modules an import statement imports (any library's), relative imports resolved:
    `from lexitrain.study import daily` imports lexitrain.study.daily, `from json import loads` json."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    here = module_name(path, root)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    if node.level:
        base = package.split(".")[: len(package.split(".")) - node.level + 1]
        origin = ".".join(base + ([node.module] if node.module else []))
    else:
        origin = node.module or ""
    known = _known(root)
    return [f"{origin}.{a.name}" if f"{origin}.{a.name}" in known else origin for a in node.names]


def imports(path: Path, root: Path = PACKAGE) -> list[Import]:
    """The lexitrain modules a module imports, anywhere in it, relative imports resolved."""
    module = tree(path)
    typing_only = _type_checking(module)
    found: list[Import] = []
    for node in ast.walk(module):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found += [Import(t, node.lineno, id(node) not in typing_only)
                      for t in targets(node, path, root) if t == "lexitrain" or t.startswith("lexitrain.")]
    return found


@lru_cache(maxsize=None)
def _known(root: Path) -> frozenset[str]:
    return frozenset(module_name(p, root) for p in modules(root))


def imported_parts(path: Path, root: Path = PACKAGE) -> set[str]:
    """Top-level parts of lexitrain this module imports (at any depth, lazily or not)."""
    return {i.target.split(".")[1] for i in imports(path, root) if "." in i.target}


def strings(path: Path) -> list[tuple[int, str]]:
    """Every string of a module but its docstrings, an f-string with each of its holes spelled `{...}` (so
    `f"SELECT * FROM {name}"` is SQL on a table it names whatever NAME holds)."""
    module = tree(path)
    docstrings = {id(node.body[0].value) for node in ast.walk(module)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body
                  and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    inside_fstrings = {id(part) for node in ast.walk(module) if isinstance(node, ast.JoinedStr) for part in node.values}
    found = []
    for node in ast.walk(module):
        if isinstance(node, ast.JoinedStr):
            found.append((node.lineno, "".join(part.value if isinstance(part, ast.Constant) else "{...}"
                                               for part in node.values)))
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
              and id(node) not in inside_fstrings):
            found.append((node.lineno, node.value))
    return found


# -- the checks, each a function of the source tree, so the probes can run it on a copy ----------------------


def layer_offences(root: Path = PACKAGE) -> list[str]:
    offences = []
    for path in modules(root):
        here = part(path, root)
        if here == "__init__":
            continue
        where = path.relative_to(root).as_posix()
        for other in imported_parts(path, root) - {here}:
            if (where, other) in ALLOWED:
                continue
            if (here, other) in FORBIDDEN or other in FACES and here not in FACES:
                offences.append(f"{where} imports {other}")
            elif LEVELS[other] >= LEVELS[here]:
                offences.append(f"{where} ({here}) imports {other}, a higher layer")
    return offences


def floor(path_or_module: str) -> int | None:
    """The floor of a study/ module (None outside the floors: study/__init__)."""
    parts = path_or_module.split(".")
    return STUDY_FLOORS.get(parts[2]) if len(parts) > 2 and parts[1] == "study" else None


def floor_offences(root: Path = PACKAGE) -> list[str]:
    offences = []
    for path in modules(root / "study"):
        here = floor(module_name(path, root))
        if here is None:
            continue
        for imp in imports(path, root):
            there = floor(imp.target)
            if there is not None and there > here:
                offences.append(f"{path.relative_to(root).as_posix()}:{imp.line} imports {imp.target}, a higher floor")
    return offences


def graph(root: Path = PACKAGE, typing_too: bool = False) -> dict[str, set[str]]:
    """Module -> the modules it imports when it runs (lazy imports included), and with TYPING_TOO those it
    imports for the type checker alone."""
    names = {module_name(p, root) for p in modules(root)}
    return {module_name(p, root): {i.target for i in imports(p, root) if (i.runs or typing_too) and i.target in names}
            - {module_name(p, root)} for p in modules(root)}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Groups of modules that import one another, round and round (Tarjan's strongly connected components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while (w := stack.pop()) != v:
                group.append(w)
            if group:
                found.append(sorted(group + [v]))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def cycle_offences(root: Path = PACKAGE) -> list[str]:
    """Circles of imports, those the type checker alone follows counted too: a type-only import is no way
    round a circle, which says two modules are one idea or one is cut wrong."""
    return [" <-> ".join(group) for group in circles(graph(root, typing_too=True))]


def progress_sql_offences(root: Path = PACKAGE) -> list[str]:
    store = root / "study" / "store"
    pattern = _table_names(tables_created(store / "migrations.py"))
    return [f"{path.relative_to(root).as_posix()}:{line}" for path in modules(root) if store not in path.parents
            for line, text in strings(path) if _SQL.search(text) and pattern.search(text)]


def club_sql_offences(root: Path = PACKAGE) -> list[str]:
    """SQL on the club's tables outside club/store, and any SQL statement at all in the club's other modules."""
    store = root / "club" / "store"
    pattern = _table_names(tables_created(store / "schema.py"))
    return [f"{path.relative_to(root).as_posix()}:{line}" for path in modules(root) if store not in path.parents
            for line, text in strings(path)
            if (_SQL.search(text) and pattern.search(text)) or (part(path, root) == "club" and _STATEMENT.search(text))]


def schema_offences(root: Path = PACKAGE) -> list[str]:
    """Schemas are made and dropped in the one SQL layer (study/store) only."""
    store = root / "study" / "store"
    return [f"{path.relative_to(root).as_posix()}:{line}" for path in modules(root) if store not in path.parents
            for line, text in strings(path) if _SCHEMA_STATEMENT.search(text)]


def dynamic_import_offences(root: Path = PACKAGE) -> list[str]:
    """An import the guard cannot read (importlib.import_module, __import__) of a lexitrain module hides an edge of
    the graph: refused, but for a package loading its own modules by name (`f"{__package__}.{name}"`, the
    question kinds' registry) and a library's module named outright."""
    offences = []
    for path in modules(root):
        for node in ast.walk(tree(path)):
            if not isinstance(node, ast.Call):
                continue
            called = ast.unparse(node.func)
            if called not in ("importlib.import_module", "import_module", "__import__", "importlib.__import__"):
                continue
            named = node.args[0] if node.args else None
            library = (isinstance(named, ast.Constant) and isinstance(named.value, str)
                       and not named.value.startswith(("lexitrain", ".")) and not node.args[1:])
            own_package = (isinstance(named, ast.JoinedStr) and named.values
                           and ast.unparse(named.values[0]).startswith("{__package__}"))
            if not (library or own_package):
                offences.append(f"{path.relative_to(root).as_posix()}:{node.lineno} imports by {called}")
    return offences


#: Reading a request's body: the HTTP edge's (web/edge.py) alone, so a bad body gets the same error on every face.
_BODY_READS = {"json", "body", "stream"}
#: The store's ways to keep an answer but the one funnel (`grade_card`): a face never calls them (the core's
#: sessions and rounds do).
_ANSWER_WRITES = {"record_answer", "take_back_answer", "mark_answer", "mark_late"}
#: The store's ways to open or close a session's row: a face's answers make theirs as the local app's do (`grade_card`
#: given the session's `Opening`, through a session or round), so no face keeps a row of its own or an empty one.
_SESSION_WRITES = {"start_session", "session_for", "end_session"}


def face_offences(root: Path = PACKAGE) -> list[str]:
    """A face (cli, web, club) that reads a request's body itself (not through web/edge.py) or keeps an answer by
    one of the store's own writes instead of a session, a round or `grade_card` (its session's row too)."""
    offences = []
    for path in modules(root):
        where = path.relative_to(root).as_posix()
        if part(path, root) not in FACES or where == "web/edge.py":
            continue
        for node in ast.walk(tree(path)):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                owner = ast.unparse(node.func.value)
                if node.func.attr in _BODY_READS and owner.split(".")[-1] in ("request", "req", "websocket"):
                    offences.append(f"{where}:{node.lineno} reads a body ({owner}.{node.func.attr})")
                elif node.func.attr in _ANSWER_WRITES:
                    offences.append(f"{where}:{node.lineno} keeps an answer itself ({node.func.attr})")
                elif node.func.attr in _SESSION_WRITES:
                    offences.append(f"{where}:{node.lineno} opens or closes a session's row itself ({node.func.attr})")
    return offences


def lexicon_sql_offences(root: Path = PACKAGE) -> list[str]:
    pattern = _table_names(LEXICON_TABLES)
    return [f"{path.relative_to(root).as_posix()}:{line}" for path in modules(root) if part(path, root) != "lexicon"
            for line, text in strings(path)
            if (_SQL.search(text) and pattern.search(text)) or LEXICON_COLUMNS.search(text)]


Imports = list[ast.Import | ast.ImportFrom]


def _imports_by_where(path: Path) -> tuple[Imports, Imports]:
    """A module's imports that run when it loads, and those inside its functions (type-only ones left out)."""
    return _by_where(path, path.stat().st_mtime_ns)


@lru_cache(maxsize=None)
def _by_where(path: Path, _stamp: int) -> tuple[Imports, Imports]:
    module = tree(path)
    typing_only = _type_checking(module)
    at_load: Imports = []
    inside: Imports = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)) and id(child) not in typing_only:
                (inside if in_function else at_load).append(child)
            visit(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    visit(module, False)
    return at_load, inside


@lru_cache(maxsize=None)
def loads(target: str, root: Path = PACKAGE) -> frozenset[str]:
    """The top-level names of the libraries importing TARGET loads (following lexitrain's own modules)."""
    paths = _paths(root)
    found: set[str] = set()
    todo, seen = [target], set()
    while todo:
        name = todo.pop()
        found.add(name.split(".")[0])
        if name in paths and name not in seen:
            seen.add(name)
            todo += [t for node in _imports_by_where(paths[name])[0] for t in targets(node, paths[name], root)]
    return frozenset(found)


@lru_cache(maxsize=None)
def _paths(root: Path) -> dict[str, Path]:
    return {module_name(p, root): p for p in modules(root)}


def _waits_for_an_import_error(node: ast.AST, path: Path) -> bool:
    """Inside `try:` with `except ImportError` (a module of one platform, or of an extra not installed)."""
    return any(isinstance(t, ast.Try) and any(
               h.type is not None and re.search(r"\b(ImportError|ModuleNotFoundError)\b", ast.unparse(h.type))
               for h in t.handlers) and any(node in ast.walk(stmt) for stmt in t.body)
               for t in ast.walk(tree(path)))


def lazy_import_offences(loaded: list[set[str]], root: Path = PACKAGE) -> list[str]:
    """Imports inside functions with no reason to wait. One waits only for: a library of LAZY_LIBRARIES, or a
    lexitrain module that loads one; a module the start-up of `--help`, `judge` or `anagram` does not load
    when the importing module is loaded then (LOADED: the modules each start-up loads); a module that may
    be missing (`except ImportError`). Everything else is imported at the top (a circle is no reason: the
    circle check counts lazy imports; a type-only use goes under `if TYPE_CHECKING:`)."""
    offences = []
    for path in modules(root):
        here = module_name(path, root)
        for node in _imports_by_where(path)[1]:
            for target in targets(node, path, root):
                if _waits(here, target, loaded, root) or _waits_for_an_import_error(node, path):
                    continue
                offences.append(f"{path.relative_to(root).as_posix()}:{node.lineno} imports {target} inside a function")
    return offences


def _waits(here: str, target: str, loaded: list[set[str]], root: Path) -> bool:
    """Importing TARGET from HERE may wait: a slow or optional library (or a module that loads one), or a module
    the start-up of `--help`, `judge` or `anagram` loads HERE without."""
    return (target.split(".")[0] in LAZY_LIBRARIES or any(here in names and target not in names for names in loaded)
            or bool(LAZY_LIBRARIES & loads(target, root)))


def typing_only_offences(loaded: list[set[str]], root: Path = PACKAGE) -> list[str]:
    """Imports under `if TYPE_CHECKING:` that could run at the top: one stays there only when running it would
    close an import circle or is a reason to wait (`_waits`)."""
    edges = graph(root)
    offences = []
    for path in modules(root):
        here = module_name(path, root)
        for imp in imports(path, root):
            if imp.runs or _waits(here, imp.target, loaded, root):
                continue
            trial = {**edges, here: edges[here] | ({imp.target} & edges.keys())}
            if not any(here in group for group in circles(trial)):
                offences.append(f"{path.relative_to(root).as_posix()}:{imp.line} imports {imp.target} only for the type checker")
    return offences


def implementation_choice_offences(root: Path = PACKAGE) -> list[str]:
    """Modules but `implementation.py` that read LEXITRAIN_ENGINE themselves: one place chooses the compiled
    twins or the pure Python reference, for the lexicon and the engine alike."""
    return [f"{p.relative_to(root).as_posix()}:{line}" for p in modules(root) if p.name != "implementation.py"
            for line, text in strings(p) if "LEXITRAIN_ENGINE" in text]


def unnamed_modules(root: Path = PACKAGE, doc: Path = DOC) -> list[str]:
    """Modules docs/architecture.md does not name: as `name.py` (as often as modules share that
    name, e.g. `hooks.py` in search/ and in study/quiz/kinds/), a package as `name/`."""
    text = doc.read_text(encoding="utf-8")
    files = [p for p in modules(root) if p.name != "__init__.py"]
    shared = Counter(p.name for p in files)
    missing = [p.relative_to(root).as_posix() for p in files
               if text.count(f"`{p.name}`") + text.count(f"`{p.relative_to(root).as_posix()}`") < shared[p.name]]
    packages = [p.parent for p in modules(root) if p.name == "__init__.py" and p.parent != root]
    return missing + [f"{p.relative_to(root).as_posix()}/" for p in packages if f"`{p.name}/`" not in text]


def compiled_text(pyx: Path) -> str:
    """A compiled module's source with its included .pxi parts read in (where much of `_movegen` is)."""
    text = pyx.read_text(encoding="utf-8")
    return text + "".join((pyx.parent / part).read_text(encoding="utf-8")
                          for part in re.findall(r'^include "([^"]+)"', text, re.M))


def compiled_names(pyx: Path) -> dict[str, set[str]]:
    """Each class of a compiled module and what Python can reach of it: its `def`/`cpdef` methods (not
    dunders) and its public or readonly attributes."""
    found: dict[str, set[str]] = {}
    cls: str | None = None
    for line in compiled_text(pyx).splitlines():
        opened = re.match(r"(?:cdef )?class (\w+)", line)
        if opened:
            cls = opened.group(1)
            found[cls] = set()
        elif re.match(r"\S", line):
            cls = None
        elif cls is not None:
            name = re.match(r"    (?:cp)?def (\w+)\(|    cdef (?:public|readonly) [\w ]+? (\w+)\s*(?:#|$)", line)
            if name and not (name.group(1) or "").startswith("__"):
                found[cls].add(name.group(1) or name.group(2))
    return found


def compiled_functions(pyx: Path) -> set[str]:
    """The module-level functions of a compiled module Python can call: its `def` and `cpdef` ones (a `cdef`
    one is C's alone), whatever type a `cpdef` one returns."""
    return set(re.findall(r"^(?:def|cpdef(?: [\w\[\], ]+?)?) (\w+)\(", compiled_text(pyx), re.M))


def stub_offences(root: Path = PACKAGE) -> list[str]:
    """Where a compiled module's stub (.pyi, what mypy checks its callers against) names a function, method or
    attribute the module does not have, or leaves out one it has: a stub that drifts types the callers wrongly."""
    out = []
    for stub in sorted(root.rglob("_*.pyi")):
        pyx = stub.with_suffix(".pyx")
        compiled = compiled_names(pyx)
        body = ast.parse(stub.read_text(encoding="utf-8")).body
        where = stub.relative_to(root).as_posix()
        named = {n.name for n in body if isinstance(n, ast.FunctionDef)}
        out += [f"{where} {n} is not in the module" for n in sorted(named - compiled_functions(pyx))]
        out += [f"{where} {n} is missing from the stub" for n in sorted(compiled_functions(pyx) - named)]
        for node in body:
            if not isinstance(node, ast.ClassDef):
                continue
            named = {n.name for n in node.body if isinstance(n, ast.FunctionDef) and not n.name.startswith("__")}
            named |= {n.target.id for n in node.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}
            have = compiled.get(node.name, set())
            out += [f"{where} {node.name}.{n} is not in the module" for n in sorted(named - have)]
            out += [f"{where} {node.name}.{n} is missing from the stub" for n in sorted(have - named)]
    return out


# -- the tests --------------------------------------------------------------------------------------


def test_every_part_has_a_level() -> None:
    assert {part(p) for p in modules()} - {"__init__"} <= set(LEVELS)
    assert {p.name for p in (PACKAGE / "study").iterdir() if p.is_dir() and p.name != "__pycache__"} == set(STUDY_FLOORS)


def test_imports_point_down() -> None:
    assert not layer_offences()


def test_study_floors_point_down() -> None:
    assert not floor_offences()


def test_no_import_circle() -> None:
    """Inside a part or across parts, lazy imports counted: no module needs itself to load."""
    assert not cycle_offences()


def test_progress_sql_lives_in_the_store() -> None:
    tables = tables_created(PACKAGE / "study" / "store" / "migrations.py")
    assert {"cards", "answers", "sessions", "card_leases", "decks"} <= set(tables)
    assert not progress_sql_offences(), "SQL on the progress database outside study/store"


def test_only_the_lexicon_knows_its_tables() -> None:
    assert {"words", "alphagrams", "meta", "words_fts"} <= set(LEXICON_TABLES)
    assert not lexicon_sql_offences(), "the lexicon's tables named outside lexicon/"


def test_the_clubs_sql_lives_in_its_store() -> None:
    assert {"members", "attempts", "club_tables", "owed_reviews"} <= set(tables_created(PACKAGE / "club" / "store" / "schema.py"))
    assert not club_sql_offences(), "SQL on the club's tables outside club/store"
    assert not schema_offences(), "a schema made or dropped outside study/store"


def test_no_import_hides_from_the_guard() -> None:
    assert not dynamic_import_offences()


def test_a_face_neither_reads_bodies_nor_keeps_answers_itself() -> None:
    assert not face_offences()


def test_one_place_chooses_the_compiled_or_pure_implementation() -> None:
    assert not implementation_choice_offences()


def test_every_module_is_named_in_the_architecture() -> None:
    assert not unnamed_modules()


def test_compiled_stubs_name_what_the_modules_have() -> None:
    assert {"Search"} <= set(compiled_names(PACKAGE / "engine" / "_endgame.pyx"))
    assert "best_single" in compiled_names(PACKAGE / "engine" / "_movegen.pyx")["LiveBoard"]  # from an included part
    assert {"find", "find_flat", "best", "best_valued"} <= compiled_functions(PACKAGE / "engine" / "_movegen.pyx")
    assert compiled_functions(PACKAGE / "lexicon" / "_graph.pyx") == {"build"}
    assert not stub_offences()


_STARTUP = """
import json, sys
sys.argv = ["lexitrain", *json.loads(sys.argv[1])]
from lexitrain.cli.app import main
code = 0
try:
    main()
except SystemExit as exc:
    code = exc.code or 0
with open({out!r}, "w") as f:
    json.dump({{"code": code, "modules": sorted(sys.modules),
               "heavy": sorted(m for m in sys.modules if m.split(".")[0] in {heavy!r}),
               "store": sorted(m for m in sys.modules if m.startswith(("lexitrain.study.store", "fsrs")))}}, f)
"""


def started(args: list[str], out: Path, path: Path = PACKAGE.parent) -> tuple[dict[str, object], str]:
    """Run `lexitrain ARGS` in a fresh interpreter (from the checkout at PATH): its exit code, the heavy
    libraries it loaded, and what it printed."""
    script = _STARTUP.format(out=str(out), heavy=set(HEAVY))
    env = {**os.environ, "PYTHONPATH": str(path)}
    done = subprocess.run([sys.executable, "-c", script, json.dumps(args)], capture_output=True, text=True,
                          timeout=120, env=env, cwd=path)
    return json.loads(out.read_text()), done.stdout + done.stderr


@pytest.mark.parametrize("args, shown", [(["--help"], "Usage"), (["judge", "RETAINS", "ZOA"], "valid"),
                                         (["anagram", "RETAINS"], "STAINER")], ids=lambda a: str(a[0]))
def test_start_up_loads_nothing_heavy(args: list[str], shown: str, enable, tmp_path: Path) -> None:
    """The lazy imports keep these quick; a top-level import of a heavy library anywhere on their path fails here."""
    result, stdout = started(args, tmp_path / "modules.json")
    assert result["code"] == 0 and result["heavy"] == [] and shown in stdout, stdout
    if args == ["--help"]:  # nor the progress store and the scheduler: --help opens no file and asks nothing
        assert result["store"] == [], result["store"]


def test_imports_wait_only_for_a_reason(enable, tmp_path: Path) -> None:
    """An import is made at the top of its module unless `lazy_import_offences` / `typing_only_offences`
    name a reason to wait; tried on a copy, a needless `import json` inside a function is caught, and so is
    an import of a lexitrain module under `if TYPE_CHECKING:` that could run."""
    loaded = [set(started(args, tmp_path / "modules.json")[0]["modules"])  # type: ignore[call-overload]
              for args in (["--help"], ["judge", "RETAINS"], ["anagram", "RETAINS"])]
    assert not lazy_import_offences(loaded)
    assert not typing_only_offences(loaded)
    root = _copy(tmp_path / "copy")
    bag = root / "engine" / "bag.py"
    _append(bag, "\n\ndef _late():\n    import json\n    return json\n")
    assert lazy_import_offences(loaded, root) == [f"engine/bag.py:{_last_line(bag) - 1} imports json inside a function"]
    _append(bag, "\nfrom typing import TYPE_CHECKING  # noqa: E402\n\nif TYPE_CHECKING:\n    from lexitrain.engine import rules\n")
    assert typing_only_offences(loaded, root) == [
        f"engine/bag.py:{_last_line(bag)} imports lexitrain.engine.rules only for the type checker"]


# -- the probes: each check fails on the offence it is for ----------------------------------------------


def _copy(tmp_path: Path) -> Path:
    import shutil

    root = tmp_path / "lexitrain"
    shutil.copytree(PACKAGE, root, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(DOC.parent, tmp_path / "docs")
    return root


def _append(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def test_the_checks_catch_what_they_are_for(tmp_path: Path, enable) -> None:
    """A check that cannot fail proves nothing: each offence, made in a copy, is caught."""
    root = _copy(tmp_path)
    assert not (layer_offences(root) or floor_offences(root) or cycle_offences(root) or progress_sql_offences(root))
    _append(root / "study" / "drills" / "daily.py",
            '\n\ndef _peek(store):\n    return store.conn.execute("SELECT holder FROM card_leases").fetchall()\n')
    assert progress_sql_offences(root) == [f"study/drills/daily.py:{_last_line(root / 'study/drills/daily.py')}"]
    _append(root / "engine" / "bag.py", "\n\ndef _shortcut():\n    from ..cli import app\n    return app\n")
    assert "engine/bag.py imports cli" in layer_offences(root)
    _append(root / "search" / "hooks.py", "\n\ndef _back():\n    from lexitrain.search import racks\n    return racks\n")
    _append(root / "search" / "racks.py", "\nfrom lexitrain.search import hooks  # noqa: E402\n")
    assert "lexitrain.search.hooks <-> lexitrain.search.racks" in cycle_offences(root)
    _append(root / "club" / "tables.py", "\nfrom typing import TYPE_CHECKING  # noqa: E402\n\nif TYPE_CHECKING:\n"
            "    from lexitrain.club.app import Club\n")
    assert any("lexitrain.club.app" in o and "lexitrain.club.tables" in o for o in cycle_offences(root))
    _append(root / "study" / "records" / "stats.py", "\nfrom lexitrain.study.drills import daily  # noqa: E402\n")
    assert any(o.startswith("study/records/stats.py") and "drills.daily" in o for o in floor_offences(root))
    _append(root / "search" / "racks.py", "\nimport numpy  # noqa: E402\n")
    result, _ = started(["anagram", "RETAINS"], tmp_path / "modules.json", tmp_path)
    assert "numpy" in result["heavy"]  # type: ignore[operator]
    assert not (club_sql_offences(root) or schema_offences(root) or dynamic_import_offences(root) or face_offences(root))
    tables_py = root / "club" / "tables.py"
    for probe in ('\n\ndef _peek(db):\n    return db.execute("select name from Members").fetchall()\n',
                  '\n\ndef _peek(db):\n    return db.execute(\'SELECT id FROM "public"."attempts"\').fetchall()\n',
                  '\n\ndef _peek(db, table):\n    return db.execute(f"delete from {table} where id = 1")\n'):
        _append(tables_py, probe)
        assert f"club/tables.py:{_last_line(tables_py)}" in club_sql_offences(root), probe
    _append(root / "engine" / "bag.py", '\n\ndef _members(db):\n    return db.execute(f"SELECT * FROM guesses WHERE id = {1}")\n')
    assert f"engine/bag.py:{_last_line(root / 'engine' / 'bag.py')}" in club_sql_offences(root)
    _append(tables_py, '\n\ndef _drop(db):\n    db.execute("DROP SCHEMA member_1 CASCADE")\n')
    assert f"club/tables.py:{_last_line(tables_py)}" in schema_offences(root)
    _append(tables_py, '\n\ndef _sneak():\n    import importlib\n    return importlib.import_module("lexitrain.club.app")\n')
    assert dynamic_import_offences(root) == [f"club/tables.py:{_last_line(tables_py)} imports by importlib.import_module"]
    _append(tables_py, '\n\nasync def _read(request):\n    return await request.json()\n')
    assert face_offences(root) == [f"club/tables.py:{_last_line(tables_py)} reads a body (request.json)"]
    _append(tables_py, '\n\ndef _keep(store, row):\n    return store.record_answer(row)\n')
    assert f"club/tables.py:{_last_line(tables_py)} keeps an answer itself (record_answer)" in face_offences(root)
    _append(tables_py, '\n\ndef _open(store, day):\n    return store.session_for(Opening("club", "enable", "club", day))\n')
    assert f"club/tables.py:{_last_line(tables_py)} opens or closes a session's row itself (session_for)" \
        in face_offences(root)
    _append(root / "lexicon" / "compile.py", '\n\ndef _own_choice():\n    return os.environ.get("LEXITRAIN_ENGINE")\n')
    assert implementation_choice_offences(root) == [f"lexicon/compile.py:{_last_line(root / 'lexicon/compile.py')}"]
    (root / "study" / "records" / "ghost.py").write_text('"""Named nowhere."""\n', encoding="utf-8")
    assert unnamed_modules(root, tmp_path / "docs" / "architecture.md") == ["study/records/ghost.py"]
    stub = root / "engine" / "_endgame.pyi"
    stub.write_text(stub.read_text(encoding="utf-8").replace("    def waiting(self)", "    def helper(self)"), encoding="utf-8")
    assert stub_offences(root) == ["engine/_endgame.pyi Search.helper is not in the module",
                                   "engine/_endgame.pyi Search.waiting is missing from the stub"]
    stub.write_text(stub.read_text(encoding="utf-8").replace("    def helper(self)", "    def waiting(self)"), encoding="utf-8")
    graph_stub = root / "lexicon" / "_graph.pyi"
    graph_stub.write_text(graph_stub.read_text(encoding="utf-8").replace("def build(", "def built("), encoding="utf-8")
    movegen_stub = root / "engine" / "_movegen.pyi"
    movegen_stub.write_text(re.sub(r"\ndef find_flat\(.*\n", "\n", movegen_stub.read_text(encoding="utf-8")),
                            encoding="utf-8")
    assert stub_offences(root) == ["engine/_movegen.pyi find_flat is missing from the stub",
                                   "lexicon/_graph.pyi built is not in the module",
                                   "lexicon/_graph.pyi build is missing from the stub"]


def _last_line(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())
