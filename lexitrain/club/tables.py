"""Shared walls: a member opens a table on a list of alphagrams, others join, one wall for all.

Every guess at a table is an event row (who, which word, whether it answered a question), and so
is every member sitting down (with who sits now) and the end; the first member to find a word is
credited with it, and the scoreboard at the end counts each seated member's finds. A right guess
schedules the guesser's own card of that question (once per table), unless the table is practice.
The events are delivered to the seated members' WebSockets by `club.events`: on PostgreSQL each
event is also sent with NOTIFY in the transaction that stores it, so every `serve` process hears
it the moment it is committed.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from datetime import date
from typing import Any

from lexitrain.club.challenges import ChallengeSets, toughies
from lexitrain.club.database import ClubDatabase, Tx
from lexitrain.club.owed import owe
from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.study.quiz.kinds.base import new_kind
from lexitrain.web.edge import Refused

#: The channel every process LISTENs on (PostgreSQL).
CHANNEL = "lexitrain_tables"
KIND = "anagram"
LARGEST = 500  # most questions a table takes


@dataclass(frozen=True)
class Wall:
    """A table's questions: keys in order, each one's answers, which question a word answers."""

    keys: tuple[str, ...]
    answers: dict[str, tuple[str, ...]]
    question_of: dict[str, str]


class Walls:
    """Each table's wall, worked out once per process from its stored keys (which never change)."""

    def __init__(self, lex: Lexicon) -> None:
        self.lex = lex
        self._walls: dict[int, Wall] = {}
        self._lock = threading.Lock()

    def make(self, keys: list[str]) -> Wall:
        answers: dict[str, tuple[str, ...]] = {}
        question_of: dict[str, str] = {}
        kind = new_kind(KIND)
        for key in keys:
            answers[key] = kind.build(self.lex, key).expected
            for word in answers[key]:
                question_of.setdefault(word, key)
        return Wall(tuple(keys), answers, question_of)

    def of(self, table_id: int, keys_json: str) -> Wall:
        with self._lock:
            found = self._walls.get(table_id)
        if found is None:
            found = self.make(json.loads(keys_json))
            with self._lock:
                self._walls[table_id] = found
                if len(self._walls) > 256:
                    del self._walls[next(iter(self._walls))]
        return found


def list_keys(lex: Lexicon, sets: ChallengeSets, db: ClubDatabase, asked: dict[str, Any], day: date,
              now: float) -> list[str]:
    """The alphagrams a new table asks: given ones, a challenge's set of the day, or the club's toughies."""
    kind = new_kind(KIND)
    if isinstance(asked.get("alphagrams"), list):
        keys = []
        for text in asked["alphagrams"]:
            if not isinstance(text, str):
                raise Refused(400, "alphagrams must be strings")
            try:
                keys.append(kind.key_from_text(lex, text))
            except LexitrainError as exc:
                raise Refused(400, str(exc)) from None
    elif isinstance(asked.get("challenge"), str):
        chosen = sets.get(asked["challenge"], day)
        keys = [key for key in chosen.keys if chosen.question_kind[key] == KIND]
    elif asked.get("toughies") is True:
        keys = [row["alphagram"] for row in toughies(db, lex.name, now)]
    else:
        raise Refused(400, 'give "alphagrams": [...], "challenge": KIND or "toughies": true')
    keys = list(dict.fromkeys(key for key in keys if kind.build(lex, key).expected))
    if not keys:
        raise Refused(400, "that list has no alphagram with an answer in the club's lexicon")
    if len(keys) > LARGEST:
        raise Refused(400, f"a table takes at most {LARGEST} alphagrams ({len(keys)} given)")
    return keys


def open_table(db: ClubDatabase, member_id: int, lexicon: str, keys: list[str], practice: bool, now: float) -> int:
    with db.transaction() as tx:
        row = tx.one("INSERT INTO club_tables (lexicon, owner_id, keys, practice, opened) VALUES (?, ?, ?, ?, ?) "
                     "RETURNING id", (lexicon, member_id, json.dumps(keys), practice, now))
        assert row is not None
        tx.run("INSERT INTO table_seats (table_id, member_id, joined) VALUES (?, ?, ?)", (row[0], member_id, now))
    return int(row[0])


def open_tables(db: ClubDatabase, lexicon: str) -> list[dict[str, Any]]:
    with db.transaction() as tx:
        rows = tx.rows("SELECT t.id, m.name, t.practice, t.opened, (SELECT count(*) FROM table_seats s "
                       "WHERE s.table_id = t.id) FROM club_tables t JOIN members m ON m.id = t.owner_id "
                       "WHERE t.lexicon = ? AND t.closed IS NULL ORDER BY t.id", (lexicon,))
    return [{"table": int(i), "owner": owner, "practice": bool(practice), "opened": opened, "seated": int(seated)}
            for i, owner, practice, opened, seated in rows]


def _table(tx: Tx, table_id: int) -> tuple[str, int, bool, float | None]:
    row = tx.one("SELECT keys, owner_id, practice, closed FROM club_tables WHERE id = ?", (table_id,))
    if row is None:
        raise Refused(404, f"no table {table_id}")
    return str(row[0]), int(row[1]), bool(row[2]), row[3]


def _seated(tx: Tx, table_id: int, member_id: int) -> float:
    """When the member sat down at the table (403 when they have not)."""
    row = tx.one("SELECT joined FROM table_seats WHERE table_id = ? AND member_id = ?", (table_id, member_id))
    if row is None:
        raise Refused(403, f"join table {table_id} first")
    return float(row[0])


def join(db: ClubDatabase, member_id: int, name: str, table_id: int, now: float) -> dict[str, Any] | None:
    """Seat the member: the `join` event every seated member is sent (who sits now), or None when they sat
    already. The open table's row is locked first (a conditional UPDATE), so two members sitting down at
    once, or one as the table ends, take turns: each event's `seated` has every seat taken before it."""
    with db.transaction() as tx:
        if tx.run("UPDATE club_tables SET closed = closed WHERE id = ? AND closed IS NULL", (table_id,)) != 1:
            _table(tx, table_id)  # (404 when there is no such table)
            raise Refused(409, f"table {table_id} is over")
        if tx.run("INSERT INTO table_seats (table_id, member_id, joined) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                  (table_id, member_id, now)) != 1:
            return None
        body = {"type": "join", "member": name, "seated": _seated_names(tx, table_id)}
        return _event(tx, db.postgres, table_id, body, now)


def _seated_names(tx: Tx, table_id: int) -> list[str]:
    """Who sits at the table, in the order they sat down."""
    rows = tx.rows("SELECT m.name FROM table_seats s JOIN members m ON m.id = s.member_id WHERE s.table_id = ? "
                   "ORDER BY s.joined, m.name", (table_id,))
    return [name for (name,) in rows]


def state(db: ClubDatabase, walls: Walls, member_id: int, table_id: int) -> dict[str, Any]:
    """The wall as a seated member sees it: the alphagrams, what was found by whom, who sits, who opened it
    (who may end it), the scoreboard."""
    with db.transaction() as tx:
        keys_json, owner_id, practice, closed = _table(tx, table_id)
        _seated(tx, table_id, member_id)
        owner = tx.one("SELECT name FROM members WHERE id = ?", (owner_id,))
        finds = tx.rows("SELECT f.word, f.alphagram, m.name FROM table_finds f JOIN members m ON m.id = f.member_id "
                        "WHERE f.table_id = ? ORDER BY f.at, f.word", (table_id,))
        seated = _seated_names(tx, table_id)
        last = tx.one("SELECT max(id) FROM table_events WHERE table_id = ?", (table_id,))
    wall = walls.of(table_id, keys_json)
    return {"table": table_id, "alphagrams": list(wall.keys), "answers": {k: len(v) for k, v in wall.answers.items()},
            "found": [{"word": w, "alphagram": a, "member": m} for w, a, m in finds],
            "seated": seated, "owner": owner[0] if owner else None, "practice": practice, "over": closed is not None,
            "scoreboard": _scoreboard(finds, seated), "last_event": int(last[0]) if last and last[0] is not None else 0}


def _scoreboard(finds: list[tuple[Any, ...]], seated: list[str]) -> list[dict[str, Any]]:
    """Each seated member's finds (0 for one who found none), most first."""
    counts = dict.fromkeys(seated, 0)
    for _word, _key, name in finds:
        counts[name] = counts.get(name, 0) + 1
    return [{"member": name, "found": found} for name, found in sorted(counts.items(), key=lambda c: (-c[1], c[0]))]


def _event(tx: Tx, postgres: bool, table_id: int, body: dict[str, Any], now: float) -> dict[str, Any]:
    """Store an event; on PostgreSQL also NOTIFY it (delivered to every process when this commits)."""
    row = tx.one("INSERT INTO table_events (table_id, at, body) VALUES (?, ?, ?) RETURNING id",
                 (table_id, now, json.dumps(body)))
    assert row is not None
    event = {"id": int(row[0]), "table": table_id, "at": now, **body}
    if postgres:
        tx.run("SELECT pg_notify(?, ?)", (CHANNEL, json.dumps(event)))
    return event


def guess(db: ClubDatabase, walls: Walls, member_id: int, name: str, table_id: int, word: str, lexicon: str,
          now: float) -> dict[str, Any]:
    """A seated member's guess: the event every seated member is sent (`correct`, `alphagram`, `first`)."""
    word = word.strip().upper()[:64]
    with db.transaction() as tx:
        keys_json, _owner, practice, closed = _table(tx, table_id)
        joined = _seated(tx, table_id, member_id)
        if closed is not None:
            raise Refused(409, f"table {table_id} is over")
        key = walls.of(table_id, keys_json).question_of.get(word)
        first = False
        if key is not None:
            first = tx.run("INSERT INTO table_finds (table_id, word, alphagram, member_id, at) VALUES (?, ?, ?, ?, ?) "
                           "ON CONFLICT DO NOTHING", (table_id, word, key, member_id, now)) == 1
            answered = tx.run("INSERT INTO table_answers (table_id, member_id, alphagram) VALUES (?, ?, ?) "
                              "ON CONFLICT DO NOTHING", (table_id, member_id, key)) == 1
            if answered and not practice:
                owe(tx, member_id, lexicon, f"club table {table_id}", joined, [(KIND, key, True)], now)
        body = {"type": "guess", "member": name, "word": word, "correct": key is not None, "alphagram": key,
                "first": first}
        return _event(tx, db.postgres, table_id, body, now)


def finish(db: ClubDatabase, member_id: int, table_id: int, now: float) -> dict[str, Any]:
    """End the table (its opener only): the closing event, with the scoreboard."""
    with db.transaction() as tx:
        _keys, owner, _practice, closed = _table(tx, table_id)
        if owner != member_id:
            raise Refused(403, "only the member who opened the table ends it")
        if tx.run("UPDATE club_tables SET closed = ? WHERE id = ? AND closed IS NULL", (now, table_id)) != 1:
            raise Refused(409, f"table {table_id} is over")
        finds = tx.rows("SELECT f.word, f.alphagram, m.name FROM table_finds f JOIN members m ON m.id = f.member_id "
                        "WHERE f.table_id = ?", (table_id,))
        scoreboard = _scoreboard(finds, _seated_names(tx, table_id))
        return _event(tx, db.postgres, table_id, {"type": "end", "scoreboard": scoreboard}, now)


def events_after(db: ClubDatabase, member_id: int, table_id: int, after: int) -> list[dict[str, Any]]:
    """A seated member's table events after the id given (a WebSocket catching up)."""
    with db.transaction() as tx:
        _table(tx, table_id)
        _seated(tx, table_id, member_id)
        rows = tx.rows("SELECT id, at, body FROM table_events WHERE table_id = ? AND id > ? ORDER BY id",
                       (table_id, after))
    return [{"id": int(i), "table": table_id, "at": at, **json.loads(body)} for i, at, body in rows]
