"""Decks: named groups of a lexicon's cards, each with its own FSRS settings.

A deck may set its desired retention (FSRS schedules its cards for it) and
its own daily limits: at most so many of its new cards and of its reviews in
a day's drill, within the player's general limits. A setting a deck leaves
unset is the general one. Cards move between decks freely (a card is in one
deck or in none); deleting a deck leaves its cards in none, with their
schedule as it was.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from lexitrain.errors import LexitrainError
from lexitrain.study.quiz.scheduler import Scheduling, utc_now
from lexitrain.study.store import CardRow, DeckRow, ProgressStore

#: The name that stands for "no deck" in `study move --deck`.
NO_DECK = "none"
#: The most cards a daily limit may name: far beyond any day's study, and small
#: enough for the progress database to store.
MAX_PER_DAY = 100_000


def check_daily_limit(option: str, value: int) -> None:
    """A daily limit (general or a deck's) is 0 to MAX_PER_DAY; anything else is a one-line error."""
    if not 0 <= value <= MAX_PER_DAY:
        raise LexitrainError(f"{option} {value}: a daily limit is 0 to {MAX_PER_DAY:,}")


@dataclass(frozen=True)
class DeckSettings:
    """A deck's own settings; None leaves the general setting in force."""

    retention: float | None = None
    new_per_day: int | None = None
    reviews_per_day: int | None = None

    def __post_init__(self) -> None:
        if self.retention is not None:
            Scheduling(retention=self.retention)  # the same range, the same one-line error
        for option, value in (("--new", self.new_per_day), ("--reviews", self.reviews_per_day)):
            if value is not None:
                check_daily_limit(option, value)


def check_name(name: str) -> str:
    name = name.strip()
    if not name or name.lower() == NO_DECK:
        raise LexitrainError(f"deck name {name!r}: give a name other than {NO_DECK!r} (which means no deck)")
    return name


def deck(store: ProgressStore, lexicon: str, name: str) -> DeckRow:
    found = store.deck(lexicon, name)
    if found is None:
        known = ", ".join(d.name for d in store.decks(lexicon)) or "none yet"
        raise LexitrainError(f"no deck {name!r} in {lexicon} (decks: {known}; make one with `study deck NAME`)")
    return found


def save(store: ProgressStore, lexicon: str, name: str, settings: DeckSettings) -> DeckRow:
    """Create deck NAME, or change the settings given of an existing one (the others stay)."""
    name = check_name(name)
    old = store.deck(lexicon, name)
    if old is not None:
        settings = DeckSettings(
            old.retention if settings.retention is None else settings.retention,
            old.new_per_day if settings.new_per_day is None else settings.new_per_day,
            old.reviews_per_day if settings.reviews_per_day is None else settings.reviews_per_day)
    return store.save_deck(lexicon, name, settings.retention, settings.new_per_day, settings.reviews_per_day,
                           utc_now().timestamp())


def remove(store: ProgressStore, lexicon: str, name: str) -> int:
    """Delete a deck; how many cards it held (now in no deck)."""
    return store.delete_deck(deck(store, lexicon, name).id)


def move(store: ProgressStore, lexicon: str, cards: list[CardRow], name: str) -> int:
    """Put the cards in deck NAME (`none`: in no deck); how many changed deck."""
    target = None if name.strip().lower() == NO_DECK else deck(store, lexicon, name).id
    return store.move_cards((c.id for c in cards), target)


def listing(store: ProgressStore, lexicon: str, general: Scheduling) -> list[dict[str, Any]]:
    """Every deck with its settings (the general ones where it sets none) and card counts; cards in no deck last."""
    sizes = store.deck_sizes(lexicon)
    rows = []
    for d in store.decks(lexicon):
        cards, suspended = sizes.get(d.id, (0, 0))
        rows.append({"name": d.name, "retention": d.retention if d.retention is not None else general.retention,
                     "new_per_day": d.new_per_day, "reviews_per_day": d.reviews_per_day,
                     "cards": cards, "suspended": suspended})
    cards, suspended = sizes.get(None, (0, 0))
    rows.append({"name": None, "retention": general.retention, "new_per_day": None, "reviews_per_day": None,
                 "cards": cards, "suspended": suspended})
    return rows


def full_decks(store: ProgressStore, mode: str, lexicon: str, since: datetime) -> tuple[frozenset[int], frozenset[int]]:
    """(decks whose reviews today are used up, decks whose new cards today are used up)."""
    if not store.has_deck_limits(lexicon):
        return frozenset(), frozenset()
    done = store.deck_answers_since(mode, lexicon, since.timestamp())
    no_reviews, no_new = set(), set()
    for d in store.decks(lexicon):
        new, reviews = done.get(d.id, (0, 0))
        if d.reviews_per_day is not None and reviews >= d.reviews_per_day:
            no_reviews.add(d.id)
        if d.new_per_day is not None and new >= d.new_per_day:
            no_new.add(d.id)
    return frozenset(no_reviews), frozenset(no_new)
