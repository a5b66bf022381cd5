"""The lexicon's query API: typed rows by word, alphagram, length and rank, hooks, definitions."""

from __future__ import annotations

import pytest

from lexitrain.errors import LexitrainError
from lexitrain.lexicon.rows import Between, Defined, Hook, OneOf, RankBetween, Symbol, definition_words

DESIGN_COUNTS = dict(zip(range(2, 16), [96, 972, 3903, 8636, 15232, 23109, 28420, 24873, 20302, 15504, 11358,
                                        7827, 5127, 3192]))


def test_a_row_carries_the_design_figures(enable):
    xi = enable.row("XI")  # as QI (9 / 29 / 30): one X and one I in the bag
    assert xi is not None
    assert (xi["alphagram"], xi["length"], xi["combinations"]) == ("IX", 2, [9, 29, 30])
    qat = enable.row("QAT")
    assert (qat["front_hooks"], qat["back_hooks"], qat["inner_front"], qat["inner_back"]) == ("", "S", True, False)
    assert enable.row("RETAINS")["combinations"] == [839808, 2612736, 3006072]
    assert enable.row("QI") is None and enable.row("xi") is None  # not in ENABLE; stored words are uppercase


def test_conditions_all_hold_and_each_can_be_negated(enable):
    twos = enable.rows([Between("length", 2, 2)])
    assert len(twos) == 96
    hooked = {r["word"] for r in enable.rows([Between("length", 2, 2), Hook("front")])}
    unhooked = {r["word"] for r in enable.rows([Between("length", 2, 2), Hook("front", negate=True)])}
    assert hooked and unhooked and hooked | unhooked == {r["word"] for r in twos} and not hooked & unhooked
    assert all(r["front_hooks"] for r in twos if r["word"] in hooked)
    assert {r["word"] for r in enable.rows([OneOf("word", ["XI", "JO", "QI"])])} == {"XI", "JO"}
    retains = {r["word"] for r in enable.rows([OneOf("alphagram", ["AEINRST"])])}
    assert retains == {"ANESTRI", "ANTSIER", "NASTIER", "RATINES", "RETAINS", "RETINAS", "RETSINA", "STAINER",
                       "STEARIN"}
    others = enable.rows([Between("length", 7, 7), OneOf("alphagram", ["AEINRST"], negate=True)])
    assert len(others) == 23109 - 9


def test_rank_ranges_per_alphagram_and_per_word(enable):
    [top] = {r["alphagram"] for r in enable.rows([Between("length", 7, 7), RankBetween(1, 1)])}
    assert top == enable.alphagrams_by_rank(7, (1, 1))[0]
    words = enable.rows([Between("length", 7, 7), RankBetween(1, 5, per="word", blanks=0)])
    assert sorted(r["probability_ranks"][0] for r in words) == [1, 2, 3, 4, 5]
    with pytest.raises(LexitrainError, match="0, 1 or 2 blanks"):
        RankBetween(1, 5, blanks=3)


def test_alphagrams_by_rank_and_counts_by_length(enable):
    sevens = enable.alphagrams_by_rank(7)
    assert len(sevens) == enable.counts_by_length("alphagram")[7]
    assert sevens[:10] == enable.alphagrams_by_rank(7, (1, 10))
    ranks = {r["alphagram"]: r["alphagram_rank"] for r in enable.rows([OneOf("alphagram", sevens[:10])])}
    assert [ranks[a] for a in sevens[:10]] == list(range(1, 11))
    assert dict(enable.counts_by_length()) == DESIGN_COUNTS
    assert enable.alphagrams_by_rank(16) == []


def test_symbols_and_definitions(make_lexicon):
    make_lexicon(["CAT", "DOG"], name="old")
    lex = make_lexicon(["CAT a pet [n]", "DOG a 100% pet", "EMU a_bird", "ZAX a tool"], name="new",
                       compare={"old": "+"})

    def words(*conditions):
        return sorted(r["word"] for r in lex.rows(conditions))

    assert words(Symbol("+")) == ["EMU", "ZAX"]
    assert words(Symbol("+", negate=True)) == ["CAT", "DOG"]
    assert words(Defined("PET")) == ["CAT", "DOG"]  # any case
    assert words(Defined("100%")) == ["DOG"]  # the words of the text; % and _ are no wildcards
    assert words(Defined("bird a")) == ["EMU"]  # every word, in any order
    assert words(Defined('"tool" OR pet')) == []  # the index's query syntax is not read: OR is a word here
    assert words(Defined("pe")) == ["CAT", "DOG"] and words(Defined("et")) == []  # a word's beginning, not its middle
    assert lex.row("CAT")["definition"] == "a pet [n]"


def test_definition_search_matches_a_brute_force_over_enable(enable):
    """`Defined` through the full-text index finds exactly the words whose definition has a word
    beginning with each word of the text, as a scan of every definition finds them."""
    defined = [(word, definition.casefold()) for word, definition in
               enable.db.execute("SELECT word, definition FROM words WHERE definition != ''")]

    def scanned(text: str) -> list[str]:
        wanted = [w.casefold() for w in definition_words(text)]
        return sorted(word for word, definition in defined
                      if all(w in definition for w in wanted)  # (quick) then word by word
                      and all(any(t.startswith(w) for t in definition_words(definition)) for w in wanted))

    for text in ("fish", "FISH", "sea fish", "fishe", "strigine", "abc xyz", "carni", "tree-like"):
        indexed = sorted(r["word"] for r in enable.rows([Defined(text)]))
        assert indexed == scanned(text), text
    fours = {r["word"]: r["definition"] for r in enable.rows([Between("length", 4, 4), Defined("fish")])}
    assert {"CARP", "DACE", "SHAD", "HIND"} <= set(fours)  # HIND: "... spotted fishes ..."
    assert "FUGU" not in fours  # "a blowfish": fish only in the middle of a word
    assert all("fish" in definition.casefold() for definition in fours.values())
