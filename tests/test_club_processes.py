"""Two real `lexitrain serve` processes over one club (SQLite, PostgreSQL), a member's one session on both.

No proxy keeps a member on one process: a wall started in /study on one is guessed, given up and moved
to its next round on the other; `kill -9` of the first loses nothing acknowledged, and a server started
again carries the wall on; a review round started on one goes on on the other, and its answers are
due-counted on the other at once. Every round is a row of the member's store, and every process lends
connections from its one bounded pool."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from study_helpers import WORDS, anagram_oracle

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import httpx

ORACLE = anagram_oracle()
PASSWORD = "correct horse battery"
POOL = 4
pytestmark = pytest.mark.timeout(600)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Serve:
    """One `lexitrain serve` process on a port of its own."""

    def __init__(self, url: str, lexicon: str) -> None:
        self.url, self.lexicon = url, lexicon
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Serve:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "lexitrain", "serve", "--database", self.url, "--port", str(self.port), "--pool",
             str(POOL), "--lexicon", self.lexicon], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=os.environ.copy())
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.process.stderr.read().decode() if self.process.stderr else ""
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return self
            except OSError:
                time.sleep(0.1)
        raise AssertionError(f"serve on {self.port} did not start")

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def kill(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def club_url(club_target: str, make_lexicon: Any) -> tuple[str, str]:
    """The club's database (an SQLite file with the members' store files beside it, or a PostgreSQL database
    with the members' stores as schemas in it) and its lexicon."""
    return club_target, make_lexicon(sorted(WORDS)).name


@pytest.fixture
def servers(club_url: tuple[str, str]) -> Iterator[list[Serve]]:
    url, lexicon = club_url
    started = [Serve(url, lexicon).start(), Serve(url, lexicon).start()]
    yield started
    for serve in started:
        serve.stop()


def member_on(servers: list[Serve], club_url: str, name: str = "ann") -> tuple[list[httpx.Client], str]:
    """A member signed up and logged in once: a client for each process, all with that one session cookie."""
    import time as clock

    from lexitrain.club.members import make_invite
    from lexitrain.club.store import ClubDatabase

    with ClubDatabase(club_url, pool_size=1) as db:
        invite = make_invite(db, clock.time())
    first = httpx.Client(base_url=servers[0].base, timeout=60)
    assert first.post("/api/members", json={"name": name, "password": PASSWORD, "invite": invite}).status_code == 201
    login = first.post("/api/session", json={"name": name, "password": PASSWORD})
    assert login.status_code == 200, login.text
    others = [httpx.Client(base_url=serve.base, timeout=60, cookies=first.cookies) for serve in servers[1:]]
    return [first, *others], login.json()["csrf"]


def test_a_wall_started_on_one_process_goes_on_on_the_other_and_survives_kill_9(servers: list[Serve],
                                                                                 club_url: tuple[str, str]) -> None:
    (one, two), csrf = member_on(servers, club_url[0])
    started = one.post("/study/wall", data={"source": "search", "value": "--length 3", "size": "5", "csrf": csrf},
                       follow_redirects=False)
    assert started.status_code == 303, started.text
    ident = started.headers["location"].rsplit("/", 1)[1]
    state = two.get(f"/study/api/wall/{ident}").json()  # the other process knows the wall
    assert state["round"]["number"] == 1 and len(state["round"]["cells"]) == 5
    cell = state["round"]["cells"][0]
    token = {"x-csrf-token": csrf}
    found = []
    for word in sorted(ORACLE[cell["alphagram"]]):
        said = two.post(f"/study/api/wall/{ident}/guess", json={"word": word, "round": state["round"]["token"]},
                        headers=token)
        assert said.status_code == 200 and said.json()["guess"]["verdict"] == "correct", said.text
        found.append(word)
    servers[0].kill()  # the process that started the wall dies; every guess was acknowledged by the other
    after = two.get(f"/study/api/wall/{ident}").json()
    assert after["round"]["cells"][0]["found"] == found and after["round"]["cells"][0]["decided"]
    gave_up = two.post(f"/study/api/wall/{ident}/give-up", json={"round": after["round"]["token"]}, headers=token)
    assert gave_up.status_code == 200 and gave_up.json()["round"]["ended"], gave_up.text
    assert [c["correct"] for c in gave_up.json()["round"]["cells"]] == [True, False, False, False, False]
    second = two.post(f"/study/api/wall/{ident}/next", json={"round": gave_up.json()["round"]["token"]},
                      headers=token)
    assert second.status_code == 200 and second.json()["round"]["number"] == 2, second.text
    servers[0].start()  # started again: it carries the wall on where the other left it
    again = httpx.Client(base_url=servers[0].base, timeout=60, cookies=one.cookies).get(f"/study/api/wall/{ident}")
    assert again.json()["round"] == second.json()["round"]
    assert two.get(f"/study/wall/{ident}").status_code == 200  # (and its page)


def test_a_review_round_goes_on_on_the_other_process_and_is_due_counted_there_at_once(
        servers: list[Serve], club_url: tuple[str, str], tmp_path: Path) -> None:
    from lexitrain.study.records.transfer import export_progress
    from lexitrain.study.store import ProgressStore

    (one, two), csrf = member_on(servers, club_url[0])
    token = {"x-csrf-token": csrf}
    now = time.time()
    with ProgressStore(tmp_path / "local.sqlite") as local:  # three cards due now, from the member's own app
        for key in ("AET", "ANT", "ART"):
            card = local.card(local.ensure_card(club_url[1], "anagram", key, now - 9 * 86400))
            local.save_card(replace(card, state=2, due=now - 3600, last_review=now - 4 * 86400, stability=3.0,
                                    difficulty=5.0, correct=1))
        export_progress(local, tmp_path / "local.json")
    assert one.post("/api/progress", content=(tmp_path / "local.json").read_bytes(), headers=token).status_code == 200
    assert two.get("/api/study").json()["due"] == 3
    review = one.post("/study/api/review", json={}, headers=token).json()
    assert review["today"]["due_now"] == 3
    question = review["question"]
    answered = one.post(f"/study/api/review/{review['id']}/answer", headers=token, json={
        "question": question["id"], "token": question["token"], "text": " ".join(sorted(ORACLE[question["prompt"]]))})
    assert answered.status_code == 200 and answered.json()["last"]["correct"], answered.text
    assert two.get("/api/study").json()["due"] == 2  # answered on one, counted on the other at once
    servers[0].kill()
    following = answered.json()["question"]
    going_on = two.post(f"/study/api/review/{review['id']}/answer", headers=token, json={
        "question": following["id"], "token": following["token"], "text": "ZZZ"})
    assert going_on.status_code == 200 and going_on.json()["last"]["correct"] is False, going_on.text
    assert going_on.json()["today"]["reviews_done"] == 2 and going_on.json()["today"]["due_now"] == 1
    repeated = two.post(f"/study/api/review/{review['id']}/answer", headers=token, json={
        "question": following["id"], "token": following["token"], "text": "ZZZ"})
    assert repeated.status_code == 409  # the same answer sent again is refused, not counted twice


def test_a_process_holds_no_more_connections_than_its_pool_however_many_requests(servers: list[Serve],
                                                                                 club_url: tuple[str, str]) -> None:
    """Members' stores are lent from the process's one pool: requests on /api/study, /api/cards and /study open no
    connection of their own, so the club's database never sees more than POOL connections a process."""
    url = club_url[0]
    if not url.startswith("postgresql"):
        pytest.skip("an SQLite club has no connections to count")
    import psycopg

    (one, two), csrf = member_on(servers, url)
    for _ in range(12):
        for client in (one, two):
            assert client.get("/api/study").status_code == 200
            assert client.get("/api/cards").status_code == 200
            assert client.get("/study/").status_code == 200
            assert client.post("/study/api/review", json={}, headers={"x-csrf-token": csrf}).status_code in (200, 400)
    with psycopg.connect(url, autocommit=True) as conn:
        counted = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                               "AND backend_type = 'client backend' AND pid <> pg_backend_pid()").fetchone()
    assert counted is not None and 0 < counted[0] <= 2 * POOL, counted


def test_a_tables_events_and_a_logout_reach_the_sockets_of_the_other_process(servers: list[Serve],
                                                                              club_url: tuple[str, str]) -> None:
    """Two members at a table, each through another process: a guess made through one reaches the other's socket
    on the other process (PostgreSQL by NOTIFY; SQLite, which has none, by each process looking for others'
    commits every 0.2 s), and a logout made through the first closes that socket (4401) at once."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    (ann, _), ann_csrf = member_on(servers, club_url[0], "ann")
    (_, bob), bob_csrf = member_on(servers, club_url[0], "bob")
    opened = ann.post("/api/tables", json={"alphagrams": ["AET", "ANT"]}, headers={"x-csrf-token": ann_csrf})
    assert opened.status_code == 201, opened.text
    table = opened.json()["table"]
    assert bob.post(f"/api/tables/{table}/join", headers={"x-csrf-token": bob_csrf}).status_code == 200
    cookie = "; ".join(f"{k}={v}" for k, v in bob.cookies.items())
    with connect(f"ws://127.0.0.1:{servers[1].port}/api/tables/{table}/events",
                 additional_headers={"cookie": cookie}, open_timeout=30) as socket:
        seen = [json.loads(socket.recv(timeout=30))["type"]]  # (bob's own join, read as the socket opens)
        began = time.monotonic()
        assert ann.post(f"/api/tables/{table}/guess", json={"word": "TEA"},
                        headers={"x-csrf-token": ann_csrf}).json()["correct"]
        while "guess" not in seen:
            event = json.loads(socket.recv(timeout=30))
            seen.append(event["type"])
        assert event["member"] == "ann" and event["word"] == "TEA" and time.monotonic() - began < 10
        bob_there = httpx.Client(base_url=servers[0].base, timeout=60, cookies=bob.cookies)
        assert bob_there.delete("/api/session", headers={"x-csrf-token": bob_csrf}).status_code == 200
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                socket.recv(timeout=30)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
