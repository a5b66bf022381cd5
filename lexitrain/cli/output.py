"""Rendering helpers shared by every command: JSON, tables, warnings."""

from __future__ import annotations

import json
import sys
from typing import Any, TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from rich.console import Console


def emit_json(value: Any) -> None:
    """One JSON document on stdout, nothing else."""

    sys.stdout.write(json.dumps(value, ensure_ascii=False))
    sys.stdout.write("\n")


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """`1 card`, `2 cards`: a count a player reads without stumbling on `1 days` (`1 entry`, `2 entries`)."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def warn(message: str) -> None:
    typer.echo(f"warning: {message}", err=True)


#: Skipped words named one a line before the count, as `lexicon build` does.
NAMED_WORDS = 10


def warn_skipped(lines: list[str]) -> None:
    """Count and list the words of a word file left out with --skip-invalid (`sheet --words`, `quiz --file`)."""
    for line in lines[:NAMED_WORDS]:
        warn(line)
    more = f" ({len(lines) - NAMED_WORDS} not listed)" if len(lines) > NAMED_WORDS else ""
    warn(f"skipped {counted(len(lines), 'word')} not in the lexicon{more}")


def error_exit(message: str, code: int = 1) -> None:
    """Print a one-line error to stderr and leave with a non-zero status."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def stdout_console() -> Console:
    """A console on stdout (rich is imported here: start-up stays quick without it)."""
    from rich.console import Console

    return Console()
