"""Open rounds (a wall, a review, a position round), as rows of the player's store.

A round is saved after every request that changes it, in that request's transaction (with the answers it
records), so any process answers its next request, a process killed loses no answer acknowledged, and a
restarted one carries it on (`study.drills.open_rounds` says what the state holds).
"""

from __future__ import annotations

from dataclasses import dataclass

from lexitrain.study.store.connection import StoreConnection


@dataclass(frozen=True)
class SavedRound:
    """A round as saved: its kind, lexicon and state (JSON), when its clock runs out, when it ended."""

    id: str
    kind: str
    lexicon: str
    state: str
    deadline: float | None
    closed: float | None


class Rounds(StoreConnection):
    def add_round(self, ident: str, kind: str, lexicon: str, state: str, deadline: float | None, now: float,
                  nonce: str | None = None) -> None:
        self.conn.execute("INSERT INTO rounds (id, kind, lexicon, state, nonce, deadline, opened, touched) "
                          "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (ident, kind, lexicon, state, nonce, deadline, now, now))

    def saved_round(self, ident: str) -> SavedRound | None:
        if "\x00" in ident:
            return None  # (no round's id holds a NUL, and PostgreSQL refuses to look for one)
        row = self.conn.execute("SELECT id, kind, lexicon, state, deadline, closed FROM rounds WHERE id = ?",
                                (ident,)).fetchone()
        return None if row is None else SavedRound(*row)

    def round_of_nonce(self, nonce: str) -> str | None:
        """The round a start form made (by its nonce), if it is still open."""
        row = self.conn.execute("SELECT id FROM rounds WHERE nonce = ? AND closed IS NULL", (nonce,)).fetchone()
        return None if row is None else str(row[0])

    def save_round(self, ident: str, state: str, deadline: float | None, now: float, closed: bool) -> None:
        """Keep a round's state (a round that ends keeps the moment it ended)."""
        self.conn.execute("UPDATE rounds SET state = ?, deadline = ?, touched = ?, "
                          "closed = CASE WHEN ? = 1 THEN COALESCE(closed, ?) END WHERE id = ?",
                          (state, deadline, now, int(closed), now, ident))

    def open_round_ids(self) -> list[str]:
        """The open rounds, the one used longest ago first."""
        return [str(row[0]) for row in self.conn.execute(
            "SELECT id FROM rounds WHERE closed IS NULL ORDER BY touched, id").fetchall()]

    def rounds_out_of_time(self, now: float) -> list[str]:
        """The open rounds whose clock has run out."""
        return [str(row[0]) for row in self.conn.execute(
            "SELECT id FROM rounds WHERE closed IS NULL AND deadline IS NOT NULL AND deadline <= ? ORDER BY id",
            (now,)).fetchall()]

    def forget_rounds(self, ended_before: float, keep: int) -> int:
        """Delete the rounds that ended before a time, and those past the KEEP that ended last (their answers
        stay); how many."""
        return int(self.conn.execute(
            "DELETE FROM rounds WHERE closed IS NOT NULL AND (closed < ? OR id NOT IN "
            "(SELECT id FROM rounds WHERE closed IS NOT NULL ORDER BY closed DESC, id LIMIT ?))",
            (ended_before, keep)).rowcount)
