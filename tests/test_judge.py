"""The word judge: plays typed as words everywhere alike, `judge --kiosk` on a real terminal (a pty), its log."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import struct
import sys
import termios
import time

import pytest

from lexitrain.errors import LexitrainError
from lexitrain.search.judging import MAX_WORDS, words_typed
from test_study_terminal import Terminal
from tests.cli_runner import run

LOG_LINE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d{4}  (\w+)  (VALID|NOT VALID)  ([A-Z ]+)")


def test_a_play_is_typed_with_spaces_or_commas_and_a_blank_mark_is_refused(make_lexicon) -> None:
    """`judge "qat,zax"` was judged as the one word QAT,ZAX, and `judge 'QA?'` as a word."""
    make_lexicon(["QAT", "ZAX", "AA"], name="small")
    assert run("judge", "qat,zax", "-l", "small", "--json").json() == {"QAT": True, "ZAX": True}
    assert run("judge", "QAT, ZAXX", "-l", "small", "--json").json() == {"QAT": True, "ZAXX": False}
    assert run("judge", "qat zax;aa", "-l", "small", "--secret", "--json").json() == {"valid": True}
    blank = run("judge", "QA?", "-l", "small")
    assert blank.exit_code == 1 and blank.stdout == "" and blank.stderr.count("\n") == 1
    assert "QA?: ? stands for any letter" in blank.stderr and "search --pattern 'QA?'" in blank.stderr
    assert run("judge", "Q*", "-l", "small").exit_code == 1
    bare = run("judge", "-l", "small")
    assert bare.exit_code == 2 and "Missing argument 'words'" in bare.stderr and "--kiosk" in bare.stderr
    assert run("judge", "QAT", "--kiosk", "-l", "small").exit_code == 1  # the players type the words, not argv


def test_words_typed_are_bounded() -> None:
    assert words_typed("  qat ,, zax  qat ") == ["QAT", "ZAX"]  # blank pieces dropped, a word typed twice once
    for bad, said in ((" , ", "no word to judge"), (" ".join(["AA"] * (MAX_WORDS + 1)), "at most"),
                      ("Q" * 40, "longer than any board"), ("[AB]C", "stands for any letter")):
        with pytest.raises(LexitrainError, match=said):
            words_typed(bad)


class Kiosk(Terminal):
    """`lexitrain ARGS` on a pseudo-terminal that is its controlling terminal, as a kiosk's is, so that
    Ctrl-C and Ctrl-Z typed there send their signals (tests/test_study_terminal.py's Terminal has none)."""

    def __init__(self, *args: str, columns: int = 120, rows: int = 36) -> None:
        env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": str(columns), "LINES": str(rows)}
        env.pop("NO_COLOR", None)
        self.pid, self.master = pty.fork()
        if self.pid == 0:  # the child: the pty is its controlling terminal
            os.execve(sys.executable, [sys.executable, "-m", "lexitrain", *args], env)
        fcntl.ioctl(self.master, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.shown = ""
        self.status: int | None = None
        self.seen_to = 0

    def see(self, text: str) -> str:
        """Wait until TEXT shows after what the last `see` saw; what was shown from there to it."""
        start = self.seen_to
        self.seen_to = self.wait_for(rf"(?s)\A.{{{start}}}.*?{re.escape(text)}").end()
        return self.shown[start:self.seen_to]

    def alive(self) -> bool:
        if self.status is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(status)
        return self.status is None

    def closed_by(self, key: str) -> int:
        """Type the host's KEY as a play; the kiosk's exit status once it has closed."""
        self.type(key + "\n")
        self.see("the word judge is closed")
        return self.close()

    def close(self) -> int:
        deadline = time.monotonic() + 30
        while self.alive():
            assert time.monotonic() < deadline, "the kiosk did not end"
            time.sleep(0.1)
        os.close(self.master)
        assert self.status is not None
        return self.status


def test_the_kiosk_judges_whole_plays_in_large_letters_and_closes_only_to_the_hosts_key(make_lexicon, home) -> None:
    make_lexicon(["QAT", "ZAX", "AA"], name="small")
    kiosk = Kiosk("judge", "--kiosk", "-l", "small", "--clear-after", "2")
    try:
        kiosk.see("host's key:")
        kiosk.type("club\n")  # letters only: a play could be it
        kiosk.see("one of them a digit or a sign")
        kiosk.type("club7\n")
        kiosk.see("again:")
        kiosk.type("club7\n")
        kiosk.see("CHALLENGER: type every word of the play")
        kiosk.type("qat, zax\n")
        screen = kiosk.see("the play QAT ZAX is VALID")
        assert "████" in screen and "NOT" not in screen  # large letters
        kiosk.see("CHALLENGER")  # cleared by itself (--clear-after 2)
        kiosk.type("QAT ZAXX\n")
        screen = kiosk.see("the play QAT ZAXX is NOT VALID")
        assert "ZAXX is not" not in screen and "NOT valid" not in screen  # the play as a whole, no word singled out
        kiosk.type("\n")  # Enter clears it at once
        kiosk.see("CHALLENGER")
        for key in ("\x03", "\x1a", "\x1c", "\x04"):  # Ctrl-C, Ctrl-Z, Ctrl-\, Ctrl-D: nothing
            kiosk.type(key)
            time.sleep(0.3)
            assert kiosk.alive()
        kiosk.type("QA?\n")
        kiosk.see("not judged")
        assert kiosk.closed_by("club7") == 0  # the host's key, typed as a play
    finally:
        if kiosk.alive():
            os.kill(kiosk.pid, 9)
    logged = (home / "judge.log").read_text(encoding="utf-8").splitlines()
    assert [LOG_LINE.fullmatch(line).groups() for line in logged] == [  # type: ignore[union-attr]
        ("small", "VALID", "QAT ZAX"), ("small", "NOT VALID", "QAT ZAXX")]


def test_the_kiosk_takes_each_line_typed_ahead_at_once_and_a_byte_that_is_not_utf8(make_lexicon, home) -> None:
    """Lines come through the quiz's one reader of the terminal: two plays typed in one go while a verdict shows are
    judged in turn at once (not when the verdict's time is up), and a byte that is not UTF-8 is judged, not a crash."""
    make_lexicon(["QAT", "ZAX", "AA"], name="small")
    kiosk = Kiosk("judge", "--kiosk", "-l", "small", "--clear-after", "300")
    try:
        kiosk.see("host's key:")
        kiosk.type("club7\n")
        kiosk.see("again:")
        kiosk.type("club7\n")
        kiosk.see("CHALLENGER")
        kiosk.type("QAT\n")
        kiosk.see("the play QAT is VALID")
        kiosk.type("AA\nZAX\n")
        kiosk.see("the play AA is VALID")
        kiosk.see("the play ZAX is VALID")  # (within the wait's 60 s: the verdict's 300 s never ran out)
        os.write(kiosk.master, b"Q\xffAT\n")
        kiosk.see("the play Q\ufffdAT is NOT VALID")
        kiosk.type("\n\x04")  # Enter clears it; Ctrl-D on the waiting screen is nothing, and the screen reads on
        kiosk.see("CHALLENGER")
        assert kiosk.closed_by("club7") == 0
    finally:
        if kiosk.alive():
            os.kill(kiosk.pid, 9)
    logged = (home / "judge.log").read_text(encoding="utf-8").splitlines()
    assert [line.split("  ")[2:] for line in logged] == [["VALID", "QAT"], ["VALID", "AA"], ["VALID", "ZAX"],
                                                        ["NOT VALID", "Q\ufffdAT"]]


def test_the_kiosk_wants_a_terminal(make_lexicon) -> None:
    make_lexicon(["QAT"], name="small")
    piped = run("judge", "--kiosk", "-l", "small", input="club7\nclub7\nQAT\n")
    assert piped.exit_code == 1 and "--kiosk needs a terminal" in piped.stderr
