"""Run the CLI in-process the way a user would, capturing stdout and stderr."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from typing import Any

import pytest
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


def one_line(result: Result, *words: str) -> str:
    """Assert a refusal as a user sees it: exit 1, one stderr line naming WORDS, no traceback."""
    assert result.exit_code == 1, result.stdout
    assert "Traceback" not in result.stderr and result.stderr.count("\n") == 1, result.stderr
    for word in words:
        assert word in result.stderr, result.stderr
    return result.stderr


def unprivileged() -> tuple[str, ...]:
    """A prefix that runs a command without root's power to ignore file modes ('' when not root)."""
    if os.geteuid() != 0:
        return ()
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: a read-only folder cannot be tried")
    prefix = (setpriv, "--bounding-set=-dac_override,-dac_read_search")
    if subprocess.run([*prefix, "true"], capture_output=True).returncode != 0:
        pytest.skip("setpriv cannot drop root's file-mode override here")
    return prefix
