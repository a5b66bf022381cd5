"""Stored positions of the position quiz, with the facts about their top plays that puzzles filter on.

A position is studied as a card whose key is the position's CGP line, so
choosing positions joins the two tables on that.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any, Iterable

from lexitrain.study.store.connection import StoreConnection, sql_int

#: The columns a stored position is saved and backed up with (its id is local).
POSITION_FIELDS = ("lexicon", "cgp", "source", "top_score", "top_play", "top_word", "top_length", "bingo", "blank",
                   "margin", "top_rank", "plays", "added", "analysis")
#: The setting (DAILY_POSITIONS:LEXICON) that holds the daily drill's new positions: {"per_day", "filters"}.
DAILY_POSITIONS = "positions:daily"


@dataclass(frozen=True)
class Filters:
    """What makes a good puzzle; None / False means "any"."""

    min_score: int | None = None
    bingo: bool = False
    blank: bool = False
    min_margin: int | None = None
    length: int | None = None
    rarer_than: int | None = None  # the top word's probability rank is above this
    analysed: str | None = None  # only positions with an analysis made this way ("sim", "endgame")


@dataclass
class StoredPosition:
    """A position and the facts about its top play that the filters use."""

    cgp: str
    source: str
    top_score: int
    top_play: str
    top_word: str
    top_length: int
    bingo: bool
    blank: bool
    margin: int
    top_rank: int | None
    plays: int
    id: int | None = None
    analysis: str | None = None  # JSON: the simulation or endgame analysis an analysed kind asks it by

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        del data["analysis"]
        data["analysed"] = json.loads(self.analysis).get("by") if self.analysis else None
        return data


_COLUMNS = ", ".join(f"p.{name}" for name in StoredPosition.__dataclass_fields__)


def _stored(row: tuple[Any, ...]) -> StoredPosition:
    stored = StoredPosition(*row)
    stored.bingo, stored.blank = bool(stored.bingo), bool(stored.blank)
    return stored


def _where(filters: Filters) -> tuple[str, list[Any]]:
    clauses: list[str] = []
    params: list[Any] = []
    for column, value, op in (("top_score", filters.min_score, ">="), ("margin", filters.min_margin, ">="),
                              ("top_length", filters.length, "="), ("top_rank", filters.rarer_than, ">")):
        if value is not None:
            clauses.append(f"p.{column} {op} ?")
            params.append(sql_int(value))  # beyond any score, within SQLite's integers
    if filters.bingo:
        clauses.append("p.bingo = 1")
    if filters.blank:
        clauses.append("p.blank = 1")
    if filters.analysed is not None:
        clauses.append("json_valid(p.analysis) AND json_extract(p.analysis, '$.by') = ?")
        params.append(filters.analysed)
    return (" AND ".join(clauses) or "1 = 1"), params


class Positions(StoreConnection):
    def store_positions(self, lexicon: str, positions: Iterable[StoredPosition], now: float) -> int:
        """Save positions in one transaction; how many were new (one already stored is not doubled)."""
        return self.add_positions(
            {"lexicon": lexicon, **{k: v for k, v in asdict(p).items() if k != "id"}, "added": now} for p in positions)

    def add_positions(self, rows: Iterable[dict[str, Any]]) -> int:
        """Save position rows (POSITION_FIELDS; `analysis` may be left out) in one transaction, skipping
        those already stored, except that one stored without an analysis takes the row's; how many were new."""
        with self.transaction():
            rows = list(rows)
            added = self._run_many(
                f"INSERT INTO positions ({', '.join(POSITION_FIELDS)}, seq) VALUES ({', '.join('?' * len(POSITION_FIELDS))}, ?) "
                "ON CONFLICT DO NOTHING", [(*(row.get(name) for name in POSITION_FIELDS), number)
                                           for row, number in zip(rows, self._next_seqs(len(rows)))])
            analysed = [row for row in rows if row.get("analysis")]
            self._run_many(
                "UPDATE positions SET analysis = ?, seq = ? WHERE lexicon = ? AND cgp = ? AND analysis IS NULL",
                [(row["analysis"], number, row["lexicon"], row["cgp"])
                 for row, number in zip(analysed, self._next_seqs(len(analysed)))])
            return added

    def store_analysed_position(self, lexicon: str, position: StoredPosition, now: float) -> None:
        """Keep a position with its analysis; one stored already keeps its own analysis if it has one
        (a card asks the same question every time), else takes this one."""
        self.add_positions([{"lexicon": lexicon, **{k: v for k, v in asdict(position).items() if k != "id"},
                             "added": now}])

    def position_analysis(self, lexicon: str, cgp: str) -> str | None:
        """The stored analysis of a position (JSON text), None when there is none."""
        row = self.conn.execute("SELECT analysis FROM positions WHERE lexicon = ? AND cgp = ?",
                                (lexicon, cgp)).fetchone()
        return None if row is None else row[0]

    def position_count(self, lexicon: str) -> int:
        return int(self.conn.execute("SELECT count(*) FROM positions WHERE lexicon = ?", (lexicon,)).fetchone()[0])

    def select_positions(self, lexicon: str, card_kind: str, filters: Filters, now: float,
                         limit: int | None = None) -> list[StoredPosition]:
        """Matching positions: those due again first (most overdue first), then ones
        never asked (in the order stored), then the rest by due date."""
        where, params = _where(filters)
        sql = (f"SELECT {_COLUMNS} FROM positions p "
               "LEFT JOIN cards c ON c.lexicon = p.lexicon AND c.kind = ? AND c.key = p.cgp "
               f"WHERE p.lexicon = ? AND {where} "
               "ORDER BY CASE WHEN c.due <= ? THEN 0 WHEN c.id IS NULL OR c.state = 0 THEN 1 ELSE 2 END, "
               "c.due, p.id")
        args: list[Any] = [card_kind, lexicon, *params, now]
        if limit is not None:
            sql += " LIMIT ?"
            args.append(sql_int(limit))
        return [_stored(r) for r in self.conn.execute(sql, args)]

    def first_new_position(self, lexicon: str, card_kind: str, filters: Filters,
                           skip: frozenset[int] = frozenset()) -> str | None:
        """The CGP of the first stored position (in the order stored) that matches and was never
        asked, leaving out the cards in `skip`; raw SQL: the daily drill asks before every question."""
        where, params = _where(filters)
        row = self.conn.execute(
            "SELECT p.cgp FROM positions p LEFT JOIN cards c ON c.lexicon = p.lexicon AND c.kind = ? AND c.key = p.cgp "
            f"WHERE p.lexicon = ? AND {where} AND (c.id IS NULL OR (c.state = 0 AND c.id NOT IN "
            "(SELECT value FROM json_each(?)))) ORDER BY p.id LIMIT 1",
            (card_kind, lexicon, *params, json.dumps(sorted(skip)))).fetchone()
        return None if row is None else str(row[0])
