"""`lexitrain sheet due`: the cards the scheduler will ask this week, from the progress store."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from lexitrain.errors import LexitrainError
from lexitrain.study.quiz.kinds.base import new_kind
from lexitrain.study.store import ProgressStore, progress_path
from tests.cli_runner import run
from tests.sheets_support import SMALL_ENGLISH, hook_line, lines_of, page_texts, source_rows

NOW = datetime(2026, 3, 10, 9, 0, tzinfo=timezone.utc)  # a Tuesday


def _cards(due_in_days: dict[tuple[str, str], float], lexicon: str = "enable") -> None:
    with ProgressStore() as store:
        ids = store.ensure_cards(lexicon, list(due_in_days), NOW.timestamp())
        with store.transaction():
            for card_id, days in zip(ids, due_in_days.values()):
                store.save_card(replace(store.card(card_id), state=2, due=(NOW + timedelta(days=days)).timestamp()))


def test_due_sheet_lists_this_weeks_cards_by_day_with_answers(enable, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("LEXITRAIN_NOW", NOW.isoformat())
    _cards({
        ("anagram", "AEINRST"): -3,  # overdue: printed under today
        ("hooks", "CARE"): 0.1,
        ("anagram", "AEILNOR"): 2,
        ("anagram-hooks", "AEST"): 6.5,
        ("anagram", "EIPRST"): 9,  # after the week: left out
    })
    out = tmp_path / "due.pdf"
    result = run("sheet", "due", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    lines = lines_of(out)
    assert lines[0] == "Due this week enable · 2026-03-10"
    assert lines[1:-1] == [
        "Tue 10 Mar 2026 and overdue (2)",
        "AEINRST 9", "ANESTRI", "ANTSIER", "NASTIER", "RATINES•", "RETAINS•", "RETINAS•", "RETSINA S",
        "STAINER S", "STEARIN ES",
        "hooks: CARE 6", "S •CARE• DRSTX",
        "Thu 12 Mar 2026 (1)",
        "AEILNOR 2", "AILERON S", "ALIENOR S",
        "Mon 16 Mar 2026 (1)",
        f"anagram-hooks: AEST {len(new_kind('anagram-hooks').build(enable, 'AEST').expected)}",
        *[hook_line(row) for row in source_rows(enable, "w.alphagram = 'AEST'")],
    ]
    assert len(enable.anagrams("AEST")) == 8
    assert "EIPRST" not in "\n".join(page_texts(out))


def test_due_question_sheet_hides_the_answers(enable, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("LEXITRAIN_NOW", NOW.isoformat())
    _cards({("anagram", "AEINRST"): 1})
    out = tmp_path / "due.pdf"
    assert run("sheet", "due", "--questions-only", "--out", str(out)).exit_code == 0
    text = "\n".join(page_texts(out))
    assert "AEINRST 9" in text and "RETAINS" not in text


@pytest.mark.parametrize("with_store", [False, True])
def test_nothing_due_is_a_clear_error_and_no_file(with_store: bool, enable, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("LEXITRAIN_NOW", NOW.isoformat())
    if with_store:
        _cards({("anagram", "AEINRST"): 30})
    out = tmp_path / "due.pdf"
    result = run("sheet", "due", "--out", str(out))
    assert result.exit_code == 1
    assert result.stderr.strip() == (
        "error: no cards of enable are due in the next 7 days, so there is nothing to print (no file written)"
    )
    assert not out.exists()
    assert progress_path().exists() == with_store  # a sheet never creates the progress database


def test_a_huge_number_of_days_is_a_clear_error(enable, tmp_path: Path) -> None:
    result = run("sheet", "due", "--days", "99999999999999999999", "--out", str(tmp_path / "due.pdf"))
    assert (result.exit_code, result.stderr) == (1, "error: --days must be 1 to 36500, not 99999999999999999999\n")


def test_every_sheet_reads_the_players_lexicon(
    enable, make_lexicon, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setenv("LEXITRAIN_NOW", NOW.isoformat())
    make_lexicon(SMALL_ENGLISH, name="tiny")
    _cards({("anagram", "ACER"): 1}, lexicon="tiny")
    _cards({("anagram", "AEINRST"): 1})
    assert run("study", "set", "--lexicon", "Tiny").exit_code == 0  # names compare without case
    assert run("study", "show", "--json").json()["lexicon"] == "tiny"  # kept as the lexicon names itself
    out = tmp_path / "due.csv"
    result = run("sheet", "due", "--out", str(out), "--json")
    assert result.exit_code == 0, result.stderr
    assert result.json()["lexicon"] == "tiny"
    assert "ACER" in out.read_text(encoding="utf-8") and "AEINRST" not in out.read_text(encoding="utf-8")
    asked = run("sheet", "due", "--lexicon", "enable", "--out", str(out), "--json")
    assert asked.json()["lexicon"] == "enable" and "AEINRST" in out.read_text(encoding="utf-8")
    twos = run("sheet", "twos", "--out", str(tmp_path / "twos.csv"), "--json")
    assert twos.json()["lexicon"] == "tiny"


def test_the_due_sheet_prints_the_questions_it_is_handed(enable) -> None:
    from lexitrain.sheets.kinds import DueQuestion
    from lexitrain.sheets.request import SheetRequest, build_sheet

    handed = [
        DueQuestion((NOW - timedelta(days=2)).timestamp(), "AEILNOR", 2, ("AILERON", "ALIENOR")),
        DueQuestion((NOW + timedelta(days=1)).timestamp(), "hooks: CARE", 6, ("CARE",)),
        DueQuestion((NOW + timedelta(days=1)).timestamp(), "made up", 1, ("XYZZY",)),
    ]
    sheet = build_sheet(SheetRequest("due", days=3), enable, handed, NOW)
    assert [s.title for s in sheet.sections] == ["Tue 10 Mar 2026 and overdue (1)", "Wed 11 Mar 2026 (2)"]
    assert [g.head for g in sheet.sections[1].groups] == [("hooks: CARE", "6"), ("made up", "1")]
    assert sheet.sections[1].groups[0].rows == [("S", "•CARE•", "DRSTX", "")]
    assert sheet.sections[1].groups[1].rows == [("", "XYZZY", "", "")]  # not a word: printed bare
    with pytest.raises(LexitrainError, match="no cards of enable are due in the next 3 days"):
        build_sheet(SheetRequest("due", days=3), enable, [], NOW)
    with pytest.raises(LexitrainError, match="the twos sheet takes no word source"):
        SheetRequest("twos", query="--length 2")


def test_a_due_position_prints_its_board_without_a_font_warning(enable, home: Path, tmp_path: Path,
                                                                 monkeypatch) -> None:
    """A position card's prompt was the board with its line breaks: fpdf warned on stderr that the
    font lacks a glyph for '\\n', and the board ran together on one line; then it was the board's CGP
    on one line, no board a player could read. Now the board is drawn under the question, and kept
    on a question sheet, where its top play is left out."""
    import os
    import subprocess
    import sys

    monkeypatch.setenv("LEXITRAIN_NOW", NOW.isoformat())
    board = "/".join(["15"] * 7 + ["3BAALS7"] + ["15"] * 7)
    _cards({("position", f"{board} KEMMEZN/ 0/0 0"): 1})
    out = tmp_path / "due.pdf"
    made = subprocess.run([sys.executable, "-m", "lexitrain", "sheet", "due", "--out", str(out)], env=os.environ,
                          capture_output=True, text=True, timeout=120)
    assert made.returncode == 0 and made.stderr == "", made.stderr
    text = " ".join(page_texts(out)[0].split())
    assert "position: KEMMEZN, top-scoring play" in text and "9A MEZE" in text and board not in text
    grid = " ".join(" ".join(chr(65 + c) for c in range(15)).split())
    assert grid in text and "8 3W · · B A A L S · · · 2L · · 3W" in text  # column letters; row 8: tiles, premiums
    asked = tmp_path / "asked.pdf"
    made = subprocess.run([sys.executable, "-m", "lexitrain", "sheet", "due", "--questions-only", "--out", str(asked)],
                          env=os.environ, capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    text = " ".join(page_texts(asked)[0].split())
    assert "position: KEMMEZN" in text and "B A A L S" in text and "MEZE" not in text


def test_cards_read_from_what_was_stored_when_made_print_on_the_due_sheet(enable, real_games: Path,
                                                                           tmp_path: Path) -> None:
    """Read-rack cards (and the analysed positions) keep the inference worked out when they were made in the
    progress store, which the sheet must hand their kind, as a quiz session does: `sheet due` stopped at the
    first such card with 'a read-rack question needs the progress store its analysis is kept in'."""
    game = real_games / "woogles-io__liwords__pkg__stats__testdata__josh_nationals_round_11.gcg"
    made = run("study", "from-games", str(game), "--read-rack", "--player", "jvc", "--json")
    assert made.exit_code == 0, made.stderr
    assert made.json()["cards"]["read-rack"] >= 1
    out = tmp_path / "due.md"
    sheet = run("sheet", "due", "--out", str(out))
    assert sheet.exit_code == 0, sheet.stderr
    assert "Your opponent played 8D BURGER for 24, keeping 1 tile. You hold AEGIOUW" in out.read_text()


def test_definitions_on_a_due_sheet_with_a_position_are_refused_where_no_word_has_one(make_lexicon, tmp_path: Path,
                                                                                        monkeypatch) -> None:
    """The check that --definitions has something to print read the last cell of every row: a position's board
    (its last column tiles and premium marks) fooled it, and the sheet printed an empty definition column. Only
    rows under a definition column count now; with definitions in the lexicon the same sheet prints them."""
    monkeypatch.setenv("LEXITRAIN_NOW", NOW.isoformat())
    make_lexicon(SMALL_ENGLISH)
    board = "/".join(["15"] * 7 + ["5CARE6"] + ["15"] * 7)
    _cards({("anagram", "ACER"): 1, ("position", f"{board} ADESTRA/ 0/0 0"): 1}, lexicon="small")
    out = tmp_path / "due.pdf"
    bare = run("sheet", "due", "-l", "small", "--definitions", "--out", str(out))
    assert (bare.exit_code, bare.stderr.strip()) == (1, "error: no word on this sheet has a definition in small, "
                                                        "so --definitions has nothing to print (a lexicon built "
                                                        "from `WORD definition` lines has them)")
    assert not out.exists()
    make_lexicon([f"{word} the word {word.lower()}" for word in SMALL_ENGLISH])  # the same words, defined
    made = run("sheet", "due", "-l", "small", "--definitions", "--out", str(out))
    assert made.exit_code == 0, made.stderr
    text = " ".join(" ".join(page_texts(out)).split())
    assert "the word acre" in text and "position: ADESTRA" in text
