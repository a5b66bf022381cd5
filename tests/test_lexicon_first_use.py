"""First use on a fresh home, as a player meets it: the embedded lexicon is
compiled with a progress bar on the terminal's stderr, stdout keeps only the
command's output, and the word graph is built then too, so the first `best`
reads it instead of building it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading

import pytest

from lexitrain.lexicon import graph


def run_with_terminal_stderr(*args: str) -> tuple[subprocess.CompletedProcess, str]:
    """Run lexitrain with stderr on a pseudo-terminal (so it draws its bar) and stdout on a pipe."""
    import pty

    master, slave = pty.openpty()
    shown: list[bytes] = []

    def read() -> None:
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # the terminal closed
                return
            if not chunk:
                return
            shown.append(chunk)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        result = subprocess.run([sys.executable, "-m", "lexitrain", *args], stdout=subprocess.PIPE,
                                stderr=slave, timeout=300, text=True)
    finally:
        os.close(slave)
        reader.join(timeout=10)
        os.close(master)
    return result, b"".join(shown).decode(errors="replace")


@pytest.mark.slow
def test_first_use_shows_progress_on_stderr_and_builds_the_word_graph(home) -> None:
    assert not (home / "lexicons").exists()
    result, stderr = run_with_terminal_stderr("anagram", "AEINRST", "--json")
    assert result.returncode == 0
    assert "RETAINS" in json.loads(result.stdout)  # stdout: the one JSON document
    assert "compiling the embedded enable lexicon (first use)" in stderr
    manifest = json.loads((home / "lexicons" / "enable.json").read_text())
    assert (home / "lexicons" / manifest["dir"] / graph.FILE_NAME).is_file()


def test_first_use_work_reports_through_the_installed_reporter(make_lexicon, monkeypatch) -> None:
    """A lexicon compiled before builds wrote graphs: the first search builds one, reporting it."""
    from contextlib import contextmanager

    from lexitrain.engine import dawg as dawg_module
    from lexitrain.lexicon import progress

    lexicon = make_lexicon(["CAT", "ACT"])
    (lexicon.folder / graph.FILE_NAME).unlink()
    reported: list[str] = []

    @contextmanager
    def reporter(what: str):
        reported.append(what)
        yield progress.quiet

    monkeypatch.setattr(progress, "_reporter", reporter)
    dawg_module._OPEN.clear()
    dawg_module.dawg_for(lexicon)
    assert reported == ["building the word graph of small (first use)"]
