"""When a card comes back: FSRS (the default) or a Zyzzyva-style Leitner cardbox.

FSRS runs through the `fsrs` package: a typed answer that is right is rated
Good, a wrong one Again; a player grading themselves picks any of the four
ratings (Again, Hard, Good, Easy). Every card carries its explicit id and all
times are UTC. The Leitner mode moves a card back to box 0 on Again, keeps it
in its box on Hard, moves it up one box on Good and two on Easy, with
Zyzzyva's schedule. Both keep the other's fields up to date, so a player can
switch modes without losing history.

An answer schedules the same way wherever and whenever it is graded: FSRS spreads review intervals
by a small random fuzz, and here its draw is made from the answer itself (the card and the moment
it was given), so that replaying a card's answers on another machine (`replay.py`, the sync) gives
every due date again to the second. `Scheduling.spec` is the way of scheduling as data: each answer
keeps the one in force (`study.store.history`), and it travels with the answer.
"""

from __future__ import annotations

import contextvars
import hashlib
import json
import random
from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone
from functools import cache, lru_cache
from types import ModuleType
from typing import TYPE_CHECKING, Any

from lexitrain.errors import LexitrainError
from lexitrain.study.store import CardRow, ProgressStore
from lexitrain.study.store.clock import utc_now

if TYPE_CHECKING:
    import fsrs
    import numpy as np

#: Days until the next review for each Leitner box (Zyzzyva's default schedule).
LEITNER_DAYS = (1, 4, 7, 12, 20, 30, 60, 90, 150, 270, 480)
MODES = ("fsrs", "leitner")
DEFAULT_RETENTION = 0.9
NEW = 0
LEARNING = 1  # FSRS's state of a card being learnt
#: The four self-grading ratings, numbered as FSRS numbers them.
AGAIN, HARD, GOOD, EASY = 1, 2, 3, 4
RATINGS = {"again": AGAIN, "hard": HARD, "good": GOOD, "easy": EASY}
#: The setting that holds the player's own FSRS parameters: {"general": [...] or None,
#: "decks": {"<deck id>": [...]}} (see fsrs_fit.py).
FSRS_PARAMETERS = "fsrs_parameters"
#: Leitner boxes a rating moves a card by (Again sends it back to box 0).
_BOX_STEPS = {HARD: 0, GOOD: 1, EASY: 2}


def check_rating(rating: int) -> int:
    """A rating 1-4 (Again, Hard, Good, Easy), or a one-line error."""
    if rating not in _BOX_STEPS and rating != AGAIN:
        raise LexitrainError(f"rating {rating!r}: expected 1 (Again), 2 (Hard), 3 (Good) or 4 (Easy)")
    return rating


def to_datetime(seconds: float | None) -> datetime | None:
    return None if seconds is None else datetime.fromtimestamp(seconds, timezone.utc)


@dataclass(frozen=True)
class Scheduling:
    """How answers move cards: the mode, FSRS's desired retention, and the player's own FSRS
    parameters where `study optimize` fitted them (None: FSRS's defaults), in general and
    for each deck whose cards its own fit predicts better (deck id, parameters)."""

    mode: str = "fsrs"
    retention: float = DEFAULT_RETENTION
    parameters: tuple[float, ...] | None = None
    deck_parameters: tuple[tuple[int, tuple[float, ...]], ...] = ()

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise LexitrainError(f"unknown scheduling mode {self.mode!r} (use {' or '.join(MODES)})")
        if not 0.7 <= self.retention <= 0.99:
            raise LexitrainError(f"desired retention {self.retention} is outside 0.70-0.99")

    def spec(self) -> dict[str, Any]:
        """This way of scheduling as plain data (what an answer keeps of it, `from_spec` reads back)."""
        return {"mode": self.mode, "retention": self.retention,
                "parameters": None if self.parameters is None else list(self.parameters)}

    @staticmethod
    def from_spec(spec: Any) -> Scheduling:
        """The way of scheduling a `spec` describes; a one-line error for one that is not one."""
        if not isinstance(spec, dict) or set(spec) != {"mode", "retention", "parameters"}:
            raise LexitrainError(f"not a way of scheduling: {str(spec)[:80]!r}")
        parameters = spec["parameters"]
        if parameters is not None and (not isinstance(parameters, list) or not 1 <= len(parameters) <= 64 or not all(
                isinstance(p, (int, float)) and not isinstance(p, bool) and abs(p) < 1e6 for p in parameters)):
            raise LexitrainError(f"FSRS parameters {str(parameters)[:80]!r}: expected a list of numbers")
        retention = spec["retention"]
        if isinstance(retention, bool) or not isinstance(retention, (int, float)):
            raise LexitrainError(f"desired retention {retention!r} is not a number")
        if not isinstance(spec["mode"], str):
            raise LexitrainError(f"scheduling mode {spec['mode']!r} is not a name")
        return Scheduling(spec["mode"], float(retention), None if parameters is None else tuple(map(float, parameters)))

    def review(self, card: CardRow, correct: bool, now: datetime) -> CardRow:
        """The card after one typed answer at `now`: right is Good, wrong is Again."""
        return self.grade(card, GOOD if correct else AGAIN, now)

    def grade(self, card: CardRow, rating: int, now: datetime) -> CardRow:
        """The card after one answer graded AGAIN, HARD, GOOD or EASY at `now`
        (counters, FSRS state, box, due); every rating but Again counts as right."""
        fsrs = load_fsrs()
        correct = check_rating(rating) != AGAIN
        scheduler = _fsrs_scheduler(self.retention, self.parameters)
        before = _to_fsrs(card, now)
        seeded = _FUZZ_SEED.set(f"{card.lexicon}\x1f{card.kind}\x1f{card.key}\x1f{now.timestamp()!r}")
        try:
            after, _log = scheduler.review_card(before, fsrs.Rating(rating), now)
        finally:
            _FUZZ_SEED.reset(seeded)
        box = min(card.cardbox + _BOX_STEPS[rating], len(LEITNER_DAYS) - 1) if correct else 0
        if self.mode == "leitner":
            due = now + timedelta(days=LEITNER_DAYS[box])
        else:
            due = after.due
        streak = (max(card.streak, 0) + 1) if correct else (min(card.streak, 0) - 1)
        return replace(
            card,
            state=int(after.state),
            step=after.step,
            stability=after.stability,
            difficulty=after.difficulty,
            due=due.timestamp(),
            last_review=now.timestamp(),
            cardbox=box,
            correct=card.correct + int(correct),
            incorrect=card.incorrect + int(not correct),
            streak=streak,
        )

    def retrievability(self, card: CardRow, now: datetime) -> float:
        """FSRS's estimate that the card is still known at `now` (0 for a new card)."""
        if card.state == NEW:
            return 0.0
        return float(_fsrs_scheduler(self.retention, self.parameters)
                     .get_card_retrievability(_to_fsrs(card, now), now))


    def forgetting_curve(self) -> ForgettingCurve:
        """FSRS's retrievability for these parameters, as a plain function (see ForgettingCurve)."""
        decay = -(self.parameters or load_fsrs().scheduler.DEFAULT_PARAMETERS)[20]
        return ForgettingCurve(0.9 ** (1 / decay) - 1, decay)


@dataclass(frozen=True)
class ForgettingCurve:
    """FSRS's retrievability as a function of (stability, last review, at): the same figure as
    `Scheduling.retrievability` (whole days elapsed), without building an FSRS card, so that many
    cards are reckoned at once (`many`, on arrays); 0 for a card never reviewed."""

    factor: float
    decay: float

    def __call__(self, stability: float | None, last_review: float | None, at: float) -> float:
        if stability is None or last_review is None or stability <= 0:
            return 0.0
        days = max(0, int((at - last_review) // 86400))
        return float((1 + self.factor * days / stability) ** self.decay)

    def many(self, stability: np.ndarray, last_review: np.ndarray, at: float) -> np.ndarray:
        """The same on arrays; NaN stability or last review (never reviewed) gives 0."""
        import numpy as np

        known = ~(np.isnan(stability) | np.isnan(last_review)) & (np.nan_to_num(stability) > 0)
        days = np.maximum(0, np.floor((at - np.nan_to_num(last_review)) / 86400))
        safe = np.where(known, stability, 1.0)
        return np.where(known, (1 + self.factor * days / safe) ** self.decay, 0.0)


def scheduling_id(spec: dict[str, Any]) -> str:
    """The name a way of scheduling is kept under: a digest of its spec, the same on every machine."""
    text = json.dumps(spec, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


#: The answer being graded (its card and moment), whose fuzz draw `_answer_draw` makes.
_FUZZ_SEED: contextvars.ContextVar[str | None] = contextvars.ContextVar("fuzz_seed", default=None)


def _answer_draw() -> float:
    """A number in [0, 1) for FSRS's fuzz: drawn from the answer being graded (the same answer, the
    same draw, on any machine), or at random outside a grade."""
    seed = _FUZZ_SEED.get()
    if seed is None:
        return random.random()
    return int.from_bytes(hashlib.blake2b(seed.encode(), digest_size=8).digest(), "big") / 2**64


@cache
def load_fsrs() -> ModuleType:
    """fsrs, loaded on first use (it is slow to load), its interval fuzz drawn from the answer being graded: FSRS
    draws it from `fsrs.scheduler.random`, made `_answer_draw` here, once."""
    import fsrs

    fsrs.scheduler.random = _answer_draw
    return fsrs


@lru_cache(maxsize=8)
def _fsrs_scheduler(retention: float, parameters: tuple[float, ...] | None) -> fsrs.Scheduler:
    fsrs = load_fsrs()
    if parameters is None:
        return fsrs.Scheduler(desired_retention=retention)
    return fsrs.Scheduler(parameters=parameters, desired_retention=retention)


def _to_fsrs(card: CardRow, now: datetime) -> fsrs.Card:
    fsrs = load_fsrs()
    if card.state == NEW:
        return fsrs.Card(card_id=card.id, due=now)
    return fsrs.Card(
        card_id=card.id,
        state=fsrs.State(card.state),
        step=card.step,
        stability=card.stability,
        difficulty=card.difficulty,
        due=to_datetime(card.due) or now,
        last_review=to_datetime(card.last_review),
    )


def load_scheduling(store: ProgressStore) -> Scheduling:
    """The player's way of scheduling: mode, retention, and their own FSRS parameters if fitted."""
    own = store.setting(FSRS_PARAMETERS, {})
    general = own.get("general")
    return Scheduling(store.setting("mode", "fsrs"), float(store.setting("retention", 0.9)),
                      tuple(general) if general else None,
                      tuple((int(deck), tuple(values)) for deck, values in own.get("decks", {}).items()))


def scheduling_for(store: ProgressStore, card_id: int, general: Scheduling) -> Scheduling:
    """How a card is scheduled: the general way, with its deck's desired retention if it sets one
    and the deck's own FSRS parameters if `study optimize` gave it some."""
    retention = store.deck_retention(card_id)
    scheduling = general if retention is None else replace(general, retention=retention)
    if general.deck_parameters:
        own = dict(general.deck_parameters).get(store.card_deck(card_id) or 0)
        if own is not None:
            scheduling = replace(scheduling, parameters=own)
    return scheduling
