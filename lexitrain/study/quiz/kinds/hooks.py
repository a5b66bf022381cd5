"""The `hooks` kind: a word shown, its hook words typed (`SCARE CARED`) or the hooks alone (`S- -D`).

Keyed by the word.
"""

from __future__ import annotations

from collections.abc import Sequence

from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.lexicon.rows import WordRow
from lexitrain.study.quiz.kinds.base import Check, Question, register_kind
from lexitrain.study.quiz.kinds.words import WordKind, answer_words, check_words, hook_words


class HooksKind(WordKind):
    name = "hooks"
    description = "word shown: type its hook words (SCARE CARED) or the hooks as S- -D"

    def keys_from_rows(self, rows: Sequence[WordRow], minimum: int = 2) -> list[str] | None:
        return [row["word"] for row in rows]

    def build(self, lex: Lexicon, key: str, order: str = "alphabetical") -> Question:
        word = key.upper()
        if word not in lex:
            raise LexitrainError(f"{key} is not a word in {lex.name}")
        hooked = tuple(hook_words(lex, word))
        # a word that takes no hooks: after the answer, its own facts (its inner hooks, ·NAE·) are shown
        return Question(self.name, word, word, hooked, {"length": len(word)}, about=() if hooked else (word,))

    def check(self, question: Question, answer: str) -> Check:
        words, repeats = answer_words(answer)
        spelled: list[str] = []
        for token in words:
            if token.endswith("-") and len(token) > 1:
                token = token[:-1] + question.key
            elif token.startswith("-") and len(token) > 1:
                token = question.key + token[1:]
            (repeats.append(token) if token in spelled else spelled.append(token))
        return check_words(question.expected, spelled, repeats)

    def asking_words(self, question: Question) -> tuple[str, ...] | None:
        return (question.key,)  # ANE, not its hook words BANE CANE ..., which would ask about other words

    def sheet_words(self, question: Question) -> tuple[str, ...]:
        return (question.key,)  # the hooks of one word read best as that word's hook line


register_kind(HooksKind)
