"""One round of a session, question by question: the loop every face drives.

The terminal, `--jsonl`, flashcards, the position quiz and the web app all
ask through a `Round`: it holds the question on show (and its number), takes
an answer, a self-grade or a time-out for it, marks the previous answer
correct or missed, shows the letters in another order, takes the last scored
question back (undo) and finishes the session. A face only renders the
question and the outcome and reads the player's lines; `command` reads the
lines every face shares (`!quit`, `!c` / `!m`, `!undo`, `!shuffle`, `!order`).

Undo takes the last scored answer back exactly (`Session.undo`: the answer
row, the card as it was, the day's counts with them) and asks that question
again; the question that was on show comes back after it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict, dataclass
from typing import Any

from lexitrain.errors import LexitrainError
from lexitrain.study.quiz.kinds.base import Question
from lexitrain.study.quiz.session import KEPT_OUTCOMES, Outcome, Session, Summary

STOP = "!quit"
UNDO = "!undo"
OVERRIDES = {"!correct": True, "!c": True, "!missed": False, "!m": False}
SHUFFLES = ("!shuffle", "!s", ",")


@dataclass(frozen=True)
class Command:
    """An answer line that is no answer: stop, mark the previous answer (`correct`), undo, or reorder (`order`)."""

    name: str  # "stop", "override", "undo" or "reorder"
    correct: bool = False
    order: str = ""


def command(text: str) -> Command | None:
    """The command an answer line gives, None when it is an answer."""
    line = text.strip().lower()
    if line == STOP:
        return Command("stop")
    if line == UNDO:
        return Command("undo")
    if line in OVERRIDES:
        return Command("override", correct=OVERRIDES[line])
    order = reorder_order(line)
    return None if order is None else Command("reorder", order=order)


def reorder_order(line: str) -> str | None:
    """The letter order an answer line asks for: `!shuffle`, `!s` or `,` a new shuffle, `!order`
    alphabetical, `!order NAME` that order; None when the line is not one of these."""
    if line in SHUFFLES:
        return "random"
    word, _, name = line.partition(" ")
    return (name.strip() or "alphabetical") if word == "!order" else None


class Round:
    """A session asked one question at a time: the question on show, the last outcome, the summary once finished."""

    def __init__(self, session: Session, saved: dict[str, Any] | None = None) -> None:
        """A new round of SESSION (its first question shown), or with SAVED (`Round.saved`, the session carried on
        too) the round as it was when saved: its question on show, the last outcome, what an undo put back."""
        self.session = session
        self._questions: Iterator[Question] = iter(session.questions())
        self._again: list[tuple[Question, int]] = []  # questions put back by an undo, the next one last
        self.number = session.answered_before  # a resumed round numbers on from where it stopped
        self.question: Question | None = None
        self.last: Outcome | None = None
        self.summary: Summary | None = None
        if saved is None:
            self._advance()
            return
        self.number = saved["number"]
        self.question = None if saved["question"] is None else session.rebuilt(saved["question"])
        self.last = None if saved["last"] is None else Outcome.from_saved(saved["last"])
        self.summary = None if saved["summary"] is None else Summary(**saved["summary"])
        self._again = [(session.rebuilt(question), number) for question, number in saved["again"]]

    def saved(self) -> dict[str, Any]:
        """What carries the round on in another request or process (with `Session.saved`): JSON's types only."""
        return {"number": self.number, "question": None if self.question is None else self.question.saved(),
                "last": None if self.last is None else self.last.saved(),
                "summary": None if self.summary is None else asdict(self.summary),
                "again": [[question.saved(), number] for question, number in self._again]}

    def _advance(self) -> None:
        """Show the next question (a daily drill picks it after the last answer was saved); None when none is left."""
        if self._again:
            self.question, self.number = self._again.pop()
            self.session.restart_clock()
            return
        self.question = next(self._questions, None) if self.summary is None else None
        if self.question is not None:
            self.number += 1

    def current(self) -> Question:
        if self.question is None:
            raise LexitrainError("this round is over: every question has been asked")
        return self.question

    def _scored(self, outcome: Outcome) -> Outcome:
        self.last = outcome
        self._advance()
        return outcome

    def answer(self, text: str) -> Outcome:
        """Score an answer line to the question on show and move on. A line the question does not take
        raises `Refused` (from the session), nothing recorded, and the same question stays on show."""
        return self._scored(self.session.answer(self.current(), text))

    def grade(self, rating: int, text: str = "") -> Outcome:
        """Score the question on show by the player's own grade (AGAIN to EASY) and move on."""
        return self._scored(self.session.grade(self.current(), rating, text))

    def time_out(self, given: str = "") -> Outcome:
        """The question's clock (or the round's) ran out: scored as timed out, with what was given so far."""
        return self._scored(self.session.time_out(self.current(), given))

    def override(self, correct: bool) -> Outcome | None:
        """Mark the last answer correct or missed (`!c` / `!m`); None when nothing was answered yet."""
        if self.last is None:
            return None
        self.last = self.session.override(self.last, correct)
        return self.last

    def reorder(self, order: str) -> Question:
        """The question on show with its letters in ORDER (`random`: a new shuffle), its clock running on."""
        self.question = self.session.reorder(self.current(), order)
        return self.question

    def undo(self) -> Outcome | None:
        """Take the last scored answer back (`!undo`) and show its question again; the answer taken
        back, or None when there is none to take (nothing answered yet, the round finished, or the
        last KEPT_OUTCOMES answers taken back already: `nothing_to_undo` says which)."""
        if self.last is None or self.summary is not None:
            return None
        taken = self.last
        self.session.undo(taken)
        if self.question is not None:
            self._again.append((self.question, self.number))
        self._again.append((taken.question, self.number - (self.question is not None)))
        self.last = self.session.outcomes[-1] if self.session.outcomes else None
        self._advance()
        return taken

    def nothing_to_undo(self) -> str:
        """Why `undo` took nothing back (a round takes back its latest answers, one after another, as far as the
        session keeps them whole: `KEPT_OUTCOMES`)."""
        if self.summary is not None:
            return "this round is over: nothing to take back"
        if self.session.summary.questions == 0:
            return "nothing to take back: no answer given yet in this round"
        return f"nothing more to take back: a round takes back its last {KEPT_OUTCOMES} answers"

    def finish(self) -> Summary:
        """End the round (once): the question on show stays unscored."""
        if self.summary is None:
            self.question = None
            self._again.clear()
            self.summary = self.session.finish()
        return self.summary
