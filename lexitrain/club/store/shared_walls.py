"""Shared walls' tables: the table, who sits at it, the words found, the questions each member answered, and
every event (a guess, a member sitting down, the end) as it is sent to the seated members: the statements.

On PostgreSQL an event is also NOTIFYed in the transaction that stores it (`add_event`), so every
`serve` process hears it the moment it is committed (`study.store.postgres.PostgresPool.notifications`).
"""

from __future__ import annotations

import json
from typing import Any

from lexitrain.study.store.connection import StoreConnection

#: The channel every process LISTENs on (PostgreSQL).
CHANNEL = "lexitrain_tables"
#: A table as read: its keys (JSON), owner, whether practice, when it closed (None: open).
TableRow = tuple[str, int, bool, float | None]


class SharedWalls(StoreConnection):
    def add_table(self, lexicon: str, owner_id: int, keys: list[str], practice: bool, now: float) -> int:
        """A new table, its owner seated."""
        with self.transaction():
            row = self.conn.execute("INSERT INTO club_tables (lexicon, owner_id, keys, practice, opened) "
                                    "VALUES (?, ?, ?, ?, ?) RETURNING id",
                                    (lexicon, owner_id, json.dumps(keys), int(practice), now)).fetchone()
            self.conn.execute("INSERT INTO table_seats (table_id, member_id, joined) VALUES (?, ?, ?)",
                              (row[0], owner_id, now))
            return int(row[0])

    def open_tables(self, lexicon: str) -> list[tuple[int, str, bool, float, int]]:
        """(table, owner's name, practice, opened, members seated) of a lexicon's open tables."""
        return [(int(i), str(o), bool(p), float(t), int(n)) for i, o, p, t, n in self.conn.execute(
            "SELECT t.id, m.name, t.practice, t.opened, (SELECT count(*) FROM table_seats s "
            "WHERE s.table_id = t.id) FROM club_tables t JOIN members m ON m.id = t.owner_id "
            "WHERE t.lexicon = ? AND t.closed IS NULL ORDER BY t.id", (lexicon,)).fetchall()]

    def table(self, table_id: int) -> TableRow | None:
        row = self.conn.execute("SELECT keys, owner_id, practice, closed FROM club_tables WHERE id = ?",
                                (table_id,)).fetchone()
        return None if row is None else (str(row[0]), int(row[1]), bool(row[2]), row[3])

    def lock_open_table(self, table_id: int) -> bool:
        """Lock an open table's row until the transaction ends (whether it is open): members sitting down at
        once, or as it ends, take turns."""
        return self.conn.execute("UPDATE club_tables SET closed = closed WHERE id = ? AND closed IS NULL",
                                 (table_id,)).rowcount == 1

    def close_table(self, table_id: int, now: float) -> bool:
        """Close an open table; whether it was open."""
        return self.conn.execute("UPDATE club_tables SET closed = ? WHERE id = ? AND closed IS NULL",
                                 (now, table_id)).rowcount == 1

    def seat(self, table_id: int, member_id: int, now: float) -> bool:
        """Seat a member; whether they sat down now (not before)."""
        return self.conn.execute("INSERT INTO table_seats (table_id, member_id, joined) VALUES (?, ?, ?) "
                                 "ON CONFLICT DO NOTHING", (table_id, member_id, now)).rowcount == 1

    def seated_since(self, table_id: int, member_id: int) -> float | None:
        """When the member sat down at the table (None: they have not)."""
        row = self.conn.execute("SELECT joined FROM table_seats WHERE table_id = ? AND member_id = ?",
                                (table_id, member_id)).fetchone()
        return None if row is None else float(row[0])

    def seated_names(self, table_id: int) -> list[str]:
        """Who sits at the table, in the order they sat down."""
        return [str(name) for (name,) in self.conn.execute(
            "SELECT m.name FROM table_seats s JOIN members m ON m.id = s.member_id WHERE s.table_id = ? "
            "ORDER BY s.joined, m.name", (table_id,)).fetchall()]

    def member_name(self, member_id: int) -> str | None:
        row = self.conn.execute("SELECT name FROM members WHERE id = ?", (member_id,)).fetchone()
        return None if row is None else str(row[0])

    def finds(self, table_id: int) -> list[tuple[str, str, str]]:
        """(word, alphagram, finder's name) of every word found at the table, in the order found."""
        return [(str(w), str(a), str(m)) for w, a, m in self.conn.execute(
            "SELECT f.word, f.alphagram, m.name FROM table_finds f JOIN members m ON m.id = f.member_id "
            "WHERE f.table_id = ? ORDER BY f.at, f.word", (table_id,)).fetchall()]

    def add_find(self, table_id: int, word: str, key: str, member_id: int, now: float) -> bool:
        """Credit a word to its first finder; whether this member is that (the word was not found before)."""
        return self.conn.execute("INSERT INTO table_finds (table_id, word, alphagram, member_id, at) "
                                 "VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                                 (table_id, word, key, member_id, now)).rowcount == 1

    def add_table_answer(self, table_id: int, member_id: int, key: str) -> bool:
        """Note that the member answered a question at the table; whether it is their first answer to it."""
        return self.conn.execute("INSERT INTO table_answers (table_id, member_id, alphagram) VALUES (?, ?, ?) "
                                 "ON CONFLICT DO NOTHING", (table_id, member_id, key)).rowcount == 1

    def last_event(self, table_id: int) -> int:
        row = self.conn.execute("SELECT max(id) FROM table_events WHERE table_id = ?", (table_id,)).fetchone()
        return 0 if row is None or row[0] is None else int(row[0])

    def add_event(self, table_id: int, body: dict[str, Any], now: float) -> dict[str, Any]:
        """Store an event (on PostgreSQL also NOTIFY it: delivered to every process when this commits); the event."""
        row = self.conn.execute("INSERT INTO table_events (table_id, at, body) VALUES (?, ?, ?) RETURNING id",
                                (table_id, now, json.dumps(body))).fetchone()
        event = {"id": int(row[0]), "table": table_id, "at": now, **body}
        if self.dialect == "postgresql":
            self.conn.execute("SELECT pg_notify(?, ?)", (CHANNEL, json.dumps(event)))
        return event

    def events_after(self, table_id: int, after: int) -> list[dict[str, Any]]:
        """A table's events after an id, in order."""
        return [{"id": int(i), "table": table_id, "at": at, **json.loads(body)} for i, at, body in self.conn.execute(
            "SELECT id, at, body FROM table_events WHERE table_id = ? AND id > ? ORDER BY id",
            (table_id, after)).fetchall()]
