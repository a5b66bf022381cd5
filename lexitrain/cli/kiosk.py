"""`lexitrain judge --kiosk`: the club night's word judge, full screen on a terminal.

The host starts it and chooses a key; the players type a play's words and
press Enter; the whole screen says VALID or NOT VALID in large letters for
the play as a whole (a tournament judge never says which word failed) and
clears itself after 15 s, as the Judge page does (Enter clears it sooner). Every judgement goes to
the judge's log (search/judging.py). Ctrl-C, Ctrl-Z, Ctrl-\\ and Ctrl-D do
nothing: only the host's key, typed as a play, closes it, so nobody gets
back to search or definitions from it. The key must hold something other
than letters (a digit, a sign), so that no play typed can ever be it.
"""

from __future__ import annotations

import signal
import sys
import termios
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import typer
from rich.console import Console
from rich.text import Text

from lexitrain.cli.answer_input import read_line
from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.search.judging import (
    CLEAR_SECONDS, KEY_LENGTH, Judgement, check_host_key, judge_play, log_judgement, log_path, words_typed,
)

#: seconds a refusal (a `?` typed, too many words) stays on the screen
NOTICE_SECONDS = 6.0
#: the signals a terminal sends from the keyboard (interrupt, quit, suspend): ignored while the judge runs
_KEYBOARD_SIGNALS = ("SIGINT", "SIGQUIT", "SIGTSTP")

#: block letters for the verdicts, five rows each
_GLYPHS = {
    "V": ["█   █", "█   █", "█   █", " █ █ ", "  █  "],
    "A": [" ███ ", "█   █", "█████", "█   █", "█   █"],
    "L": ["█    ", "█    ", "█    ", "█    ", "█████"],
    "I": ["█████", "  █  ", "  █  ", "  █  ", "█████"],
    "D": ["████ ", "█   █", "█   █", "█   █", "████ "],
    "N": ["█   █", "██  █", "█ █ █", "█  ██", "█   █"],
    "O": [" ███ ", "█   █", "█   █", "█   █", " ███ "],
    "T": ["█████", "  █  ", "  █  ", "  █  ", "  █  "],
    " ": ["   "] * 5,
}


def big(text: str, scale: int = 1) -> str:
    """TEXT in block letters, each SCALE times as wide and tall."""
    rows = [" ".join(_GLYPHS[c][row] for c in text) for row in range(5)]
    wide = ["".join(ch * scale for ch in row) for row in rows]
    return "\n".join(row for row in wide for _ in range(scale))


def run_kiosk(lex: Lexicon, clear_seconds: float = CLEAR_SECONDS) -> None:
    """Judge plays typed on this terminal until the host's key is typed."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise LexitrainError("--kiosk needs a terminal to take over (its input and screen); "
                             "`lexitrain judge --secret` judges one play from a script")
    key = _host_key()
    console = Console(highlight=False)
    pending: str | None = None
    with _keyboard_signals_ignored(), console.screen(hide_cursor=False):
        while True:
            line = pending if pending is not None else _ask(console, lex)
            pending = None
            if line.strip() == key:
                break
            if not line.strip():
                continue
            try:
                judgement = judge_play(lex, words_typed(line))
            except LexitrainError as exc:
                pending = _show_for(console, NOTICE_SECONDS, lambda: _notice(console, str(exc)))
                continue
            log_judgement(judgement)
            pending = _show_for(console, clear_seconds, lambda: _verdict(console, judgement))
    typer.echo(f"the word judge is closed; every judgement is in {log_path()}")


def _host_key() -> str:
    """The key the host chooses, typed twice without echo."""
    print("Word judge: choose the host's key. Typed as a play, it closes the judge; nothing else does.")
    print(f"(at least {KEY_LENGTH} characters, one of them not a letter, so that no play can be it)")
    for _ in range(3):
        try:
            key = check_host_key(_unseen("host's key: "))
        except LexitrainError as exc:
            print(exc)
            continue
        if _unseen("again: ").strip() == key:
            return key
        print("the two did not match")
    raise LexitrainError("no host's key chosen: the judge did not start")


def _unseen(prompt: str) -> str:
    """A line typed without echo (as getpass reads one, but keeping what was typed ahead: a host types fast)."""
    fd = sys.stdin.fileno()
    kept = termios.tcgetattr(fd)
    quiet = termios.tcgetattr(fd)
    quiet[3] &= ~termios.ECHO
    termios.tcsetattr(fd, termios.TCSANOW, quiet)
    try:
        sys.stdout.write(prompt)
        sys.stdout.flush()
        return sys.stdin.readline().rstrip("\n")
    finally:
        termios.tcsetattr(fd, termios.TCSANOW, kept)
        sys.stdout.write("\n")


@contextmanager
def _keyboard_signals_ignored() -> Iterator[None]:
    """Ctrl-C, Ctrl-\\ and Ctrl-Z do nothing while the judge runs (restored after)."""
    kept = {name: signal.signal(getattr(signal, name), signal.SIG_IGN)
            for name in _KEYBOARD_SIGNALS if hasattr(signal, name)}
    try:
        yield
    finally:
        for name, handler in kept.items():
            signal.signal(getattr(signal, name), handler)


def _ask(console: Console, lex: Lexicon) -> str:
    """The waiting screen, then the line typed (Ctrl-D gives nothing and is asked again)."""
    console.clear()
    console.print(Text("WORD JUDGE", style="bold"), justify="center")
    console.print(f"lexicon {lex.name}", justify="center", style="dim")
    console.print()
    console.print("CHALLENGER: type every word of the play, spaces or commas between them, then press Enter.")
    console.print("The judge says whether the play is acceptable, never which word is not.", style="dim")
    console.print()
    console.file.write("> ")
    console.file.flush()
    line = read_line(lambda: None)
    return line if isinstance(line, str) else ""


def _verdict(console: Console, judgement: Judgement) -> None:
    console.clear()
    word = "VALID" if judgement.valid else "NOT VALID"
    scale = 2 if console.width >= len(big(word).splitlines()[0]) * 2 + 4 else 1
    console.print("\n" * max(0, (console.height - 5 * scale - 8) // 2), end="")
    letters = big(word, scale).splitlines()
    indent = " " * max(0, (console.width - len(letters[0])) // 2)  # one indent for all: rows centred alike
    console.print(Text("\n".join(indent + row for row in letters), style="bold green" if judgement.valid else "bold red",
                       no_wrap=True, overflow="crop"))
    console.print()
    console.print(Text(f"the play {' '.join(judgement.words)} is {'' if judgement.valid else 'NOT '}VALID",
                       style="bold"), justify="center")
    console.print(f"{judgement.lexicon} · {judgement.at:%H:%M:%S}", justify="center", style="dim")
    console.print()
    console.print("Enter clears the screen (it clears itself soon).", justify="center", style="dim")


def _notice(console: Console, message: str) -> None:
    console.clear()
    console.print()
    console.print(Text("not judged", style="bold yellow"), justify="center")
    console.print(message, justify="center")


def _show_for(console: Console, seconds: float, draw: Callable[[], None]) -> str | None:
    """Draw a screen and keep it up to SECONDS, or until a line is typed: that line (None if none was, or an empty
    one). Lines come through the quiz's one reader of stdin (`answer_input`): each line typed ahead is taken in
    turn, and bytes that are not UTF-8 are read as U+FFFD."""
    draw()
    deadline = time.monotonic() + seconds
    line = read_line(lambda: deadline - time.monotonic())
    return line if isinstance(line, str) and line.strip() else None
