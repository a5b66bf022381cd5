"""The word-tool commands as a user runs them: judge, anagram, hooks, search."""

from __future__ import annotations

import csv
import io
import re
from collections import Counter

import pytest

from tests.cli_runner import run

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def test_judge_json_and_exit_status(enable):
    ok = run("judge", "retains", "QUA", "--json")
    assert (ok.exit_code, ok.json()) == (0, {"RETAINS": True, "QUA": True})
    bad = run("judge", "RETAINS", "QI", "--json")
    assert (bad.exit_code, bad.json()) == (1, {"RETAINS": True, "QI": False})  # QI is not in ENABLE
    secret = run("judge", "RETAINS", "QI", "--secret")
    assert secret.exit_code == 1
    assert "NOT valid" in secret.stdout and "QI" not in secret.stdout
    assert run("judge", "RETAINS", "QI", "--secret", "--json").json() == {"valid": False}
    assert run("judge", "QI", "--lexicon", "cel", "--json").json() == {"QI": True}
    pasted = run("judge", " retains ", "--json")  # spaces around a pasted word are not part of it
    assert (pasted.exit_code, pasted.json()) == (0, {"RETAINS": True})


def test_anagram_json_and_blanks_lowercase(enable):
    result = run("anagram", "AEINRST", "--json")
    assert result.exit_code == 0
    assert result.json() == ["ANESTRI", "ANTSIER", "NASTIER", "RATINES", "RETAINS", "RETINAS", "RETSINA", "STAINER", "STEARIN"]
    assert run("anagram", "QAT?").stdout.split() == ["QATs"]
    lines = run("anagram", "AEINST?").stdout.split()
    assert len(lines) == len({w.upper() for w in lines}) > 40
    for line in lines:  # exactly one lowercase letter, the blank; the rest is the rack
        [blank] = [c for c in line if c.islower()]
        assert Counter(line.upper()) == Counter("AEINST" + blank.upper())
        assert line.upper() in enable
    assert run("anagram", "QAT?", "--json").json() == ["QATs"]  # DESIGN.md: a letter played by a blank is lowercase
    assert run("anagram", "AEINST?", "--json").json() == lines


def test_anagram_build_lists_every_word_from_the_rack(enable):
    got = run("anagram", "TOAD", "--build", "--json").json()
    words = [w for w in enable.words() if len(w) <= 4 and not Counter(w) - Counter("TOAD")]
    assert sorted(got) == sorted(words)
    assert [len(w) for w in got] == sorted((len(w) for w in got), reverse=True)


def test_hooks_match_the_word_list(enable):
    valid = set(enable.words())
    by_alphagram: dict[str, list[str]] = {}
    for w in valid:
        by_alphagram.setdefault("".join(sorted(w)), []).append(w)
    for word in ("CARE", "AT", "QUA", "RETAIN", "XYZ"):
        data = run("hooks", word, "--json").json()
        assert data["front_hooks"] == "".join(c for c in ALPHABET if c + word in valid)
        assert data["back_hooks"] == "".join(c for c in ALPHABET if word + c in valid)
        assert data["inner_front"] == (word[1:] in valid) and data["inner_back"] == (word[:-1] in valid)
        assert data["valid"] == (word in valid)
        for tile, stems in data["stems"].items():
            assert sorted(stems) == sorted(by_alphagram["".join(sorted(word + tile))])
        made = {t for t in ALPHABET if "".join(sorted(word + t)) in by_alphagram}
        assert set(data["stems"]) == made


def test_hooks_extensions(enable):
    valid = enable.words()
    ext = run("hooks", "ZOO", "--extensions", "--json").json()["extensions"]
    assert ext["back"] == [w for w in valid if w.startswith("ZOO") and w != "ZOO"]
    assert ext["front"] == [w for w in valid if w.endswith("ZOO") and w != "ZOO"]
    assert ext["both"] == [w for w in valid if "ZOO" in w[1:-1]]
    text = run("hooks", "CARE").stdout
    assert "S ·CARE· DRSTX" in text and "+S  ACRES CARES" in text


def test_search_json_contract(enable):
    result = run("search", "--length", "7", "--probability", "1-3", "--order", "probability", "--json")
    assert result.exit_code == 0
    rows = result.json()
    assert rows and [r["alphagram_rank"] for r in rows] == sorted(r["alphagram_rank"] for r in rows)
    needed = {"word", "alphagram", "length", "combinations", "probability_rank", "alphagram_rank",
              "front_hooks", "back_hooks", "inner_front", "inner_back"}
    assert all(needed <= r.keys() for r in rows)
    assert all(isinstance(r["inner_front"], bool) and len(r["combinations"]) == 3 for r in rows)


def test_search_words_csv_and_table(enable):
    words = run("search", "--pattern", "?A?E??S", "--limit", "5", "--words").stdout.split()
    assert words == [w for w in enable.words() if re.fullmatch(".A.E..S", w)][:5]
    table = run("search", "--anagram", "AEINRST", "--order", "alphagram").stdout
    assert table.count("AEINRST") == 1 and "RETAINS" in table and "9 words" in table
    rows = list(csv.DictReader(io.StringIO(run("search", "--length", "2", "--limit", "3", "--csv").stdout)))
    assert [r["word"] for r in rows] == ["AA", "AB", "AD"] and rows[0]["back_hooks"] == "HLS"


def test_saved_and_builtin_searches(enable):
    first = run("search", "--length", "7", "--probability", "1-20", "--save", "top20", "--words")
    assert first.exit_code == 0
    again = run("search", "--load", "top20", "--words")
    assert again.stdout == first.stdout
    narrowed = run("search", "--load", "top20", "--ends-with", "S", "--words").stdout.split()
    assert narrowed and all(w.endswith("S") for w in narrowed) and set(narrowed) < set(first.stdout.split())
    twos = run("search", "--list", "twos", "--words").stdout.split()
    assert len(twos) == 96


@pytest.mark.parametrize(
    "args, message",
    [
        (("anagram", ""), "empty rack"),
        (("anagram", "AB1"), "'1' is not a tile"),
        (("anagram", "AB", "--lexicon", "nosuch"), "unknown lexicon 'nosuch'"),
        (("search", "--pattern", "A#?"), "'#' is not a tile"),
        (("search", "--prefix", "RE"), "--prefix is gone: --starts-with S finds words that start with S"),
        (("search", "--length", "2", "--save", "x", "--replace", "--or"), "--or joins two groups"),
        (("search", "--length", "2", "--lexicon", "nosuch"), "unknown lexicon 'nosuch'"),
        (("search", "--wibble"), "unknown search condition '--wibble'"),
        (("search",), "give at least one condition"),
        (("search", "--load", "never"), "no saved search 'never'"),
        (("search", "--list", "nolist"), "no built-in list 'nolist'"),
        (("search", "--length", "2", "--json", "--csv"), "choose one of"),
        (("hooks", "C4T"), "'4' is not a tile"),
        (("judge", "CAT", "--lexicon", "nosuch"), "unknown lexicon 'nosuch'"),
        (("judge", ""), "error: empty word"),
        (("judge", "   ", "--json"), "error: empty word"),
        (("judge", "QAT", " ", "--json"), "error: empty word (word 2 of 2)"),
    ],
)
def test_bad_input_is_one_line_and_non_zero(enable, args, message):
    result = run(*args)
    assert result.exit_code != 0
    assert message in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert result.stdout == ""


def test_spanish_tiles_on_the_command_line(make_lexicon):
    make_lexicon(["CHICO", "LECHE", "CALLE", "CHURRO", "CHE"], name="es", tiles="spanish")
    assert run("anagram", "OCI[CH]", "--lexicon", "es", "--json").json() == ["CHICO"]
    assert run("anagram", "CHEL?", "--lexicon", "es").stdout.split() == ["LECHe"]
    assert run("anagram", "CHEL?", "--lexicon", "es", "--json").json() == ["LECHe"]
    assert run("search", "--lexicon", "es", "--length", "4", "--words").stdout.split() == ["CALLE", "CHICO", "CHURRO", "LECHE"]
    assert run("hooks", "CHE", "--lexicon", "es", "--json").json()["valid"] is True


def test_big_results_print_as_plain_columns(enable):
    lines = run("search", "--length", "4").stdout.splitlines()
    assert lines[-1] == "3,903 words" and len(lines) == 3903 + 2
    assert lines[0].split() == ["Prob", "Alphagram", "Word", "Definition"]  # ENABLE's from WordNet
    aahs = next(line for line in lines if " AAHS" in line)
    assert aahs.split()[2] == "AAHS·"  # AAH is a word: inner back hook, and no hooks
    assert aahs.split()[3:5] == ["AAH,", "an"]  # an inflection reads its base's definition (the noun's first)


def test_spanish_hooks_show_multi_letter_tiles(make_lexicon):
    make_lexicon(["AS", "CHAS", "LLAS", "ASE", "CHE", "CHES"], name="es", tiles="spanish")
    data = run("hooks", "AS", "--lexicon", "es", "--json").json()
    assert (data["front_hooks"], data["back_hooks"]) == ("[CH][LL]", "E")
    assert run("hooks", "[CH]E", "--lexicon", "es", "--json").json()["back_hooks"] == "S"
    assert run("search", "--lexicon", "es", "--ends-with", "AS", "--not-anagram", "AS", "--words").stdout.split() == [
        "CHAS", "LLAS"]
    assert run("search", "--lexicon", "es", "--takes-prefix", "(CH)", "--words").stdout.split() == ["AS"]
    assert run("search", "--lexicon", "es", "--front-hook", "(LL)", "--words").stdout.split() == ["AS"]


@pytest.mark.parametrize("by", ["alphagram", "word"])
def test_table_rank_is_the_one_asked_for_with_blanks(enable, by):
    args = ("search", "--length", "7", "--probability", "1-5", "--probability-by", by, "--blanks", "0",
            "--order", "probability")
    rows = run(*args, "--json").json()
    field = "alphagram_ranks" if by == "alphagram" else "probability_ranks"
    assert rows[0]["word"] == "ARENITE" and rows[0][field][0] == 1 != rows[0][field][2]
    table = run(*args).stdout.splitlines()[1:-1]
    shown = [int(line.split()[0]) for line in table if line[:4].strip()]
    assert shown == sorted({r[field][0] for r in rows}) if by == "alphagram" else [r[field][0] for r in rows]
    assert shown[:2] == [1, 2]


@pytest.mark.parametrize("options", [(), ("--json",), ("--order", "probability"), ("--limit", "5"),
                                     ("--lexicon", "cel"), ("--save", "x"), ("--words", "--blanks", "1")])
def test_search_without_a_condition_is_the_same_one_line_error_whatever_option(enable, options):
    result = run("search", *options)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == "error: give at least one condition, e.g. --length 7 (saved searches: none)\n"


def test_a_probability_range_past_the_end_gives_what_there_is_with_a_note(enable):
    result = run("search", "--length", "2", "--probability", "1-500", "--words")
    assert result.exit_code == 0 and len(result.stdout.split()) == 96
    assert result.stderr == ("warning: --probability 1-500: enable has only 73 alphagrams of length 2; "
                             "the range stops there\n")
    assert run("search", "--length", "2", "--probability", "1-500", "--json").json()  # stdout stays one document


def test_save_refuses_to_replace_and_saved_searches_are_managed(enable):
    assert run("search", "--length", "2", "--includes", "X", "--save", "xs").exit_code == 0
    again = run("search", "--length", "3", "--save", "xs", "--words")
    assert again.exit_code == 1 and "a search named 'xs' is already saved" in again.stderr and again.stdout == ""
    assert run("searches", "show", "xs").stdout == "--length 2 --includes X\n"
    assert run("search", "--length", "3", "--includes", "X", "--save", "xs", "--replace", "--words").exit_code == 0
    narrowed = run("search", "--load", "xs", "--starts-with", "A", "--or", "--ends-with", "A", "--save", "xa")
    assert narrowed.exit_code == 0
    assert run("searches", "show", "xa", "--json").json() == {
        "name": "xa", "conditions": "--length 3 --includes X --starts-with A --or --length 3 --includes X --ends-with A"}
    assert run("search", "--load", "xa", "--words").stdout.split() == ["AXE"]
    listed = run("searches", "list", "--json").json()
    assert [entry["name"] for entry in listed] == ["xa", "xs"]
    assert run("searches", "rename", "xs", "threes-x").exit_code == 0
    assert run("searches", "rename", "xa", "threes-x").stderr.startswith("error: a search named 'threes-x'")
    assert run("searches", "delete", "xa").exit_code == 0
    assert run("searches", "list").stdout == "threes-x  --length 3 --includes X\n"
    assert run("searches", "delete", "xa").stderr.startswith("error: no saved search 'xa'")


def test_lexicon_names_compare_without_case(enable, tmp_path):
    assert run("judge", "QI", "--lexicon", "CEL", "--json").json() == {"QI": True}
    assert run("lexicon", "info", "Enable", "--json").json()["name"] == "enable"
    words = tmp_path / "w.txt"
    words.write_text("AA\nAB\n")
    assert run("lexicon", "build", str(words), "--name", "Mine", "--quiet").exit_code == 0
    clash = run("lexicon", "build", str(words), "--name", "MINE", "--quiet")
    assert clash.exit_code == 1 and "a lexicon named 'Mine' exists" in clash.stderr
    assert run("lexicon", "build", str(words), "--name", "ENABLE", "--quiet").stderr.startswith(
        "error: 'ENABLE' is the name of the shipped ENABLE list")
    assert run("search", "--length", "2", "--lexicon", "mine", "--words").stdout.split() == ["AA", "AB"]
    assert run("search", "--length", "2", "-l", "mine", "--words").stdout.split() == ["AA", "AB"]  # as elsewhere


def test_lexicon_diff_is_a_table_by_length(make_lexicon):
    make_lexicon(["AA", "AB", "CARE", "RACE"], name="old")
    make_lexicon(["AA", "BA", "CARE", "CARES", "SCARE", "ACRE"], name="new")
    assert run("lexicon", "diff", "old", "new").stdout.splitlines() == [
        "old -> new: 4 added, 2 removed", "", "added (4)", "  2 (1)  BA", "  4 (1)  ACRE", "  5 (2)  CARES SCARE",
        "", "removed (2)", "  2 (1)  AB", "  4 (1)  RACE"]
    assert run("lexicon", "diff", "old", "new", "--json").json() == {
        "added": ["ACRE", "BA", "CARES", "SCARE"], "removed": ["AB", "RACE"]}


def test_a_definition_search_in_a_lexicon_without_definitions_says_so(make_lexicon) -> None:
    make_lexicon(["CAT", "DOG", "QI"], name="bare")
    make_lexicon(["CAT a small feline [n]", "DOG a canine [n]", "QI vital force [n]"], name="defined")
    bare = run("search", "--definition", "feline", "-l", "bare")
    assert bare.stderr.splitlines() == [
        "warning: --definition: bare has no definitions, so nothing matches it "
        "(a lexicon built from `WORD definition` lines has them)", "no words match"]
    assert "bare has no definitions" in run("search", "--part-of-speech", "n", "-l", "bare").stderr
    assert "bare has no symbols" in run("search", "--symbol", "+", "-l", "bare").stderr
    quiz = run("quiz", "--definition", "feline", "-l", "bare", input="")
    assert quiz.exit_code == 1 and "bare has no definitions, so nothing matches it" in quiz.stderr
    defined = run("search", "--definition", "feline", "-l", "defined", "--words")
    assert defined.stdout == "CAT\n" and defined.stderr == ""


def test_the_options_the_neighbours_take_are_taken_here_too(make_lexicon, tmp_path):
    """`search -d`, `search --saved` and `quiz --load` were refused while judge/anagram/hooks take -d, quiz and
    sheet take --saved, and search takes --load."""
    make_lexicon(["QAT an evergreen shrub [n]", "QATS QAT, an evergreen shrub [n]", "ZAX a tool [n]"], name="defs")
    listed = run("search", "--length", "3", "-l", "defs", "--words", "-d")
    assert listed.exit_code == 0 and listed.stdout.splitlines() == ["QAT an evergreen shrub [n]", "ZAX a tool [n]"]
    assert run("search", "--length", "3", "-l", "defs", "--words").stdout.split() == ["QAT", "ZAX"]  # as before
    built = tmp_path / "threes.txt"
    built.write_text(listed.stdout, encoding="utf-8")  # `WORD definition` lines: a list `lexicon build` reads
    assert run("lexicon", "build", str(built), "--name", "threes").exit_code == 0
    assert run("define", "ZAX", "-l", "threes").stdout.strip().endswith("a tool [n]")
    assert run("search", "--length", "3", "-l", "defs", "--save", "threes").exit_code == 0
    assert run("search", "--saved", "threes", "-l", "defs", "--words").stdout.split() == ["QAT", "ZAX"]
    quizzed = run("quiz", "--load", "threes", "-l", "defs", "--jsonl", "--no-schedule", input="")
    assert quizzed.exit_code == 0 and '"question"' in quizzed.stdout
    assert run("sheet", "anagrams", "--load", "threes", "-l", "defs", "--out", str(tmp_path / "t.csv")).exit_code == 0
