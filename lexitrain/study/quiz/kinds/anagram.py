"""The `anagram` kind: an alphagram shown (`?` a blank), every anagram typed.

Keyed by the alphagram; two- and three-letter words are studied this way too
(the built-in twos and threes lists).
"""

from __future__ import annotations

from collections.abc import Sequence

from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.lexicon.rows import WordRow
from lexitrain.study.quiz.kinds.base import Question, register_kind
from lexitrain.study.quiz.kinds.words import WordKind, anagram_words, letter_order
from lexitrain.tiles import BLANK


class AnagramKind(WordKind):
    name = "anagram"
    description = "alphagram shown: type every anagram"

    def keys_from_rows(self, rows: Sequence[WordRow], minimum: int = 2) -> list[str] | None:
        return [row["alphagram"] for row in rows]

    def keys_from_alphagrams(self, alphagrams: Sequence[str], minimum: int = 2) -> list[str] | None:
        return list(alphagrams)

    def key_from_text(self, lex: Lexicon, text: str) -> str:
        """The letters in any order, blanks (`?`, as Zyzzyva writes AEINRS?) kept last."""
        letters = text.upper()
        blanks = letters.count(BLANK)
        return lex.tiles.alphagram(letters.replace(BLANK, "")) + BLANK * blanks

    def build(self, lex: Lexicon, key: str, order: str = "alphabetical") -> Question:
        words = anagram_words(lex, key)
        if not words:
            raise LexitrainError(f"{key} has no anagrams in {lex.name}")
        return Question(self.name, key, letter_order(lex, key, order), tuple(words),
                        {"length": len(lex.tiles.tokenize(key))})

    def sheet_prompt(self, question: Question) -> str:
        return question.prompt  # the usual kind: its alphagram alone


register_kind(AnagramKind)
