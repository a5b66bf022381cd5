"""Saved searches: named condition texts kept in the user's data folder.

Stored as one JSON object `{name: conditions}` in `searches.json`, written
atomically so a crash never loses the other searches.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path

from lexitrain.errors import LexitrainError
from lexitrain.paths import data_home

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


def _path() -> Path:
    return data_home() / "searches.json"


def _read() -> dict[str, str]:
    path = _path()
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise LexitrainError(f"{path}: saved searches are unreadable ({exc})") from None
    if not isinstance(data, dict):
        raise LexitrainError(f"{path}: saved searches are not a JSON object")
    return {str(k): str(v) for k, v in data.items()}


def save_search(name: str, query_text: str) -> None:
    """Save (or replace) a search under NAME."""
    if not _NAME.fullmatch(name):
        raise LexitrainError(f"search name {name!r}: use letters, digits, '-', '_' or '.' (up to 64)")
    searches = _read()
    searches[name] = query_text
    path = _path()
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".searches-", suffix=".json")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(searches, fh, ensure_ascii=False, indent=2, sort_keys=True)
    os.replace(tmp, path)


def load_search(name: str) -> str:
    """The condition text saved under NAME."""
    searches = _read()
    if name not in searches:
        known = ", ".join(sorted(searches)) or "none saved yet"
        raise LexitrainError(f"no saved search {name!r} (saved: {known})")
    return searches[name]


def saved_searches() -> list[str]:
    return sorted(_read())
