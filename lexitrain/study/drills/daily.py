"""The daily drill: today's due reviews, then new cards from the active plan.

By default the most overdue review comes first and new cards come in the
plan's order; with `study set --daily-order points-per-game`, each is the one whose
study gains the most points per game per minute (records/stakes.py), by a
ranking of the due and the new cards the drill makes outside its
transactions every few minutes, each pick taking the best still eligible.

Limits count what was already done today in daily sessions, and the next
card is picked afresh before every question, so stopping half-way and
running `daily` again the same day simply carries on; cards answered wrong
come back once their (minutes-long) learning step is due. Two drills at once
(two terminals, a terminal and the web app) never ask the same card: each
card handed out is leased to its drill until it is answered.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from collections.abc import Callable
from typing import Any

from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.study.drills.positions import next_daily_position
from lexitrain.study.records.decks import check_daily_limit, full_decks
from lexitrain.study.records.stakes import POINTS_FIRST, Stakes, daily_order
from lexitrain.study.drills.plans import active_plan
from lexitrain.study.quiz.scheduler import load_scheduling, utc_now
from lexitrain.study.quiz.session import Item
from lexitrain.study.store import CardRow, ProgressStore

MODE = "daily"
#: How long a card handed out stays another drill's: a drill killed with a card on screen
#: cannot give it back, so its lease runs out on its own.
LEASE_SECONDS = 600.0
EVERY = -1  # SQLite's LIMIT for no limit
#: the pools of cards the drill ranks by points at stake
DUE, NEW = "due", "new"


@dataclass(frozen=True)
class Limits:
    """Most new cards and most reviews a day's drill holds."""

    new: int = 20
    reviews: int = 200

    def __post_init__(self) -> None:
        check_daily_limit("--new", self.new)
        check_daily_limit("--reviews", self.reviews)


def load_limits(store: ProgressStore) -> Limits:
    return Limits(int(store.setting("limit:new", Limits.new)), int(store.setting("limit:reviews", Limits.reviews)))


def load_stakes(store: ProgressStore, lex: Lexicon) -> Stakes | None:
    """What ranks the drill's cards when the player asked for points first (None: the usual order)."""
    if daily_order(store) != POINTS_FIRST:
        return None
    try:
        return Stakes(store, lex, load_scheduling(store))
    except LexitrainError as exc:
        raise LexitrainError(f"{exc} (or go back to the usual order: `lexitrain study set --daily-order due`)") from None


def day_start(now: datetime) -> datetime:
    """Midnight of the player's local day containing `now`."""
    local = now.astimezone()
    return local.replace(hour=0, minute=0, second=0, microsecond=0)


def day_end(now: datetime) -> datetime:
    """Midnight at the end of the player's local day containing `now` (23 or 25 hours on a clock change)."""
    return datetime.combine(now.astimezone().date() + timedelta(days=1), time()).astimezone()


@dataclass
class DayStatus:
    new_done: int
    reviews_done: int
    due_now: int
    new_waiting: int  # counted up to the day's room for new cards (all that `new_left` needs)
    limits: Limits
    due_later_today: int = 0  # not due yet, but before midnight (cards in their learning steps)
    # the cards answered today by any route (the drill, a quiz, a wall, the positions...): what "done today" says,
    # while the limits spend the drill's own answers above
    new_answered: int = 0
    reviews_answered: int = 0

    @property
    def new_left(self) -> int:
        return max(0, min(self.limits.new - self.new_done, self.new_waiting))

    @property
    def reviews_left(self) -> int:
        return max(0, min(self.limits.reviews - self.reviews_done, self.due_now))

    @property
    def nothing_left(self) -> bool:
        return self.new_left == 0 and self.reviews_left == 0


def next_card(
    store: ProgressStore, lexicon: str, plan_id: int, limits: Limits, now: datetime, skip: frozenset[int] = frozenset(),
    held: tuple[int, int] = (0, 0), stakes: Stakes | None = None,
) -> CardRow | None:
    """The next card of today's drill: a due review while allowed, else a new card while allowed;
    with `stakes`, of each the one whose study gains the most points per minute.

    `held` is (new cards, reviews) on screen in other drills right now: they count
    against today's limits as if answered, so two drills at once stay within them."""
    at = now.timestamp()
    new_done, reviews_done = store.answers_since(MODE, lexicon, day_start(now).timestamp())
    new_done, reviews_done = new_done + held[0], reviews_done + held[1]
    no_reviews, no_new = full_decks(store, MODE, lexicon, day_start(now))  # decks with their own limits
    if reviews_done < limits.reviews:
        if stakes is None:
            due = store.due_cards(lexicon, at, 1, skip, no_reviews)
        else:
            due = _by_points(stakes, DUE, lambda ids, limit: store.due_cards(lexicon, at, limit, skip, no_reviews, ids),
                             _pools(store, lexicon, plan_id, at)[DUE], at)
        if due:
            return due[0]
    # the new positions a day the player asked for
    position = next_daily_position(store, lexicon, day_start(now).timestamp(), at, skip)
    if position is not None:
        return position
    if new_done < limits.new:
        if stakes is None:
            new = store.new_cards(plan_id, 1, skip, no_new)
        else:
            new = _by_points(stakes, NEW, lambda ids, limit: store.new_cards(plan_id, limit, skip, no_new, ids),
                             _pools(store, lexicon, plan_id, at)[NEW], at)
        if new:
            return new[0]
    return None


def _pools(store: ProgressStore, lexicon: str, plan_id: int, at: float) -> dict[str, Callable[[], list[CardRow]]]:
    """How to read each pool the drill ranks by points, whole: every card due now, every new card of
    the plan (in its order)."""
    return {DUE: lambda: store.due_cards(lexicon, at, EVERY), NEW: lambda: store.new_cards(plan_id, EVERY)}


def _by_points(stakes: Stakes, pool: str, eligible: Callable[[list[int] | None, int], list[CardRow]],
               everything: Callable[[], list[CardRow]], at: float) -> list[CardRow]:
    """The card of a pool, among those `eligible` finds (some ids, or all, up to a limit), whose
    study gains the most points per minute: by the drill's ranking, ranked again when none ranked
    is left but the pool holds one (fallen due or added to the plan since)."""
    found = stakes.first(pool, lambda ids: eligible(ids, EVERY))
    if not found and eligible(None, 1):
        stakes.rank(pool, everything(), at)
        found = stakes.first(pool, lambda ids: eligible(ids, EVERY))
    return found


def new_holder() -> str:
    """A name for one drill's leases on the cards it hands out."""
    return uuid.uuid4().hex


class Drill:
    """Today's questions, one at a time, each chosen after the previous answer was saved (an iterator of items).

    A card handed out but left unanswered (its question could not be built) is skipped for the rest of
    the session instead of being offered forever. Each card is leased to this drill (`holder`) as it is
    picked, in the same transaction, so another drill running at once never asks it too; the lease is
    given back when the next card is picked (and by `release` at the end). `saved` says where it is, so a
    round carried on by another request or process picks on from there (`Drill(..., saved=...)`).
    """

    def __init__(self, store: ProgressStore, lex: Lexicon, limits: Limits, holder: str | None = None,
                 stakes: Stakes | None = None, saved: dict[str, Any] | None = None) -> None:
        self.store = store
        self.lex = lex
        self.limits = limits
        self.stakes = stakes
        self.holder = holder or new_holder()
        self.skip: set[int] = set()
        self._handed: tuple[int, float | None] | None = None  # the last card handed out, and its last review then
        if saved is not None:
            self.holder, self.skip = saved["holder"], set(saved["skip"])
            self._handed = None if saved["handed"] is None else (saved["handed"][0], saved["handed"][1])
        self._plan_id: int | None = None

    def __iter__(self) -> Drill:
        return self

    def __next__(self) -> Item:
        if self._handed is not None:
            card_id, last_review = self._handed
            if self.store.card(card_id).last_review == last_review:  # (not answered: its question was not asked)
                self.skip.add(card_id)
        if self._plan_id is None:
            self._plan_id = active_plan(self.store, self.lex, waiting_up_to=0).id
        card = pick(self.store, self.lex.name, self._plan_id, self.limits, self.holder, frozenset(self.skip),
                    self.stakes)
        if card is None:
            self._handed = None
            raise StopIteration
        self._handed = (card.id, card.last_review)
        return Item(card.kind, card.key, card.id)

    def saved(self) -> dict[str, Any]:
        return {"holder": self.holder, "skip": sorted(self.skip),
                "handed": None if self._handed is None else list(self._handed)}


def pick(store: ProgressStore, lexicon: str, plan_id: int, limits: Limits, holder: str,
         skip: frozenset[int] = frozenset(), stakes: Stakes | None = None) -> CardRow | None:
    """The drill's next card, leased to `holder` in the same transaction (its previous card given
    back), leaving out the cards other drills hold."""
    now = utc_now()
    if stakes is not None:  # ranked outside the transaction: other drills and the web app write meanwhile
        for pool, everything in _pools(store, lexicon, plan_id, now.timestamp()).items():
            if stakes.stale(pool, now.timestamp()):
                stakes.rank(pool, everything(), now.timestamp())
    with store.transaction():
        store.release_leases(holder)
        others = store.leased_by_others(holder, now.timestamp())
        card = next_card(store, lexicon, plan_id, limits, now, skip | others, store.lease_counts(others, lexicon),
                         stakes)
        if card is not None:
            store.lease_card(card.id, holder, now.timestamp() + LEASE_SECONDS)
    return card


def lease_due(store: ProgressStore, lexicon: str, limits: Limits, holder: str, size: int) -> list[CardRow]:
    """Up to SIZE cards due now for a wall (all shown at once), within today's review limit less the
    reviews done and those other drills hold, each leased to HOLDER in the same transaction: the daily
    drill and Reviews do not ask them while the wall is open."""
    now = utc_now()
    with store.transaction():
        store.release_leases(holder)
        others = store.leased_by_others(holder, now.timestamp())
        _, reviews_held = store.lease_counts(others, lexicon)
        _, reviews_done = store.answers_since(MODE, lexicon, day_start(now).timestamp())
        room = max(0, limits.reviews - reviews_done - reviews_held)
        no_reviews, _ = full_decks(store, MODE, lexicon, day_start(now))
        cards = store.due_cards(lexicon, now.timestamp(), min(size, room), others, no_reviews) if room else []
        for card in cards:
            store.lease_card(card.id, holder, now.timestamp() + LEASE_SECONDS)
    return cards


def release(store: ProgressStore, holder: str) -> None:
    """The drill has ended: the card it held (the one on screen, unanswered) is free again."""
    store.release_leases(holder)


def status(store: ProgressStore, lex: Lexicon, limits: Limits) -> DayStatus:
    """What today's drill still holds (the plan's new cards counted only as far as the day has room for them)."""
    now = utc_now()
    new_done, reviews_done = store.answers_since(MODE, lex.name, day_start(now).timestamp())
    new_answered, reviews_answered = store.answers_since(None, lex.name, day_start(now).timestamp())
    plan = active_plan(store, lex, waiting_up_to=max(0, limits.new - new_done))
    due_now = store.due_count(lex.name, now.timestamp())
    due_today = store.due_count(lex.name, day_end(now).timestamp())
    return DayStatus(new_done, reviews_done, due_now, plan.waiting, limits, max(0, due_today - due_now),
                     new_answered, reviews_answered)
