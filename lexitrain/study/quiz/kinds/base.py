"""What every question kind shares: the question and its verdict, the kind protocol, the registry.

A card is one question of one kind on one lexicon: its id is `kind:key`
(`anagram:AEINRST`, `hooks:CARE`), unique per lexicon in the progress store.
A kind is one module (this package holds the built-in ones; a test or a plug-in
may add its own with `register_kind`) that owns everything about its questions:
the keys it makes from search rows or a plan step, building a question from a
key, checking an answer, the words that ask a missed question again, what a
printed sheet shows, and how a face should render it. Sessions, plans, stores
and faces ask the kind; none of them tests a kind's name.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

import lexitrain.study.quiz.kinds as package
from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.lexicon.rows import WordRow
from lexitrain.study.store import ProgressStore

#: Rendering hints: how a face shows a question and reads its answer.
LETTERS = "letters"  # a prompt of letters or a word; the answer is words, which a face may check as they are typed
BOARD = "board"  # a board and a rack from `info["cgp"]`; the answer is a play in GCG notation (or `answer_help`'s)
#: What a `board` question may add, and a face shows when it does: `info["asks"]` (the question, for "the top
#: play?"), `info["note"]` (a line about the position), `info["highlight"]` (squares [row, col] to mark) and
#: `info["answer_help"]` (what to type, for a play); a check's `details["verdict"]` (its lines, for a play's
#: score and rank) and `details["table"]` ({"columns", "rows"}, for the top plays).
CHOICE = "choice"  # a word shown (`info["word"]`); the answer is one of `info["choices"]`


@dataclass(frozen=True)
class Question:
    """What is asked and what counts as right, as a face shows it."""

    kind: str
    key: str
    prompt: str
    expected: tuple[str, ...]
    info: dict[str, Any] = field(default_factory=dict)  # kind-specific, added to the question line
    hint: str = LETTERS  # how a face renders it, LETTERS, BOARD or CHOICE (not part of the question line)
    about: tuple[str, ...] = ()  # the words a face shows the facts of after the answer, when not the answers
    withheld: dict[str, Any] = field(default_factory=dict)  # kind-specific, for the verdict only: never in the question line

    @property
    def id(self) -> str:
        return f"{self.kind}:{self.key}"

    @property
    def words_shown(self) -> tuple[str, ...]:
        """The words whose facts (hooks, definition) follow the answer."""
        return self.about or self.expected

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "prompt": self.prompt, "answers": len(self.expected), **self.info}

    def saved(self) -> dict[str, Any]:
        """The question whole, as an open round keeps it between two requests (JSON's types only)."""
        return {"kind": self.kind, "key": self.key, "prompt": self.prompt, "expected": list(self.expected),
                "info": self.info, "hint": self.hint, "about": list(self.about), "withheld": self.withheld}

    @classmethod
    def from_saved(cls, data: dict[str, Any]) -> Question:
        """A question kept by `saved`, as it was (to be looked at; one to check again is built again by its kind:
        `Session.rebuilt`)."""
        return cls(data["kind"], data["key"], data["prompt"], tuple(data["expected"]), dict(data["info"]), data["hint"],
                   tuple(data["about"]), dict(data["withheld"]))


#: what a kind worked out for a question it built
Worked = TypeVar("Worked")


class Recent(Generic[Worked]):
    """What a kind worked out for each question it built lately (a position solved, an analysis read), by the
    question's id, for the answer's check: bounded, the oldest let go (a session asks one question at a time;
    a face may hold a few open)."""

    def __init__(self, size: int = 32) -> None:
        self._kept: OrderedDict[str, Worked] = OrderedDict()
        self._size = size

    def keep(self, question: Question, worked: Worked) -> None:
        self._kept[question.id] = worked
        self._kept.move_to_end(question.id)
        while len(self._kept) > self._size:
            self._kept.popitem(last=False)

    def of(self, question: Question) -> Worked:
        try:
            return self._kept[question.id]
        except KeyError:
            raise LexitrainError(f"{question.kind} question {question.key!r} was not built in this session") from None


@dataclass(frozen=True)
class Check:
    """The verdict on one answer line, word by word."""

    correct: bool
    right: tuple[str, ...]
    wrong: tuple[str, ...]
    missing: tuple[str, ...]
    duplicates: tuple[str, ...] = ()
    details: dict[str, Any] = field(default_factory=dict)  # kind-specific, added to the result line
    refused: str | None = None  # why the answer is not one the question takes (an illegal play): ask again

    def saved(self) -> dict[str, Any]:
        return {"correct": self.correct, "right": list(self.right), "wrong": list(self.wrong),
                "missing": list(self.missing), "duplicates": list(self.duplicates), "details": self.details,
                "refused": self.refused}

    @classmethod
    def from_saved(cls, data: dict[str, Any]) -> Check:
        return cls(data["correct"], tuple(data["right"]), tuple(data["wrong"]), tuple(data["missing"]),
                   tuple(data["duplicates"]), dict(data["details"]), data["refused"])


class QuestionKind(Protocol):
    """A kind of question. One instance serves one session (it may keep caches for it)."""

    name: str
    description: str
    takes_minimum: bool  # a shortest-word option (`--min`) applies to its keys

    def keys_from_rows(self, rows: Sequence[WordRow], minimum: int = 2) -> list[str] | None:
        """One card key per search row, in the rows' order (repeats allowed); None: not made from words."""
        ...

    def keys_from_alphagrams(self, alphagrams: Sequence[str], minimum: int = 2) -> list[str] | None:
        """Card keys for a plan step of alphagrams (one length, by probability); None: not made so."""
        ...

    def key_from_text(self, lex: Lexicon, text: str) -> str:
        """The card key that a question written elsewhere (a Zyzzyva cardbox) stands for."""
        ...

    def build(self, lex: Lexicon, key: str, order: str = "alphabetical") -> Question:
        """The question a key stands for, with its rendering hint (LexitrainError when the lexicon cannot ask it)."""
        ...

    def check(self, question: Question, answer: str) -> Check:
        """The verdict on an answer line (also used on part of one, as a face checks words typed);
        `refused` set instead when the line is no answer to judge (an illegal play), so the question is asked again."""
        ...

    def asking_words(self, question: Question) -> tuple[str, ...] | None:
        """The words that, read back with `quiz --file --kind KIND`, ask this question again;
        None when a missed-word list does not apply (a play is not a word)."""
        ...

    def sheet_prompt(self, question: Question) -> str:
        """The question as a printed sheet names it."""
        ...

    def sheet_words(self, question: Question) -> tuple[str, ...]:
        """The words a printed sheet lists under it (each with its hooks)."""
        ...


@runtime_checkable
class StoredFacts(Protocol):
    """A kind whose questions read what was stored when their cards were made (the analysed
    position kinds: a simulation or an endgame solved once): the session hands it its store."""

    def use_store(self, store: ProgressStore) -> None: ...


_KINDS: dict[str, Callable[[], QuestionKind]] = {}


def register_kind(make: Callable[[], QuestionKind]) -> None:
    """Add a kind (its class, or any callable making a fresh instance) under the name its instances carry."""
    _KINDS[make().name] = make


def new_kind(name: str) -> QuestionKind:
    """A fresh instance of kind NAME, with caches of its own.

    A built-in kind lives in the module of this package named after it
    (`anagram-hooks` in `anagram_hooks.py`), imported on first use only, so
    start-up stays light and a new kind is one new module.
    """
    module = name.replace("-", "_")
    if name not in _KINDS and module in _built_in_modules():
        importlib.import_module(f"{__package__}.{module}")
    try:
        make = _KINDS[name]
    except KeyError:
        raise LexitrainError(f"unknown question kind {name!r} (known: {', '.join(kind_names())})") from None
    return make()


def bind_store(kind: QuestionKind, store: ProgressStore) -> QuestionKind:
    """KIND, reading what was stored when its cards were made through STORE where it is such a kind
    (`StoredFacts`: the analysed positions, the read-rack readings): a session's kinds, a due sheet's."""
    if isinstance(kind, StoredFacts):
        kind.use_store(store)
    return kind


def kind_names() -> list[str]:
    """Every kind known: the built-in ones (all imported) and those registered elsewhere."""
    for module in _built_in_modules():
        importlib.import_module(f"{__package__}.{module}")
    return sorted(_KINDS)


def _built_in_modules() -> set[str]:
    return {info.name for info in pkgutil.iter_modules(package.__path__)}
