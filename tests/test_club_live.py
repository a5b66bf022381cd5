"""A table's live events and its sockets hold under faults and abuse, on SQLite and on a real PostgreSQL: a
logout, a password reset or a removal closes the member's sockets at once (4401), in whichever process
(before, the socket went on receiving every event); a refusal is a close code on a real server, an empty
Origin refused (before: HTTP 403, and an empty Origin let in); events committed while a process listens
again after losing its connection reach its sockets (before, 12 of 469 were lost after a restart); a
table's guesses are bounded in length, count and rate, per member and per table, a refused one neither
stored nor sent (before, 1,500 wrong guesses in 5 s); and a repeated challenge finish answers the same
score (before: 409, the score lost with the first answer)."""

from __future__ import annotations

import threading
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

from lexitrain.club import tables
from lexitrain.club.app import Club, create_app
from lexitrain.club.members import make_admin
from lexitrain.club.store import ClubDatabase
from lexitrain.lexicon.lexicon import Lexicon
from test_club_api import KIND, PASSWORD, member, play
from test_club_tables import KEYS, ORACLE, clients, lex, seat  # noqa: F401  (fixtures)
from web_helpers import Clock, serving

pytestmark = pytest.mark.timeout(180)


@pytest.fixture
def club(club_target: str, lex: Lexicon) -> Iterator[Club]:
    with ClubDatabase(club_target) as db:
        yield Club(db, lex, clock=Clock())


def guessed(guesser: TestClient, headers: dict[str, str], table: int, word: str, socket: Any) -> dict[str, Any]:
    """GUESSER's guess of WORD at TABLE, and the guess event SOCKET receives (past the events before it)."""
    assert guesser.post(f"/api/tables/{table}/guess", json={"word": word}, headers=headers).status_code == 200
    while (event := socket.receive_json())["type"] != "guess":
        pass
    return event


def closed_with(socket: Any) -> int:
    """The code the server closes the socket with (every event before it read and dropped)."""
    with pytest.raises(WebSocketDisconnect) as closed:
        while True:
            socket.receive_json()
    return closed.value.code


def test_logout_reset_and_removal_close_the_members_sockets_at_once(club_target: str, lex: Lexicon,
                                                                     clients: list[TestClient]) -> None:
    """Each of three members at one table, each ended another way; on PostgreSQL through a second process
    (its own pool and hub: the ending comes to the socket's process by NOTIFY). A member still seated keeps
    receiving."""
    with ClubDatabase(club_target) as first_db, ClubDatabase(club_target) as second_db:
        first = Club(first_db, lex)
        second = Club(second_db, lex) if first_db.postgres else first
        (ann, ann_h), (bob, bob_h), (cat, cat_h), (dan, dan_h) = (seat(first, name) for name in "ann bob cat dan".split())
        admin, admin_h = seat(second, "root")
        make_admin(second.db, "root")
        clients += [ann, bob, cat, dan, admin]
        table = ann.post("/api/tables", json={"alphagrams": KEYS}, headers=ann_h).json()["table"]
        for web, headers in ((bob, bob_h), (cat, cat_h), (dan, dan_h)):
            assert web.post(f"/api/tables/{table}/join", headers=headers).status_code == 200
        # ann's own logout goes through the second process when there is one: the same cookie, another app
        ann_elsewhere = TestClient(create_app(second))
        ann_elsewhere.__enter__()
        clients.append(ann_elsewhere)
        ann_elsewhere.cookies.update(ann.cookies)
        path = f"/api/tables/{table}/events"
        with ann.websocket_connect(path) as ann_ws, bob.websocket_connect(path) as bob_ws, \
                cat.websocket_connect(path) as cat_ws, dan.websocket_connect(path) as dan_ws:
            for socket in (ann_ws, bob_ws, cat_ws, dan_ws):
                assert socket.receive_json()["type"] == "join"  # (the first of the table's past events)
            assert ann_elsewhere.delete("/api/session", headers=ann_h).status_code == 200
            assert closed_with(ann_ws) == 4401
            reset = admin.post("/api/admin/members/bob/password", json={"password": "a new password"},
                               headers=admin_h)
            assert reset.status_code == 200
            assert closed_with(bob_ws) == 4401
            assert admin.delete("/api/admin/members/cat", headers=admin_h).status_code == 200
            assert closed_with(cat_ws) == 4401
            word = sorted(ORACLE[KEYS[0]])[0]
            event = guessed(dan, dan_h, table, word, dan_ws)
            assert (event["member"], event["word"]) == ("dan", word)
        for web in clients:
            web.__exit__(None, None, None)
        clients.clear()


def test_a_members_own_password_change_closes_their_other_sessions_sockets(club_target: str, lex: Lexicon,
                                                                          clients: list[TestClient]) -> None:
    """Ann at a table from two browsers, the second served by another process on PostgreSQL: she changes her
    password in the first; the second's socket closes (4401), the first's keeps receiving."""
    with ClubDatabase(club_target) as first_db, ClubDatabase(club_target) as second_db:
        first = Club(first_db, lex)
        second = Club(second_db, lex) if first_db.postgres else first
        (ann, ann_h), (bob, bob_h) = seat(first, "ann"), seat(first, "bob")
        phone = TestClient(create_app(second))
        phone.__enter__()
        clients += [ann, bob, phone]
        assert phone.post("/api/session", json={"name": "ann", "password": PASSWORD}).status_code == 200
        table = bob.post("/api/tables", json={"alphagrams": KEYS}, headers=bob_h).json()["table"]
        assert ann.post(f"/api/tables/{table}/join", headers=ann_h).status_code == 200
        path = f"/api/tables/{table}/events"
        with ann.websocket_connect(path) as ann_ws, phone.websocket_connect(path) as phone_ws:
            for socket in (ann_ws, phone_ws):
                assert socket.receive_json()["type"] == "join"
            changed = ann.post("/api/password", json={"current": PASSWORD, "password": "a new password"},
                               headers=ann_h)
            assert changed.status_code == 200
            assert closed_with(phone_ws) == 4401
            word = sorted(ORACLE[KEYS[0]])[0]
            event = guessed(bob, bob_h, table, word, ann_ws)
            assert (event["member"], event["word"]) == ("bob", word)
        for web in clients:
            web.__exit__(None, None, None)
        clients.clear()


@contextmanager
def real_server(club: Club) -> Iterator[int]:
    """The club's app on uvicorn (a real server: the test client reports close codes a browser never sees);
    its port."""
    with serving(create_app(club)) as port:
        yield port


def test_refusals_are_the_documented_close_codes_on_a_real_server(club: Club, clients: list[TestClient]) -> None:
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    (ann, ann_h), (bob, _) = seat(club, "ann"), seat(club, "bob")
    clients += [ann, bob]
    table = ann.post("/api/tables", json={"alphagrams": KEYS}, headers=ann_h).json()["table"]

    def cookie(web: TestClient) -> str:
        return "; ".join(f"{name}={value}" for name, value in web.cookies.items())

    with real_server(club) as port:
        url = f"ws://127.0.0.1:{port}/api/tables/{table}/events"
        tries = [(url, {}, 4401), (url, {"cookie": cookie(ann), "origin": ""}, 4403),
                 (url, {"cookie": cookie(ann), "origin": "https://evil.example"}, 4403),
                 (url, {"cookie": cookie(bob)}, 4403),  # (not seated)
                 (url.replace(f"/{table}/", "/999/"), {"cookie": cookie(ann)}, 4404),
                 (url.replace(f"/{table}/", f"/{2 ** 64}/"), {"cookie": cookie(ann)}, 4404)]
        for address, headers, code in tries:
            with connect(address, additional_headers=headers, origin=None) as socket:
                with pytest.raises(ConnectionClosed) as refused:
                    socket.recv(timeout=30)
            assert refused.value.rcvd is not None and refused.value.rcvd.code == code, (headers, address)
        with connect(url, additional_headers={"cookie": cookie(ann), "origin": f"http://127.0.0.1:{port}"}) as socket:
            ann.post(f"/api/tables/{table}/guess", json={"word": "QXZ"}, headers=ann_h)
            assert '"QXZ"' in socket.recv(timeout=30)  # (let in: its own origin)


def test_events_committed_while_a_process_listens_again_reach_its_sockets(postgres_cluster: Any, lex: Lexicon,
                                                                          clients: list[TestClient]) -> None:
    """The process's LISTEN connection is killed (as a server restart does) and kept from listening again
    until guesses have been committed through another process: none of them was NOTIFYed to it, yet its
    socket receives every one, in order, once it listens again."""
    target = postgres_cluster.create_database("club_relisten")
    with ClubDatabase(target) as first_db, ClubDatabase(target) as second_db:
        first, second = Club(first_db, lex), Club(second_db, lex)
        relisten = threading.Event()
        held: list[bool] = []
        pool = first_db.pool
        assert pool is not None
        connection = pool._pool.connection

        @contextmanager
        def held_back(*args: Any, **kwargs: Any) -> Iterator[Any]:
            if threading.current_thread().name == "lexitrain-events" and held:
                relisten.wait(60)  # (a later connection for the LISTEN: only once the guesses are in)
            if threading.current_thread().name == "lexitrain-events":
                held.append(True)
            with connection(*args, **kwargs) as raw:
                yield raw

        pool._pool.connection = held_back  # type: ignore[method-assign]
        (ann, ann_h), (bob, bob_h) = seat(first, "ann"), seat(second, "bob")
        clients += [ann, bob]
        table = ann.post("/api/tables", json={"alphagrams": KEYS}, headers=ann_h).json()["table"]
        assert bob.post(f"/api/tables/{table}/join", headers=bob_h).status_code == 200
        words = [word for key in KEYS for word in sorted(ORACLE[key])][:12]
        with ann.websocket_connect(f"/api/tables/{table}/events") as socket:
            assert socket.receive_json()["type"] == "join"
            with first_db.transaction() as tx:
                killed = tx.conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                         "WHERE query LIKE 'LISTEN %' AND pid <> pg_backend_pid()").fetchall()
            assert len(killed) == 2  # (both processes' LISTEN: the first's kept from listening again)
            for word in words:
                assert bob.post(f"/api/tables/{table}/guess", json={"word": word}, headers=bob_h).status_code == 200
            relisten.set()
            got = [socket.receive_json() for _ in words]
        assert [(event["member"], event["word"]) for event in got] == [("bob", word) for word in words]
        assert len(held) >= 2  # (it did lose its connection and listen again)
        for web in clients:
            web.__exit__(None, None, None)
        clients.clear()
    postgres_cluster.drop_database("club_relisten")


def stored_guesses(club: Club, table: int) -> int:
    with club.db.transaction() as tx:
        row = tx.conn.execute("SELECT count(*) FROM table_events WHERE table_id = ? AND body LIKE '%\"guess\"%'",
                              (table,)).fetchone()
    return int(row[0])


def test_a_tables_guesses_are_bounded_per_member_and_per_table(club: Club, clients: list[TestClient],
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    (ann, ann_h), (bob, bob_h) = seat(club, "ann"), seat(club, "bob")
    clients += [ann, bob]
    assert isinstance(club.clock, Clock)
    # (an hour's table: the test's clock moves on by minutes)
    table = ann.post("/api/tables", json={"alphagrams": KEYS, "seconds": 3600}, headers=ann_h).json()["table"]
    assert bob.post(f"/api/tables/{table}/join", headers=bob_h).status_code == 200

    def guesses(web: TestClient, headers: dict[str, str], count: int) -> list[int]:
        return [web.post(f"/api/tables/{table}/guess", json={"word": "QXZ"}, headers=headers).status_code
                for _ in range(count)]

    too_long = ann.post(f"/api/tables/{table}/guess", json={"word": "Q" * 33}, headers=ann_h)
    assert too_long.status_code == 400 and "longer than 32" in too_long.json()["error"]
    burst = int(tables.MEMBER_BURST)
    assert guesses(ann, ann_h, burst + 5) == [200] * burst + [429] * 5  # a flood, at one instant
    assert "too fast" in ann.post(f"/api/tables/{table}/guess", json={"word": "QXZ"}, headers=ann_h).json()["error"]
    assert guesses(bob, bob_h, 1) == [200]  # (bob's allowance is his own)
    club.clock.now += 1.0
    assert guesses(ann, ann_h, 4) == [200] * int(tables.MEMBER_RATE) + [429]  # refilled with time
    assert stored_guesses(club, table) == burst + 1 + int(tables.MEMBER_RATE)  # the refused ones neither stored...
    # ... nor sent: a socket catching up sees the stored ones only
    with ann.websocket_connect(f"/api/tables/{table}/events") as socket:
        seen = [socket.receive_json() for _ in range(stored_guesses(club, table) + 1)]
    assert sum(event["type"] == "guess" for event in seen) == stored_guesses(club, table)

    monkeypatch.setattr(tables, "TABLE_BURST", 3.0)  # a table's own bound, from all its seats
    club.clock.now += 100.0
    assert guesses(ann, ann_h, 2) + guesses(bob, bob_h, 2) == [200, 200, 200, 429]
    refused = bob.post(f"/api/tables/{table}/guess", json={"word": "QXZ"}, headers=bob_h)
    assert "no more guesses this second" in refused.json()["error"]

    monkeypatch.setattr(tables, "GUESSES_PER_ANSWER", 0)  # a member's count at a table
    monkeypatch.setattr(tables, "SPARE_GUESSES", 40)
    monkeypatch.setattr(tables, "TABLE_BURST", 1000.0)
    made = [200]
    while made[-1] == 200:
        club.clock.now += 100.0
        made.append(ann.post(f"/api/tables/{table}/guess", json={"word": "QXZ"}, headers=ann_h).status_code)
    assert made[-1] == 429 and "the most a member makes" in \
        ann.post(f"/api/tables/{table}/guess", json={"word": "QXZ"}, headers=ann_h).json()["error"]
    with club.db.transaction() as tx:
        assert tx.conn.execute("SELECT guesses FROM table_seats WHERE table_id = ? AND member_id = "
                               "(SELECT id FROM members WHERE name = 'ann')", (table,)).fetchone()[0] == 40


def test_a_repeated_finish_answers_the_same_score_and_changes_nothing(club: Club, lex: Lexicon) -> None:
    ann, csrf = member(club, "ann")
    first = play(ann, csrf, club, lex, 2, 30)
    attempt = ann.get(f"/api/challenge?kind={KIND}").json()["attempt"]  # (a retake: the first is finished)
    with club.db.transaction() as tx:
        finished = tx.conn.execute("SELECT id FROM attempts WHERE finished IS NOT NULL").fetchone()[0]
        owed = tx.conn.execute("SELECT count(*) FROM owed_reviews").fetchone()[0]
    assert attempt != finished
    assert isinstance(club.clock, Clock)
    club.clock.now += 100.0  # (the retry comes later: the time answered is the finish's, not the retry's)
    again = ann.post("/api/challenge/finish", json={"attempt": finished}, headers={"x-csrf-token": csrf})
    assert again.status_code == 200 and again.json() == first
    with club.db.transaction() as tx:
        assert tx.conn.execute("SELECT count(*) FROM owed_reviews").fetchone()[0] == owed
    board = ann.get(f"/api/leaderboard?kind={KIND}").json()
    assert [(row["member"], row["score"], row["seconds"]) for row in board] == [("ann", 2, 30.0)]
    bob, bob_csrf = member(club, "bob")
    assert bob.post("/api/challenge/finish", json={"attempt": finished},
                    headers={"x-csrf-token": bob_csrf}).status_code == 404  # (another's: not told)


def test_finishes_at_once_answer_one_score(club: Club, lex: Lexicon) -> None:
    """Two finishes of one attempt released together (a retry racing the first): one score, counted once."""
    from lexitrain.club import challenges

    ann, csrf = member(club, "ann")
    attempt = ann.get(f"/api/challenge?kind={KIND}").json()["attempt"]
    chosen = club.sets.get(KIND, club.today())
    for word in chosen.answers[chosen.keys[0]]:
        ann.post("/api/challenge/guess", json={"attempt": attempt, "word": word}, headers={"x-csrf-token": csrf})
    with club.db.transaction() as tx:
        ident = tx.conn.execute("SELECT id FROM members WHERE name = 'ann'").fetchone()[0]
    barrier = threading.Barrier(2)
    results: list[dict[str, Any]] = []

    def finish() -> None:
        barrier.wait()
        results.append(challenges.finish(club.db, club.sets, ident, attempt, lex.name, club.clock()).to_json())

    threads = [threading.Thread(target=finish) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 2 and results[0] == results[1] and results[0]["score"] == 1
    with club.db.transaction() as tx:
        assert tx.conn.execute("SELECT count(*) FROM misses").fetchone()[0] == len(chosen.keys) - 1


_ = Callable  # (typing only)


def test_a_tables_time_running_out_ends_it_for_everyone_seated(club: Club, clients: list[TestClient]) -> None:
    """A shared table has a clock, as Aerolith's tables do: its round's time counts down from its opening (the
    set's kind's time on a challenge's set, the opener's `seconds` else), and at 0 the round ends for every seated
    member on the club's word (its clock is final): a guess after it is refused (409) and not stored, the end is
    sent to every socket (with the scoreboard of the finds made in time), each member's wall then shows the
    solutions, "Time is up", and the club's list of open tables no longer has it."""
    (ann, ann_h), (bob, bob_h) = seat(club, "ann"), seat(club, "bob")
    clients += [ann, bob]
    assert isinstance(club.clock, Clock)
    assert ann.post("/api/tables", json={"alphagrams": KEYS, "seconds": 5}, headers=ann_h).status_code == 400
    opened = ann.post("/api/tables", json={"alphagrams": KEYS}, headers=ann_h).json()
    table, seconds = opened["table"], opened["seconds"]
    assert seconds == round(tables.SECONDS_PER_ALPHAGRAM * len(KEYS))  # (by its size: no set, none asked)
    assert bob.post(f"/api/tables/{table}/join", headers=bob_h).status_code == 200
    assert [t["time_left"] for t in ann.get("/api/tables").json()] == [seconds]
    word = sorted(ORACLE[KEYS[0]])[0]
    with ann.websocket_connect(f"/api/tables/{table}/events") as socket:
        assert socket.receive_json()["type"] == "join"
        club.clock.now += seconds - 1
        assert bob.get(f"/api/tables/{table}").json()["wall"]["time_left"] == 1
        assert bob.post(f"/api/tables/{table}/guess", json={"word": word}, headers=bob_h).status_code == 200
        assert socket.receive_json()["word"] == word
        club.clock.now += 1  # the time is up
        late = bob.post(f"/api/tables/{table}/guess", json={"word": sorted(ORACLE[KEYS[1]])[0]}, headers=bob_h)
        assert late.status_code == 409
        end = socket.receive_json()
        assert (end["type"], end["timed_out"], end["scoreboard"]) == (
            "end", True, [{"member": "bob", "found": 1}, {"member": "ann", "found": 0}])
    assert stored_guesses(club, table) == 1
    for web in (ann, bob):
        wall = web.get(f"/api/tables/{table}").json()["wall"]
        assert wall["round"]["ended"] and wall["round"]["timed_out"] and wall["time_left"] is None
        assert wall["ended_how"] == "Time is up: bob 1 · ann 0."
        assert [q["alphagram"] for q in wall["solutions"]] == list(KEYS)
    assert ann.get("/api/tables").json() == []
    assert ann.post(f"/api/tables/{table}/join", headers=ann_h).status_code == 409


def test_a_tables_clock_writes_only_when_it_finds_the_time_up(club: Club, clients: list[TestClient],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The club's clock is asked before every guess at a table and every read of it, but it takes a write
    transaction only when it finds the time up: while the table runs, a guess is its own one transaction and a
    read its own one (before, each took a second, to close a table that was not due)."""
    (ann, ann_h), = [seat(club, "ann")]
    clients.append(ann)
    assert isinstance(club.clock, Clock)
    opened = ann.post("/api/tables", json={"alphagrams": KEYS}, headers=ann_h).json()
    table, seconds = opened["table"], opened["seconds"]
    writes: list[str] = []
    real = club.db.transaction

    @contextmanager
    def counted() -> Iterator[Any]:
        writes.append("transaction")
        with real() as store:
            yield store

    monkeypatch.setattr(club.db, "transaction", counted)
    guessed = ann.post(f"/api/tables/{table}/guess", json={"word": sorted(ORACLE[KEYS[0]])[0]}, headers=ann_h)
    assert guessed.status_code == 200 and guessed.json()["correct"] and len(writes) == 1
    assert not ann.get(f"/api/tables/{table}").json()["over"] and len(writes) == 2
    club.clock.now += seconds  # the time is up: the next read ends the table (a write), then reads it
    assert ann.get(f"/api/tables/{table}").json()["wall"]["ended_how"] == "Time is up: ann 1."
    assert len(writes) == 4
    assert ann.get(f"/api/tables/{table}").json()["over"] and len(writes) == 5  # (over: nothing more to write)
