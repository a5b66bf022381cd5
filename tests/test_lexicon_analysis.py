"""The compiler's analysis, worked out for all words at once (lexicon/analysis.py),
against the plain word-by-word reckoning of the same facts; and a build whose
graph is built in Python writing the same lexicon as one built in C."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexitrain.lexicon import graph
from lexitrain.lexicon.analysis import analyse
from lexitrain.lexicon.probability import combinations
from lexitrain.tiles import TileSet, load_tile_set

ENGLISH = load_tile_set("english")
SPANISH = load_tile_set("spanish")  # multi-letter tiles: codes that do not sort as the tiles do
SUPER = load_tile_set("english_super")  # 200 tiles: combinations past 64 bits


def ranked(items: list[str], length: dict[str, int], key: dict[str, tuple]) -> dict[str, int]:
    """1-based rank of each item within its length, in the order of `key`."""
    rank, seen = {}, {}
    for item in sorted(items, key=lambda i: (length[i], key[i])):
        seen[length[item]] = seen.get(length[item], 0) + 1
        rank[item] = seen[length[item]]
    return rank


def word_by_word(codes: list[str], tiles: TileSet) -> dict[str, list]:
    """Every fact the analysis gives, one word at a time."""
    words = set(codes)
    alph_of = {c: tiles.alphagram_code(c) for c in codes}
    alphagrams = sorted(set(alph_of.values()), key=tiles.sort_key)
    combos = dict(zip(alphagrams, combinations(alphagrams, tiles).tolist()))
    alph_rank = [ranked(alphagrams, {a: len(a) for a in alphagrams},
                        {a: (-combos[a][b], tiles.sort_key(a)) for a in alphagrams}) for b in range(3)]
    word_rank = [ranked(codes, {c: len(c) for c in codes},
                        {c: (-combos[alph_of[c]][b], tiles.sort_key(alph_of[c]), tiles.sort_key(c)) for c in codes})
                 for b in range(3)]
    index = tiles.code_index
    return {
        "alph_of": [alph_of[c] for c in codes],
        "alphagrams": alphagrams,
        "combos": [combos[a] for a in alphagrams],
        "alph_rank": [[r[a] for a in alphagrams] for r in alph_rank],
        "word_rank": [[r[c] for c in codes] for r in word_rank],
        "points": [sum(tiles.points[index(t)] for t in a) for a in alphagrams],
        "vowels": [sum(tiles.is_vowel(tiles.letters[index(t)]) for t in a) for a in alphagrams],
        "anagrams": [sum(alph_of[c] == a for c in codes) for a in alphagrams],
        "lengths": [len(a) for a in alphagrams],
        "word_lengths": [len(c) for c in codes],
        "front_hooks": ["".join(t for t in tiles.codes if t + c in words) for c in codes],
        "back_hooks": ["".join(t for t in tiles.codes if c + t in words) for c in codes],
        "inner_front": [int(c[1:] in words) for c in codes],
        "inner_back": [int(c[:-1] in words) for c in codes],
    }


def all_at_once(codes: list[str], tiles: TileSet) -> dict[str, list]:
    """The same facts from `analyse`, as plain lists."""
    a = analyse(codes, tiles)

    def plain(value: object) -> object:
        if isinstance(value, np.ndarray):
            return value.tolist()
        return [plain(v) for v in value] if isinstance(value, list) else value

    return {name: plain(getattr(a, name)) for name in word_by_word(codes[:1], tiles)}


def word_codes(tiles: TileSet, letters: list[str], longest: int) -> st.SearchStrategy[list[str]]:
    """Distinct words in dictionary order: some drawn from a few tiles, with each one's
    reversal (an anagram) and the drawn words with a tile or two put in front and behind (hooks)."""

    def with_anagrams_and_hooks(drawn: list[list[str]]) -> list[str]:
        first, second = letters[:2]
        variants = (v for t in drawn for v in (t, t[::-1], [first, *t], [second, *t], [*t, first], [*t, second]))
        return sorted({tiles.encode(tiles.spell(v)) for v in variants}, key=tiles.sort_key)

    word = st.lists(st.sampled_from(letters), min_size=2, max_size=longest - 1)
    return st.lists(word, min_size=1, max_size=12).map(with_anagrams_and_hooks)


@settings(max_examples=80, deadline=None)
@given(word_codes(ENGLISH, list("AEIRSTQZ"), 9))
def test_english_words_analysed_at_once_as_one_by_one(codes: list[str]) -> None:
    assert all_at_once(codes, ENGLISH) == word_by_word(codes, ENGLISH)


@settings(max_examples=60, deadline=None)
@given(word_codes(SPANISH, ["A", "E", "O", "CH", "LL", "RR", "Ñ", "S"], 8))
def test_multi_letter_tiles_analysed_at_once_as_one_by_one(codes: list[str]) -> None:
    assert all_at_once(codes, SPANISH) == word_by_word(codes, SPANISH)


@settings(max_examples=30, deadline=None)
@given(word_codes(SUPER, list("AEINORST"), 21))
def test_figures_past_64_bits_analysed_at_once_as_one_by_one(codes: list[str]) -> None:
    assert all_at_once(codes, SUPER) == word_by_word(codes, SUPER)


def test_a_long_list_of_one_tile_words_and_the_longest_words() -> None:
    codes = sorted(["AA", "AAS", "AB", "ABA", "ABAS", "BA", "BAA", "BAAS", "SAB", "SABA", "ZZZ",
                    "ABCDEFGHIJKLMNO", "BCDEFGHIJKLMNO", "ABCDEFGHIJKLMN"])
    assert all_at_once(codes, ENGLISH) == word_by_word(codes, ENGLISH)


def tables(folder: Path) -> dict[str, list[tuple]]:
    """Every table of a compiled lexicon's databases, row by row (the meta rows naming the build left out)."""
    found = {}
    for path in sorted(folder.glob("*.sqlite")):
        with sqlite3.connect(path) as db:
            for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"):
                found[f"{path.name}:{table}"] = db.execute(f"SELECT * FROM {table} ORDER BY 1").fetchall()
    found["words.sqlite:meta"] = [row for row in found["words.sqlite:meta"] if row[0] not in ("name", "source", "built")]
    return found


@pytest.mark.skipif(graph.compiled is None, reason="compiled graph builder not built")
def test_the_python_graph_builder_gives_the_same_lexicon_as_the_compiled_one(make_lexicon, monkeypatch) -> None:
    words = ["CARE", "RACE", "ACRE", "SCARE", "CARES", "RACES", "AT", "CAT", "CATS", "SCAT", "QI", "ZA", "ZAS"]
    compiled = make_lexicon(words, name="in-c")
    monkeypatch.setenv("LEXITRAIN_ENGINE", "python")
    python = make_lexicon(words, name="in-python")
    files = sorted(p.name for p in compiled.folder.iterdir())
    assert files == sorted(p.name for p in python.folder.iterdir()) and graph.FILE_NAME in files
    for name in files:
        if not name.endswith(".sqlite"):
            assert (compiled.folder / name).read_bytes() == (python.folder / name).read_bytes(), name
    assert tables(compiled.folder) == tables(python.folder)
