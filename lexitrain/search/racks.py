"""Anagrams and builds from a rack, blanks included, by walking the alphagram trie.

Alphagram keys hold tiles in tile-set order, so a depth-first walk that adds
tiles in that order, pruned as soon as no key has the current prefix, visits
each reachable alphagram once. A rack tile is used before a blank whenever
the rack still has it: that reaches the same alphagrams with the fewest
blanks, so each alphagram is found once and its blank letters are known.
A rack may also hold choices (Zyzzyva's `[ABC]`: a blank restricted to some
tiles); the walk then tries each fitting choice and drops repeated states.
"""

from __future__ import annotations

from typing import NamedTuple

from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.tiles import Rack, TileSet


class RackWord(NamedTuple):
    """A word spelled from a rack; `blanks` are the codes the blanks stand for."""

    code: str
    blanks: str = ""


#: Blanks restricted to some tiles (Zyzzyva's `[ABC]` in an anagram), as tile indexes each may be.
Choices = tuple[frozenset[int], ...]


def spell_rack(lex: Lexicon, rack: Rack, build: bool = False, min_length: int = 2,
               choices: Choices = ()) -> list[RackWord]:
    """Every word the rack (with its CHOICES) spells: exactly its tiles, or with
    `build` any `min_length` or more of them. Grouped by alphagram, in walk order."""
    if choices:
        return _spell_with_choices(lex, rack, choices, build, min_length)
    codes = lex.tiles.codes
    trie = lex.alphagram_trie
    counts = list(rack.counts)
    in_rack = [j for j, n in enumerate(counts) if n]
    every = range(len(codes))
    total = rack.size
    found: list[RackWord] = []
    iterkeys, get = trie.iterkeys, trie.get

    def visit(prefix: str, start: int, blanks_left: int, used: str) -> None:
        depth = len(prefix)
        if depth == total or (build and depth >= min_length):
            for value in get(prefix) or ():
                found.append(RackWord(value.decode("utf-8"), used))
        if depth == total:
            return
        if build:
            choices = every[start:] if blanks_left else [j for j in in_rack if j >= start and counts[j]]
        else:  # every rack tile must be used, and tiles only come in order
            first = next((j for j in in_rack if j >= start and counts[j]), None)
            if first is None:
                choices = every[start:]
            else:
                choices = every[start : first + 1] if blanks_left else [first]
        for j in choices:
            nxt = prefix + codes[j]
            if next(iterkeys(nxt), None) is None:  # no alphagram starts so
                continue
            if counts[j]:
                counts[j] -= 1
                visit(nxt, j, blanks_left, used)
                counts[j] += 1
            elif blanks_left:
                visit(nxt, j, blanks_left - 1, used + codes[j])

    visit("", 0, rack.blanks, "")
    return found


def _spell_with_choices(lex: Lexicon, rack: Rack, choices: Choices, build: bool, min_length: int) -> list[RackWord]:
    """`spell_rack` for a rack with choices: blanks are choices of every tile, and a
    tile the rack lacks uses up any choice that allows it (each is tried)."""
    codes = lex.tiles.codes
    trie = lex.alphagram_trie
    iterkeys, get = trie.iterkeys, trie.get
    counts = list(rack.counts)
    every = frozenset(range(len(codes)))
    slots = [every] * rack.blanks + list(choices)
    kinds = list(dict.fromkeys(slots))  # equal choices are one kind, with a count left
    left = [slots.count(kind) for kind in kinds]
    total = rack.size + len(choices)
    found: dict[str, RackWord] = {}
    seen: set[tuple[str, tuple[int, ...]]] = set()

    def fits(j: int) -> bool:
        return any(n and j in kind for kind, n in zip(kinds, left))

    def visit(prefix: str, start: int) -> None:
        state = (prefix, tuple(left))
        if state in seen:
            return
        seen.add(state)
        depth = len(prefix)
        if depth == total or (build and depth >= min_length):
            for value in get(prefix) or ():
                code = value.decode("utf-8")
                found.setdefault(code, RackWord(code))
        if depth == total:
            return
        first = None if build else next((j for j in range(start, len(codes)) if counts[j]), None)
        stop = len(codes) if first is None else first + 1
        for j in range(start, stop):
            if not (counts[j] and (build or j == first)) and not fits(j):
                continue
            nxt = prefix + codes[j]
            if next(iterkeys(nxt), None) is None:  # no alphagram starts so
                continue
            if counts[j]:
                counts[j] -= 1
                visit(nxt, j)
                counts[j] += 1
                continue
            for k, kind in enumerate(kinds):
                if left[k] and j in kind:
                    left[k] -= 1
                    visit(nxt, j)
                    left[k] += 1

    visit("", 0)
    return list(found.values())


def rack_words(lex: Lexicon, letters: str, build: bool = False) -> list[RackWord]:
    """Words spelled from LETTERS (exactly, or any 2+ of them with `build`)."""
    return spell_rack(lex, Rack.parse(lex.tiles, letters, required=True), build)


def spell_with_blanks(tiles: TileSet, word: RackWord) -> str:
    """The word as text with the blank-played tiles lowercase (the last ones of each letter)."""
    pending = list(word.blanks)
    letters: list[str] = []
    for code in reversed(word.code):
        tile = tiles.decode(code)
        if code in pending:
            pending.remove(code)
            tile = tile.lower()
        letters.append(tile)
    return "".join(reversed(letters))
