"""Shared walls over WebSocket, on SQLite and on a real PostgreSQL: a member opens a table, others join,
each seat and every guess reach every seated member with who sits and who found what, the scoreboard at
the end (every seated member, 0 for none found); the guesser's card scheduled unless the table is
practice; the socket refused without a session, from another site, or at a table not joined; and on
PostgreSQL a seat and a guess made through one server process reaching a member connected to another
(LISTEN/NOTIFY)."""

from __future__ import annotations

import threading
import time
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

from lexitrain.club import tables
from lexitrain.club.app import Club, create_app
from lexitrain.club.store import ClubDatabase
from lexitrain.club.store.shared_walls import SharedWalls
from lexitrain.club.members import Member, make_invite, sign_up
from lexitrain.lexicon.lexicon import Lexicon
from study_helpers import WORDS, anagram_oracle
from web_helpers import serving

#: A socket that never answers fails its test after this long, instead of hanging the run (pytest-timeout).
pytestmark = pytest.mark.timeout(120)
PASSWORD = "correct horse battery"
ORACLE = anagram_oracle()
KEYS = sorted(key for key in ORACLE if len(key) == 3)[:6]


@pytest.fixture
def lex(make_lexicon) -> Lexicon:
    return make_lexicon(sorted(WORDS))


@pytest.fixture
def club(club_target: str, lex: Lexicon) -> Iterator[Club]:
    with ClubDatabase(club_target) as db:
        yield Club(db, lex)


def seat(club: Club, name: str) -> tuple[TestClient, dict[str, str]]:
    web = TestClient(create_app(club))
    web.__enter__()  # (the lifespan: the process's LISTEN on PostgreSQL)
    invite = make_invite(club.db, club.clock())
    web.post("/api/members", json={"name": name, "password": PASSWORD, "invite": invite})
    csrf = web.post("/api/session", json={"name": name, "password": PASSWORD}).json()["csrf"]
    return web, {"x-csrf-token": csrf}


@pytest.fixture
def clients() -> Iterator[list[TestClient]]:
    opened: list[TestClient] = []
    yield opened
    for web in opened:
        web.__exit__(None, None, None)


def test_a_shared_wall_from_open_to_scoreboard(club: Club, clients: list[TestClient]) -> None:
    (ann, ann_h), (bob, bob_h) = seat(club, "ann"), seat(club, "bob")
    clients += [ann, bob]
    opened = ann.post("/api/tables", json={"alphagrams": [k.lower() for k in KEYS]}, headers=ann_h)
    assert opened.status_code == 201 and opened.json()["alphagrams"] == KEYS
    table = opened.json()["table"]
    assert bob.get(f"/api/tables/{table}").status_code == 403  # not seated yet
    assert bob.post(f"/api/tables/{table}/guess", json={"word": "X"}, headers=bob_h).status_code == 403
    assert [t["seated"] for t in bob.get("/api/tables").json()] == [1]
    joined = bob.post(f"/api/tables/{table}/join", headers=bob_h).json()
    assert joined["seated"] == ["ann", "bob"] and joined["found"] == [] and joined["owner"] == "ann"
    first_word = sorted(ORACLE[KEYS[0]])[0]
    with ann.websocket_connect(f"/api/tables/{table}/events") as ann_ws, \
            bob.websocket_connect(f"/api/tables/{table}/events") as bob_ws:
        for socket in (ann_ws, bob_ws):  # connected after bob sat down: his seat comes first, from the database
            joined = socket.receive_json()
            assert (joined["type"], joined["member"], joined["seated"]) == ("join", "bob", ["ann", "bob"])
        assert bob.post(f"/api/tables/{table}/join", headers=bob_h).status_code == 200  # again: no event
        said = bob.post(f"/api/tables/{table}/guess", json={"word": first_word.lower()}, headers=bob_h).json()
        assert said["correct"] and said["alphagram"] == KEYS[0] and said["first"]
        for socket in (ann_ws, bob_ws):
            event = socket.receive_json()
            assert (event["member"], event["word"], event["correct"], event["first"]) == ("bob", first_word, True, True)
        again = ann.post(f"/api/tables/{table}/guess", json={"word": first_word}, headers=ann_h).json()
        assert again["correct"] and not again["first"]  # bob found it first
        assert ann_ws.receive_json()["member"] == "ann" and bob_ws.receive_json()["member"] == "ann"
        ann.post(f"/api/tables/{table}/guess", json={"word": "QQQ"}, headers=ann_h)
        assert ann_ws.receive_json()["correct"] is False and bob_ws.receive_json()["correct"] is False
        assert bob.post(f"/api/tables/{table}/end", headers=bob_h).status_code == 403  # ann opened it
        ended = ann.post(f"/api/tables/{table}/end", headers=ann_h).json()
        assert ended["scoreboard"] == [{"member": "bob", "found": 1}, {"member": "ann", "found": 0}]
        for socket in (ann_ws, bob_ws):
            closing = socket.receive_json()
            assert closing["type"] == "end" and closing["scoreboard"] == ended["scoreboard"]
    assert bob.post(f"/api/tables/{table}/guess", json={"word": first_word}, headers=bob_h).status_code == 409
    for web in (ann, bob):  # each right guesser's own card, once (ann's word was found first by bob: still right)
        assert [(c["key"], c["correct"]) for c in web.get("/api/cards").json()] == [(KEYS[0], 1)]
    state = ann.get(f"/api/tables/{table}").json()
    assert state["over"] and state["found"] == [{"word": first_word, "alphagram": KEYS[0], "member": "bob"}]



def test_two_members_sitting_down_at_once_each_see_the_other(club: Club, clients: list[TestClient],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Bob sits down while carol's seat is taken but not yet committed: he waits for her (the table's row is
    locked), so his event's `seated` has her and hers does not have him; without the lock each would leave
    the other out. PostgreSQL only: SQLite's writers already take turns from their BEGIN IMMEDIATE."""
    if not club.db.postgres:
        pytest.skip("SQLite's transactions take turns from their BEGIN IMMEDIATE")
    (ann, ann_h), = [seat(club, "ann")]
    clients.append(ann)
    table = ann.post("/api/tables", json={"alphagrams": KEYS}, headers=ann_h).json()["table"]
    now = club.clock()
    carol, bob = (sign_up(club.db, name, PASSWORD, make_invite(club.db, now), now) for name in ("carol", "bob"))
    paused, go = threading.Event(), threading.Event()
    seated_names = SharedWalls.seated_names

    def carol_pauses(store: SharedWalls, table_id: int) -> list[str]:  # (between taking her seat and reading who sits)
        if threading.current_thread().name == "carol":
            paused.set()
            assert go.wait(30)
        return seated_names(store, table_id)

    monkeypatch.setattr(SharedWalls, "seated_names", carol_pauses)
    events: dict[str, dict[str, Any] | None] = {}

    def sit(member: Member, at: float) -> None:
        events[member.name] = tables.join(club.db, member.id, member.name, table, at)

    first = threading.Thread(target=sit, args=(carol, now + 1), name="carol")
    first.start()
    assert paused.wait(30)
    second = threading.Thread(target=sit, args=(bob, now + 2), name="bob")
    second.start()
    deadline = time.monotonic() + 30
    while second.is_alive() and time.monotonic() < deadline:  # until bob is done, or waits on a lock
        with club.db.transaction() as tx:
            row = tx.conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                         "AND wait_event_type = 'Lock'").fetchone()
        if row is not None and row[0]:
            break
        time.sleep(0.01)
    go.set()
    first.join()
    second.join()
    assert events["carol"] is not None and events["carol"]["seated"] == ["ann", "carol"]
    assert events["bob"] is not None and events["bob"]["seated"] == ["ann", "carol", "bob"]


def test_the_socket_is_refused_without_a_session_from_another_site_or_unseated(club: Club,
                                                                               clients: list[TestClient]) -> None:
    (ann, ann_h), (bob, _) = seat(club, "ann"), seat(club, "bob")
    clients += [ann, bob]
    table = ann.post("/api/tables", json={"alphagrams": KEYS}, headers=ann_h).json()["table"]
    stranger = TestClient(create_app(club))
    attempts = [(stranger, {}, 4401), (ann, {"origin": "https://evil.example"}, 4403), (bob, {}, 4403)]
    for web, headers, code in attempts:
        with pytest.raises(WebSocketDisconnect) as refused:
            with web.websocket_connect(f"/api/tables/{table}/events", headers=headers) as socket:
                socket.receive_json()
        assert refused.value.code == code
    with pytest.raises(WebSocketDisconnect) as missing:
        with ann.websocket_connect("/api/tables/999/events") as socket:
            socket.receive_json()
    assert missing.value.code == 4404


def test_a_practice_table_schedules_no_card_and_a_late_socket_catches_up(club: Club,
                                                                         clients: list[TestClient]) -> None:
    (ann, ann_h), = [seat(club, "ann")]
    clients.append(ann)
    table = ann.post("/api/tables", json={"alphagrams": KEYS, "practice": True}, headers=ann_h).json()["table"]
    words = [sorted(ORACLE[key])[0] for key in KEYS[:2]]
    ids = [ann.post(f"/api/tables/{table}/guess", json={"word": word}, headers=ann_h).json()["id"] for word in words]
    with ann.websocket_connect(f"/api/tables/{table}/events?after={ids[0]}") as socket:
        assert socket.receive_json()["word"] == words[1]  # what it missed, after the id it had
    assert ann.get("/api/cards").json() == []


def test_a_guess_through_one_process_reaches_a_member_on_another(club_target: str, lex: Lexicon,
                                                                  clients: list[TestClient]) -> None:
    """Two apps, each with its own database pool and hub, as two `serve` processes have: on PostgreSQL the
    event crosses by LISTEN/NOTIFY; on SQLite (one process per club) it is the process's own delivery."""
    with ClubDatabase(club_target) as first_db, ClubDatabase(club_target) as second_db:
        first, second = Club(first_db, lex), Club(second_db, lex)
        (ann, ann_h), (bob, bob_h) = seat(first, "ann"), seat(second, "bob")
        clients += [ann, bob]
        table = ann.post("/api/tables", json={"alphagrams": KEYS}, headers=ann_h).json()["table"]
        if not first_db.postgres:
            pytest.skip("one SQLite club is served by one process")
        word = sorted(ORACLE[KEYS[1]])[0]
        with ann.websocket_connect(f"/api/tables/{table}/events") as socket:
            bob.post(f"/api/tables/{table}/join", headers=bob_h)
            joined = socket.receive_json()
            bob.post(f"/api/tables/{table}/guess", json={"word": word}, headers=bob_h)
            event = socket.receive_json()
        assert (joined["type"], joined["member"], joined["seated"]) == ("join", "bob", ["ann", "bob"])
        assert (event["member"], event["word"], event["correct"]) == ("bob", word, True)
        for web in clients:
            web.__exit__(None, None, None)
        clients.clear()



def test_a_member_who_closes_the_socket_is_let_go_at_once(club: Club, clients: list[TestClient]) -> None:
    """A tab closed at a table that sends nothing more (ended, or quiet) frees its socket's handler at once,
    on a real server (uvicorn; the test client cancels a handler itself): it waited for the table's next
    event, so an ended table held every socket of it until the server stopped."""
    from websockets.sync.client import connect

    ann, ann_h = seat(club, "ann")
    clients.append(ann)
    table = ann.post("/api/tables", json={"alphagrams": KEYS}, headers=ann_h).json()["table"]
    app = create_app(club)
    with serving(app) as port:
        cookie = "; ".join(f"{name}={value}" for name, value in ann.cookies.items())
        subscribers = app.state.hub._seats

        def held() -> bool:
            return bool(subscribers.get(table))

        with connect(f"ws://127.0.0.1:{port}/api/tables/{table}/events", additional_headers={"cookie": cookie}):
            assert _within(10, held)
        assert _within(10, lambda: not held()), "the closed socket's handler still waits for the table's events"


def _within(seconds: float, check: Any) -> bool:
    """Whether CHECK() comes true within SECONDS."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def test_a_table_on_letters_no_tile_spells_is_refused_in_one_line(club: Club, clients: list[TestClient]) -> None:
    """A digit among the alphagrams is the opener's mistake (400, one line), never a 500."""
    ann, ann_h = seat(club, "ann")
    clients.append(ann)
    for bad in (["A1"], ["1"], ["ab", "7"]):
        refused = ann.post("/api/tables", json={"alphagrams": bad}, headers=ann_h)
        assert refused.status_code == 400, refused.text
        assert "is not a tile" in refused.json()["error"] and "\n" not in refused.json()["error"]
