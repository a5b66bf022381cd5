"""The daily challenge's history: one attempt per challenge session.

The first attempt of a day (per lexicon and kind) to be finished is the
official one; an attempt finished after it is a retake, kept but never a
personal best. An attempt that never finished (the process was killed)
keeps the time its answers took.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lexitrain.study.store.connection import StoreConnection


@dataclass
class Attempt:
    """One try at a day's challenge; its score is counted from the saved answers."""

    date: str
    kind: str
    lexicon: str
    score: int
    total: int
    seconds: float
    completed: bool
    retake: bool = False  # finished after the day's official (first finished) attempt

    def to_json(self) -> dict[str, Any]:
        return {**self.__dict__, "seconds": round(self.seconds, 1)}


class Challenges(StoreConnection):
    def start_challenge(self, session_id: int, day: str, kind: str, lexicon: str, total: int) -> None:
        """Open an attempt (day as YYYY-MM-DD) for a session of `total` questions."""
        with self.transaction():
            self.conn.execute(
                "INSERT INTO challenges (session_id, date, kind, lexicon, total, seq) VALUES (?, ?, ?, ?, ?, ?)",
                (session_id, day, kind, lexicon, total, self._next_seq()),
            )

    def finish_challenge(self, session_id: int, seconds: float, completed: bool) -> None:
        """Close an attempt: its time, whether it was finished, its score from the saved answers, and
        whether it is a retake (another attempt of that day, lexicon and kind was finished before it).
        One statement, so of two attempts finishing at once exactly one is the official one."""
        with self.transaction():
            self.conn.execute(
                "UPDATE challenges SET seconds = ?, completed = ?, seq = ?, "
                "score = (SELECT COALESCE(SUM(correct), 0) FROM answers WHERE session_id = ?), "
                "retake = CASE WHEN EXISTS (SELECT 1 FROM challenges other WHERE other.lexicon = challenges.lexicon "
                "AND other.kind = challenges.kind AND other.date = challenges.date AND other.completed = 1 "
                "AND other.session_id != challenges.session_id) THEN 1 ELSE 0 END WHERE session_id = ?",
                (seconds, int(completed), self._next_seq(), session_id, session_id),
            )

    def is_retake(self, session_id: int) -> bool:
        """Whether a closed attempt was finished after that day's official one."""
        row = self.conn.execute("SELECT retake FROM challenges WHERE session_id = ?", (session_id,)).fetchone()
        return bool(row and row[0])

    def challenge_history(self, lexicon: str, kind: str | None, limit: int) -> list[Attempt]:
        """Attempts in a lexicon (of one kind, if given), newest first; scores counted from the saved
        answers, and the time of one never closed (killed, or still going) from its answers' times."""
        rows = self.conn.execute(
            "SELECT ch.date, ch.kind, ch.lexicon, (SELECT COALESCE(SUM(a.correct), 0) FROM answers a "
            "WHERE a.session_id = ch.session_id), ch.total, CASE WHEN s.ended IS NULL THEN "
            "(SELECT COALESCE(SUM(a.ms), 0) / 1000.0 FROM answers a WHERE a.session_id = ch.session_id) "
            "ELSE ch.seconds END, ch.completed, ch.retake FROM challenges ch JOIN sessions s ON s.id = ch.session_id "
            "WHERE ch.lexicon = ? AND (? IS NULL OR ch.kind = ?) ORDER BY ch.session_id DESC LIMIT ?",
            (lexicon, kind, kind, limit),
        )
        return [Attempt(r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6]), bool(r[7])) for r in rows]
