"""Acceptance checks run the way a user or another program runs lexitrain: a whole process."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_runner import run


def lexitrain(*args: str, input: str | None = None) -> subprocess.CompletedProcess:
    """`python -m lexitrain ARGS` in a process of its own (LEXITRAIN_HOME from the `home` fixture)."""
    return subprocess.run(
        [sys.executable, "-m", "lexitrain", *args],
        input=input,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["anagram", "AEINRST", "--bogus"], "error: No such option: --bogus (see '"),
        (["judge"], "error: Missing argument 'words'."),
        (["no-such-command"], "error: No such command 'no-such-command'."),
        (["best", "--cgp", "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINST?/ 0/0 0", "--top", "3", "--all"],
         "error: give --top N or --all, not both (see '"),
    ],
)
def test_usage_errors_are_one_line(args: list[str], message: str) -> None:
    result = lexitrain(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith(message)
    assert result.stderr.count("\n") == 1, result.stderr


def test_bare_command_still_shows_help() -> None:
    result = lexitrain()
    assert result.returncode == 2
    assert "Commands:" in result.stdout + result.stderr


def test_lexicon_diff_across_tile_sets_is_one_line_error(make_lexicon) -> None:
    make_lexicon(["CASA", "CHAVO", "LLAMA"], name="es", tiles="spanish")
    make_lexicon(["CASA", "WAX"], name="en")
    result = lexitrain("lexicon", "diff", "en", "es", "--json")
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr == "error: cannot diff en (english tiles) and es (spanish tiles): the letters differ\n"


def _doc_examples(*commands: str) -> list[str]:
    """`lexitrain CMD ...` lines shown in README.md and docs/*.md, comments cut off."""
    root = Path(__file__).resolve().parent.parent
    lines = set()
    for page in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
        for line in page.read_text(encoding="utf-8").splitlines():
            line = line.strip().removeprefix("$ ")
            if (line.startswith("lexitrain ") and line.split()[1] in commands and "[OPTIONS]" not in line
                    and "--kiosk" not in line):  # (the kiosk takes a terminal over: tests/test_judge.py drives one)
                lines.add(re.split(r"\s+#\s", line)[0].strip())
    return sorted(lines)


@pytest.mark.parametrize("line", _doc_examples("judge", "anagram", "hooks", "search"))
def test_documented_lookups_run_as_written(enable, line: str) -> None:
    """Every word-tool example in the docs runs; `judge` says which words fail, no error."""
    args = shlex.split(line)[1:]
    if "--load" in args:
        run("search", "--length", "7", "--probability", "1-500", "--save", "top7")
    result = run(*args)
    assert "error" not in result.stderr, result.stderr
    expected = 1 if args[0] == "judge" and any(w in {"QI", "ZA", "ZZZ"} for w in args) else 0
    assert result.exit_code == expected, (line, result.stdout)
    assert result.stdout.strip()


def test_guide_judge_example_says_what_enable_answers(enable) -> None:
    """A player reading the first-day example must not learn that QI and ZA are ENABLE words."""
    guide = (Path(__file__).resolve().parent.parent / "docs" / "guide.md").read_text(encoding="utf-8")
    [line] = [line for line in guide.splitlines() if line.startswith("lexitrain judge QI ZA JO")]
    assert "QI and ZA are NOT in ENABLE" in line
    assert run("judge", "QI", "ZA", "JO", "--json").json() == {"QI": False, "ZA": False, "JO": True}


# stdin as the C locale reads it (bad bytes kept as surrogates), and as a UTF-8 locale (en_US.UTF-8) does: strict;
# an untimed question reads its line directly, a timed one on the reader thread
@pytest.mark.parametrize("stdin_errors", ["surrogateescape", "strict"])
@pytest.mark.parametrize("timed", [[], ["--question-time", "60"]])
def test_jsonl_answer_that_is_not_utf8_is_judged_not_crashed(make_lexicon, stdin_errors: str, timed: list[str]) -> None:
    make_lexicon(["AE", "OE", "AI"], name="tiny")
    result = subprocess.run(
        [sys.executable, "-m", "lexitrain", "quiz", "--search", "--length 2", "--lexicon", "tiny", "--jsonl",
         "--limit", "1", *timed],
        input=b"AE \xff\xfe\n",
        capture_output=True,
        timeout=120,
        env={**os.environ, "PYTHONIOENCODING": f"utf-8:{stdin_errors}"},
    )
    assert result.returncode == 0, result.stderr.decode()
    assert result.stderr == b""
    lines = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert [next(iter(line)) for line in lines] == ["question", "result", "summary"]
    assert lines[1]["result"]["wrong"] == ["\ufffd\ufffd"]
    assert lines[2]["summary"]["questions"] == 1


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux /proc, a folder nobody may write to")
@pytest.mark.parametrize("suffix", ["pdf", "csv"])
def test_sheet_to_an_unwritable_folder_is_one_line_error(make_lexicon, suffix: str) -> None:
    make_lexicon(["AA", "AB"], name="tiny")
    result = run("sheet", "twos", "--lexicon", "tiny", "--out", f"/proc/twos.{suffix}")
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: /proc/twos.{suffix}: cannot write the sheet (")
    assert result.stderr.count("\n") == 1


def test_rack_with_two_single_l_tiles_is_not_the_ll_tile() -> None:
    """Spanish self-play exchanged `L L` as the LL tile and stopped ('LL is not on the rack')."""
    from lexitrain.engine.board import Board
    from lexitrain.engine.dawg import dawg_from_codes
    from lexitrain.engine.game import Game
    from lexitrain.layouts import load_layout
    from lexitrain.tiles import load_tile_set

    spanish = load_tile_set("spanish")
    game = Game(Board(load_layout("standard"), spanish), dawg_from_codes([spanish.encode("CASA")], spanish), seed=1)
    game.current.rack = ["A", "E", "L", "L", "O", "S", "LL"]
    assert spanish.tokenize(game.rack_text()) == game.current.rack
    game.exchange(game.rack_text())
    assert game.history[-1].kind == "exchange"


def test_sheet_takes_the_same_source_options_as_quiz(make_lexicon, tmp_path) -> None:
    """`quiz --search/--file` and `sheet --search/--file` name a source the same way."""
    make_lexicon(["AA", "AB", "ABA", "BAA"], name="tiny")
    words = tmp_path / "words.txt"
    words.write_text("ABA\nBAA\n", encoding="utf-8")
    by_search = run("sheet", "hooks", "--lexicon", "tiny", "--search", "--length 3", "--out", str(tmp_path / "a.csv"))
    by_file = run("sheet", "hooks", "--lexicon", "tiny", "--file", str(words), "--out", str(tmp_path / "b.csv"))
    assert (by_search.exit_code, by_file.exit_code) == (0, 0), by_search.stderr + by_file.stderr
    assert (tmp_path / "a.csv").read_text() == (tmp_path / "b.csv").read_text()
    assert "BAA" in (tmp_path / "a.csv").read_text()
