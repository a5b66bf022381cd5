"""`lexitrain sync` against a real club (`lexitrain serve`'s app on uvicorn, SQLite and PostgreSQL): a member's
two homes and their store on the club made one, through the command a player runs; the sync routes behind
the member's session and CSRF token, each member's own store only, a damaged page refused."""

from __future__ import annotations

import json
import os
import socket
import threading
import time
import urllib.parse
import urllib.request
import warnings
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.applications import Starlette
    from starlette.testclient import TestClient

from lexitrain.club.app import Club, create_app
from lexitrain.club.store import ClubDatabase
from lexitrain.club.members import member_named
from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.study.records.club_link import ClubLink
from lexitrain.study.quiz.scheduler import Scheduling
from lexitrain.study.quiz.session import Item, Session
from lexitrain.study.records.sync import StorePeer
from lexitrain.study.store import ProgressStore
from lexitrain.study.store.history import schedule_of
from study_helpers import WORDS, anagram_oracle
from test_club_api import PASSWORD, member
from web_helpers import serving
from tests.cli_runner import run

ORACLE = anagram_oracle()
T0 = datetime(2026, 3, 2, 7, 0, tzinfo=timezone.utc).timestamp()
MINUTE = 60.0


@pytest.fixture
def lex(make_lexicon) -> Lexicon:
    return make_lexicon(sorted(WORDS))


@pytest.fixture
def live(club_target: str, lex: Lexicon) -> Iterator[tuple[str, Club]]:
    """The club served for real (uvicorn on a free port), as `lexitrain serve` serves it."""
    with ClubDatabase(club_target) as db:
        club = Club(db, lex)
        with serving(create_app(club)) as port:
            yield f"http://127.0.0.1:{port}", club


def study(home: Path, lex: Lexicon, answers: list[tuple[str, bool, float]]) -> None:
    """Answer anagram cards in a home as `lexitrain quiz` does: each (alphagram, right, moment)."""
    with ProgressStore(home / "progress.sqlite") as store:
        for key, right, at in answers:
            os.environ["LEXITRAIN_NOW"] = datetime.fromtimestamp(at, timezone.utc).isoformat()
            session = Session(store, lex, "quiz", "anagrams", [Item("anagram", key)], Scheduling())
            for question in session.questions():
                session.answer(question, " ".join(sorted(ORACLE[key])) if right else "WRONG")
            session.finish(save_missed=False)
    os.environ.pop("LEXITRAIN_NOW", None)


def sync(home: Path, url: str, password: Path, monkeypatch: pytest.MonkeyPatch, *more: str) -> Any:
    """`lexitrain sync URL --name ann --password-file F --json` in a home; its JSON."""
    monkeypatch.setenv("LEXITRAIN_HOME", str(home))
    result = run("sync", url, "--name", "ann", "--password-file", str(password), "--json", *more)
    assert result.exit_code == 0, result.stderr
    return result.json()


def home_and_phone_synced(live: tuple[str, Club], lex: Lexicon, home: Path, tmp_path: Path,
                          monkeypatch: pytest.MonkeyPatch) -> tuple[str, list[str], list[Any]]:
    """Ann, a member of the club, answers one card at home and another a minute later on her phone, and each syncs
    (home, then phone), the home the one in use after: the club's address, the two cards' keys, what each sync did."""
    url, club = live
    member(club, "ann")
    password = tmp_path / "password"
    password.write_text(PASSWORD + "\n")
    phone = tmp_path / "phone"
    phone.mkdir()
    keys = sorted(ORACLE)[:2]
    study(home, lex, [(keys[0], True, T0)])
    synced = [sync(home, url, password, monkeypatch)]
    study(phone, lex, [(keys[1], False, T0 + MINUTE)])
    synced.append(sync(phone, url, password, monkeypatch))
    monkeypatch.setenv("LEXITRAIN_HOME", str(home))
    return url, keys, synced


def cards(store: ProgressStore) -> dict[str, dict[str, Any]]:
    return {card.key: schedule_of(card) for card in store.studied_cards("small")}


def uids(store: ProgressStore) -> set[str]:
    return {row[0] for row in store.conn.execute("SELECT uid FROM answers")}


def test_two_homes_and_the_club_end_as_one_through_lexitrain_sync(live, lex, tmp_path, monkeypatch):
    """Laptop and phone answer some of the same cards offline at interleaved times; ann also studies on the
    club (`/api/study`); each home syncs (laptop, phone, laptop): every answer once everywhere, every card
    the same everywhere and as one home given every answer in time order; then nothing moves."""
    url, club = live
    ann, csrf = member(club, "ann")
    password = tmp_path / "password"
    password.write_text(PASSWORD + "\n")
    laptop, phone, one = tmp_path / "laptop", tmp_path / "phone", tmp_path / "one"
    for folder in (laptop, phone, one):
        folder.mkdir()
    keys = sorted(ORACLE)[:5]
    given = [(keys[n % 5], n % 3 != 0, T0 + n * 37 * MINUTE) for n in range(24)]  # (each card on both homes)
    study(laptop, lex, given[0::2])
    study(phone, lex, given[1::2])
    first = sync(laptop, url, password, monkeypatch)
    assert first == {"sent": 12, "received": 0, "cards": 0}
    second = sync(phone, url, password, monkeypatch)
    assert second == {"sent": 12, "received": 12, "cards": 5}
    third = sync(laptop, url, password, monkeypatch)
    assert third == {"sent": 0, "received": 12, "cards": 5}
    study(one, lex, given)  # (one home, every answer in time order)
    with ProgressStore(laptop / "progress.sqlite") as a, ProgressStore(phone / "progress.sqlite") as b, \
            ProgressStore(one / "progress.sqlite") as c, club.stores.open(member_named(club.db, "ann").id) as on_club:
        assert cards(a) == cards(b) == cards(on_club) == cards(c) and len(cards(a)) == 5
        assert uids(a) == uids(b) == uids(on_club) and len(uids(a)) == 24
    for home in (laptop, phone):
        assert sync(home, url, password, monkeypatch) == {"sent": 0, "received": 0, "cards": 0}
    # an answer on the club's own page travels home
    question = ann.get("/api/study?limit=1").json()["questions"]
    assert question, "a card of ann's is due on the club"
    shown = question[0]
    said = ann.post("/api/study/answer", json={"kind": shown["kind"], "key": shown["key"], "answer": "WRONG",
                                               "reviewed": shown["card"]["last_review"]}, headers={"x-csrf-token": csrf})
    assert said.status_code == 200, said.text
    assert sync(laptop, url, password, monkeypatch) == {"sent": 0, "received": 1, "cards": 1}
    with ProgressStore(laptop / "progress.sqlite") as a:
        card = a.find_card("small", "anagram", shown["key"])
        assert card is not None and schedule_of(card) == {k: v for k, v in said.json()["card"].items()
                                                          if k in schedule_of(card)}


def test_uploaded_lists_travel_both_ways_a_removal_too_and_a_damaged_one_from_the_club_is_refused(live, lex, tmp_path,
                                                                                                    monkeypatch):
    """A list uploaded at home (larger than the club's ordinary 64 KB bodies: a page of a sync goes whole) and one
    uploaded on the club's /study reach the other side through `lexitrain sync`; one removed on the club is removed at
    home by the next sync; a list damaged on the club (a control character) is refused at home in one line, and
    nothing of the page is written there."""
    url, club = live
    ann, csrf = member(club, "ann")
    ann_id = member_named(club.db, "ann").id
    password = tmp_path / "password"
    password.write_text(PASSWORD + "\n")
    home = tmp_path / "laptop"
    home.mkdir()
    words = sorted(WORDS)
    big = "".join(f"{words[n % len(words)]}\n" for n in range(20_000))  # (some 100 KB)
    with ProgressStore(home / "progress.sqlite") as store:
        store.keep_word_list("everything", big, T0)
    uploaded = ann.post("/study/lists", data={"name": "on the club", "csrf": csrf},
                        files={"file": ("c.txt", "".join(f"{w}\n" for w in words[:3]).encode())}, follow_redirects=False)
    assert uploaded.status_code == 303, uploaded.text
    assert sync(home, url, password, monkeypatch) == {"sent": 0, "received": 0, "cards": 0}
    with ProgressStore(home / "progress.sqlite") as store, club.stores.open(ann_id) as on_club:
        assert store.word_list_names() == on_club.word_list_names() == ["everything", "on the club"]
        assert on_club.word_list("everything") == big and store.list_versions() == on_club.list_versions()
    assert "everything" in ann.get("/study/").text  # (playable on the club's own page)
    removed = ann.post("/study/lists/remove", data={"name": "on the club", "csrf": csrf}, follow_redirects=False)
    assert removed.status_code == 303 and "removed=on" in removed.headers["location"]
    assert ann.post("/study/lists/remove", data={"name": "on the club", "csrf": csrf}).status_code == 404
    sync(home, url, password, monkeypatch)
    with ProgressStore(home / "progress.sqlite") as store:
        assert store.word_list_names() == ["everything"]
        last = store.last_seq()
    with club.stores.open(ann_id) as on_club:
        on_club.keep_word_list("damaged", "QI\n", T0)
        with on_club.transaction():
            on_club.conn.execute("UPDATE word_lists SET words = ? WHERE name = 'damaged'", ("QI\x01ZA\n",))
    monkeypatch.setenv("LEXITRAIN_HOME", str(home))
    refused = run("sync", url, "--name", "ann", "--password-file", str(password), "--json")
    assert refused.exit_code == 1 and "Traceback" not in refused.stderr
    said = [line for line in refused.stderr.splitlines() if line.strip()]
    assert len(said) == 1 and "lists #1: words is 'QI\\x01ZA\\n' (expected a list's words" in said[0], refused.stderr
    with ProgressStore(home / "progress.sqlite") as store:
        assert store.last_seq() == last and store.word_list_names() == ["everything"]  # (nothing written)


def test_the_password_is_asked_once_and_forget_ends_the_session_on_the_club(live, lex, tmp_path, monkeypatch):
    url, club = live
    member(club, "ann")
    home = tmp_path / "player"
    home.mkdir()
    monkeypatch.setenv("LEXITRAIN_HOME", str(home))
    asked = run("sync", url, "--name", "ann", input=PASSWORD + "\n")  # (typed at the prompt, not echoed)
    assert asked.exit_code == 0, asked.stderr
    assert "password for ann on" in asked.stdout and "sent 0 answers, received 0 answers" in asked.stdout
    kept = home / "club-sessions.json"
    assert oct(kept.stat().st_mode & 0o777) == "0o600" and PASSWORD not in kept.read_text()
    again = run("sync", "--json")  # (no password, no address: the one club a session is kept with)
    assert again.exit_code == 0 and again.json() == {"sent": 0, "received": 0, "cards": 0}
    cookie = json.loads(kept.read_text())[f"{url}#ann"]["cookie"]
    web = TestClient(create_app(club))
    assert web.get("/api/sync", headers={"cookie": cookie}).status_code == 200
    forgot = run("sync", "--forget")
    assert forgot.exit_code == 0 and f"forgot the session as ann on {url}" in forgot.stdout
    assert web.get("/api/sync", headers={"cookie": cookie}).status_code == 401  # revoked on the club, not only here
    assert run("sync", "--json").exit_code == 1  # (nothing kept: the address and name are asked for)
    wrong = run("sync", url, "--name", "ann", input="not the password\n")
    assert wrong.exit_code == 1 and "error:" in wrong.stderr and "Traceback" not in wrong.stderr


def test_an_address_that_is_no_clubs_is_said_so_before_a_password_is_sent(live, lex, tmp_path, monkeypatch):
    """A page's address (the study pages under /study) answered "log in first (POST /api/session)"; another server,
    a refused connection and https to a club served over http each say what the address is, in one line, exit 1."""
    url, club = live
    member(club, "ann")
    password = tmp_path / "password"
    password.write_text(PASSWORD + "\n")
    monkeypatch.setenv("LEXITRAIN_HOME", str(tmp_path))
    with serving(Starlette()) as other, socket.create_server(("127.0.0.1", 0)) as bound:
        closed = bound.getsockname()[1]
        bound.close()
        tried = {
            f"{url}/study": f"{url}/study is not a lexitrain club's address: it is a page of the club at {url} (give that)",
            f"{url}/study/review": f"is a page of the club at {url} (give that)",
            f"http://127.0.0.1:{other}": f"http://127.0.0.1:{other} is not a lexitrain club's address (give the address",
            f"http://127.0.0.1:{closed}": "cannot reach the club (",
            url.replace("http:", "https:"): "the server there answers plain http, not https (a club on this machine is "
                                            "reached at http://)",
        }
        for address, said in tried.items():
            result = run("sync", address, "--name", "ann", "--password-file", str(password))
            assert result.exit_code == 1 and said in result.stderr, (address, result.stderr)
            assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert not (tmp_path / "club-sessions.json").exists()


def test_the_sync_routes_need_the_members_session_and_csrf_and_reach_only_their_store(club_target, lex, tmp_path):
    with ClubDatabase(club_target) as db:
        club = Club(db, lex)
        ann, ann_csrf = member(club, "ann")
        bob, bob_csrf = member(club, "bob")
        nobody = TestClient(create_app(club))
        with ProgressStore(tmp_path / "home.sqlite") as home:
            session = Session(home, lex, "quiz", "x", [Item("anagram", sorted(ORACLE)[0])], Scheduling())
            for question in session.questions():
                session.answer(question, "WRONG")
            page = StorePeer(home).changes(0, 100)
        assert nobody.get("/api/sync").status_code == 401
        assert nobody.get("/api/sync/changes?since=0").status_code == 401
        assert nobody.post("/api/sync/push", json={"since": 0, "page": page}).status_code == 401
        assert ann.post("/api/sync/push", json={"since": 0, "page": page}).status_code == 403  # (no CSRF token)
        assert ann.post("/api/sync/push", json={"since": 0, "page": page},
                        headers={"x-csrf-token": bob_csrf}).status_code == 403  # (bob's token)
        took = ann.post("/api/sync/push", json={"since": 0, "page": page}, headers={"x-csrf-token": ann_csrf})
        assert took.status_code == 200 and took.json()["answers"] == 1
        assert ann.get("/api/sync").json()["store"] != bob.get("/api/sync").json()["store"]
        assert bob.get("/api/sync/changes?since=0").json()["answers"] == []  # (ann's answer is ann's alone)
        assert len(ann.get("/api/sync/changes?since=0").json()["answers"]) == 1
        damaged = {**page, "answers": [{**page["answers"][0], "uid": "not an id"}]}
        said = bob.post("/api/sync/push", json={"since": 0, "page": damaged}, headers={"x-csrf-token": bob_csrf})
        assert said.status_code == 400 and "answers #1: uid" in said.json()["error"]
        assert bob.get("/api/sync").json()["last"] == 0  # (nothing written)
        first, last = took.json()["taken"]  # (the numbers ann's store gave what it took)
        assert ann.get(f"/api/sync/changes?since=0&skip={first}-{last}").json()["answers"] == []  # (not sent back)
        for query in ("since=abc", "since=-1", "since=1&limit=0", "since=1&limit=99999999999999999999999", "",
                      "since=" + "9" * 5000, "since=0&skip=5-2", "since=0&skip=x", "since=0&skip=" + ",".join(["1-2"] * 40),
                      "since=0&skip=0-1"):
            bad = ann.get(f"/api/sync/changes?{query}")
            assert bad.status_code == 400 and "\n" not in bad.json()["error"], query
        for body in ({}, {"since": "0", "page": page}, {"since": 0}, {"since": 0, "page": []}):
            bad = ann.post("/api/sync/push", json=body, headers={"x-csrf-token": ann_csrf})
            assert bad.status_code == 400, body


def test_the_local_apps_sync_button_syncs_with_the_club_the_home_keeps_a_session_with(live, lex, home, tmp_path,
                                                                                       monkeypatch):
    """The local app's home page says when the home last synced, offers a Sync button for the club a
    session is kept with (made once by `lexitrain sync`), and the button syncs: the phone's answer arrives."""
    from lexitrain.web.app import create_app
    from lexitrain.web.context import Context

    url, keys, syncs = home_and_phone_synced(live, lex, home, tmp_path, monkeypatch)
    assert syncs == [{"sent": 1, "received": 0, "cards": 0}, {"sent": 1, "received": 1, "cards": 1}]
    with ProgressStore() as store, TestClient(create_app(Context(store, "small", secret="s3cret",
                                                                 hosts=frozenset({"testserver"}))),
                                              headers={"origin": "http://testserver"}) as web:
        page = web.get("/?key=s3cret").text
        assert f"Sync with ann on {url}" in page and f"ann on {url}" in page
        synced = web.post("/sync", data={"club": f"ann on {url}"}, headers={"accept": "text/html"})
        assert synced.status_code == 200, synced.text
        assert f"Synced with ann on {url}: sent 0 answers, received 1 answer; 1 card rescheduled here." in synced.text
        assert store.find_card("small", "anagram", keys[1]) is not None

        def unreachable(self: ClubLink, *args: Any, **kwargs: Any) -> Any:
            raise LexitrainError(f"{url}: cannot reach the club ([Errno 111] Connection refused); nothing more was sent")

        monkeypatch.setattr(ClubLink, "_call", unreachable)  # a sync that fails: said as a refusal, its address kept
        failed = web.post("/sync", data={"club": f"ann on {url}"}, headers={"accept": "text/html"}).text
        assert f'<p class="notice" role="alert">{url}: cannot reach the club' in failed  # (was green, "Http://...")
        assert 'class="saved">Http' not in failed


def test_the_local_apps_sync_holds_not_the_lane_while_it_waits_on_the_club(live, lex, home, tmp_path, monkeypatch):
    """The Sync button's sync waits on the club over the network (held here at a barrier, in its first call to
    the club): meanwhile the player starts a wall and guesses on it (the lane's writes) and is answered at once
    (before, the lane was held through the whole sync, and every guess waited for the club); let go, the sync
    ends as it would have: the phone's answer arrived, and the guess made meanwhile went to the club."""
    from http.cookiejar import CookieJar

    from lexitrain.web.app import create_app as create_web_app
    from lexitrain.web.context import Context

    url, keys, _ = home_and_phone_synced(live, lex, home, tmp_path, monkeypatch)
    inside, release = threading.Event(), threading.Event()
    real = ClubLink._call

    def held(self: ClubLink, *args: Any, **kwargs: Any) -> Any:
        if not inside.is_set():
            inside.set()
            assert release.wait(20)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(ClubLink, "_call", held)
    listening = socket.create_server(("127.0.0.1", 0))
    base = f"http://127.0.0.1:{listening.getsockname()[1]}"
    with ProgressStore() as store, serving(create_web_app(Context(store, "small", secret="s3cret", hosts=frozenset(
            {base.removeprefix("http://")}))), listening):
        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
        browser.open(f"{base}/?key=s3cret", timeout=10).read()

        def post(path: str, form: dict[str, str] | None = None, data: Any = None) -> Any:
            body = urllib.parse.urlencode(form).encode() if form is not None else json.dumps(data).encode()
            kind = "application/x-www-form-urlencoded" if form is not None else "application/json"
            return browser.open(urllib.request.Request(base + path, body, method="POST", headers={
                "origin": base, "content-type": kind}), timeout=30)

        synced: list[str] = []
        syncing = threading.Thread(target=lambda: synced.append(post("/sync", {"club": f"ann on {url}"}).read().decode()),
                                   daemon=True)
        syncing.start()
        assert inside.wait(10)
        try:
            began = time.monotonic()
            with post("/wall", {"source": "search", "value": "--length 2-3", "minutes": "0"}) as page:
                ident = page.url.rsplit("/", 1)[1]
            token = json.loads(browser.open(f"{base}/api/wall/{ident}", timeout=10).read())["round"]["token"]
            word = sorted(ORACLE[keys[0]])[0]
            guessed = json.loads(post(f"/api/wall/{ident}/guess", data={"word": word, "round": token}).read())
            assert guessed["guess"]["verdict"] in ("correct", "already") and time.monotonic() - began < 5
            assert syncing.is_alive()  # the sync still waits on the club
        finally:
            release.set()
        syncing.join(30)
        said = f"Synced with ann on {url}: sent 1 answer, received 1 answer; 1 card rescheduled here."
        assert said in synced[0]  # (the guess made meanwhile went too)
        assert store.find_card("small", "anagram", keys[1]) is not None
