"""A damaged progress file is refused, never written; what can be read of it is rescued; rolling
backups (one a day, one before each upgrade) are kept a week, listed and restored; a home on a
read-only disk can still export.

The damage is real: pages of the file overwritten with garbage, or the file cut short, as a disk
or a sync would; SQLite's own quick_check must find it."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from lexitrain.study.store import AnswerRow, ProgressStore
from lexitrain.study.store.migrations import MIGRATIONS, statements
from study_helpers import small  # noqa: F401  (small is a fixture)
from tests.cli_runner import one_line, run, unprivileged

NOW = datetime(2026, 3, 1, 10, 0, tzinfo=timezone.utc)
ANSWERS = 3000


@pytest.fixture
def progress(small, home, monkeypatch) -> Path:
    """A progress file with a quiz's answers and 3,000 more, closed cleanly (no -wal beside it)."""
    monkeypatch.setenv("LEXITRAIN_NOW", NOW.isoformat())
    assert run("quiz", "--list", "twos", "--lexicon", "small", "--jsonl", "--limit", "3",
               input="AA\nAB\nXX\n").exit_code == 0
    with ProgressStore() as store:
        card_id = store.find_card("small", "anagram", "AB") or None
        session_id = store.start_session("quiz", "small", "bulk", NOW.timestamp())
        with store.transaction():
            for number in range(ANSWERS):
                store.record_answer(AnswerRow(session_id, "quiz", None, "anagram", f"K{number}", "X" * 40, False,
                                              False, None, NOW.timestamp() + number, 500))
        assert card_id is None  # (twos are word questions: no anagram card)
    for suffix in ("-wal", "-shm"):
        assert not (home / f"progress.sqlite{suffix}").exists()
    return home / "progress.sqlite"


def leaf_page(path: Path, table: str, nth: int) -> int:
    """The number of the `nth` leaf page of a table (read before the damage)."""
    conn = sqlite3.connect(path)
    try:
        pages = [row[0] for row in conn.execute(
            "SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY pageno", (table,))]
        size = conn.execute("PRAGMA page_size").fetchone()[0]
    finally:
        conn.close()
    assert len(pages) > nth, pages
    return (pages[nth] - 1) * size, size


def overwrite_page(path: Path, table: str, nth: int = 3) -> None:
    offset, size = leaf_page(path, table, nth)
    with path.open("r+b") as file:
        file.seek(offset)
        file.write(bytes((index * 37 + 11) % 256 for index in range(size)))


def cut_short(path: Path) -> None:
    with path.open("r+b") as file:
        file.truncate(path.stat().st_size * 2 // 3)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


DAMAGE = {"answers page overwritten": lambda p: overwrite_page(p, "answers"),
          "cards page overwritten": lambda p: overwrite_page(p, "answers", 0),
          "file cut short": cut_short}


@pytest.mark.parametrize("damage", DAMAGE)
def test_a_damaged_file_is_refused_before_any_write_and_rescued(progress, tmp_path, monkeypatch, damage):
    DAMAGE[damage](progress)
    damaged = digest(progress)
    for command in (["progress", "export", str(tmp_path / "out.json")],
                    ["study", "spread", "--per-day", "5", "--lexicon", "small"],
                    ["study", "postpone", "--days", "3", "--lexicon", "small"],
                    ["progress", "import", str(tmp_path / "nothing.json")]):
        (tmp_path / "nothing.json").write_text(json.dumps({"format": "lexitrain-progress", "version": 1}))
        one_line(run(*command), "damaged", "rescue")
    monkeypatch.setenv("LEXITRAIN_NOW", (NOW + timedelta(days=1)).isoformat())  # the day's first open checks
    one_line(run("daily", "--lexicon", "small", "--jsonl", input="AA\n"), "damaged")
    one_line(run("quiz", "--list", "twos", "--lexicon", "small", "--jsonl", input="AA\n"), "damaged")
    assert digest(progress) == damaged  # never written to
    rescued = run("progress", "rescue", str(tmp_path / "rescued.json"), "--json")
    assert rescued.exit_code == 0, rescued.stderr
    report = rescued.json()
    assert digest(progress) == damaged
    saved = report["saved"]["answers"]
    assert 0 < saved < ANSWERS + 3  # most answers saved, those on the damaged part lost ...
    assert report["unreadable"].get("answers", 0) + sum(report["left_out"].values()) > 0 or saved < ANSWERS  # ... and said
    shutil.move(progress, tmp_path / "damaged.sqlite")
    restored = run("progress", "import", str(tmp_path / "rescued.json"))
    assert restored.exit_code == 0, restored.stderr
    with ProgressStore() as store:
        assert store.conn.execute("SELECT count(*) FROM answers").fetchone()[0] == saved
        assert store.conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"


def test_rescue_of_a_sound_file_saves_every_row(progress, tmp_path):
    report = run("progress", "rescue", str(tmp_path / "all.json"), "--json").json()
    assert report["saved"]["answers"] == ANSWERS + 3 and not any(report["unreadable"].values())
    assert report["left_out"] == {} and report["tables_lost"] == []


def test_a_backup_a_day_kept_a_week_listed_and_restorable(progress, tmp_path, monkeypatch, home):
    for day in range(1, 11):  # (day 0: the fixture's quiz, whose session started at the same pinned time)
        monkeypatch.setenv("LEXITRAIN_NOW", (NOW + timedelta(days=day)).isoformat())
        assert run("quiz", "--list", "twos", "--lexicon", "small", "--jsonl", "--limit", "1",
                   input="AA\n").exit_code == 0
    listed = run("progress", "backups", "--json").json()
    days = sorted({entry["taken"][:10] for entry in listed})
    assert len(days) == 8 and len(listed) == 8  # today's and the seven days before it
    assert days[-1] == (NOW + timedelta(days=10)).astimezone().date().isoformat()
    text = run("progress", "backups").stdout
    assert "progress import" in text and str(home / "backups") in text
    oldest = Path(listed[0]["file"])
    with sqlite3.connect(oldest) as copy:
        kept = copy.execute("SELECT count(*) FROM answers").fetchone()[0]
    monkeypatch.setenv("LEXITRAIN_HOME", str(tmp_path / "new-machine"))
    result = run("progress", "import", str(oldest))
    assert result.exit_code == 0, result.stderr
    with ProgressStore() as store:
        assert store.conn.execute("SELECT count(*) FROM answers").fetchone()[0] == kept > ANSWERS


def old_file(path: Path, version: int) -> None:
    """A progress file as lexitrain wrote it at schema `version`, with one session in it."""
    conn = sqlite3.connect(path)
    for script in MIGRATIONS[:version]:
        for statement in statements(script):
            conn.execute(statement)
    conn.execute("INSERT INTO sessions (mode, lexicon, source, started) VALUES ('quiz', 'small', 'old', 1)")
    conn.execute(f"PRAGMA user_version = {version}")
    conn.commit()
    conn.close()


def test_an_upgrade_is_preceded_by_a_backup_and_refused_on_a_damaged_file(small, home, tmp_path):
    old_file(home / "progress.sqlite", 4)
    assert run("progress", "backups", "--json").json() == []
    assert run("daily", "--status", "--lexicon", "small").exit_code == 0
    listed = run("progress", "backups", "--json").json()
    assert [entry["reason"] for entry in listed] == ["before-upgrade-v4"]
    with sqlite3.connect(listed[0]["file"]) as copy:
        assert copy.execute("PRAGMA user_version").fetchone()[0] == 4
        assert copy.execute("SELECT source FROM sessions").fetchall() == [("old",)]
    restored = tmp_path / "restored"
    os.environ["LEXITRAIN_HOME"] = str(restored)
    try:  # a backup of an older schema is upgraded (in a copy) as it is read
        assert run("progress", "import", listed[0]["file"]).exit_code == 0
    finally:
        os.environ["LEXITRAIN_HOME"] = str(home)

    damaged = tmp_path / "damaged-home"
    damaged.mkdir()
    old_file(damaged / "progress.sqlite", 4)
    with sqlite3.connect(damaged / "progress.sqlite") as conn:
        for number in range(2000):
            conn.execute("INSERT INTO sessions (mode, lexicon, source, started) VALUES ('quiz', 'small', ?, 1)",
                         ("x" * 50 + str(number),))
    overwrite_page(damaged / "progress.sqlite", "sessions", 2)
    before = digest(damaged / "progress.sqlite")
    os.environ["LEXITRAIN_HOME"] = str(damaged)
    try:
        one_line(run("daily", "--status", "--lexicon", "small"), "damaged")
    finally:
        os.environ["LEXITRAIN_HOME"] = str(home)
    assert digest(damaged / "progress.sqlite") == before
    with sqlite3.connect(f"file:{damaged / 'progress.sqlite'}?mode=ro", uri=True) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 4  # not upgraded


def test_a_read_only_home_can_still_export(progress, tmp_path):
    """The data folder cannot be written by the user running lexitrain (a read-only disk, as far
    as that user can tell): export still writes a full backup elsewhere."""
    shared = Path("/tmp") / f"lexitrain-ro-{os.getpid()}-{tmp_path.name}"
    shared.mkdir(mode=0o755)
    try:
        home = shared / "home"
        shutil.copytree(progress.parent, home, ignore=shutil.ignore_patterns("lexicons"))
        for path in [home, *home.rglob("*")]:
            path.chmod(0o555 if path.is_dir() else 0o444)  # readable, not writable, once modes apply
        out = shared / "out"
        out.mkdir(mode=0o777)
        out.chmod(0o777)
        env = {**os.environ, "LEXITRAIN_HOME": str(home), "HOME": str(out)}
        result = subprocess.run([*unprivileged(), sys.executable, "-m", "lexitrain", "progress", "export", str(out / "backup.json"), "--json"],
                                env=env, capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout)["answers"] == ANSWERS + 3
        assert sorted(p.name for p in home.iterdir()) == sorted(p.name for p in progress.parent.iterdir()
                                                                if p.name != "lexicons")
    finally:
        shutil.rmtree(shared, ignore_errors=True)
