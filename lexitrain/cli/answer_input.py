"""Reading a quiz's answer lines, ending the wait when the question's time runs out.

An untimed question reads its line the plain way. A timed one reads stdin on
a thread of its own (the same on a terminal, a pipe and Windows, where select
does not work on stdin), so the quiz can give up waiting the moment the clock
reaches 0:00 instead of when Enter is pressed; on a terminal the countdown in
the prompt moves every second while the player types. A line read ahead stays
queued for the next question. Stopping (end of input, Ctrl-C) is a None, never
an answer.
"""

from __future__ import annotations

import io
import math
import queue
import sys
import threading
from typing import Callable, TextIO

import typer


class TimedOut:
    """The question's (or the round's) time ran out before a line came."""


TIMED_OUT = TimedOut()
#: A line, None when the player stops, or TIMED_OUT.
Answer = str | None | TimedOut


def clean_input(text: str) -> str:
    """Bytes that are not UTF-8 (which Python keeps as lone surrogates) become U+FFFD,
    so such an answer is judged wrong instead of failing to be stored. A byte-order
    mark (Windows pipes start with one) is dropped so the first answer still counts."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace").replace("\ufeff", "")


class LineReader:
    """The lines of one stream, read on a daemon thread into a queue (None at its end)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.ended = False
        threading.Thread(target=self._read, name="answer-lines", daemon=True).start()

    def _read(self) -> None:
        try:
            for line in iter(self.stream.readline, ""):
                self.lines.put(line)
        except (OSError, ValueError):  # the stream was closed under us: that is its end
            pass
        self.ended = True
        self.lines.put(None)

    def get(self, timeout: float) -> str | None | TimedOut:
        """The next line (None at the end of input), or TIMED_OUT after `timeout` seconds."""
        try:
            return self.lines.get(timeout=max(0.0, timeout))
        except queue.Empty:
            return TIMED_OUT


_readers: dict[int, LineReader] = {}


def stdin_reader(start: bool = True) -> LineReader | None:
    """The one reader of the current stdin, started if need be (None if not started and not
    to be): once a thread reads stdin ahead, every later line must come through it. A terminal's
    end of input (Ctrl-D) once taken, a terminal is read again by a new reader (a pipe's end is final).
    Every read of stdin asks here first, so stdin reads a byte that is not UTF-8 as `clean_input` expects it."""
    stream = _tolerant(sys.stdin)
    reader = _readers.get(id(stream))
    if reader is not None and reader.stream is stream and not (reader.ended and reader.lines.empty()
                                                               and stream.isatty()):
        return reader
    if not start:
        return None
    reader = _readers[id(stream)] = LineReader(stream)
    return reader


def _tolerant(stream: TextIO) -> TextIO:
    """STREAM reading a byte its encoding cannot decode as a lone surrogate (as Python's C locale does), where the
    locale made it strict (en_US.UTF-8): never a UnicodeDecodeError, nor a reader thread that takes one for the end
    of input."""
    if isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
        stream.reconfigure(errors="surrogateescape")
    return stream


def read_line(time_left: Callable[[], float | None]) -> Answer:
    """One line of stdin as it comes (newline removed, cleaned; no prompt: a `--jsonl` driver's, the kiosk's),
    None at the end of input, TIMED_OUT as soon as `time_left()` reaches 0."""
    timed = time_left() is not None
    reader = stdin_reader(start=timed)
    text = sys.stdin.readline() or None if reader is None else _wait(reader, time_left, _no_tick)
    return text if text is None or isinstance(text, TimedOut) else clean_input(text.rstrip("\r\n"))


def _no_tick(seconds: float) -> None:
    """A driving program reads no clock from us between lines."""


def read_terminal_line(prompt: str, time_left: Callable[[], float | None] | None = None) -> Answer:
    """One typed line; None when the player stops (Ctrl-D / end of input, or Ctrl-C: most players
    stop a program that way, and it ends the round with the summary instead of killing it).
    With a clock, the prompt starts with the time left, redrawn every second on a terminal."""
    clock = time_left or _untimed
    try:
        reader = stdin_reader(start=clock() is not None)
        if reader is None:
            return clean_input(input(prompt))
        return _read_queued(reader, prompt, clock)
    except EOFError:
        return None
    except KeyboardInterrupt:
        typer.echo()  # the summary starts on a line of its own, not after "^C"
        return None


def duration_text(seconds: float) -> str:
    """`0:12`: how long something took, to the nearest second (as `challenge --history` rounds it)."""
    minutes, whole = divmod(round(seconds), 60)
    return f"{minutes}:{whole:02d}"


def clock_text(seconds: float) -> str:
    """`4:29`: whole seconds left, rounded up (0:00 only when the time is up)."""
    whole = max(0, math.ceil(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def _untimed() -> None:
    return None


def _read_queued(reader: LineReader, prompt: str, time_left: Callable[[], float | None]) -> Answer:
    """A line through the reader thread, the prompt led by the time left (when there is a clock)."""
    live = sys.stdout.isatty()

    def show(seconds: float | None, first: bool = False) -> None:
        text = prompt if seconds is None else f"{clock_text(seconds)} {prompt}"
        if first:
            sys.stdout.write(text)
        elif live:  # rewrite the start of the line in place (save cursor, column 0, restore)
            sys.stdout.write(f"\0337\r{text}\0338")
        sys.stdout.flush()

    show(time_left(), first=True)
    text = _wait(reader, time_left, show)
    if isinstance(text, TimedOut):
        show(0.0)
        typer.echo("\n  time is up")
        _drop_typed_line()
        return TIMED_OUT
    if text is None:
        raise EOFError
    if not live:  # (a terminal echoes the Enter itself)
        typer.echo()
    return clean_input(text.rstrip("\r\n"))


def _wait(reader: LineReader, time_left: Callable[[], float | None], tick: Callable[[float], None]) -> Answer:
    """The next line, waking at each whole second left to call `tick`; TIMED_OUT at 0
    (untimed, it wakes each second all the same, so Ctrl-C is heard on every platform)."""
    while True:
        left = time_left()
        if left is not None and left <= 0:
            return TIMED_OUT
        # to the next whole second left, when the clock shown changes
        line = reader.get(1.0 if left is None else (left - math.floor(left) or 1.0))
        if not isinstance(line, TimedOut):
            return line
        left = time_left()
        if left is not None and left > 0:
            tick(left)


def _drop_typed_line() -> None:
    """Forget what was typed but not entered when the time ran out, so it is not taken
    as the next question's answer (a terminal on POSIX; elsewhere nothing to do)."""
    try:
        import termios

        if sys.stdin.isatty():
            termios.tcflush(sys.stdin.fileno(), termios.TCIFLUSH)
    except (ImportError, OSError, ValueError):
        pass
