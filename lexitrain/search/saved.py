"""Saved searches: named condition texts kept in the user's data folder.

Stored as one JSON object `{name: conditions}` in `searches.json`, written
atomically so a crash never loses the other searches. A search saved before
`--prefix`/`--suffix` were renamed is read with the meaning it had then
(`--starts-with`/`--ends-with`) and written back so.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path

from lexitrain.errors import LexitrainError
from lexitrain.paths import data_home
from lexitrain.search.query import migrate_renamed

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


def _path(home: Path | None = None) -> Path:
    return (home or data_home()) / "searches.json"


def _read(home: Path | None = None) -> dict[str, str]:
    path = _path(home)
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise LexitrainError(f"{path}: saved searches are unreadable ({exc})") from None
    if not isinstance(data, dict):
        raise LexitrainError(f"{path}: saved searches are not a JSON object")
    searches = {str(k): str(v) for k, v in data.items()}
    migrated = {name: migrate_renamed(text) for name, text in searches.items()}
    if migrated != searches:
        _write(migrated, home)
    return migrated


def _write(searches: dict[str, str], home: Path | None = None) -> None:
    path = _path(home)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".searches-", suffix=".json")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(searches, fh, ensure_ascii=False, indent=2, sort_keys=True)
    os.replace(tmp, path)


def _check_name(name: str) -> str:
    if not _NAME.fullmatch(name):
        raise LexitrainError(f"search name {name!r}: use letters, digits, '-', '_' or '.' (up to 64)")
    return name


def save_search(name: str, query_text: str, replace: bool = False) -> None:
    """Save a search under NAME; one already saved there is replaced only with `replace`."""
    searches = _read()
    if _check_name(name) in searches and not replace:
        raise LexitrainError(f"a search named {name!r} is already saved ({searches[name]}); "
                             "add --replace to replace it, or choose another name")
    searches[name] = query_text
    _write(searches)


def load_search(name: str) -> str:
    """The condition text saved under NAME."""
    searches = _read()
    if name not in searches:
        known = ", ".join(sorted(searches)) or "none saved yet"
        raise LexitrainError(f"no saved search {name!r} (saved: {known})")
    return searches[name]


def rename_search(old: str, new: str, replace: bool = False) -> None:
    """Save search OLD under NEW instead (refusing to replace another unless `replace`)."""
    text = load_search(old)
    if old == new:
        return
    save_search(new, text, replace=replace)
    delete_search(old)


def delete_search(name: str) -> None:
    searches = _read()
    load_search(name)  # the one-line error for a name not saved
    del searches[name]
    _write(searches)


def saved_searches(home: Path | None = None) -> dict[str, str]:
    """Every saved search (of this home, or of the home folder HOME), by name in order."""
    return dict(sorted(_read(home).items()))


def replace_searches(searches: dict[str, str], home: Path | None = None) -> None:
    """Keep exactly these saved searches (what a sync made of this home's and another's, in this home or
    the home folder HOME), written whole."""
    for name in searches:
        _check_name(name)
    if searches != _read(home):
        _write(searches, home)
