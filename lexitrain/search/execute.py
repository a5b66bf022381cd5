"""Run a `Query` against a lexicon and return result rows (the JSON contract).

Conditions on the spelling (anagram, subanagram, pattern, prefix, suffix,
regex, includes, in another lexicon) narrow a set of word codes using the
tries and a regex scan; conditions on stored facts (length, probability,
counts, hooks, symbols, definitions) become the lexicon's row conditions
(lexicon/rows.py), which the lexicon answers.
"""

from __future__ import annotations

import random
import re
from typing import Callable, Iterable, Literal

from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon, open_lexicon
from lexitrain.lexicon.rows import (
    Between, Condition, Contains, CountFact, Hook, HookSide, KeyFact, OneOf, RankBetween, TextFact, WordRow,
)
from lexitrain.search import corpus
from lexitrain.search.patterns import pattern_regex
from lexitrain.search.query import UNBOUNDED, Query
from lexitrain.search.racks import spell_rack
from lexitrain.tiles import Rack

#: Spelling conditions whose words the tries list quickly, and those tested word by word.
_LISTING = ("anagram", "subanagram", "prefix", "suffix", "pattern")
_TESTED = ("includes", "excludes", "regex", "in_lexicon")
#: Query fields that are conditions on a stored count.
_COUNTS: tuple[CountFact, ...] = ("length", "anagrams", "vowels", "points")
#: Query text fields that a stored text must contain.
_TEXTS: dict[str, TextFact] = {"symbol": "symbols", "definition": "definition"}
#: Query hook flags and the hook each asks for.
_HOOKS: dict[str, HookSide] = {
    "front_hook": "front", "back_hook": "back", "inner_front": "inner_front", "inner_back": "inner_back",
}


def run_search(lex: Lexicon, query: Query) -> list[WordRow]:
    """Every word meeting all conditions, ordered, probability-limited, then limited."""
    stored = stored_conditions(lex, query)
    codes = candidate_codes(lex, query)
    tests = spelling_tests(lex, query)
    if tests and (codes is not None or not stored):  # cheaper on codes than on rows
        pool = codes if codes is not None else corpus.all_codes(lex)
        codes = {c for c in pool if all(test(c) for test in tests)}
        tests = []
    if codes is not None and not codes:
        return []
    if codes is not None:
        stored.append(OneOf("word", [lex.tiles.decode(c) for c in codes]))
    rows = lex.rows(stored)
    if tests:
        encode = lex.tiles.encode
        rows = [r for r in rows if all(test(encode(r["word"])) for test in tests)]
    if query.limit_probability is not None:
        rows = _limit_by_probability(lex, rows, query)
    rows = order_rows(lex, rows, query)
    return rows[: query.limit] if query.limit else rows


def rows_for_words(lex: Lexicon, words: Iterable[str]) -> list[WordRow]:
    """Result rows of these (valid, uppercase) words, in the order given."""
    wanted = list(dict.fromkeys(words))
    found = {r["word"]: r for r in lex.rows([OneOf("word", wanted)])}
    return [found[w] for w in wanted if w in found]


def anagram_rows(lex: Lexicon, alphagrams: Iterable[str]) -> dict[str, list[WordRow]]:
    """Rows of every word of each alphagram (as stored), in dictionary order;
    an alphagram that makes no word has none."""
    by_alphagram: dict[str, list[WordRow]] = {a: [] for a in alphagrams}
    for row in lex.rows([OneOf("alphagram", list(by_alphagram))]):
        by_alphagram[row["alphagram"]].append(row)
    word = dictionary_key(lex)
    for rows in by_alphagram.values():
        rows.sort(key=word)
    return by_alphagram


def dictionary_key(lex: Lexicon) -> Callable[[WordRow], str]:
    """Tile-set (dictionary) order of a row's word, whatever the tile set (German Ä sorts after A)."""
    tiles = lex.tiles
    return lambda r: tiles.sort_key(tiles.encode(r["word"]))


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
            tests.append(_not_in(_listed(lex, name, value)))
    for name in _TESTED:
        value = getattr(query, name)
        if value is not None:
            test = _test(lex, name, value)
            tests.append(_negated(test) if query.is_negated(name) else test)
    return tests


def _negated(test: Callable[[str], bool]) -> Callable[[str], bool]:
    return lambda code: not test(code)


def _not_in(hits: set[str]) -> Callable[[str], bool]:
    return lambda code: code not in hits


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


def stored_conditions(lex: Lexicon, query: Query) -> list[Condition]:
    """The query's conditions on stored facts, as the lexicon's row conditions."""
    conditions: list[Condition] = []
    for count in _COUNTS:
        bounds = getattr(query, count)
        if bounds is not None:
            low, high = bounds
            conditions.append(Between(count, low, high, negate=query.is_negated(count)))
    if query.probability is not None:
        _check_probability(lex, query)
        low, high = query.probability
        conditions.append(RankBetween(low, high, query.probability_by, query.blanks,
                                      negate=query.is_negated("probability")))
    for name, side in _HOOKS.items():
        flag = getattr(query, name)
        if flag is not None:
            conditions.append(Hook(side, negate=not flag))
    for name, fact in _TEXTS.items():
        text = getattr(query, name)
        if text is not None:
            conditions.append(Contains(fact, text, negate=query.is_negated(name)))
    return conditions


def _check_probability(lex: Lexicon, query: Query) -> None:
    """A rank range beyond every length asked for is a mistake, not an empty list."""
    assert query.probability is not None
    low, high = query.probability
    counts = lex.counts_by_length(query.probability_by)
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
            f"{query.probability_by}s of {where}"
        )


# -- order and limits ------------------------------------------------------------------


def _word_key(lex: Lexicon, field: KeyFact = "word") -> Callable[[WordRow], str]:
    """Dictionary (tile-set) order of a row's word or alphagram."""
    tiles = lex.tiles
    if not tiles.multi:
        return lambda r: r[field]
    return lambda r: tiles.sort_key(tiles.encode(r[field]))


def order_rows(lex: Lexicon, rows: list[WordRow], query: Query) -> list[WordRow]:
    """Rows in the query's order; `random` is repeatable with the query's seed."""
    word = _word_key(lex)
    if query.order == "probability":
        field: Literal["probability_ranks", "alphagram_ranks"] = (
            "probability_ranks" if query.probability_by == "word" else "alphagram_ranks")
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


def _limit_by_probability(lex: Lexicon, rows: list[WordRow], query: Query) -> list[WordRow]:
    """Zyzzyva's last step: keep the matches at these places in probability order
    (most combinations first, whatever the length; ties by alphagram, then word)."""
    assert query.limit_probability is not None
    low, high = query.limit_probability
    word, alphagram = _word_key(lex), _word_key(lex, "alphagram")
    blanks = query.blanks
    ranked = sorted(rows, key=lambda r: (-r["combinations"][blanks], alphagram(r), word(r)))
    keep = {id(r) for r in ranked[low - 1 : high]}
    return [r for r in rows if id(r) in keep]
