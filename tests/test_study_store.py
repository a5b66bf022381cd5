"""The progress store: schema versions, WAL, two writers at once; and the scheduler's rules."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from lexitrain.errors import LexitrainError
from lexitrain.study.quiz.scheduler import LEITNER_DAYS, Scheduling
from lexitrain.study.store import SCHEMA_VERSION, AnswerRow, CardRow, ProgressStore

ROOT = Path(__file__).resolve().parents[1]
NOW = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)


def test_new_store_is_versioned_and_in_wal_mode(home):
    with ProgressStore() as store:
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store.path == home / "progress.sqlite"
    with ProgressStore() as again:  # reopening migrates nothing and loses nothing
        assert again.conn.execute("SELECT count(*) FROM cards").fetchone()[0] == 0


def test_ensure_cards_is_idempotent(home):
    with ProgressStore() as store:
        first = store.ensure_cards("enable", [("anagram", "AB"), ("hooks", "AB")], 1.0)
        second = store.ensure_cards("enable", [("hooks", "AB"), ("anagram", "AB"), ("anagram", "AB")], 2.0)
        assert second == [first[1], first[0], first[0]]
        assert store.ensure_cards("cel", [("anagram", "AB")], 1.0)[0] not in first  # one card per lexicon


def answer(session: int, card: CardRow, given: str) -> AnswerRow:
    return AnswerRow(session, "quiz", card.id, card.kind, card.key, given, True, False, card, 10.0, 100)


def test_each_write_is_committed_at_once_and_a_transaction_commits_together(home):
    with ProgressStore() as store, ProgressStore() as other:  # `other`: another process looking at the file
        card = store.card(store.ensure_card("enable", "anagram", "AB", 1.0))
        session = store.start_session("quiz", "enable", "test", 1.0)
        store.record_answer(answer(session, card, "AB"))
        assert other.answers_since("quiz", "enable", 0) == (0, 1)  # seen at once: nothing waits for a commit
        with store.transaction():
            store.save_card(replace(card, state=2, due=50.0))
            store.record_answer(answer(session, card, "BA"))
            with store.transaction():  # an inner use joins the outer one
                store.set_setting("mode", "leitner")
            assert other.card(card.id).state == 0 and other.setting("mode") is None  # not committed yet
        assert other.card(card.id).due == 50.0 and other.answers_since("quiz", "enable", 0) == (0, 2)
        assert other.setting("mode") == "leitner"


def test_a_failed_transaction_saves_nothing_and_a_failed_inner_part_only_undoes_itself(home):
    with ProgressStore() as store:
        card = store.card(store.ensure_card("enable", "anagram", "AB", 1.0))
        session = store.start_session("quiz", "enable", "test", 1.0)
        with pytest.raises(ZeroDivisionError):
            with store.transaction():
                store.save_card(replace(card, state=2, due=50.0))
                store.record_answer(answer(session, card, "AB"))
                1 / 0
        assert store.card(card.id) == card and store.answers_since("quiz", "enable", 0) == (0, 0)
        with store.transaction():
            store.save_card(replace(card, state=2, due=60.0))
            with pytest.raises(ZeroDivisionError):
                with store.transaction():
                    store.record_answer(answer(session, card, "AB"))
                    1 / 0
        assert store.card(card.id).due == 60.0 and store.answers_since("quiz", "enable", 0) == (0, 0)


def test_newer_schema_refused_untouched(home):
    path = home / "progress.sqlite"
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    before = path.read_bytes()
    with pytest.raises(LexitrainError, match="newer lexitrain"):
        ProgressStore()
    assert path.read_bytes() == before


WRITER = """
import sys
from lexitrain.study.store import AnswerRow, ProgressStore
from lexitrain.study.quiz.scheduler import Scheduling, utc_now
store = ProgressStore()
scheduling = Scheduling()
ids = store.ensure_cards("enable", [("anagram", f"K{i}") for i in range(20)], 0.0)
session = store.start_session("quiz", "enable", sys.argv[1], 0.0)
for round in range(10):
    for card_id in ids:
        with store.transaction():
            card = store.card(card_id)
            store.save_card(scheduling.review(card, round % 2 == 0, utc_now()))
            store.record_answer(AnswerRow(session, "quiz", card_id, "anagram", "k", sys.argv[1], True, False, card, 0.0, None))
"""


def test_two_processes_write_at_once(home):
    env = {**os.environ, "LEXITRAIN_HOME": str(home), "PYTHONPATH": str(ROOT)}
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, name], cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True)
             for name in ("one", "two")]
    for proc in procs:
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
    with ProgressStore() as store:
        assert store.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        counts = dict(store.conn.execute("SELECT given, count(*) FROM answers GROUP BY given").fetchall())
        assert counts == {"one": 200, "two": 200}
        # Each card's counters saw every one of the 20 reviews from both processes.
        totals = store.conn.execute("SELECT DISTINCT correct + incorrect FROM cards").fetchall()
        assert totals == [(20,)]


def card(**fields) -> CardRow:
    base = CardRow(1, "enable", "anagram", "AB", 0, None, None, None, None, None, 0, 0, 0, 0, 0.0)
    return replace(base, **fields)


def test_fsrs_transitions():
    fsrs = Scheduling()
    learned = fsrs.review(card(), True, NOW)
    assert learned.state == 1 and learned.due == (NOW + timedelta(minutes=10)).timestamp()
    graduated = fsrs.review(learned, True, NOW + timedelta(minutes=10))
    assert graduated.state == 2 and graduated.due >= (NOW + timedelta(days=1)).timestamp()
    lapsed = fsrs.review(graduated, False, datetime.fromtimestamp(graduated.due, timezone.utc))
    assert lapsed.state == 3 and lapsed.stability < graduated.stability and lapsed.streak == -1
    assert (lapsed.correct, lapsed.incorrect) == (2, 1)


def test_higher_retention_means_sooner_reviews():
    review = card(state=2, stability=20.0, difficulty=5.0, due=NOW.timestamp(),
                  last_review=(NOW - timedelta(days=20)).timestamp())
    soon = Scheduling(retention=0.97).review(review, True, NOW).due
    late = Scheduling(retention=0.8).review(review, True, NOW).due
    assert soon < late


def test_bad_scheduling_settings():
    with pytest.raises(LexitrainError, match="unknown scheduling mode"):
        Scheduling(mode="anki")
    with pytest.raises(LexitrainError, match="retention"):
        Scheduling(retention=1.5)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.booleans(), min_size=1, max_size=25), st.sampled_from(["fsrs", "leitner"]),
       st.floats(min_value=0.75, max_value=0.97))
def test_any_answer_history_keeps_cards_sane(answers, mode, retention):
    scheduling = Scheduling(mode, retention)
    current, now = card(), NOW
    for right in answers:
        after = scheduling.review(current, right, now)
        assert after.due > now.timestamp() and after.last_review == now.timestamp()
        assert after.state in (1, 2, 3) and after.stability > 0 and 1 <= after.difficulty <= 10
        assert 0 <= after.cardbox < len(LEITNER_DAYS)
        assert after.cardbox == (min(current.cardbox + 1, 10) if right else 0)
        if mode == "leitner":
            assert after.due == (now + timedelta(days=LEITNER_DAYS[after.cardbox])).timestamp()
        assert after.correct + after.incorrect == current.correct + current.incorrect + 1
        current, now = after, datetime.fromtimestamp(after.due, timezone.utc)


def test_two_first_runs_at_once_both_open_the_new_database(tmp_path):
    """Both processes create the database at the same moment (before the fix, most such pairs
    failed with 'database is locked' while switching the new file to WAL)."""
    opener = "from lexitrain.study.store import ProgressStore; ProgressStore().close()"
    for attempt in range(6):
        env = {**os.environ, "LEXITRAIN_HOME": str(tmp_path / str(attempt)), "PYTHONPATH": str(ROOT)}
        procs = [subprocess.Popen([sys.executable, "-c", opener], cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True)
                 for _ in range(2)]
        for proc in procs:
            _, err = proc.communicate(timeout=60)
            assert proc.returncode == 0, err
