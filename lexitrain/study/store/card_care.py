"""Looking after cards one by one or in bulk: delete, look up, count, find leeches (a card's place,
its deck and whether it is suspended, is `decks`').

Raw SQL: a card lookup (scripts/bench_study.py: within 5 ms with 100,000
cards) and the answer times a speed grade reads run while a player waits.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Iterable

from lexitrain.study.store.cards import CARD_COLUMNS, CardRow
from lexitrain.study.store.clock import utc_now
from lexitrain.study.store.connection import sql_int
from lexitrain.study.store.history import History


@dataclass(frozen=True)
class ReviewRow:
    """One answer given to a card, and the card as it was just before it."""

    at: float
    mode: str
    correct: bool
    rating: int | None
    given: str
    ms: int | None
    before: CardRow | None


def _ids(card_ids: Iterable[int]) -> str:
    return json.dumps(sorted(set(card_ids)))


class CardCare(History):
    def delete_cards(self, card_ids: Iterable[int], at: float | None = None) -> int:
        """Forget cards (at `at`, else now): their schedule and plan places go, each card's `forget` event is kept
        (`history`: it travels, and an answer given before it never brings the card back); their answers
        stay in the history (as answers to no card, like practice). How many were deleted."""
        ids = sorted(set(card_ids))
        at = utc_now().timestamp() if at is None else at
        with self.transaction():
            for lexicon, kind, key in self.conn.execute(
                    "SELECT lexicon, kind, key FROM cards WHERE id IN (SELECT value FROM json_each(?))",
                    (json.dumps(ids),)).fetchall():
                self.add_card_event(lexicon, kind, key, "forget", at, {})
            return self.drop_cards(ids)

    def drop_cards(self, card_ids: Iterable[int]) -> int:
        """Delete cards forgotten (inside `transaction()`): their answers become answers to no card; how many."""
        ids = _ids(card_ids)
        with self.transaction():
            self.conn.execute("UPDATE answers SET card_id = NULL WHERE card_id IN (SELECT value FROM json_each(?))",
                              (ids,))
            self.conn.execute("DELETE FROM plan_queue WHERE card_id IN (SELECT value FROM json_each(?))", (ids,))
            return self.conn.execute("DELETE FROM cards WHERE id IN (SELECT value FROM json_each(?))", (ids,)).rowcount

    def card_place(self, card_id: int) -> tuple[str | None, bool]:
        """The name of the card's deck (None: no deck) and whether it is suspended."""
        row = self.conn.execute(
            "SELECT d.name, c.suspended FROM cards c LEFT JOIN decks d ON d.id = c.deck_id WHERE c.id = ?",
            (card_id,)).fetchone()
        return (None, False) if row is None else (row[0], bool(row[1]))

    def card_reviews(self, card_id: int) -> list[ReviewRow]:
        """Every answer given to a card, oldest first."""
        rows = self.conn.execute(
            "SELECT at, mode, correct, rating, given, ms, before FROM answers WHERE card_id = ? ORDER BY id",
            (card_id,))
        return [ReviewRow(at, mode, bool(correct), rating, given, ms,
                          None if before is None else CardRow(**json.loads(before)))
                for at, mode, correct, rating, given, ms, before in rows]

    def state_counts(self, lexicon: str) -> list[tuple[int, bool, int]]:
        """(state, suspended, cards) for a lexicon, each count above 0, for statistics (NOT INDEXED, grouped by
        state alone and the suspended summed: a scan, 20 against 43 ms at 100,000 cards for grouping by both
        through the lexicon's index)."""
        rows = self.conn.execute(
            "SELECT state, count(*), SUM(suspended) FROM cards NOT INDEXED WHERE lexicon = ? GROUP BY state", (lexicon,))
        return [(int(state), suspended, n) for state, cards, held in rows
                for suspended, n in ((False, int(cards) - int(held)), (True, int(held))) if n]

    def review_intervals(self, lexicon: str) -> list[float]:
        """Seconds from each reviewed card's last review to its due date (its current interval)."""
        rows = self.conn.execute(
            "SELECT due - last_review FROM cards WHERE lexicon = ? AND state != 0 AND due IS NOT NULL "
            "AND last_review IS NOT NULL", (lexicon,))
        return [float(r[0]) for r in rows]

    def failed_cards(self, lexicon: str, failures: int) -> list[CardRow]:
        """Cards answered wrong `failures` times or more, most failed first (suspended ones too)."""
        rows = self.conn.execute(
            f"SELECT {CARD_COLUMNS} FROM cards WHERE lexicon = ? AND incorrect >= ? ORDER BY incorrect DESC, key, id",
            (lexicon, sql_int(failures)))
        return [CardRow(*r) for r in rows]

    def cards_forgotten_by(self, lexicon: str, now: float, at: float, days_per_stability: float,
                           ) -> list[tuple[int, float, float]]:
        """(id, due, last review) of the reviewed cards, not suspended and not due by `now`, whose whole days from
        their last review to `at` exceed `days_per_stability` times their stability (for FSRS: recall
        then below a retention), the soonest forgotten first."""
        return self.conn.execute(
            "SELECT id, due, last_review FROM cards WHERE lexicon = ? AND state != 0 AND suspended = 0 AND due > ? "
            "AND stability IS NOT NULL AND last_review IS NOT NULL "
            "AND CASE WHEN ? < last_review THEN 0 ELSE floor((? - last_review) / 86400) END > stability * ? "
            "ORDER BY last_review + stability * ? * 86400, id",
            (lexicon, now, at, at, days_per_stability, days_per_stability)).fetchall()

    def answer_times(self, kind: str, limit: int) -> list[int]:
        """Milliseconds of the latest `limit` right answers to questions of a kind."""
        rows = self.conn.execute(
            "SELECT ms FROM answers WHERE kind = ? AND correct = 1 AND ms IS NOT NULL ORDER BY id DESC LIMIT ?",
            (kind, limit))
        return [int(r[0]) for r in rows]
