"""Getting ready for a tournament: the cards FSRS predicts forgotten by the day come first.

`prepare(store, lexicon, "2026-05-01", 0.9)` takes every reviewed card that
is not suspended, not due yet and not due again before the tournament, and
whose FSRS retrievability on the tournament day (its local midnight) would
be below the retention asked for. Those cards are spread evenly over the
days left (today first, at most one more a day than any other day), in the
order they fall below that retention, and are due then. Only due dates
move (as with `study postpone`): FSRS sees the real elapsed time at each
review. The retrievability is FSRS's own formula, with the `fsrs` package's
parameters and its whole elapsed days, so it equals
`fsrs.Scheduler.get_card_retrievability` for the same card and time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from lexitrain.errors import LexitrainError
from lexitrain.study.daily import day_start
from lexitrain.study.scheduler import utc_now
from lexitrain.study.store import ProgressStore

DAY = 86400.0


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


class Forgetting:
    """FSRS's forgetting curve with the `fsrs` package's parameters."""

    def __init__(self) -> None:
        import fsrs

        self.decay = -fsrs.Scheduler().parameters[20]
        self.factor = 0.9 ** (1 / self.decay) - 1

    def retrievability(self, stability: float, last_review: float, at: float) -> float:
        """Recall probability at `at` (unix seconds), counting whole elapsed days as fsrs does."""
        elapsed_days = max(0, int((at - last_review) // DAY))
        return float((1 + self.factor * elapsed_days / stability) ** self.decay)

    def falls_below(self, stability: float, last_review: float, retention: float) -> float:
        """When (unix seconds) recall drops to `retention`."""
        return last_review + stability / self.factor * (retention ** (1 / self.decay) - 1) * DAY


def prepare(store: ProgressStore, lexicon: str, day_text: str, retention: float) -> TournamentPlan:
    """Pull the cards at risk on the day forward, spread over the days left (see the module's note)."""
    now = utc_now()
    today = day_start(now)
    day = parse_date(day_text, today.date())
    check_retention(retention)
    starts = _midnight(today, day)
    days = max(1, (day - today.date()).days)
    curve = Forgetting()
    at_risk = []
    for card_id, stability, last_review, due in store.scheduled_after(lexicon, now.timestamp()):
        if curve.retrievability(stability, last_review, starts) < retention:
            at_risk.append((card_id, stability, last_review, due))
    moving = sorted((c for c in at_risk if c[3] >= starts),
                    key=lambda c: (curve.falls_below(c[1], c[2], retention), c[0]))
    due_by_card: dict[int, float] = {}
    per_day = dict.fromkeys(((today.date() + timedelta(days=d)).isoformat() for d in range(days)), 0)
    for index, (card_id, *_rest) in enumerate(moving):
        offset = index * days // len(moving)
        due_by_card[card_id] = now.timestamp() if offset == 0 else _midnight(today, today.date() + timedelta(days=offset))
        per_day[(today.date() + timedelta(days=offset)).isoformat()] += 1
    store.move_due_dates(due_by_card)
    return TournamentPlan(day.isoformat(), retention, days, len(at_risk), len(moving), per_day)


def _midnight(today: datetime, day: date) -> float:
    """The player's local midnight starting `day` (unix seconds)."""
    return today.replace(year=day.year, month=day.month, day=day.day).timestamp()
