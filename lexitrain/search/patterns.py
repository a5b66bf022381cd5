"""Word patterns: `?` one tile, `*` any run of tiles, `[ABC]` one of, `[^ABC]` none of.

A pattern becomes a regular expression over tile codes (one character per
tile), so multi-letter tiles such as Spanish CH count as one position
(written `(CH)` where plain text would not say it; see notation.py).
"""

from __future__ import annotations

import re

from lexitrain.search.notation import BLANK, STAR, Choice, read_items
from lexitrain.tiles import TileSet


def pattern_regex(tiles: TileSet, pattern: str) -> str:
    """Regex source (no anchors, no groups) matching the codes of fitting words."""
    parts: list[str] = []
    for item in read_items(tiles, pattern, "pattern"):
        if item == BLANK:
            parts.append(".")
        elif item == STAR:
            parts.append(".*")
        elif isinstance(item, Choice):
            parts.append(choice_regex(item))
        else:
            parts.append(re.escape(item))
    return "".join(parts)


def choice_regex(choice: Choice) -> str:
    """A character class for one tile of the choice (never a line break: words are one a line)."""
    codes = re.escape("".join(sorted(choice.codes)))
    return f"[^{codes}\n]" if choice.negated else f"[{codes}]"
