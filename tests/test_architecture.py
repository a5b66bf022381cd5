"""The layers of docs/architecture.md, checked on the source (ast), so a shortcut
across them fails here instead of slowly turning the core into one knot."""

from __future__ import annotations

import ast
import re
from functools import lru_cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "lexitrain"

#: Each top-level part and its level: a module may import only its own part or lower levels.
LEVELS = {
    "errors": -1,  # the one error type: every part may raise it (paths too, for a data folder it cannot make)
    "paths": 0,
    "tiles": 1, "layouts": 1,
    "lexicon": 2,
    "search": 3,
    "engine": 4,
    "study": 5,
    "sheets": 6,
    "cli": 7, "web": 7, "club": 7, "__main__": 8,
}
#: Pairs forbidden even though the levels would allow them.
FORBIDDEN = {("sheets", "study"), ("cli", "web"), ("web", "cli"), ("cli", "club"), ("club", "cli"), ("web", "club"),
             ("club", "web")}
#: The one exception: `lexitrain web` is a command, so the CLI starts the web app.
ALLOWED = {("cli/web_cmd.py", "web"), ("cli/serve_cmd.py", "club"),
           ("club/server.py", "web")}  # (the club binds its socket as the web app does)

PROGRESS_TABLES = ("cards", "answers", "sessions", "plans", "plan_queue", "challenges", "settings", "positions",
                   "decks", "reviews")
LEXICON_TABLES = ("words", "alphagrams", "meta")
_SQL = re.compile(r"\b(SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|REPLACE|PRAGMA)\b")


def _table_names(tables: tuple[str, ...]) -> re.Pattern[str]:
    names = "|".join(tables)
    return re.compile(rf"\b(FROM|JOIN|INTO|UPDATE|TABLE|EXISTS)\s+({names})\b", re.IGNORECASE)


PROGRESS_SQL = _table_names(PROGRESS_TABLES)
LEXICON_SQL = _table_names(LEXICON_TABLES)
LEXICON_COLUMNS = re.compile(r"\b(alphagram_rank|probability_rank|combinations)[012]\b")


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


@lru_cache(maxsize=None)
def tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def part(path: Path) -> str:
    return path.relative_to(PACKAGE).parts[0].removesuffix(".py")


def imported_parts(path: Path) -> set[str]:
    """Top-level parts of lexitrain this module imports (at any depth, lazily or not)."""
    found = set()
    for node in ast.walk(tree(path)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        found |= {name.split(".")[1] for name in names if name.startswith("lexitrain.")}
    return found


def strings(path: Path) -> list[tuple[int, str]]:
    return [(node.lineno, node.value) for node in ast.walk(tree(path))
            if isinstance(node, ast.Constant) and isinstance(node.value, str)]


def test_every_part_has_a_level() -> None:
    assert {part(p) for p in modules()} - {"__init__"} <= set(LEVELS)


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_point_down(path: Path) -> None:
    here = part(path)
    if here == "__init__":
        return
    where = str(path.relative_to(PACKAGE))
    for other in imported_parts(path) - {here}:
        if (where, other) in ALLOWED:
            continue
        assert (here, other) not in FORBIDDEN, f"{where} imports {other}"
        assert LEVELS[other] < LEVELS[here], f"{where} ({here}) imports {other}, a higher layer"


def test_nothing_imports_the_faces() -> None:
    for path in modules():
        if part(path) not in ("cli", "web", "club", "__main__"):
            assert not imported_parts(path) & {"cli", "web", "club"}, path


def _store(path: Path) -> bool:
    rel = path.relative_to(PACKAGE).parts
    return rel[:2] == ("study", "store")


def test_progress_sql_lives_in_the_store() -> None:
    offenders = [f"{path.relative_to(PACKAGE)}:{line}" for path in modules() if not _store(path)
                 for line, text in strings(path) if _SQL.search(text) and PROGRESS_SQL.search(text)]
    assert not offenders, f"SQL on the progress database outside study/store: {offenders}"


def test_only_the_lexicon_knows_its_tables() -> None:
    offenders = [f"{path.relative_to(PACKAGE)}:{line}" for path in modules() if part(path) != "lexicon"
                 for line, text in strings(path)
                 if (_SQL.search(text) and LEXICON_SQL.search(text)) or LEXICON_COLUMNS.search(text)]
    assert not offenders, f"the lexicon's tables named outside lexicon/: {offenders}"


def test_the_checks_catch_what_they_are_for(tmp_path: Path) -> None:
    """The patterns find a real offence (a check that cannot fail proves nothing)."""
    assert PROGRESS_SQL.search("SELECT due FROM cards WHERE id = ?") and _SQL.search("UPDATE cards SET due = ?")
    assert LEXICON_SQL.search("SELECT alphagram FROM alphagrams WHERE length = ?")
    assert LEXICON_COLUMNS.search("ORDER BY alphagram_rank2")
    assert not LEXICON_COLUMNS.search("probability_rank")  # the search contract's key is not a column
    bad = tmp_path / "bad.py"
    bad.write_text("from lexitrain.cli.app import main\n", encoding="utf-8")
    assert "cli" in imported_parts(bad)
