"""The login throttle cannot be raced, spoofed or turned into a lock-out: checks are counted in the database
before each is made (forty guesses at once get five argon2 checks of a name, on SQLite and on PostgreSQL:
before, 31), a client's address is its connection's own unless it comes from a proxy the server was told to
trust (before, any program on the machine could name any address in X-Forwarded-For), and a browser the member
logged in from is never delayed by others' failures."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from lexitrain.club import members
from lexitrain.club.store import ClubDatabase
from lexitrain.web.edge import Refused

NOW = 1_773_100_000.0
PASSWORD = "correct horse battery"


@pytest.fixture
def db(club_target: str) -> Iterator[ClubDatabase]:
    with ClubDatabase(club_target, pool_size=16) as opened:
        yield opened


def test_forty_guesses_at_once_get_five_password_checks(db: ClubDatabase, monkeypatch: pytest.MonkeyPatch) -> None:
    """Forty guesses released together; each password check let through is held (between the throttle's count
    and the check's outcome) until every other guess has been answered. Counted before it is made, a check
    cannot be raced: five are held, thirty-five refused meanwhile. (Counted after, as before, every guess read
    no failures yet and went on to its check: here, forty held checks.)"""
    members.sign_up(db, "ann", PASSWORD, members.make_invite(db, NOW), NOW)
    checked: list[str] = []
    answers: list[int] = []
    others_answered = threading.Event()
    verify = members._verified

    def held(hashed: str | None, password: str) -> bool:
        checked.append(password)
        others_answered.wait(60)
        return verify(hashed, password)

    monkeypatch.setattr(members, "_verified", held)
    barrier = threading.Barrier(40)

    def guess(number: int) -> None:
        barrier.wait()
        try:
            members.log_in(db, "ann", f"guess {number}", f"10.1.0.{number}", NOW)
        except Refused as refused:
            answers.append(refused.status)
            if answers.count(429) == 40 - members.FREE_CHECKS_PER_NAME:
                others_answered.set()

    threads = [threading.Thread(target=guess, args=(number,)) for number in range(40)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert others_answered.is_set(), f"{len(checked)} checks were let through"
    assert len(checked) == members.FREE_CHECKS_PER_NAME
    assert sorted(answers) == [401] * members.FREE_CHECKS_PER_NAME + [429] * (40 - members.FREE_CHECKS_PER_NAME)


def test_a_flood_of_names_from_one_address_is_slowed_by_the_address(db: ClubDatabase) -> None:
    for number in range(members.FREE_CHECKS_PER_ADDRESS):
        with pytest.raises(Refused) as wrong:
            members.log_in(db, f"name{number}", PASSWORD, "10.2.0.1", NOW)
        assert wrong.value.status == 401
    with pytest.raises(Refused) as slowed:
        members.log_in(db, "another", PASSWORD, "10.2.0.1", NOW)
    assert slowed.value.status == 429


def test_members_logging_in_from_one_address_are_never_slowed(db: ClubDatabase) -> None:
    """A club's room behind one address: right passwords cost the address nothing (before, the twenty-first
    login from it waited)."""
    names = [f"member{number}" for number in range(members.FREE_CHECKS_PER_ADDRESS + 5)]
    for name in names:
        members.sign_up(db, name, PASSWORD, members.make_invite(db, NOW), NOW)
    for name in names:
        assert members.log_in(db, name, PASSWORD, "10.4.0.1", NOW).member.name == name


def test_a_members_own_browser_is_never_delayed_by_a_flood(db: ClubDatabase) -> None:
    """The flood of ann's name from ann's own address: the name and the address both wait, yet the browser ann
    logged in from before (its cookie) gets its own five checks."""
    members.sign_up(db, "ann", PASSWORD, members.make_invite(db, NOW), NOW)
    browser = members.log_in(db, "ann", PASSWORD, "10.3.0.1", NOW).device
    for number in range(members.FREE_CHECKS_PER_ADDRESS + 5):
        try:
            members.log_in(db, "ann", f"guess {number}", "10.3.0.1", NOW + 1)
        except Refused:
            pass
    with pytest.raises(Refused) as stranger:
        members.log_in(db, "ann", PASSWORD, "10.3.0.1", NOW + 2)
    assert stranger.value.status == 429
    assert members.log_in(db, "ann", PASSWORD, "10.3.0.1", NOW + 2, device=browser).member.name == "ann"
    with pytest.raises(Refused) as forged:  # a cookie ann's browser never had is no way round it
        members.log_in(db, "ann", PASSWORD, "10.3.0.1", NOW + 2, device="made-up")
    assert forged.value.status == 429


@pytest.fixture
def club_server(tmp_path: Path, make_lexicon) -> Iterator[Callable[..., str]]:
    """Starts `lexitrain serve` (on an SQLite club with one member) with the options given; stops it after."""
    from study_helpers import WORDS

    make_lexicon(sorted(WORDS))
    database = tmp_path / "club.sqlite"
    with ClubDatabase(str(database)) as db:
        members.sign_up(db, "ann", PASSWORD, members.make_invite(db, NOW), NOW)
    running: list[subprocess.Popen[str]] = []

    def start(*options: str) -> str:
        process = subprocess.Popen([sys.executable, "-m", "lexitrain", "serve", "--database", str(database),
                                    "--lexicon", "small", "--port", "0", *options], text=True,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
        running.append(process)
        assert process.stdout is not None
        line = process.stdout.readline()
        assert "lexitrain serve: http://" in line, process.stderr.read() if process.stderr else line
        return line.split()[2]

    yield start
    for process in running:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)


def addresses_believed(base: str) -> bool:
    """Whether the server takes X-Forwarded-For from this machine: as many wrong logins as an address is
    allowed, each naming another address and another member's name, then one more."""
    with httpx.Client(base_url=base, timeout=60) as web:
        for number in range(members.FREE_CHECKS_PER_ADDRESS + 1):
            answer = web.post("/api/session", json={"name": f"nobody{number}", "password": "a guess"},
                              headers={"x-forwarded-for": f"203.0.113.{number + 1}"})
            if answer.status_code == 429:
                return False
            assert answer.status_code == 401, answer.text
    return True


def test_a_forwarded_address_is_believed_only_from_a_trusted_proxy(club_server) -> None:
    assert not addresses_believed(club_server())  # before, uvicorn believed any local program
    assert addresses_believed(club_server("--trusted-proxy", "127.0.0.1"))


def test_a_mistyped_proxy_or_public_url_is_refused_in_one_line(tmp_path: Path) -> None:
    """`serve --trusted-proxy 10.0.0.O` (a letter O) was taken, and no proxy was ever believed; `--public-url
    notaurl` too: each is one line now, before anything is served (a server started is a failure here)."""
    for option, value, said in (("--trusted-proxy", "10.0.0.O", "give an address or a network"),
                                ("--public-url", "notaurl", "give the address members use")):
        refused = subprocess.run([sys.executable, "-m", "lexitrain", "serve", "--database", str(tmp_path / "c.sqlite"),
                                  "--port", "0", option, value], capture_output=True, text=True, timeout=60)
        assert refused.returncode == 1 and refused.stderr == f"error: {option} {value!r}: {said}, e.g. " + (
            "10.0.0.1 or 10.0.0.0/8\n" if option == "--trusted-proxy" else "https://club.example.org\n")


def test_a_process_computes_at_most_two_password_hashes_at_once(db: ClubDatabase,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Each argon2id hash takes 64 MiB while it runs: twelve logins at once (right and wrong passwords) never
    have more than HASHES_AT_ONCE hashed together (eight at once took a serve process past 450 MB), and every
    one of them is answered."""
    names = [f"member{i}" for i in range(6)]
    for name in names:
        members.sign_up(db, name, PASSWORD, members.make_invite(db, NOW), NOW)
    from argon2 import PasswordHasher

    running, most = [0], [0]
    lock = threading.Lock()
    verify = PasswordHasher.verify

    def counted(self: PasswordHasher, hashed: str, password: str) -> bool:
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        try:
            time.sleep(0.05)
            return verify(self, hashed, password)
        finally:
            with lock:
                running[0] -= 1

    monkeypatch.setattr(PasswordHasher, "verify", counted)
    answers: list[int] = []
    tries = [(name, password) for name in names for password in (PASSWORD, "wrong password")]

    def one(index: int) -> None:
        name, password = tries[index]
        try:
            members.log_in(db, name, password, f"10.0.0.{index}", NOW)
            answers.append(200)
        except Refused as refused:
            answers.append(refused.status)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(tries))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert most[0] == members.HASHES_AT_ONCE
    assert sorted(answers) == [200] * 6 + [401] * 6
