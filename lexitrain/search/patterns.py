"""Word patterns: `?` one tile, `*` any run of tiles, `[ABC]` one of, `[^ABC]` none of.

A pattern becomes a regular expression over tile codes (one character per
tile), so multi-letter tiles such as Spanish CH count as one position.
"""

from __future__ import annotations

import re

from lexitrain.errors import LexitrainError
from lexitrain.tiles import TileSet

_SPECIAL = "?*["


def pattern_regex(tiles: TileSet, pattern: str) -> str:
    """Regex source (no anchors, no groups) matching the codes of fitting words."""
    text = pattern.strip()
    if not text:
        raise LexitrainError("empty pattern: use ? for one tile and * for any run, e.g. ?A?E??S")
    parts: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "?":
            parts.append(".")
            i += 1
        elif ch == "*":
            parts.append(".*")
            i += 1
        elif ch == "[":
            end = text.find("]", i)
            if end < 0:
                raise LexitrainError(f"pattern {pattern!r}: '[' is never closed")
            inside = text[i + 1 : end]
            negate = inside.startswith("^")
            codes = _codes(tiles, inside[1:] if negate else inside, pattern)
            if not codes:
                raise LexitrainError(f"pattern {pattern!r}: empty letter set []")
            parts.append(f"[{'^' if negate else ''}{re.escape(codes)}{chr(10) if negate else ''}]")
            i = end + 1
        else:
            end = i
            while end < len(text) and text[end] not in _SPECIAL:
                end += 1
            parts.append(re.escape(_codes(tiles, text[i:end], pattern)))
            i = end
    return "".join(parts)


def _codes(tiles: TileSet, letters: str, pattern: str) -> str:
    if "]" in letters:
        raise LexitrainError(f"pattern {pattern!r}: ']' without a matching '['")
    try:
        return "".join(tiles.encode(t) for t in tiles.tokenize(letters.upper()))
    except ValueError as exc:
        raise LexitrainError(f"pattern {pattern!r}: {exc}") from None
