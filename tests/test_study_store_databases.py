"""The progress store on SQLite and on PostgreSQL: one API, one set of migrations, the same answers.

Every test here runs on both: a player's SQLite file, and a member's schema on a throw-away
PostgreSQL cluster (the club's). The same history written through the store's methods must read
back the same through every one of them, and the trust rules (a transaction commits whole, a card
moved since it was read is never overwritten, two drills never lease one card) hold on both, with
the races forced by a barrier between a read and its write.
"""

from __future__ import annotations

import json
import math
import random
import sqlite3
import threading
import uuid
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path

import pytest

from lexitrain.errors import LexitrainError
from lexitrain.study.quiz.replay import Rescheduling, replay_card, rescheduling
from lexitrain.study.quiz.scheduler import AGAIN, EASY, GOOD, HARD, Scheduling
from lexitrain.study.records.transfer import export_progress, import_progress
from tests.test_study_store_migrations import make_v7
from lexitrain.study.store import (SCHEMA_VERSION, AnswerRow, CardMoved, CardRow, DueMove, Filters, GivenAnswer,
                                   ProgressStore, StoredPosition)

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc).timestamp()
DAY = 86400.0
Opener = Callable[..., ProgressStore]


@pytest.fixture(params=["sqlite", "postgresql"])
def open_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Opener]:
    """Opens the test's store, as many connections to it as asked (another process, another device);
    `open_store("member_2")` opens another member's schema on the same PostgreSQL database."""
    opened: list[ProgressStore] = []
    if request.param == "sqlite":
        def open_sqlite(name: str = "member_1") -> ProgressStore:
            opened.append(ProgressStore(tmp_path / f"{name}.sqlite"))
            return opened[-1]

        yield open_sqlite
    else:
        import psycopg

        from lexitrain.study.store.postgres import PostgresConnection

        cluster = request.getfixturevalue("postgres_cluster")
        database = f"store_{uuid.uuid4().hex[:12]}"
        url = cluster.create_database(database)

        def open_postgres(name: str = "member_1") -> ProgressStore:
            opened.append(ProgressStore(postgres=PostgresConnection(psycopg.connect(url), name)))
            return opened[-1]

        yield open_postgres
        for store in opened:
            store.close()
        cluster.drop_database(database)
        return
    for store in opened:
        store.close()


def test_a_new_store_has_every_table_at_the_current_version_and_reopening_changes_nothing(open_store):
    store = open_store()
    tables = {"cards", "plans", "plan_queue", "sessions", "answers", "challenges", "settings", "positions",
              "card_leases", "decks", "rounds", "word_lists", "schedulings", "answer_changes", "card_events",
              "change_seq", "sync_peers", "tombstones", "saved_searches", "due_days"}
    if store.dialect == "sqlite":
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        found = {r[0] for r in store.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    else:
        assert store.conn.execute("SELECT version FROM store_version").fetchone()[0] == SCHEMA_VERSION
        found = {r[0] for r in store.conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")}
        found.discard("store_version")
    assert found == tables
    store.ensure_card("enable", "anagram", "AB", T0)
    assert open_store().card_counters("enable") == [("anagram", "AB", 0, None, 0, 0)]


def test_both_databases_make_the_same_columns(open_store):
    """The same migrations: every table has the same columns, in the same order, on both."""
    store = open_store()
    for table in EXPECTED_COLUMNS:
        cursor = store.conn.execute(f"SELECT * FROM {table} WHERE 1 = 0")
        assert [d[0] for d in cursor.description] == EXPECTED_COLUMNS[table], table


EXPECTED_COLUMNS = {
    "cards": ["id", "lexicon", "kind", "key", "state", "step", "stability", "difficulty", "due", "last_review",
              "cardbox", "correct", "incorrect", "streak", "added", "deck_id", "suspended", "placed", "placed_seq"],
    "answers": ["id", "session_id", "mode", "card_id", "kind", "key", "given", "correct", "was_new", "before", "at",
                "ms", "rating", "late_mark", "uid", "scheduling", "seq"],
    "schedulings": ["id", "spec"],
    "answer_changes": ["uid", "answer", "what", "value", "at", "seq"],
    "card_events": ["uid", "lexicon", "kind", "key", "what", "at", "body", "seq"],
    "change_seq": ["seq", "store"],
    "sync_peers": ["peer", "store", "sent", "received", "synced"],
    "sessions": ["id", "mode", "lexicon", "source", "started", "ended", "complete", "seq", "taken"],
    "challenges": ["session_id", "date", "kind", "lexicon", "score", "total", "seconds", "completed", "retake", "seq"],
    "positions": ["id", "lexicon", "cgp", "source", "top_score", "top_play", "top_word", "top_length", "bingo",
                  "blank", "margin", "top_rank", "plays", "added", "analysis", "seq"],
    "decks": ["id", "lexicon", "name", "retention", "new_per_day", "reviews_per_day", "created", "changed", "seq"],
    "plans": ["id", "lexicon", "name", "spec", "cards", "created", "changed", "seq"],
    "settings": ["name", "value", "changed", "seq"],
    "tombstones": ["what", "name", "changed", "seq"],
    "saved_searches": ["name", "conditions", "changed", "seq"],
    "card_leases": ["card_id", "holder", "until"],
}


def test_a_newer_schema_is_refused_untouched(open_store):
    store = open_store()
    if store.dialect == "sqlite":
        store.conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    else:
        store.conn.execute("UPDATE store_version SET version = ?", (SCHEMA_VERSION + 1,))
    with pytest.raises(LexitrainError, match="newer lexitrain"):
        open_store()


def write_history(store: ProgressStore, seed: int = 7) -> None:
    """A player's month, through the store's methods only: cards of two kinds, a deck, a plan, answers
    graded by FSRS in quizzes, dailies and challenges, leases, settings, positions, suspensions."""
    rng = random.Random(seed)
    random.seed(seed)  # (in case the scheduler fuzzes intervals)
    keys = [f"{a}{b}{c}" for a in "ABCDE" for b in "EIOU" for c in "RST"]
    ids = store.ensure_cards("enable", [(kind, key) for key in keys for kind in ("anagram", "hooks")], T0)
    deck = store.save_deck("enable", "threes", 0.85, 5, 50, T0)
    store.move_cards(ids[::3], deck.id)
    plan = store.queue_plan("enable", "threes", [{"list": "threes"}], ids[:40], T0)
    store.set_setting("mode", "fsrs")
    store.set_setting("plan:enable", plan)
    scheduling = Scheduling()
    for day in range(30):
        now = T0 + day * DAY + 3600
        mode = ("quiz", "daily", "challenge")[day % 3]
        session = store.start_session(mode, "enable", f"source-{day % 4}", now)
        if mode == "challenge":
            store.start_challenge(session, f"2026-03-{day + 1:02d}", "threes", "enable", 10)
        for n, card_id in enumerate(rng.sample(ids, 10)):
            at = now + n * 7.5
            with store.transaction():
                before = store.card(card_id)
                correct = rng.random() < 0.7
                after = scheduling.grade(before, GOOD if correct else AGAIN, datetime.fromtimestamp(at, timezone.utc))
                store.save_card(after)
                store.record_answer(AnswerRow(session, mode, card_id, before.kind, before.key, before.key.lower(),
                                              correct, before.state == 0, before, at, rng.randrange(800, 200_000),
                                              rating=GOOD if correct else AGAIN, uid=f"{rng.getrandbits(128):032x}"))
        practice = store.record_answer(AnswerRow(session, mode, None, "anagram", "ZZZ", "zzz", False, False, None,
                                                 now + 99, 500, uid=f"{rng.getrandbits(128):032x}"))
        if day % 5 == 0:
            store.mark_answer(practice, True, now + 99)
        if mode == "challenge":
            store.mark_late(practice, False, now + 99)
            store.finish_challenge(session, 75.5, completed=day != 5)
        store.end_session(session, now + 100, complete=day % 4 != 1)
    store.set_suspended(ids[5:9], True)
    store.delete_cards(ids[100:103])
    store.delete_deck(store.save_deck("enable", "gone", None, None, None, T0).id)
    assert not store.is_retake(session)
    store.lease_card(ids[10], "drill-1", T0 + 40 * DAY)
    store.lease_card(ids[11], "drill-2", T0 + 40 * DAY)
    store.store_positions("enable", [StoredPosition(f"cgp {n}", f"game:{n}", 20 + n, f"8D W{n}", f"W{n}", 5 + n % 3,
                                                    n % 2 == 0, n % 3 == 0, n, None if n % 2 else 100 + n, 30 + n,
                                                    analysis=json.dumps({"by": "sim"}) if n % 3 == 0 else None)
                                     for n in range(6)], T0)


def everything_read(store: ProgressStore) -> dict[str, object]:
    """What every read method of the store says about the history (lists with no order of their own sorted)."""
    now = T0 + 31 * DAY
    plan = store.setting("plan:enable")
    deck = store.deck("enable", "threes")
    assert deck is not None
    ids = sorted(card.id for card in store.studied_cards("enable"))
    return {
        "due": store.due_cards("enable", now, 500, skip=frozenset(ids[:3]), skip_decks=frozenset({deck.id})),
        "due_count": store.due_count("enable", now),
        "studied": sorted(store.studied_cards("enable"), key=lambda card: card.id),
        "counters": sorted(store.card_counters("enable")),
        "per_quarter_hour": (lambda d: (d[0], sorted(d[1])))(store.due_per_quarter_hour("enable", now - 5 * DAY,
                                                                                         now + 20 * DAY)),
        "most_missed_cards": store.most_missed_cards("enable", "ana", 20),
        "keys_in_state": sorted(store.keys_in_state("enable", "hook", 2)),
        "answers_since": [store.answers_since(mode, "enable", T0 + 10 * DAY) for mode in ("quiz", "daily")],
        "answers_since_kind": store.answers_since("daily", "enable", T0, "hooks"),
        "review_log": store.review_log(),
        "review_log_deck": store.review_log(deck.id),
        "seconds_per_card": store.seconds_per_card(ids[:20]),
        "seconds_per_kind": store.seconds_per_kind("enable"),
        "states_since": store.states_since("enable", T0 + 20 * DAY),
        "answers_per_quarter_hour": sorted(store.answers_per_quarter_hour("enable", T0)),
        "review_tally": store.review_tally("enable", T0 + 15 * DAY),
        "source_attempts": store.source_attempts("enable", "source-1"),
        "source_misses": store.source_misses("enable", "source-2"),
        "most_missed": store.most_missed("enable", "anagram", T0, now, 10),
        "last_session": store.last_session_answers("quiz", "enable", "source-0"),
        "challenges": [attempt.to_json() for attempt in store.challenge_history("enable", None, 50)],
        "decks": store.decks("enable"),
        "deck_sizes": store.deck_sizes("enable"),
        "deck_answers": store.deck_answers_since("daily", "enable", T0),
        "deck_limits": store.has_deck_limits("enable"),
        "plan": store.plan(plan),
        "new_cards": store.new_cards(plan, 10, skip=frozenset(ids[:2])),
        "leased": store.leased_by_others("drill-1", T0 + 35 * DAY),
        "lease_counts": store.lease_counts(frozenset(ids[:12]), "enable"),
        "state_counts": sorted(store.state_counts("enable")),
        "intervals": sorted(store.review_intervals("enable")),
        "failed": store.failed_cards("enable", 2),
        "forgotten": store.cards_forgotten_by("enable", T0 + 29 * DAY, T0 + 60 * DAY, 1.0),
        "answer_times": store.answer_times("anagram", 15),
        "reviews": store.card_reviews(ids[0]),
        "place": store.card_place(ids[6]),
        "settings": store.all_settings(),
        "positions": [p.to_json() for p in store.select_positions("enable", "position", Filters(), now)],
        "positions_filtered": [p.cgp for p in store.select_positions(
            "enable", "position", Filters(min_score=21, analysed="sim", bingo=True), now, limit=5)],
        "first_new_position": store.first_new_position("enable", "position", Filters(blank=True)),
        "position_count": store.position_count("enable"),
        "analysis": [store.position_analysis("enable", f"cgp {n}") for n in range(6)],
        "export": store.export_rows(),
    }


#: What the history reads as on SQLite, computed once per test process: PostgreSQL must read the same.
_SQLITE_READS: dict[str, object] = {}


def test_the_same_history_reads_the_same_through_every_method(open_store, tmp_path, monkeypatch):
    monkeypatch.setenv("LEXITRAIN_NOW", "2026-04-01T12:00:00+00:00")  # (when settings and decks last changed)
    store = open_store()
    write_history(store)
    reads = everything_read(store)
    if not _SQLITE_READS:
        reference = ProgressStore(tmp_path / "reference.sqlite")
        write_history(reference)
        _SQLITE_READS.update(everything_read(reference))
        reference.close()
    for name, value in _SQLITE_READS.items():
        assert reads[name] == value, name
    assert reads["due"] and reads["states_since"] and reads["challenges"] and reads["forgotten"]  # (not all empty)


def test_a_backup_of_the_local_app_imports_into_the_store_as_into_a_local_file(open_store, tmp_path):
    """Two faces, one member: the local app's export imports into the store exactly as into another
    local file, and importing it again adds nothing."""
    local = ProgressStore(tmp_path / "local.sqlite")
    write_history(local)
    export_progress(local, tmp_path / "local.json")
    local.close()
    store, elsewhere = open_store(), ProgressStore(tmp_path / "elsewhere.sqlite")
    counts = import_progress(store, tmp_path / "local.json")
    assert counts == import_progress(elsewhere, tmp_path / "local.json") and counts["answers"] == 30 * 11
    export_progress(store, tmp_path / "store.json")
    export_progress(elsewhere, tmp_path / "elsewhere.json")
    elsewhere.close()
    mine, theirs = (json.loads((tmp_path / name).read_text()) for name in ("store.json", "elsewhere.json"))
    assert mine["cards"] and {k: v for k, v in mine.items() if k != "exported"} == {
        k: v for k, v in theirs.items() if k != "exported"}
    assert import_progress(store, tmp_path / "local.json")["answers"] == 0


def test_a_transaction_commits_whole_or_not_at_all_and_an_inner_failure_undoes_only_itself(open_store):
    store, other = open_store(), open_store()
    card = store.card(store.ensure_card("enable", "anagram", "AB", T0))
    session = store.start_session("quiz", "enable", "test", T0)
    given = AnswerRow(session, "quiz", card.id, card.kind, card.key, "AB", True, False, card, T0, 100)
    with store.transaction():
        store.save_card(replace(card, state=2, due=50.0))
        store.record_answer(given)
        with store.transaction():
            store.set_setting("mode", "leitner")
        assert other.card(card.id).state == 0 and other.setting("mode") is None  # not committed yet
    assert other.card(card.id).due == 50.0 and other.setting("mode") == "leitner"
    with pytest.raises(ZeroDivisionError):
        with store.transaction():
            store.save_card(replace(card, state=2, due=70.0))
            1 / 0
    with store.transaction():
        store.save_card(replace(card, state=2, due=60.0))
        with pytest.raises(ZeroDivisionError):
            with store.transaction():
                store.record_answer(given)
                1 / 0
    assert other.card(card.id).due == 60.0 and other.answers_since("quiz", "enable", 0) == (0, 1)


def test_an_answer_is_taken_back_exactly_unless_the_card_was_answered_since(open_store):
    """An undo: the answer's row goes, its retraction is kept (it travels), and the card is made again from
    what is left: as it was before the answer. Refused, nothing changed, when the card was answered since."""
    store, other = open_store(), open_store()
    card = store.card(store.ensure_card("enable", "anagram", "AB", T0))
    session = store.start_session("quiz", "enable", "test", T0)

    def answer(into: ProgressStore, at: float) -> tuple[CardRow, int]:
        kept = into.grade_card(GivenAnswer(session, "quiz", "enable", "anagram", "AB", "AB", True, 100, GOOD),
                               rescheduling(into, Scheduling(), GOOD), card_id=card.id, at=at)
        assert kept.after is not None
        return kept.after, kept.answer_id

    left, first = answer(store, T0)
    later, second = answer(other, T0 + 5)  # another drill answered it
    with pytest.raises(LexitrainError, match="answered again since"):
        store.take_back_answer(first, left, made_card=False, at=T0 + 9)
    assert store.card(card.id) == later and store.answers_since("quiz", "enable", 0) == (1, 1)
    taken = store.answer_uid(second)
    with store.transaction():
        store.take_back_answer(second, later, made_card=False, at=T0 + 9)
        replay_card(store, card.id)
    assert store.card(card.id) == left and store.answers_since("quiz", "enable", 0) == (1, 0)
    assert store.answers_here([taken]) == {taken}  # (its retraction: the answer is never taken again from another store)


def test_a_graded_answer_is_kept_whole_through_the_one_funnel_and_refused_on_a_card_moved_since_shown(open_store):
    """`grade_card`: the card made if asked, graded by the rule handed in, saved, and the answer recorded, in one
    commit; two devices shown the same card (its last review then) answer it: the first is kept, the second is
    refused with nothing written; a rule that fails writes nothing; an answer kept late takes its place in
    time: the card is made again from its answers in time order."""
    phone, laptop = open_store(), open_store()
    session = phone.start_session("quiz", "enable", "test", T0)

    def answer(given: str, correct: bool) -> GivenAnswer:
        return GivenAnswer(session, "quiz", "enable", "anagram", "AB", given, correct, 900, GOOD if correct else AGAIN)

    first = phone.grade_card(answer("AB", True), rescheduling(phone, Scheduling(), GOOD), make_card=True, at=T0)
    assert first.made_card and first.before is not None and first.before.state == 0
    assert first.after == phone.card(first.before.id) and first.after.last_review == T0
    again = laptop.grade_card(answer("AB", True), None, make_card=True, at=T0 + 1)  # (no rule: the card stays)
    assert not again.made_card and again.after is None and laptop.card(first.before.id) == first.after
    shown = phone.card(first.before.id).last_review  # both devices show the card now
    laptop.grade_card(answer("BA", False), rescheduling(laptop, Scheduling(), AGAIN), card_id=first.before.id,
                      shown=shown, at=T0 + DAY)
    with pytest.raises(CardMoved):
        phone.grade_card(answer("AB", True), rescheduling(phone, Scheduling(), GOOD), card_id=first.before.id,
                         shown=shown, at=T0 + DAY + 5)
    moved = laptop.card(first.before.id)
    assert moved.last_review == T0 + DAY and moved.incorrect == 1 and moved.correct == 1

    class Broken(Rescheduling):
        def __call__(self, card: CardRow, when: datetime) -> CardRow:
            raise LexitrainError("no rule")

    with pytest.raises(LexitrainError, match="no rule"):
        phone.grade_card(answer("AB", True), Broken(phone, Scheduling(), GOOD), card_id=moved.id)
    assert len(phone.card_reviews(moved.id)) == 3  # (nothing written)
    late = phone.grade_card(answer("AB", True), rescheduling(phone, Scheduling(), GOOD), card_id=moved.id,
                            at=T0 + 10)  # kept late: in its place, before the miss
    in_time_order = first.before
    for rating, at in ((GOOD, T0), (GOOD, T0 + 10), (AGAIN, T0 + DAY)):
        in_time_order = Scheduling().grade(in_time_order, rating, datetime.fromtimestamp(at, timezone.utc))
    assert late.after == in_time_order == phone.card(moved.id) and late.at == T0 + 10
    assert late.after.correct == 2 and late.after.incorrect == 1 and late.after.last_review == T0 + DAY
    assert sorted(row.at for row in phone.card_reviews(moved.id)) == [T0, T0 + 1, T0 + 10, T0 + DAY]
    assert [row.before.correct for row in sorted(phone.card_reviews(moved.id), key=lambda r: r.at)] == [0, 1, 1, 2]


def test_a_due_date_moved_in_bulk_never_overwrites_an_answer_given_after_the_read(open_store):
    """A backlog spread reads due dates, works for a while, then writes: a card answered in between
    (by another connection, between the read and the write) keeps what its answer gave it."""
    store, drill = open_store(), open_store()
    ids = store.ensure_cards("enable", [("anagram", k) for k in ("AB", "CD", "EF")], T0)
    for card_id in ids:
        store.save_card(replace(store.card(card_id), state=2, due=T0, last_review=T0 - DAY, stability=3.0))
    read = [store.card(card_id) for card_id in ids]
    drill.save_card(replace(read[1], due=T0 + 9 * DAY, last_review=T0 + 60))
    moved = store.move_due_dates((DueMove(c.id, c.due, c.last_review, T0 + DAY) for c in read), T0)
    assert moved == 2
    assert [store.card(card_id).due for card_id in ids] == [T0 + DAY, T0 + 9 * DAY, T0 + DAY]


def test_two_drills_picking_at_once_never_lease_the_same_card(open_store):
    """Each drill picks the most overdue card not leased by another and leases it, in one transaction;
    the first is held between its read and its write until the second has tried to begin."""
    setup = open_store()
    ids = setup.ensure_cards("enable", [("anagram", k) for k in ("AB", "CD", "EF")], T0)
    for n, card_id in enumerate(ids):
        setup.save_card(replace(setup.card(card_id), state=2, due=T0 - n, last_review=T0 - DAY))
    first_read, second_trying = threading.Event(), threading.Event()
    picked: dict[str, int] = {}

    def pick(name: str, store: ProgressStore, hold: bool) -> None:
        if not hold:
            first_read.wait(10)
            second_trying.set()
        with store.transaction():
            card = store.due_cards("enable", T0, 1, skip=store.leased_by_others(name, T0))[0]
            if hold:
                first_read.set()
                second_trying.wait(10)
                threading.Event().wait(0.3)  # the second is now queued on the write lock
            store.lease_card(card.id, name, T0 + 600)
        picked[name] = card.id

    drills = [threading.Thread(target=pick, args=(name, open_store(), name == "one")) for name in ("one", "two")]
    for thread in drills:
        thread.start()
    for thread in drills:
        thread.join(30)
    assert picked == {"one": ids[2], "two": ids[1]}
    assert setup.leased_by_others("nobody", T0) == frozenset(ids[1:])
    setup.release_leases("one")
    assert setup.leased_by_others("nobody", T0) == frozenset({ids[1]})


def test_one_members_store_never_reaches_anothers(open_store):
    mine, theirs = open_store("member_1"), open_store("member_2")
    mine.ensure_card("enable", "anagram", "AB", T0)
    mine.set_setting("mode", "leitner")
    theirs.ensure_card("enable", "anagram", "XY", T0)
    assert [c[1] for c in mine.card_counters("enable")] == ["AB"]
    assert [c[1] for c in theirs.card_counters("enable")] == ["XY"]
    assert theirs.setting("mode") is None and theirs.export_rows()["cards"][0]["key"] == "XY"


def test_a_schema_name_that_is_not_a_plain_name_is_refused():
    pytest.importorskip("psycopg")
    from lexitrain.study.store.postgres import PostgresConnection

    with pytest.raises(LexitrainError, match="not a progress store's schema"):
        PostgresConnection(None, "member_1; DROP TABLE cards")  # type: ignore[arg-type]


def test_the_store_statements_are_spelled_for_postgres_by_the_few_rules():
    from lexitrain.study.store.dialect import postgres_ddl, postgres_sql

    assert postgres_sql("SELECT id FROM cards NOT INDEXED WHERE key LIKE 'A%' AND id IN (SELECT value FROM "
                        "json_each(?)) AND due IS NOT DISTINCT FROM ?") == (
        "SELECT id FROM cards WHERE key LIKE 'A%%' AND id IN (SELECT CAST(value AS BIGINT) FROM "
        "json_array_elements_text(CAST(%s AS JSON))) AND due IS NOT DISTINCT FROM %s")
    assert postgres_ddl("CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER NOT NULL, x REAL, card_id INTEGER "
                        "PRIMARY KEY)") == ("CREATE TABLE t (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "
                                            "n BIGINT NOT NULL, x DOUBLE PRECISION, card_id BIGINT PRIMARY KEY)")


def test_a_backup_with_a_nul_in_a_text_is_refused_whole_in_one_line_on_either_database(open_store, tmp_path):
    """A NUL in a card's key (SQLite could keep it, PostgreSQL cannot, a sync's page never carries one): the import
    is refused as a damaged file on either database, one line naming the value, before anything is written."""
    from lexitrain.errors import LexitrainError
    from lexitrain.study.records.transfer import backup_data, merge_backup

    local = ProgressStore(tmp_path / "local.sqlite")
    write_history(local)
    data = backup_data(local.export_rows())
    local.close()
    data["cards"][0]["key"] = "A\x00B"
    store = open_store()
    with pytest.raises(LexitrainError) as refused:
        merge_backup(store, data, "the upload")
    assert str(refused.value) == ("the upload: damaged progress file (cards #1: key is 'A\\x00B' (expected a "
                                  "question's key)); nothing was imported")
    assert store.export_rows()["cards"] == [] and store.export_rows()["answers"] == []


def test_a_members_store_of_version_7_upgrades_on_postgresql_as_a_file_does(postgres_cluster, tmp_path):
    """A club's member store made before answers had ids is upgraded like a player's file: the same ids
    from the same answers, the same `set` events, every card as it was."""
    import psycopg

    from lexitrain.study.store.postgres import PostgresConnection

    url = postgres_cluster.create_database(f"store_{uuid.uuid4().hex[:12]}")
    raw = PostgresConnection(psycopg.connect(url), "member_7")
    make_v7(raw.execute, raw.execute, "postgresql")
    raw.execute("CREATE TABLE store_version (version BIGINT NOT NULL)")
    raw.execute("INSERT INTO store_version (version) VALUES (7)")
    raw.close()
    path = tmp_path / "file.sqlite"
    conn = sqlite3.connect(path, isolation_level=None)
    make_v7(conn.execute, conn.execute)
    conn.execute("PRAGMA user_version = 7")
    conn.close()
    with ProgressStore(postgres=PostgresConnection(psycopg.connect(url), "member_7")) as member, ProgressStore(path) as file:
        assert [r[0] for r in member.conn.execute("SELECT uid FROM answers ORDER BY id")] == \
            [r[0] for r in file.conn.execute("SELECT uid FROM answers ORDER BY id")]
        events = "SELECT uid, lexicon, kind, key, what, at, body FROM card_events ORDER BY uid"
        assert member.conn.execute(events).fetchall() == file.conn.execute(events).fetchall()
        before = member.scheduled_cards()
        with member.transaction():
            assert [replay_card(member, card.id) for card in before] == before
        assert member.last_seq() == file.last_seq() == 7


def due_by_counting(store: ProgressStore, lexicon: str, moment: float) -> int:
    """The cards due by MOMENT, counted from the cards themselves (what the kept days must always say)."""
    return int(store.conn.execute("SELECT count(*) FROM cards WHERE lexicon = ? AND due IS NOT NULL AND due <= ? "
                                  "AND suspended = 0", (lexicon, moment)).fetchone()[0])


def assert_due_counts_kept(store: ProgressStore) -> None:
    """`due_count` (read from the days the database keeps) equals counting the cards, at every due date there is,
    just before and after each, and at each day's start and middle; and the days kept are the cards' own."""
    dues = [float(row[0]) for row in store.conn.execute("SELECT DISTINCT due FROM cards WHERE due IS NOT NULL")]
    days = {math.floor(due / DAY) for due in dues}
    moments = sorted({m for due in dues for m in (due - 0.5, due, due + 0.5)}
                     | {day * DAY + offset for day in days for offset in (0.0, DAY / 2, DAY - 0.001)})
    for lexicon in ("enable", "cel"):
        assert [store.due_count(lexicon, m) for m in moments] == [due_by_counting(store, lexicon, m) for m in moments]
    kept = "SELECT lexicon, day, cards FROM due_days ORDER BY lexicon, day"
    counted = ("SELECT lexicon, CAST(floor(due / 86400) AS INTEGER) AS day, count(*) FROM cards "
               "WHERE due IS NOT NULL AND suspended = 0 GROUP BY lexicon, day ORDER BY lexicon, day")
    assert [tuple(r) for r in store.conn.execute(kept)] == [tuple(r) for r in store.conn.execute(counted)]


def test_the_due_counts_kept_are_the_cards_own_after_answers_undos_suspensions_and_day_changes(open_store, tmp_path):
    """The day's counts are read from what the database keeps as cards move (`due_days`, kept by triggers on every
    write of a card), not counted again on every page: after answers over a week of days (each grade, cards made
    by their answer, two lexicons), undos, suspensions and their end, deletions, due dates moved in bulk (one to
    a day's very start) and a backup imported into another store, the kept counts are the cards' own, at every
    moment around every due date and day boundary."""
    store = open_store()
    rng = random.Random(32)
    words = ["AB", "AD", "AE", "AG", "AH", "AI", "AL", "AM", "AN", "AR", "AS", "AT", "AW", "AX", "AY", "BA", "BE",
             "BI", "BO", "BY", "DE", "DO", "ED", "EF", "EH", "EL", "EM", "EN", "ER", "ES", "ET", "EX", "FA", "GO"]
    ids = store.ensure_cards("enable", [("anagram", w) for w in words], T0)
    ids += store.ensure_cards("cel", [("anagram", w) for w in words[:12]], T0)
    scheduling = Scheduling()
    session = store.start_session("daily", "enable", "test", T0)
    for day in range(7):
        last = None
        for n in range(20):
            at = T0 + day * DAY + n * 1800.0  # (half-hourly from noon: answers cross midnight too)
            rating = rng.choice((AGAIN, HARD, GOOD, EASY))
            if n == 7:  # a card made by its answer
                word = f"Z{day}"
                answer = GivenAnswer(session, "daily", "enable", "anagram", word, word, True, 900, rating)
                last = store.grade_card(answer, rescheduling(store, scheduling, rating), make_card=True, at=at)
                continue
            card = store.card(rng.choice(ids))
            answer = GivenAnswer(session, "daily", card.lexicon, card.kind, card.key, card.key, rating != AGAIN, 900,
                                 rating)
            last = store.grade_card(answer, rescheduling(store, scheduling, rating), card_id=card.id, at=at)
        assert last is not None and last.after is not None
        with store.transaction():  # the day's last answer taken back (an undo: the card made again as it was)
            store.take_back_answer(last.answer_id, last.after, last.made_card, at + 60)
            if not last.made_card:
                replay_card(store, last.after.id)
        store.set_suspended(rng.sample(ids, 4), True, T0 + day * DAY)
        store.set_suspended(rng.sample(ids, 3), False, T0 + day * DAY)
        assert_due_counts_kept(store)
    assert due_by_counting(store, "enable", T0 + 7 * DAY) > 0 and due_by_counting(store, "cel", T0 + 7 * DAY) > 0
    store.delete_cards(ids[:3], T0 + 8 * DAY)
    scheduled = [store.card(card_id) for card_id in ids[3:20] if store.card(card_id).due is not None]
    moves = [DueMove(c.id, c.due, c.last_review, T0 + (9 + n % 3) * DAY + n * 60.0) for n, c in enumerate(scheduled)]
    moves[0] = moves[0]._replace(due=math.floor(T0 / DAY + 10) * DAY)  # (at midnight UTC: the day's first moment)
    assert store.move_due_dates(moves, T0 + 8 * DAY) == len(moves)
    assert_due_counts_kept(store)
    export_progress(store, tmp_path / "backup.json")
    other = open_store("member_2")
    import_progress(other, tmp_path / "backup.json")
    assert_due_counts_kept(other)
    assert other.due_count("enable", T0 + 12 * DAY) == store.due_count("enable", T0 + 12 * DAY) > 0
