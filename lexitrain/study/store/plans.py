"""Study plans and their queues of new cards, in the order they are introduced."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from lexitrain.study.store.cards import CardRow, among_clause, card_columns
from lexitrain.study.store.connection import StoreConnection


@dataclass
class PlanRow:
    """A stored plan: its steps, how many cards it made, how many new ones still wait."""

    id: int
    name: str
    steps: list[dict[str, Any]]
    cards: int
    waiting: int


class Plans(StoreConnection):
    def queue_plan(self, lexicon: str, name: str, steps: list[dict[str, Any]], card_ids: list[int],
                   now: float, changed: float | None = None) -> int:
        """Store plan NAME (replacing one of that name; CHANGED: when, else NOW) and queue its cards still new,
        in order; its id."""
        with self.transaction():
            self.conn.execute("DELETE FROM plans WHERE lexicon = ? AND name = ?", (lexicon, name))  # and its queue
            plan_id = self._insert(
                "plans", {"lexicon": lexicon, "name": name, "spec": json.dumps(steps), "cards": len(card_ids), "created": now,
                          "changed": now if changed is None else changed, "seq": self._next_seq()})
            new = {row[0] for row in self.conn.execute(
                "SELECT id FROM cards WHERE state = 0 AND id IN (SELECT value FROM json_each(?))",
                (json.dumps(card_ids),))}
            self._run_many("INSERT INTO plan_queue (plan_id, position, card_id) VALUES (?, ?, ?)",
                           [(plan_id, position, card_id) for position, card_id in enumerate(card_ids) if card_id in new])
        return plan_id

    def waiting_in_plans(self, lexicon: str) -> int:
        """How many of a lexicon's cards wait in a study plan's queue, never shown yet (made with the plan, not by
        the player's study: the statistics count them apart from the cards being learned)."""
        return int(self.conn.execute(
            "SELECT count(*) FROM cards c WHERE c.lexicon = ? AND c.state = 0 "
            "AND EXISTS (SELECT 1 FROM plan_queue q WHERE q.card_id = c.id)", (lexicon,)).fetchone()[0])

    def plan_named(self, lexicon: str, name: str) -> int | None:
        """The id of a lexicon's plan of that name (None: there is none)."""
        row = self.conn.execute("SELECT id FROM plans WHERE lexicon = ? AND name = ?", (lexicon, name)).fetchone()
        return None if row is None else int(row[0])

    def plan(self, plan_id: int, waiting_up_to: int | None = None) -> PlanRow | None:
        """A plan, its new cards waiting counted (only up to WAITING_UP_TO, where that is all the caller needs:
        the day's drill, which asks after every answer, has room for a few new cards of the tens of thousands
        a big plan holds)."""
        row = self.conn.execute("SELECT name, spec, cards FROM plans WHERE id = ?", (plan_id,)).fetchone()
        if row is None:
            return None
        if waiting_up_to is None:
            waiting = self.conn.execute("SELECT count(*) FROM plan_queue WHERE plan_id = ?", (plan_id,)).fetchone()[0]
        else:
            waiting = self.conn.execute("SELECT count(*) FROM (SELECT 1 FROM plan_queue WHERE plan_id = ? LIMIT ?) AS q",
                                        (plan_id, waiting_up_to)).fetchone()[0]
        return PlanRow(plan_id, row[0], json.loads(row[1]), row[2], int(waiting))

    def new_cards(self, plan_id: int, limit: int, skip: frozenset[int] = frozenset(),
                  skip_decks: frozenset[int] = frozenset(), among: list[int] | None = None) -> list[CardRow]:
        """The next cards a plan introduces, in its order, suspended ones left out (and those of the
        decks in `skip_decks`; with `among`, only those ids); raw SQL: the daily drill asks before
        every question."""
        only, ids = among_clause(among, "c")
        rows = self.conn.execute(
            f"SELECT {card_columns('c')} FROM plan_queue q JOIN cards c ON c.id = q.card_id "
            f"WHERE {only}q.plan_id = ? AND c.state = 0 AND c.suspended = 0 "
            "AND c.id NOT IN (SELECT value FROM json_each(?)) "
            "AND (c.deck_id IS NULL OR c.deck_id NOT IN (SELECT value FROM json_each(?))) ORDER BY q.position LIMIT ?",
            (*ids, plan_id, json.dumps(sorted(skip)), json.dumps(sorted(skip_decks)), limit),
        ).fetchall()
        return [CardRow(*r) for r in rows]
