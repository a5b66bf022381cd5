"""Getting ready for a tournament: the cards FSRS predicts forgotten by the day come first.

`prepare(store, lexicon, "2026-05-01", 0.9)` takes every reviewed card that
is not suspended, not due yet and not due again before the tournament, and
whose FSRS retrievability on the tournament day (its local midnight) would
be below the retention asked for. Those cards are spread evenly over the
days left (today first, at most one more a day than any other day), in the
order they fall below that retention, and are due then. Only due dates
move (as with `study postpone`), and only on cards still as they were read
(one answered meanwhile keeps what the answer gave it): FSRS sees the real elapsed time at each
review. The retrievability is FSRS's own formula, with the `fsrs` package's
parameters and its whole elapsed days, as `fsrs.Scheduler.get_card_retrievability`
computes it for the same card and time; solved for the elapsed days, it
becomes one comparison the store makes on every card at once.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from lexitrain.errors import LexitrainError
from lexitrain.study.drills.daily import day_start
from lexitrain.study.quiz.scheduler import utc_now
from lexitrain.study.store import DueMove, ProgressStore



@dataclass
class TournamentPlan:
    """What was rescheduled: the cards at risk, those moved, and how many fall on each day."""

    day: str
    retention: float
    days: int
    at_risk: int
    moved: int
    per_day: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"date": self.day, "retention": self.retention, "days": self.days, "at_risk": self.at_risk,
                "moved": self.moved, "per_day": self.per_day}


def parse_date(text: str, today: date) -> date:
    """The tournament's date: YYYY-MM-DD, today or later."""
    try:
        day = date.fromisoformat(text)
    except ValueError:
        raise LexitrainError(f"tournament date {text!r}: expected YYYY-MM-DD") from None
    if day < today:
        raise LexitrainError(f"tournament date {day} is in the past (today is {today})")
    return day


def check_retention(retention: float) -> float:
    if not 0 < retention < 1:
        raise LexitrainError(f"--retention {retention}: expected a recall probability between 0 and 1, e.g. 0.9")
    return retention


def days_per_stability(retention: float) -> float:
    """FSRS's recall after t whole days is (1 + FACTOR * t / S) ** DECAY (DECAY < 0; the
    `fsrs` package's parameters), so it is below `retention` exactly when t exceeds S times this."""
    import fsrs

    decay = -fsrs.Scheduler().parameters[20]
    factor = 0.9 ** (1 / decay) - 1
    return float((retention ** (1 / decay) - 1) / factor)


def prepare(store: ProgressStore, lexicon: str, day_text: str, retention: float) -> TournamentPlan:
    """Pull the cards at risk on the day forward, spread over the days left (see the module's note)."""
    now = utc_now()
    today = day_start(now)
    day = parse_date(day_text, today.date())
    check_retention(retention)
    starts = _midnight(today, day)
    days = max(1, (day - today.date()).days)
    store.check_integrity("the reschedule")
    at_risk = store.cards_forgotten_by(lexicon, now.timestamp(), starts, days_per_stability(retention))
    moving = [card for card in at_risk if card[1] >= starts]  # (in the order they are forgotten)
    dates = [today.date() + timedelta(days=d) for d in range(days)]
    due_on = [now.timestamp()] + [_midnight(today, d) for d in dates[1:]]  # today's share is due at once
    offsets = [index * days // len(moving) for index in range(len(moving))]
    store.move_due_dates((DueMove(card_id, due, last_review, due_on[offset])
                          for (card_id, due, last_review), offset in zip(moving, offsets)), now.timestamp())
    taken = Counter(offsets)
    per_day = {d.isoformat(): taken[offset] for offset, d in enumerate(dates)}
    return TournamentPlan(day.isoformat(), retention, days, len(at_risk), len(moving), per_day)


def _midnight(today: datetime, day: date) -> float:
    """The player's local midnight starting `day` (unix seconds)."""
    return today.replace(year=day.year, month=day.month, day=day.day).timestamp()
