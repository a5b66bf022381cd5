"""The `build` kind: a rack and a minimum shown, every word of that length or more from the rack typed.

Keyed `RACK:MIN` (`AEINRST:6`), the rack as an alphagram.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.lexicon.rows import WordRow
from lexitrain.study.quiz.kinds.base import Question, register_kind
from lexitrain.study.quiz.kinds.words import WordKind, letter_order, tile_codes


class BuildKind(WordKind):
    name = "build"
    description = "RACK:MIN shown: type every word of MIN or more letters the rack makes"
    takes_minimum = True

    def keys_from_rows(self, rows: Sequence[WordRow], minimum: int = 2) -> list[str] | None:
        return [f"{row['alphagram']}:{minimum}" for row in rows]

    def keys_from_alphagrams(self, alphagrams: Sequence[str], minimum: int = 2) -> list[str] | None:
        return [f"{alphagram}:{minimum}" for alphagram in alphagrams]

    def build(self, lex: Lexicon, key: str, order: str = "alphabetical") -> Question:
        rack, _, min_text = key.partition(":")
        minimum = int(min_text) if min_text.isdigit() else 2
        tiles = lex.tiles
        code = tiles.alphagram_code(tile_codes(lex, rack))
        found: set[str] = set()
        for size in range(max(minimum, 2), len(code) + 1):
            for subset in set(combinations(code, size)):
                found.update(lex.anagram_codes("".join(subset)))
        if not found:
            raise LexitrainError(f"{rack} makes no words of {minimum}+ letters in {lex.name}")
        words = sorted(found, key=lambda c: (-len(c), tiles.sort_key(c)))
        prompt = f"{letter_order(lex, tiles.display_alphagram(code), order)} ({minimum}+)"
        return Question(self.name, f"{tiles.display_alphagram(code)}:{minimum}", prompt,
                        tuple(tiles.decode(c) for c in words), {"length": len(code), "minimum": minimum})

    def asking_words(self, question: Question) -> tuple[str, ...] | None:
        """The words that use the whole rack (listed first): read back, they make the same rack."""
        expected = question.expected
        return tuple(w for w in expected if len(w) == len(expected[0])) if expected else expected


register_kind(BuildKind)
