"""Leases on the cards a daily drill has handed out: two drills at once never ask the same card.

A drill takes the lease as it picks a card (in the same transaction, so two
processes cannot both pick it) and gives it back once the card is answered or
the drill ends. A drill that is killed cannot give its leases back, so each
runs out after a while on its own. Raw SQL: this runs for every question.
"""

from __future__ import annotations

import json

from lexitrain.study.store.connection import StoreConnection


class Leases(StoreConnection):
    def leased_by_others(self, holder: str, now: float) -> frozenset[int]:
        """The cards other drills hold right now."""
        return frozenset(row[0] for row in self.conn.execute(
            "SELECT card_id FROM card_leases WHERE holder != ? AND until > ?", (holder, now)))

    def lease_counts(self, card_ids: frozenset[int], lexicon: str) -> tuple[int, int]:
        """(new cards, reviews) of a lexicon among leased cards: what other drills have on screen."""
        if not card_ids:
            return 0, 0
        states = [int(state) for state, of in self.conn.execute(  # (by id alone: a few cards, each by its key)
            "SELECT state, lexicon FROM cards WHERE id IN (SELECT value FROM json_each(?))",
            (json.dumps(sorted(card_ids)),)).fetchall() if of == lexicon]
        new = states.count(0)
        return new, len(states) - new

    def lease_card(self, card_id: int, holder: str, until: float) -> None:
        """Hold a card until a time (a lease that ran out, or the holder's own, is taken over)."""
        self.conn.execute("INSERT INTO card_leases (card_id, holder, until) VALUES (?, ?, ?) "
                          "ON CONFLICT (card_id) DO UPDATE SET holder = excluded.holder, until = excluded.until",
                          (card_id, holder, until))

    def release_leases(self, holder: str) -> None:
        """Give back every card a drill holds."""
        self.conn.execute("DELETE FROM card_leases WHERE holder = ?", (holder,))
