"""Stopping never scores the question on screen: Ctrl-C, Ctrl-D, end of input, `!quit` and a killed
process each leave it unanswered (no answer row, no card made or rescheduled, FSRS never called);
only an answer submitted or a timer that ran out scores a question."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from study_helpers import lines, of, small  # noqa: F401  (small is a fixture)
from tests.cli_runner import run

QUIZ = ("quiz", "--file", "words.txt", "--as-listed", "--lexicon", "small")  # AEINRST, then AEILNRST


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    """The quizzes ask AEINRST (9 anagrams), then AEILNRST (5) (a word file in the test's own folder)."""
    (tmp_path / "words.txt").write_text("RETAINS\nENTRAILS\n")
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def no_fsrs(monkeypatch):
    """Any FSRS grading of a card fails the test: a stopped question must never reach the scheduler."""
    calls: list[object] = []

    def grade(self, card, rating, now):  # the scheduler's one entry for an answer
        calls.append(card)
        raise AssertionError("FSRS was called for a stopped question")

    monkeypatch.setattr("lexitrain.study.quiz.scheduler.Scheduling.grade", grade)
    return calls


def answers_and_cards(home: Path) -> tuple[int, int]:
    from lexitrain.study.store import ProgressStore

    with ProgressStore(home / "progress.sqlite") as store:
        return (store.conn.execute("SELECT count(*) FROM answers").fetchone()[0],
                store.conn.execute("SELECT count(*) FROM cards").fetchone()[0])


def test_terminal_quit_with_words_typed_leaves_the_question_unscored(small, home, no_fsrs):
    result = run(*QUIZ, input="RETAINS\nZZ\n!quit\n")
    assert result.exit_code == 0, result.stderr
    assert "RETAINS yes" in result.stdout and "0/0 right" in result.stdout
    assert answers_and_cards(home) == (0, 0) and not no_fsrs


def test_terminal_end_of_input_ctrl_d_leaves_the_question_unscored(small, home, no_fsrs):
    result = run(*QUIZ, input="RETAINS\nZZ\n")  # then the input ends, as Ctrl-D ends it
    assert result.exit_code == 0, result.stderr
    assert "0/0 right" in result.stdout and "missed words saved" not in result.stdout
    assert answers_and_cards(home) == (0, 0) and not no_fsrs


def test_terminal_ctrl_c_leaves_the_question_unscored(small, home, no_fsrs, monkeypatch):
    typed = iter(["RETAINS ZZ"])

    def keyboard(prompt: str = "") -> str:
        try:
            return next(typed)
        except StopIteration:
            raise KeyboardInterrupt from None

    monkeypatch.setattr("builtins.input", keyboard)
    result = run(*QUIZ)
    assert result.exit_code == 0, result.stderr
    assert "RETAINS yes" in result.stdout and "0/0 right" in result.stdout
    assert answers_and_cards(home) == (0, 0) and not no_fsrs


def test_a_submitted_answer_still_counts_before_a_stop(small, home):
    result = run(*QUIZ, input="RETAINS\n\nENTRAILS\n!quit\n")  # the empty line submits the first question
    assert "0/1 right" in result.stdout and "ENTRAILS yes" in result.stdout
    assert answers_and_cards(home) == (1, 1)


@pytest.mark.parametrize("stop", ["", "!quit\n", "!QUIT\n"], ids=["end-of-input", "quit", "quit-upper"])
def test_jsonl_stop_leaves_the_open_question_unscored(small, home, no_fsrs, stop):
    records = lines(run(*QUIZ, "--jsonl", "--no-schedule", input=f"ZZ\n{stop}").stdout)
    assert len(of("question", records)) == 2 and len(of("result", records)) == 1  # the second one stays open
    summary = of("summary", records)[0]
    assert summary["questions"] == 1 and len(summary["missed"]) == 1
    assert answers_and_cards(home) == (1, 0)


def test_terminal_position_quit_leaves_it_unscored(make_lexicon, home, tmp_path, no_fsrs):
    make_lexicon(["RETAINS", "QI"], name="pos")
    cgp = tmp_path / "p.cgp"
    cgp.write_text("/".join(["15"] * 15) + " AEINRST/ 0/0 0\n")
    assert run("positions", "import", str(cgp), "--lexicon", "pos").exit_code == 0
    for typed in ("!quit\n", "", "8A X\n"):  # quit; end of input; a refused play and then end of input
        result = run("quiz", "position", "--lexicon", "pos", input=typed)
        assert result.exit_code == 0, result.stderr
        assert "0/0 top plays found" in result.stdout
    assert answers_and_cards(home)[0] == 0 and not no_fsrs


def _spawn(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "lexitrain", *args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM], ids=["sigkill", "sigterm"])
def test_a_killed_process_leaves_the_open_question_unscored(small, home, how):
    quiz = _spawn(*QUIZ, "--jsonl")
    assert quiz.stdin is not None and quiz.stdout is not None
    assert "question" in json.loads(quiz.stdout.readline())
    quiz.stdin.write("RETAINS\n")
    quiz.stdin.flush()
    assert "result" in json.loads(quiz.stdout.readline())
    assert "question" in json.loads(quiz.stdout.readline())  # the second question is on screen: kill it
    quiz.send_signal(how)
    quiz.wait(timeout=30)
    assert answers_and_cards(home) == (1, 1)  # the first answer is saved, the open question is not scored


def test_a_killed_terminal_quiz_leaves_typed_words_unscored(small, home):
    quiz = _spawn(*QUIZ)
    assert quiz.stdin is not None and quiz.stdout is not None
    quiz.stdin.write("RETAINS\n")
    quiz.stdin.flush()
    while "RETAINS yes" not in quiz.stdout.readline():  # the word was checked and kept on screen
        pass
    quiz.kill()
    quiz.wait(timeout=30)
    assert answers_and_cards(home) == (0, 0)
