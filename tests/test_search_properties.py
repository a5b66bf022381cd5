"""Property tests: random racks and patterns against brute force over ENABLE."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lexitrain.errors import LexitrainError
from lexitrain.search.patterns import pattern_regex
from lexitrain.search.racks import rack_words, spell_with_blanks

COMMON = "AEIOURSTNLDCGMP"
FIXTURE_OK = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

_COUNTED: list[tuple[str, Counter]] = []
_WORDS: list[str] = []


def all_words(lex) -> list[str]:
    """Every ENABLE word, read from the lexicon once for all the examples."""
    if not _WORDS:
        _WORDS.extend(lex.words())
    return _WORDS


def counted(lex) -> list[tuple[str, Counter]]:
    """ENABLE words of up to 9 letters with their letter counts (built once)."""
    if not _COUNTED:
        _COUNTED.extend((w, Counter(w)) for w in all_words(lex) if len(w) <= 9)
    return _COUNTED


def fits(word_counts: Counter, rack: Counter, blanks: int) -> bool:
    return sum(max(0, n - rack[c]) for c, n in word_counts.items()) <= blanks


racks = st.tuples(st.text(alphabet=COMMON, min_size=1, max_size=7), st.integers(0, 2))


@FIXTURE_OK
@given(racks, st.booleans())
def test_racks_match_brute_force(enable, rack_and_blanks, build):
    letters, blanks = rack_and_blanks
    rack = letters + "?" * blanks
    have = Counter(letters)
    size = len(rack)
    expected = sorted(
        w for w, c in counted(enable)
        if (len(w) <= size if build else len(w) == size) and fits(c, have, blanks)
    )
    found = rack_words(enable, rack, build=build)
    assert sorted(w.code for w in found) == expected
    for word in found:  # blank letters are shown lowercase and the rest come from the rack
        shown = spell_with_blanks(enable.tiles, word)
        assert shown.upper() == word.code
        assert sum(ch.islower() for ch in shown) == len(word.blanks) <= blanks
        assert not Counter(ch for ch in shown if ch.isupper()) - have


def to_regex(pattern: str) -> str:
    """The test's own reading of the pattern syntax."""
    return pattern.replace("?", ".").replace("*", ".*")


token = st.one_of(
    st.sampled_from(list("AEST?*")),
    st.builds(lambda neg, s: f"[{'^' if neg else ''}{s}]", st.booleans(), st.text(alphabet="AEINST", min_size=1, max_size=3)),
)


@FIXTURE_OK
@given(st.lists(token, min_size=1, max_size=6).map("".join))
def test_patterns_match_brute_force(enable, pattern):
    from lexitrain.search import corpus

    full = re.compile(to_regex(pattern)).fullmatch
    expected = sorted(w for w in all_words(enable) if full(w))
    assert sorted(corpus.scan(enable, pattern_regex(enable.tiles, pattern))) == expected


@given(st.text(max_size=8))
@settings(max_examples=200, deadline=None)
def test_pattern_parser_gives_a_regex_or_a_clear_error(text):
    from lexitrain.tiles import load_tile_set

    tiles = load_tile_set("english")
    try:
        source = pattern_regex(tiles, text)
    except LexitrainError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    re.compile(source)
    assert "\n" not in source or "[^" in source  # only negated sets name the line break


@pytest.mark.parametrize("pattern", ["[]", "A[B", "AB]", "A-B", "1"])
def test_bad_patterns(pattern):
    from lexitrain.tiles import load_tile_set

    with pytest.raises(LexitrainError, match="pattern"):
        pattern_regex(load_tile_set("english"), pattern)
