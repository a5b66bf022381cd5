"""Bad environments get one clear line, no traceback, and lose nothing: a full disk (never called a
damaged database), a data home that is a file or cannot be made, a zero-byte progress file with what
may be the progress beside it, and a study lexicon that was removed."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys

import pytest

from lexitrain.study.store import ProgressStore
from study_helpers import lines, of, small  # noqa: F401  (small is a fixture)
from tests.cli_runner import run


def one_clear_line(result, *words: str) -> str:
    assert result.exit_code == 1, result.stdout
    error = result.stderr.strip()
    assert "Traceback" not in result.stderr and len(error.splitlines()) == 1, result.stderr
    for word in words:
        assert word in error, error
    return error


def test_a_full_disk_is_said_so_and_keeps_what_was_saved(small, home, monkeypatch):
    words = ("--list", "twos", "--lexicon", "small", "--jsonl")
    first = run("quiz", *words, input="AA\n")  # one answer saved
    assert first.exit_code == 0
    from lexitrain.study.store import connection

    opened = connection._open

    def full(path):  # the database may grow no more: SQLite answers SQLITE_FULL, as on a full disk
        conn, backup_due, gate = opened(path)
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {pages}")
        return conn, backup_due, gate

    monkeypatch.setattr(connection, "_open", full)
    records = []
    for _ in range(3):  # enough answers to need a new page
        result = run("quiz", *words, input="AA AB AD AE AG AH AI AL AM AN AR AS AT AW AX AY " * 40 + "\n")
        records.append(result)
        if result.exit_code:
            break
    error = one_clear_line(records[-1], "disk full", "progress.sqlite")
    assert "damaged" not in error and "failed" not in error
    monkeypatch.setattr(connection, "_open", opened)
    with ProgressStore() as store:  # the file is whole, and what was saved before is there
        assert store.conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        assert store.conn.execute("SELECT count(*) FROM answers").fetchone()[0] == len(records)


def test_a_full_disk_writing_a_file_is_said_so(small):
    result = subprocess.run(  # (the console entry point turns it into one line)
        [sys.executable, "-c", "import sys, errno; import lexitrain.study.quiz.session as s\n"
         "def f(*a, **k): raise OSError(errno.ENOSPC, 'No space left on device', 'missed.txt')\n"
         "s.save_missed_list = f\nfrom lexitrain.cli.app import main\nsys.argv = ['lexitrain'] + sys.argv[1:]\nmain()",
         "quiz", "--list", "twos", "--lexicon", "small", "--jsonl", "--limit", "1"],
        input="ZZ\n", capture_output=True, text=True, timeout=120)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.strip() == "error: disk full: missed.txt could not be written; free some space and run again"


def test_a_data_home_that_is_a_file(tmp_path, monkeypatch):
    in_the_way = tmp_path / "home-file"
    in_the_way.write_text("not a folder")
    monkeypatch.setenv("LEXITRAIN_HOME", str(in_the_way))
    error = one_clear_line(run("daily", "--jsonl", input=""), str(in_the_way), "is a file", "LEXITRAIN_HOME")
    assert in_the_way.read_text() == "not a folder"
    assert error.startswith("error: the data folder")


@pytest.mark.parametrize("folder, args", [("lexicons", ["judge", "CAT"]),
                                           ("lists", ["quiz", "--list", "twos", "--jsonl"])])
def test_a_file_where_a_data_folder_goes(tmp_path, monkeypatch, folder, args):
    """A file named `lexicons` or `lists` in the data folder is named, not a FileExistsError."""
    monkeypatch.setenv("LEXITRAIN_HOME", str(tmp_path))
    (tmp_path / folder).write_text("in the way\n")
    one_clear_line(run(*args, input="ZZ\n"), f"{tmp_path / folder} is a file, not a folder")


def test_a_data_home_that_cannot_be_made(tmp_path, monkeypatch):
    blocked = tmp_path / "file" / "home"
    (tmp_path / "file").write_text("x")
    monkeypatch.setenv("LEXITRAIN_HOME", str(blocked))
    one_clear_line(run("quiz", "--list", "twos", "--jsonl", input=""), str(blocked), "cannot be made")


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="needs a user that permissions apply to")
def test_a_data_home_without_permission(tmp_path, monkeypatch):
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    monkeypatch.setenv("LEXITRAIN_HOME", str(locked / "home"))
    one_clear_line(run("daily", "--jsonl", input=""), "cannot be made")


def test_a_disk_too_full_to_open_the_database_is_said_so(small, home, monkeypatch):
    """On a full disk SQLite cannot grow the shared-memory file beside the database and says only
    "disk I/O error" (SQLITE_IOERR_SHMSIZE): with no space left, that is the full disk, not damage."""
    assert run("quiz", "--list", "twos", "--lexicon", "small", "--jsonl", input="AA\n").exit_code == 0
    import shutil

    from lexitrain.study.store import connection

    def no_room(conn):
        error = sqlite3.OperationalError("disk I/O error")
        error.sqlite_errorcode = sqlite3.SQLITE_IOERR | (19 << 8)  # SQLITE_IOERR_SHMSIZE
        raise error

    usage = shutil.disk_usage(home)
    monkeypatch.setattr(connection, "schema_version", no_room)
    monkeypatch.setattr(shutil, "disk_usage", lambda path: usage._replace(free=4096))
    error = one_clear_line(run("daily", "--jsonl", "--lexicon", "small", input=""), "disk full", "progress.sqlite")
    assert "damaged or" not in error and "move it aside" not in error
    monkeypatch.setattr(shutil, "disk_usage", lambda path: usage._replace(free=10 << 30))  # room: a real I/O error
    error = one_clear_line(run("daily", "--jsonl", "--lexicon", "small", input=""), "cannot open the progress database")
    assert "disk full" not in error


def test_a_database_that_cannot_be_opened_is_not_called_damaged(small, home, monkeypatch):
    """A home on a read-only disk: SQLite cannot make the files it keeps beside the database
    (SQLITE_CANTOPEN). The player is told to make the folder writable, never to move the file aside."""
    assert run("quiz", "--list", "twos", "--lexicon", "small", "--jsonl", input="AA\n").exit_code == 0
    from lexitrain.study.store import connection

    def cannot_open(conn):
        error = sqlite3.OperationalError("unable to open database file")
        error.sqlite_errorcode = sqlite3.SQLITE_CANTOPEN
        raise error

    monkeypatch.setattr(connection, "schema_version", cannot_open)
    error = one_clear_line(run("daily", "--jsonl", "--lexicon", "small", input=""), "cannot open the progress database",
                           str(home), "can be written", "left untouched")
    assert "damaged" not in error and "move it aside" not in error


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="needs a user that permissions apply to")
def test_a_read_only_data_home_with_progress_in_it(small, home):
    assert run("quiz", "--list", "twos", "--lexicon", "small", "--jsonl", input="AA\n").exit_code == 0
    for suffix in ("-wal", "-shm"):  # (closed cleanly: SQLite must make them again to read)
        (home / f"progress.sqlite{suffix}").unlink(missing_ok=True)
    home.chmod(0o500)
    try:
        error = one_clear_line(run("daily", "--jsonl", "--lexicon", "small", input=""), "can be written")
    finally:
        home.chmod(0o700)
    assert "damaged" not in error


@pytest.mark.parametrize("beside", ["progress.sqlite.bak", "progress-backup.json"])
def test_a_zero_byte_progress_file_beside_a_backup_is_left_alone(small, home, beside):
    assert run("quiz", "--list", "twos", "--lexicon", "small", "--jsonl", input="AA\n").exit_code == 0
    saved = (home / "progress.sqlite").read_bytes()
    (home / beside).write_bytes(saved)  # what may be the progress, beside an emptied file
    (home / "progress.sqlite").write_bytes(b"")
    for suffix in ("-wal", "-shm"):
        (home / f"progress.sqlite{suffix}").unlink(missing_ok=True)
    result = run("daily", "--jsonl", "--lexicon", "small", input="")
    one_clear_line(result, "is empty (0 bytes)", beside, "left", "progress import")
    assert (home / "progress.sqlite").read_bytes() == b"" and (home / beside).read_bytes() == saved


def test_a_zero_byte_progress_file_alone_starts_afresh(small, home):
    (home / "progress.sqlite").write_bytes(b"")  # e.g. a first run killed before it wrote anything
    result = run("quiz", "--list", "twos", "--lexicon", "small", "--jsonl", "--limit", "1", input="AA\n")
    assert result.exit_code == 0, result.stderr
    assert of("summary", lines(result.stdout))[0]["questions"] == 1


def test_removing_the_study_lexicon_holding_cards_is_refused_then_every_command_still_works(enable, small,
                                                                                           make_lexicon):
    """`lexicon remove` of the study lexicon holding cards said nothing, then every command failed."""
    make_lexicon(["AA", "AB", "ABA"], name="mine")
    assert run("study", "set", "--lexicon", "mine").exit_code == 0
    assert run("quiz", "--list", "twos", "--jsonl", input="AA\n").exit_code == 0  # a card in mine
    refused = run("lexicon", "remove", "MINE")
    one_clear_line(refused, "lexicon mine holds 1 card and is your study lexicon", "--force", "the cards are kept")
    assert run("lexicon", "list", "--json").json()  # nothing removed
    assert run("judge", "ABA", "--json").json() == {"ABA": True}
    removed = run("lexicon", "remove", "mine", "--force")
    assert removed.exit_code == 0 and removed.stdout.splitlines() == [
        "removed mine",
        "your study lexicon is now enable (`lexitrain study set --lexicon NAME` picks another); "
        "its 1 card is kept for when you compile it again"]
    for command in (["judge", "QAT"], ["daily", "--status"], ["search", "--length", "2"], ["stats", "--json"],
                    ["study", "cards"], ["quiz", "--list", "twos", "--jsonl", "--limit", "1"]):
        result = run(*command, input="")
        assert result.exit_code == 0 and "Traceback" not in result.stderr, (command, result.stderr)
    assert run("study", "show", "--json").json()["lexicon"] == "enable"
    make_lexicon(["AA", "AB", "ABA"], name="mine")  # compiled again: its card is there
    assert run("study", "cards", "--lexicon", "mine", "--json").json()["cards"] == 1
    assert run("lexicon", "remove", "small").stdout == "removed small\n"  # no cards, not studied: no fuss


def test_removing_the_study_lexicon_is_one_transaction_with_the_cards_counted(small, make_lexicon, monkeypatch):
    """`lexicon remove` counts the lexicon's cards, resets the study lexicon and deletes the files under one write
    lock (study/records' remove_lexicon: the policy sits in the lowest layer that sees both the compiled lexicons
    and the progress store, not in the command): while its files go no other writer gets in
    (a barrier: the removal asks another connection for the write lock and is refused), and a removal that fails
    changes no setting."""
    from lexitrain.lexicon import store as lexicon_store
    from lexitrain.study.records.cards import remove_lexicon
    from lexitrain.study.store import progress_path

    make_lexicon(["AA", "AB", "ABA"], name="mine")
    assert run("study", "set", "--lexicon", "mine").exit_code == 0
    delete = lexicon_store.remove
    seen: list[str] = []

    def failing(name: str) -> str:
        raise OSError("the disk went away")

    monkeypatch.setattr(lexicon_store, "remove", failing)
    with ProgressStore() as store, pytest.raises(OSError):
        remove_lexicon(store, "mine", force=True)
    assert run("study", "show", "--json").json()["lexicon"] == "mine"  # nothing half done

    def locked_out(name: str) -> str:
        other = sqlite3.connect(progress_path(), timeout=0, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")
            seen.append("another writer got in")
        except sqlite3.OperationalError as exc:
            seen.append(str(exc))
        finally:
            other.close()
        return delete(name)

    monkeypatch.setattr(lexicon_store, "remove", locked_out)
    with ProgressStore() as store:
        held = sum(n for _, _, n in store.state_counts("mine"))
        removed = remove_lexicon(store, "MINE", force=True)
    assert (removed.name, removed.cards, removed.studied) == ("mine", held, True)
    assert seen == ["database is locked"]
    assert run("study", "show", "--json").json()["lexicon"] == "enable"
    assert run("lexicon", "remove", "mine").stderr.strip() == "error: no compiled lexicon named 'mine'"


def test_a_lost_study_lexicon_says_how_to_pick_another(small, make_lexicon, home):
    make_lexicon(["AA", "AB", "ABA"], name="gone")
    assert run("study", "set", "--lexicon", "gone").exit_code == 0
    (home / "lexicons" / "gone.json").unlink()  # its files lost (another program, a disk), not `lexicon remove`
    for command in (["daily", "--jsonl"], ["quiz", "--list", "twos", "--jsonl"], ["stats", "--json"],
                    ["positions", "list"], ["study", "card", "AA"], ["study", "cards"], ["study", "leeches"],
                    ["study", "tournament", "2099-01-01", "--retention", "0.9"]):
        error = one_clear_line(run(*command, input=""), "unknown lexicon 'gone'",
                               "lexitrain study set --lexicon NAME")
        assert "known: " in error  # the lexicons it can pick
    assert run("study", "set", "--lexicon", "small").exit_code == 0  # picking another works at once
    assert run("daily", "--jsonl", input="").exit_code == 0
    other = run("daily", "--jsonl", "--lexicon", "nosuch", input="")  # a name typed, not the study lexicon
    assert "study set" not in one_clear_line(other, "unknown lexicon 'nosuch'")


def test_damage_is_still_called_damage(small, home):
    assert run("quiz", "--list", "twos", "--lexicon", "small", "--jsonl", input="AA\n").exit_code == 0
    path = home / "progress.sqlite"
    for suffix in ("-wal", "-shm"):
        (home / f"progress.sqlite{suffix}").unlink(missing_ok=True)
    path.write_bytes(b"this is not a database" * 300)
    one_clear_line(run("daily", "--jsonl", "--lexicon", "small", input=""), "damaged", "left untouched")
    with pytest.raises(sqlite3.DatabaseError):
        sqlite3.connect(path).execute("SELECT * FROM sqlite_master").fetchall()


def test_a_relative_data_home_is_taken_from_the_folder_the_command_runs_in(small, home, tmp_path, monkeypatch):
    """Before, `daily` and `stats` failed with a traceback (a relative path has no file URI)."""
    (tmp_path / "work").mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LEXITRAIN_HOME", "home")
    drill = run("daily", "--lexicon", "small", "--jsonl", input="AA\n")
    assert drill.exit_code == 0, drill.stderr
    assert of("summary", lines(drill.stdout))[0]["questions"] == 1
    monkeypatch.chdir(tmp_path / "work")
    monkeypatch.setenv("LEXITRAIN_HOME", "../home")
    stats = run("stats", "--lexicon", "small", "--json")
    assert stats.exit_code == 0, stats.stderr
    assert sum(day["answers"] for day in stats.json()["reviews_per_day"]) == 1
    assert run("progress", "backups", "--json").json()[0]["file"].startswith(str(home))
