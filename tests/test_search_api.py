"""The search library against brute-force scans of ENABLE and small lists."""

from __future__ import annotations

import re
import tracemalloc
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexitrain.errors import LexitrainError
from lexitrain.lexicon import playability
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.lexicon.rows import OneOf
from lexitrain.search.execute import first_found, found_at_most, run_search
from lexitrain.search.lists import builtin_lists
from lexitrain.search.query import Condition, Query, parse_query, parse_range
from lexitrain.search.saved import delete_search, load_search, rename_search, save_search, saved_searches
from lexitrain.search.sources import read_word_file, results_from_source
from study_helpers import WORDS


def words_of(rows):
    return sorted(r["word"] for r in rows)


def spells(word: str, rack: str, exact: bool) -> bool:
    """Brute force: can the rack (with ? blanks) spell the word?"""
    have = Counter(rack.replace("?", ""))
    short = sum(max(0, n - have[c]) for c, n in Counter(word).items())
    if short > rack.count("?"):
        return False
    return len(word) == len(rack) if exact else len(word) >= 2


class RowsBuilt:
    """How many rows the lexicon has built (`Lexicon.each_row`) since it was last set to 0."""

    read = 0


@pytest.fixture
def rows_built(monkeypatch) -> RowsBuilt:
    """Every row the lexicon builds counted, for a test of how many a search reads."""
    built = RowsBuilt()
    each_row = Lexicon.each_row

    def counted(lex, *args):
        for row in each_row(lex, *args):
            built.read += 1
            yield row

    monkeypatch.setattr(Lexicon, "each_row", counted)
    return built


@pytest.fixture
def words(enable):
    return enable.words()


@pytest.mark.parametrize("rack", ["AEINRST", "AEINRS?", "QU?", "EINRST??", "ZZ?", "AAAAAAA"])
def test_anagram_matches_brute_force(enable, words, rack):
    expected = sorted(w for w in words if len(w) == len(rack) and spells(w, rack, True))
    assert words_of(run_search(enable, parse_query(["--anagram", rack]))) == expected


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
    assert words_of(run_search(enable, parse_query(["--pattern", pattern]))) == expected


def test_negated_pattern_and_combined_conditions(enable, words):
    got = run_search(enable, parse_query("--length 4 --starts-with QU --not-pattern *S --includes A"))
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
    [row] = [r for r in run_search(enable, parse_query("--anagram AEINRST")) if r["word"] == "RETAINS"]
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
    from lexitrain.lexicon.catalog import open_lexicon

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


@pytest.mark.parametrize("text", [
    "--length 4", "--length 2-3 --order probability --probability-by alphagram", "--length 8 --order playability",
    "--length 3-4 --order alphagram", "--pattern ??A?? --order length", "--length 5 --order random --seed 3",
    "--starts-with ZY --or --ends-with ZY --or --length 2", "--pattern ?A?E??S --limit-probability 1-40",
    "--length 6 --order points-per-game --limit 30", "--length 3 --limit-probability-lax 20-60",
    "--length 4 --limit-probability 30-900 --order random --seed 5"])
def test_the_first_rows_of_a_search_are_its_whole_answer_cut_and_it_counts_them_all(enable, text):
    """What a page of results shows (the first 25, the rest counted) is what the whole search gives, cut."""
    if "play" in text or "points" in text:
        played = {"QUACKERS": 3, "ZYZZYVAS": 1, "ABATTOIR": 2, "QUAKED": 9}
        playability.write(enable.folder, played, played, len, {"games": 1, "scored": "test figures"})
    query = parse_query(text)
    whole = run_search(enable, query)
    assert first_found(enable, query, 25) == (len(whole), whole[:25]) and len(whole) > 25
    assert first_found(enable, query, 0) == (len(whole), [])  # a count alone still reads every match


def test_a_limit_by_probability_past_the_whole_lexicon_holds_the_places_not_the_rows(enable):
    """Ranking every word of ENABLE by probability keeps a key per word, then reads the rows kept: a page of the
    first 500 peaks at the keys' memory (before: every row, 211 MB), the same rows and count as a limit-free search."""
    tracemalloc.start()
    try:
        count, rows = first_found(enable, parse_query("--limit-probability 1-999999"), 500)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert (count, rows) == first_found(enable, parse_query("--length 1-99"), 500) and count == 168_551
    assert peak < 64 << 20, f"{peak >> 20} MB"


def test_a_random_order_holds_the_rows_it_keeps_not_every_word(enable):
    """The first 50 of ENABLE in a random order are found holding 50 rows (before: every word, shuffled, 12.6 MB);
    a seed gives the same 50 each time, another seed others, no seed a fresh draw each time."""
    query = parse_query("--order random --seed 7")
    tracemalloc.start()
    try:
        count, rows = first_found(enable, query, 50)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert count == 168_551 and len(rows) == 50 and peak < 2 << 20, f"{peak >> 10} KB"
    assert rows == first_found(enable, query, 50)[1] == run_search(enable, query)[:50]
    assert words_of(rows) != words_of(first_found(enable, parse_query("--order random --seed 8"), 50)[1])
    unseeded = parse_query("--order random")
    assert words_of(first_found(enable, unseeded, 50)[1]) != words_of(first_found(enable, unseeded, 50)[1])


def test_a_random_order_draws_every_word_alike(make_lexicon):
    """Over 2,000 seeds, each of ten words comes first about as often as any other, and is among the first three
    about 3 times in 10 (chi-squared under 27.9, p = 0.001 with 9 degrees of freedom): a uniform draw."""
    words = ["AB", "AD", "AE", "AG", "AH", "AI", "AL", "AM", "AN", "AR"]
    lex = make_lexicon(words, name="tens")
    firsts: Counter[str] = Counter()
    drawn: Counter[str] = Counter()
    for seed in range(2000):
        rows = first_found(lex, parse_query(f"--order random --seed {seed}"), 3)[1]
        firsts[rows[0]["word"]] += 1
        drawn.update(words_of(rows))

    def chi_squared(counts: Counter[str], expected: float) -> float:
        return sum((counts[w] - expected) ** 2 / expected for w in words)

    assert chi_squared(firsts, 200) < 27.9 and chi_squared(drawn, 600) < 27.9, (firsts, drawn)


@pytest.mark.parametrize("text, most, rows_read", [
    ("--limit 18446744073709551616", 5000, 0), ("--length 7", 5000, 0),
    ("--limit-probability 101-99999", 5000, 5101), ("--limit-probability-lax 101-99999", 5000, 5101)])
def test_a_search_past_the_cap_is_told_reading_the_cap_and_one_more_row(enable, rows_built, text, most, rows_read):
    """A club's cap (a wall or sheet of at most MOST words) refuses a search giving more from MOST + 1 of its
    matches, up to its first place for a limit by probability (before: every match read to count it, the whole
    lexicon's 168,551 rows, 0.85 s of CPU per refused request)."""
    assert found_at_most(enable, parse_query(text), most) is None
    assert rows_built.read == rows_read


@pytest.mark.parametrize("text", ["--pattern *", "--includes E", "--pattern ?A* --or --starts-with Q"])
def test_a_spelling_search_past_the_cap_is_told_reading_no_row(enable, rows_built, text):
    """The words a pattern or a test on the spelling lists are counted as they are: a search giving more than the
    cap reads no row (the cap and one more were read, 5,001 rows, to refuse a wall or fill a club's page)."""
    assert found_at_most(enable, parse_query(text), 5000) is None
    assert rows_built.read == 0


@pytest.mark.parametrize("text", [
    "--pattern ?A*", "--pattern *", "--anagram AEINRST*", "--pattern ?A* --length 8", "--pattern * --length 8",
    "--includes Q --or --pattern ?Z*", "--pattern ?A* --or --length 8", "--includes E --probability 1-500",
    "--probability 1-500 --not-pattern ?A*", "--pattern ?A* --limit-probability 1-1000",
    "--length 8 --limit-probability 1-1000"])
@pytest.mark.parametrize("order", [
    "alphabetical", "alphagram", "length", "probability", "random --seed 1", "playability", "points-per-game"])
def test_a_club_spelling_search_reads_only_the_rows_its_page_shows(enable, rows_built, text, order):
    """A search with spelling conditions at most 100 (the club's page of 500, under its cap of 5,000) reads the
    100 rows it shows: its words are counted as text, the first in its order picked from them (where they are
    many, the tables' words read in that order until 100 are among them). Before, the rows of every match were
    built and sorted for the page's 100: 25,000 for `--pattern ?A*`, 168,551 for `--pattern *` (1.2 s of CPU
    a request; by playability or points per game, with a spelling condition or without); an OR group of stored
    conditions alone, or a test beside stored conditions, read its matches' rows too; a limit by probability,
    every match's row twice; every word (of a length) in a random order, every row one at a time."""
    count, rows = found_at_most(enable, parse_query(f"{text} --order {order} --limit 100"), 5000, 500)
    assert (count, len(rows), rows_built.read) == (100, 100, 100)


@pytest.mark.parametrize("text", ["--pattern ?A* --or --length 8", "--probability 1-500 --not-pattern ?A*"])
def test_a_search_lists_the_words_of_its_spelling_conditions_once(enable, monkeypatch, text):
    """A pattern's words are listed once: beside an OR group of stored conditions alone, or turned round beside
    stored conditions, they were listed, given up on, and listed again to test every match's row."""
    from lexitrain.search import execute

    listed = []
    each_listed = execute._listed

    def counted(lex, condition):
        listed.append(condition.name)
        return each_listed(lex, condition)

    monkeypatch.setattr(execute, "_listed", counted)
    count, rows = found_at_most(enable, parse_query(f"{text} --limit 100"), 5000, 500)
    assert (count, len(rows), listed) == (100, 100, ["pattern"])


def test_a_lax_limit_by_probability_reads_the_rows_its_page_shows_and_its_edges_ties(enable, rows_built, monkeypatch):
    """The lax limit finds the ties at its two ends by bisecting its words in their places, a row read at each step
    (some 17 a side for 25,000 words): before, every match's row was built twice (50,000 for `--pattern ?A*`)."""
    row = Lexicon.row

    def counted(lex, word):
        rows_built.read += 1
        return row(lex, word)

    monkeypatch.setattr(Lexicon, "row", counted)
    count, rows = found_at_most(enable, parse_query("--pattern ?A* --limit-probability-lax 1-1000 --limit 100"), 5000)
    assert (count, len(rows)) == (100, 100) and rows_built.read <= 100 + 2 * 17


def test_a_spelling_search_is_counted_whole_reading_the_rows_its_page_shows(enable, rows_built):
    """Without a limit, the page's 500 rows read and every match counted: the words whose second letter is A."""
    count, rows = first_found(enable, parse_query("--pattern ?A* --order probability"), 500)
    assert count == sum(1 for word in enable.words() if word[1] == "A") and len(rows) == rows_built.read == 500
    assert [row["word"] for row in rows[:3]] == ["NA", "TA", "LA"]


@pytest.mark.parametrize("text", [
    "--pattern Q* --or --pattern ?Z*", "--includes Q --not-includes U", "--pattern *ZZ* --length 4-8",
    "--length 7 --limit 5000", "--length 2-3 --order probability", "--limit-probability 1-5000",
    "--limit-probability-lax 2-5", "--length 7 --limit-probability 1-5001 --limit 4999", "--length 3 --order random --seed 4",
    "--length 15 --limit-probability 1-99999"])
def test_a_search_within_the_cap_gives_its_whole_answer(enable, text):
    query = parse_query(text)
    whole = run_search(enable, query)
    assert found_at_most(enable, query, 5000) == (len(whole), whole)


def found(lex, *args: str) -> list[str]:
    return words_of(run_search(lex, parse_query(list(args))))


def test_multi_letter_tiles(make_lexicon):
    lex = make_lexicon(["CHICO", "CHILE", "LECHE", "CALLE", "LLAMA", "CERRO", "CORRO", "CHURRO", "CHE"], name="es", tiles="spanish")
    assert found(lex, "--anagram", "OCIHC") == []  # C, H: two tiles
    assert found(lex, "--anagram", "OCICH") == ["CHICO"]  # plain text reads CH as the CH tile
    assert found(lex, "--anagram", "OCI(C)H") == []  # (C) forces single tiles: C+H is not the CH tile
    assert found(lex, "--anagram", "(CH)ICO") == ["CHICO"] == found(lex, "--anagram", "[CH]ICO")  # a choice of one
    assert found(lex, "--anagram", "(CH)?ICO") == []
    assert found(lex, "--anagram", "CHIC?") == ["CHICO"]
    assert found(lex, "--pattern", "?E?E") == ["LECHE"]  # L-E-CH-E: four tiles
    assert found(lex, "--pattern", "*(RR)?") == ["CERRO", "CHURRO", "CORRO"] == found(lex, "--pattern", "*RR?")
    assert found(lex, "--pattern", "[(CH)(LL)]*") == ["CHE", "CHICO", "CHILE", "CHURRO", "LLAMA"]
    assert found(lex, "--pattern", "[^(CH)(LL)]*") == ["CALLE", "CERRO", "CORRO", "LECHE"]
    assert found(lex, "--anagram", "*(LL)") == ["CALLE", "LLAMA"]
    assert found(lex, "--anagram", "[(CH)(LL)]EI?") == ["CHILE"]  # CH-I-L-E: four tiles
    assert found(lex, "--includes", "(RR)O") == ["CERRO", "CHURRO", "CORRO"]
    # tiles, not characters: CH-U-RR-O has four
    assert found(lex, "--length", "2") == ["CHE"]
    assert len(run_search(lex, parse_query("--length 4"))) == 8
    assert found(lex, "--subanagram", "CHE??") == ["CHE", "CHILE", "LECHE"]
    assert found(lex, "--subanagram", "(CH)E[IL][IL]") == ["CHE", "CHILE"]


def test_catalan_tiles(make_lexicon):
    lex = make_lexicon(["COL·LA", "PAL·LI", "ANY", "ANYS", "QUE", "QUES", "ALA"], name="ca", tiles="catalan")
    assert found(lex, "--anagram", "CO(L·L)A") == ["COL·LA"] == found(lex, "--anagram", "COL·LA")
    assert found(lex, "--pattern", "*(L·L)?") == ["COL·LA", "PAL·LI"]
    assert found(lex, "--pattern", "?[(NY)(QU)]*") == ["ANY", "ANYS"]
    assert found(lex, "--anagram", "*(QU)") == ["QUE", "QUES"]
    assert found(lex, "--length", "2") == ["ANY", "QUE"]
    assert found(lex, "--takes-suffix", "S") == ["ANY", "QUE"]
    assert found(lex, "--unique-letters", "2") == ["ALA", "ANY", "QUE"]


def test_query_parser_reads_cli_syntax():
    q = parse_query("--length 7-8 --not-pattern '*S' --probability=1-500 --probability-by word --order probability "
                    "--limit 10 --front-hook --not-back-hook --front-hook S")
    assert q.groups == ((Condition("length", (7, 8)), Condition("pattern", "*S", negate=True),
                         Condition("probability", (1, 500)), Condition("front-hook", True),
                         Condition("back-hook", True, negate=True), Condition("front-hook", "S")),)
    assert q.probability_by == "word" and q.order == "probability" and q.limit == 10
    assert q.given == {"probability-by", "order", "limit"}
    assert parse_query(["--length", "7"]) == Query(groups=((Condition("length", (7, 7)),),))
    assert parse_range("20-", "--points") == (20, 10**9) and parse_range("-5") == (0, 5)
    assert parse_query("--build AB?") == parse_query("--subanagram AB?")
    either = parse_query("--length 2 --or --length 3 --starts-with Q --limit 5")
    assert [len(group) for group in either.groups] == [1, 2] and either.limit == 5


def test_narrowing_ands_every_group_and_the_later_settings_win():
    saved = parse_query("--length 7 --or --length 8 --order probability --limit 9")
    narrowed = saved.narrowed(parse_query("--starts-with Q --order random"))
    assert narrowed.groups == ((Condition("length", (7, 7)), Condition("starts-with", "Q")),
                               (Condition("length", (8, 8)), Condition("starts-with", "Q")))
    assert (narrowed.order, narrowed.limit) == ("random", 9)
    both = parse_query("--length 2 --or --length 3").narrowed(parse_query("--includes Q --or --includes Z"))
    assert len(both.groups) == 4
    assert parse_query(narrowed.text()) == narrowed


@pytest.mark.parametrize(
    "text, message",
    [
        ("--colour red", "unknown search condition"),
        ("--length", "--length needs a value"),
        ("--length seven", "expected a number"),
        ("--length 8-7", "empty"),
        ("--order sideways", "expected one of"),
        ("--order length --order random", "given twice"),
        ("--pattern 'AB", "No closing quotation"),
        ("--blanks 3", "0, 1 or 2"),
        ("--inner-front=yes", "takes no value"),
        ("--prefix RE", "--prefix is gone: --starts-with S finds words that start with S; --takes-prefix S"),
        ("--not-suffix=S", "--suffix is gone: --ends-with S"),
        ("--or --length 2", "--or joins two groups"),
        ("--length 2 --or", "--or joins two groups"),
        ("--group sevens", "expected one of type1-sevens"),
        ("--part-of-speech gerund", "expected one of adj (adjective)"),
        ("--consists-of AEIOU:50-120", "a percentage"),
        ("--not-order random", "unknown search condition"),
        ("--probability 0-5", "ranks start at 1"),
    ],
)
def test_bad_conditions_are_one_clear_line(text, message):
    with pytest.raises(LexitrainError, match=re.escape(message)) as err:
        parse_query(text)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--anagram", "A[B"], "'[' is never closed"),
        (["--pattern", "A1?"], "'1' is not a tile"),
        (["--pattern", "A[BC"], "never closed"),
        (["--pattern", "(QU)A"], "'(QU)' is not a tile of the english set"),
        (["--starts-with", "R?"], "'?' is a blank, not a letter"),
        (["--takes-suffix", "S*"], "'*' has no meaning here"),
        (["--in-lexicon", "nosuch"], "unknown lexicon 'nosuch'"),
        (["--regex", "(["], "--regex"),
        (["--in-word-list", "/no/such/file.txt"], "no such file"),
    ],
)
def test_bad_values_are_clear_errors(enable, args, message):
    with pytest.raises(LexitrainError, match=re.escape(message)) as err:
        run_search(enable, parse_query(args))
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("by, most", [("alphagram", 73), ("word", 96)])
def test_a_probability_range_past_the_end_gives_what_there_is_and_says_so(enable, by, most):
    from lexitrain.search.execute import search_notes

    query = parse_query(f"--length 2 --probability 1-500 --probability-by {by}")
    assert len(run_search(enable, query)) == 96
    assert search_notes(enable, query) == [
        f"--probability 1-500: enable has only {most} {by}s of length 2; the range stops there"]
    assert search_notes(enable, parse_query("--length 2 --probability 1-50")) == []
    assert search_notes(enable, parse_query("--length 2-3 --probability 900-1000")) == [
        "--probability 900-1000: enable has 711 alphagrams at most of any length asked for; the range stops there"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet="-0123456789aA=? ", max_size=6), max_size=4))
def test_parser_never_fails_with_anything_but_a_clear_error(tokens):
    try:
        parse_query(["--length", *tokens])
    except LexitrainError as exc:
        assert str(exc) and "\n" not in str(exc)


def test_saved_searches_round_trip(home):
    assert saved_searches() == {}
    save_search("sevens", "--length 7 --probability 1-100")
    save_search("twos", "--length 2")
    assert saved_searches() == {"sevens": "--length 7 --probability 1-100", "twos": "--length 2"}
    assert load_search("sevens") == "--length 7 --probability 1-100"
    assert (home / "searches.json").is_file()
    with pytest.raises(LexitrainError, match="no saved search 'nope'"):
        load_search("nope")
    with pytest.raises(LexitrainError, match="search name"):
        save_search("../evil", "--length 2")


def test_saving_never_silently_replaces_and_searches_rename_and_delete(home):
    save_search("mine", "--length 2")
    with pytest.raises(LexitrainError, match="a search named 'mine' is already saved .*--replace"):
        save_search("mine", "--length 3")
    assert load_search("mine") == "--length 2"
    save_search("mine", "--length 3", replace=True)
    save_search("other", "--length 4")
    with pytest.raises(LexitrainError, match="'other' is already saved"):
        rename_search("mine", "other")
    rename_search("mine", "threes")
    assert saved_searches() == {"other": "--length 4", "threes": "--length 3"}
    delete_search("other")
    assert list(saved_searches()) == ["threes"]
    with pytest.raises(LexitrainError, match="no saved search 'other'"):
        delete_search("other")


def test_searches_saved_with_the_old_prefix_suffix_keep_their_meaning(home):
    import json

    (home / "searches.json").write_text(json.dumps({"re": "--prefix RE --not-suffix=S --length 5"}))
    assert load_search("re") == "--starts-with RE --not-ends-with=S --length 5"
    assert json.loads((home / "searches.json").read_text()) == {"re": "--starts-with RE --not-ends-with=S --length 5"}


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
    bad.write_text("RETAINS\nXYZZY\nqi\n")
    with pytest.raises(LexitrainError, match=re.escape(f"{bad}:2: 'XYZZY' is not in enable; {bad}:3: 'QI'")):
        results_from_source(enable, word_file=bad)
    with pytest.raises(LexitrainError, match="exactly one"):
        results_from_source(enable, query="--length 2", builtin="twos")
    with pytest.raises(LexitrainError, match="exactly one"):
        results_from_source(enable)
    assert results_from_source(enable, query="--anagram QXZ") == []
    save_search("mine", "--anagram AEINRST")
    assert len(results_from_source(enable, saved="mine")) == 9


def test_skip_invalid_leaves_out_and_reports_the_words_not_in_the_lexicon(enable, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("RETAINS\nXYZZY\nqi\nQAT\n")
    told: list[list[str]] = []
    rows = results_from_source(enable, word_file=bad, skipped=told.append)
    assert [r["word"] for r in rows] == ["RETAINS", "QAT"]
    assert told == [[f"{bad}:2: 'XYZZY' is not in enable", f"{bad}:3: 'QI' is not in enable"]]
    assert read_word_file(enable, bad, skip_invalid=True).words == ["RETAINS", "QAT"]
    binary = tmp_path / "list.bin"
    binary.write_bytes(b"RETAINS\n\x00\x01\xff\xfe")
    with pytest.raises(LexitrainError, match=re.escape(f"{binary}: binary data, not a word list")) as err:
        read_word_file(enable, binary, skip_invalid=True)
    assert "\n" not in str(err.value)


def test_conditions_typed_on_a_command_are_a_source_or_narrow_one(enable, tmp_path):
    from lexitrain.search.sources import source_blanks

    alone = results_from_source(enable, conditions=["--length", "7", "--probability", "1-100"])
    assert len({r["alphagram"] for r in alone}) == 100
    narrowed = results_from_source(enable, builtin="top-sevens", conditions=["--starts-with", "R"])
    assert narrowed and all(r["word"].startswith("R") and r["alphagram_rank"] <= 500 for r in narrowed)
    save_search("twos", "--length 2")
    assert words_of(results_from_source(enable, saved="twos", conditions="--includes Y --starts-with O")) == ["OY"]
    assert {r["word"] for r in results_from_source(enable, query="--length 2", conditions=["--includes", "X"])} == {
        "AX", "EX", "OX", "XI", "XU"}
    assert source_blanks(builtin="top-sevens", conditions=["--blanks", "0"]) == 0
    words = tmp_path / "w.txt"
    words.write_text("QAT\n")
    with pytest.raises(LexitrainError, match="--in-word-list"):
        results_from_source(enable, word_file=words, conditions=["--length", "3"])


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
    got = words_of(run_search(enable, parse_query("--length 5 --includes SS --excludes E --ends-with S")))
    assert got == sorted(w for w in fives if w.count("S") >= 2 and "E" not in w and w.endswith("S"))


def test_symbols_and_definitions(make_lexicon):
    make_lexicon(["CAT", "DOG"], name="old")
    lex = make_lexicon(["CAT a pet [n]", "DOG a pet that barks", "EMU a bird", "ZAX a tool"], name="new", compare={"old": "+"})
    assert words_of(run_search(lex, parse_query("--symbol +"))) == ["EMU", "ZAX"]
    assert words_of(run_search(lex, parse_query("--not-symbol +"))) == ["CAT", "DOG"]
    assert words_of(run_search(lex, parse_query("--definition PET"))) == ["CAT", "DOG"]
    assert words_of(run_search(lex, parse_query("--definition 'a pet' --not-anagram GOD"))) == ["CAT"]
    assert words_of(run_search(lex, parse_query("--definition barking"))) == []  # BARKS does not begin BARKING
    assert words_of(run_search(lex, parse_query("--definition bark"))) == ["DOG"]  # a word's beginning is enough
    assert words_of(run_search(lex, parse_query("--in-lexicon old"))) == ["CAT", "DOG"]
    [emu] = run_search(lex, parse_query("--anagram MEU"))
    assert (emu["symbols"], emu["definition"]) == ("+", "a bird")


ranges = st.tuples(st.integers(1, 30), st.integers(0, 30)).map(lambda t: (t[0], t[0] + t[1]))
texts = st.text(alphabet="AEQS?*[]^ '\"-", min_size=1, max_size=6).filter(lambda t: t.strip() == t)
conditions = st.one_of(
    st.builds(Condition, st.sampled_from(["length", "probability", "points", "unique-letters"]), ranges, st.booleans()),
    st.builds(Condition, st.sampled_from(["anagram", "pattern", "regex", "ends-with", "front-hook"]), texts,
              st.booleans()),
    st.builds(Condition, st.just("back-hook"), st.text(alphabet="SD-=", min_size=1, max_size=3), st.booleans()),
    st.builds(Condition, st.sampled_from(["inner-back", "front-hook"]), st.just(True), st.booleans()),
    st.builds(Condition, st.just("consists-of"), st.tuples(texts, ranges), st.booleans()),
)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.lists(conditions, min_size=1, max_size=4).map(tuple), max_size=3).map(tuple),
    st.fixed_dictionaries({}, optional={
        "order": st.sampled_from(["probability", "random", "length"]), "limit": st.integers(1, 99),
        "blanks": st.integers(0, 1), "probability_by": st.just("word"), "seed": st.integers(0, 9),
        "limit_probability": ranges}),
    st.booleans(),
)
def test_query_text_round_trips(groups, settings_given, lax):
    names = {"probability_by": "probability-by", "limit_probability": "limit-probability"}
    query = Query(groups=groups, **settings_given, limit_lax=lax and "limit_probability" in settings_given,
                  given=frozenset(names.get(k, k) for k in settings_given))
    assert parse_query(query.text()) == query


def test_scan_string_is_cached_in_the_lexicon_folder(enable):
    from lexitrain.search import corpus

    corpus._CACHE.clear()
    first = corpus.scan(enable, "Q[^U].*")
    assert (enable.folder / corpus.CACHE_FILE).is_file()
    corpus._CACHE.clear()
    assert corpus.scan(enable, "Q[^U].*") == first and "QAT" in first


def test_regex_starts_and_ends_with_match_brute_force(enable, words):
    assert words_of(run_search(enable, parse_query("--regex 'q[^u]'"))) == sorted(w for w in words if re.search("Q[^U]", w))
    got = words_of(run_search(enable, parse_query("--starts-with OVER --ends-with ING --length 9-")))
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


def test_a_query_described_in_words_for_a_title() -> None:
    """A sheet is titled with what it holds, not with the options typed (`--length 7 --probability 1-20`)."""
    from lexitrain.search.query import described, parse_query

    def words(text: str) -> str:
        return described(parse_query(text))

    assert words("--length 7 --probability 1-20") == "7-letter words, probability 1-20"
    assert words("--length 7-8 --not-includes Q --front-hook") == "words of 7 to 8 letters, without Q, with front hooks"
    assert words("--length 10- --or --anagram RETAINS?") == "words of 10 or more letters or anagrams of RETAINS?"
    assert words("--consists-of AEIOU:50-100 --part-of-speech n --not-points -20") == \
        "50-100% of AEIOU, nouns, not up to 20 points"
    assert words("--consists-of AEINRST") == "only AEINRST"


def test_a_search_described_with_its_order_and_limit() -> None:
    """The search page says what it found in words, the order and limit included, not as options typed."""
    from lexitrain.search.query import described_search, parse_query

    assert described_search(parse_query("--length 7-8 --order probability")) == "words of 7 to 8 letters, by probability"
    assert described_search(parse_query("--length 7 --limit 5")) == "7-letter words, at most 5"
    assert described_search(parse_query("--length 7 --order alphabetical")) == "7-letter words"


#: Searches the lexicon's tables answer themselves (`_stored_alone`): counted, read in order, or picked at random from
#: their words read one at a time.
STORE_RANKED = ["--probability 1-5", "--probability 2-4 --order probability", "--length 3 --order alphagram",
                "--probability 1-3 --probability-by word --order probability", "--length 2-3 --order length",
                "--probability-lax 1-2 --order probability", "--front-hook --order probability --blanks 0",
                "--not-length 3 --order alphagram", "--order probability", "", "--probability 1-9 --order playability",
                "--length 2-3 --order points-per-game", "--front-hook --order playability", "--order points-per-game",
                "--length 2-3 --order playability", "--probability 1-9 --not-length 2 --order playability",
                "--length 3 --order random --seed 2", "--probability 1-9 --order random --seed 5", "--order random --seed 1"]
#: Searches whose words spelling conditions list, picked before their rows are read (`_found_words`), in every
#: order it picks by: a pattern of many words and of few, anagrams, tests on every word's spelling, stored
#: conditions beside them (lengths on the words, others read from the smaller side), two groups; many words whose
#: first in the order come late (`[^A]*`, twos without A or E: the tables' words read in order give up); groups of
#: stored conditions beside others, tests beside stored conditions (their words read as text and tested).
SPELLED = [f"{text} --order {order}" for text in (
    "--pattern ?A*", "--pattern ??", "--anagram AEINRST", "--subanagram AEINST?", "--includes E --not-includes S",
    "--pattern *A* --length 3-7", "--pattern ?* --probability 1-40 --front-hook", "--pattern *S --not-length 2",
    "--pattern ?A --not-front-hook", "--pattern [^A]*", "--excludes A", "--pattern ?? --excludes AE", "--starts-with A --or --ends-with S",
    "--pattern ?A* --or --length 3", "--probability 1-5 --or --pattern *T", "--includes E --probability 1-40",
    "--probability 1-40 --not-pattern ?A*", "--length 2 --or --front-hook --probability 1-9") for order in (
    "alphabetical", "alphagram", "length", "probability", "probability --probability-by word --blanks 1",
    "random --seed 3", "playability", "points-per-game")]
#: Searches limited by probability whose kept words are picked before their rows are read (`_placed_words`):
#: spelling conditions, stored ones alone, two groups, places past the matches, blanks counted otherwise; the lax
#: limit's ties at both ends.
PLACED = [f"{text} --order {order}" for text in (
    "--pattern ?A* --limit-probability 2-30", "--length 3 --limit-probability 5-40", "--limit-probability 1-9999",
    "--probability 1-50 --or --pattern *S --limit-probability 1-20", "--includes E --limit-probability 3-12 --blanks 0",
    "--anagram AEINRST --limit-probability 1-1", "--pattern ?A* --limit-probability-lax 2-30",
    "--length 3 --limit-probability-lax 5-40", "--includes E --limit-probability-lax 3-12 --blanks 0",
    "--limit-probability-lax 1-9999", "--pattern ?? --limit-probability-lax 40-9999") for order in (
    "alphabetical", "alphagram", "length", "probability", "random --seed 3", "playability", "points-per-game")]


@pytest.mark.parametrize("text", STORE_RANKED + SPELLED + PLACED)
def test_a_search_the_tables_rank_gives_what_reading_every_match_gives(make_lexicon, text):
    """Counted and read in order by the lexicon (a club's probability 1-500 at most 100 read and sorted 9,092 rows
    for the page's 100; nothing asked read all 168,551), or counted as words and the page's picked from them (a
    club's `--pattern ?A*` at most 100 read and sorted the rows of its 25,000 matches), the same count and rows,
    in the same order, as every match read and sorted here, whatever the limit and the rows asked for."""
    from lexitrain.search import execute

    lex = make_lexicon(sorted(WORDS))
    played = [word for i, word in enumerate(sorted(WORDS)) if i % 3]  # (points tied, and none: as if never played)
    plays, points = {word: 1 + i % 4 for i, word in enumerate(played)}, {word: 10 * (i % 5) for i, word in enumerate(played)}
    playability.write(lex.folder, plays, points, len, {"games": 7, "scored": "test figures"})
    for limit in (None, 1, 4, 1000):
        query = parse_query(f"{text} --limit {limit}" if limit else text)
        if text in STORE_RANKED:
            assert execute._stored_alone(lex, query) is not None
        elif text in PLACED:
            assert execute._placed_words(lex, query) is not None
        else:
            assert execute._found_words(lex, query) is not None
        matches = execute._matches(lex, query) if text not in PLACED else execute._limit_by_probability(lex, query)
        every = sorted(matches, key=execute.order_key(lex, query))[:limit]
        for first in (None, 0, 3):
            wanted = len(every) if first is None else first
            assert first_found(lex, query, first) == (len(every), every[:wanted]), (limit, first)
            assert found_at_most(lex, query, len(every), first) == (len(every), every[:wanted]), (limit, first)
            if every:
                assert found_at_most(lex, query, len(every) - 1, first) is None


def test_a_club_search_by_probability_reads_only_the_rows_its_page_shows(enable, rows_built):
    """Probability 1-500 with no length, at most 100 (the club's page, under its cap of 5,000): the lexicon counts
    the matches and builds the page's 100 rows, by playability or points per game too. Before, every match was
    built and sorted (9,092 rows; 168,551 for a search of the whole lexicon, 1.2 s of CPU a request, 0.9 s by
    playability)."""
    for text in ("--probability 1-500 --limit 100", "--limit 100", "--probability 1-500 --order probability",
                 "--probability 1-500 --order playability", "--probability 1-500 --order points-per-game",
                 "--pattern * --order playability --limit 100", "--pattern * --order points-per-game --limit 100"):
        count, rows = found_at_most(enable, parse_query(text), 5000 if "limit" in text else 10_000, 100)
        assert len(rows) == 100 and rows_built.read == 100 and count == (100 if "limit" in text else 9_092), (text, count)
        rows_built.read = 0
