"""Live timers: a question or round ends at 0:00 without waiting for a line, reported at once in
`--jsonl` (its result line) and counted down in the terminal's prompt."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time

import pytest

from cli_runner import run
from study_helpers import small  # noqa: F401  (small is a fixture)

WORDS = "RETAINS\nENTRAILS\n"


def _spawn(tmp_path, *args: str, **streams) -> subprocess.Popen:
    (tmp_path / "w.txt").write_text(WORDS)
    return subprocess.Popen([sys.executable, "-m", "lexitrain", "quiz", "--file", str(tmp_path / "w.txt"),
                             "--as-listed", "--lexicon", "small", *args], **streams)


def test_jsonl_question_time_out_is_reported_as_it_happens(small, tmp_path):
    quiz = _spawn(tmp_path, "--jsonl", "--question-time", "1", stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                  text=True, bufsize=1)
    assert quiz.stdin is not None and quiz.stdout is not None
    first = json.loads(quiz.stdout.readline())["question"]
    asked = time.monotonic()
    result = json.loads(quiz.stdout.readline())["result"]  # no line written: the clock ends the question
    assert time.monotonic() - asked < 5
    assert result["id"] == first["id"] and result["timed_out"] and not result["correct"]
    assert result["card"]["state"] == "learning"  # scored (rated Again): a timer that ran out counts
    second = json.loads(quiz.stdout.readline())["question"]
    quiz.stdin.write("ENTRAILS LATRINES RATLINES TRENAILS\n")
    quiz.stdin.flush()
    answered = json.loads(quiz.stdout.readline())["result"]
    assert answered["id"] == second["id"] and answered["correct"] and not answered["timed_out"]
    summary = json.loads(quiz.stdout.readline())["summary"]
    assert summary["questions"] == 2 and summary["correct"] == 1 and not summary["timed_out"]
    quiz.stdin.close()
    assert quiz.wait(timeout=30) == 0


def test_jsonl_round_time_out_ends_the_round_without_input(small, tmp_path):
    quiz = _spawn(tmp_path, "--jsonl", "--round-time", "1", "--no-schedule", stdin=subprocess.PIPE,
                  stdout=subprocess.PIPE, text=True, bufsize=1)
    assert quiz.stdout is not None
    records = [json.loads(quiz.stdout.readline()) for _ in range(3)]  # the stdin pipe stays open, unwritten
    assert [next(iter(r)) for r in records] == ["question", "result", "summary"]
    assert records[1]["result"]["timed_out"] and records[2]["summary"]["timed_out"]
    assert quiz.wait(timeout=30) == 0


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_terminal_countdown_moves_and_ends_the_question_at_zero(small, tmp_path):
    master, slave = os.openpty()
    quiz = _spawn(tmp_path, "--question-time", "2.5", "--no-schedule", stdin=slave, stdout=slave, stderr=slave)
    os.close(slave)
    out = b""
    typed = False
    deadline = time.monotonic() + 30
    while b"end of the round" not in out and time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            out += os.read(master, 4096)
        if not typed and b"0:02 >" in out:
            os.write(master, b"RETA")  # typed but never entered: dropped when the time runs out
            typed = True
    os.write(master, b"\n")
    assert quiz.wait(timeout=30) == 0
    os.close(master)
    text = out.decode()
    first = text[: text.index("2. AEILNRST")]
    assert "0:03 >" in first and "0:02 >" in first and "0:01 >" in first and "0:00 >" in first  # the clock moves
    assert "time is up" in first and "missed: the time ran out before an answer was given" in first and "missed   ANESTRI" in first  # without an Enter
    assert "RETA no" not in text and "missed   ENTRAILS" in text  # the unentered letters were not an answer


def test_round_clock_in_the_question_line_agrees_with_the_prompt(small, tmp_path):
    """The question line and the prompt under it show the same time left (both rounded up)."""
    (tmp_path / "w.txt").write_text(WORDS)
    out = run("quiz", "--file", str(tmp_path / "w.txt"), "--as-listed", "--lexicon", "small",
              "--round-time", "90", "--no-schedule", input="\n")
    assert out.exit_code == 0, out.stderr
    assert "to find)  [1:30 left]\n1:30 > " in out.stdout
