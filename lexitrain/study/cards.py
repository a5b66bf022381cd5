"""Question kinds and card identity.

A card is one question of one kind on one lexicon: its id is `kind:key`
(`anagram:AEINRST`, `hooks:CARE`), unique per lexicon in the progress store.
Each kind knows how to build its question from a lexicon and how to check an
answer line; new kinds (positions, issue 6) register themselves with
`register_kind` and the scheduler, store and sessions work on them unchanged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from lexitrain.errors import LexitrainError

if TYPE_CHECKING:
    from lexitrain.lexicon.lexicon import Lexicon


@dataclass(frozen=True)
class Question:
    """What is asked and what counts as right."""

    kind: str
    key: str
    prompt: str
    expected: tuple[str, ...]
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return card_id(self.kind, self.key)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "prompt": self.prompt, "answers": len(self.expected), **self.info}


@dataclass(frozen=True)
class Check:
    """The verdict on one answer line, word by word."""

    correct: bool
    right: tuple[str, ...]
    wrong: tuple[str, ...]
    missing: tuple[str, ...]
    duplicates: tuple[str, ...] = ()
    details: dict[str, Any] = field(default_factory=dict)  # kind-specific, added to the result line


class QuestionKind(Protocol):
    """A kind of question: builds questions from keys and checks answers."""

    name: str
    description: str

    def build(self, lex: Lexicon, key: str, order: str = "alphabetical") -> Question: ...

    def check(self, question: Question, answer: str) -> Check: ...


KINDS: dict[str, QuestionKind] = {}

#: Modules that register kinds when imported (loaded on first use, keeping start-up light).
KIND_MODULES = ["lexitrain.study.questions", "lexitrain.study.position_kind"]


def register_kind(kind: QuestionKind) -> QuestionKind:
    KINDS[kind.name] = kind
    return kind


def get_kind(name: str) -> QuestionKind:
    if name not in KINDS:
        import importlib

        for module in KIND_MODULES:
            importlib.import_module(module)
    try:
        return KINDS[name]
    except KeyError:
        raise LexitrainError(f"unknown question kind {name!r} (known: {', '.join(sorted(KINDS))})") from None


def card_id(kind: str, key: str) -> str:
    return f"{kind}:{key}"


def parse_card_id(text: str) -> tuple[str, str]:
    kind, sep, key = text.partition(":")
    if not sep or not key:
        raise LexitrainError(f"bad card id {text!r}: expected KIND:KEY such as anagram:AEINRST")
    return kind, key


_SEPARATORS = re.compile(r"[\s,;]+")


def answer_words(answer: str) -> tuple[list[str], list[str]]:
    """Words of an answer line, uppercased, first occurrences in order, and the repeats."""
    words: list[str] = []
    repeats: list[str] = []
    for token in _SEPARATORS.split(answer.strip()):
        if not token:
            continue
        word = token.upper()
        (repeats if word in words else words).append(word)
    return words, repeats


def check_words(expected: tuple[str, ...], given: list[str], repeats: list[str] = ()) -> Check:
    """Right when every expected word is given and nothing else; repeats are harmless."""
    wanted = set(expected)
    right = tuple(w for w in given if w in wanted)
    wrong = tuple(w for w in given if w not in wanted)
    found = set(right)
    missing = tuple(w for w in expected if w not in found)
    return Check(not wrong and not missing, right, wrong, missing, tuple(repeats))
