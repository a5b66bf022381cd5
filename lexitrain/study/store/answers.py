"""Sessions and their answers: what was asked, what was given, when, and the card before.

An answer is written the moment it is given and the daily drill counts
today's answers before every question (scripts/bench_study.py). Each answer has an id made where it
was given (`uid`), and names the way of scheduling it was graded by (`scheduling`): what a card's
schedule is made of (`history`). A change to an answer after it was given (a mark, an undo) is kept
as a record of its own beside it, so that it travels as the answer does.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from lexitrain.errors import LexitrainError
from lexitrain.study.store.cards import CARD_COLUMNS, CardRow
from lexitrain.study.store.history import History, before_json
from lexitrain.study.store.uids import new_uid


@dataclass(frozen=True)
class AnswerRow:
    """One answer as recorded."""

    session_id: int
    mode: str  # quiz, daily, challenge
    card_id: int | None  # None: a practice question that is no card
    kind: str
    key: str
    given: str
    correct: bool
    was_new: bool  # the card's first answer
    before: CardRow | None  # the card before this answer, to redo its scheduling on an override
    at: float
    ms: int | None
    rating: int | None = None  # the grade given (1 Again ... 4 Easy); None: checked only, no grade
    late_mark: bool | None = None  # a challenge answer marked correct/missed after the challenge ended
    uid: str | None = None  # its stable id (None: one is made as it is recorded)
    scheduling: str | None = None  # the way of scheduling that graded it (`history`); None: it moved no card


#: the longest an answer counts as taking, in ms: longer, the player was away
IDLE_MS = 120_000


@dataclass(frozen=True)
class Opening:
    """A session as it starts: its mode, lexicon, source and start. Its row is made by its first answer, in the
    answer's transaction (`Graded.grade_card`), or when something else is first kept under it (a challenge's
    attempt), so a session that answers nothing leaves no row. A `shared` opening is one session for every
    opening alike, found again and never made twice (the club's day of study, a debt the club pays twice, a
    session a backup or another store's page names again), its end (ENDED, COMPLETE) moved on to the latest given.
    A `taken` one came from another store (a sync): its round is never resumed here."""

    mode: str
    lexicon: str
    source: str
    started: float
    shared: bool = False
    ended: float | None = None
    complete: bool = False
    taken: bool = False


_INSERT_ANSWER = ("INSERT INTO answers (session_id, mode, card_id, kind, key, given, correct, was_new, before, at, ms, "
                  "rating, late_mark, uid, scheduling, seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")


def _answer_values(answer: AnswerRow, seq: int) -> tuple[Any, ...]:
    """An answer's row as `_INSERT_ANSWER` keeps it, numbered SEQ (an id made for it if it has none)."""
    return (answer.session_id, answer.mode, answer.card_id, answer.kind, answer.key, answer.given, int(answer.correct),
            int(answer.was_new), None if answer.before is None else before_json(answer.before), answer.at, answer.ms,
            answer.rating, None if answer.late_mark is None else int(answer.late_mark), answer.uid or new_uid(),
            answer.scheduling, seq)


class Answers(History):
    def start_session(self, mode: str, lexicon: str, source: str, now: float) -> int:
        return self.session_for(Opening(mode, lexicon, source, now))

    def session_for(self, opening: Opening) -> int:
        """The row of the session OPENING starts: made now (a shared one: found first, and its end moved on)."""
        with self.transaction():
            found = self._session_row(opening) if opening.shared else None
            if found is not None:
                session_id, ended, complete = found
                ends = [e for e in (ended, opening.ended) if e is not None]
                latest = (max(ends) if ends else None, bool(complete) or opening.complete)
                if latest != (ended, bool(complete)):
                    self.end_session(session_id, latest[0], latest[1])
                return int(session_id)
            return int(self.conn.execute(
                "INSERT INTO sessions (mode, lexicon, source, started, ended, complete, taken, seq) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (opening.mode, opening.lexicon, opening.source, opening.started, opening.ended, int(opening.complete),
                 int(opening.taken), self._next_seq())).fetchone()[0])

    def found_session(self, opening: Opening) -> int | None:
        """The row of a shared session OPENING starts, if it has one yet (None: nothing was kept under it)."""
        found = self._session_row(opening)
        return None if found is None else int(found[0])

    def _session_row(self, opening: Opening) -> tuple[int, float | None, int] | None:
        row = self.conn.execute("SELECT id, ended, complete FROM sessions WHERE mode = ? AND lexicon = ? AND source = ? "
                                "AND started = ?", (opening.mode, opening.lexicon, opening.source, opening.started)
                                ).fetchone()
        return None if row is None else (int(row[0]), row[1], int(row[2]))

    def end_session(self, session_id: int, now: float | None, complete: bool = False) -> None:
        """Close a session; `complete`: its round reached its end (not stopped before it)."""
        with self.transaction():
            self.conn.execute("UPDATE sessions SET ended = ?, complete = ?, seq = ? WHERE id = ?",
                              (now, int(complete), self._next_seq(), session_id))

    def answers_in(self, session_ids: Iterable[int]) -> set[tuple[int, str, str, float]]:
        """(session, kind, key, when) of every answer these sessions hold, read at once."""
        return {(int(s), str(kind), str(key), float(at)) for s, kind, key, at in self.conn.execute(
            "SELECT session_id, kind, key, at FROM answers WHERE session_id IN (SELECT value FROM json_each(?))",
            (json.dumps(sorted(set(session_ids))),))}

    def record_answer(self, answer: AnswerRow) -> int:
        """Save an answer (numbered as this store's latest change); its id."""
        with self.transaction():
            return int(self.conn.execute(_INSERT_ANSWER + " RETURNING id", _answer_values(answer, self._next_seq())
                                         ).fetchone()[0])

    def add_answers(self, answers: Sequence[AnswerRow]) -> None:
        """Save many answers (an import's, a sync's page), numbered in their order, in a few statements whatever
        their number (a club's database is a round trip away)."""
        if answers:
            with self.transaction():
                self._run_many(_INSERT_ANSWER, [_answer_values(answer, number) for answer, number
                                                in zip(answers, self._next_seqs(len(answers)))])

    def answer_card(self, answer_id: int) -> int | None:
        """The id of the card an answer was given to (None: no card's)."""
        row = self.conn.execute("SELECT card_id FROM answers WHERE id = ?", (answer_id,)).fetchone()
        return None if row is None else row[0]

    def mark_late(self, answer_id: int, correct: bool, at: float) -> None:
        """Keep a mark given (at `at`) after a challenge ended, beside the answer's verdict (which stays)."""
        with self.transaction():
            uid = self.answer_uid(answer_id)
            self.add_answer_change(uid, "late", int(correct), at)
            self._settle_answer(uid)

    def take_back_answer(self, answer_id: int, left: CardRow | None, made_card: bool, at: float) -> None:
        """Take an answer back (at `at`): its row deleted, its retraction kept (`history`), the card it
        made deleted; the caller makes the card it scheduled again from what is left (`replay`), in its
        transaction. `left` is the card as the answer left it (None: the answer did not touch it); a
        card changed since (answered again elsewhere) is refused, nothing undone."""
        with self.transaction():
            row = self.conn.execute("SELECT card_id, uid FROM answers WHERE id = ?", (answer_id,)).fetchone()
            if row is None:
                raise LexitrainError("that answer is no longer in the progress database: nothing to take back")
            card_id, uid = row
            if card_id is not None and left is not None:
                now = self.conn.execute(f"SELECT {CARD_COLUMNS} FROM cards WHERE id = ?", (card_id,)).fetchone()
                if now is None or CardRow(*now) != left:
                    raise LexitrainError("the card was answered again since (in another drill): it stays as it is")
            self.add_answer_change(uid, "retract", None, at)
            self.conn.execute("DELETE FROM answers WHERE id = ?", (answer_id,))
            if card_id is not None and left is not None and made_card:
                self.conn.execute("DELETE FROM cards WHERE id = ?", (card_id,))

    def mark_answer(self, answer_id: int, correct: bool, at: float) -> None:
        """Change an answer's verdict (the player's "mark correct" / "mark missed", at `at`); a grade it had
        no longer holds. The caller makes its card again (`replay`)."""
        with self.transaction():
            uid = self.answer_uid(answer_id)
            self.add_answer_change(uid, "mark", int(correct), at)
            self._settle_answer(uid)

    def answers_since(self, mode: str | None, lexicon: str, since: float, kind: str | None = None) -> tuple[int, int]:
        """(new cards introduced, reviews done) in sessions of `mode` (None: of every mode) since a time (of one
        kind, if given)."""
        row = self.conn.execute(  # CROSS JOIN: walk today's answers by time, not every card of the lexicon
            "SELECT COALESCE(SUM(a.was_new), 0), COALESCE(SUM(1 - a.was_new), 0) FROM answers a "
            "CROSS JOIN sessions s ON s.id = a.session_id "
            "WHERE a.at >= ? AND (? IS NULL OR a.mode = ?) AND a.card_id IS NOT NULL AND s.lexicon = ? "
            "AND (? IS NULL OR a.kind = ?)",
            (since, mode, mode, lexicon, kind, kind),
        ).fetchone()
        return int(row[0]), int(row[1])

    def review_log(self, deck_id: int | None = None) -> list[tuple[int, float, int, int | None]]:
        """(card, at, correct, rating) of every answer that scheduled a card (of one deck, if
        given), by card and time: the log `study optimize` fits FSRS to."""
        return self.conn.execute(
            "SELECT a.card_id, a.at, a.correct, a.rating FROM answers a JOIN cards c ON c.id = a.card_id "
            "WHERE (? IS NULL OR c.deck_id = ?) ORDER BY a.card_id, a.at", (deck_id, deck_id)).fetchall()

    def seconds_per_card(self, card_ids: list[int]) -> dict[int, float]:
        """The mean time an answer to each card took, in seconds (each answer counted at most
        two minutes: a question left on screen is not study time), for the cards answered with a time."""
        return {card: ms / 1000 for card, ms in self.conn.execute(
            f"SELECT card_id, avg(CASE WHEN ms < {IDLE_MS} THEN ms ELSE {IDLE_MS} END) FROM answers WHERE ms IS NOT NULL "
            "AND card_id IN (SELECT value FROM json_each(?)) GROUP BY card_id", (json.dumps(card_ids),))}

    def seconds_per_kind(self, lexicon: str) -> dict[str, float]:
        """The mean time an answer of each kind took on a lexicon, in seconds (as `seconds_per_card`)."""
        return {kind: ms / 1000 for kind, ms in self.conn.execute(
            f"SELECT a.kind, avg(CASE WHEN a.ms < {IDLE_MS} THEN a.ms ELSE {IDLE_MS} END) FROM answers a JOIN sessions s ON s.id = a.session_id "
            "WHERE s.lexicon = ? AND a.ms IS NOT NULL GROUP BY a.kind", (lexicon,))}

    def states_since(self, lexicon: str, since: float) -> list[tuple[int, float, int, float | None, float | None]]:
        """(card, when, state, stability, last review) of the card just before each of its answers
        given after `since`, by card and time: the card as it stood at any moment since then."""
        return self.conn.execute(
            "SELECT a.card_id, a.at, json_extract(a.before, '$.state'), json_extract(a.before, '$.stability'), "
            "json_extract(a.before, '$.last_review') FROM answers a JOIN cards c ON c.id = a.card_id "
            "WHERE c.lexicon = ? AND a.at > ? AND a.before IS NOT NULL ORDER BY a.card_id, a.at",
            (lexicon, since)).fetchall()

    def answers_per_quarter_hour(self, lexicon: str, since: float) -> list[tuple[int, int, int, int, int]]:
        """(quarter-hour number since the epoch, answers, right, new, unscheduled: answers that moved no card,
        a practice wall's) since a time, in a lexicon's sessions.
        Quarter hours, because every time zone's offset is a whole number of them: the caller maps them to
        its calendar days exactly, and SQLite only adds (no date function over 100,000 rows)."""
        return self.conn.execute(
            "SELECT CAST(floor(a.at / 900) AS INTEGER) AS q, count(*), SUM(a.correct), SUM(a.was_new), "
            "SUM(CASE WHEN a.card_id IS NULL THEN 1 ELSE 0 END) "
            "FROM answers a NOT INDEXED JOIN sessions s ON s.id = a.session_id "
            "WHERE a.at >= ? AND s.lexicon = ? GROUP BY q", (since, lexicon)
        ).fetchall()

    def review_tally(self, lexicon: str, since: float) -> tuple[int, int, int, int]:
        """(reviews, right; reviews since a time, right) of a lexicon's cards: answers that were not a card's first."""
        row = self.conn.execute(
            "SELECT count(*), COALESCE(SUM(a.correct), 0), COALESCE(SUM(CASE WHEN a.at >= ? THEN 1 ELSE 0 END), 0), "
            "COALESCE(SUM(CASE WHEN a.at >= ? THEN a.correct ELSE 0 END), 0) FROM answers a NOT INDEXED JOIN sessions s "
            "ON s.id = a.session_id WHERE s.lexicon = ? AND a.was_new = 0 AND a.card_id IS NOT NULL",
            (since, since, lexicon)).fetchone()
        return int(row[0]), int(row[1]), int(row[2]), int(row[3])

    def kind_answers(self, lexicon: str, kind: str) -> list[tuple[str, str, float]]:
        """(key, given, when) of every answer of one kind in a lexicon's sessions, oldest first (tile tracking's)."""
        return self.conn.execute(
            "SELECT a.key, a.given, a.at FROM answers a JOIN sessions s ON s.id = a.session_id "
            "WHERE s.lexicon = ? AND a.kind = ? ORDER BY a.at, a.id", (lexicon, kind)).fetchall()

    def source_attempts(self, lexicon: str, source: str) -> list[tuple[int, float, float | None, int, int]]:
        """(session id, started, ended, answers, right) of every session on one source in a lexicon, oldest
        first: a list's attempts."""
        return self.conn.execute(
            "SELECT s.id, s.started, s.ended, count(a.id), COALESCE(SUM(a.correct), 0) FROM sessions s "
            "LEFT JOIN answers a ON a.session_id = s.id WHERE s.lexicon = ? AND s.source = ? "
            "GROUP BY s.id ORDER BY s.id", (lexicon, source)).fetchall()

    def source_misses(self, lexicon: str, source: str) -> list[tuple[str, int, int]]:
        """(key, times missed, the last session it was missed in) of the questions of one source missed at
        least once, the most missed first."""
        return self.conn.execute(
            "SELECT a.key, SUM(1 - a.correct), MAX(CASE WHEN a.correct = 0 THEN a.session_id END) "
            "FROM answers a JOIN sessions s ON s.id = a.session_id WHERE s.lexicon = ? AND s.source = ? "
            "GROUP BY a.key HAVING SUM(1 - a.correct) > 0 ORDER BY 2 DESC, a.key", (lexicon, source)).fetchall()

    def most_missed(self, lexicon: str, kind: str, since: float, until: float, limit: int) -> list[str]:
        """Keys of a kind missed at least once in a lexicon between two times: most misses
        first, then the highest share missed, then the latest miss (the toughies)."""
        rows = self.conn.execute(
            "SELECT a.key FROM answers a JOIN sessions s ON s.id = a.session_id "
            "WHERE s.lexicon = ? AND a.kind = ? AND a.at >= ? AND a.at < ? GROUP BY a.key "
            "HAVING SUM(1 - a.correct) > 0 "
            "ORDER BY SUM(1 - a.correct) DESC, AVG(1 - a.correct) DESC, MAX(CASE WHEN a.correct = 0 THEN a.at END) DESC, "
            "a.key LIMIT ?",
            (lexicon, kind, since, until, limit),
        )
        return [row[0] for row in rows]

    def last_session_answers(self, mode: str, lexicon: str, source: str) -> tuple[int, set[tuple[str, str]]] | None:
        """The latest session of a mode on a source in a lexicon, and the (kind, key) it answered (a round to
        resume); None when there is none, or when its round reached its end. Sessions a sync took from
        another store are not looked at: a round is resumed only where it was played."""
        row = self.conn.execute(
            "SELECT id, complete FROM sessions WHERE mode = ? AND lexicon = ? AND source = ? AND taken = 0 "
            "ORDER BY id DESC LIMIT 1", (mode, lexicon, source),
        ).fetchone()
        if row is None or row[1]:
            return None
        answered = self.conn.execute("SELECT kind, key FROM answers WHERE session_id = ?", (row[0],)).fetchall()
        return int(row[0]), {(kind, key) for kind, key in answered}
