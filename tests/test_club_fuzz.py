"""Every route the club's app lists (read from the app, its members' /study included: a route added later is
tried too), asked as nobody, as another member and with hostile bodies, paths and queries, on SQLite and on
a real PostgreSQL (a member's own password change among them: reached, and ann's never changed): never a 5xx,
never a traceback in the log, every refusal one line. Before, 128 of some 12,000 such requests were 500s with
tracebacks ({"alphagrams": ["A1"]}, ids over 2^63 on SQLite, deeply nested JSON even at the login, lone
surrogates, a NUL on PostgreSQL). And a body past its route's bound is refused as it streams, before
authentication too, without the server's memory growing with it."""

from __future__ import annotations

import json
import logging
import os
import signal
import socket as sockets
import subprocess
import sys
import time
import tracemalloc
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from starlette.routing import Mount, Route, WebSocketRoute

from lexitrain.club import members
from lexitrain.club.app import Club, create_app
from lexitrain.club.store import ClubDatabase
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.web.edge import parsed_size
from test_club_api import KIND, PASSWORD
from test_club_tables import KEYS, lex  # noqa: F401  (a fixture)
from web_helpers import Clock

pytestmark = pytest.mark.timeout(900)

#: Values of the wrong type, size or spelling for any field a route reads.
HOSTILE_VALUES: list[Any] = [None, True, 0, -1, 2 ** 63, -(2 ** 70), 1.5, 1e300, "", "x" * 5000, "A1", "\x00",
                             "AB\x00C", "\u202e", "ÅÉ", [], ["A1"], [1, None], {}, {"a": 1}, [[["deep"]]]]
#: Every field name a club or /study route reads from a JSON body (a field a route reads that is not here is
#: still sent the generic body's own value; these get every hostile value in turn).
FIELDS = ["name", "password", "current", "invite", "attempt", "word", "alphagrams", "challenge", "toughies", "practice",
          "kind", "key", "answer", "reviewed", "rating", "words", "guess", "given", "play", "token", "correct",
          "seconds", "source", "lexicon", "count", "order", "deck", "csrf", "cards", "answers", "settings"]
#: Whole bodies no route can read.
HOSTILE_BODIES: list[bytes] = [
    b"", b"not json", b"[1, 2]", b'"text"', b"null", b"{", b"NaN", b'{"a": NaN}', b'{"a": Infinity}',
    b"[" * 100_000 + b"]" * 100_000, b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
    b'{"name": "\\ud800", "word": "\\udfff", "password": "\\ud83d"}', b'{"\\ud800": 1}',
    b'{"word": "\\u0000", "name": "a\\u0000b", "alphagrams": ["\\u0000"]}', "{\"word\": \"é\"}".encode("latin-1"),
    b"\xff\xfe\x00\x00", b'{"attempt": 99999999999999999999999999, "word": "AB"}',
    b'{"attempt": 1e999, "word": "AB"}', b'{"alphagrams": ["A1", "??", "' + b"Z" * 3000 + b'"]}',
]
#: Game files (.gcg) no route can read, or only in part, as a form of files sends them: binary, NULs, a move line
#: that is none, numbers past any score, a name of control characters and a path; sent together, and many at once.
HOSTILE_GAMES: list[tuple[str, bytes]] = [
    ("x.gcg", b"\xff\xfe\x00garbage\n" * 50), ("\x00../../etc/passwd\x1b[31m", b"#player1 a A\n>a: ZZZ 8D ZZZ +1 1\n"),
    ("big.gcg", b"#player1 a A\n#player2 b B\n>a: AEINRST 8D RETAINS +" + b"9" * 40 + b" 1\n"),
    ("off.gcg", b"#player1 a A\n#player2 b B\n>a: AEINRST Z99 RETAINS +66 66\n>b: ?????? 8D ABC +3 3\n"),
    ("empty.gcg", b""), ("lex.gcg", b"#lexicon \xed\xa0\x80\n#player1 a A\n>a: AB 8H AB +4 4\n")]

#: The new password the generic body asks for (a member's own change: bob's and the admin's, as it is theirs).
CHANGED = "x" * 12
#: Path parameters, and query values, of the wrong spelling.
HOSTILE_PATH = ["0", "-1", str(2 ** 63), str(2 ** 64), "1e3", "abc", "%00", "x" * 300, "%ED%A0%80", "..%2F..", " "]
QUERY_NAMES = ["kind", "date", "limit", "member", "retakes", "after", "key", "q", "lexicon", "length", "page"]


@pytest.fixture
def club(club_target: str, lex: Lexicon) -> Iterator[Club]:
    with ClubDatabase(club_target) as db:
        yield Club(db, lex, clock=Clock())


@pytest.fixture
def running() -> Iterator[list[TestClient]]:
    """The clients started (each app's lifespan run, its event loop on one thread throughout, as a server's is), ended
    after the test."""
    started: list[TestClient] = []
    yield started
    for web in started:
        web.__exit__(None, None, None)


def asker(club: Club, running: list[TestClient], name: str | None = None,
          admin: bool = False) -> tuple[TestClient, str]:
    """A running client of the club's app whose server errors are answered, not raised (what a member's browser
    sees), logged in as NAME (a new member), or nobody; its CSRF token."""
    web = TestClient(create_app(club), raise_server_exceptions=False)
    web.__enter__()
    running.append(web)
    if name is None:
        return web, ""
    invite = members.make_invite(club.db, club.clock())
    assert web.post("/api/members", json={"name": name, "password": PASSWORD, "invite": invite}).status_code == 201
    if admin:
        members.make_admin(club.db, name)
    login = web.post("/api/session", json={"name": name, "password": PASSWORD})
    assert login.status_code == 200
    return web, str(login.json()["csrf"])


def logged_in(web: TestClient, name: str) -> str:
    """NAME's CSRF token on WEB, logging in again (with the first password or the one the fuzz changed it to) if a
    route asked before ended the session."""
    session = web.get("/api/session")
    assert session.status_code == 200, session.text
    if session.json()["member"] == name:
        return str(session.json()["csrf"])
    for password in (PASSWORD, CHANGED):
        login = web.post("/api/session", json={"name": name, "password": password})
        if login.status_code == 200:
            return str(login.json()["csrf"])
    raise AssertionError(f"{name} cannot log in again")


def every_route(club: Club) -> list[tuple[str, Any]]:
    """(path, route) of every route of the club's app, mounted apps' routes under their mount's path."""
    found: list[tuple[str, Any]] = []

    def walk(prefix: str, routes: list[Any]) -> None:
        for route in routes:
            if isinstance(route, (Route, WebSocketRoute)):
                found.append((prefix + route.path, route))
            elif isinstance(route, Mount):
                inner = getattr(route.app, "routes", None)
                if inner is None:  # (static files)
                    found.append((prefix + route.path + "/x", route))
                else:
                    walk(prefix + route.path, list(inner))

    walk("", list(create_app(club).routes))
    return found


class Tally:
    """What was asked and answered: requests, routes, and every 5xx or traceback, named."""

    def __init__(self) -> None:
        self.requests = 0
        self.routes: set[str] = set()
        self.failures: list[str] = []

    def check(self, what: str, answer: Any) -> None:
        self.requests += 1
        text = answer.text
        if answer.status_code >= 500 or "Traceback" in text or 'File "' in text:
            self.failures.append(f"{what}: {answer.status_code} {text[:200]!r}")
        elif answer.status_code >= 400 and answer.headers.get("content-type", "").startswith("application/json"):
            error = answer.json().get("error", "")
            if not isinstance(error, str) or "\n" in error:
                self.failures.append(f"{what}: not one line: {error!r}")


def spelled(path: str, values: dict[str, str]) -> str:
    for name, value in values.items():
        path = path.replace("{" + name + "}", value)
    return path


def test_every_route_as_nobody_as_another_member_and_with_hostile_input(club: Club, running: list[TestClient],
                                                                         caplog: pytest.LogCaptureFixture,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    caplog.set_level(logging.WARNING)
    ann, ann_csrf = asker(club, running, "ann")
    bob, bob_csrf = asker(club, running, "bob")
    admin, admin_csrf = asker(club, running, "root", admin=True)
    nobody, _ = asker(club, running)
    asker(club, running, "carl")  # (whom the admin's routes name: reset, then removed)
    # ann's own things for the others to reach for: an attempt, a table, a wall of her study
    attempt = ann.get(f"/api/challenge?kind={KIND}").json()["attempt"]
    table = ann.post("/api/tables", json={"alphagrams": KEYS}, headers={"x-csrf-token": ann_csrf}).json()["table"]
    tally = Tally()
    mine = {"name": "carl", "table": str(table), "attempt": str(attempt), "ident": "x1", "path": "club.js"}
    routes = every_route(club)
    assert len(routes) >= 21 + 27
    for path, route in routes:
        if isinstance(route, WebSocketRoute):
            continue  # (tests/test_club_live.py: the socket's refusals)
        # logged in again where a route before ended the session (logging out, a password change): before, every
        # route after DELETE /api/session was asked as nobody where it meant another member
        bob_csrf, admin_csrf = logged_in(bob, "bob"), logged_in(admin, "root")
        methods = sorted((getattr(route, "methods", None) or {"GET"}) - {"HEAD"})
        tally.routes.add(path)
        for method in methods:
            url = spelled(path, mine)
            generic = {"attempt": attempt, "word": "AB", "name": "ann", "password": CHANGED, "current": PASSWORD,
                       "alphagrams": KEYS,
                       "kind": "anagram", "key": "AB", "answer": "BA", "reviewed": None, "invite": "nope"}
            askers = [(nobody, ""), (bob, bob_csrf), (admin, admin_csrf)]
            for web, csrf in askers:  # as nobody, as another member, as an admin (ann's things, not theirs)
                headers = {"x-csrf-token": csrf} if csrf else {}
                body = None if method == "GET" else generic
                tally.check(f"{method} {url} as {'someone' if csrf else 'nobody'}",
                            web.request(method, url, json=body, headers=headers))
            for value in HOSTILE_PATH:  # the path's own parameters misspelled (by an admin too: the admin's routes)
                if "{" in path:
                    bad = spelled(path, {name: value for name in ("name", "table", "attempt", "ident", "path")})
                    for web, csrf in ((bob, bob_csrf), (admin, admin_csrf)):
                        tally.check(f"{method} {bad}", web.request(method, bad, json=None if method == "GET" else
                                                                   {**generic, "password": "long enough"},
                                                                   headers={"x-csrf-token": csrf}))
            if method == "GET":
                for name in QUERY_NAMES:
                    for value in ["", "x" * 3000, "%00", "-1", str(2 ** 64), "2026-02-30", "%ED%A0%80", "sevens"]:
                        tally.check(f"GET {url}?{name}={value[:20]}",
                                    bob.get(f"{url}?{name}={value}", headers={"accept": "application/json"}))
                continue
            for raw in HOSTILE_BODIES:  # bodies no route can read, as a member and (before any door) as nobody
                for web, csrf in ((bob, bob_csrf), (nobody, "")):
                    tally.check(f"{method} {url} body {raw[:30]!r}",
                                web.request(method, url, content=raw,
                                            headers={"content-type": "application/json", "x-csrf-token": csrf}))
            # every field of the wrong type, size or spelling: each hostile value in every field at once, then
            # each field alone with values in turn (every field meets several)
            bodies = [dict.fromkeys(FIELDS, value) for value in HOSTILE_VALUES]
            bodies += [{**generic, field: HOSTILE_VALUES[(index * 7 + turn) % len(HOSTILE_VALUES)]}
                       for index, field in enumerate(FIELDS) for turn in range(3)]
            for body in bodies:
                tally.check(f"{method} {url} {str(body)[:60]}",
                            bob.request(method, url, content=json.dumps(body).encode(),
                                        headers={"content-type": "application/json", "x-csrf-token": bob_csrf}))
            for form in ({"csrf": bob_csrf, "name": "\x00", "words": "A1\n" * 50},
                         {"csrf": bob_csrf, "kind": ["a", "b"], "count": "-5", "source": "../../etc/passwd"}):
                tally.check(f"{method} {url} form", bob.request(method, url, data=form))
            tally.check(f"{method} {url} upload", bob.request(method, url, data={"csrf": bob_csrf, "name": "x"},
                                                              files={"file": ("x.txt", b"\xff\xfe\x00garbage\n" * 100)}))
            games = [("games", (name, data, "application/octet-stream")) for name, data in HOSTILE_GAMES]
            for fields, sent in (({"player": "\x00", "read_rack": "1"}, games), ({"points": "0", "read_rack": "1"}, games),
                                 ({"points": "-1"}, games[:1]),
                                 ({"player": "a", "points": "9" * 30}, games[2:4]), ({}, games[:1] * 60)):
                tally.check(f"{method} {url} games {str(fields)[:40]}",
                            bob.request(method, url, data={"csrf": bob_csrf, **fields}, files=sent))
    logged = [f"{record.name}: {record.getMessage()[:200]}" for record in caplog.records
              if record.levelno >= logging.ERROR or record.exc_info]
    with capsys.disabled():
        print(f"\nfuzz ({club.db.dialect}): {tally.requests} requests over {len(tally.routes)} routes, "
              f"{len(tally.failures)} 5xx or tracebacks, {len(logged)} errors logged")
    assert tally.failures == [] and logged == [], "\n".join(tally.failures[:20] + logged[:20])
    assert tally.requests > 4000
    # a member's own password change was reached (bob's and the admin's own), never ann's
    assert "/api/password" in tally.routes
    assert isinstance(club.clock, Clock)
    club.clock.now += members.FORGET_AFTER  # (the fuzz's wrong logins of ann's name forgotten)
    for name, password in (("bob", CHANGED), ("root", CHANGED), ("ann", PASSWORD)):
        assert members.log_in(club.db, name, password, "10.9.9.9", club.clock()).member.name == name


def vm_peak(pid: int) -> int:
    """The process's peak resident memory (VmHWM), in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmHWM")


def stream(port: int, path: str, megabytes: int, headers: str = "") -> tuple[bytes, int]:
    """A chunked body of MEGABYTES sent as fast as the server takes it: what the server answered, and how many
    megabytes it took before it closed the connection."""
    chunk = b"[" * (1 << 20)
    sent = 0
    with sockets.create_connection(("127.0.0.1", port), timeout=60) as conn:
        conn.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n{headers}"
                     "Transfer-Encoding: chunked\r\n\r\n".encode())
        try:
            for sent in range(megabytes):
                conn.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            conn.sendall(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass  # (refused as it streamed: the server closed the connection)
        try:
            return conn.recv(4096), sent
        except ConnectionResetError:
            return b"", sent


@contextmanager
def serving(tmp_path: Path, lex: Lexicon) -> Iterator[tuple[int, str, str, int]]:
    """A real `lexitrain serve` on SQLite with member ann logged in: its port, ann's cookie and CSRF token, its pid."""
    database = tmp_path / "club.sqlite"
    with ClubDatabase(str(database)) as db:
        members.sign_up(db, "ann", "correct horse battery", members.make_invite(db, 1.0), 1.0)
    process = subprocess.Popen([sys.executable, "-m", "lexitrain", "serve", "--database", str(database), "--lexicon",
                                lex.name, "--port", "0"], text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               start_new_session=True, env={**os.environ})
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert "lexitrain serve: http://" in line, process.stderr.read() if process.stderr else line
        port = int(line.split()[2].rstrip("/").rsplit(":", 1)[1])
        import httpx

        with httpx.Client(base_url=f"http://127.0.0.1:{port}") as web:
            login = web.post("/api/session", json={"name": "ann", "password": "correct horse battery"})
            assert login.status_code == 200
            cookie = "; ".join(f"{k}={v}" for k, v in web.cookies.items())
        yield port, cookie, str(login.json()["csrf"]), process.pid
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)


def test_a_huge_chunked_body_is_refused_as_it_streams_in_bounded_memory(tmp_path: Path, lex: Lexicon) -> None:
    """1 GB to the login (before any authentication) and 256 MB to a member's largest route, streamed to a real
    `lexitrain serve`: each refused (413) once past its route's bound, the connection closed then (before, the
    server read on and threw away 500 MB of the 1 GB, its event loop busy parsing it), and the server's peak
    memory grows by far less than what was sent."""
    with serving(tmp_path, lex) as (port, cookie, csrf, pid):
        before = vm_peak(pid)
        began = time.perf_counter()
        answer, taken = stream(port, "/api/session", 1024)
        assert b" 413 " in answer and taken < 64, (answer[:100], taken)
        answer, taken = stream(port, "/api/progress", 256, f"Cookie: {cookie}\r\nX-CSRF-Token: {csrf}\r\n")
        assert b" 413 " in answer and 64 <= taken < 64 + 64, (answer[:100], taken)
        grown = vm_peak(pid) - before
        assert grown < 100 << 20, f"the server's peak memory grew by {grown >> 20} MB"
        assert time.perf_counter() - began < 60


#: What a body of many tiny elements may add to the server's peak memory: the body itself (held, and joined
#: from its chunks), and nothing of what parsing it would build.
ELEMENTS_BODY_MB = 48
ELEMENTS_GROWTH_MB = 160


def test_a_body_of_many_tiny_elements_is_refused_before_it_is_parsed(tmp_path: Path, lex: Lexicon) -> None:
    """48 MB of `[{},{},...]` to the member's progress upload (under its 64 MB bound) would parse to some 16 million
    dicts, over 1 GB: refused (413, one line) before it is parsed, the server's peak memory growing by less than
    ELEMENTS_GROWTH_MB; and the same body small enough to parse is read (refused for what it says, 400)."""
    with serving(tmp_path, lex) as (port, cookie, csrf, pid):
        import httpx

        body = b"[" + b"{}," * (ELEMENTS_BODY_MB * (1 << 20) // 3) + b"{}]"
        before = vm_peak(pid)
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=120) as web:
            headers = {"cookie": cookie, "x-csrf-token": csrf, "content-type": "application/json"}
            refused = web.post("/api/progress", content=body, headers=headers)
            grown = vm_peak(pid) - before
            small = web.post("/api/progress", content=b"[" + b"{}," * 1000 + b"{}]", headers=headers)
        assert refused.status_code == 413, refused.text[:200]
        assert refused.json() == {"error": "the request's body would take more than 128 MB of memory to read "
                                           "(too many elements for its size)"}
        assert grown < ELEMENTS_GROWTH_MB << 20, f"the server's peak memory grew by {grown >> 20} MB"
        assert small.status_code == 400 and small.json() == {"error": "the body must be a JSON object"}


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=8), inner, max_size=6),
    max_leaves=30)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(JSON_VALUES, st.integers(min_value=20, max_value=300))
def test_parsed_size_is_never_less_than_what_parsing_takes(value: Any, copies: int) -> None:
    """The edge's reckoning of a body's parsed memory (what it refuses by) is an upper bound of what json.loads
    really allocates at its peak (tracemalloc; the least of two parses, 16 KB allowed for what any parse and
    the tracer allocate whatever the body: another thread's allocations are traced too), whatever the values:
    a body is never let through on an under-count."""
    raw = json.dumps([value] * copies, ensure_ascii=copies % 2 == 0).encode()
    peaks = []
    for _ in range(2):
        tracemalloc.start()
        try:
            parsed = json.loads(raw)
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
        del parsed
    assert parsed_size(raw) + (16 << 10) >= min(peaks)
