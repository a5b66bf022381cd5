"""The terminal quiz in a real pseudo-terminal: an Enter pressed out of Zyzzyva's habit just after
the quiz moved on by itself is ignored, never scored as a miss of a question not yet seen; with
`study set --wait-after-last` the quiz waits for that Enter once every answer is found."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time

import pytest

from lexitrain.cli.quiz_ui import STRAY_ENTER_SECONDS
from lexitrain.study.store import ProgressStore
from study_helpers import anagram_oracle, small  # noqa: F401  (small is a fixture)
from tests.cli_runner import run

ORACLE = anagram_oracle()
QUESTION = re.compile(r"(\d+)\. (\S+)\s+\((\d+) to find\)")


class Terminal:
    """`lexitrain ARGS` on a pseudo-terminal: what it shows, and keys typed into it."""

    def __init__(self, *args: str) -> None:
        self.master, slave = pty.openpty()
        self.process = subprocess.Popen([sys.executable, "-m", "lexitrain", *args], stdin=slave, stdout=slave,
                                        stderr=slave, env={**os.environ, "NO_COLOR": "1"}, start_new_session=True)
        os.close(slave)
        self.shown = ""

    def wait_for(self, pattern: str, seconds: float = 60.0) -> re.Match[str]:
        deadline = time.monotonic() + seconds
        while True:
            match = re.search(pattern, self.shown)
            if match:
                return match
            left = deadline - time.monotonic()
            assert left > 0, f"{pattern!r} never shown; the screen:\n{self.shown}"
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:  # the program ended
                    chunk = b""
                assert chunk, f"{pattern!r} never shown before the end; the screen:\n{self.shown}"
                self.shown += chunk.decode("utf-8", "replace").replace("\r\n", "\n")

    def type(self, text: str) -> None:
        os.write(self.master, text.encode())

    def question(self, number: int) -> str:
        """The alphagram of question NUMBER, once it is on screen."""
        return self.wait_for(rf"(?m)^{number}\. (\S+)\s+\(\d+ to find\)").group(1)

    def close(self) -> int:
        try:
            return self.process.wait(timeout=60)
        finally:
            os.close(self.master)


def answers_given() -> list[tuple[str, str, int]]:
    with ProgressStore() as store:
        return store.conn.execute("SELECT key, given, correct FROM answers ORDER BY id").fetchall()


@pytest.fixture
def terminal(small):
    opened: list[Terminal] = []

    def start(*args: str) -> Terminal:
        opened.append(Terminal(*args))
        return opened[-1]

    yield start
    for each in opened:
        if each.process.poll() is None:
            each.process.kill()
            each.close()


def test_a_stray_enter_after_the_quiz_moved_on_is_ignored(terminal):
    quiz = terminal("quiz", "--list", "twos", "--lexicon", "small", "--limit", "3")
    first = quiz.question(1)
    quiz.type(" ".join(sorted(ORACLE[first])) + "\n\n")  # every answer, then Enter out of habit
    second = quiz.question(2)
    quiz.wait_for("Enter ignored")
    quiz.type(" ".join(sorted(ORACLE[second])) + "\n")
    third = quiz.question(3)
    time.sleep(STRAY_ENTER_SECONDS + 0.3)
    quiz.type("\n")  # pressed later, on a question seen: ends it, as a miss
    quiz.wait_for("end of the round")
    quiz.type("\n")
    assert quiz.close() == 0
    assert [(key, correct) for key, _, correct in answers_given()] == [(first, 1), (second, 1), (third, 0)]


def test_with_wait_after_last_the_quiz_waits_for_enter_once_all_are_found(terminal):
    assert run("study", "set", "--wait-after-last").exit_code == 0
    assert "waits for Enter" in run("study", "show", "--lexicon", "small").stdout
    quiz = terminal("quiz", "--list", "twos", "--lexicon", "small", "--limit", "2")
    first = quiz.question(1)
    quiz.type(" ".join(sorted(ORACLE[first])) + "\n")
    quiz.wait_for("all found: Enter for the next question")
    time.sleep(0.8)  # the quiz waits: question 2 is not asked until Enter
    assert not re.search(r"(?m)^2\. ", quiz.shown)
    quiz.type("\n")
    second = quiz.question(2)
    quiz.type("!quit\n")
    assert quiz.close() == 0
    assert [(key, correct) for key, _, correct in answers_given()] == [(first, 1)]
    assert second != first
