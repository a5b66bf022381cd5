"""The daily challenge's attempts and their guesses, the misses the toughies count: the statements.

A guess and a finish on one attempt never interleave: both first touch the attempt's row with a
conditional UPDATE (`lock_attempt`: a row lock on PostgreSQL, the write lock on SQLite), so a guess either
lands before the finish counts the guesses or is refused after it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from lexitrain.study.store.connection import StoreConnection

#: (member, lexicon, kind, date): whose attempt at which set.
Which = tuple[int, str, str, str]


class AttemptRow(NamedTuple):
    """An attempt as stored: its id, its set (kind and date), its start, its finish and score (None: still going),
    and whether it is a retake (the first attempt of a set is the ranked one)."""

    id: int
    kind: str
    date: str
    started: float
    finished: float | None
    score: int | None
    retake: bool


_ATTEMPT_COLUMNS = "id, kind, date, started, finished, score, retake"


def _attempt_row(row: tuple[Any, ...] | None) -> AttemptRow | None:
    return None if row is None else AttemptRow(int(row[0]), str(row[1]), str(row[2]), float(row[3]),
                                               None if row[4] is None else float(row[4]), row[5], bool(row[6]))


class Attempts(StoreConnection):
    def unfinished_attempt(self, which: Which) -> int | None:
        """The member's latest unfinished attempt at the set."""
        row = self.conn.execute("SELECT id FROM attempts WHERE member_id = ? AND lexicon = ? AND kind = ? AND date = ? "
                                "AND finished IS NULL ORDER BY id DESC LIMIT 1", which).fetchone()
        return None if row is None else int(row[0])

    def add_attempt(self, which: Which, total: int, now: float, retake: bool) -> int | None:
        """A new attempt's id; None when it would be a second first attempt (the unique index on first attempts
        decides a race between two devices)."""
        row = self.conn.execute("INSERT INTO attempts (member_id, lexicon, kind, date, total, started, retake) "
                                "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id",
                                (*which, total, now, int(retake))).fetchone()
        return None if row is None else int(row[0])

    def first_attempt(self, which: Which) -> AttemptRow | None:
        """The member's first attempt at the set (the ranked one), if they have made it."""
        return _attempt_row(self.conn.execute(f"SELECT {_ATTEMPT_COLUMNS} FROM attempts WHERE member_id = ? AND "
                                              "lexicon = ? AND kind = ? AND date = ? AND retake = 0", which).fetchone())

    def lock_attempt(self, member_id: int, attempt_id: int) -> tuple[str, str, float] | None:
        """Lock the member's unfinished attempt until the transaction ends; its kind, date and start (None: no such
        unfinished attempt of theirs)."""
        row = self.conn.execute("UPDATE attempts SET total = total WHERE id = ? AND member_id = ? AND finished IS NULL "
                                "RETURNING kind, date, started", (attempt_id, member_id)).fetchone()
        return None if row is None else (str(row[0]), str(row[1]), float(row[2]))

    def attempt(self, member_id: int, attempt_id: int) -> AttemptRow | None:
        """The member's attempt (None: no such attempt of theirs)."""
        return _attempt_row(self.conn.execute(f"SELECT {_ATTEMPT_COLUMNS} FROM attempts WHERE id = ? AND member_id = ?",
                                              (attempt_id, member_id)).fetchone())

    def unfinished_attempts(self, lexicon: str, kind: str, day: str, started_before: float) -> list[tuple[int, int]]:
        """(attempt, member) of the set's unfinished attempts started before a time (their time has run out)."""
        return [(int(a), int(m)) for a, m in self.conn.execute(
            "SELECT id, member_id FROM attempts WHERE lexicon = ? AND kind = ? AND date = ? AND finished IS NULL "
            "AND started < ?", (lexicon, kind, day, started_before)).fetchall()]

    def has_attempt(self, member_id: int, attempt_id: int) -> bool:
        return self.conn.execute("SELECT 1 FROM attempts WHERE id = ? AND member_id = ?",
                                 (attempt_id, member_id)).fetchone() is not None

    def guess_while_open(self, member_id: int, attempt_id: int, word: str, key: str | None, now: float) -> bool:
        """A guess in one statement, outside any transaction: a right one (KEY: the question it answers) stored,
        a wrong one only checked; whether the member's attempt was unfinished (and the right word not found
        before). On PostgreSQL the attempt's row is share-locked as it is read, so a guess waits for a finish
        under way (which locks it: `lock_attempt`) and is then refused, never stored after the finish counted
        the guesses; on SQLite the statement holds the file's write lock."""
        if key is None:
            return self.conn.execute("SELECT 1 FROM attempts WHERE id = ? AND member_id = ? AND finished IS NULL",
                                     (attempt_id, member_id)).fetchone() is not None
        share = " FOR SHARE" if self.dialect == "postgresql" else ""
        return self.conn.execute("INSERT INTO guesses (attempt_id, word, alphagram, at) SELECT id, ?, ?, ? FROM attempts "
                                 f"WHERE id = ? AND member_id = ? AND finished IS NULL{share} ON CONFLICT DO NOTHING "
                                 "RETURNING attempt_id", (word, key, now, attempt_id, member_id)).fetchone() is not None

    def add_guess(self, attempt_id: int, word: str, key: str, now: float) -> None:
        self.conn.execute("INSERT INTO guesses (attempt_id, word, alphagram, at) VALUES (?, ?, ?, ?) "
                          "ON CONFLICT DO NOTHING", (attempt_id, word, key, now))

    def guesses(self, attempt_id: int) -> list[tuple[str, str]]:
        """(word, alphagram) of every right guess of an attempt, in the order they were made."""
        return [(str(w), str(k)) for w, k in self.conn.execute(
            "SELECT word, alphagram FROM guesses WHERE attempt_id = ? ORDER BY at, word", (attempt_id,)).fetchall()]

    def finish_attempt(self, attempt_id: int, now: float, score: int) -> None:
        self.conn.execute("UPDATE attempts SET finished = ?, score = ? WHERE id = ?", (now, score, attempt_id))

    def add_misses(self, member_id: int, lexicon: str, keys: Iterable[str], now: float) -> None:
        self._run_many("INSERT INTO misses (member_id, lexicon, alphagram, at) VALUES (?, ?, ?, ?)",
                       [(member_id, lexicon, key, now) for key in keys])

    def finished_attempts(self, lexicon: str, kind: str, day: str, retakes: bool) -> list[tuple[str, int, int, float]]:
        """(member, score, total, seconds) of the finished first attempts (or retakes) of a set: most right first,
        then quickest, then by name."""
        return [(str(n), int(s), int(t), float(sec)) for n, s, t, sec in self.conn.execute(
            "SELECT m.name, a.score, a.total, a.finished - a.started FROM attempts a "
            "JOIN members m ON m.id = a.member_id WHERE a.lexicon = ? AND a.kind = ? AND a.date = ? "
            "AND a.finished IS NOT NULL AND a.retake = ? ORDER BY a.score DESC, a.finished - a.started, "
            "m.name", (lexicon, kind, day, int(retakes))).fetchall()]

    def first_attempts_by_day(self, lexicon: str, kind: str) -> list[tuple[str, str, int, float]]:
        """(date, member, score, seconds) of every finished first attempt of a kind: by day, best first."""
        return [(str(d), str(n), int(s), float(sec)) for d, n, s, sec in self.conn.execute(
            "SELECT a.date, m.name, a.score, a.finished - a.started FROM attempts a "
            "JOIN members m ON m.id = a.member_id WHERE a.lexicon = ? AND a.kind = ? "
            "AND a.finished IS NOT NULL AND a.retake = 0 ORDER BY a.date, a.score DESC, "
            "a.finished - a.started", (lexicon, kind)).fetchall()]

    def most_missed(self, lexicon: str, since: float, until: float, limit: int) -> list[tuple[str, int, int]]:
        """(alphagram, misses, members who missed it) from a time until another, most missed first."""
        return [(str(k), int(m), int(n)) for k, m, n in self.conn.execute(
            "SELECT alphagram, count(*), count(DISTINCT member_id) FROM misses WHERE lexicon = ? AND at >= ? "
            "AND at < ? GROUP BY alphagram ORDER BY count(*) DESC, alphagram LIMIT ?",
            (lexicon, since, until, limit)).fetchall()]
