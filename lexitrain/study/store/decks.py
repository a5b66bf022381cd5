"""Decks and what a card carries beside its schedule: its deck, whether it is suspended.

A deck belongs to one lexicon and may set its own FSRS desired retention and
daily limits (NULL: the player's general setting). A card in no deck has
deck_id NULL. Raw SQL where the daily drill or an answer asks (the deck
retention, the day's answers per deck). A deck and a card's place (its deck, whether it is suspended)
keep when they last changed and are numbered as changes (a sync sends them; the latest change wins); a
deck deleted leaves a tombstone that travels.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Iterable

from lexitrain.study.store.clock import utc_now
from lexitrain.study.store.connection import StoreConnection


@dataclass(frozen=True)
class DeckRow:
    """A stored deck and its own settings (None: the general one applies)."""

    id: int
    lexicon: str
    name: str
    retention: float | None
    new_per_day: int | None
    reviews_per_day: int | None


_DECK_COLUMNS = "id, lexicon, name, retention, new_per_day, reviews_per_day"


def _ids(card_ids: Iterable[int]) -> str:
    return json.dumps(sorted(set(card_ids)))


def deck_name(lexicon: str, name: str) -> str:
    """A deck named by what it is, as a tombstone names it."""
    return json.dumps([lexicon, name])


class Decks(StoreConnection):
    def deck(self, lexicon: str, name: str) -> DeckRow | None:
        row = self.conn.execute(f"SELECT {_DECK_COLUMNS} FROM decks WHERE lexicon = ? AND name = ?",
                                (lexicon, name)).fetchone()
        return None if row is None else DeckRow(*row)

    def deck_by_id(self, deck_id: int) -> DeckRow | None:
        row = self.conn.execute(f"SELECT {_DECK_COLUMNS} FROM decks WHERE id = ?", (deck_id,)).fetchone()
        return None if row is None else DeckRow(*row)

    def decks(self, lexicon: str) -> list[DeckRow]:
        """A lexicon's decks, by name."""
        rows = self.conn.execute(f"SELECT {_DECK_COLUMNS} FROM decks WHERE lexicon = ? ORDER BY name", (lexicon,))
        return [DeckRow(*r) for r in rows]

    def save_deck(self, lexicon: str, name: str, retention: float | None, new_per_day: int | None,
                  reviews_per_day: int | None, now: float, changed: float | None = None) -> DeckRow:
        """Create deck NAME or replace its settings (CHANGED: when; None: now); the deck as stored."""
        changed = utc_now().timestamp() if changed is None else changed
        with self.transaction():
            self.conn.execute(
                "INSERT INTO decks (lexicon, name, retention, new_per_day, reviews_per_day, created, changed, seq) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (lexicon, name) DO UPDATE SET retention = excluded.retention, "
                "new_per_day = excluded.new_per_day, reviews_per_day = excluded.reviews_per_day, "
                "changed = excluded.changed, seq = excluded.seq",
                (lexicon, name, retention, new_per_day, reviews_per_day, now, changed, self._next_seq()))
            self.conn.execute("DELETE FROM tombstones WHERE what = 'deck' AND name = ?", (deck_name(lexicon, name),))
            deck = self.deck(lexicon, name)
        assert deck is not None
        return deck

    def delete_deck(self, deck_id: int, changed: float | None = None) -> int:
        """Remove a deck (its tombstone kept: CHANGED, when; None: now); its cards stay, in no deck. How many
        cards it held."""
        changed = utc_now().timestamp() if changed is None else changed
        with self.transaction():
            held = [row[0] for row in self.conn.execute("SELECT id FROM cards WHERE deck_id = ?", (deck_id,))]
            moved = self.move_cards(held, None, changed)
            row = self.conn.execute("SELECT lexicon, name FROM decks WHERE id = ?", (deck_id,)).fetchone()
            if row is not None:
                self._bury_deck(row[0], row[1], changed)
            self.conn.execute("DELETE FROM decks WHERE id = ?", (deck_id,))
        return moved

    def _bury_deck(self, lexicon: str, name: str, changed: float) -> None:
        """Keep the tombstone of a deck deleted at CHANGED, numbered as a change (so that the deletion travels)."""
        self.conn.execute("INSERT INTO tombstones (what, name, changed, seq) VALUES ('deck', ?, ?, ?) ON CONFLICT "
                          "(what, name) DO UPDATE SET changed = excluded.changed, seq = excluded.seq",
                          (deck_name(lexicon, name), changed, self._next_seq()))

    def _deck_buried(self, lexicon: str, name: str) -> float | None:
        """When the deck was deleted, by its tombstone (None: it has none)."""
        row = self.conn.execute("SELECT changed FROM tombstones WHERE what = 'deck' AND name = ?",
                                (deck_name(lexicon, name),)).fetchone()
        return None if row is None else float(row[0])

    def move_cards(self, card_ids: Iterable[int], deck_id: int | None, changed: float | None = None) -> int:
        """Put cards in a deck (None: in no deck; CHANGED: when; None: now); how many changed deck."""
        return self._place_cards(card_ids, "deck_id", deck_id, changed)

    def set_suspended(self, card_ids: Iterable[int], suspended: bool, changed: float | None = None) -> int:
        """Suspend cards (never asked, kept as they are) or take them back (CHANGED: when; None: now); how many
        changed."""
        return self._place_cards(card_ids, "suspended", int(suspended), changed)

    def _place_cards(self, card_ids: Iterable[int], column: str, value: int | None, changed: float | None) -> int:
        """Set a card's deck or suspension where it differs, each card's place numbered as a change."""
        changed = utc_now().timestamp() if changed is None else changed
        with self.transaction():
            moving = [row[0] for row in self.conn.execute(
                f"SELECT id FROM cards WHERE id IN (SELECT value FROM json_each(?)) AND {column} IS DISTINCT FROM ? "
                "ORDER BY id", (_ids(card_ids), value))]
            return self._run_many(f"UPDATE cards SET {column} = ?, placed = ?, placed_seq = ? WHERE id = ?",
                                  [(value, changed, number, card_id)
                                   for card_id, number in zip(moving, self._next_seqs(len(moving)))])

    def deck_sizes(self, lexicon: str) -> dict[int | None, tuple[int, int]]:
        """(cards, suspended cards) per deck id of a lexicon (None: cards in no deck)."""
        rows = self.conn.execute(
            "SELECT deck_id, count(*), COALESCE(SUM(suspended), 0) FROM cards WHERE lexicon = ? GROUP BY deck_id",
            (lexicon,))
        return {deck_id: (int(n), int(suspended)) for deck_id, n, suspended in rows}

    def deck_retention(self, card_id: int) -> float | None:
        """The desired retention the card's deck sets (None: no deck, or the deck sets none)."""
        row = self.conn.execute("SELECT d.retention FROM cards c JOIN decks d ON d.id = c.deck_id WHERE c.id = ?",
                                (card_id,)).fetchone()
        return None if row is None or row[0] is None else float(row[0])

    def card_deck(self, card_id: int) -> int | None:
        """The id of the card's deck (None: it is in none)."""
        row = self.conn.execute("SELECT deck_id FROM cards WHERE id = ?", (card_id,)).fetchone()
        return None if row is None else row[0]

    def has_deck_limits(self, lexicon: str) -> bool:
        """Whether any deck of the lexicon sets a daily limit (the daily drill counts per deck only then)."""
        return self.conn.execute(
            "SELECT 1 FROM decks WHERE lexicon = ? AND (new_per_day IS NOT NULL OR reviews_per_day IS NOT NULL) "
            "LIMIT 1", (lexicon,)).fetchone() is not None

    def deck_answers_since(self, mode: str, lexicon: str, since: float) -> dict[int, tuple[int, int]]:
        """(new cards introduced, reviews done) per deck in sessions of `mode` since a time."""
        rows = self.conn.execute(
            "SELECT c.deck_id, COALESCE(SUM(a.was_new), 0), COALESCE(SUM(1 - a.was_new), 0) FROM answers a "
            "CROSS JOIN sessions s ON s.id = a.session_id JOIN cards c ON c.id = a.card_id "
            "WHERE a.at >= ? AND a.mode = ? AND s.lexicon = ? AND c.deck_id IS NOT NULL GROUP BY c.deck_id",
            (since, mode, lexicon))
        return {int(deck_id): (int(new), int(reviews)) for deck_id, new, reviews in rows}
