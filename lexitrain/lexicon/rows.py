"""A lexicon's word rows: the typed row every layer reads, and conditions that select rows.

This module and schema.py are the only ones that know the lexicon's tables.
Search, study and sheets ask `Lexicon.rows` for the words meeting some
conditions on stored facts; the conditions become SQL here. A list of
conditions means all of them (AND), `AnyOf` any of its own (OR); each can be
negated. New kinds of condition join the `Condition` union.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Literal, TypedDict, Union

from lexitrain.errors import LexitrainError
from lexitrain.lexicon.playability import DATABASE as PLAYABILITY
from lexitrain.lexicon.schema import DEFINITIONS_INDEX

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
    (Zyzzyva), counted with 0, 1 or 2 blanks. `lax` is Zyzzyva's lax bounds:
    words as likely as the one ranked at either end are in too (ties at the edge)."""

    low: int
    high: int
    per: RankPer = "alphagram"
    blanks: int = 2
    negate: bool = False
    lax: bool = False

    def __post_init__(self) -> None:
        if self.blanks not in (0, 1, 2):
            raise LexitrainError(f"blanks {self.blanks}: probability is counted with 0, 1 or 2 blanks")


@dataclass(frozen=True)
class PlayabilityBetween:
    """A playability rank (1 the most played of its length) in low..high; a word never played has none."""

    low: int
    high: int
    negate: bool = False


@dataclass(frozen=True)
class Hook:
    """The word takes a front or back hook, or stays a word without its first or last tile."""

    side: HookSide
    negate: bool = False


@dataclass(frozen=True)
class Symbol:
    """The lexicon symbols hold this text exactly."""

    text: str
    negate: bool = False


@dataclass(frozen=True)
class Defined:
    """The definition has a word beginning with each word of TEXT, in any order and case
    (`fish` finds fish, fishes and fishing, not selfish), through the definitions' full-text index."""

    text: str
    negate: bool = False


#: what the full-text index counts as a word (its unicode61 tokenizer: letters and digits)
_WORD = re.compile(r"[^\W_]+")


def definition_words(text: str) -> list[str]:
    """The words of a definition search's TEXT, as the full-text index reads them."""
    return _WORD.findall(text)


@dataclass(frozen=True)
class OneOf:
    """The word (or its alphagram, as stored: multi-letter tiles bracketed) is one of these."""

    fact: KeyFact
    values: Collection[str]
    negate: bool = False


@dataclass(frozen=True)
class PartOfSpeech:
    """The definition names this part of speech as Zyzzyva reads it: `[n` then a space or `]`."""

    tag: str
    negate: bool = False


@dataclass(frozen=True)
class AnyOf:
    """At least one of these conditions holds (an OR group)."""

    conditions: tuple[Condition, ...]
    negate: bool = False


Condition = Union[Between, RankBetween, PlayabilityBetween, Hook, Symbol, Defined, OneOf, PartOfSpeech, AnyOf]

_FROM = "FROM words w JOIN alphagrams a ON a.alphagram = w.alphagram"
_ROW_SQL = f"""
SELECT w.word, w.alphagram, w.length, w.definition, w.front_hooks, w.back_hooks,
       w.inner_front, w.inner_back, w.points, w.vowels, w.symbols,
       w.probability_rank0, w.probability_rank1, w.probability_rank2,
       a.anagrams, a.combinations0, a.combinations1, a.combinations2,
       a.alphagram_rank0, a.alphagram_rank1, a.alphagram_rank2
{_FROM}
"""
#: The largest integer SQLite takes: a limit past it (a search's `--limit 18446744073709551616`) is no limit.
_LARGEST = (1 << 63) - 1
#: The facts rows can be sorted by in the tables (`select`'s ORDER): a row's field and its column; the self-play
#: figures' (`_PLAYED`) too, of a lexicon that has them: the playability rank, a word never played last, and the
#: points scored, the most first (a word never played none).
SORTABLE = {"word": "w.word", "alphagram": "w.alphagram", "length": "w.length",
            **{f"alphagram_rank{b}": f"a.alphagram_rank{b}" for b in range(3)},
            **{f"probability_rank{b}": f"w.probability_rank{b}" for b in range(3)},
            "probability_rank": "w.probability_rank2",  # (the row's: two blanks)
            "playability": f"coalesce(p.rank, {_LARGEST})", "points_scored": "-coalesce(p.points, 0)",
            **{f"likeliest{b}": f"-a.combinations{b}" for b in range(3)}}  # (the most combinations first)
#: The sortable facts of the self-play figures, read through `_PLAYED_JOIN`.
_PLAYED = ("playability", "points_scored")
_PLAYED_JOIN = f" LEFT JOIN {PLAYABILITY}.playability p ON p.word = w.word"
_COUNTS = {"length": "w.length", "anagrams": "a.anagrams", "vowels": "w.vowels", "points": "w.points"}
_HOOKS = {
    "front": "w.front_hooks <> ''",
    "back": "w.back_hooks <> ''",
    "inner_front": "w.inner_front = 1",
    "inner_back": "w.inner_back = 1",
}
_KEYS = {"word": "w.word", "alphagram": "w.alphagram"}
_TABLES: dict[RankPer, str] = {"alphagram": "alphagrams", "word": "words"}


def select(db: sqlite3.Connection, conditions: Iterable[Condition], order: tuple[str, ...] = (),
           limit: int | None = None) -> Iterator[WordRow]:
    """Rows of every word meeting all conditions, one at a time as SQLite reads them (a caller keeping the first
    few of a whole lexicon holds those few, not every row): in no set order, or sorted by the ORDER facts
    (`SORTABLE`), the first LIMIT of them (None: all)."""
    sql, params = _ordered(db, _ROW_SQL, conditions, order)
    if limit is not None:
        sql, params = sql + " LIMIT ?", [*params, min(limit, _LARGEST)]
    return _rows(db, sql, params)


def words(db: sqlite3.Connection, conditions: Iterable[Condition], order: tuple[str, ...] = ()) -> Iterator[str]:
    """The words `select` gives, in the same order, as text alone (no row built: a search that picks a page of
    many matches reads only their words, then the page's rows)."""
    sql, params = _ordered(db, f"SELECT w.word {_FROM}", conditions, order)
    return (word for (word,) in db.execute(sql, params))


def _ordered(db: sqlite3.Connection, head: str, conditions: Iterable[Condition], order: tuple[str, ...]
             ) -> tuple[str, list[Any]]:
    """HEAD (a SELECT of `_FROM`) of the rows meeting the conditions, sorted by ORDER, and its parameters. Lengths
    asked beside a rank per alphagram (a condition, or the order) are the alphagrams' own, sorted by too: SQLite
    walks their (length, rank) index in order (8-letter words by probability sorted all 28,420 for the first)."""
    conditions = _indexed(list(conditions))
    by_alphagram = _by_alphagram(conditions) or any(fact.startswith("alphagram_rank") for fact in order)
    where, params = _where(db, conditions, by_alphagram)
    sql = head + (_PLAYED_JOIN if set(order) & set(_PLAYED) else "") + (f" WHERE {where}" if where else "")
    if order:
        lengths = by_alphagram and any(isinstance(c, Between) and c.fact == "length" for c in conditions)
        columns = {**SORTABLE, "length": "a.length"} if lengths else SORTABLE
        sql += " ORDER BY " + ", ".join(columns[fact] for fact in order)
    return sql, params


def count(db: sqlite3.Connection, conditions: Iterable[Condition], most: int | None = None) -> int:
    """How many words meet all conditions, counted no further than MOST (None: all), no row built."""
    where, params = _where(db, _indexed(list(conditions)))
    inner = f"SELECT 1 {_FROM}" + (f" WHERE {where}" if where else "")
    if most is not None:
        inner, params = inner + " LIMIT ?", [*params, min(most, _LARGEST)]
    return int(db.execute(f"SELECT count(*) FROM ({inner})", params).fetchone()[0])


def _where(db: sqlite3.Connection, conditions: Iterable[Condition], by_alphagram: bool | None = None
           ) -> tuple[str, list[Any]]:
    """The conditions as one SQL condition on `w` and `a` ("" for none) and its parameters; lengths asked of the
    alphagrams when BY_ALPHAGRAM (None: when a condition is on a rank per alphagram)."""
    conditions = list(conditions)
    if by_alphagram is None:
        by_alphagram = _by_alphagram(conditions)
    where: list[str] = []
    params: list[Any] = []
    for condition in conditions:
        clause, values = _negatable(db, condition, by_alphagram)
        where.append(clause)
        params.extend(values)
    return " AND ".join(where), params


def _indexed(conditions: list[Condition]) -> list[Condition]:
    """The conditions, every length asked beside a rank per alphagram asked without one: SQLite then walks the
    alphagrams' (length, rank) index, not every word (`--probability 1-500`'s 9,092 words read in 37 ms, not 192:
    `_by_alphagram`). Not beside a rank turned round (`--not-probability 1-500` would read the index's every entry
    and the words of most) or lax (`_lax_ranks` asks each length itself)."""
    ranked = any(isinstance(c, RankBetween) and c.per == "alphagram" and not (c.negate or c.lax) for c in conditions)
    sized = any(isinstance(c, Between) and c.fact == "length" and not c.negate for c in conditions)
    return [*conditions, Between("length", 1, _LARGEST)] if ranked and not sized else conditions


def _by_alphagram(conditions: list[Condition]) -> bool:
    """Whether a condition is on a rank per alphagram: then asking the length of the alphagram lets SQLite use the
    alphagrams' (length, rank) index."""
    return any(isinstance(c, RankBetween) and c.per == "alphagram" for c in conditions)


def _negatable(db: sqlite3.Connection, condition: Condition, by_alphagram: bool) -> tuple[str, list[Any]]:
    clause, values = _clause(db, condition, by_alphagram)
    return (f"NOT ({clause})" if condition.negate else f"({clause})"), values


def fetch(db: sqlite3.Connection, where: str, params: Iterable[Any] = ()) -> Iterator[WordRow]:
    """Rows meeting an SQL condition on `w` (words) and `a` (alphagrams); "" for all; one at a time."""
    return _rows(db, _ROW_SQL + (f" WHERE {where}" if where else ""), params)


def _rows(db: sqlite3.Connection, sql: str, params: Iterable[Any]) -> Iterator[WordRow]:
    """The rows a statement of _ROW_SQL's columns reads, one at a time."""
    cursor = db.cursor()
    cursor.row_factory = None  # plain tuples: much faster than sqlite3.Row for big results
    return (
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
    )


def _clause(db: sqlite3.Connection, condition: Condition, by_alphagram: bool) -> tuple[str, list[Any]]:
    """One condition as SQL (not yet negated) and its parameters."""
    if isinstance(condition, Between):
        column = "a.length" if condition.fact == "length" and by_alphagram else _COUNTS[condition.fact]
        return f"{column} BETWEEN ? AND ?", [condition.low, condition.high]
    if isinstance(condition, RankBetween):
        if condition.lax:
            return _lax_ranks(db, condition)
        column = (f"a.alphagram_rank{condition.blanks}" if condition.per == "alphagram"
                  else f"w.probability_rank{condition.blanks}")
        return f"{column} BETWEEN ? AND ?", [condition.low, condition.high]
    if isinstance(condition, PlayabilityBetween):
        return (f"w.word IN (SELECT word FROM {PLAYABILITY}.playability WHERE rank BETWEEN ? AND ?)",
                [condition.low, condition.high])
    if isinstance(condition, Hook):
        return _HOOKS[condition.side], []
    if isinstance(condition, Symbol):
        return "instr(w.symbols, ?) > 0", [condition.text]
    if isinstance(condition, Defined):
        words = definition_words(condition.text)
        if not words:
            return "0", []
        match = " ".join(f'"{word}"*' for word in words)  # each a prefix; all of them (FTS5's implicit AND)
        return f"w.rowid IN (SELECT rowid FROM {DEFINITIONS_INDEX} WHERE {DEFINITIONS_INDEX} MATCH ?)", [match]
    if isinstance(condition, PartOfSpeech):
        tag = _like_escape(condition.tag)
        return ("w.definition LIKE ? ESCAPE '\\' OR w.definition LIKE ? ESCAPE '\\'",
                [f"%[{tag} %", f"%[{tag}]%"])
    if isinstance(condition, AnyOf):
        if not condition.conditions:
            return "0", []
        parts = [_negatable(db, c, by_alphagram) for c in condition.conditions]
        return " OR ".join(clause for clause, _ in parts), [v for _, values in parts for v in values]
    return f"{_KEYS[condition.fact]} IN (SELECT value FROM json_each(?))", [json.dumps(list(condition.values))]


def _lax_ranks(db: sqlite3.Connection, condition: RankBetween) -> tuple[str, list[Any]]:
    """Ranks low..high widened to the ties at both edges, per length: from the first rank as
    likely as the one ranked `low` to the last as likely as the one ranked `high` (a range past
    the last rank of a length stops at its last). Ranks follow combinations, most first, so the
    widened range counts the words (or alphagrams) more likely than each edge; the ranks then use the index."""
    b = condition.blanks
    ends = {length: (condition.low, min(condition.high, n))
            for length, n in counts_by_length(db, condition.per).items() if condition.low <= n}
    if not ends:
        return "0", []
    wanted = sorted({(length, rank) for length, pair in ends.items() for rank in pair})
    if condition.per == "alphagram":
        at_rank = (f"SELECT length, alphagram_rank{b}, combinations{b} FROM alphagrams "
                   f"WHERE (length, alphagram_rank{b}) IN (VALUES {_marks(len(wanted), 2)})")
        each, length_column, rank_column = "1", "a.length", f"a.alphagram_rank{b}"
    else:  # the words at those ranks first, then their alphagrams: no join over every word
        at_rank = (f"SELECT e.length, e.rank, a.combinations{b} FROM (SELECT length, probability_rank{b} AS rank, "
                   f"alphagram FROM words WHERE (length, probability_rank{b}) IN (VALUES {_marks(len(wanted), 2)})) e "
                   "JOIN alphagrams a ON a.alphagram = e.alphagram")
        each, length_column, rank_column = "anagrams", "w.length", f"w.probability_rank{b}"
    combos = {(length, rank): c for length, rank, c in db.execute(at_rank, [v for pair in wanted for v in pair])}
    most = " ".join(f"WHEN {length} THEN {combos[(length, low)]}" for length, (low, _) in ends.items())
    least = " ".join(f"WHEN {length} THEN {combos[(length, high)]}" for length, (_, high) in ends.items())
    # one scan of the table (`+length`: not through the index, which would look every row up),
    # each length's edges picked by CASE (integers made here, not typed)
    widened = db.execute(
        f"SELECT length, 1 + total(CASE WHEN combinations{b} > (CASE length {most} END) THEN {each} END), "
        f"total(CASE WHEN combinations{b} >= (CASE length {least} END) THEN {each} END) "
        f"FROM alphagrams WHERE +length IN ({', '.join(map(str, ends))}) GROUP BY +length").fetchall()
    clause = " OR ".join(f"({length_column} = ? AND {rank_column} BETWEEN ? AND ?)" for _ in widened)
    return clause, [int(v) for row in widened for v in row]


def _marks(rows: int, columns: int) -> str:
    """`(?, ?), (?, ?)...`: placeholders for ROWS row values."""
    row = "(" + ", ".join("?" * columns) + ")"
    return ", ".join([row] * rows)


def _like_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def alphagrams_by_rank(db: sqlite3.Connection, length: int, ranks: tuple[int, int] | None) -> list[str]:
    """Alphagrams of one length in probability order (2 blanks), all or those ranked low..high."""
    sql = "SELECT alphagram FROM alphagrams WHERE length = ?"
    params: list[Any] = [length]
    if ranks is not None:
        sql += " AND alphagram_rank2 BETWEEN ? AND ?"
        params += [min(rank, 2**63 - 1) for rank in ranks]  # a typed --top 10**20 is every rank, not a crash
    return [row[0] for row in db.execute(sql + " ORDER BY alphagram_rank2", params)]


def exact_draws(db: sqlite3.Connection, length: int) -> dict[str, int]:
    """Alphagram -> its exact draws from the bag with no blank (combinations0), for one length."""
    sql = "SELECT alphagram, combinations0 FROM alphagrams WHERE length = ?"
    return {alphagram: int(combinations) for alphagram, combinations in db.execute(sql, [length])}


def playability_ranks(db: sqlite3.Connection) -> dict[str, int]:
    """Word -> its playability rank within its length, for every word played (the lexicon must have figures)."""
    return {word: rank for word, rank in db.execute(f"SELECT word, rank FROM {PLAYABILITY}.playability")}


def points_scored(db: sqlite3.Connection) -> dict[str, int]:
    """Word -> the points it scored over the self-play games counted, for every word played
    (figures counted with points: see `playability_meta`'s "scored")."""
    return {word: points for word, points in db.execute(f"SELECT word, points FROM {PLAYABILITY}.playability")}


def played_by_alphagram(db: sqlite3.Connection) -> dict[str, list[str]]:
    """Alphagram (as stored) -> its words the self-play games played, for every alphagram with one."""
    out: dict[str, list[str]] = {}
    for alphagram, word in db.execute(f"SELECT w.alphagram, w.word FROM {PLAYABILITY}.playability p "
                                      "JOIN words w ON w.word = p.word ORDER BY w.word"):
        out.setdefault(alphagram, []).append(word)
    return out


def playability_meta(db: sqlite3.Connection) -> dict[str, Any]:
    """How the lexicon's playability figures were counted (games, seed, time...)."""
    return {key: json.loads(value) for key, value in db.execute(f"SELECT key, value FROM {PLAYABILITY}.meta")}


def counts_by_length(db: sqlite3.Connection, per: RankPer) -> dict[int, int]:
    """How many words (or alphagrams) there are of each length."""
    sql = f"SELECT length, count(*) FROM {_TABLES[per]} GROUP BY length"
    return {length: n for length, n in db.execute(sql)}


def has_text(db: sqlite3.Connection, fact: TextFact) -> bool:
    """Whether any word has FACT (a definition, lexicon symbols): a plain word list has neither."""
    column = {"symbols": "symbols", "definition": "definition"}[fact]
    return bool(db.execute(f"SELECT EXISTS (SELECT 1 FROM words WHERE {column} != '')").fetchone()[0])
