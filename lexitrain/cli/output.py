"""Rendering helpers shared by every command: JSON, tables, warnings."""

from __future__ import annotations

import json
import sys
from datetime import datetime
from typing import Any, TYPE_CHECKING

import typer

from lexitrain.wording import counted

if TYPE_CHECKING:
    from rich.console import Console


def emit_json(value: Any) -> None:
    """One JSON document on stdout, nothing else."""

    sys.stdout.write(json.dumps(value, ensure_ascii=False))
    sys.stdout.write("\n")


def when_text(moment: datetime, now: datetime) -> str:
    """When MOMENT comes, as a player reads it in their own time: `in 10 minutes (14:32)`,
    `in 5 hours (19:05)`, `tomorrow (Sun 7 Dec)`, `in 12 days (Thu 18 Dec)`; `now` for a moment past."""
    seconds = (moment - now).total_seconds()
    local, today = moment.astimezone(), now.astimezone().date()
    if seconds < 60:
        return "now"
    if local.date() == today:
        minutes = round(seconds / 60)
        span = counted(minutes, "minute") if minutes < 60 else counted(round(minutes / 60), "hour")
        return f"in {span} ({local:%H:%M})"
    days = (local.date() - today).days
    return f"{'tomorrow' if days == 1 else f'in {days} days'} ({local:%a} {local.day} {local:%b})"


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
