"""What a card's schedule is made of, beside the answers' rows: the ways of scheduling answers were
graded by, the changes made to answers after they were given, and a card's events that are no answer.

A card's schedule is what its history makes of it (`study.quiz.replay`): its answers in time order,
each graded by the way of scheduling in force when it was given (`schedulings`, a spec kept under its
digest, so the same way has the same name on every machine), and its events in their places: its state
`set` whole (a cardbox or backup import, cards made from games, the schedule a card had when this
history began), its `due` date moved (a postponement, a tournament's reschedule; it holds only while the
card's last review is still the one it was moved from) and the card `forget`-ten. An answer is changed
after it was given only by a record that travels as well (`answer_changes`): a `mark` (the verdict
overridden), a `late` mark (a challenge's, beside its verdict), a `retract` (an undo: the answer's row
goes, the record stays, so the answer is never taken again from a store that still has it).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Iterable

from lexitrain.study.store.connection import StoreConnection
from lexitrain.study.store.migrations import SCHEDULE_FIELDS
from lexitrain.study.store.uids import new_uid

#: A card's events, and how an event sorts among the facts given at the same moment: answers first,
#: then a due date moved, then a state set or the card forgotten (the state after that moment's answers).
EVENT_ORDER = {"due": 1, "set": 2, "forget": 2}
#: The changes made to an answer after it was given.
CHANGES = ("mark", "late", "retract")


@dataclass(frozen=True)
class AnswerFact:
    """An answer to a card as its schedule is made again from it."""

    id: int
    uid: str
    at: float
    correct: bool
    rating: int | None
    scheduling: str | None  # the way of scheduling it was graded by (None: it moved no card)
    before: str | None  # the card before it, as kept (JSON)
    was_new: bool


@dataclass(frozen=True)
class CardEvent:
    """A card's event that is no answer: `set` (body: its schedule), `due` (body: `due`, and the
    `last_review` it was moved from) or `forget` (body: empty)."""

    uid: str
    what: str
    at: float
    body: dict[str, Any]


def before_json(card: object) -> str:
    """A card as an answer keeps it (`before`): its fields as JSON, in order (as quick as it gets: a card made
    again from its history compares this with what each of its answers kept)."""
    return json.dumps(vars(card))


def schedule_of(card: object) -> dict[str, Any]:
    """A card's schedule as a `set` event holds it."""
    return {name: getattr(card, name) for name in SCHEDULE_FIELDS}


class History(StoreConnection):
    def keep_scheduling(self, scheduling_id: str, spec: dict[str, Any]) -> str:
        """Keep a way of scheduling under its digest (if it is not kept yet); its id."""
        self.conn.execute("INSERT INTO schedulings (id, spec) VALUES (?, ?) ON CONFLICT DO NOTHING",
                          (scheduling_id, json.dumps(spec, sort_keys=True)))
        return scheduling_id

    def scheduling_specs(self, ids: Iterable[str]) -> dict[str, dict[str, Any]]:
        """The specs of these ways of scheduling (those kept here; a card's answers name one or two)."""
        return {str(sid): json.loads(spec) for sid, spec in self.conn.execute(
            "SELECT id, spec FROM schedulings WHERE id IN (SELECT CAST(value AS TEXT) FROM json_each(?))",
            (json.dumps(sorted(set(ids))),))}

    def card_histories(self, card_ids: Iterable[int]) -> dict[int, tuple[list[AnswerFact], list[CardEvent]]]:
        """Each of these cards' answers and events (in no particular order), read at once (two statements for
        a thousand cards: a sync makes a thousand cards again, over one connection to a club's database)."""
        ids = json.dumps(sorted(set(card_ids)))
        histories: dict[int, tuple[list[AnswerFact], list[CardEvent]]] = {
            card_id: ([], []) for card_id in json.loads(ids)}
        for card_id, i, uid, at, correct, rating, scheduling, before, was_new in self.conn.execute(
                "SELECT card_id, id, uid, at, correct, rating, scheduling, before, was_new FROM answers "
                "WHERE card_id IN (SELECT value FROM json_each(?))", (ids,)):
            histories[int(card_id)][0].append(AnswerFact(int(i), uid, float(at), bool(correct), rating, scheduling,
                                                         before, bool(was_new)))
        for card_id, uid, what, at, body in self.conn.execute(
                "SELECT c.id, e.uid, e.what, e.at, e.body FROM cards c JOIN card_events e ON e.lexicon = c.lexicon "
                "AND e.kind = c.kind AND e.key = c.key WHERE c.id IN (SELECT value FROM json_each(?))", (ids,)):
            histories[int(card_id)][1].append(CardEvent(uid, what, float(at), json.loads(body)))
        return histories

    def answers_here(self, uids: Iterable[str]) -> set[str]:
        """Those of these answers this store holds, or took back (their retraction is kept)."""
        listed = json.dumps(sorted(set(uids)))
        return {str(row[0]) for row in self.conn.execute(
            "SELECT uid FROM answers WHERE uid IN (SELECT CAST(value AS TEXT) FROM json_each(?)) UNION "
            "SELECT answer FROM answer_changes WHERE what = 'retract' AND answer IN "
            "(SELECT CAST(value AS TEXT) FROM json_each(?))", (listed, listed))}

    def marked_answers(self, uids: Iterable[str]) -> set[str]:
        """Those of these answers a mark or late mark is kept for."""
        return {str(row[0]) for row in self.conn.execute(
            "SELECT DISTINCT answer FROM answer_changes WHERE what != 'retract' AND answer IN "
            "(SELECT CAST(value AS TEXT) FROM json_each(?))", (json.dumps(sorted(set(uids))),))}

    def latest_fact(self, card: Any) -> float | None:
        """When the card's latest answer or event was (None: it has none): an answer given after it
        schedules the card from its state as it is; one given before must make it again."""
        row = self.conn.execute(
            "SELECT max(at) FROM (SELECT max(at) AS at FROM answers WHERE card_id = ? UNION ALL "
            "SELECT max(at) AS at FROM card_events WHERE lexicon = ? AND kind = ? AND key = ?) AS facts",
            (card.id, card.lexicon, card.kind, card.key)).fetchone()
        return None if row is None or row[0] is None else float(row[0])

    def add_card_event(self, lexicon: str, kind: str, key: str, what: str, at: float, body: dict[str, Any],
                       uid: str | None = None) -> bool:
        """Keep a card's event (inside `transaction()`); False if one with that id is kept already."""
        if uid is not None and self.conn.execute("SELECT 1 FROM card_events WHERE uid = ?", (uid,)).fetchone():
            return False
        self.conn.execute("INSERT INTO card_events (uid, lexicon, kind, key, what, at, body, seq) "
                          "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (uid or new_uid(), lexicon, kind, key, what, at,
                                                             json.dumps(body, sort_keys=True), self._next_seq()))
        return True

    def add_answer_change(self, answer_uid: str, what: str, value: int | None, at: float,
                          uid: str | None = None) -> bool:
        """Keep a change to an answer (inside `transaction()`); False if one with that id is kept already."""
        if uid is not None and self.conn.execute("SELECT 1 FROM answer_changes WHERE uid = ?", (uid,)).fetchone():
            return False
        self.conn.execute("INSERT INTO answer_changes (uid, answer, what, value, at, seq) VALUES (?, ?, ?, ?, ?, ?)",
                          (uid or new_uid(), answer_uid, what, value, at, self._next_seq()))
        return True

    def _settle_answer(self, uid: str) -> None:
        """An answer's verdict and late mark as its latest marks (by moment, then id) make them: a mark
        overrides the verdict given, and the grade (inside `transaction()`)."""
        for what, sql in (("mark", "UPDATE answers SET correct = ?, rating = NULL WHERE uid = ?"),
                          ("late", "UPDATE answers SET late_mark = ? WHERE uid = ?")):
            row = self.conn.execute("SELECT value FROM answer_changes WHERE answer = ? AND what = ? "
                                    "ORDER BY at DESC, uid DESC LIMIT 1", (uid, what)).fetchone()
            if row is not None:
                self.conn.execute(sql, (row[0], uid))

    def answer_uid(self, answer_id: int) -> str:
        return str(self.conn.execute("SELECT uid FROM answers WHERE id = ?", (answer_id,)).fetchone()[0])

    def rewrite_befores(self, rows: Iterable[tuple[Any, int]]) -> None:
        """Keep the card as it was before each answer (and whether it was new then), where a card made again
        from its history found it otherwise (inside `transaction()`)."""
        self._run_many("UPDATE answers SET before = ?, was_new = ? WHERE id = ?",
                       [(before_json(card), int(card.state == 0), answer_id) for card, answer_id in rows])
