"""`lexitrain serve`'s JSON API over HTTP (Starlette's TestClient), on SQLite and on a real PostgreSQL:
the routes as docs/club.md lists them, and the security a club needs: every route refused without a
session, another member's data refused, CSRF missing or wrong refused, a login flood slowed, the
session cookie's flags, passwords never stored or logged in clear; and a member's club progress
downloaded as a backup the local app imports, and a local export uploaded."""

from __future__ import annotations

import json
import logging
import warnings
from collections.abc import Iterator
from datetime import date, datetime, timedelta
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from httpx import Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from lexitrain.club import app as club_app
from lexitrain.club.app import COOKIE, Club, create_app
from lexitrain.club.store import ClubDatabase
from lexitrain.club.member_study import MemberStudy
from lexitrain.club.members import FIRST_WAIT, FREE_CHECKS_PER_NAME, make_admin, make_invite
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.study.drills.challenge import challenge_keys
from lexitrain.study.store import ProgressStore
from lexitrain.study.records.transfer import export_progress, import_progress
from study_helpers import WORDS, anagram_oracle
from web_helpers import Clock

PASSWORD = "correct horse battery"
KIND = "threes"
ORACLE = anagram_oracle()


@pytest.fixture
def lex(make_lexicon) -> Lexicon:
    return make_lexicon(sorted(WORDS))


@pytest.fixture
def club(club_target: str, lex: Lexicon) -> Iterator[Club]:
    with ClubDatabase(club_target) as db:
        yield Club(db, lex, clock=Clock())


def client(club: Club) -> TestClient:
    return TestClient(create_app(club))


def member(club: Club, name: str, admin: bool = False) -> tuple[TestClient, str]:
    """A logged-in member's client and their CSRF token."""
    web = client(club)
    invite = make_invite(club.db, club.clock())
    assert web.post("/api/members", json={"name": name, "password": PASSWORD, "invite": invite}).status_code == 201
    if admin:
        make_admin(club.db, name)
    login = web.post("/api/session", json={"name": name, "password": PASSWORD})
    assert login.status_code == 200 and login.json()["member"] == name
    return web, login.json()["csrf"]


def play(web: TestClient, csrf: str, club: Club, lex: Lexicon, solve: int, seconds: float) -> dict:
    got = web.get(f"/api/challenge?kind={KIND}").json()
    answers = club.sets.get(KIND, club.today()).answers
    for key in got["alphagrams"][:solve]:
        for word in answers[key]:
            said = web.post("/api/challenge/guess", json={"attempt": got["attempt"], "word": word.lower()},
                            headers={"x-csrf-token": csrf})
            assert said.json() == {"correct": True, "alphagram": key}
    assert isinstance(club.clock, Clock)
    club.clock.now += seconds
    done = web.post("/api/challenge/finish", json={"attempt": got["attempt"]}, headers={"x-csrf-token": csrf})
    assert done.status_code == 200
    return done.json()


def test_sign_up_log_in_play_and_the_leaderboard(club: Club, lex: Lexicon) -> None:
    ann, ann_csrf = member(club, "ann")
    bob, bob_csrf = member(club, "bob")
    got = ann.get(f"/api/challenge?kind={KIND}").json()
    assert got["kind"] == KIND and got["date"] == club.today().isoformat()
    assert got["alphagrams"] == challenge_keys(lex, club.today(), KIND)  # what `lexitrain challenge` asks
    assert ann.get(f"/api/challenge?kind={KIND}").json()["attempt"] == got["attempt"]  # the open one again
    wrong = ann.post("/api/challenge/guess", json={"attempt": got["attempt"], "word": "QQQ"},
                     headers={"x-csrf-token": ann_csrf})
    assert wrong.json() == {"correct": False, "alphagram": None}
    total = len(got["alphagrams"])
    missed = {key: sorted(ORACLE[key]) for key in got["alphagrams"][3:]}  # each unsolved one's answers
    assert play(ann, ann_csrf, club, lex, 3, 40) == {"score": 3, "total": total, "seconds": 40.0, "missed": missed}
    assert play(bob, bob_csrf, club, lex, 3, 25)["score"] == 3
    board = bob.get(f"/api/leaderboard?kind={KIND}&date={club.today().isoformat()}")
    assert board.json() == [{"member": "bob", "score": 3, "total": total, "seconds": 25.0},
                            {"member": "ann", "score": 3, "total": total, "seconds": 40.0}]
    assert ann.get(f"/api/leaderboard?kind={KIND}&date=2020-01-01").json() == []
    assert ann.get(f"/api/medals?kind={KIND}").json()[0] == {"member": "bob", "gold": 1, "silver": 0, "bronze": 0}
    assert ann.get("/api/toughies").json() == []  # today's misses are alphagrams of today's ranked sets
    club.clock.now += 86400  # the next day: yesterday's misses are the club's toughies
    assert {row["alphagram"] for row in ann.get("/api/toughies").json()} == set(got["alphagrams"][3:])
    cards = ann.get("/api/cards?member=ann").json()
    assert len(cards) == total and sum(card["correct"] for card in cards) == 3


def test_an_attempt_is_the_walls_state_and_its_time_is_the_servers(club: Club, lex: Lexicon) -> None:
    """GET /api/challenge/ID is the attempt as the wall draws it (the local wall's shape): the set's cells, the
    words found so far (a reload finds them), the time left by the club's clock. A guess after the kind's time is
    refused (409) and the attempt is finished at its deadline; one left running is ranked once its time is up."""
    ann, ann_csrf = member(club, "ann")
    bob, bob_csrf = member(club, "bob")
    got = ann.get(f"/api/challenge?kind={KIND}").json()
    chosen = club.sets.get(KIND, club.today())
    key = next(k for k in got["alphagrams"] if len(ORACLE[k]) >= 2)
    word = sorted(ORACLE[key])[0]
    ann.post("/api/challenge/guess", json={"attempt": got["attempt"], "word": word}, headers={"x-csrf-token": ann_csrf})
    assert isinstance(club.clock, Clock)
    club.clock.now += 30
    wall = ann.get(f"/api/challenge/{got['attempt']}").json()
    cells = wall["round"]["cells"]
    assert [c["alphagram"] for c in cells] == got["alphagrams"]
    found = {c["alphagram"]: c["found"] for c in cells if c["found"]}
    assert found == {key: [word]} and not wall["round"]["ended"] and wall["done"] is False
    assert wall["time_left"] == chosen.seconds - 30 == 90  # (the threes' two minutes)
    assert all(c["answers"] == len(ORACLE[c["alphagram"]]) and c["tiles"] == list(c["alphagram"]) for c in cells)
    assert "solutions" not in wall  # (nothing of the answers before the end)
    assert bob.get(f"/api/challenge/{got['attempt']}").status_code == 404  # another member's: not told it exists
    for path, said in ((f"/challenge/{got['attempt']}", f"no attempt {got['attempt']} of yours"),
                       ("/tables/999", "no table 999")):  # a browser's: the page saying so (it was a line of JSON)
        shown = bob.get(path, headers={"accept": "text/html"})
        assert shown.status_code == 404 and "<h1>Cannot do that</h1>" in shown.text and said in shown.text, path
        assert '<a class="club" href="/">Club</a>' in shown.text
    club.clock.now += 100  # past the deadline
    late = ann.post("/api/challenge/guess", json={"attempt": got["attempt"], "word": sorted(ORACLE[key])[1]},
                    headers={"x-csrf-token": ann_csrf})
    assert late.status_code == 409 and "the time is up" in late.json()["error"]
    over = ann.get(f"/api/challenge/{got['attempt']}").json()
    assert over["round"]["ended"] and over["round"]["timed_out"] and over["ended_how"] == "Time is up."
    assert {c["alphagram"]: c["found"] for c in over["round"]["cells"] if c["found"]} == {key: [word]}
    solutions = {s["alphagram"]: s for s in over["solutions"]}
    assert [w["word"] for w in solutions[key]["words"]] == sorted(ORACLE[key])
    assert [w["found"] for w in solutions[key]["words"]] == [True] + [False] * (len(ORACLE[key]) - 1)
    bob_got = bob.get(f"/api/challenge?kind={KIND}").json()
    club.clock.now += 500  # bob's tab closed mid-attempt: ranked when its time is up, with what he found
    board = ann.get(f"/api/leaderboard?kind={KIND}").json()
    assert board == [{"member": "ann", "score": 0, "total": chosen.total, "seconds": chosen.seconds},
                     {"member": "bob", "score": 0, "total": chosen.total, "seconds": chosen.seconds}]
    assert bob.get(f"/api/challenge/{bob_got['attempt']}").json()["round"]["timed_out"]


def test_todays_ranked_set_is_shown_to_no_member_before_their_ranked_attempt_is_over(club: Club) -> None:
    """/study's daily challenge on today's set and a table on it are refused (403) to a member whose ranked attempt
    is not over (not made, or still running); once it is over (finished, or its time run out) they open; other
    days are open for practice."""
    assert isinstance(club.clock, Clock)
    # the club's day, whatever day the test runs on: /study's challenges are today's by the club's clock too
    club.clock.now = datetime(2026, 3, 1, 12).timestamp()
    ann, ann_csrf = member(club, "ann")
    bob, bob_csrf = member(club, "bob")
    chosen = club.sets.get(KIND, club.today())

    def study_challenge(web: TestClient, csrf: str, day: str = "") -> Response:
        return web.post("/study/challenge", data={"kind": KIND, "date": day, "csrf": csrf}, follow_redirects=False)

    refused = study_challenge(ann, ann_csrf)
    assert refused.status_code == 403 and "ranked challenge" in refused.json()["error"]
    yesterday = (club.today() - timedelta(days=1)).isoformat()
    assert study_challenge(ann, ann_csrf, yesterday).status_code == 303  # earlier days: practice
    assert ann.post("/api/tables", json={"challenge": KIND}, headers={"x-csrf-token": ann_csrf}).status_code == 403
    got = ann.get(f"/api/challenge?kind={KIND}").json()  # her ranked attempt, still running
    assert study_challenge(ann, ann_csrf).status_code == 403
    ann.post("/api/challenge/finish", json={"attempt": got["attempt"]}, headers={"x-csrf-token": ann_csrf})
    assert study_challenge(ann, ann_csrf).status_code == 303  # over: today's set opens for practice
    # (a table of an hour: bob's attempt runs out while it is still on)
    opened = ann.post("/api/tables", json={"challenge": KIND, "seconds": 3600}, headers={"x-csrf-token": ann_csrf})
    assert opened.status_code == 201
    table = opened.json()["table"]
    joined = bob.post(f"/api/tables/{table}/join", headers={"x-csrf-token": bob_csrf})
    assert joined.status_code == 403 and "ranked challenge" in joined.json()["error"]
    assert bob.get(f"/api/tables/{table}").status_code == 403  # (not seated: nothing of it shown)
    bob.get(f"/api/challenge?kind={KIND}")  # bob's ranked attempt, left running past its time
    club.clock.now += chosen.seconds + 1
    assert bob.post(f"/api/tables/{table}/join", headers={"x-csrf-token": bob_csrf}).status_code == 200


def test_a_used_invite_is_403_and_a_wrong_password_401(club: Club) -> None:
    web = client(club)
    invite = make_invite(club.db, club.clock())
    assert web.post("/api/members", json={"name": "ann", "password": PASSWORD, "invite": invite}).status_code == 201
    again = web.post("/api/members", json={"name": "bob", "password": PASSWORD, "invite": invite})
    assert again.status_code == 403 and "invitation" in again.json()["error"]
    assert web.post("/api/members", json={"name": "bob", "password": PASSWORD, "invite": "nope"}).status_code == 403
    assert web.post("/api/session", json={"name": "ann", "password": "wrong password"}).status_code == 401
    assert web.post("/api/session", json={"name": "ann"}).status_code == 400
    assert web.post("/api/session", content=b"not json").status_code == 400


def app_routes(club: Club) -> list[tuple[str, Route]]:
    """Every HTTP route the club's app serves, as (path, route): its own, and each member's study
    app's under the mount (read from the app itself, so a route added without a check is tried too)."""
    found: list[tuple[str, Route]] = []
    for route in create_app(club).routes:
        if isinstance(route, Route):
            found.append((route.path, route))
        elif isinstance(route, Mount) and isinstance(route.app, StaticFiles):  # (the wall's script, a file of them)
            found.append((route.path + "/wall.js", Route(route.path + "/wall.js", club_app.page, methods=["GET"])))
        elif isinstance(route, Mount):
            assert isinstance(route.app, MemberStudy)
            found += [(route.path + inner.path, inner) for inner in route.app.routes if isinstance(inner, Route)]
    return found


def _requests(club: Club) -> list[tuple[str, str, dict]]:
    """Every member route with a body it could take."""
    found = []
    for path, route in app_routes(club):
        if path in ("/", "/club.js", "/api/members") or (
                path == "/api/session" and "DELETE" not in (route.methods or ())):
            continue
        assert route.methods is not None
        path = path.replace("{name}", "ann").replace("{table}", "1").replace("{ident}", "x1").replace("{attempt}", "1")
        for method in route.methods - {"HEAD"}:
            found.append((method, path, {"attempt": 1, "word": "AB", "password": "another password",
                                         "alphagrams": ["AB"], "kind": "anagram", "key": "AB", "answer": "BA",
                                         "version": 1}))
    return found


def test_every_member_route_is_401_without_a_session(club: Club) -> None:
    member(club, "ann")
    stranger = client(club)
    requests = _requests(club)
    assert len(requests) >= 21 + 27 and any(path.startswith("/study/api/review") for _, path, _ in requests)
    for method, path, payload in requests:
        sent = stranger.request(method, path, json=payload if method != "GET" else None)
        assert sent.status_code == 401, (method, path)
        forged = client(club)
        forged.cookies.set(COOKIE, "made-up-token")
        assert forged.request(method, path, json=payload if method != "GET" else None).status_code == 401


def test_every_write_is_403_without_the_csrf_token_or_with_a_wrong_one(club: Club) -> None:
    admin, csrf = member(club, "root", admin=True)
    member(club, "ann")
    writes = [(method, path, payload) for method, path, payload in _requests(club) if method != "GET"]
    assert len(writes) >= 12 + 17
    for method, path, payload in writes:
        for headers in ({}, {"x-csrf-token": "wrong"}, {"x-csrf-token": ""}):
            sent = admin.request(method, path, json=payload, headers=headers)
            assert sent.status_code == 403 and "CSRF" in sent.json()["error"], (method, path, headers)
    assert admin.get("/api/cards?member=ann").status_code == 403  # (the checks above changed nothing)
    assert admin.post("/api/admin/invites", headers={"x-csrf-token": csrf}).status_code == 201


def test_a_request_a_browser_says_came_from_another_site_is_refused(club: Club) -> None:
    ann, _ = member(club, "ann")
    linked = ann.get(f"/api/challenge?kind={KIND}", headers={"sec-fetch-site": "cross-site"})
    assert linked.status_code == 403
    assert ann.get(f"/api/leaderboard?kind={KIND}").json() == []
    with club.db.transaction() as tx:
        assert tx.conn.execute("SELECT count(*) FROM attempts").fetchone()[0] == 0
    assert ann.get(f"/api/challenge?kind={KIND}", headers={"sec-fetch-site": "same-origin"}).status_code == 200


def test_a_member_never_reaches_another_members_data(club: Club, lex: Lexicon) -> None:
    ann, ann_csrf = member(club, "ann")
    bob, bob_csrf = member(club, "bob")
    attempt = ann.get(f"/api/challenge?kind={KIND}").json()["attempt"]
    word = club.sets.get(KIND, club.today()).answers[club.sets.get(KIND, club.today()).keys[0]][0]
    assert bob.get("/api/cards?member=ann").status_code == 403
    stolen = bob.post("/api/challenge/guess", json={"attempt": attempt, "word": word},
                      headers={"x-csrf-token": bob_csrf})
    assert stolen.status_code == 404
    assert bob.post("/api/challenge/finish", json={"attempt": attempt},
                    headers={"x-csrf-token": bob_csrf}).status_code == 404
    assert bob.post("/api/challenge/guess", json={"attempt": attempt, "word": word},
                    headers={"x-csrf-token": ann_csrf}).status_code == 403  # ann's token is not bob's
    for method, path in (("POST", "/api/admin/invites"), ("POST", "/api/admin/members/ann/password"),
                         ("DELETE", "/api/admin/members/ann"), ("GET", "/api/admin/members")):
        assert bob.request(method, path, json={"password": "bob's choice!"},
                           headers={"x-csrf-token": bob_csrf}).status_code == 403
    play(ann, ann_csrf, club, lex, 1, 10)
    assert bob.get("/api/cards").json() == [] and bob.get("/api/progress").json()["cards"] == []
    assert len(ann.get("/api/cards").json()) > 0


def test_a_login_flood_is_slowed_and_locks_no_member_out(club: Club) -> None:
    ann, _ = member(club, "ann")  # (ann's own browser: it has logged in)
    flood = client(club)
    codes = [flood.post("/api/session", json={"name": "ann", "password": f"guess {n}"}).status_code
             for n in range(FREE_CHECKS_PER_NAME + 3)]
    assert codes == [401] * FREE_CHECKS_PER_NAME + [429] * 3
    refused = flood.post("/api/session", json={"name": "ann", "password": PASSWORD})
    assert refused.status_code == 429 and "try again in 30 seconds" in refused.json()["error"]
    assert ann.post("/api/session", json={"name": "ann", "password": PASSWORD}).status_code == 200
    assert isinstance(club.clock, Clock)
    club.clock.now += FIRST_WAIT
    assert flood.post("/api/session", json={"name": "ann", "password": "guess again"}).status_code == 401
    assert flood.post("/api/session", json={"name": "ann", "password": "and again"}).status_code == 429


def test_the_session_cookie_is_httponly_lax_and_secure_behind_tls(club: Club) -> None:
    member(club, "ann")
    plain = client(club).post("/api/session", json={"name": "ann", "password": PASSWORD}).headers["set-cookie"]
    assert "httponly" in plain.lower() and "samesite=lax" in plain.lower() and "secure" not in plain.lower()
    tls = Club(club.db, club.lex, public_url="https://club.example.org", clock=club.clock)
    cookie = client(tls).post("/api/session", json={"name": "ann", "password": PASSWORD}).headers["set-cookie"]
    assert "secure" in cookie.lower() and "httponly" in cookie.lower()


def test_logging_out_ends_the_session(club: Club) -> None:
    ann, csrf = member(club, "ann")
    assert ann.get("/api/session").json() == {"member": "ann", "csrf": csrf, "admin": False, "lexicon": club.lex.name}
    assert client(club).get("/api/session").json() == {"member": None, "lexicon": club.lex.name}
    assert ann.delete("/api/session", headers={"x-csrf-token": csrf}).status_code == 200
    assert ann.get("/api/cards").status_code == 401


def test_passwords_are_never_stored_or_logged_in_clear(club: Club, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    admin, csrf = member(club, "root", admin=True)
    member(club, "ann")
    admin.post("/api/admin/members/ann/password", json={"password": "second secret"}, headers={"x-csrf-token": csrf})
    client(club).post("/api/session", json={"name": "ann", "password": "a wrong guess"})
    with club.db.transaction() as tx:
        stored = " ".join(str(value) for table in ("members", "invites", "logins", "login_throttle", "devices")
                          for row in tx.conn.execute(f"SELECT * FROM {table}").fetchall() for value in row)
    logged = caplog.text + " ".join(str(record.args) for record in caplog.records)
    for secret in (PASSWORD, "second secret", "a wrong guess"):
        assert secret not in stored and secret not in logged


def test_an_admin_resets_a_password_and_removes_a_member_with_their_export(club: Club, lex: Lexicon) -> None:
    admin, csrf = member(club, "root", admin=True)
    ann, ann_csrf = member(club, "ann")
    play(ann, ann_csrf, club, lex, 2, 10)
    listed = admin.get("/api/admin/members").json()
    assert [(m["member"], m["admin"]) for m in listed] == [("ann", False), ("root", True)]
    assert all(isinstance(m["joined"], float) for m in listed)
    reset = admin.post("/api/admin/members/ann/password", json={"password": "new password"},
                       headers={"x-csrf-token": csrf})
    assert reset.status_code == 200 and ann.get("/api/cards").status_code == 401
    removed = admin.delete("/api/admin/members/ann", headers={"x-csrf-token": csrf})
    assert removed.status_code == 200 and len(removed.json()["cards"]) == len(club.sets.get(KIND, club.today()).keys)
    assert client(club).post("/api/session", json={"name": "ann", "password": "new password"}).status_code == 401
    with club.db.transaction() as tx:
        assert tx.conn.execute("SELECT count(*) FROM owed_reviews").fetchone()[0] == 0
        assert tx.conn.execute("SELECT count(*) FROM attempts").fetchone()[0] == 0
    assert admin.delete("/api/admin/members/ann", headers={"x-csrf-token": csrf}).status_code == 404
    assert [m["member"] for m in admin.get("/api/admin/members").json()] == ["root"]


def test_a_member_changes_their_own_password_and_their_other_sessions_end(club: Club) -> None:
    """Before, only an admin could set a member's password. The current one is verified (wrong: 403, the session
    kept, so the page does not take it for an ended one), the new one keeps the sign-up's rules, and every other
    session of the member ends while the one that changed it stays; the old password logs in no more."""
    ann, csrf = member(club, "ann")
    phone = client(club)
    assert phone.post("/api/session", json={"name": "ann", "password": PASSWORD}).status_code == 200
    bob, _ = member(club, "bob")
    headers = {"x-csrf-token": csrf}
    wrong = ann.post("/api/password", json={"current": "not my password", "password": "a brand new one"},
                     headers=headers)
    assert (wrong.status_code, wrong.json()) == (403, {"error": "the current password is wrong"})
    short = ann.post("/api/password", json={"current": PASSWORD, "password": "short"}, headers=headers)
    assert (short.status_code, short.json()) == (400, {"error": "a password has 8 to 1024 characters"})
    assert phone.get("/api/cards").status_code == 200  # (nothing changed yet)
    changed = ann.post("/api/password", json={"current": PASSWORD, "password": "a brand new one"}, headers=headers)
    assert (changed.status_code, changed.json()) == (200, {"member": "ann", "changed": True})
    assert ann.get("/api/cards").status_code == 200 and ann.get("/api/session").json()["csrf"] == csrf
    assert phone.get("/api/cards").status_code == 401
    assert bob.get("/api/cards").status_code == 200  # (another member's sessions untouched)
    assert client(club).post("/api/session", json={"name": "ann", "password": PASSWORD}).status_code == 401
    assert client(club).post("/api/session", json={"name": "ann", "password": "a brand new one"}).status_code == 200
    with club.db.transaction() as tx:
        stored = tx.conn.execute("SELECT password FROM members WHERE name = 'ann'").fetchone()[0]
    assert stored.startswith("$argon2id$") and "a brand new one" not in stored


def test_guesses_of_the_current_password_are_throttled_per_session(club: Club) -> None:
    """A stolen session guessing the current password gets the login's five checks, then waits (429, even for the
    right one, no password checked); the member's own other session is not delayed by it."""
    thief, csrf = member(club, "ann")
    owner = client(club)
    owner_csrf = owner.post("/api/session", json={"name": "ann", "password": PASSWORD}).json()["csrf"]
    codes = [thief.post("/api/password", json={"current": f"guess {n}", "password": "the thief's own"},
                        headers={"x-csrf-token": csrf}).status_code for n in range(FREE_CHECKS_PER_NAME + 2)]
    assert codes == [403] * FREE_CHECKS_PER_NAME + [429] * 2
    right = thief.post("/api/password", json={"current": PASSWORD, "password": "the thief's own"},
                       headers={"x-csrf-token": csrf})
    assert right.status_code == 429 and "try again in 30 seconds" in right.json()["error"]
    saved = owner.post("/api/password", json={"current": PASSWORD, "password": "mine again, safe"},
                       headers={"x-csrf-token": owner_csrf})
    assert saved.status_code == 200 and thief.get("/api/cards").status_code == 401


def test_a_password_change_is_bounded_before_the_session_is_looked_at(club: Club) -> None:
    ann, csrf = member(club, "ann")
    huge = {"current": "x" * 5000, "password": "y" * 5000}
    for web, headers in ((client(club), {}), (ann, {"x-csrf-token": csrf})):
        refused = web.post("/api/password", json=huge, headers=headers)
        assert refused.status_code == 413, refused.text


def test_club_progress_downloads_as_a_backup_the_local_app_imports(club: Club, lex: Lexicon, tmp_path: Path) -> None:
    ann, csrf = member(club, "ann")
    play(ann, csrf, club, lex, 2, 10)
    backup = tmp_path / "club.json"
    backup.write_text(ann.get("/api/progress").text, encoding="utf-8")
    club_cards = ann.get("/api/cards").json()
    total = len(club.sets.get(KIND, club.today()).keys)
    with ProgressStore() as store:
        imported = import_progress(store, backup)
        assert imported["cards"] == len(club_cards) == total and imported["answers"] == total  # (its reviews)
        assert import_progress(store, backup)["answers"] == 0
        for card in club_cards:
            local = store.find_card(card["lexicon"], card["kind"], card["key"])
            assert local is not None
            assert (local.correct, local.incorrect, local.due, local.stability) == (
                card["correct"], card["incorrect"], card["due"], card["stability"])


def test_a_local_export_uploads_and_merges_once(club: Club, lex: Lexicon, tmp_path: Path) -> None:
    ann, csrf = member(club, "ann")
    play(ann, csrf, club, lex, 1, 10)
    first_key = club.sets.get(KIND, club.today()).keys[0]
    backup = json.loads(ann.get("/api/progress").text)
    newer = dict(next(card for card in backup["cards"] if card["key"] == first_key))
    newer.update(last_review=newer["last_review"] + 86400, correct=7)
    older = {**newer, "key": "ZZZ", "last_review": 1.0}
    upload = {**backup, "cards": [newer, older]}
    with ProgressStore() as store:  # (a file the local app wrote is taken as it is)
        path = tmp_path / "local.json"
        export_progress(store, path)
        assert ann.post("/api/progress", content=path.read_bytes(), headers={"x-csrf-token": csrf}).json()[
            "cards"] == 0
    taken = ann.post("/api/progress", json=upload, headers={"x-csrf-token": csrf}).json()
    assert taken["cards"] == 2 and taken["merged"]["backup_newer"] == 1 and taken["merged"]["added"] == 1
    assert ann.post("/api/progress", json=upload, headers={"x-csrf-token": csrf}).json()["cards"] == 0
    cards = {card["key"]: card for card in ann.get("/api/cards").json()}
    assert cards[first_key]["correct"] == 7 and "ZZZ" in cards
    bad = ann.post("/api/progress", json={**backup, "cards": [{**newer, "due": "tomorrow"}]},
                   headers={"x-csrf-token": csrf})
    assert bad.status_code == 400 and "due" in bad.json()["error"]


def test_a_personal_kind_and_a_bad_date_are_one_line_400s(club: Club) -> None:
    ann, _ = member(club, "ann")
    assert ann.get("/api/challenge?kind=week-toughies").status_code == 400
    assert ann.get("/api/challenge?kind=nonsense").status_code == 400
    bad = ann.get(f"/api/leaderboard?kind={KIND}&date=yesterday")
    assert bad.status_code == 400 and "YYYY-MM-DD" in bad.json()["error"]
    assert date.fromisoformat(ann.get(f"/api/challenge?kind={KIND}").json()["date"]) == club.today()


BAD_BODIES = [b"{not json", b"[1, 2]", b'{"name": "ann\\ud800", "password": "correct horse battery"}',
              b'{"name": NaN}', b'{"name": ' + b"[" * 40 + b"]" * 40 + b"}"]


@pytest.mark.parametrize("bad", BAD_BODIES, ids=["not-json", "not-an-object", "lone-surrogate", "nan", "deep"])
def test_a_bad_body_gets_the_same_one_line_400_from_the_club_and_the_local_app(club: Club, lex: Lexicon,
                                                                               bad: bytes) -> None:
    """One edge (`web.edge`) reads every body: a login with a lone surrogate was a 500 on the club and a 400 in
    the local app; now the club's login, a route of a member's /study and the local app's own say the same."""
    from lexitrain.web.app import create_app as local_app
    from lexitrain.web.context import Context

    ann, csrf = member(club, "ann")
    with ProgressStore() as store, TestClient(local_app(Context(store, lex.name, secret="k", hosts=frozenset(
            {"testserver"}))), headers={"origin": "http://testserver"}) as local:
        assert local.get("/?key=k").status_code == 200
        said = local.post("/api/wall/x/guess", content=bad)
    assert said.status_code == 400 and said.headers["content-type"] == "application/json"
    for web, path, headers in ((client(club), "/api/session", {}),
                               (ann, "/study/api/wall/x/guess", {"x-csrf-token": csrf})):
        answer = web.post(path, content=bad, headers=headers)
        assert (answer.status_code, answer.json()) == (400, said.json()), path
