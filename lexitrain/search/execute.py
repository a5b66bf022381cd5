"""Run a `Query` against a lexicon and return result rows (the JSON contract).

Conditions on the spelling (anagram, subanagram, pattern, prefix, suffix,
regex, includes, in another lexicon) narrow a set of word codes using the
tries and a regex scan; conditions on stored facts (length, probability,
counts, hooks, symbols, definitions) become SQL over the lexicon tables.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any, Callable, Iterable

from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon, open_lexicon
from lexitrain.search import corpus
from lexitrain.search.patterns import pattern_regex
from lexitrain.search.query import UNBOUNDED, Query
from lexitrain.search.racks import spell_rack
from lexitrain.tiles import Rack

_ROW_SQL = """
SELECT w.word, w.alphagram, w.length, w.definition, w.front_hooks, w.back_hooks,
       w.inner_front, w.inner_back, w.points, w.vowels, w.symbols,
       w.probability_rank0, w.probability_rank1, w.probability_rank2,
       a.anagrams, a.combinations0, a.combinations1, a.combinations2,
       a.alphagram_rank0, a.alphagram_rank1, a.alphagram_rank2
FROM words w JOIN alphagrams a ON a.alphagram = w.alphagram
"""
#: Spelling conditions whose words the tries list quickly, and those tested word by word.
_LISTING = ("anagram", "subanagram", "prefix", "suffix", "pattern")
_TESTED = ("includes", "excludes", "regex", "in_lexicon")
#: Range conditions kept in SQL.
_RANGES = {"length": "w.length", "anagrams": "a.anagrams", "vowels": "w.vowels", "points": "w.points"}
_FLAGS = {
    "front_hook": "w.front_hooks <> ''",
    "back_hook": "w.back_hooks <> ''",
    "inner_front": "w.inner_front = 1",
    "inner_back": "w.inner_back = 1",
}


def run_search(lex: Lexicon, query: Query) -> list[dict[str, Any]]:
    """Every word meeting all conditions, ordered, probability-limited, then limited."""
    where, params = _sql_conditions(lex, query)
    codes = candidate_codes(lex, query)
    tests = spelling_tests(lex, query)
    if tests and (codes is not None or not where):  # cheaper on codes than on rows
        pool = codes if codes is not None else corpus.all_codes(lex)
        codes = {c for c in pool if all(test(c) for test in tests)}
        tests = []
    if codes is not None and not codes:
        return []
    if codes is not None:
        where.append("w.word IN (SELECT value FROM json_each(?))")
        params.append(json.dumps([lex.tiles.decode(c) for c in codes]))
    sql = _ROW_SQL + (" WHERE " + " AND ".join(where) if where else "")
    rows = _fetch(lex, sql, params)
    if tests:
        encode = lex.tiles.encode
        rows = [r for r in rows if all(test(encode(r["word"])) for test in tests)]
    if query.limit_probability is not None:
        rows = _limit_by_probability(lex, rows, query)
    rows = order_rows(lex, rows, query)
    return rows[: query.limit] if query.limit else rows


def rows_for_words(lex: Lexicon, words: Iterable[str]) -> list[dict[str, Any]]:
    """Result rows of these (valid, uppercase) words, in the order given."""
    wanted = list(dict.fromkeys(words))
    sql = _ROW_SQL + " WHERE w.word IN (SELECT value FROM json_each(?))"
    found = {r["word"]: r for r in _fetch(lex, sql, [json.dumps(wanted)])}
    return [found[w] for w in wanted if w in found]


def _fetch(lex: Lexicon, sql: str, params: list[Any]) -> list[dict[str, Any]]:
    cursor = lex.db.cursor()
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
             symbols, p0, p1, p2, anagrams, c0, c1, c2, a0, a1, a2) in cursor.execute(sql, params)
    ]


# -- spelling conditions -----------------------------------------------------------


def candidate_codes(lex: Lexicon, query: Query) -> set[str] | None:
    """Codes meeting every positive listing condition; None if there is none."""
    found: set[str] | None = None
    for name in _LISTING:
        value = getattr(query, name)
        if value is None or query.is_negated(name):
            continue
        hits = _listed(lex, name, value)
        found = hits if found is None else found & hits
    return found


def spelling_tests(lex: Lexicon, query: Query) -> list[Callable[[str], bool]]:
    """Tests on a word's codes for the other spelling conditions (negations included)."""
    tests: list[Callable[[str], bool]] = []
    for name in _LISTING:
        value = getattr(query, name)
        if value is not None and query.is_negated(name):
            hits = _listed(lex, name, value)
            tests.append(lambda code, hits=hits: code not in hits)
    for name in _TESTED:
        value = getattr(query, name)
        if value is not None:
            test = _test(lex, name, value)
            if query.is_negated(name):
                test = lambda code, test=test: not test(code)  # noqa: E731
            tests.append(test)
    return tests


def _listed(lex: Lexicon, name: str, value: str) -> set[str]:
    """Codes of every word meeting one listing condition, from the tries."""
    tiles = lex.tiles
    if name in ("anagram", "subanagram"):
        rack = Rack.parse(tiles, value, f"--{name}", required=True)
        return {word.code for word in spell_rack(lex, rack, build=name == "subanagram")}
    if name == "pattern":
        return set(corpus.scan(lex, pattern_regex(tiles, value)))
    code = _encode(lex, value, f"--{name}")
    if name == "prefix":
        return set(lex.trie.keys(code))
    return {r[::-1] for r in lex.reversed_trie.keys(code[::-1])}


def _test(lex: Lexicon, name: str, value: str) -> Callable[[str], bool]:
    tiles = lex.tiles
    if name in ("includes", "excludes"):
        rack = Rack.parse(tiles, value, f"--{name}", required=True)
        if rack.blanks:
            raise LexitrainError(f"--{name}: give letters only (a ? blank means nothing here)")
        need = [(tiles.codes[i], n) for i, n in enumerate(rack.counts) if n]
        if name == "excludes":  # none of these tiles
            return lambda code: not any(c in code for c, _ in need)
        return lambda code: all(code.count(c) >= n for c, n in need)
    if name == "regex":
        try:
            rx = re.compile(value, re.IGNORECASE)
        except re.error as exc:
            raise LexitrainError(f"--regex {value!r}: {exc}") from None
        search = rx.search
        if not tiles.multi:  # codes are the letters themselves
            return lambda code: search(code) is not None
        return lambda code: search(tiles.decode(code)) is not None
    other = open_lexicon(value)
    return lambda code: tiles.decode(code) in other


def _encode(lex: Lexicon, text: str, option: str) -> str:
    try:
        return lex.tiles.encode(text)
    except ValueError as exc:
        raise LexitrainError(f"{option} {text!r}: {exc}") from None


# -- stored facts --------------------------------------------------------------------


def _rank_column(query: Query) -> str:
    if query.probability_by == "word":
        return f"w.probability_rank{query.blanks}"
    return f"a.alphagram_rank{query.blanks}"


def _sql_conditions(lex: Lexicon, query: Query) -> tuple[list[str], list[Any]]:
    where: list[str] = []
    params: list[Any] = []

    def add(name: str, clause: str, *values: Any) -> None:
        where.append(f"NOT ({clause})" if query.is_negated(name) else clause)
        params.extend(values)

    ranges = dict(_RANGES)
    if query.probability is not None and query.probability_by == "alphagram":
        ranges["length"] = "a.length"  # lets SQLite use the (length, rank) index of alphagrams
    for name, column in ranges.items():
        bounds = getattr(query, name)
        if bounds is not None:
            add(name, f"{column} BETWEEN ? AND ?", *bounds)
    if query.probability is not None:
        _check_probability(lex, query)
        add("probability", f"{_rank_column(query)} BETWEEN ? AND ?", *query.probability)
    for name, clause in _FLAGS.items():
        flag = getattr(query, name)
        if flag is not None:
            where.append(clause if flag else f"NOT ({clause})")
    if query.symbol is not None:
        add("symbol", "instr(w.symbols, ?) > 0", query.symbol)
    if query.definition is not None:
        add("definition", "w.definition LIKE ? ESCAPE '\\'", f"%{_like_escape(query.definition)}%")
    return where, params


def _like_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _check_probability(lex: Lexicon, query: Query) -> None:
    """A rank range beyond every length asked for is a mistake, not an empty list."""
    assert query.probability is not None
    low, high = query.probability
    table = "alphagrams" if query.probability_by == "alphagram" else "words"
    sql = f"SELECT length, count(*) FROM {table} GROUP BY length"
    counts = {length: n for length, n in lex.db.execute(sql)}
    if query.length is not None:
        lo, hi = query.length
        counts = {length: n for length, n in counts.items() if lo <= length <= hi}
    if not counts:
        return
    most = max(counts.values())
    if low > most or (high != UNBOUNDED and high > most):
        where = f"length {query.length[0]}" if query.length and query.length[0] == query.length[1] else "any length asked for"
        raise LexitrainError(
            f"--probability {low}-{high if high != UNBOUNDED else ''}: {lex.name} has only {most:,} "
            f"{table} of {where}"
        )


# -- order and limits ------------------------------------------------------------------


def _word_key(lex: Lexicon, field: str = "word") -> Callable[[dict[str, Any]], str]:
    """Dictionary (tile-set) order of a row's word or alphagram."""
    tiles = lex.tiles
    if not tiles.multi:
        return lambda r: r[field]
    return lambda r: tiles.sort_key(tiles.encode(r[field]))


def order_rows(lex: Lexicon, rows: list[dict[str, Any]], query: Query) -> list[dict[str, Any]]:
    """Rows in the query's order; `random` is repeatable with the query's seed."""
    word = _word_key(lex)
    if query.order == "probability":
        field = "probability_ranks" if query.probability_by == "word" else "alphagram_ranks"
        blanks = query.blanks
        return sorted(rows, key=lambda r: (r["length"], r[field][blanks], word(r)))
    if query.order == "alphagram":
        alphagram = _word_key(lex, "alphagram")
        return sorted(rows, key=lambda r: (alphagram(r), word(r)))
    if query.order == "length":
        return sorted(rows, key=lambda r: (r["length"], word(r)))
    ordered = sorted(rows, key=word)
    if query.order == "random":
        random.Random(query.seed).shuffle(ordered)
    return ordered


def _limit_by_probability(lex: Lexicon, rows: list[dict[str, Any]], query: Query) -> list[dict[str, Any]]:
    """Zyzzyva's last step: keep the matches at these places in probability order
    (most combinations first, whatever the length; ties by alphagram, then word)."""
    assert query.limit_probability is not None
    low, high = query.limit_probability
    word, alphagram = _word_key(lex), _word_key(lex, "alphagram")
    blanks = query.blanks
    ranked = sorted(rows, key=lambda r: (-r["combinations"][blanks], alphagram(r), word(r)))
    keep = {id(r) for r in ranked[low - 1 : high]}
    return [r for r in rows if id(r) in keep]
