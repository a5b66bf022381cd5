"""Run a `Query` against a lexicon and return result rows (the JSON contract).

Each OR group is run on its own and the words of all groups are merged. In a
group, conditions on the spelling list words from the tries and a regex scan
(anagram, pattern, starts with, takes a prefix, a group, ...) or test them
word by word (includes, regex, consists of, ...); conditions on stored facts
(length, probability, counts, hooks, symbols, definitions, a word list)
become the lexicon's row conditions (lexicon/rows.py), which the lexicon
answers.
"""

from __future__ import annotations

import hashlib
import heapq
from bisect import bisect_left, bisect_right
import re
import secrets
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import replace
from itertools import islice
from pathlib import Path
from typing import Any, Literal

from lexitrain.errors import LexitrainError
from lexitrain.lexicon.catalog import open_lexicon
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.lexicon.rows import (
    Between, Condition as RowCondition, CountFact, Defined, Hook, HookSide, KeyFact, OneOf, PartOfSpeech,
    PlayabilityBetween, RankBetween, Symbol, TextFact, WordRow,
)
from lexitrain.search import corpus, groups
from lexitrain.search.anagrams import anagram_codes
from lexitrain.search.notation import STAR, read_items, read_tiles
from lexitrain.search.patterns import pattern_regex
from lexitrain.search.query import UNBOUNDED, Condition, Group, Query
from lexitrain.search.word_files import word_lines

Test = Callable[[str], bool]

#: Conditions on a stored count, and the count.
_COUNTS: dict[str, CountFact] = {"length": "length", "anagrams": "anagrams", "vowels": "vowels", "points": "points"}
#: Flags and the hook each asks for (with tiles, the hook flags list words instead).
_HOOKS: dict[str, HookSide] = {
    "front-hook": "front", "back-hook": "back", "inner-front": "inner_front", "inner-back": "inner_back",
}


def run_search(lex: Lexicon, query: Query) -> list[WordRow]:
    """Every word meeting all conditions of any group, ordered, probability-limited, then limited.
    A query without conditions finds every word."""
    return first_found(lex, query)[1]


def first_found(lex: Lexicon, query: Query, first: int | None = None) -> tuple[int, list[WordRow]]:
    """How many words `run_search` gives and the first FIRST of them (all when None), in the
    same order: only those rows are held while the rest are counted (a page of 500 of the
    whole lexicon keeps 500 rows, not 168,551)."""
    _require_figures(lex, query)
    if query.limit:
        first = query.limit if first is None else min(first, query.limit)
    stored = _stored_alone(lex, query)
    if stored is not None:  # the lexicon counts them and reads the first in order: no other row is built
        return lex.count_rows(stored, query.limit or None), _first_stored_rows(lex, query, stored, first)
    words = _found_words(lex, query) if query.limit_probability is None else _placed_words(lex, query)
    if words is not None:  # its words counted as text: only the page's rows are read
        return _found_page(lex, query, words, first)
    rows = _matches(lex, query) if query.limit_probability is None else _limit_by_probability(lex, query)
    count = 0

    def counted(rows: Iterable[WordRow]) -> Iterator[WordRow]:
        nonlocal count
        for row in rows:
            count += 1
            yield row

    kept = _first_in_order(lex, counted(rows), query, first)
    return (min(count, query.limit) if query.limit else count), kept


def found_at_most(lex: Lexicon, query: Query, most: int, first: int | None = None) -> tuple[int, list[WordRow]] | None:
    """How many words `run_search` gives and the first FIRST of them (all when None), when it gives MOST at most,
    else None. A search giving more is told by reading MOST + 1 of its matches, not all of them (a club's refused
    wall of the whole lexicon read every row to count it, 0.85 s of CPU), or by the lexicon counting them
    (`_stored_alone`); a limit by probability reads its matches up to its first place + MOST."""
    if query.limit is None or query.limit > most:
        _require_figures(lex, query)
        stored = _stored_alone(lex, query)
        if stored is not None:
            if lex.count_rows(stored, most + 1) > most:  # (counted, no row read)
                return None
        elif query.limit_probability is not None:
            low, high = query.limit_probability
            # places LOW..LOW + MOST all held: more than MOST kept (a lax limit keeps more, never fewer)
            if high - low >= most and sum(1 for _ in islice(_matches(lex, query, low + most), low + most)) == low + most:
                return None
        elif (words := _found_words(lex, query, most)) is not None:  # (its words counted as text, no row read)
            return None if len(words) > most else _found_page(lex, query, words, first)
        else:  # MOST + 1 matches read, the search's rows when they are all
            matches = list(islice(_matches(lex, query, most + 1), most + 1))
            return None if len(matches) > most else (len(matches), _first_in_order(lex, matches, query, first))
    count, rows = first_found(lex, query, most if first is None else min(first, most))
    return (count, rows) if count <= most else None


def _stored_alone(lex: Lexicon, query: Query) -> list[RowCondition] | None:
    """The query as the lexicon's row conditions, when the lexicon can count its matches and read the first in the
    query's order itself (`_first_stored_rows`): one group of conditions on stored facts alone, one-letter tiles
    (its words sort as their text), no limit by probability. Else None (the matches are read and sorted here). A
    club's search of probability 1-500 at most 100 read and sorted 9,092 rows for its 100; of the whole lexicon,
    168,551."""
    if len(query.groups) > 1 or lex.tiles.multi or query.limit_probability is not None:
        return None
    conditions = [_stored(condition, query) for condition in _narrowing(lex, query.groups[0] if query.groups else ())]
    stored = [condition for condition in conditions if condition is not None]
    return stored if len(stored) == len(conditions) else None


def _first_stored_rows(lex: Lexicon, query: Query, stored: list[RowCondition], first: int | None) -> list[WordRow]:
    """The rows of the first FIRST (all when None) words meeting STORED in the query's order: read in that order
    from the tables, or, in a random order, picked from their words read one at a time as text (`--order random
    --length 7 --limit 100` built 23,000 rows for its 100)."""
    if first == 0:
        return []
    order = _store_order(query)
    if order is not None:
        return list(lex.each_row(stored, order, first))
    place, words = random_word_key(query.seed), lex.each_word(stored)
    return rows_for_words(lex, sorted(words, key=place) if first is None else heapq.nsmallest(first, words, key=place))


def _store_order(query: Query) -> tuple[str, ...] | None:
    """The facts the lexicon's tables sort the query's order by (`rows.SORTABLE`; words as their text), or None
    for an order they do not keep (`random`). `order_key`'s own: playability and points per game break ties by
    the words' `probability_rank`; their figures are read with the rows, none held here (sorting every row of
    ENABLE by them here took 0.9 s of CPU a request)."""
    if query.order == "probability":
        rank = "probability_rank" if query.probability_by == "word" else "alphagram_rank"
        return ("length", f"{rank}{query.blanks}", "word")
    if query.order == "playability":
        return ("length", "playability", "probability_rank", "word")
    if query.order == "points-per-game":
        return ("points_scored", "probability_rank", "word")
    return {"alphabetical": ("word",), "alphagram": ("alphagram", "word"), "length": ("length", "word")}.get(query.order)


def _placed_words(lex: Lexicon, query: Query) -> set[str] | None:
    """The words a search limited by probability keeps (Zyzzyva's places, `_limit_by_probability`), as text alone:
    its matches' words sorted by their places in the tables, those at the places kept (`_lax_places` for the lax
    limit). None where `_found_words` is None but for a group of stored conditions alone (the tables sort them
    too). `--pattern ?A* --limit-probability 1-100` built every match's row twice, 25,000 of them, 0.28 s of CPU
    a request; `--length 8 --limit-probability 1-100`, 0.38 s."""
    assert query.limit_probability is not None
    unlimited = replace(query, limit_probability=None)
    words = _found_words(lex, unlimited)  # (None: one group of stored conditions alone)
    conditions = _stored_alone(lex, unlimited) if words is None else [OneOf("word", list(words))]
    if conditions is None:
        return None
    low, high = query.limit_probability
    place = (f"likeliest{query.blanks}", "alphagram", "word")
    placed = lex.first_words(conditions, place, None if query.limit_lax else high)
    return set(_lax_places(lex, placed, low, high, query.blanks) if query.limit_lax else placed[low - 1:])


def _lax_places(lex: Lexicon, placed: list[str], low: int, high: int, blanks: int) -> list[str]:
    """The words at places LOW..HIGH of PLACED (a search's words, the likeliest first) and those as likely as
    either end (Zyzzyva's lax limit): the ties found by bisecting PLACED, a word's row read at each step
    (`--pattern ?A* --limit-probability-lax 1-100` built every match's row twice, 0.26 s of CPU a request)."""
    if low > len(placed):
        return []
    last = min(high, len(placed)) - 1

    def rarer(word: str) -> int:  # (rising along PLACED)
        row = lex.row(word)
        assert row is not None
        return -row["combinations"][blanks]

    start = bisect_left(placed, rarer(placed[low - 1]), 0, low - 1, key=rarer)
    return placed[start:bisect_right(placed, rarer(placed[last]), last, len(placed), key=rarer)]


def _found_words(lex: Lexicon, query: Query, most: int | None = None) -> set[str] | None:
    """Every word the query gives, as text alone (no row built), or more than MOST of them when it gives more
    (None: all), for the first in its order to be picked before a row is read (`_first_found_rows`): one-letter
    tiles (a word is its codes), no limit by probability. A group's words are those its spelling conditions list
    (a pattern, an anagram, a test on every word's spelling: `_split`), or else its stored conditions' words,
    tested here; a search of one group of stored conditions alone is None (`_stored_alone`: the tables count it
    and read its page). A club's `--pattern ?A* --limit 100` built and sorted the rows of all 25,000
    matches for its 100 (`--pattern *`: 168,551 rows, 1.2 s of CPU a request); `--pattern ?A* --or --length 8`
    listed ?A*'s words, gave up at the length and read every match's row."""
    if query.limit_probability is not None or lex.tiles.multi or not query.groups:
        return None
    each: list[set[str]] = []
    for group in query.groups:
        stored, found, tests = _split(lex, group, query)  # (a group whose words are listed has no test left)
        if found is not None:
            each.append(_meeting(lex, found if isinstance(found, set) else set(found), stored))
        elif tests or len(query.groups) > 1:
            each.append(_passing_words(lex, stored, tests, most))
        else:
            return None
    return each[0] if len(each) == 1 else set().union(*each)


def _passing_words(lex: Lexicon, stored: list[RowCondition], tests: list[Test], most: int | None) -> set[str]:
    """The words meeting the stored conditions and passing the tests, read as text (`--includes Q --probability
    1-500` built 9,092 rows to test them), MOST + 1 at most (None: all)."""
    encode = lex.tiles.encode
    kept = (lambda word: all(test(encode(word)) for test in tests)) if tests else None
    return set(lex.first_words(stored, most=None if most is None else most + 1, kept=kept))


def _meeting(lex: Lexicon, words: set[str], stored: list[RowCondition]) -> set[str]:
    """The WORDS meeting the stored conditions, read from the smaller side: a length from the words themselves;
    the others as every word the tables find meeting them, kept where among WORDS, when they are no more than
    WORDS (`--pattern * --probability 1-500` reads 9,092 words, not 168,551), else as the words the tables
    find among WORDS."""
    lengths = [c for c in stored if isinstance(c, Between) and c.fact == "length"]
    for length in lengths:
        low, high, negate = length.low, length.high, length.negate
        words = {word for word in words if (low <= len(word) <= high) != negate}
    if len(lengths) == len(stored) or not words:
        return words
    meeting = lex.first_words(stored, most=len(words) + 1)
    if len(meeting) <= len(words):
        return words.intersection(meeting)
    return set(lex.first_words([*stored, OneOf("word", list(words))]))


def _found_page(lex: Lexicon, query: Query, words: set[str], first: int | None) -> tuple[int, list[WordRow]]:
    """How many words the query gives (WORDS, `_found_words`'s) and the rows of the first FIRST (all when None)."""
    count = min(len(words), query.limit) if query.limit else len(words)
    return count, _first_found_rows(lex, words, query, count if first is None else min(first, count))


def _first_found_rows(lex: Lexicon, words: set[str], query: Query, first: int) -> list[WordRow]:
    """The rows of the first FIRST of WORDS in the query's order: the words picked first, then their rows read in
    one statement. Where WORDS are many, the tables' words are read in that order until FIRST of them are among
    WORDS (`--pattern ?* --order alphagram`: 100 words for a page of 100), no more than `_walked` would read, else
    WORDS are sorted here; by points per game, the tables sort WORDS' rows and read the first FIRST."""
    if first == 0:
        return []
    order = _store_order(query)
    if query.order in ("length", "probability", "playability"):
        assert order is not None
        return list(lex.each_row([OneOf("word", _first_by_length(lex, words, query, first))], order))
    if query.order not in _WORD_ORDERS:  # (points per game: the words' rows sorted there)
        assert order is not None
        return list(lex.each_row([OneOf("word", list(words))], order, first))
    if order is not None and _worth_walking(first, lex.word_count, words):
        walked = lex.first_words((), order, first, kept=words.__contains__, read_at_most=_walked(words))
        if len(walked) == first:  # (else the words are further on than the order's first WORDS suggested)
            return rows_for_words(lex, walked)
    return rows_for_words(lex, heapq.nsmallest(first, words, key=_WORD_ORDERS[query.order](lex, query)))


def _walked(words: Collection[str]) -> int:
    """The most words of the tables read in order to find the first of WORDS: a quarter of WORDS, about what
    sorting them here costs (a word read takes some 1.5 µs; `--pattern ?A*`'s first 100 alphabetically are
    10,292 words in, its 25,000 words sorted here take 5 ms)."""
    return len(words) // 4


def _worth_walking(first: int, size: int, words: Collection[str]) -> bool:
    """Whether the first FIRST of WORDS, among SIZE words the tables read in order, are likely found within
    `_walked` words: about FIRST * SIZE / WORDS are read where WORDS are spread evenly."""
    return first * size < _walked(words) * len(words)


def _first_by_length(lex: Lexicon, words: set[str], query: Query, first: int) -> list[str]:
    """The first FIRST of WORDS in an order by length first (length, probability, playability), in no set order:
    whole lengths, shortest first, while each is shown whole; then the first of the length the page ends in: by
    their spelling, or by rank or playability, read from the tables in order among its words where they are many
    (`--pattern ?* --length 8` reads 100 of its 28,420 for a page of 100), else looked up and sorted there."""
    order = _store_order(query)
    assert order is not None
    by_length: dict[int, list[str]] = {}
    for word in words:
        by_length.setdefault(len(word), []).append(word)
    sizes = lex.counts_by_length("word")
    picked: list[str] = []
    for length in sorted(by_length):
        these, left = by_length[length], first - len(picked)
        if len(these) <= left:
            picked += these
            continue
        if query.order == "length":
            return picked + heapq.nsmallest(left, these)
        if _worth_walking(left, sizes[length], these):
            walked = lex.first_words([Between("length", length, length)], order, left, kept=set(these).__contains__,
                                     read_at_most=_walked(these))
            if len(walked) == left:
                return picked + walked
        return picked + lex.first_words([OneOf("word", these)], order, left)
    return picked


def _require_figures(lex: Lexicon, query: Query) -> None:
    """A query on playability figures of a lexicon without them: say so in one line."""
    if query.order in ("playability", "points-per-game") or any(c.name == "playability" for g in query.groups for c in g):
        lex.require_playability()
    if query.order == "points-per-game":
        lex.require_points()


def _matches(lex: Lexicon, query: Query, wanted: int | None = None) -> Iterator[WordRow]:
    """The rows of the words meeting every condition of any group, each word once; WANTED: how many of them
    the caller reads at most (None: all), see `group_rows`."""
    if len(query.groups) < 2:
        yield from group_rows(lex, query.groups[0] if query.groups else (), query, wanted)
        return
    seen: set[str] = set()
    for group in query.groups:
        for row in group_rows(lex, group, query, wanted):
            if row["word"] not in seen:
                seen.add(row["word"])
                yield row


def group_rows(lex: Lexicon, group: Group, query: Query, wanted: int | None = None) -> Iterator[WordRow]:
    """Rows of the words meeting every condition of one group, one at a time. Words that spelling conditions
    alone list (each one a match) are looked up WANTED at a time (None: all at once): a search read to its
    first 5,001 matches (a club's cap) looked up every word `--pattern *` lists, 168,551, in one statement
    (0.33 s of CPU). Beside stored conditions they are looked up in one statement, whose filter is read once
    (in statements of 5,001, then twice as many, `--pattern * --probability 1-500 --length 8` took 20% more)."""
    stored, found, tests = _split(lex, group, query)
    rows = lex.each_row(stored) if found is None else _rows_of(lex, found, stored, None if stored else wanted)
    if tests:
        encode = lex.tiles.encode
        return (r for r in rows if all(test(encode(r["word"])) for test in tests))
    return rows


def _narrowing(lex: Lexicon, group: Group) -> Group:
    """The group without the conditions every word meets (a pattern of `*` alone, a subanagram with `*`), which
    would list every word to keep them all: `--pattern * --limit 100` is then the tables' to answer."""
    def every_word(condition: Condition) -> bool:
        if condition.negate or condition.name not in ("pattern", "subanagram"):
            return False
        what = "pattern" if condition.name == "pattern" else f"--{condition.name}"  # (as `_listed` reads it)
        items = read_items(lex.tiles, condition.value, what)  # (bad text: its one-line error)
        return STAR in items and (condition.name == "subanagram" or set(items) == {STAR})

    return tuple(condition for condition in group if not every_word(condition))


def _split(lex: Lexicon, group: Group, query: Query) -> tuple[list[RowCondition], Iterable[str] | None, list[Test]]:
    """A group as its conditions on stored facts, the codes of the words its spelling conditions find (None
    when it has none), and the tests left for each row (tests on the spelling run on the codes found, or on
    every word's code when no stored condition narrows them)."""
    stored: list[RowCondition] = []
    codes: set[str] | None = None
    tests: list[Test] = []
    for condition in _narrowing(lex, group):
        row_condition = _stored(condition, query)
        if row_condition is not None:
            stored.append(row_condition)
            continue
        listed = _listed(lex, condition)
        if listed is None:
            test = _test(lex, condition)
            tests.append(_negated(test) if condition.negate else test)
        elif condition.negate:
            tests.append(_not_in(listed))
        else:
            codes = set(listed) if codes is None else codes & listed
    if codes is not None and not codes:
        return stored, (), []
    found: Iterable[str] | None = codes
    if tests and (codes is not None or not stored):  # cheaper on codes than on rows
        pool: Iterable[str] = codes if codes is not None else corpus.all_codes(lex)
        found, tests = _passing(pool, tests), []
    return stored, found, tests


def _rows_of(lex: Lexicon, codes: Iterable[str], stored: list[RowCondition], wanted: int | None) -> Iterator[WordRow]:
    """The rows of these words meeting the stored conditions: all in one statement (WANTED None), or WANTED
    words first, then twice as many each time (words a caller reads past WANTED: another group's)."""
    decode, left = lex.tiles.decode, iter(codes)
    while words := [decode(c) for c in (left if wanted is None else islice(left, wanted))]:
        yield from lex.each_row([*stored, OneOf("word", words)])
        wanted = None if wanted is None else 2 * wanted


def _passing(codes: Iterable[str], tests: list[Test]) -> Iterator[str]:
    """The codes passing every test, one at a time."""
    return (c for c in codes if all(test(c) for test in tests))


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


def search_notes(lex: Lexicon, query: Query) -> list[str]:
    """What a player should know about the answer: a probability range past the
    last rank of the lengths asked for gives what there is, said here; a condition
    on definitions or symbols in a lexicon that has none matches nothing, said too."""
    notes = facts_missing(lex, query)
    for group in query.groups:
        lengths = _lengths(group)
        for condition in group:
            if not condition.name.startswith("probability") or condition.negate:
                continue
            counts = lex.counts_by_length(query.probability_by)
            counts = {n: c for n, c in counts.items() if lengths[0] <= n <= lengths[1]}
            most = max(counts.values(), default=0)
            low, high = condition.value
            if most and (low > most or (high != UNBOUNDED and high > most)):
                many = (f"only {most:,} {query.probability_by}s of length {lengths[0]}" if lengths[0] == lengths[1]
                        else f"{most:,} {query.probability_by}s at most of any length asked for")
                notes.append(f"--{condition.name} {low}-{high if high != UNBOUNDED else ''}: {lex.name} has "
                             f"{many}; the range stops there")
    return list(dict.fromkeys(notes))


def facts_missing(lex: Lexicon, query: Query) -> list[str]:
    """A note for each condition on definitions or symbols when LEX has none (ENABLE has
    neither): it matches nothing, and the player should hear why, not just "no words"."""
    notes = []
    facts: tuple[tuple[str, TextFact], ...] = (
        ("definition", "definition"), ("part-of-speech", "definition"), ("symbol", "symbols"))
    for name, fact in facts:
        if any(c.name == name for group in query.groups for c in group) and not lex.has_text(fact):
            built = "`WORD definition` lines" if fact == "definition" else "a list with Zyzzyva's symbols"
            notes.append(f"--{name}: {lex.name} has no {fact}s, so nothing matches it "
                         f"(a lexicon built from {built} has them)")
    return notes


def _lengths(group: Group) -> tuple[int, int]:
    """The lengths every positive length condition of a group allows."""
    low, high = 0, UNBOUNDED
    for condition in group:
        if condition.name == "length" and not condition.negate:
            low, high = max(low, condition.value[0]), min(high, condition.value[1])
    return low, high


# -- stored facts --------------------------------------------------------------------


def _stored(condition: Condition, query: Query) -> RowCondition | None:
    """The condition as a row condition, if it is one on stored facts."""
    name, value, negate = condition.name, condition.value, condition.negate
    if name in _COUNTS:
        return Between(_COUNTS[name], value[0], value[1], negate=negate)
    if name in ("probability", "probability-lax"):
        return RankBetween(value[0], value[1], query.probability_by, query.blanks, negate=negate,
                           lax=name == "probability-lax")
    if name == "playability":
        return PlayabilityBetween(value[0], value[1], negate=negate)
    if name in _HOOKS and value is True:
        return Hook(_HOOKS[name], negate=negate)
    if name == "symbol":
        return Symbol(value, negate=negate)
    if name == "definition":
        return Defined(value, negate=negate)
    if name == "part-of-speech":
        return PartOfSpeech(value, negate=negate)
    if name == "in-word-list":
        return OneOf("word", [word for _, word in word_lines(Path(value))], negate=negate)
    if name == "group":
        found = groups.row_group(value)
        if found is not None:
            return replace(found, negate=negate)
    return None


# -- spelling conditions -----------------------------------------------------------


def _listed(lex: Lexicon, condition: Condition) -> set[str] | frozenset[str] | None:
    """Codes of every word meeting a listing condition (from the tries or a scan); None for the others."""
    name, value = condition.name, condition.value
    option = f"--{name}"
    if name in ("anagram", "subanagram"):
        return anagram_codes(lex, value, name == "subanagram", option)
    if name == "pattern":
        return set(corpus.scan(lex, pattern_regex(lex.tiles, value)))
    if name == "group":
        return groups.group_codes(lex, value)
    if name == "starts-with":
        return set(lex.trie.keys(read_tiles(lex.tiles, value, option)))
    if name == "ends-with":
        return _ending(lex, read_tiles(lex.tiles, value, option))
    if name == "takes-prefix":
        return _taking_prefix(lex, read_tiles(lex.tiles, value, option))
    if name == "takes-suffix":
        return _taking_suffix(lex, read_tiles(lex.tiles, value, option))
    if name in ("front-hook", "back-hook"):  # with tiles: takes each of them as a hook
        take = _taking_prefix if name == "front-hook" else _taking_suffix
        found: set[str] | None = None
        for tile in dict.fromkeys(read_tiles(lex.tiles, value, option)):
            hooked = take(lex, tile)
            found = hooked if found is None else found & hooked
        return found
    return None


def _ending(lex: Lexicon, code: str) -> set[str]:
    return {r[::-1] for r in lex.reversed_trie.keys(code[::-1])}


def _taking_prefix(lex: Lexicon, code: str) -> set[str]:
    """Words that make another word with CODE in front (Zyzzyva's Takes Prefix)."""
    trie = lex.trie
    return {w for w in (k[len(code):] for k in trie.keys(code)) if w and w in trie}


def _taking_suffix(lex: Lexicon, code: str) -> set[str]:
    """Words that make another word with CODE behind (Zyzzyva's Takes Suffix)."""
    trie = lex.trie
    return {w for w in (k[:-len(code)] for k in _ending(lex, code)) if w and w in trie}


def _test(lex: Lexicon, condition: Condition) -> Test:
    """A test on a word's codes for the conditions that are not listed."""
    tiles = lex.tiles
    name, value = condition.name, condition.value
    option = f"--{name}"
    if name in ("includes", "excludes"):
        need = Counter(read_tiles(tiles, value, option))
        if name == "excludes":  # none of these tiles
            return lambda code: not any(c in code for c in need)
        return lambda code: all(code.count(c) >= n for c, n in need.items())
    if name == "consists-of":
        letters, (low, high) = value
        wanted = set(read_tiles(tiles, letters, option))
        return lambda code: low <= sum(c in wanted for c in code) * 100 // len(code) <= high
    if name == "unique-letters":
        low, high = value
        return lambda code: low <= len(set(code)) <= high
    if name == "regex":
        try:
            rx = re.compile(value, re.IGNORECASE)
        except re.error as exc:
            raise LexitrainError(f"--regex {value!r}: {exc}") from None
        search = rx.search
        if not tiles.multi:  # codes are the letters themselves
            return lambda code: search(code) is not None
        return lambda code: search(tiles.decode(code)) is not None
    if name == "in-lexicon":
        other = open_lexicon(value)
        return lambda code: tiles.decode(code) in other
    raise AssertionError(f"no way to test --{name}")


def _negated(test: Test) -> Test:
    return lambda code: not test(code)


def _not_in(hits: set[str] | frozenset[str]) -> Test:
    return lambda code: code not in hits


# -- order and limits ------------------------------------------------------------------


def _word_key(lex: Lexicon, field: KeyFact = "word") -> Callable[[WordRow], str]:
    """Dictionary (tile-set) order of a row's word or alphagram."""
    spelled = _spelling_key(lex)
    return lambda r: spelled(r[field])


def _spelling_key(lex: Lexicon) -> Callable[[str], str]:
    """Dictionary (tile-set) order of a word or alphagram as spelled."""
    tiles = lex.tiles
    if not tiles.multi:
        return lambda text: text
    return lambda text: tiles.sort_key(tiles.encode(text))


def order_key(lex: Lexicon, query: Query) -> Callable[[WordRow], Any]:
    """The sort key of the query's order (every key ends with the word: no two rows tie); `random`'s
    is drawn afresh for each search without a seed (`random_key`)."""
    if query.order == "random":
        return random_key(query.seed)
    word = _word_key(lex)
    if query.order == "probability":
        field: Literal["probability_ranks", "alphagram_ranks"] = (
            "probability_ranks" if query.probability_by == "word" else "alphagram_ranks")
        blanks = query.blanks
        return lambda r: (r["length"], r[field][blanks], word(r))
    if query.order == "playability":  # the most played first in each length; words never played last
        ranks = lex.playability_ranks()
        last = len(ranks) + 1
        return lambda r: (r["length"], ranks.get(r["word"], last), r["probability_rank"], word(r))
    if query.order == "points-per-game":  # the most points a game holds first, whatever the length; never played last
        points = lex.points_per_game()
        return lambda r: (-points.get(r["word"], 0.0), r["probability_rank"], word(r))
    if query.order == "alphagram":
        alphagram = _word_key(lex, "alphagram")
        return lambda r: (alphagram(r), word(r))
    if query.order == "length":
        return lambda r: (r["length"], word(r))
    return word


def random_key(seed: int | None) -> Callable[[WordRow], tuple[bytes, str]]:
    """`random_word_key` of a row's word."""
    place = random_word_key(seed)
    return lambda row: place(row["word"])


def random_word_key(seed: int | None) -> Callable[[str], tuple[bytes, str]]:
    """A random order of words: a word's place is its hash keyed by the seed (a fresh secret without one),
    so the first N of a search are a uniform draw of N in a uniform order, kept holding N rows (a shuffle
    held every word: 13 MB for ENABLE), and a seed gives the same order however the rows are read."""
    secret = secrets.token_bytes(32) if seed is None else hashlib.blake2b(str(seed).encode(), digest_size=32).digest()
    keyed = hashlib.blake2b(key=secret, digest_size=8)

    def place(word: str) -> tuple[bytes, str]:
        hashed = keyed.copy()
        hashed.update(word.encode())
        return hashed.digest(), word

    return place


def _alphagram_then_word(lex: Lexicon, query: Query) -> Callable[[str], tuple[str, str]]:
    alphagram = lex.tiles.alphagram_code
    return lambda word: (alphagram(word), word)


#: `order_key`'s orders that a word's text alone sorts by (one-letter tiles: a word is its codes), a key of
#: the word's text for each (`_first_found_rows`).
_WORD_ORDERS: dict[str, Callable[[Lexicon, Query], Callable[[str], Any] | None]] = {
    "alphabetical": lambda lex, query: None,  # (the word itself: `nsmallest`'s quicker way)
    "alphagram": _alphagram_then_word,
    "random": lambda lex, query: random_word_key(query.seed),
}


def _first_in_order(lex: Lexicon, rows: Iterable[WordRow], query: Query, first: int | None) -> list[WordRow]:
    """The first FIRST rows (all when None) in the query's order, holding only those (`nsmallest` is
    `sorted(...)[:first]`); `random` is repeatable with the query's seed."""
    key = order_key(lex, query)
    if first == 0:  # the count alone: the rows are still read (and counted), none kept
        for _ in rows:
            pass
        return []
    return sorted(rows, key=key) if first is None else heapq.nsmallest(first, rows, key=key)


def _limit_by_probability(lex: Lexicon, query: Query) -> Iterator[WordRow]:
    """Zyzzyva's last step: keep the matches at these places in probability order
    (most combinations first, whatever the length; ties by alphagram, then word);
    lax keeps the matches as likely as those at either end too. The matches are read twice: their
    places alone first (a key each, not a row: a limit past the whole lexicon holds 168,551 keys, not
    rows), then the rows within the places kept."""
    assert query.limit_probability is not None
    low, high = query.limit_probability
    word, alphagram = _word_key(lex), _word_key(lex, "alphagram")
    blanks = query.blanks

    def place(r: WordRow) -> tuple[int, str, str]:
        return -r["combinations"][blanks], alphagram(r), word(r)

    ranked = sorted(place(r) for r in _matches(lex, query))
    kept = ranked[low - 1 : high]
    if not kept:
        return iter(())
    if query.limit_lax:
        most, least = -kept[0][0], -kept[-1][0]
        return (r for r in _matches(lex, query) if least <= r["combinations"][blanks] <= most)
    first, last = kept[0], kept[-1]  # (no two places tie: each ends with its word)
    return (r for r in _matches(lex, query) if first <= place(r) <= last)
