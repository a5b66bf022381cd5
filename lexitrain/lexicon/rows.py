"""A lexicon's word rows: the typed row every layer reads, and conditions that select rows.

This module and schema.py are the only ones that know the lexicon's tables.
Search, study and sheets ask `Lexicon.rows` for the words meeting some
conditions on stored facts; the conditions become SQL here. A list of
conditions means all of them (AND); each can be negated. New kinds of
condition (an OR group, say) join the `Condition` union.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any, Literal, TypedDict, Union

from lexitrain.errors import LexitrainError

CountFact = Literal["length", "anagrams", "vowels", "points"]
RankPer = Literal["alphagram", "word"]
HookSide = Literal["front", "back", "inner_front", "inner_back"]
TextFact = Literal["symbols", "definition"]
KeyFact = Literal["word", "alphagram"]


class WordRow(TypedDict):
    """One word with everything the lexicon knows of it: the `search --json` row.

    Ranks are 1-based within the word's length; `probability_rank` and
    `alphagram_rank` count 2 blanks, the `_ranks` lists 0, 1 and 2 blanks,
    as do `combinations`. Hooks are tiles in tile order (multi-letter tiles
    bracketed). The key order is the order of the JSON output.
    """

    word: str
    alphagram: str
    length: int
    combinations: list[int]
    probability_rank: int
    alphagram_rank: int
    probability_ranks: list[int]
    alphagram_ranks: list[int]
    front_hooks: str
    back_hooks: str
    inner_front: bool
    inner_back: bool
    definition: str
    symbols: str
    points: int
    vowels: int
    anagrams: int


@dataclass(frozen=True)
class Between:
    """A count (length in tiles, anagrams of the alphagram, vowels, points) in low..high."""

    fact: CountFact
    low: int
    high: int
    negate: bool = False


@dataclass(frozen=True)
class RankBetween:
    """A probability rank in low..high: per alphagram (Aerolith) or per word
    (Zyzzyva), counted with 0, 1 or 2 blanks."""

    low: int
    high: int
    per: RankPer = "alphagram"
    blanks: int = 2
    negate: bool = False

    def __post_init__(self) -> None:
        if self.blanks not in (0, 1, 2):
            raise LexitrainError(f"blanks {self.blanks}: probability is counted with 0, 1 or 2 blanks")


@dataclass(frozen=True)
class Hook:
    """The word takes a front or back hook, or stays a word without its first or last tile."""

    side: HookSide
    negate: bool = False


@dataclass(frozen=True)
class Contains:
    """Lexicon symbols holding this text exactly, or a definition holding it in any case."""

    fact: TextFact
    text: str
    negate: bool = False


@dataclass(frozen=True)
class OneOf:
    """The word (or its alphagram, as stored: multi-letter tiles bracketed) is one of these."""

    fact: KeyFact
    values: Collection[str]
    negate: bool = False


Condition = Union[Between, RankBetween, Hook, Contains, OneOf]

_ROW_SQL = """
SELECT w.word, w.alphagram, w.length, w.definition, w.front_hooks, w.back_hooks,
       w.inner_front, w.inner_back, w.points, w.vowels, w.symbols,
       w.probability_rank0, w.probability_rank1, w.probability_rank2,
       a.anagrams, a.combinations0, a.combinations1, a.combinations2,
       a.alphagram_rank0, a.alphagram_rank1, a.alphagram_rank2
FROM words w JOIN alphagrams a ON a.alphagram = w.alphagram
"""
_COUNTS = {"length": "w.length", "anagrams": "a.anagrams", "vowels": "w.vowels", "points": "w.points"}
_HOOKS = {
    "front": "w.front_hooks <> ''",
    "back": "w.back_hooks <> ''",
    "inner_front": "w.inner_front = 1",
    "inner_back": "w.inner_back = 1",
}
_KEYS = {"word": "w.word", "alphagram": "w.alphagram"}
_TABLES: dict[RankPer, str] = {"alphagram": "alphagrams", "word": "words"}


def select(db: sqlite3.Connection, conditions: Iterable[Condition]) -> list[WordRow]:
    """Rows of every word meeting all conditions, in no set order."""
    conditions = list(conditions)
    # with a rank per alphagram, asking the length of the alphagram lets SQLite
    # use the alphagrams' (length, rank) index
    by_alphagram = any(isinstance(c, RankBetween) and c.per == "alphagram" for c in conditions)
    where: list[str] = []
    params: list[Any] = []
    for condition in conditions:
        clause, values = _clause(condition, by_alphagram)
        where.append(f"NOT ({clause})" if condition.negate else clause)
        params.extend(values)
    return fetch(db, " AND ".join(where), params)


def fetch(db: sqlite3.Connection, where: str, params: Iterable[Any] = ()) -> list[WordRow]:
    """Rows meeting an SQL condition on `w` (words) and `a` (alphagrams); "" for all."""
    sql = _ROW_SQL + (f" WHERE {where}" if where else "")
    cursor = db.cursor()
    cursor.row_factory = None  # plain tuples: much faster than sqlite3.Row for big results
    return [
        {
            "word": word,
            "alphagram": alphagram,
            "length": length,
            "combinations": [int(c0), int(c1), int(c2)],
            "probability_rank": p2,
            "alphagram_rank": a2,
            "probability_ranks": [p0, p1, p2],
            "alphagram_ranks": [a0, a1, a2],
            "front_hooks": front,
            "back_hooks": back,
            "inner_front": bool(inner_front),
            "inner_back": bool(inner_back),
            "definition": definition or "",
            "symbols": symbols or "",
            "points": points,
            "vowels": vowels,
            "anagrams": anagrams,
        }
        for (word, alphagram, length, definition, front, back, inner_front, inner_back, points, vowels,
             symbols, p0, p1, p2, anagrams, c0, c1, c2, a0, a1, a2) in cursor.execute(sql, list(params))
    ]


def _clause(condition: Condition, by_alphagram: bool) -> tuple[str, list[Any]]:
    """One condition as SQL (not yet negated) and its parameters."""
    if isinstance(condition, Between):
        column = "a.length" if condition.fact == "length" and by_alphagram else _COUNTS[condition.fact]
        return f"{column} BETWEEN ? AND ?", [condition.low, condition.high]
    if isinstance(condition, RankBetween):
        column = (f"a.alphagram_rank{condition.blanks}" if condition.per == "alphagram"
                  else f"w.probability_rank{condition.blanks}")
        return f"{column} BETWEEN ? AND ?", [condition.low, condition.high]
    if isinstance(condition, Hook):
        return _HOOKS[condition.side], []
    if isinstance(condition, Contains):
        if condition.fact == "symbols":
            return "instr(w.symbols, ?) > 0", [condition.text]
        return "w.definition LIKE ? ESCAPE '\\'", [f"%{_like_escape(condition.text)}%"]
    return f"{_KEYS[condition.fact]} IN (SELECT value FROM json_each(?))", [json.dumps(list(condition.values))]


def _like_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def alphagrams_by_rank(db: sqlite3.Connection, length: int, ranks: tuple[int, int] | None) -> list[str]:
    """Alphagrams of one length in probability order (2 blanks), all or those ranked low..high."""
    sql = "SELECT alphagram FROM alphagrams WHERE length = ?"
    params: list[Any] = [length]
    if ranks is not None:
        sql += " AND alphagram_rank2 BETWEEN ? AND ?"
        params += ranks
    return [row[0] for row in db.execute(sql + " ORDER BY alphagram_rank2", params)]


def counts_by_length(db: sqlite3.Connection, per: RankPer) -> dict[int, int]:
    """How many words (or alphagrams) there are of each length."""
    sql = f"SELECT length, count(*) FROM {_TABLES[per]} GROUP BY length"
    return {length: n for length, n in db.execute(sql)}
