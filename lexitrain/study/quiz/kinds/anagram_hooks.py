"""The `anagram-hooks` kind: an alphagram shown, every anagram and every word its hooks make typed.

Keyed like `anagram`; the answers list the anagrams first (`info["anagrams"]`
counts them), then their hook words.
"""

from __future__ import annotations


from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.study.quiz.kinds.anagram import AnagramKind
from lexitrain.study.quiz.kinds.base import Question, register_kind
from lexitrain.study.quiz.kinds.words import hook_words


class AnagramHooksKind(AnagramKind):
    name = "anagram-hooks"
    description = "alphagram shown: type every anagram and every word its hooks make"

    def build(self, lex: Lexicon, key: str, order: str = "alphabetical") -> Question:
        base = super().build(lex, key, order)
        words = list(base.expected)
        for word in base.expected:
            words += hook_words(lex, word)
        return Question(self.name, key, base.prompt, tuple(words), {**base.info, "anagrams": len(base.expected)})

    def asking_words(self, question: Question) -> tuple[str, ...] | None:
        return self._anagrams(question)  # not the hook words: they would ask about other alphagrams

    def sheet_prompt(self, question: Question) -> str:
        return f"{self.name}: {question.prompt}"

    def sheet_words(self, question: Question) -> tuple[str, ...]:
        return self._anagrams(question)  # each printed with its hooks

    @staticmethod
    def _anagrams(question: Question) -> tuple[str, ...]:
        return question.expected[: question.info.get("anagrams", len(question.expected))]


register_kind(AnagramHooksKind)
