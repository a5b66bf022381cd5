"""A quiz session: asks questions, checks answers, records and schedules each one.

Every answer is written (and the card rescheduled) in one transaction the
moment it is checked, so the session can end at any point -- end of input,
a killed process, the round timer -- with nothing given lost. Only two
things score a question: an answer submitted (`answer()`) or a timer that
ran out (`time_out()`); a face that stops (the player quits, the input ends)
just calls `finish()`, and the question on screen stays as it was. An
answer the question does not take (an illegal play) is refused with its
reason (`Refused`), recording nothing, and the same question stays open. A "mark
correct" / "mark missed" override redoes the scheduling from the card's
state before that answer; `undo()` takes an answer back exactly. The faces
(terminal, JSON lines, the web app) drive a session through one `Round`
(round.py), and check words as typed with `check()`; a study request (`lexitrain.study.drills.requests`) makes the session.
Each kind is asked through the session's own instance of it, so what a kind
keeps (the position kind's solved positions) lives as long as the session.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Protocol, Sequence, runtime_checkable

from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import DamagedLexicon, Lexicon
from lexitrain.paths import data_folder
from lexitrain.study.quiz.kinds.base import LETTERS, Check, Question, QuestionKind, bind_store, new_kind
from lexitrain.study.quiz.kinds.words import check_letter_order
from lexitrain.study.quiz.replay import replay_card, rescheduling
from lexitrain.study.quiz.scheduler import (AGAIN, GOOD, RATINGS, Scheduling, check_rating, to_datetime, utc_now)
from lexitrain.study.store import CardRow, GivenAnswer, Opening, ProgressStore


class Refused(LexitrainError):
    """An answer line the question does not take (e.g. an illegal play), with the reason:
    nothing was recorded, and the question is still open (its clock still running)."""


#: Shuffles tried for one that differs from the letters on screen (AAB has only three orders).
SHUFFLE_TRIES = 8
#: The latest answers a session keeps whole (what an undo, one after another, and a mark can reach); of those
#: before, only what its summary needs (the missed questions' words), so an open round's state, loaded and saved
#: by every request, stays the same size however many questions it has asked (at 200 answers a review's
#: answer took 12 ms of CPU, 4 of them this state's 160 KB).
KEPT_OUTCOMES = 10


@runtime_checkable
class SavedPlan(Protocol):
    """Planned questions picked one at a time (the daily drill's) that say where they are, so a round carried on
    elsewhere picks on from there (`Session.saved`: a list's place is the session's own `taken`)."""

    def saved(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Item:
    """One planned question: a card (kind, key) and its stored id if it has one yet."""

    kind: str
    key: str
    card_id: int | None = None


#: The longest timer: a day is already no limit at all, and a bound keeps the clock arithmetic finite.
MAX_SECONDS = 86_400.0


@dataclass
class Timers:
    """Optional limits in seconds: per question (late = missed) and per round (ends it)."""

    question: float | None = None
    round: float | None = None

    def __post_init__(self) -> None:
        """A limit of zero or less would time out every answer (or ask nothing) without a word."""
        for name, seconds in (("--question-time", self.question), ("--round-time", self.round)):
            if seconds is not None and not 0 < seconds <= MAX_SECONDS:
                raise LexitrainError(f"{name} {seconds:g}: expected a number of seconds above 0 "
                                     f"and at most {MAX_SECONDS:g} (a day)")


@dataclass
class Outcome:
    """What one answer earned, as shown to the player and recorded."""

    question: Question
    check: Check
    correct: bool
    timed_out: bool
    seconds: float
    answer_id: int
    card: CardRow | None = None
    rating: int | None = None  # the grade given or earned (AGAIN to EASY); None: checked only
    late_mark: bool | None = None  # a challenge answer marked after the challenge ended (its verdict stays)
    made_card: bool = False  # the answer made the card (a quiz question becomes a card when answered)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.question.id,
            "correct": self.correct,
            "expected": list(self.question.expected),
            "right": list(self.check.right),
            "wrong": list(self.check.wrong),
            "missing": list(self.check.missing),
            "duplicates": list(self.check.duplicates),
            "timed_out": self.timed_out,
            "seconds": round(self.seconds, 3),
            **self.check.details,
        }
        if self.card is not None:
            data["card"] = card_json(self.card)
        if self.rating is not None:
            data["rating"] = RATING_NAMES[self.rating]
        if self.late_mark is not None:
            data["late_mark"] = self.late_mark
        return data

    def saved(self) -> dict[str, Any]:
        """The outcome whole, as an open round keeps it between two requests."""
        return {"question": self.question.saved(), "check": self.check.saved(), "correct": self.correct,
                "timed_out": self.timed_out, "seconds": self.seconds, "answer_id": self.answer_id,
                "card": None if self.card is None else asdict(self.card), "rating": self.rating,
                "late_mark": self.late_mark, "made_card": self.made_card}

    @classmethod
    def from_saved(cls, data: dict[str, Any]) -> Outcome:
        return cls(Question.from_saved(data["question"]), Check.from_saved(data["check"]), data["correct"],
                   data["timed_out"], data["seconds"], data["answer_id"],
                   None if data["card"] is None else CardRow(**data["card"]), data["rating"], data["late_mark"],
                   data["made_card"])


def card_json(card: CardRow) -> dict[str, Any]:
    """A card's scheduling state for output (times as ISO 8601 UTC)."""
    state = {0: "new", 1: "learning", 2: "review", 3: "relearning"}[card.state]
    due = to_datetime(card.due)
    return {
        "state": state, "due": due.isoformat() if due else None, "stability": card.stability,
        "difficulty": card.difficulty, "cardbox": card.cardbox, "streak": card.streak,
    }


@dataclass
class Summary:
    questions: int = 0
    correct: int = 0
    seconds: float = 0.0
    missed: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    missed_list: str | None = None
    timed_out: bool = False
    details: dict[str, Any] = field(default_factory=dict)  # what the round adds (today's counts, a personal best)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        details = data.pop("details")
        data["wrong"] = self.questions - self.correct
        data["seconds"] = round(self.seconds, 3)
        return {**data, **details}


RATING_NAMES = {number: name for name, number in RATINGS.items()}
#: The mode of the daily challenge's sessions, whose answers make an official attempt.
CHALLENGE = "challenge"
#: Works out a round's own summary fields once it has ended (e.g. the day's counts left).
Closing = Callable[[Summary], dict[str, Any]]
#: The grade (HARD to EASY) a right typed answer earns, from its kind and seconds taken.
Grader = Callable[[str, float], int]


class Session:
    """Runs a list of planned questions against the progress store."""

    def __init__(
        self,
        store: ProgressStore,
        lex: Lexicon,
        mode: str,
        source: str,
        items: Iterable[Item],
        scheduling: Scheduling | None,
        *,
        order: str = "alphabetical",
        timers: Timers | None = None,
        clock: Callable[[], float] = time.monotonic,
        title: str = "",
        closing: Closing | None = None,
        grader: Grader | None = None,
        session_id: int | None = None,
        answered_before: int = 0,
        kinds: Iterable[QuestionKind] = (),
    ) -> None:
        """`session_id`: carry on a stored session (a round resumed) instead of starting one, which had
        answered `answered_before` of its questions (a face numbers the rest on from there)."""
        self._id = session_id
        self._opening = Opening(mode, lex.name, source, utc_now().timestamp())
        self.store = store
        self.lex = lex
        self.mode = mode
        self.items = items
        self.scheduling = scheduling
        self.order = check_letter_order(order)
        self.timers = timers or Timers()
        self.clock = clock
        self.title = title  # one line naming the round, for a face's heading
        self.closing = closing
        self.grader = grader  # grades a right typed answer (e.g. by its speed); None: Good
        self.started = clock()
        self.asked_at = self.started
        self.resumed = session_id is not None  # a face may say how to start afresh instead
        self.answered_before = answered_before
        self.summary = Summary()
        self.taken = 0  # planned questions of a list handed out so far
        self.notes: dict[str, Any] = {}  # what the request that made it keeps with it, to make it again (JSON)
        self._asked_all = False  # every planned question was asked (and the face came back for more)
        self._finished = False
        self.outcomes: list[Outcome] = []  # the latest KEPT_OUTCOMES, oldest first
        self._missed_before: dict[str, list[str] | None] = {}  # the missed questions before those: id -> asking words
        self._card_ids: dict[str, int | None] = {}
        self._kinds: dict[str, QuestionKind] = {}
        for kind in kinds:  # instances made with options of their own
            self._kinds[kind.name] = bind_store(kind, self.store)

    @property
    def id(self) -> int:
        """The session's row: made by its first answer (in the answer's transaction), or when something
        is first kept under it (a challenge's attempt), so a round that answers nothing leaves no row."""
        if self._id is None:
            self._id = self.store.session_for(self._opening)
        return self._id

    def saved(self) -> dict[str, Any]:
        """What carries the session on in another request (or process), beside what made it (its study request,
        which makes it again): its clocks, counts, answers so far and place in its plan (JSON's types only)."""
        opening = self._opening
        return {"id": self._id, "opening": [opening.mode, opening.lexicon, opening.source, opening.started],
                "title": self.title, "started": self.started,
                "asked_at": self.asked_at,
                "taken": self.taken, "summary": asdict(self.summary), "asked_all": self._asked_all,
                "finished": self._finished, "outcomes": [o.saved() for o in self.outcomes],
                "missed_before": self._missed_before,
                "card_ids": self._card_ids, "resumed": self.resumed, "notes": self.notes,
                "plan": [[i.kind, i.key, i.card_id] for i in self.items] if isinstance(self.items, Sequence) else None,
                "picked": self.items.saved() if isinstance(self.items, SavedPlan) else None}

    def restore(self, data: dict[str, Any]) -> None:
        """Carry on where `saved` was taken (the session made again by its request, with the same id and plan; a
        session with no row yet makes it, at its first answer, as it would have been made where it started)."""
        mode, lexicon, source, at = data["opening"]
        self._opening = Opening(mode, lexicon, source, at)
        self.title, self.notes = data["title"], dict(data["notes"])
        self.started, self.asked_at, self.taken = data["started"], data["asked_at"], data["taken"]
        self.summary = Summary(**data["summary"])
        self._asked_all, self._finished, self.resumed = data["asked_all"], data["finished"], data["resumed"]
        self.outcomes = [Outcome.from_saved(o) for o in data["outcomes"]]
        self._missed_before = dict(data.get("missed_before", {}))  # (none in a round saved before they were kept)
        self._keep_latest()
        self._card_ids = dict(data["card_ids"])

    def rebuilt(self, data: dict[str, Any]) -> Question:
        """A question kept by `Question.saved`, built again by this session's kind (so it can be checked again,
        and a kind that keeps something for it has it), its prompt as it was shown."""
        built = self.kind(data["kind"]).build(self.lex, data["key"], self.order)
        return built if built.prompt == data["prompt"] else replace(built, prompt=data["prompt"])

    def kind(self, name: str) -> QuestionKind:
        """This session's instance of a kind, made on first use."""
        if name not in self._kinds:
            self._kinds[name] = bind_store(new_kind(name), self.store)
        return self._kinds[name]

    def time_left(self) -> float | None:
        if self.timers.round is None:
            return None
        return self.timers.round - (self.clock() - self.started)

    def questions(self) -> Iterator[Question]:
        """The questions in order, until the list or the round time runs out (a list's from where it was: a
        round carried on elsewhere goes on with its next question)."""
        for item in self._planned():
            left = self.time_left()
            if left is not None and left <= 0:
                self.summary.timed_out = True
                return
            question = self.ask(item)
            if question is not None:
                yield question
        self._asked_all = True  # (a face that stops the round never asks for the question after the last)

    def _planned(self) -> Iterator[Item]:
        if isinstance(self.items, Sequence):
            while self.taken < len(self.items):
                self.taken += 1
                yield self.items[self.taken - 1]
        else:
            yield from self.items

    def ask(self, item: Item) -> Question | None:
        """Build one planned question and start its clock (None if it cannot be built)."""
        try:
            question = self.kind(item.kind).build(self.lex, item.key, self.order)
        except DamagedLexicon:
            raise  # not this question's fault: every other would be skipped too
        except LexitrainError:
            self.summary.skipped.append(f"{item.kind}:{item.key}")  # e.g. no longer a word
            return None
        self._card_ids[question.id] = item.card_id
        self.asked_at = self.clock()
        return question

    def check(self, question: Question, text: str) -> Check:
        """The verdict an answer line would get, recording nothing (a face checks words as they are typed)."""
        return self.kind(question.kind).check(question, text)

    def answer_time_left(self) -> float | None:
        """Seconds until the open question times out, by its own limit or the round's (None: untimed)."""
        limits = [] if self.timers.question is None else [self.timers.question - (self.clock() - self.asked_at)]
        left = self.time_left()
        if left is not None:
            limits.append(left)
        return min(limits) if limits else None

    def reorder(self, question: Question, order: str) -> Question:
        """QUESTION with its letters shown in ORDER (`random`: a new shuffle, unlike the last one
        where the letters allow), its clock running on. A question that shows no letters to reorder
        (a word, a board) comes back as it was."""
        check_letter_order(order)
        if question.hint != LETTERS:
            return question  # a board: building it again would solve the position again
        kind = self.kind(question.kind)
        again = kind.build(self.lex, question.key, order)
        for _ in range(SHUFFLE_TRIES):
            if order != "random" or again.prompt != question.prompt:
                break
            again = kind.build(self.lex, question.key, order)
        return again

    def answer(self, question: Question, text: str, rating: int | None = None) -> Outcome:
        """Check an answer line, record it and reschedule the card, all at once; with a
        `rating` (the player's own grade, AGAIN to EASY) the grade decides, not the check.

        Raises Refused, recording nothing, for a line the question does not take
        (unless it came too late: then it is scored as timed out, like no answer)."""
        seconds = self.clock() - self.asked_at
        check = self.check(question, text)
        left = self.time_left()
        timed_out = (self.timers.question is not None and seconds > self.timers.question) or (
            left is not None and left < 0)  # typed after the round's time ran out
        if check.refused is not None and not timed_out and rating is None:
            raise Refused(check.refused)
        return self._record(question, text, check, timed_out, seconds, rating)

    def time_out(self, question: Question, given: str = "") -> Outcome:
        """The open question's time (its own or the round's) ran out: score it as timed out,
        with whatever was given so far (words a face had already taken)."""
        left = self.time_left()
        if left is not None and left <= 0:
            self.summary.timed_out = True
        return self._record(question, given, self.check(question, given), True, self.clock() - self.asked_at)

    def _record(self, question: Question, text: str, check: Check, timed_out: bool, seconds: float,
                rating: int | None = None) -> Outcome:
        """Save one scored answer and reschedule its card, in one transaction (`ProgressStore.grade_card`)."""
        correct = check.correct and not timed_out if rating is None else check_rating(rating) != AGAIN
        if rating is None and self.grader is not None:
            rating = self.grader(question.kind, seconds) if correct else AGAIN
        card_id = self._card_ids.get(question.id)
        reschedule = None if self.scheduling is None else rescheduling(
            self.store, self.scheduling, rating or (GOOD if correct else AGAIN))
        with self.store.transaction():  # (the session's row made with its first answer, or with none)
            kept = self.store.grade_card(
                GivenAnswer(self._opening if self._id is None else self._id, self.mode, self.lex.name, question.kind,
                            question.key, text, correct, int(seconds * 1000), rating),
                reschedule, card_id=card_id, make_card=card_id is None and self.scheduling is not None)
        self._id = kept.session_id
        outcome = Outcome(question, check, correct, timed_out, seconds, kept.answer_id, kept.after, rating,
                          made_card=kept.made_card)
        self.outcomes.append(outcome)
        self.summary.questions += 1
        self.summary.correct += int(correct)
        self._keep_latest()
        return outcome

    def _keep_latest(self) -> None:
        """Keep the latest KEPT_OUTCOMES answers whole; of an earlier one, only its question's words if missed."""
        while len(self.outcomes) > KEPT_OUTCOMES:
            earlier = self.outcomes.pop(0)
            if not earlier.correct:
                self._missed_before[earlier.question.id] = self._asking_words(earlier.question)

    def _asking_words(self, question: Question) -> list[str] | None:
        words = self.kind(question.kind).asking_words(question)
        return None if words is None else list(words)

    def grade(self, question: Question, rating: int, text: str = "") -> Outcome:
        """Record a self-graded answer (the answer revealed, or `text` typed): Again is
        missed, Hard, Good and Easy are right, and FSRS schedules the card by the grade."""
        return self.answer(question, text, rating)

    def override(self, outcome: Outcome, correct: bool) -> Outcome:
        """Mark an answer correct (a typo) or missed (a guess): rescore it, and make its card again from
        its history with the new verdict (`replay`: an answer given to it since, in another drill, stands
        and is graded again from the card as this verdict leaves it). A challenge's answer marked after the challenge
        ended keeps its verdict: the mark is recorded beside it (`late_mark`), and neither the
        attempt nor the personal best changes."""
        if self.mode == CHALLENGE and self._over():  # the official attempt is what was typed in time
            self.store.mark_late(outcome.answer_id, correct, utc_now().timestamp())
            return self._replaced(outcome, replace(outcome, late_mark=correct))
        if outcome.correct == correct:
            return outcome
        with self.store.transaction():
            self.store.mark_answer(outcome.answer_id, correct, utc_now().timestamp())
            card_id = self.store.answer_card(outcome.answer_id)
            after = None if card_id is None or self.scheduling is None else replay_card(self.store, card_id)
        self.summary.correct += 1 if correct else -1
        changed = Outcome(outcome.question, outcome.check, correct, outcome.timed_out, outcome.seconds,
                          outcome.answer_id, after or outcome.card, made_card=outcome.made_card)
        return self._replaced(outcome, changed)

    def _replaced(self, outcome: Outcome, changed: Outcome) -> Outcome:
        """CHANGED kept for OUTCOME: in place among the latest, else (an earlier answer: a wall's cell marked
        long after) in the missed questions before them."""
        if outcome in self.outcomes:
            self.outcomes[self.outcomes.index(outcome)] = changed
        elif changed.correct:
            self._missed_before.pop(outcome.question.id, None)
        else:
            self._missed_before[outcome.question.id] = self._asking_words(outcome.question)
        return changed

    def _over(self) -> bool:
        """Whether the round has ended: its time up, every planned question scored, or finished."""
        left = self.time_left()
        planned = len(self.items) if isinstance(self.items, (list, tuple)) else None
        return (self._finished or self.summary.timed_out or (left is not None and left <= 0)
                or (planned is not None and self.summary.questions >= planned))

    def undo(self, outcome: Outcome) -> None:
        """Take a scored answer back exactly: its row (its retraction kept, to travel), its card as it
        was before (a card it made is gone again) and so the day's counts, and the round's counts. Refused (a one-line
        error, nothing changed) when the card was answered again since, in another drill, and in the
        daily challenge, whose attempt is what was typed."""
        if self.mode == CHALLENGE:
            raise LexitrainError("the daily challenge's answers stand: no undo (mark one with !c / !m)")
        with self.store.transaction():
            self.store.take_back_answer(outcome.answer_id, outcome.card, outcome.made_card, utc_now().timestamp())
            if outcome.card is not None and not outcome.made_card:
                replay_card(self.store, outcome.card.id)  # (as it was before the answer, when it was the latest)
        self.outcomes.remove(outcome)
        self.summary.questions -= 1
        self.summary.correct -= int(outcome.correct)

    def restart_clock(self) -> None:
        """A question asked again (after an undo) is timed from now."""
        self.asked_at = self.clock()

    def finish(self, save_missed: bool = True) -> Summary:
        """Close the session: totals, the missed words saved as a new word list
        (for the kinds a missed list applies to), and the round's own details."""
        self._finished = True
        self.summary.seconds = self.clock() - self.started
        missed = {**self._missed_before, **{o.question.id: self._asking_words(o.question)
                                            for o in self.outcomes if not o.correct}}
        self.summary.missed = list(missed)
        asking = [tuple(words) for words in missed.values() if words is not None]
        if asking and save_missed:
            self.summary.missed_list = str(save_missed_list(self.mode, asking))
        if self._id is not None:
            self.store.end_session(self._id, utc_now().timestamp(), complete=self._asked_all or self.summary.timed_out)
        if self.closing is not None:
            self.summary.details.update(self.closing(self.summary))
        return self.summary


def lists_dir() -> Path:
    return data_folder("lists")


def save_missed_list(mode: str, asking: list[tuple[str, ...]]) -> Path:
    """The words that ask the missed questions again, one a line: quiz them again with `--file`."""
    words: dict[str, None] = {}
    for each in asking:
        words.update(dict.fromkeys(each))
    stamp = utc_now().strftime("%Y%m%d-%H%M%S")
    path = lists_dir() / f"missed-{mode}-{stamp}.txt"
    number = 1
    while path.exists():
        number += 1
        path = lists_dir() / f"missed-{mode}-{stamp}-{number}.txt"
    path.write_text("".join(f"{w}\n" for w in words), encoding="utf-8")
    return path


def saved_plan(saved: dict[str, Any]) -> list[Item]:
    """The planned questions of a list a saved session kept (`Session.saved`)."""
    return [Item(kind, key, card_id) for kind, key, card_id in saved["plan"]]
