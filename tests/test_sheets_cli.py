"""`lexitrain sheet ...` as a user runs it: files written, bad input refused cleanly."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from tests.cli_runner import run
from tests.sheets_support import SMALL_ENGLISH, hook_line, lines_of, page_texts


def test_twos_sheet_is_one_page_with_every_two_and_its_hooks(enable, tmp_path: Path) -> None:
    out = tmp_path / "twos.pdf"
    result = run("sheet", "twos", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.strip() == f"wrote {out} (1 page), 96 entries"
    pages = page_texts(out)
    assert len(pages) == 1
    lines = lines_of(out)
    twos = enable.db.execute("SELECT * FROM words WHERE length = 2 ORDER BY word").fetchall()
    assert len(twos) == 96
    expected = [hook_line(r) for r in twos]
    assert lines[1:-1] == expected  # every two in order, front hooks left, back hooks right
    assert "B AA HLS" in lines and "XU" in lines and "OS KA BEFSTY" in lines


def test_stems_sheet_from_the_command_line(make_lexicon, tmp_path: Path) -> None:
    make_lexicon(SMALL_ENGLISH)
    out = tmp_path / "stems.pdf"
    result = run("sheet", "stems", "--stem", "care", "--lexicon", "small", "--out", str(out), "--json")
    assert result.exit_code == 0, result.stderr
    assert result.json() == {"kind": "stems", "out": str(out), "pages": 1, "groups": 1, "lexicon": "small"}
    said = run("sheet", "stems", "--stem", "care", "--lexicon", "small", "--out", str(out))
    assert said.stdout == f"wrote {out} (1 page), 1 entry\n"  # not "1 entries"
    assert "D ARCED CARED RACED" in lines_of(out)


def test_new_words_sheet_lists_added_then_removed_words_by_length(make_lexicon, tmp_path: Path) -> None:
    make_lexicon(["AA", "AB", "CARE", "RACE"], name="old")
    make_lexicon(["AA", "BA", "CARE", "CARES", "SCARE", "ACRE"], name="new")
    out = tmp_path / "new.pdf"
    result = run("sheet", "new-words", "--old", "old", "--lexicon", "new", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    lines = lines_of(out)
    assert lines[0].startswith("New words old → new")
    assert lines[1:-1] == [
        "2 letters added (1)", "BA",
        "4 letters added (1)", "ACRE",
        "5 letters added (2)", "CARES•", "•SCARE",
        "2 letters removed (1)", "AB",
        "4 letters removed (1)", "RACE",
    ]


@pytest.mark.parametrize("suffix", [".csv", ".md", ".html"])
def test_other_formats_carry_the_same_words(suffix: str, make_lexicon, tmp_path: Path) -> None:
    make_lexicon(SMALL_ENGLISH)
    out = tmp_path / f"stems{suffix}"
    result = run("sheet", "stems", "--stem", "CARE", "--stem", "AET", "-l", "small", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    text = out.read_text(encoding="utf-8")
    if suffix == ".csv":
        rows = list(csv.DictReader(io.StringIO(text)))
        assert rows[0] == {"stem": "ACER", "count": "13", "tile": "D", "words": "ARCED CARED RACED"}
        assert [(r["stem"], r["tile"]) for r in rows] == [("ACER", "D"), ("ACER", "S"), ("ACER", "T"), ("AET", "S")]
    elif suffix == ".md":
        assert "| stem | count | tile | words |" in text
        assert "| ACER | 13 | D | ARCED CARED RACED |" in text and "|  |  | S | ACRES CARES RACES SCARE |" in text
    else:
        assert "@media print" in text and "break-inside: avoid" in text and "--columns:2" in text
        assert text.index("ARCED CARED RACED") < text.index("ACRES CARES RACES SCARE") < text.index("EAST EATS")


def test_unknown_kind_is_one_line_error(tmp_path: Path) -> None:
    out = tmp_path / "x.pdf"
    result = run("sheet", "crosswords", "--out", str(out))
    assert result.exit_code == 1
    assert result.stderr.strip() == (
        "error: unknown sheet kind 'crosswords' (choose from anagrams, hooks, twos, stems, new-words, due)"
    )
    assert not out.exists()


def test_output_in_a_missing_folder_is_refused(make_lexicon, tmp_path: Path) -> None:
    make_lexicon(SMALL_ENGLISH)
    out = tmp_path / "no" / "such" / "stems.pdf"
    result = run("sheet", "stems", "--stem", "CARE", "-l", "small", "--out", str(out))
    assert result.exit_code == 1
    assert result.stderr.strip() == f"error: {out}: folder {out.parent} does not exist"
    assert "Traceback" not in result.stderr + result.stdout


def test_empty_source_writes_no_file(make_lexicon, tmp_path: Path) -> None:
    make_lexicon(["AA", "CARE"], name="old")
    make_lexicon(["AA", "CARE"], name="same")
    out = tmp_path / "new.pdf"
    result = run("sheet", "new-words", "--old", "old", "-l", "same", "--out", str(out))
    assert result.exit_code == 1
    assert result.stderr.strip() == "error: the source has no words, so there is nothing to print (no file written)"
    assert list(tmp_path.glob("*.pdf")) == [] and list(tmp_path.glob(".*")) == []


def test_stems_that_make_no_word_are_left_out(make_lexicon, tmp_path: Path) -> None:
    make_lexicon(SMALL_ENGLISH)
    out = tmp_path / "stems.csv"
    barren = run("sheet", "stems", "--stem", "QQQQ", "-l", "small", "--out", str(out))
    assert (barren.exit_code, barren.stdout) == (1, "")
    assert barren.stderr.strip() == "error: the source has no words, so there is nothing to print (no file written)"
    assert [p for p in tmp_path.iterdir() if p.is_file()] == [tmp_path / "small.txt"]
    some = run("sheet", "stems", "--stem", "qqqq", "--stem", "CARE", "--stem", "ZZZ", "-l", "small", "--out", str(out),
               "--json")
    assert some.exit_code == 0
    assert some.stderr.strip() == "warning: left out 2 stems that make no word with one more tile: QQQQ ZZZ"
    assert some.json()["groups"] == 1
    assert {row["stem"] for row in csv.DictReader(io.StringIO(out.read_text(encoding="utf-8")))} == {"ACER"}
    many = [arg for n in range(2, 14) for arg in ("--stem", "Q" * n)]
    capped = run("sheet", "stems", "--stem", "CARE", *many, "-l", "small", "--out", str(out))
    assert capped.stderr.strip() == "warning: left out 12 stems that make no word with one more tile: " + " ".join(
        "Q" * n for n in range(2, 12)) + " and 2 more"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--out", "{tmp}/s.docx"], "error: {tmp}/s.docx: unknown output format '.docx'; use .pdf, .html, .csv or .md"),
        (["--out", "{tmp}/s.pdf", "--columns", "9"], "error: --columns must be between 1 and 8, not 9"),
        (["--out", "{tmp}/s.pdf", "--paper", "a3"], "error: unknown paper 'a3' (choose from a4, letter)"),
        (["--out", "{tmp}/s.pdf", "--old", "small"], "error: --old is only for the new-words sheet"),
        (["--out", "{tmp}/s.pdf", "--stem", "C4RE"], "error: stem 'C4RE' has a character that is not in the english tile set"),
    ],
)
def test_bad_options_are_one_line_errors(args: list[str], message: str, make_lexicon, tmp_path: Path) -> None:
    make_lexicon(SMALL_ENGLISH)
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    stem = [] if "--stem" in args else ["--stem", "CARE"]
    result = run("sheet", "stems", "-l", "small", *stem, *args)
    assert result.exit_code == 1
    assert result.stderr.strip() == message.replace("{tmp}", str(tmp_path))
    assert [p for p in tmp_path.iterdir() if p.is_file()] == [tmp_path / "small.txt"]


def test_anagram_sheet_of_a_search_has_every_result_in_order_with_hooks(enable, tmp_path: Path) -> None:
    query = "--length 7 --probability 1-120 --order probability"
    source = run("search", *query.split(), "--json").json()
    out = tmp_path / "top.pdf"
    result = run("sheet", "anagrams", "--query", query, "--out", str(out), "--columns", "2")
    assert result.exit_code == 0, result.stderr
    expected: list[str] = []
    for row in source:
        head = f"{row['alphagram_rank']} {row['alphagram']} {row['anagrams']}"
        if head not in expected:
            expected.append(head)
        expected.append(hook_line(row))
    lines = lines_of(out)
    assert [line for line in lines if line in expected] == expected
    assert len({r["alphagram"] for r in source}) == 120
    assert lines[0] == "Anagrams: 7-letter words, probability 1-120 enable · " + lines[0].rsplit(" ", 1)[1]


def test_built_in_list_quiz_with_answer_key(enable, tmp_path: Path) -> None:
    out = tmp_path / "quiz.pdf"
    result = run("sheet", "anagrams", "--list", "top-sevens", "--questions-only", "--answer-key", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    pages = page_texts(out)
    key_starts = next(i for i, text in enumerate(pages) if "Answer key" in text)
    questions, answers = "\n".join(pages[:key_starts]), "\n".join(pages[key_starts:])
    assert pages[0].startswith("Top 500 sevens by probability")
    assert "AEINRST" in questions and "RETAINS" not in questions and "STEARIN" not in questions
    assert "RETAINS" in answers and "STEARIN ES" in answers
    assert questions.count("\n1 ADEINOR 1") == 1 and answers.count("\n1 ADEINOR 1") == 1
    assert result.stdout.endswith(", 500 entries\n")  # the questions, not the questions and their key


def test_answer_key_counts_each_entry_once(make_lexicon, tmp_path: Path) -> None:
    make_lexicon(SMALL_ENGLISH)
    out = tmp_path / "stems.csv"
    result = run("sheet", "stems", "--stem", "care", "-l", "small", "--answer-key", "--out", str(out), "--json")
    assert result.exit_code == 0, result.stderr
    assert result.json()["groups"] == 1
    sections = [row["section"] for row in csv.DictReader(io.StringIO(out.read_text(encoding="utf-8")))]
    assert sections[0] == "Questions" and "Answer key" in sections  # the file still holds both


def test_hooks_sheet_from_a_word_file(enable, tmp_path: Path) -> None:
    words = tmp_path / "words.txt"
    words.write_text("# my threes\nqat\nzax\n\nCARE\n", encoding="utf-8")
    out = tmp_path / "hooks.md"
    result = run("sheet", "hooks", "--words", str(words), "--out", str(out))
    assert result.exit_code == 0, result.stderr
    text = out.read_text(encoding="utf-8")
    assert "| front_hooks | word | back_hooks | symbols |" in text
    assert text.index("|  | •QAT | S |  |") < text.index("|  | •ZAX |  |  |") < text.index("| S | •CARE• | DRSTX |  |")


def test_search_with_no_results_is_refused_and_writes_nothing(enable, tmp_path: Path) -> None:
    out = tmp_path / "none.pdf"
    result = run("sheet", "anagrams", "--query", "--length 7 --pattern ZZZ*", "--out", str(out))
    assert result.exit_code == 1
    assert result.stderr.strip() == "error: the source has no words, so there is nothing to print (no file written)"
    assert [p for p in tmp_path.iterdir() if p.is_file()] == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "error: give exactly one word source: a query, a saved search, a built-in list or a word file"),
        (["--query", "--bogus"], "error: unknown search condition '--bogus' (see `lexitrain search --help`)"),
        (["--list", "twos", "--query", "--length 2"],
         "error: give exactly one word source: a query, a saved search, a built-in list or a word file"),
        (["--search", " "], "error: --search '': give at least one condition, e.g. --search \"--length 7\""),
    ],
)
def test_bad_sources_are_one_line_errors(args: list[str], message: str, enable, tmp_path: Path) -> None:
    result = run("sheet", "anagrams", *args, "--out", str(tmp_path / "x.pdf"))
    assert (result.exit_code, result.stderr.strip()) == (1, message)
    assert [p for p in tmp_path.iterdir() if p.is_file()] == []


def test_new_words_as_a_hooks_quiz_with_key(make_lexicon, tmp_path: Path) -> None:
    make_lexicon(["AA", "CARE"], name="old")
    make_lexicon(["AA", "CARE", "CARED", "CARES", "SCARE", "SCARED"], name="new")
    out = tmp_path / "new.pdf"
    result = run("sheet", "new-words", "--old", "old", "-l", "new", "--answer-key", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    questions, answers = page_texts(out)
    assert "5 letters added (3): questions" in questions and "\n•SCARE\n" in questions
    assert "•SCARE D" not in questions and "•SCARE D" in answers
    assert "5 letters added (3): answer key" in answers and "6 letters added (1)" in answers


@pytest.mark.parametrize("blanks", ["0", "1", "2"])
def test_anagram_sheet_ranks_count_the_blanks_the_search_asks(blanks: str, enable, tmp_path: Path) -> None:
    query = f"--length 7 --probability 1-5 --blanks {blanks} --order probability"
    source = run("search", *query.split(), "--json").json()
    out = tmp_path / "top.csv"
    assert run("sheet", "anagrams", "--query", query, "--out", str(out)).exit_code == 0
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    shown = list(dict.fromkeys((row["rank"], row["alphagram"]) for row in rows))
    assert shown == list(dict.fromkeys((str(r["alphagram_ranks"][int(blanks)]), r["alphagram"]) for r in source))
    assert [rank for rank, _ in shown] == ["1", "2", "3", "4", "5"]


def test_search_conditions_typed_on_the_sheet_command(enable, tmp_path: Path) -> None:
    out = tmp_path / "top.csv"
    result = run("sheet", "anagrams", "--length", "7", "--probability", "1-100", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert len({row["alphagram"] for row in rows}) == 100
    same = tmp_path / "same.csv"
    assert run("sheet", "anagrams", "--query", "--length 7 --probability 1-100", "--out", str(same)).exit_code == 0
    assert [r["word"] for r in csv.DictReader(io.StringIO(same.read_text(encoding="utf-8")))] == [r["word"] for r in rows]
    narrowed = tmp_path / "q.csv"
    result = run("sheet", "anagrams", "--list", "top-sevens", "--includes", "D", "--out", str(narrowed))
    assert result.exit_code == 0, result.stderr
    words = [r["word"] for r in csv.DictReader(io.StringIO(narrowed.read_text(encoding="utf-8")))]
    assert words and all("D" in w for w in words) and len(words) < len(rows) * 5
    pdf = tmp_path / "top.pdf"
    assert run("sheet", "anagrams", "--length", "7", "--probability", "1-10", "--out", str(pdf)).exit_code == 0
    assert lines_of(pdf)[0].startswith("Anagrams: 7-letter words, probability 1-10 enable")
    bad = run("sheet", "anagrams", "--length", "7", "--colums", "2", "--out", str(pdf))
    assert (bad.exit_code, bad.stderr.strip()) == (1, "error: unknown search condition '--colums' (see `lexitrain search --help`)")


def test_word_file_with_skip_invalid_counts_and_lists_the_words_left_out(enable, tmp_path: Path) -> None:
    words = tmp_path / "words.txt"
    words.write_text("QAT\nXYZZY\nqi\nZAX\n", encoding="utf-8")
    out = tmp_path / "hooks.csv"
    refused = run("sheet", "hooks", "--words", str(words), "--out", str(out))
    assert refused.exit_code == 1 and f"{words}:2: 'XYZZY' is not in enable" in refused.stderr and not out.exists()
    result = run("sheet", "hooks", "--words", str(words), "--skip-invalid", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    assert result.stderr.splitlines() == [f"warning: {words}:2: 'XYZZY' is not in enable",
                                          f"warning: {words}:3: 'QI' is not in enable",
                                          "warning: skipped 2 words not in the lexicon"]
    assert [r["word"].strip("•") for r in csv.DictReader(io.StringIO(out.read_text(encoding="utf-8")))] == ["QAT", "ZAX"]
    binary = tmp_path / "words.bin"
    binary.write_bytes(b"QAT\n\x00\x9c\xff")
    result = run("sheet", "hooks", "--words", str(binary), "--skip-invalid", "--out", str(out))
    assert (result.exit_code, result.stderr) == (1, f"error: {binary}: binary data, not a word list\n")
    alone = run("sheet", "hooks", "--length", "2", "--skip-invalid", "--out", str(out))
    assert alone.stderr.strip() == "error: --skip-invalid goes with --words FILE"


LONG_SENSE = ("to attend to and look after, with a long note on usage that runs well past the width "
              "of one printed column so that it has to wrap onto several lines [v]")


@pytest.mark.parametrize("suffix", [".pdf", ".csv", ".md", ".html"])
def test_definitions_print_beside_each_word(suffix: str, make_lexicon, tmp_path: Path) -> None:
    make_lexicon(["CARE " + LONG_SENSE, "RACE a contest of speed [n]", "ACRE a unit of area [n]", "CARES", "SCARE"])
    words = tmp_path / "words.txt"
    words.write_text("CARE\nRACE\nSCARE\n", encoding="utf-8")
    out = tmp_path / f"hooks{suffix}"
    result = run("sheet", "hooks", "--words", str(words), "-l", "small", "--definitions", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    if suffix == ".pdf":
        text = " ".join(lines_of(out))
        assert LONG_SENSE in text and "RACE a contest of speed [n]" in text  # wrapped, every word kept
        assert len([line for line in lines_of(out) if line and line in LONG_SENSE]) >= 2  # on several lines
    elif suffix == ".csv":
        rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
        assert [(r["word"], r["definition"]) for r in rows] == [
            ("CARE", LONG_SENSE), ("RACE", "a contest of speed [n]"), ("•SCARE", "")]
    elif suffix == ".md":
        assert "| front_hooks | word | back_hooks | symbols | definition |" in out.read_text(encoding="utf-8")
    else:
        # the definition takes its share of the row (not squeezed to its longest word)
        assert f'<td class="wrap" style="text-align:left;width:48%">{LONG_SENSE}</td>' in out.read_text(encoding="utf-8")


def test_definitions_need_a_lexicon_that_has_them(make_lexicon, tmp_path: Path) -> None:
    make_lexicon(SMALL_ENGLISH)
    out = tmp_path / "twos.pdf"
    bare = run("sheet", "twos", "-l", "small", "--definitions", "--out", str(out))
    assert (bare.exit_code, bare.stderr.strip()) == (1, "error: no word on this sheet has a definition in small, "
                                                        "so --definitions has nothing to print (a lexicon built "
                                                        "from `WORD definition` lines has them)")
    stems = run("sheet", "stems", "--stem", "CARE", "-l", "small", "-d", "--out", str(out))
    assert stems.exit_code == 1 and "--definitions is not for the stems sheet" in stems.stderr
    assert not out.exists()
