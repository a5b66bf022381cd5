"""What a player is told after a question, as Zyzzyva tells it: every answer with its hooks,
inner hooks, lexicon symbols and definition, which of them were found, and why the question
counted as missed.

A face renders `Feedback` (the terminal under each question, `--jsonl --feedback` as a
`feedback` key on the result line, the web app in its page); nothing here prints. Found
words are never listed as missed: `missing` holds only the answers not given.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.lexicon.rows import WordRow
from lexitrain.search.execute import rows_for_words
from lexitrain.study.quiz.kinds.base import BOARD, CHOICE
from lexitrain.study.quiz.session import Outcome


@dataclass(frozen=True)
class AnswerNote:
    """One expected answer with the lexicon's facts about it (`row`: hooks, inner hooks,
    symbols, ranks, ...) and its definition with Zyzzyva's links written out."""

    row: WordRow
    found: bool

    @property
    def definition(self) -> str:
        return self.row["definition"]  # stored with its links written out

    def to_json(self) -> dict[str, Any]:
        row = self.row
        return {"word": row["word"], "found": self.found, "front_hooks": row["front_hooks"],
                "back_hooks": row["back_hooks"], "inner_front": row["inner_front"],
                "inner_back": row["inner_back"], "symbols": row["symbols"], "definition": self.definition}


@dataclass(frozen=True)
class WrongAnswer:
    """A word given that is not an answer: `valid` says whether it is a word of the lexicon at all."""

    word: str
    valid: bool

    def to_json(self) -> dict[str, Any]:
        return {"word": self.word, "valid": self.valid}


@dataclass(frozen=True)
class Feedback:
    """The feedback on one answered question.

    `answers` are the expected answers that are words of the lexicon, in the
    question's order (a position's answer is a play, which has none), or, for a
    question with `nothing_to_find` (a word that takes no hooks), the word asked
    about; `reasons` say, one phrase each, why a missed question counted as missed
    (empty when it counted as right).
    """

    id: str
    correct: bool
    answers: tuple[AnswerNote, ...]
    wrong: tuple[WrongAnswer, ...]
    missing: tuple[str, ...]
    reasons: tuple[str, ...]
    nothing_to_find: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "correct": self.correct, "answers": [a.to_json() for a in self.answers],
                "wrong": [w.to_json() for w in self.wrong], "missing": list(self.missing),
                "reasons": list(self.reasons), "nothing_to_find": self.nothing_to_find}


def word_notes(lex: Lexicon, words: Iterable[str], found: Collection[str] = ()) -> list[AnswerNote]:
    """Notes for those of WORDS that are words of LEX, in their order, each once (one query for all)."""
    return [AnswerNote(row, row["word"] in found)
            for row in rows_for_words(lex, words)]


def feedback(lex: Lexicon, outcome: Outcome, question_time: float | None = None) -> Feedback:
    """The feedback on OUTCOME (answered in LEX; `question_time`: the seconds a question allowed, if timed).
    A question answered by a play (rendered on a board) has no word notes: its reasons are the play's verdict;
    one answered by a choice about a word shown has that word's notes (a phony has none) and its verdict."""
    check, question = outcome.check, outcome.question
    if question.hint == BOARD:
        reasons: tuple[str, ...] = ()
        if not outcome.correct:
            reasons = tuple(_timing(outcome, question_time) + _play_verdict(check.details)) or ("marked missed",)
        return Feedback(question.id, outcome.correct, (), (), (), reasons)
    if question.hint == CHOICE:  # a word judged: its facts when it is one, and the verdict when missed
        verdict = [str(check.details["verdict"])] if "verdict" in check.details else []
        reasons = () if outcome.correct else tuple(_timing(outcome, question_time) + verdict) or ("marked missed",)
        shown = question.words_shown
        return Feedback(question.id, outcome.correct, tuple(word_notes(lex, shown, shown if outcome.correct else ())),
                        (), (), reasons)
    answers = word_notes(lex, question.expected, set(check.right))
    if not question.expected:  # nothing to find (a word with no hooks): the word asked about, with its facts
        answers = word_notes(lex, question.words_shown, question.words_shown if outcome.correct else ())
    wrong = tuple(WrongAnswer(word, word in lex) for word in check.wrong)
    return Feedback(question.id, outcome.correct, tuple(answers), wrong, tuple(check.missing),
                    () if outcome.correct else _reasons(lex, outcome, wrong, question_time),
                    nothing_to_find=not question.expected)


def _reasons(lex: Lexicon, outcome: Outcome, wrong: tuple[WrongAnswer, ...], question_time: float | None) -> tuple[str, ...]:
    """Why a question answered in words counted as missed, most telling first."""
    check = outcome.check
    reasons = _timing(outcome, question_time)
    if check.missing:
        reasons.append(f"missing {len(check.missing)} of {len(outcome.question.expected)}: {' '.join(check.missing)}")
    invalid = [w.word for w in wrong if not w.valid]
    if invalid:
        reasons.append(f"not words in {lex.name}: {' '.join(invalid)}")
    other = [w.word for w in wrong if w.valid]
    if other:
        reasons.append(f"words, but not answers here: {' '.join(other)}")
    return tuple(reasons or ["marked missed"])  # every word right and in time: the player's own mark


def _timing(outcome: Outcome, question_time: float | None) -> list[str]:
    if not outcome.timed_out:
        return []
    if not (outcome.check.right or outcome.check.wrong or outcome.check.details.get("play")):
        return ["the time ran out before an answer was given"]
    if question_time is not None and outcome.seconds > question_time:
        return [f"too slow: answered in {outcome.seconds:.1f} s ({question_time:g} s allowed)"]
    return ["answered after the round's time ran out"]


def _play_verdict(details: dict[str, Any]) -> list[str]:
    """Why a play was not the answer: its illegality, or its score against the top one (or what the kind
    said, when it wrote its own verdict lines)."""
    if isinstance(details.get("verdict"), list):
        return [str(line) for line in details["verdict"]]
    if details.get("reason"):
        return [str(details["reason"])]
    if details.get("score") is not None and details.get("top_score") is not None:
        return [f"{details.get('play')} scores {details['score']}; the top play scores {details['top_score']}"]
    return []
