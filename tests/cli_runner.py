"""Run the CLI in-process the way a user would, capturing stdout and stderr."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from typer.testing import CliRunner

from lexitrain.cli.app import app
from lexitrain.errors import LexitrainError


@dataclass
class Result:
    exit_code: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        return json.loads(self.stdout)


def run(*args: str, input: str | None = None) -> Result:
    """Invoke `lexitrain ARGS`; user errors end as they do in `main()`."""
    runner = CliRunner()
    result = runner.invoke(app, list(args), input=input)
    exc = result.exception
    if isinstance(exc, LexitrainError):
        return Result(1, result.stdout, result.stderr + f"error: {exc}\n")
    if exc is not None and not isinstance(exc, SystemExit):
        raise exc
    return Result(result.exit_code, result.stdout, result.stderr)
