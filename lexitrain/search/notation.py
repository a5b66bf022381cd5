"""How search conditions write tiles: Zyzzyva's wildcards, and a notation for multi-letter tiles.

`?` is any one tile, `*` any run of tiles, `[ABC]` one of these tiles and
`[^ABC]` one tile that is none of them, as in Zyzzyva. Square brackets being
taken, a multi-letter tile is written in parentheses: `(CH)`, `(L·L)`. Plain
text is read greedily, so `CHICO` is CH-I-C-O where the set has a CH tile;
text holding any `(...)` is read strictly (groups in parentheses are tiles,
every other character one tile), so `(C)H` and `C(H)` are C then H. Letters
are read without case. Each tile becomes its one-character code (tiles.py).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from lexitrain.errors import LexitrainError
from lexitrain.tiles import TileSet

BLANK = "?"
STAR = "*"


@dataclass(frozen=True)
class Choice:
    """One tile out of `codes` (or, negated, any tile but those)."""

    codes: frozenset[str]
    negated: bool = False

    def allows(self, code: str) -> bool:
        return (code in self.codes) != self.negated


#: A tile code, BLANK, STAR or a Choice.
Item = str | Choice


def read_items(tiles: TileSet, text: str, what: str, wildcards: str = "?*[") -> list[Item]:
    """The items of TEXT, allowing only the wildcards named (a one-line error names the fault)."""
    text = unicodedata.normalize("NFC", text.strip())
    if not text:
        raise LexitrainError(f"empty {what}")
    strict = "(" in text
    items: list[Item] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in "?*[" and ch not in wildcards:
            why = "is a blank, not a letter: a word has letters only" if ch == BLANK else "has no meaning here"
            raise LexitrainError(f"{what} {text!r}: {ch!r} {why}")
        if ch in (BLANK, STAR):
            items.append(ch)
            i += 1
        elif ch == "[":
            end = text.find("]", i)
            if end < 0:
                raise LexitrainError(f"{what} {text!r}: '[' is never closed")
            inside = text[i + 1 : end]
            negated = inside.startswith("^")
            codes = _tiles(tiles, inside[1:] if negated else inside, strict, text, what)
            if not codes:
                raise LexitrainError(f"{what} {text!r}: empty letter set []")
            items.append(Choice(frozenset(codes), negated))
            i = end + 1
        else:
            end = i
            while end < len(text) and text[end] not in "?*[":
                end += 1
            items += _tiles(tiles, text[i:end], strict, text, what)
            i = end
    return items


def read_tiles(tiles: TileSet, text: str, what: str) -> str:
    """The codes of a run of tiles written without wildcards (a prefix, a hook, a set of letters)."""
    return "".join(item for item in read_items(tiles, text, what, wildcards="") if isinstance(item, str))


def _tiles(tiles: TileSet, text: str, strict: bool, whole: str, what: str) -> list[str]:
    """Codes of plain text and `(...)` groups."""
    upper = text.upper()
    codes: list[str] = []
    i = 0
    while i < len(upper):
        ch = upper[i]
        if ch == "(":
            end = upper.find(")", i)
            if end < 0:
                raise LexitrainError(f"{what} {whole!r}: '(' is never closed")
            codes.append(_code(tiles, upper[i + 1 : end], whole, what))
            i = end + 1
            continue
        if ch in ")]^":
            raise LexitrainError(f"{what} {whole!r}: {ch!r} without its opening bracket")
        if not strict:
            tile = next((m for m in tiles.multi if upper.startswith(m, i)), ch)
        else:
            tile = ch
        codes.append(_code(tiles, tile, whole, what))
        i += len(tile)
    return codes


def _code(tiles: TileSet, tile: str, whole: str, what: str) -> str:
    try:
        return tiles.codes[tiles.index(tile)]
    except KeyError:
        shown = f"({tile})" if len(tile) > 1 else tile
        raise LexitrainError(f"{what} {whole!r}: {shown!r} is not a tile of the {tiles.name} set") from None
