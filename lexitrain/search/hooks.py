"""Hooks, inner hooks, extensions and stems of a word, straight from the tries."""

from __future__ import annotations

import re
from dataclasses import dataclass

from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.search import corpus


@dataclass(frozen=True)
class Hooks:
    """Codes of the tiles that hook a word at the front and at the back."""

    code: str
    valid: bool
    front: str
    back: str
    inner_front: bool  # the word without its first tile is a word
    inner_back: bool  # the word without its last tile is a word


def word_code(lex: Lexicon, word: str) -> str:
    """Codes of a word as typed, or a clear error naming the bad character."""
    if not word.strip():
        raise LexitrainError("empty word")
    try:
        return lex.tiles.encode(word.strip())
    except ValueError as exc:
        raise LexitrainError(f"word {word!r}: {exc}") from None


def hooks(lex: Lexicon, code: str) -> Hooks:
    trie = lex.trie
    codes = lex.tiles.codes
    return Hooks(
        code=code,
        valid=code in trie,
        front="".join(c for c in codes if c + code in trie),
        back="".join(c for c in codes if code + c in trie),
        inner_front=len(code) > 1 and code[1:] in trie,
        inner_back=len(code) > 1 and code[:-1] in trie,
    )


def extensions(lex: Lexicon, code: str) -> dict[str, list[str]]:
    """Longer words holding the word: `back` start with it, `front` end with it,
    `both` hold it with tiles on either side. Codes, in dictionary order."""
    key = lex.tiles.sort_key
    back = [c for c in lex.trie.keys(code) if c != code]
    front = [r[::-1] for r in lex.reversed_trie.keys(code[::-1]) if r != code[::-1]]
    both = corpus.scan(lex, f".+{re.escape(code)}.+")
    return {name: sorted(found, key=key) for name, found in (("front", front), ("back", back), ("both", both))}


def stems(lex: Lexicon, code: str) -> dict[str, list[str]]:
    """Anagrams of the word plus one tile, for each tile that makes any (codes)."""
    tiles = lex.tiles
    out: dict[str, list[str]] = {}
    for tile in tiles.codes:
        found = lex.anagram_codes(tiles.alphagram_code(code + tile))
        if found:
            out[tile] = sorted(found, key=tiles.sort_key)
    return out
