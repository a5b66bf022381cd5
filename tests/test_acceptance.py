"""Acceptance checks run the way a user or another program runs lexitrain: a whole process."""

from __future__ import annotations

import subprocess
import sys

import pytest


def lexitrain(*args: str, input: str | None = None) -> subprocess.CompletedProcess:
    """`python -m lexitrain ARGS` in a process of its own (LEXITRAIN_HOME from the `home` fixture)."""
    return subprocess.run(
        [sys.executable, "-m", "lexitrain", *args],
        input=input,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["anagram", "AEINRST", "--bogus"], "error: No such option: --bogus (see '"),
        (["judge"], "error: Missing argument 'words'."),
        (["no-such-command"], "error: No such command 'no-such-command'."),
    ],
)
def test_usage_errors_are_one_line(args: list[str], message: str) -> None:
    result = lexitrain(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith(message)
    assert result.stderr.count("\n") == 1, result.stderr


def test_bare_command_still_shows_help() -> None:
    result = lexitrain()
    assert result.returncode == 2
    assert "Commands:" in result.stdout + result.stderr


def test_lexicon_diff_across_tile_sets_is_one_line_error(make_lexicon) -> None:
    make_lexicon(["CASA", "CHAVO", "LLAMA"], name="es", tiles="spanish")
    make_lexicon(["CASA", "WAX"], name="en")
    result = lexitrain("lexicon", "diff", "en", "es", "--json")
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr == "error: cannot diff en (english tiles) and es (spanish tiles): the letters differ\n"
