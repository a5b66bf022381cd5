"""The daily challenge's history: one attempt per challenge session.

Raw SQL here: an attempt is opened just before its first question, where
sqlite-utils' import (pandas, about 0.4 s) would hold up the start.
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

    def to_json(self) -> dict[str, Any]:
        return {**self.__dict__, "seconds": round(self.seconds, 1)}


class Challenges(StoreConnection):
    def start_challenge(self, session_id: int, day: str, kind: str, lexicon: str, total: int) -> None:
        """Open an attempt (day as YYYY-MM-DD) for a session of `total` questions."""
        self.conn.execute(
            "INSERT INTO challenges (session_id, date, kind, lexicon, total) VALUES (?, ?, ?, ?, ?)",
            (session_id, day, kind, lexicon, total),
        )

    def finish_challenge(self, session_id: int, seconds: float, completed: bool) -> None:
        """Close an attempt: its time, whether it was finished, and its score from the saved answers."""
        self.conn.execute(
            "UPDATE challenges SET seconds = ?, completed = ?, "
            "score = (SELECT COALESCE(SUM(correct), 0) FROM answers WHERE session_id = ?) WHERE session_id = ?",
            (seconds, int(completed), session_id, session_id),
        )

    def challenge_history(self, lexicon: str, kind: str | None, limit: int) -> list[Attempt]:
        """Attempts in a lexicon (of one kind, if given), newest first; scores counted from the saved answers."""
        rows = self.conn.execute(
            "SELECT ch.date, ch.kind, ch.lexicon, (SELECT COALESCE(SUM(a.correct), 0) FROM answers a "
            "WHERE a.session_id = ch.session_id), ch.total, ch.seconds, ch.completed FROM challenges ch "
            "WHERE ch.lexicon = ? AND (? IS NULL OR ch.kind = ?) ORDER BY ch.session_id DESC LIMIT ?",
            (lexicon, kind, kind, limit),
        )
        return [Attempt(r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6])) for r in rows]
