"""Cards: one per (lexicon, kind, key), with its scheduling state and counters.

These statements run for every question asked and answered
(scripts/bench_study.py: pick + answer within 5 ms with 100,000 cards).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Iterable, NamedTuple

from lexitrain.errors import LexitrainError
from lexitrain.study.store.history import History
from lexitrain.study.store.migrations import SqlConnection
from lexitrain.study.store.uids import new_uid

CARD_COLUMNS = (
    "id, lexicon, kind, key, state, step, stability, difficulty, due, last_review, "
    "cardbox, correct, incorrect, streak, added"
)


#: The days `due_days` counts the due cards by (UTC days since the epoch).
DAY_SECONDS = 86_400
#: A batch of due dates this large gets a page cache of 64 MiB (SQLite's default is 2 MiB) for its connection.
_BIG_BATCH = 1000
_BIG_CACHE_KIB = -65536


class DueMove(NamedTuple):
    """A new due date for a card, and the card's due date and last review as they were read."""

    card_id: int
    read_due: float | None
    read_last_review: float | None
    due: float


@dataclass
class CardRow:
    """A card as stored: identity, scheduling state and counters."""

    id: int
    lexicon: str
    kind: str
    key: str
    state: int
    step: int | None
    stability: float | None
    difficulty: float | None
    due: float | None
    last_review: float | None
    cardbox: int
    correct: int
    incorrect: int
    streak: int
    added: float


def card_columns(table: str) -> str:
    """The card columns qualified by a table alias, for joins."""
    return ", ".join(f"{table}.{c.strip()}" for c in CARD_COLUMNS.split(","))


def among_clause(among: list[int] | None, table: str = "") -> tuple[str, tuple[str, ...]]:
    """The condition (and its parameter) that keeps a card query to some ids, looked up by id, to
    put first in its WHERE; nothing for None (every card). TABLE: the cards' alias in a join."""
    if among is None:
        return "", ()
    return f"{table + '.' if table else ''}id IN (SELECT value FROM json_each(?)) AND ", (json.dumps(among),)


#: A card's scheduling state and counters written (its id, lexicon, kind and key stay), given `_state_row(card)`.
_WRITE_STATE = ("UPDATE cards SET state = ?, step = ?, stability = ?, difficulty = ?, due = ?, last_review = ?, "
                "cardbox = ?, correct = ?, incorrect = ?, streak = ? WHERE id = ?")


def _state_row(card: CardRow) -> tuple[object, ...]:
    return (card.state, card.step, card.stability, card.difficulty, card.due, card.last_review, card.cardbox,
            card.correct, card.incorrect, card.streak, card.id)


def write_card_state(conn: SqlConnection, card: CardRow) -> None:
    """Write a card's scheduling state and counters (its id, lexicon, kind and key stay)."""
    conn.execute(_WRITE_STATE, _state_row(card))


class Cards(History):
    def ensure_cards(self, lexicon: str, kind_keys: Iterable[tuple[str, str]], now: float) -> list[int]:
        """Card ids for these (kind, key) pairs, creating new cards as needed."""
        with self.transaction():
            return [self.ensure_card(lexicon, kind, key, now) for kind, key in kind_keys]

    def ensure_card(self, lexicon: str, kind: str, key: str, now: float) -> int:
        """The id of a card, created new if it is not there yet."""
        return self.made_card(lexicon, kind, key, now)[0]

    def made_card(self, lexicon: str, kind: str, key: str, now: float) -> tuple[int, bool]:
        """The id of a card, created new if it is not there yet, and whether it was created now."""
        row = self.conn.execute("INSERT INTO cards (lexicon, kind, key, added) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING "
                                "RETURNING id", (lexicon, kind, key, now)).fetchone()
        if row is not None:
            return int(row[0]), True
        return int(self.conn.execute(
            "SELECT id FROM cards WHERE lexicon = ? AND kind = ? AND key = ?", (lexicon, kind, key)
        ).fetchone()[0]), False

    def make_cards(self, made: Iterable[tuple[str, str, str, float]]) -> dict[tuple[str, str, str], int]:
        """The ids of these cards (lexicon, kind, key; when one not there yet is added), made where they are not
        there yet, at once (a page of a sync names a thousand; the first time a card is named, its moment)."""
        first: dict[tuple[str, str, str], float] = {}
        for lexicon, kind, key, added in made:
            first.setdefault((lexicon, kind, key), added)
        with self.transaction():
            self._run_many("INSERT INTO cards (lexicon, kind, key, added) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                           [(*name, added) for name, added in first.items()])
            return self.card_ids_named(first)

    def card_ids_named(self, names: Iterable[tuple[str, str, str]]) -> dict[tuple[str, str, str], int]:
        """The ids of those of these cards (lexicon, kind, key) that are here, read at once (a statement a lexicon)."""
        wanted = set(names)
        found = {}
        for lexicon in sorted({lexicon for lexicon, _, _ in wanted}):
            keys = sorted({key for lex, _, key in wanted if lex == lexicon})
            for card_id, kind, key in self.conn.execute(
                    "SELECT id, kind, key FROM cards WHERE lexicon = ? AND key IN (SELECT CAST(value AS TEXT) FROM "
                    "json_each(?))", (lexicon, json.dumps(keys))):
                if (lexicon, kind, key) in wanted:
                    found[(lexicon, kind, key)] = int(card_id)
        return found

    def card_rows(self, card_ids: Iterable[int]) -> list[CardRow]:
        """These cards (those that are here), by id, read at once."""
        return [CardRow(*row) for row in self.conn.execute(
            f"SELECT {CARD_COLUMNS} FROM cards WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id",
            (json.dumps(sorted(set(card_ids))),))]

    def save_cards(self, cards: list[CardRow]) -> None:
        """Write these cards' scheduling states and counters at once (`save_card`'s, for a thousand cards)."""
        with self.transaction():
            self._run_many(_WRITE_STATE, [_state_row(card) for card in cards])
            begun = [card.id for card in cards if card.state != 0]
            if begun:
                self.conn.execute("DELETE FROM plan_queue WHERE card_id IN (SELECT value FROM json_each(?))",
                                  (json.dumps(begun),))

    def card(self, card_id: int) -> CardRow:
        row = self.conn.execute(f"SELECT {CARD_COLUMNS} FROM cards WHERE id = ?", (card_id,)).fetchone()
        if row is None:
            raise LexitrainError(f"no card with id {card_id} in {self.path}")
        return CardRow(*row)

    def find_card(self, lexicon: str, kind: str, key: str) -> CardRow | None:
        row = self.conn.execute(
            f"SELECT {CARD_COLUMNS} FROM cards WHERE lexicon = ? AND kind = ? AND key = ?", (lexicon, kind, key)
        ).fetchone()
        return None if row is None else CardRow(*row)

    def due_cards(self, lexicon: str, now: float, limit: int, skip: frozenset[int] = frozenset(),
                  skip_decks: frozenset[int] = frozenset(), among: list[int] | None = None) -> list[CardRow]:
        """Cards due by `now`, most overdue first, suspended ones left out (and the ids
        in `skip`, and the cards of the decks in `skip_decks`); with `among`, only those ids."""
        only, ids = among_clause(among)
        rows = self.conn.execute(
            f"SELECT {CARD_COLUMNS} FROM cards WHERE {only}"
            "lexicon = ? AND due IS NOT NULL AND due <= ? AND suspended = 0 AND id NOT IN (SELECT value FROM json_each(?)) "
            "AND (deck_id IS NULL OR deck_id NOT IN (SELECT value FROM json_each(?))) ORDER BY due LIMIT ?",
            (*ids, lexicon, now, json.dumps(sorted(skip)), json.dumps(sorted(skip_decks)), limit),
        ).fetchall()
        return [CardRow(*r) for r in rows]

    def studied_cards(self, lexicon: str) -> list[CardRow]:
        """Every card of a lexicon answered at least once."""
        rows = self.conn.execute(f"SELECT {CARD_COLUMNS} FROM cards WHERE lexicon = ? AND last_review IS NOT NULL",
                                 (lexicon,)).fetchall()
        return [CardRow(*r) for r in rows]

    def scheduled_cards(self) -> list[CardRow]:
        """Every card of every lexicon with a schedule or a history (answered, or given a due date by an
        import): what a club member's `/api/cards` lists (a plan's cards not yet shown are left out)."""
        rows = self.conn.execute(f"SELECT {CARD_COLUMNS} FROM cards WHERE last_review IS NOT NULL OR due IS NOT NULL "
                                 "ORDER BY lexicon, kind, key").fetchall()
        return [CardRow(*r) for r in rows]

    def due_count(self, lexicon: str, now: float) -> int:
        """How many cards are due by `now` (suspended ones left out): those of the days before now's, as the
        database keeps them (`due_days`), and those of now's own day so far, on the due index (a few rows read,
        however many cards are due)."""
        day = math.floor(now / DAY_SECONDS)
        return int(self.conn.execute(
            "SELECT (SELECT COALESCE(sum(cards), 0) FROM due_days WHERE lexicon = ? AND day < ?) + "
            "(SELECT count(*) FROM cards WHERE lexicon = ? AND due IS NOT NULL AND due >= ? AND due <= ? "
            "AND suspended = 0)", (lexicon, day, lexicon, day * DAY_SECONDS, now)).fetchone()[0])

    def save_card(self, card: CardRow) -> None:
        """Write a card's scheduling state and counters; a card no longer new leaves its plan's queue."""
        with self.transaction():
            write_card_state(self.conn, card)
            if card.state != 0:
                self.conn.execute("DELETE FROM plan_queue WHERE card_id = ?", (card.id,))

    def move_due_dates(self, moves: Iterable[DueMove], at: float) -> int:
        """Set when cards are due, and nothing else about them (their memory state stays), each only
        if it is still as it was read (due and last review): a card answered (or moved) since keeps
        what that answer gave it. Each move is kept as the card's `due` event (`history`), made at `at`.
        How many moved.

        One transaction, in id order, with a page cache large enough to hold a big batch's changes
        until the commit (the tournament reschedule of 100,000 cards: 1.6 s -> 0.5 s for 20,000 moved).
        """
        rows = sorted(((move.due, move.card_id, move.read_due, move.read_last_review) for move in moves),
                      key=lambda row: row[1])
        with self.transaction():
            if len(rows) > _BIG_BATCH and self.dialect == "sqlite":
                self.conn.execute(f"PRAGMA cache_size = {_BIG_CACHE_KIB}")
            numbers = self._next_seqs(len(rows))
            self._run_many(
                "INSERT INTO card_events (uid, lexicon, kind, key, what, at, body, seq) SELECT ?, lexicon, kind, key, "
                "'due', ?, ?, ? FROM cards WHERE id = ? AND due IS NOT DISTINCT FROM ? AND last_review IS NOT DISTINCT FROM ?",
                [(new_uid(), at, json.dumps({"due": due, "last_review": last_review}, sort_keys=True), number, card_id,
                  read_due, last_review) for (due, card_id, read_due, last_review), number in zip(rows, numbers)])
            return self._run_many("UPDATE cards SET due = ? WHERE id = ? AND due IS NOT DISTINCT FROM ? "
                                  "AND last_review IS NOT DISTINCT FROM ?", rows)

    def card_counters(self, lexicon: str) -> list[tuple[str, str, int, float | None, int, int]]:
        """(kind, key, state, due, correct, incorrect) of every card of a lexicon, for statistics."""
        return self.conn.execute(
            "SELECT kind, key, state, due, correct, incorrect FROM cards WHERE lexicon = ?", (lexicon,)
        ).fetchall()

    def due_per_quarter_hour(self, lexicon: str, since: float, until: float) -> tuple[int, list[tuple[int, int]]]:
        """(cards due before `since`; (quarter-hour number since the epoch, cards due) from it until
        `until`) of a lexicon's scheduled cards, suspended ones left out as the drills leave them out
        (found on the due index; 44 against 5 ms at 100,000 cards for reading each card's flag; those before
        SINCE from the days the store keeps)."""
        overdue = self.due_count(lexicon, math.nextafter(since, -math.inf))  # (due before SINCE: by the days kept)
        return overdue, self.conn.execute(
            "SELECT CAST(floor(due / 900) AS INTEGER) AS q, count(*) FROM cards "
            "WHERE lexicon = ? AND due IS NOT NULL AND due >= ? AND due < ? AND suspended = 0 GROUP BY q", (lexicon, since, until)
        ).fetchall()

    def most_missed_cards(self, lexicon: str, kind_prefix: str, limit: int) -> list[tuple[str, int, int, float]]:
        """(key, correct, incorrect, share missed to 3 places) of the cards of a kind missed at least once:
        the highest share first, then the most misses, then by key."""
        return self.conn.execute(
            "SELECT key, correct, incorrect, round(1.0 * incorrect / (correct + incorrect), 3) AS rate "
            "FROM cards NOT INDEXED WHERE lexicon = ? AND substr(kind, 1, ?) = ? AND incorrect > 0 "
            "ORDER BY rate DESC, incorrect DESC, key LIMIT ?", (lexicon, len(kind_prefix), kind_prefix, limit)
        ).fetchall()

    def keys_in_state(self, lexicon: str, kind_prefix: str, state: int) -> list[str]:
        """Keys of the cards of a lexicon in one state whose kind starts so (e.g. the anagram cards learnt).

        NOT INDEXED: a scan reads the table in order, five times quicker than looking up
        each of a lexicon's cards through the (lexicon, kind, key) index (100,000 cards:
        scripts/bench_study.py, coverage)."""
        rows = self.conn.execute(
            "SELECT key FROM cards NOT INDEXED WHERE lexicon = ? AND state = ? AND substr(kind, 1, ?) = ?",
            (lexicon, state, len(kind_prefix), kind_prefix),
        )
        return [row[0] for row in rows]
