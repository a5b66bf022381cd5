"""The search library against brute-force scans of ENABLE and small lists."""

from __future__ import annotations

import re
import shlex
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexitrain.errors import LexitrainError
from lexitrain.search.execute import run_search
from lexitrain.search.lists import builtin_lists
from lexitrain.search.query import _CONDITIONS, _SETTINGS, UNBOUNDED, Query, parse_query, parse_range
from lexitrain.search.saved import load_search, save_search, saved_searches
from lexitrain.search.sources import results_from_source


def words_of(rows):
    return sorted(r["word"] for r in rows)


def spells(word: str, rack: str, exact: bool) -> bool:
    """Brute force: can the rack (with ? blanks) spell the word?"""
    have = Counter(rack.replace("?", ""))
    short = sum(max(0, n - have[c]) for c, n in Counter(word).items())
    if short > rack.count("?"):
        return False
    return len(word) == len(rack) if exact else len(word) >= 2


@pytest.fixture
def words(enable):
    return enable.words()


@pytest.mark.parametrize("rack", ["AEINRST", "AEINRS?", "QU?", "EINRST??", "ZZ?", "AAAAAAA"])
def test_anagram_matches_brute_force(enable, words, rack):
    expected = sorted(w for w in words if len(w) == len(rack) and spells(w, rack, True))
    assert words_of(run_search(enable, Query(anagram=rack))) == expected


@pytest.mark.parametrize("rack", ["RETAINS", "CATS?", "QI??"])
def test_build_matches_brute_force(enable, words, rack):
    expected = sorted(w for w in words if len(w) <= len(rack) and spells(w, rack, False))
    assert words_of(run_search(enable, parse_query(f"--subanagram {rack}"))) == expected


@pytest.mark.parametrize(
    "pattern, regex",
    [("?A?E??S", r".A.E..S"), ("*ZZ*", r".*ZZ.*"), ("Q[^U]*", r"Q[^U].*"), ("[JX]?[AEIOU]", r"[JX].[AEIOU]"), ("*ING", r".*ING")],
)
def test_pattern_matches_brute_force(enable, words, pattern, regex):
    expected = sorted(w for w in words if re.fullmatch(regex, w))
    assert expected, "the brute force must find something"
    assert words_of(run_search(enable, Query(pattern=pattern))) == expected


def test_negated_pattern_and_combined_conditions(enable, words):
    got = run_search(enable, parse_query("--length 4 --prefix QU --not-pattern *S --includes A"))
    expected = sorted(w for w in words if len(w) == 4 and w.startswith("QU") and not w.endswith("S") and "A" in w)
    assert words_of(got) == expected == ["QUAD", "QUAG", "QUAI", "QUAY"]


def test_hook_flags_match_the_word_list(enable, words):
    valid = set(words)
    got = run_search(enable, parse_query("--length 3 --back-hook --not-front-hook --inner-back"))
    expected = sorted(
        w for w in words if len(w) == 3
        and any(w + c in valid for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        and not any(c + w in valid for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        and w[:-1] in valid
    )
    assert words_of(got) == expected


@pytest.mark.parametrize("by, blanks", [("alphagram", 2), ("word", 2), ("alphagram", 0), ("word", 1)])
def test_probability_ranges_follow_the_convention(enable, by, blanks):
    """Rank = place by combinations (most first), ties by alphagram then word."""
    rows = run_search(enable, parse_query("--length 7"))
    rows.sort(key=lambda r: (-r["combinations"][blanks], r["alphagram"], r["word"]))
    if by == "word":
        expected = [r["word"] for r in rows[99:200]]
    else:
        alphagrams = list(dict.fromkeys(r["alphagram"] for r in rows))[99:200]
        expected = [r["word"] for r in rows if r["alphagram"] in set(alphagrams)]
    query = parse_query(f"--length 7 --probability 100-200 --probability-by {by} --blanks {blanks} --order probability")
    assert [r["word"] for r in run_search(enable, query)] == expected


def test_top_sevens_hold_the_known_first_alphagram(enable):
    rows = run_search(enable, parse_query("--length 7 --probability 1-1 --order probability"))
    assert rows[0]["alphagram"] == "AEINORT" or rows[0]["combinations"][2] >= 3_000_000
    assert {r["alphagram_rank"] for r in rows} == {1}


def test_result_rows_carry_the_contract_keys(enable):
    [row] = [r for r in run_search(enable, Query(anagram="AEINRST")) if r["word"] == "RETAINS"]
    assert row["combinations"] == [839808, 2612736, 3006072]
    assert row["alphagram"] == "AEINRST" and row["length"] == 7 and row["anagrams"] == 9
    assert row["front_hooks"] == "" and row["back_hooks"] == ""
    assert row["inner_front"] is False and row["inner_back"] is True  # RETAIN
    assert isinstance(row["probability_rank"], int) and isinstance(row["alphagram_rank"], int)
    for key in ("definition", "symbols", "points", "vowels"):
        assert key in row


def test_in_lexicon_and_symbol(enable, words):
    got = run_search(enable, parse_query("--length 2 --not-in-lexicon cel"))
    assert got and all(r["word"] in enable for r in got)
    from lexitrain.lexicon.lexicon import open_lexicon

    cel = open_lexicon("cel")
    assert words_of(got) == sorted(w for w in words if len(w) == 2 and w not in cel)


def test_order_limit_and_limit_by_probability(enable):
    rows = run_search(enable, parse_query("--length 2 --order alphabetical --limit 5"))
    assert [r["word"] for r in rows] == ["AA", "AB", "AD", "AE", "AG"]
    one = run_search(enable, parse_query("--length 4 --order random --seed 7 --limit 20"))
    two = run_search(enable, parse_query("--length 4 --order random --seed 7 --limit 20"))
    assert [r["word"] for r in one] == [r["word"] for r in two]
    assert [r["word"] for r in one] != sorted(r["word"] for r in one)
    top = run_search(enable, parse_query("--pattern ?A?E??S --limit-probability 1-5 --order alphabetical"))
    every = run_search(enable, parse_query("--pattern ?A?E??S"))
    best = sorted(every, key=lambda r: (-r["combinations"][2], r["alphagram"], r["word"]))[:5]
    assert words_of(top) == words_of(best)
    lengths = [r["length"] for r in run_search(enable, parse_query("--anagram AEINST? --subanagram AEINST? --order length"))]
    assert lengths == sorted(lengths)


def test_multi_letter_tiles(make_lexicon):
    lex = make_lexicon(["CHICO", "CHILE", "LECHE", "CALLE", "LLAMA", "CERRO", "CORRO", "CHURRO", "CHE"], name="es", tiles="spanish")
    assert words_of(run_search(lex, Query(anagram="OCIHC"))) == []  # C+H is not the CH tile
    assert words_of(run_search(lex, Query(anagram="[CH]ICO"))) == ["CHICO"]
    assert words_of(run_search(lex, Query(anagram="[CH]?ICO"))) == []
    assert words_of(run_search(lex, Query(anagram="CHIC?"))) == ["CHICO"]
    assert words_of(run_search(lex, Query(pattern="?E?E"))) == ["LECHE"]  # L-E-CH-E: four tiles
    assert words_of(run_search(lex, Query(pattern="*RR?"))) == ["CERRO", "CHURRO", "CORRO"]
    # tiles, not characters: CH-U-RR-O has four
    assert words_of(run_search(lex, Query(length=(2, 2)))) == ["CHE"]
    assert len(run_search(lex, Query(length=(4, 4)))) == 8
    assert words_of(run_search(lex, Query(subanagram="CHE??"))) == ["CHE", "CHILE", "LECHE"]


def test_query_parser_reads_cli_syntax():
    q = parse_query("--length 7-8 --not-pattern '*S' --probability=1-500 --probability-by word --order probability --limit 10 --front-hook --not-back-hook")
    assert q.length == (7, 8) and q.pattern == "*S" and q.is_negated("pattern")
    assert q.probability == (1, 500) and q.probability_by == "word" and q.order == "probability"
    assert q.limit == 10 and q.front_hook is True and q.back_hook is False
    assert parse_query(["--length", "7"]) == Query(length=(7, 7))
    assert parse_range("20-", "--points") == (20, 10**9) and parse_range("-5") == (0, 5)


@pytest.mark.parametrize(
    "text, message",
    [
        ("--colour red", "unknown search condition"),
        ("--length", "--length needs a value"),
        ("--length seven", "expected a number"),
        ("--length 8-7", "empty"),
        ("--order sideways", "expected one of"),
        ("--length 2 --length 3", "given twice"),
        ("--pattern 'AB", "No closing quotation"),
        ("--blanks 3", "0, 1 or 2"),
        ("--front-hook=yes", "takes no value"),
    ],
)
def test_bad_conditions_are_one_clear_line(text, message):
    with pytest.raises(LexitrainError, match=re.escape(message)) as err:
        parse_query(text)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(
    "query, message",
    [
        (Query(anagram=""), "empty --anagram"),
        (Query(pattern="A1?"), "'1' is not a tile"),
        (Query(pattern="A[BC"), "never closed"),
        (Query(length=(2, 2), probability=(1, 500)), "only 73 alphagrams of length 2"),
        (Query(length=(2, 2), probability=(1, 500), probability_by="word"), "only 96 words of length 2"),
        (Query(in_lexicon="nosuch"), "unknown lexicon 'nosuch'"),
        (Query(regex="(["), "--regex"),
    ],
)
def test_bad_values_are_clear_errors(enable, query, message):
    with pytest.raises(LexitrainError, match=re.escape(message)):
        run_search(enable, query)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet="-0123456789aA=? ", max_size=6), max_size=4))
def test_parser_never_fails_with_anything_but_a_clear_error(tokens):
    try:
        parse_query(["--length", *tokens])
    except LexitrainError as exc:
        assert str(exc) and "\n" not in str(exc)


def test_saved_searches_round_trip(home):
    assert saved_searches() == []
    save_search("sevens", "--length 7 --probability 1-100")
    save_search("twos", "--length 2")
    assert saved_searches() == ["sevens", "twos"]
    assert load_search("sevens") == "--length 7 --probability 1-100"
    assert (home / "searches.json").is_file()
    with pytest.raises(LexitrainError, match="no saved search 'nope'"):
        load_search("nope")
    with pytest.raises(LexitrainError, match="search name"):
        save_search("../evil", "--length 2")


def test_builtin_lists_all_run(enable):
    lists = builtin_lists()
    assert {"twos", "threes", "top-sevens", "top-eights", "jqxz", "q-without-u"} <= lists.keys()
    for name, entry in lists.items():
        rows = results_from_source(enable, builtin=name)
        assert rows, f"{name} ({entry.query}) found nothing"
    assert len(results_from_source(enable, builtin="twos")) == 96
    assert len({r["alphagram"] for r in results_from_source(enable, builtin="top-sevens")}) == 500
    assert all(("Q" in r["word"]) and ("U" not in r["word"]) for r in results_from_source(enable, builtin="q-without-u"))


def test_sources_word_file_and_errors(enable, tmp_path):
    good = tmp_path / "good.txt"
    good.write_text("retains\n\n# comment\nQUA\n")
    assert [r["word"] for r in results_from_source(enable, word_file=good)] == ["RETAINS", "QUA"]
    bad = tmp_path / "bad.txt"
    bad.write_text("RETAINS\nXYZZY\n")
    with pytest.raises(LexitrainError, match=re.escape(f"{bad}:2: 'XYZZY' is not in enable")):
        results_from_source(enable, word_file=bad)
    with pytest.raises(LexitrainError, match="exactly one"):
        results_from_source(enable, query="--length 2", builtin="twos")
    assert results_from_source(enable, query="--anagram QXZ") == []
    save_search("mine", "--anagram AEINRST")
    assert len(results_from_source(enable, saved="mine")) == 9


def test_counts_match_brute_force(enable, words):
    points = dict(zip(enable.tiles.letters, enable.tiles.points))
    fives = [w for w in words if len(w) == 5]
    got = words_of(run_search(enable, parse_query("--length 5 --vowels 4-")))
    assert got == sorted(w for w in fives if sum(c in "AEIOU" for c in w) >= 4)
    got = words_of(run_search(enable, parse_query("--length 5 --points 20-22")))
    assert got == sorted(w for w in fives if 20 <= sum(points[c] for c in w) <= 22)
    groups = Counter("".join(sorted(w)) for w in fives)
    got = words_of(run_search(enable, parse_query("--length 5 --anagrams 7-")))
    assert got == sorted(w for w in fives if groups["".join(sorted(w))] >= 7)
    got = words_of(run_search(enable, parse_query("--length 5 --includes SS --excludes E --suffix S")))
    assert got == sorted(w for w in fives if w.count("S") >= 2 and "E" not in w and w.endswith("S"))


def test_symbols_and_definitions(make_lexicon):
    make_lexicon(["CAT", "DOG"], name="old")
    lex = make_lexicon(["CAT a pet [n]", "DOG a pet that barks", "EMU a bird", "ZAX a tool"], name="new", compare={"old": "+"})
    assert words_of(run_search(lex, parse_query("--symbol +"))) == ["EMU", "ZAX"]
    assert words_of(run_search(lex, parse_query("--not-symbol +"))) == ["CAT", "DOG"]
    assert words_of(run_search(lex, parse_query("--definition PET"))) == ["CAT", "DOG"]
    assert words_of(run_search(lex, parse_query("--definition 'a pet' --not-anagram GOD"))) == ["CAT"]
    assert words_of(run_search(lex, parse_query("--definition 100%"))) == []
    assert words_of(run_search(lex, parse_query("--in-lexicon old"))) == ["CAT", "DOG"]
    [emu] = run_search(lex, Query(anagram="MEU"))
    assert (emu["symbols"], emu["definition"]) == ("+", "a bird")


ranges = st.tuples(st.integers(1, 30), st.integers(0, 30)).map(lambda t: (t[0], t[0] + t[1]))
texts = st.text(alphabet="AEQS?*[]^ '\"-", min_size=1, max_size=6).filter(lambda t: t.strip() == t)


def query_text(query: Query) -> str:
    """The query in `lexitrain search` syntax (what the round trip below parses back)."""
    defaults = Query()
    parts: list[str] = []
    for option, (name, kind) in [*_CONDITIONS.items(), *_SETTINGS.items()]:
        value = getattr(query, name)
        if option == "--build" or value == getattr(defaults, name):
            continue
        if kind == "flag":
            parts.append(option if value else f"--not-{option[2:]}")
            continue
        if query.is_negated(name):
            option = f"--not-{option[2:]}"
        if kind == "range":
            low, high = value
            text = str(low) if low == high else f"{low}-{'' if high == UNBOUNDED else high}"
        else:
            text = str(value)
        parts += [option, text]
    return shlex.join(parts)


@settings(max_examples=100, deadline=None)
@given(
    st.fixed_dictionaries(
        {},
        optional={
            "length": ranges, "probability": ranges, "points": ranges, "anagram": texts, "pattern": texts,
            "regex": texts, "suffix": texts, "front_hook": st.booleans(), "inner_back": st.booleans(),
            "order": st.sampled_from(["probability", "random", "length"]), "limit": st.integers(1, 99),
            "blanks": st.integers(0, 1), "probability_by": st.just("word"), "seed": st.integers(0, 9),
        },
    ),
    st.sets(st.sampled_from(["length", "pattern", "regex", "probability"])),
)
def test_query_text_round_trips(fields, negated):
    query = Query(**fields, negated=frozenset(n for n in negated if n in fields))
    assert parse_query(query_text(query)) == query


def test_scan_string_is_cached_in_the_lexicon_folder(enable):
    from lexitrain.search import corpus

    corpus._CACHE.clear()
    first = corpus.scan(enable, "Q[^U].*")
    assert (enable.folder / corpus.CACHE_FILE).is_file()
    corpus._CACHE.clear()
    assert corpus.scan(enable, "Q[^U].*") == first and "QAT" in first


def test_regex_prefix_suffix_match_brute_force(enable, words):
    assert words_of(run_search(enable, parse_query("--regex 'q[^u]'"))) == sorted(w for w in words if re.search("Q[^U]", w))
    got = words_of(run_search(enable, parse_query("--prefix OVER --suffix ING --length 9-")))
    assert got == sorted(w for w in words if w.startswith("OVER") and w.endswith("ING") and len(w) >= 9)
    assert parse_query("--build AB?") == parse_query("--subanagram AB?")


def test_a_damaged_word_cache_is_rebuilt_not_trusted(make_lexicon):
    """The regex-scan cache in the build folder is checked against the word count."""
    from lexitrain.search import corpus
    from tests.cli_runner import run

    lex = make_lexicon(["ABLE", "ABLER", "CABLE"], name="small")
    assert run("search", "--pattern", "AB*", "--lexicon", "small", "--words").stdout.split() == ["ABLE", "ABLER"]
    (lex.folder / corpus.CACHE_FILE).write_text("\nZZZZ\n", encoding="utf-8")
    corpus._CACHE.clear()  # as a fresh process would
    assert run("search", "--pattern", "AB*", "--lexicon", "small", "--words").stdout.split() == ["ABLE", "ABLER"]


@pytest.mark.parametrize("option", ["--length", "--vowels", "--points", "--anagrams"])
def test_a_huge_number_is_an_open_range_not_a_traceback(make_lexicon, option):
    from tests.cli_runner import run

    make_lexicon(["ABLE", "CABLE"], name="small")
    assert parse_range("99999999999999999999") == (10**9, 10**9)
    result = run("search", option, "99999999999999999999", "--lexicon", "small", "--json")
    assert (result.exit_code, result.json()) == (0, [])
    assert run("search", "--length", "4-99999999999999999999", "--lexicon", "small", "--words").stdout.split() == [
        "ABLE", "CABLE"]
