"""The club's database, the same tests on SQLite and on a real PostgreSQL: members and invitations,
passwords only as argon2id hashes, sessions, the login throttle, attempts, the leaderboard, medals,
toughies, and the races a club has (two sign-ups on one invitation, a guess against a finish)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import date, datetime, timedelta

import pytest

from lexitrain.club import challenges as ch
from lexitrain.club import members, owed
from lexitrain.club.store import SCHEMA_VERSION, ClubDatabase
from lexitrain.web.edge import Refused
from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.study.store import ProgressStore
from study_helpers import WORDS

DAY = date(2026, 3, 10)
KIND = "threes"  # (23 questions in the small list)
NOW = 1_773_100_000.0
PASSWORD = "correct horse battery"


@pytest.fixture
def db(club_target: str) -> Iterator[ClubDatabase]:
    with ClubDatabase(club_target) as opened:
        yield opened


@pytest.fixture
def lex(make_lexicon) -> Lexicon:
    return make_lexicon(sorted(WORDS))


def join(db: ClubDatabase, name: str) -> members.Member:
    return members.sign_up(db, name, PASSWORD, members.make_invite(db, NOW), NOW)


def test_migrations_run_once_and_a_newer_schema_is_refused(club_target: str) -> None:
    with ClubDatabase(club_target) as db:
        join(db, "ann")
    with ClubDatabase(club_target) as db:  # (opened again: nothing re-created, ann still there)
        assert members.member_named(db, "ann") is not None
        with db.transaction() as tx:
            tx.conn.execute("UPDATE club_schema SET version = ?", (SCHEMA_VERSION + 1,))
    with pytest.raises(LexitrainError, match="newer lexitrain"):
        ClubDatabase(club_target)


def test_a_club_made_before_its_flags_were_integers_is_upgraded_by_the_one_runner_keeping_every_value(
        club_target: str, lex: Lexicon) -> None:
    """The club's tables are made by the store's migration runner in the store's dialect: a club at version 4
    (its flags BOOLEAN on PostgreSQL) is upgraded in place, the flags now the integers 0 and 1 the dialect binds
    a Python bool as, and a second first attempt still refused by the index made again."""
    import sqlite3
    from pathlib import Path

    from lexitrain.club.store.schema import MIGRATIONS
    from lexitrain.study.store.migrations import VersionTable, upgrade

    if club_target.startswith("postgresql"):
        import psycopg

        from lexitrain.study.store.postgres import PostgresConnection

        old = PostgresConnection(psycopg.connect(club_target), "public")
        true, false = "TRUE", "FALSE"
    else:
        old = sqlite3.connect(Path(club_target), isolation_level=None)  # type: ignore[assignment]
        true, false = "1", "0"
    upgrade(old, "postgresql" if club_target.startswith("postgresql") else "sqlite", MIGRATIONS[:4],
            VersionTable("club_schema"), "the old club")
    old.execute(f"INSERT INTO members (name, password, admin, joined) VALUES ('ann', 'x', {true}, 1)")
    old.execute(f"INSERT INTO members (name, password, admin, joined) VALUES ('bob', 'x', {false}, 1)")
    old.execute(f"INSERT INTO attempts (member_id, lexicon, kind, date, total, started, finished, score, retake) "
                f"VALUES (1, '{lex.name}', '{KIND}', '{DAY.isoformat()}', 23, 1, 2, 3, {false})")
    old.close()
    with ClubDatabase(club_target) as db:
        assert [members.member_named(db, n).admin for n in ("ann", "bob")] == [True, False]  # type: ignore[union-attr]
        with db.reading() as store:
            assert store.conn.execute("SELECT version FROM club_schema").fetchone()[0] == SCHEMA_VERSION
            if db.postgres:
                assert store.conn.execute("SELECT data_type FROM information_schema.columns WHERE table_schema = "
                                          "'public' AND table_name = 'attempts' AND column_name = 'retake'"
                                          ).fetchone()[0] == "bigint"
            assert store.add_attempt((1, lex.name, KIND, DAY.isoformat()), 23, 5, retake=False) is None
            assert store.add_attempt((1, lex.name, KIND, DAY.isoformat()), 23, 5, retake=True) is not None
        assert ch.leaderboard(db, ch.ChallengeSets(lex), lex.name, KIND, DAY, NOW) == [{"member": "ann", "score": 3, "total": 23, "seconds": 1.0}]


def test_a_file_that_is_no_database_or_no_name_is_refused_in_one_line(tmp_path) -> None:
    """`serve --database` (or `serve invite`) given some other file: one line naming it (it was SQLite's
    traceback, "file is not a database", from the switch to WAL)."""
    other = tmp_path / "notes.txt"
    other.write_bytes(b"not a database, but someone's file " * 200)
    with pytest.raises(LexitrainError, match=r"notes\.txt: cannot open the club database \(file is not a database\)"):
        ClubDatabase(str(other))
    assert other.read_bytes() == b"not a database, but someone's file " * 200
    with pytest.raises(LexitrainError, match="^--database is empty: give an SQLite file or a postgresql:// URL$"):
        ClubDatabase("")  # (it said " is a folder", the folder the server ran in)


def test_an_invitation_lets_one_member_in_once(db: ClubDatabase) -> None:
    code = members.make_invite(db, NOW)
    ann = members.sign_up(db, "ann", PASSWORD, code, NOW)
    assert ann.name == "ann" and not ann.admin
    with pytest.raises(Refused) as used:
        members.sign_up(db, "bob", PASSWORD, code, NOW)
    assert used.value.status == 403
    with pytest.raises(Refused) as unknown:
        members.sign_up(db, "bob", PASSWORD, "made-up", NOW)
    assert unknown.value.status == 403


def test_a_taken_name_leaves_the_invitation_unused(db: ClubDatabase) -> None:
    join(db, "ann")
    code = members.make_invite(db, NOW)
    with pytest.raises(Refused) as taken:
        members.sign_up(db, "ann", PASSWORD, code, NOW)
    assert taken.value.status == 409
    assert members.sign_up(db, "bob", PASSWORD, code, NOW).name == "bob"


def test_two_sign_ups_on_one_invitation_at_once_let_one_in(db: ClubDatabase) -> None:
    code = members.make_invite(db, NOW)
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def sign(name: str) -> None:
        barrier.wait()
        try:
            members.sign_up(db, name, PASSWORD, code, NOW)
            outcomes.append("in")
        except Refused as refused:
            outcomes.append(str(refused.status))

    threads = [threading.Thread(target=sign, args=(name,)) for name in ("ann", "bob")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["403", "in"]


def test_a_password_changed_while_a_member_changes_theirs_is_kept(db: ClubDatabase, monkeypatch) -> None:
    """A member's change is checked (their current password verified) and then written: an admin's reset landing
    between the two is not overwritten by a password verified against the old one; the member is told, nothing is
    written, and the admin's password is the one that logs in."""
    join(db, "ann")
    login = members.log_in(db, "ann", PASSWORD, "10.0.0.1", NOW)
    ann = members.member_named(db, "ann")
    assert ann is not None
    verified = members._verified

    def verified_then_reset(stored: str | None, password: str) -> bool:
        right = verified(stored, password)
        members.reset_password(db, "ann", "the admin's new one")  # (between the member's check and write)
        return right

    monkeypatch.setattr(members, "_verified", verified_then_reset)
    with pytest.raises(Refused) as refused:
        members.change_password(db, ann, login.token, PASSWORD, "the member's new one", NOW)
    assert refused.value.status == 409 and "changed meanwhile" in str(refused.value)
    monkeypatch.setattr(members, "_verified", verified)
    assert members.log_in(db, "ann", "the admin's new one", "10.0.0.1", NOW).member.name == "ann"
    with pytest.raises(Refused):
        members.log_in(db, "ann", "the member's new one", "10.0.0.1", NOW)


def test_passwords_and_secrets_are_stored_only_as_hashes(db: ClubDatabase) -> None:
    code = members.make_invite(db, NOW)
    members.sign_up(db, "ann", PASSWORD, code, NOW)
    login = members.log_in(db, "ann", PASSWORD, "10.0.0.1", NOW)
    with db.transaction() as tx:
        stored = [str(value) for table in ("members", "invites", "logins", "login_throttle", "devices")
                  for row in tx.conn.execute(f"SELECT * FROM {table}").fetchall() for value in row]
        password = tx.conn.execute("SELECT password FROM members WHERE name = 'ann'").fetchone()
    assert password is not None and str(password[0]).startswith("$argon2id$")
    for secret in (PASSWORD, code, login.token):
        assert not any(secret in value for value in stored)


def test_a_session_names_its_member_until_logged_out(db: ClubDatabase) -> None:
    ann = join(db, "ann")
    login = members.log_in(db, "ann", PASSWORD, "10.0.0.1", NOW)
    assert members.session_member(db, login.token, NOW + 1) == (ann, login.csrf)
    assert members.session_member(db, "forged", NOW + 1) is None
    assert members.session_member(db, login.token, NOW + members.SESSION_DAYS * 86400 + 1) is None
    members.log_out(db, login.token)
    assert members.session_member(db, login.token, NOW + 1) is None


def test_wrong_passwords_are_401_then_each_further_check_waits_longer(db: ClubDatabase) -> None:
    """Five checks free, then one after 30 s, 1 min, 2 min... up to 15 min: a delay that grows, never a lock."""
    join(db, "ann")
    at = NOW
    for _ in range(members.FREE_CHECKS_PER_NAME):
        with pytest.raises(Refused) as wrong:
            members.log_in(db, "ann", "not the password", "10.0.0.1", at)
        assert wrong.value.status == 401
    waits = []
    wait = members.FIRST_WAIT
    for _ in range(7):
        with pytest.raises(Refused) as early:  # the right password too, before the wait is over
            members.log_in(db, "ann", PASSWORD, "10.0.0.2", at + wait - 1)
        assert early.value.status == 429 and "try again in" in str(early.value)
        with pytest.raises(Refused) as wrong:
            members.log_in(db, "ann", "not the password", "10.0.0.3", at + wait)
        assert wrong.value.status == 401
        waits.append(wait)
        at, wait = at + wait, min(wait * 2, members.LONGEST_WAIT)
    assert waits == [30, 60, 120, 240, 480, 900, 900]
    assert members.log_in(db, "ann", PASSWORD, "10.0.0.2", at + wait).member.name == "ann"
    with pytest.raises(Refused) as fresh:  # a success starts the name's count again: five checks free
        members.log_in(db, "ann", "not the password", "10.0.0.2", at + wait + 1)
    assert fresh.value.status == 401


def test_an_unknown_name_is_the_same_401(db: ClubDatabase) -> None:
    with pytest.raises(Refused) as unknown:
        members.log_in(db, "nobody", PASSWORD, "10.0.0.1", NOW)
    assert unknown.value.status == 401 and str(unknown.value) == "wrong name or password"


def test_an_admin_reset_ends_the_members_sessions(db: ClubDatabase) -> None:
    join(db, "ann")
    login = members.log_in(db, "ann", PASSWORD, "10.0.0.1", NOW)
    members.reset_password(db, "ann", "a new password")
    assert members.session_member(db, login.token, NOW) is None
    with pytest.raises(Refused):
        members.log_in(db, "ann", PASSWORD, "10.0.0.1", NOW)
    assert members.log_in(db, "ann", "a new password", "10.0.0.1", NOW).member.name == "ann"


def play(db: ClubDatabase, sets: ch.ChallengeSets, member: members.Member, lex: Lexicon, solve: int,
         start: float, seconds: float) -> ch.Result:
    """Open the day's threes, find every answer of the first `solve` questions, finish after `seconds`."""
    chosen = sets.get(KIND, DAY)
    attempt = ch.open_attempt(db, member.id, lex.name, chosen, start)
    for key in chosen.keys[:solve]:
        for word in chosen.answers[key]:
            assert ch.guess(db, sets, member.id, attempt, word, start + 1) == (True, key)
    return ch.finish(db, sets, member.id, attempt, lex.name, start + seconds)


def test_the_leaderboard_ranks_first_attempts_by_score_then_time(db: ClubDatabase, lex: Lexicon) -> None:
    sets = ch.ChallengeSets(lex)
    total = sets.get(KIND, DAY).total
    ann, bob, cy = join(db, "ann"), join(db, "bob"), join(db, "cy")
    first = play(db, sets, ann, lex, 2, NOW, 30)
    assert (first.score, first.total, first.seconds) == (2, total, 30.0)
    assert list(first.missed) == list(sets.get(KIND, DAY).keys[2:])  # every question not solved, in order
    play(db, sets, bob, lex, 2, NOW, 20)
    play(db, sets, cy, lex, 3, NOW, 90)
    play(db, sets, ann, lex, total, NOW + 100, 5)  # a retake: shown apart, never ranked
    board = ch.leaderboard(db, sets, lex.name, KIND, DAY, NOW)
    assert [(row["member"], row["score"], row["seconds"]) for row in board] == [
        ("cy", 3, 90.0), ("bob", 2, 20.0), ("ann", 2, 30.0)]
    assert [row["member"] for row in ch.leaderboard(db, sets, lex.name, KIND, DAY, NOW, retakes=True)] == ["ann"]
    assert ch.medals(db, lex.name, KIND)[0] == {"member": "cy", "gold": 1, "silver": 0, "bronze": 0}


def test_two_devices_opening_the_day_at_once_share_one_official_attempt(db: ClubDatabase, lex: Lexicon) -> None:
    sets = ch.ChallengeSets(lex)
    chosen = sets.get(KIND, DAY)
    ann = join(db, "ann")
    barrier = threading.Barrier(2)
    opened: list[int] = []

    def open_one() -> None:
        barrier.wait()
        opened.append(ch.open_attempt(db, ann.id, lex.name, chosen, NOW))

    threads = [threading.Thread(target=open_one) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert opened[0] == opened[1]
    ch.finish(db, sets, ann.id, opened[0], lex.name, NOW + 5)
    retake = ch.open_attempt(db, ann.id, lex.name, chosen, NOW + 10)
    assert retake != opened[0]
    with db.transaction() as tx:
        rows = tx.conn.execute("SELECT id, retake FROM attempts ORDER BY id").fetchall()
    assert [(i, bool(flag)) for i, flag in rows] == [(opened[0], False), (retake, True)]


def test_a_wrong_word_scores_nothing_and_a_finished_attempt_takes_no_guess(db: ClubDatabase, lex: Lexicon) -> None:
    sets = ch.ChallengeSets(lex)
    ann = join(db, "ann")
    attempt = ch.open_attempt(db, ann.id, lex.name, sets.get(KIND, DAY), NOW)
    assert ch.guess(db, sets, ann.id, attempt, "ZZZZZZZ", NOW) == (False, None)
    first = ch.finish(db, sets, ann.id, attempt, lex.name, NOW + 3)
    assert first.score == 0
    with pytest.raises(Refused) as finished:
        ch.guess(db, sets, ann.id, attempt, "ZZZZZZZ", NOW + 4)
    assert finished.value.status == 409
    assert ch.finish(db, sets, ann.id, attempt, lex.name, NOW + 4) == first  # (a retry: the same answer)


def test_another_members_attempt_is_not_found(db: ClubDatabase, lex: Lexicon) -> None:
    sets = ch.ChallengeSets(lex)
    ann, bob = join(db, "ann"), join(db, "bob")
    attempt = ch.open_attempt(db, ann.id, lex.name, sets.get(KIND, DAY), NOW)
    for act in (lambda: ch.guess(db, sets, bob.id, attempt, "X", NOW),
                lambda: ch.finish(db, sets, bob.id, attempt, lex.name, NOW)):
        with pytest.raises(Refused) as refused:
            act()
        assert refused.value.status == 404


def test_finishing_owes_the_members_own_cards_and_feeds_the_toughies(db: ClubDatabase, lex: Lexicon,
                                                                     tmp_path) -> None:
    """The finish owes a review of every question to the member's store (in its own transaction); settled
    there, each card is scheduled: right where every answer was found, else missed."""
    sets = ch.ChallengeSets(lex)
    chosen = sets.get(KIND, DAY)
    ann, bob = join(db, "ann"), join(db, "bob")
    play(db, sets, ann, lex, 1, NOW, 10)
    assert owed.members_owed(db) == [ann.id] and owed.anything_owed(db, ann.id) and not owed.anything_owed(db, bob.id)
    with ProgressStore(tmp_path / "ann.sqlite") as store:
        assert owed.settle(db, store, ann.id) == chosen.total
        cards = {card.key: card for card in store.scheduled_cards()}
    assert set(cards) == set(chosen.keys)
    assert cards[chosen.keys[0]].correct == 1 and cards[chosen.keys[1]].incorrect == 1
    assert all(card.due is not None and card.last_review == NOW + 10 for card in cards.values())
    assert owed.members_owed(db) == []
    play(db, sets, bob, lex, 2, NOW, 10)
    today = datetime.fromtimestamp(NOW).date()
    assert ch.toughies(db, lex.name, today) == []  # today's misses are of today's ranked sets: not shown today
    wall = ch.toughies(db, lex.name, today + timedelta(days=1))
    missed_by_both = {row["alphagram"] for row in wall if row["members"] == 2}
    assert missed_by_both == set(chosen.keys[2:])
    assert ch.toughies(db, lex.name, today + timedelta(days=8)) == []  # (the seven days before today)


def test_a_guess_racing_a_finish_is_counted_or_refused_never_lost(db: ClubDatabase, lex: Lexicon) -> None:
    """The guess reaches its database write while the finish holds the attempt: the guess waits, then is
    refused as finished; the score counts exactly the guesses that were taken."""
    sets = ch.ChallengeSets(lex)
    chosen = sets.get(KIND, DAY)
    ann = join(db, "ann")
    attempt = ch.open_attempt(db, ann.id, lex.name, chosen, NOW)
    key = chosen.keys[0]
    *first, last = chosen.answers[key]
    for word in first:
        ch.guess(db, sets, ann.id, attempt, word, NOW)
    results: list[object] = []
    finishing = threading.Event()
    real_owe = ch.owe

    def slow_owe(*args: object) -> None:  # the finish holds its transaction here
        finishing.set()
        threading.Event().wait(0.3)
        real_owe(*args)  # type: ignore[arg-type]

    def late_guess() -> None:
        finishing.wait(5)
        try:
            results.append(ch.guess(db, sets, ann.id, attempt, last, NOW + 1))
        except Refused as refused:
            results.append(refused.status)

    ch.owe = slow_owe  # type: ignore[assignment]
    try:
        thread = threading.Thread(target=late_guess)
        thread.start()
        result = ch.finish(db, sets, ann.id, attempt, lex.name, NOW + 2)
        thread.join()
    finally:
        ch.owe = real_owe  # type: ignore[assignment]
    assert results == [409] and result.score == 0


def test_a_worker_threads_connection_is_closed_when_the_thread_ends(tmp_path) -> None:
    """A server's worker threads come and go (anyio ends one idle for 10 seconds): each one's SQLite connection is
    closed with it. Before, each stayed open with its file descriptors: 60 threads, 60 more open files, for good."""
    import gc
    import os

    def open_files() -> int:
        return len(os.listdir("/proc/self/fd"))

    with ClubDatabase(str(tmp_path / "club.sqlite")) as db:
        members.sign_up(db, "ann", "correct horse battery", members.make_invite(db, 1.0), 1.0)
        before = open_files()
        for _ in range(60):
            worker = threading.Thread(target=lambda: members.member_named(db, "ann"))
            worker.start()
            worker.join()
        gc.collect()
        assert open_files() - before < 5
        assert members.member_named(db, "ann") is not None  # (this thread's own connection still works)
