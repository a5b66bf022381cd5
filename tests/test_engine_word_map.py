"""The word map (which multisets of tiles make a word) and the best move it bounds: every word's tiles are
found, with one letter for a blank too, none is missed and, on a small list, nothing else is found; the
best move chosen with its anchors bounded and searched best first is the reference's best move, ties
and tickets included."""

from __future__ import annotations

import random
from functools import lru_cache
from itertools import combinations_with_replacement

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lexitrain.engine import movegen
from lexitrain.engine.dawg import dawg_for
from lexitrain.engine.equity import best_candidate
from lexitrain.engine.leave_table import load_leaves
from lexitrain.engine.movegen import PLAY, MoveGenerator
from lexitrain.tiles import Rack
from tests.test_engine_movegen import DAWG, ENGLISH, LETTERS, SETTINGS, WORDS, positions

pytestmark = pytest.mark.skipif(movegen.compiled is None, reason="compiled search not built")


def word_map(dawg):
    return movegen.compiled.WordMap(movegen.compiled_setting(dawg, _layout(), dawg.tiles))


def _layout():
    from lexitrain.layouts import load_layout
    return load_layout("standard")


def tiles_of(word: str) -> list[int]:
    return [ENGLISH.index(ch) for ch in word]


def test_on_a_small_list_the_map_finds_exactly_the_words_tiles() -> None:
    """Every multiset of the list's seven letters up to six tiles: made exactly when some word is its
    anagram; with one blank, exactly when some word holds it and one letter more."""
    words = word_map(DAWG)
    alphagrams = {"".join(sorted(w)) for w in WORDS}
    one_short = {"".join(sorted(w[:k] + w[k + 1:])) for w in WORDS for k in range(len(w))}
    for size in range(1, 7):
        for tiles in combinations_with_replacement(LETTERS, size):
            text = "".join(tiles)
            assert words.made(tiles_of(text)) == (text in alphagrams), text
            assert words.made(tiles_of(text), 1) == (text in one_short), text + "?"


@lru_cache(maxsize=1)
def enable_map_and_words(dawg) -> tuple:
    from tests.engine_helpers import graph_words
    return word_map(dawg), ["".join(ENGLISH.letters[t] for t in word) for word in graph_words(dawg)]


def test_no_word_of_enable_is_missed(enable) -> None:
    """A word's tiles in any order are found, and with any one of them a blank (2,000 words drawn)."""
    words, listed = enable_map_and_words(dawg_for(enable))

    @SETTINGS
    @given(st.data())
    def found(data) -> None:
        word = data.draw(st.sampled_from(listed))
        order = data.draw(st.permutations(tiles_of(word)))
        assert words.made(order)
        gone = data.draw(st.integers(0, len(order) - 1))
        assert words.made(order[:gone] + order[gone + 1:], 1)
        assert words.made(order[2:], 2)  # two blanks: anything

    found()
    rng = random.Random(5)
    assert all(words.made(tiles_of(w)) for w in rng.sample(listed, 2000))


def test_on_enable_the_map_rarely_finds_tiles_that_make_no_word(enable) -> None:
    """A collision of keys only loosens a bound, but a map that said yes to everything would bound nothing:
    of 5,000 random seven-tile multisets, the map finds no more than a few that make no word."""
    enable_map, listed = enable_map_and_words(dawg_for(enable))
    alphagrams = {"".join(sorted(w)) for w in listed}
    rng = random.Random(37)
    pool = [ch for ch, n in zip(ENGLISH.letters, ENGLISH.counts) for _ in range(n)]
    wrong = 0
    for _ in range(5000):
        text = "".join(sorted(rng.sample(pool, 7)))
        wrong += enable_map.made(tiles_of(text)) and text not in alphagrams
    assert wrong <= 250  # 5%: the map's bits are some 2% full


@SETTINGS
@given(positions(), st.sampled_from([0, 3, 40]), st.one_of(st.none(), st.integers(0, 20)))
def test_the_bounded_best_move_is_the_reference_best_move(position, bag, ticket) -> None:
    """On small boards (premiums everywhere, words through tiles and beside them), the compiled search's
    best move, its anchors bounded by the word map and searched best first, is equity.best_candidate's
    over every play the pure Python generator lists: play, exchange or pass, equity, and the play drawn
    by a ticket among those tied."""
    board, text = position
    rack = Rack.parse(ENGLISH, text, in_play=True)
    table = load_leaves(ENGLISH)
    plays = MoveGenerator(DAWG, engine="python").plays(board, rack)
    expected = best_candidate(table, rack, plays, bag, ticket=ticket)
    found = MoveGenerator(DAWG, engine="compiled").best_by_equity(board, rack, table, bag, bag >= 7, ticket)
    assert found.equity == round(expected.equity * 100)
    if expected.kind == "play":
        assert found.kind == PLAY and found.play == expected.play
    else:
        assert found.kind != PLAY


def test_on_real_boards_the_bounded_best_move_is_the_reference_best_move(enable, real_games) -> None:
    """Real mid-game boards from the games, ENABLE, racks dealt at random (blanks too): the best move with
    its anchors bounded is the one the reference finds among every play."""
    from lexitrain.engine.exchanges import unseen_tiles
    from lexitrain.engine.gcg import read_gcg
    from lexitrain.engine.replay import replay

    table = load_leaves(ENGLISH)
    fast, reference = MoveGenerator(dawg_for(enable)), MoveGenerator(dawg_for(enable), engine="python")
    rng = random.Random(11)
    checked = 0
    for path in sorted(real_games.glob("*.gcg"))[:6]:
        for turn in replay(read_gcg(path), ENGLISH)[2::4]:
            unseen = unseen_tiles(turn.board, Rack(ENGLISH, (0,) * ENGLISH.size, 0))
            pool = [t for t, n in enumerate(unseen.counts) for _ in range(n)] + [ENGLISH.size] * unseen.blanks
            dealt = rng.sample(pool, min(7, len(pool)))
            rack = Rack(ENGLISH, tuple(dealt.count(t) for t in range(ENGLISH.size)), dealt.count(ENGLISH.size))
            expected = best_candidate(table, rack, reference.plays(turn.board, rack), 40)
            found = fast.best_by_equity(turn.board, rack, table, 40, True)
            assert found.equity == round(expected.equity * 100), (path.name, turn.number)
            assert found.play == expected.play, (path.name, turn.number)
            checked += 1
    assert checked >= 20
