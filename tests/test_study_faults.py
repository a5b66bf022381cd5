"""The fault run: every kind of damage a disk, a crash or a sync makes to a progress file, each
refused before anything is written to it (index damage that SQLite's quick_check cannot see
included), none a traceback, every one rescued and the rescue imported whole; damage that arises
later in the day is found within the hour; a damaged file is never copied into a backup.

The damage is real: bytes of the file changed as a disk would change them, on table and index
pages, inside an index's keys (the page well formed, the index wrong), in the schema's names and
statements, in the header, or the file cut short."""

from __future__ import annotations

import hashlib
import re
import shutil
import sqlite3
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Callable

import pytest

from lexitrain.errors import LexitrainError
from lexitrain.study.store import AnswerRow, ProgressStore, backups
from study_helpers import small  # noqa: F401  (small is a fixture)
from tests.cli_runner import one_line, run

NOW = datetime(2026, 3, 1, 10, 0, tzinfo=timezone.utc)
CARDS, ANSWERS = 1500, 3000


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    """A progress file of 1,500 reviewed cards (due dates in the cards_due index), 3,000 answers and an
    uploaded list, closed cleanly; each test damages a copy of it."""
    folder = tmp_path_factory.mktemp("faults")
    path = folder / "progress.sqlite"
    at = NOW.timestamp()
    with ProgressStore(path) as store:
        ids = store.ensure_cards("small", [("anagram", f"K{n:05d}") for n in range(CARDS)], at)
        with store.transaction():
            store.conn.execute("UPDATE cards SET due = ? + id * 60, state = 2, stability = 5.0, difficulty = 5.0, "
                               "last_review = ?", (at, at - 86400))
            session = store.start_session("quiz", "small", "bulk", at)
            for number in range(ANSWERS):
                store.record_answer(AnswerRow(session, "quiz", ids[number % CARDS], "anagram",
                                              f"K{number % CARDS:05d}", "X" * 40, False, False, None, at + number, 500))
        store.keep_word_list("club sevens", "RETAINS\nNASTIER", at)  # an uploaded list is the player's too
    shutil.rmtree(backups.folder(path), ignore_errors=True)
    return path


@pytest.fixture
def progress(template, small, home, monkeypatch) -> Path:
    monkeypatch.setenv("LEXITRAIN_NOW", NOW.isoformat())
    shutil.copy(template, home / "progress.sqlite")
    return home / "progress.sqlite"


def _pages(path: Path, name: str) -> tuple[list[int], int]:
    """The leaf pages of a table or index, and the page size (read before the damage)."""
    conn = sqlite3.connect(path)
    try:
        pages = [row[0] for row in conn.execute(
            "SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY pageno", (name,))]
        return pages, conn.execute("PRAGMA page_size").fetchone()[0]
    finally:
        conn.close()


def _edit(path: Path, edit: Callable[[bytearray], None]) -> None:
    data = bytearray(path.read_bytes())
    edit(data)
    path.write_bytes(bytes(data))


def page_filled(name: str, nth: int, fill: Callable[[int], bytes]) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        pages, size = _pages(path, name)
        offset = (pages[nth] - 1) * size

        def edit(data: bytearray) -> None:
            data[offset:offset + size] = fill(size)
        _edit(path, edit)
    return damage


def garbage(name: str, nth: int = 0) -> Callable[[Path], None]:
    return page_filled(name, nth, lambda size: bytes((index * 37 + 11) % 256 for index in range(size)))


def zeroed(name: str, nth: int = 0) -> Callable[[Path], None]:
    return page_filled(name, nth, bytes)


def swapped(name: str) -> Callable[[Path], None]:
    """Two leaves of one tree written to each other's place."""
    def damage(path: Path) -> None:
        pages, size = _pages(path, name)
        one, two = (pages[1] - 1) * size, (pages[2] - 1) * size

        def edit(data: bytearray) -> None:
            data[one:one + size], data[two:two + size] = data[two:two + size], data[one:one + size]
        _edit(path, edit)
    return damage


def key_changed(name: str, old: bytes, new: bytes) -> Callable[[Path], None]:
    """A key inside an index's leaf changed in place: every page well formed, the index wrong."""
    def damage(path: Path) -> None:
        pages, size = _pages(path, name)

        def edit(data: bytearray) -> None:
            found = [data.find(old, (page - 1) * size, page * size) for page in pages]
            at = next(offset for offset in found if offset >= 0)
            data[at:at + len(new)] = new
        _edit(path, edit)
    return damage


def cell_dropped(name: str) -> Callable[[Path], None]:
    """A leaf's count of cells one less: the index misses a row."""
    def damage(path: Path) -> None:
        pages, size = _pages(path, name)
        offset = (pages[1] - 1) * size

        def edit(data: bytearray) -> None:
            count = int.from_bytes(data[offset + 3:offset + 5], "big")
            data[offset + 3:offset + 5] = (count - 1).to_bytes(2, "big")
        _edit(path, edit)
    return damage


def schema_text(old: bytes, new: bytes, nth: int = 0) -> Callable[[Path], None]:
    """Bytes of the schema table changed: an index's or table's name, or its statement."""
    def edit(data: bytearray) -> None:
        at = [match.start() for match in re.finditer(re.escape(old), data)][nth]
        data[at:at + len(new)] = new
    return lambda path: _edit(path, edit)


def header(offset: int, value: bytes) -> Callable[[Path], None]:
    def edit(data: bytearray) -> None:
        data[offset:offset + len(value)] = value
    return lambda path: _edit(path, edit)


def truncated(keep: Callable[[int], int]) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        with path.open("r+b") as file:
            file.truncate(keep(path.stat().st_size))
    return damage


NOT_TEXT = b"\xff\xfe\x00\x01\x02\x03\x04\x05\x06"
#: What quick_check does not see (an index that no longer matches its table): the full check must.
QUICK_CHECK_MISSES = {"cards' unique index: key changed", "cards' unique index: leaves swapped",
                      "due index: key changed"}
DAMAGES: dict[str, Callable[[Path], None]] = {
    "cards: a leaf garbage": garbage("cards", 3),
    "cards: the first leaf garbage": garbage("cards", 0),
    "cards: a leaf zeroed": zeroed("cards", 2),
    "answers: a leaf garbage": garbage("answers", 3),
    "answers: leaves swapped": swapped("answers"),
    "sessions: its page garbage": garbage("sessions"),
    "cards' unique index: a leaf garbage": garbage("sqlite_autoindex_cards_1", 2),
    "cards' unique index: a leaf zeroed": zeroed("sqlite_autoindex_cards_1", 1),
    "cards' unique index: leaves swapped": swapped("sqlite_autoindex_cards_1"),
    "cards' unique index: key changed": key_changed("sqlite_autoindex_cards_1", b"K00100", b"K0010X"),
    "cards' unique index: a cell dropped": cell_dropped("sqlite_autoindex_cards_1"),
    "due index: a leaf garbage": garbage("cards_due", 1),
    "due index: key changed": key_changed("cards_due", b"small", b"smalm"),
    "answers_at index: a leaf garbage": garbage("answers_at", 1),
    "answers_card index: a leaf garbage": garbage("answers_card", 1),
    "answers_card index: a cell dropped": cell_dropped("answers_card"),
    "answers_session index: a leaf garbage": garbage("answers_session", 1),
    "an index's name not text": schema_text(b"cards_due", NOT_TEXT),
    "an index's name changed": schema_text(b"cards_due", b"cards_dux"),
    "an index's statement changed": schema_text(b"cards_due", b"cards_dux", 1),
    "an index's statement not text": schema_text(b"cards_due", NOT_TEXT, 1),
    "a table's name changed": schema_text(b"tablesessionssessions", b"tablesessionzsessions"),
    "the freelist's pointer garbage": header(32, b"\x00\x00\x7f\x00"),
    "the page count too large": header(28, b"\x00\x01\x00\x00"),
    "the file cut short by a third": truncated(lambda size: size * 2 // 3),
    "the last page cut short": truncated(lambda size: size - 1000),
}


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def quick_check(path: Path) -> str:
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return str(conn.execute("PRAGMA quick_check").fetchone()[0])
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
        return str(exc)
    finally:
        conn.close()


def duplicate_cards(store: ProgressStore) -> list[tuple[str, str, str]]:
    return store.conn.execute("SELECT lexicon, kind, key FROM cards NOT INDEXED GROUP BY lexicon, kind, key "
                              "HAVING count(*) > 1").fetchall()


@pytest.mark.parametrize("damage", DAMAGES)
def test_every_damage_is_refused_before_a_write_and_rescued_whole(progress, tmp_path, monkeypatch, damage):
    DAMAGES[damage](progress)
    assert (quick_check(progress) == "ok") == (damage in QUICK_CHECK_MISSES)
    damaged = digest(progress)
    monkeypatch.setenv("LEXITRAIN_NOW", (NOW + timedelta(days=1)).isoformat())  # the day's first open
    one_line(run("quiz", "--lexicon", "small", "--length", "7", "--jsonl", "--limit", "1", input="RETAINS\n"),
             "damaged", "rescue")
    one_line(run("stats", "--lexicon", "small"), "damaged")
    assert digest(progress) == damaged  # never written to
    assert not backups.backups(progress)  # nor copied
    rescued = run("progress", "rescue", str(tmp_path / "rescued.json"), "--json")
    assert rescued.exit_code == 0, rescued.stderr
    saved = rescued.json()["saved"]
    assert digest(progress) == damaged
    shutil.move(progress, tmp_path / "damaged.sqlite")
    restored = run("progress", "import", str(tmp_path / "rescued.json"), "--json")
    assert restored.exit_code == 0, restored.stderr
    with ProgressStore() as store:
        counts = {table: store.conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
                  for table in ("cards", "answers")}
        assert counts == {"cards": saved["cards"], "answers": saved["answers"]}
        assert duplicate_cards(store) == []
        assert store.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    if damage in QUICK_CHECK_MISSES or "index" in damage:
        assert saved["cards"] == CARDS and saved["answers"] == ANSWERS  # a table read never needs an index
        assert saved["lists"] == 1
        with ProgressStore() as store:
            assert store.word_list("club sevens") == "RETAINS\nNASTIER"


def test_index_damage_quick_check_misses_makes_no_second_card(progress, monkeypatch):
    """Before, the answer went in through the damaged index: a second card of one question."""
    DAMAGES["cards' unique index: key changed"](progress)
    monkeypatch.setenv("LEXITRAIN_NOW", (NOW + timedelta(days=1)).isoformat())
    with pytest.raises(LexitrainError, match="damaged .*missing from index"):
        with ProgressStore() as store:
            store.ensure_card("small", "anagram", "K00100", NOW.timestamp())
    conn = sqlite3.connect(progress)
    assert conn.execute("SELECT count(*) FROM cards NOT INDEXED WHERE key = 'K00100'").fetchone()[0] == 1
    conn.close()


def test_damage_arising_later_in_the_day_is_found_within_the_hour(progress, monkeypatch):
    later = NOW + timedelta(days=1)
    monkeypatch.setenv("LEXITRAIN_NOW", later.isoformat())
    assert run("quiz", "--lexicon", "small", "--length", "7", "--jsonl", "--limit", "1",
               input="RETAINS\n").exit_code == 0  # the day's first open: checked, sound, backed up
    assert len(backups.backups(progress)) == 1
    DAMAGES["cards' unique index: key changed"](progress)
    damaged = digest(progress)
    monkeypatch.setenv("LEXITRAIN_NOW", (later + timedelta(minutes=61)).isoformat())
    one_line(run("quiz", "--lexicon", "small", "--length", "7", "--jsonl", "--limit", "1", input="RETAINS\n"),
             "damaged", "missing from index")
    assert digest(progress) == damaged


def test_a_damaged_file_is_never_copied_into_a_backup(progress):
    """Every copy is checked in full before it is kept (as when the damage came after the open's check)."""
    DAMAGES["cards' unique index: key changed"](progress)
    conn = sqlite3.connect(progress)
    try:
        with pytest.raises(LexitrainError, match="damaged .*missing from index.*backup was taken, which was not kept"):
            backups.take(conn, progress, datetime(2026, 3, 2, 11, 0))
    finally:
        conn.close()
    assert backups.backups(progress) == [] and not list(backups.folder(progress).glob("*.partial"))
