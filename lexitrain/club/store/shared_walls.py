"""Shared walls' tables: the table, who sits at it, the words found, the questions each member answered, and
every event (a guess, a member sitting down, the end) as it is sent to the seated members: the statements.

On PostgreSQL an event is also NOTIFYed in the transaction that stores it (`announce`), so every
`serve` process hears it the moment it is committed (`study.store.postgres.PostgresPool.notifications`);
so is a session ended (`club.store.membership`), which closes the sockets it opened.
"""

from __future__ import annotations

import json
from typing import Any

from lexitrain.study.store.connection import StoreConnection

#: The channel every process LISTENs on (PostgreSQL).
CHANNEL = "lexitrain_tables"
#: A table (id ?) open and timed whose time is up by a moment (?): what `overdue` finds and `close_if_overdue` closes.
_OVERDUE = "id = ? AND closed IS NULL AND seconds IS NOT NULL AND opened + seconds <= ?"
#: A table as read: its keys (JSON), owner, whether practice, when it closed (None: open).
TableRow = tuple[str, int, bool, float | None]


def announce(store: StoreConnection, notice: dict[str, Any]) -> dict[str, Any]:
    """On PostgreSQL, NOTIFY every process of NOTICE when the caller's transaction commits (`club.events`); the
    notice (SQLite's one process hands it to its sockets itself after the commit)."""
    if store.dialect == "postgresql":
        store.conn.execute("SELECT pg_notify(?, ?)", (CHANNEL, json.dumps(notice)))
    return notice


class SharedWalls(StoreConnection):
    def add_table(self, lexicon: str, owner_id: int, keys: list[str], practice: bool, now: float,
                  on_set: tuple[str, str] | None = None, seconds: float | None = None) -> int:
        """A new table, its owner seated; ON_SET: the challenge set (kind, date) it was opened on; SECONDS: how
        long its round lasts from now (None: untimed)."""
        kind, day = on_set or (None, None)
        with self.transaction():
            row = self.conn.execute("INSERT INTO club_tables (lexicon, owner_id, keys, practice, opened, set_kind, "
                                    "set_date, seconds) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                                    (lexicon, owner_id, json.dumps(keys), int(practice), now, kind, day,
                                     seconds)).fetchone()
            self.conn.execute("INSERT INTO table_seats (table_id, member_id, joined) VALUES (?, ?, ?)",
                              (row[0], owner_id, now))
            return int(row[0])

    def open_tables(self, lexicon: str, now: float) -> list[tuple[int, str, bool, float, int, float | None]]:
        """(table, owner's name, practice, opened, members seated, when its time is up (None: untimed)) of a
        lexicon's open tables whose time is not up."""
        return [(int(i), str(o), bool(p), float(t), int(n), None if e is None else float(e))
                for i, o, p, t, n, e in self.conn.execute(
                    "SELECT t.id, m.name, t.practice, t.opened, (SELECT count(*) FROM table_seats s "
                    "WHERE s.table_id = t.id), t.opened + t.seconds FROM club_tables t JOIN members m "
                    "ON m.id = t.owner_id WHERE t.lexicon = ? AND t.closed IS NULL "
                    "AND (t.seconds IS NULL OR t.opened + t.seconds > ?) ORDER BY t.id", (lexicon, now)).fetchall()]

    def deadline(self, table_id: int) -> float | None:
        """When the table's time is up (None: an untimed table, or none)."""
        row = self.conn.execute("SELECT opened + seconds FROM club_tables WHERE id = ?", (table_id,)).fetchone()
        return None if row is None or row[0] is None else float(row[0])

    def overdue(self, table_id: int, now: float) -> bool:
        """Whether the table is open and its time is up by NOW (what `close_if_overdue` would close)."""
        return self.conn.execute(f"SELECT 1 FROM club_tables WHERE {_OVERDUE}", (table_id, now)).fetchone() is not None

    def close_if_overdue(self, table_id: int, now: float) -> bool:
        """Close an open table whose time is up by NOW, at its deadline; whether this closed it."""
        return self.conn.execute(f"UPDATE club_tables SET closed = opened + seconds WHERE {_OVERDUE}",
                                 (table_id, now)).rowcount == 1

    def table(self, table_id: int) -> TableRow | None:
        row = self.conn.execute("SELECT keys, owner_id, practice, closed FROM club_tables WHERE id = ?",
                                (table_id,)).fetchone()
        return None if row is None else (str(row[0]), int(row[1]), bool(row[2]), row[3])

    def table_set(self, table_id: int) -> tuple[str, str, str] | None:
        """(lexicon, kind, date) of the challenge set a table was opened on (None: another list)."""
        row = self.conn.execute("SELECT lexicon, set_kind, set_date FROM club_tables WHERE id = ? "
                                "AND set_kind IS NOT NULL", (table_id,)).fetchone()
        return None if row is None else (str(row[0]), str(row[1]), str(row[2]))

    def lock_open_table(self, table_id: int) -> bool:
        """Lock an open table's row until the transaction ends (whether it is open): members sitting down at
        once, or as it ends, take turns."""
        return self.conn.execute("UPDATE club_tables SET closed = closed WHERE id = ? AND closed IS NULL",
                                 (table_id,)).rowcount == 1

    def take_table_guess(self, table_id: int, now: float, rate: float, burst: float) -> tuple[str, bool] | None:
        """Lock an open table's row until the transaction ends (so a table's events are numbered in the order
        they commit) and take a guess from its allowance (refilled at RATE a second, up to BURST): its keys and
        whether practice; None when it is not open, its time is up or its allowance is spent."""
        fill, fill_params, enough, enough_params = _allowance(now, rate, burst)
        row = self.conn.execute(f"UPDATE club_tables SET {fill} WHERE id = ? AND closed IS NULL "
                                f"AND (seconds IS NULL OR opened + seconds > ?) AND {enough} RETURNING keys, practice",
                                (*fill_params, table_id, now, *enough_params)).fetchone()
        return None if row is None else (str(row[0]), bool(row[1]))

    def take_seat_guess(self, table_id: int, member_id: int, now: float, rate: float, burst: float,
                        most: int) -> bool:
        """Count a seated member's guess if they have one left (fewer than MOST so far) and their allowance
        (refilled at RATE a second, up to BURST) holds one; whether it does."""
        fill, fill_params, enough, enough_params = _allowance(now, rate, burst)
        return self.conn.execute(f"UPDATE table_seats SET guesses = guesses + 1, {fill} WHERE table_id = ? "
                                 f"AND member_id = ? AND guesses < ? AND {enough}",
                                 (*fill_params, table_id, member_id, most, *enough_params)).rowcount == 1

    def seat_guesses(self, table_id: int, member_id: int) -> int:
        row = self.conn.execute("SELECT guesses FROM table_seats WHERE table_id = ? AND member_id = ?",
                                (table_id, member_id)).fetchone()
        return 0 if row is None else int(row[0])

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

    def newest_event(self) -> int:
        """The id of the newest event of any table (0: none)."""
        row = self.conn.execute("SELECT max(id) FROM table_events").fetchone()
        return 0 if row is None or row[0] is None else int(row[0])

    def add_event(self, table_id: int, body: dict[str, Any], now: float) -> dict[str, Any]:
        """Store an event (on PostgreSQL also NOTIFY it: delivered to every process when this commits); the event."""
        row = self.conn.execute("INSERT INTO table_events (table_id, at, body) VALUES (?, ?, ?) RETURNING id",
                                (table_id, now, json.dumps(body))).fetchone()
        return announce(self, {"id": int(row[0]), "table": table_id, "at": now, **body})

    def events_after(self, table_id: int, after: int) -> list[dict[str, Any]]:
        """A table's events after an id, in order."""
        return [{"id": int(i), "table": table_id, "at": at, **json.loads(body)} for i, at, body in self.conn.execute(
            "SELECT id, at, body FROM table_events WHERE table_id = ? AND id > ? ORDER BY id",
            (table_id, after)).fetchall()]


def _allowance(now: float, rate: float, burst: float) -> tuple[str, tuple[float, ...], str, tuple[float, ...]]:
    """A row's allowance of guesses (columns `allowance`, `refilled`), refilled at RATE a second up to BURST:
    the SET that spends one (and notes the refill) and the WHERE that it holds one, with their parameters."""
    level = "allowance + (? - refilled) * ?"
    return (f"allowance = CASE WHEN {level} > ? THEN ? ELSE {level} END - 1, refilled = ?",
            (now, rate, burst, burst, now, rate, now), f"{level} >= 1", (now, rate))
