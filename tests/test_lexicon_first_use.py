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


def test_two_programs_at_first_use_compile_once_and_both_open_it(home, tmp_path, monkeypatch) -> None:
    """Two programs started together on a fresh home (two `serve` processes of one club): one compiles the
    embedded list, the other waits for it and opens what it made. Before, both compiled, and the later one's
    publish deleted the folder the first had opened (`serve`: "lexicon 'enable' is damaged (unable to open
    database file)")."""
    from lexitrain.lexicon import catalog

    words = tmp_path / "tiny.txt"
    words.write_text("CAT\nACT\nQI\n")
    definitions = tmp_path / "definitions.txt"
    definitions.write_text("CAT a small feline\n")
    monkeypatch.setitem(catalog.EMBEDDED, "tiny", {"file": str(words), "definitions": str(definitions),
                                                   "revision": "1", "credit": "a test's"})
    compile_embedded = catalog.compile_embedded
    compiling: list[str] = []
    first_in, second_in = threading.Event(), threading.Event()

    def held_compile(name: str) -> None:
        """The first compile waits (up to 2 s) for a second one to start beside it, as it could before."""
        compiling.append(name)
        if len(compiling) == 1:
            first_in.set()
            second_in.wait(timeout=2)
        else:
            second_in.set()
        compile_embedded(name)

    monkeypatch.setattr(catalog, "compile_embedded", held_compile)
    opened = {}

    def open_it(who: str) -> None:
        opened[who] = catalog.open_lexicon("tiny")

    first = threading.Thread(target=open_it, args=("first",))
    first.start()
    assert first_in.wait(timeout=30)
    second = threading.Thread(target=open_it, args=("second",))
    second.start()
    first.join(timeout=60)
    second.join(timeout=60)
    assert compiling == ["tiny"]
    assert sorted(opened) == ["first", "second"]
    for lexicon in opened.values():
        assert lexicon.anagrams("TAC") == ["ACT", "CAT"]
        row = lexicon.row("CAT")
        assert row is not None and row["definition"] == "a small feline"
