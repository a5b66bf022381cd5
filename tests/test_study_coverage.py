"""Coverage: per length, the share of the bag's word-making draws whose words the player knows."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from itertools import combinations_with_replacement
from math import comb, prod

from lexitrain.study.records.coverage import coverage
from lexitrain.study.store import ProgressStore
from tests.cli_runner import run

FOURS = ["ABLE", "BALE", "GALE", "AGED", "CAGE", "FACE", "CAFE", "DEAF", "FADE", "BEAD", "BADE", "ZZZS"]
KNOWN = {"ABEL", "ACEF", "ABDE"}  # learnt: ABLE/BALE, FACE/CAFE, BEAD/BADE
LEARNING = {"ADEF"}  # seen but not learnt


def _cards(lex) -> None:
    with ProgressStore() as store:
        for key, state in [*((k, 2) for k in KNOWN), *((k, 1) for k in LEARNING)]:
            card = store.card(store.ensure_card(lex.name, "anagram", key, 0.0))
            store.save_card(replace(card, state=state, due=1.0, stability=5.0, difficulty=5.0))
        store.ensure_card(lex.name, "hooks", "AEGL", 0.0)  # another kind of card: not an anagram known


def brute_force(lex, length: int) -> tuple[int, int]:
    """(draws making a word, those whose alphagram is known), over every multiset of tiles the bag holds."""
    bag = dict(zip(lex.tiles.letters, lex.tiles.counts))
    alphagrams = {"".join(sorted(w)) for w in FOURS if len(w) == length}
    words = known = 0
    for draw in combinations_with_replacement(sorted(bag), length):
        ways = prod(comb(bag[letter], n) for letter, n in Counter(draw).items())
        key = "".join(draw)
        if key in alphagrams:
            words += ways
            known += ways * (key in KNOWN)
    return words, known


def test_coverage_equals_a_brute_force_count(make_lexicon):
    lex = make_lexicon(FOURS, name="fours")
    _cards(lex)
    with ProgressStore() as store:
        [four] = coverage(store, lex, [4])
    words, known = brute_force(lex, 4)
    assert (four.draws, four.known_draws) == (words, known) and words > known > 0
    assert four.share == known / words and (four.alphagrams, four.known) == (8, 3)  # ZZZS counts, with no draw
    result = run("stats", "--lexicon", "fours", "--json")
    assert result.exit_code == 0, result.stderr
    assert result.json()["coverage"]["4"] == {"alphagrams": 8, "known": 3, "draws": words, "known_draws": known,
                                              "share": round(known / words, 4)}
    text = run("stats", "--lexicon", "fours").stdout
    assert f"   4s {known / words:>7.2%}  (3 of 8 alphagrams known)" in text


def test_coverage_with_nothing_known_is_zero(make_lexicon):
    lex = make_lexicon(FOURS, name="fours")
    with ProgressStore() as store:
        [four] = coverage(store, lex, [4])
    assert (four.known, four.known_draws, four.share) == (0, 0, 0.0) and four.draws == brute_force(lex, 4)[0]
