"""Every table's rows out, for a backup, and the look-ups that merge a backup back in.

What a backup file holds and how it merges is study.transfer's business:
this module only reads and finds rows.
"""

from __future__ import annotations

import json
from typing import Any

from lexitrain.study.store.history import History
from lexitrain.study.store.word_lists import WordLists


class Transfer(History, WordLists):
    def export_rows(self) -> dict[str, list[dict[str, Any]]]:
        """Every row of cards, sessions, answers (in order), challenges, plans, positions, decks, the ways
        of scheduling, settings and word lists (each list's latest version, removals too), as column -> value (answers' `before` and plans' `spec` decoded from their JSON), all
        read in one read transaction: one snapshot, whatever other drills write meanwhile."""
        with self.snapshot():
            rows = {name: self._table_rows(name)
                    for name in ("cards", "sessions", "challenges", "plans", "positions", "decks", "answers", "schedulings")}
            rows["settings"] = [{"name": name, "value": json.loads(value)}
                                for name, value in self.conn.execute("SELECT name, value FROM settings")]
            rows["lists"] = [version.to_json() for version in self.list_versions()]
        for answer in rows["answers"]:
            answer["before"] = json.loads(answer["before"]) if answer["before"] else None
        for plan in rows["plans"]:
            plan["spec"] = json.loads(plan["spec"])
        return rows

    def add_challenges(self, attempts: list[dict[str, Any]]) -> None:
        """Save challenge attempts (challenges' columns), keeping any already stored for their session."""
        with self.transaction():
            if attempts:
                self._insert_all("challenges", attempts, list(attempts[0]))
