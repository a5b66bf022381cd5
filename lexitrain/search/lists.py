"""Built-in named word lists shipped in `quizzes/lists.toml` (twos, top sevens, ...).

Each list is a title and a query in `lexitrain search` syntax, so quizzes and
sheets use exactly what a player could type.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass

from lexitrain.errors import LexitrainError
from lexitrain.paths import shipped


@dataclass(frozen=True)
class BuiltinList:
    name: str
    title: str
    query: str


def builtin_lists() -> dict[str, BuiltinList]:
    """Every shipped list by name, in file order."""
    path = shipped("quizzes") / "lists.toml"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise LexitrainError(f"{path}: {exc}") from None
    lists: dict[str, BuiltinList] = {}
    for name, entry in data.items():
        if not isinstance(entry, dict) or not {"title", "query"} <= entry.keys():
            raise LexitrainError(f"{path}: list {name!r} needs a title and a query")
        lists[name] = BuiltinList(name, str(entry["title"]), str(entry["query"]))
    return lists


def builtin_list(name: str) -> BuiltinList:
    lists = builtin_lists()
    if name not in lists:
        raise LexitrainError(f"no built-in list {name!r} (known: {', '.join(lists)})")
    return lists[name]
