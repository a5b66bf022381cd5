"""An overdue backlog handled without punishment: postpone, or spread it over days.

Neither touches a card's memory state (stability, difficulty, reviews): only
when it is due, and only if the card is still as it was read: one answered
while the backlog was being sorted keeps what the answer gave it. FSRS then sees the real elapsed time at the next review, so a
postponed card that was still known is rewarded, not reset.
"""

from __future__ import annotations

from datetime import timedelta

from lexitrain.errors import LexitrainError
from lexitrain.study.quiz.scheduler import Scheduling, utc_now
from lexitrain.study.store import CardRow, DueMove, ProgressStore

DAY = 86400.0
#: The furthest a postponement reaches: past it a date would not be a study plan any more.
MAX_DAYS = 3650


def _overdue(store: ProgressStore, lexicon: str, scheduling: Scheduling) -> list[tuple[float, CardRow]]:
    """Overdue cards with FSRS's recall estimate, least at risk (most likely recalled) first."""
    store.check_integrity("the reschedule")
    now = utc_now()
    cards = store.due_cards(lexicon, now.timestamp(), 10_000_000)
    rated = [(scheduling.retrievability(card, now), card) for card in cards]
    rated.sort(key=lambda pair: (-pair[0], pair[1].due))
    return rated


def postpone(store: ProgressStore, lexicon: str, scheduling: Scheduling, days: int, count: int | None = None) -> int:
    """Push the `count` overdue cards least at risk (all when None) `days` days forward; how many
    moved (a card answered meanwhile is not)."""
    if not 1 <= days <= MAX_DAYS:
        raise LexitrainError(f"--days {days}: expected 1 to {MAX_DAYS} (ten years)")
    if count is not None and count <= 0:  # a negative slice would postpone all but the last few
        raise LexitrainError("--count must be at least 1")
    rated = _overdue(store, lexicon, scheduling)[: count if count is not None else None]
    now = utc_now()
    due = (now + timedelta(days=days)).timestamp()
    return store.move_due_dates((DueMove(card.id, card.due, card.last_review, due) for _, card in rated), now.timestamp())


def spread(store: ProgressStore, lexicon: str, scheduling: Scheduling, per_day: int) -> tuple[int, int]:
    """Keep `per_day` overdue cards due today (most at risk first), the rest one batch a day after.

    Returns (overdue cards, days they now take, today included), for the player to see the plan."""
    if per_day <= 0:
        raise LexitrainError("--per-day must be at least 1")
    rated = list(reversed(_overdue(store, lexicon, scheduling)))
    now = utc_now().timestamp()
    store.move_due_dates((DueMove(card.id, card.due, card.last_review, now + (index // per_day) * DAY)
                          for index, (_, card) in enumerate(rated) if index >= per_day), now)
    return len(rated), (len(rated) + per_day - 1) // per_day
