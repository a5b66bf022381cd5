"""Rendering helpers shared by every command: JSON, tables, warnings."""

from __future__ import annotations

import sys
from typing import Any

import typer


def emit_json(value: Any) -> None:
    """One JSON document on stdout, nothing else."""
    import json  # not for `--help` or the plain output

    sys.stdout.write(json.dumps(value, ensure_ascii=False))
    sys.stdout.write("\n")


def warn(message: str) -> None:
    typer.echo(f"warning: {message}", err=True)


def error_exit(message: str, code: int = 1) -> None:
    """Print a one-line error to stderr and leave with a non-zero status."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def stdout_console():  # -> rich.console.Console, imported lazily to keep start-up quick
    from rich.console import Console

    return Console()
