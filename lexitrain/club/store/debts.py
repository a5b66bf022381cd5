"""What the club owes its members' progress stores (`club.owed`), and the cards an earlier lexitrain kept in
the club's own tables (`member_cards`, `member_reviews`) until they are moved there: the statements."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from lexitrain.study.store.connection import StoreConnection

#: A debt as read: id, lexicon, source, started, answers ([kind, key, right] each), at.
DebtRow = tuple[int, str, str, float, list[tuple[str, str, bool]], float]


class Debts(StoreConnection):
    def add_debt(self, member_id: int, lexicon: str, source: str, started: float, answers: list[list[Any]],
                 now: float) -> None:
        self.conn.execute("INSERT INTO owed_reviews (member_id, lexicon, source, started, answers, at) "
                          "VALUES (?, ?, ?, ?, ?, ?)", (member_id, lexicon, source, started, json.dumps(answers), now))

    def anything_owed(self, member_id: int) -> bool:
        row = self.conn.execute("SELECT EXISTS (SELECT 1 FROM owed_reviews WHERE member_id = ?) "
                                "OR EXISTS (SELECT 1 FROM member_cards WHERE member_id = ?) "
                                "OR EXISTS (SELECT 1 FROM member_reviews WHERE member_id = ?)",
                                (member_id,) * 3).fetchone()
        return bool(row and row[0])

    def members_owed(self) -> list[int]:
        return [int(row[0]) for row in self.conn.execute(
            "SELECT member_id FROM owed_reviews UNION SELECT member_id FROM member_cards "
            "UNION SELECT member_id FROM member_reviews ORDER BY 1").fetchall()]

    def debts(self, member_id: int) -> list[DebtRow]:
        rows = self.conn.execute("SELECT id, lexicon, source, started, answers, at FROM owed_reviews "
                                 "WHERE member_id = ? ORDER BY id", (member_id,)).fetchall()
        return [(int(i), str(lexicon), str(source), float(started),
                 [(str(k), str(key), bool(r)) for k, key, r in json.loads(answers)], float(at))
                for i, lexicon, source, started, answers, at in rows]

    def forget_debt(self, debt_id: int) -> None:
        self.conn.execute("DELETE FROM owed_reviews WHERE id = ?", (debt_id,))

    def old_cards(self, member_id: int, fields: Sequence[str]) -> list[tuple[Any, ...]]:
        """(lexicon, kind, key, *FIELDS) of the member's cards in the club's old table."""
        return [tuple(row) for row in self.conn.execute(
            f"SELECT lexicon, kind, key, {', '.join(fields)} FROM member_cards WHERE member_id = ? "
            "ORDER BY lexicon, kind, key", (member_id,)).fetchall()]

    def old_reviews(self, member_id: int) -> list[tuple[Any, ...]]:
        """(lexicon, kind, key, source, given, correct, rating, at, before) of the member's reviews in the club's
        old table, oldest first."""
        return [tuple(row) for row in self.conn.execute(
            "SELECT lexicon, kind, key, source, given, correct, rating, at, before FROM member_reviews "
            "WHERE member_id = ? ORDER BY id", (member_id,)).fetchall()]

    def forget_old_cards(self, member_id: int) -> None:
        with self.transaction():
            self.conn.execute("DELETE FROM member_cards WHERE member_id = ?", (member_id,))
            self.conn.execute("DELETE FROM member_reviews WHERE member_id = ?", (member_id,))
