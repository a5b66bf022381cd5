"""Anagram and subanagram conditions as Zyzzyva reads them (`?`, `*`, `[ABC]`, `[^ABC]`).

Without `*` the letters are a rack (choices are blanks restricted to some
tiles) walked on the alphagram trie. With `*` an anagram holds the given
tiles and any others: the words holding the fixed tiles are found with one
regex scan, then each is checked for the choices. A subanagram with `*`
fits every word, as Zyzzyva's help says.
"""

from __future__ import annotations

import re
from collections import Counter

from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.search import corpus
from lexitrain.search.notation import BLANK, STAR, Choice, read_items
from lexitrain.search.patterns import choice_regex
from lexitrain.search.racks import spell_rack
from lexitrain.tiles import Rack


def anagram_codes(lex: Lexicon, text: str, build: bool, option: str) -> set[str]:
    """Codes of the words that are anagrams (or, with `build`, subanagrams of 2+ tiles) of TEXT."""
    items = read_items(lex.tiles, text, option)
    fixed = Counter(item for item in items if isinstance(item, str) and item not in (BLANK, STAR))
    choices = [_as_choice(lex, item) for item in items if isinstance(item, Choice)]
    blanks = items.count(BLANK)
    if STAR in items:
        return set(corpus.all_codes(lex)) if build else _holding(lex, fixed, choices, blanks)
    index = lex.tiles.code_index
    counts = [0] * lex.tiles.size
    for code, n in fixed.items():
        counts[index(code)] = n
    rack = Rack(lex.tiles, tuple(counts), blanks)
    restricted = tuple(frozenset(index(c) for c in choice.codes) for choice in choices)
    return {word.code for word in spell_rack(lex, rack, build=build, choices=restricted)}


def _as_choice(lex: Lexicon, choice: Choice) -> Choice:
    """A negated choice as the tiles it allows, so racks and matching see one kind."""
    if not choice.negated:
        return choice
    return Choice(frozenset(c for c in lex.tiles.codes if c not in choice.codes))


def _holding(lex: Lexicon, fixed: Counter[str], choices: list[Choice], blanks: int) -> set[str]:
    """Words holding the fixed tiles, a distinct tile for each choice, and `blanks` more, at least."""
    least = sum(fixed.values()) + len(choices) + blanks
    ahead = [f"(?=(?:[^\n{re.escape(c)}]*{re.escape(c)}){{{n}}})" for c, n in sorted(fixed.items())]
    ahead += [f"(?=[^\n]*{choice_regex(choice)})" for choice in dict.fromkeys(choices)]
    candidates = corpus.scan(lex, "".join(ahead) + f"[^\n]{{{max(least, 1)},}}")
    if not choices:
        return set(candidates)
    return {code for code in candidates if _matches(Counter(code) - fixed, choices)}


def _matches(rest: Counter[str], choices: list[Choice]) -> bool:
    """Can each choice take a different one of the REST tiles? (a small bipartite matching)"""
    tiles = [code for code, n in rest.items() for _ in range(n)]
    owner: dict[int, int] = {}  # tile position -> the choice holding it

    def place(k: int, tried: set[int]) -> bool:
        for t, code in enumerate(tiles):
            if t not in tried and choices[k].allows(code):
                tried.add(t)
                if t not in owner or place(owner[t], tried):
                    owner[t] = k
                    return True
        return False

    return all(place(k, set()) for k in range(len(choices)))
