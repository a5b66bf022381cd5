"""The web app's defences, tried as a hostile local user or page would: the key off every command line,
a foreign Host refused even with the cookie, bodies capped before they are read, malformed JSON of any
kind a 400, slow connections closed; every answer naming its question (a second submit is a 409); and
no request waiting on another's slow work."""

from __future__ import annotations

import json
import os
import re
import socket
import stat
import subprocess
import sys
import threading
import time
import urllib.request
import warnings
from collections.abc import Iterator
from http.cookiejar import CookieJar
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from lexitrain.study.store import ProgressStore
from lexitrain.web import server as web_server
from lexitrain.web.app import create_app
from lexitrain.web.context import Context
from lexitrain.web.offload import COUNT_NICENESS
from web_helpers import NAME, Clock, make_web_lexicon

SECRET = "s3cret"
SAME_ORIGIN = {"origin": "http://testserver"}


@pytest.fixture
def app_ctx(tmp_path) -> Iterator[Context]:
    make_web_lexicon(tmp_path)
    with ProgressStore() as store:
        yield Context(store, NAME, clock=Clock(), secret=SECRET, hosts=frozenset({"testserver"}))


@pytest.fixture
def client(app_ctx) -> Iterator[TestClient]:
    with TestClient(create_app(app_ctx), headers=SAME_ORIGIN) as client:
        assert client.get(f"/?key={SECRET}").status_code == 200
        yield client


@pytest.fixture
def live(app_ctx) -> Iterator[tuple[str, Context]]:
    """The app served on a socket of its own by `server.serve` (its timeouts and caps), HEAD_SECONDS short."""
    sock = web_server.listen("127.0.0.1", 0)
    app_ctx.hosts = web_server.hosts(sock, "127.0.0.1")
    started = threading.Event()
    thread = threading.Thread(target=web_server.serve, args=(app_ctx, sock, started.set), daemon=True)
    old = web_server.HEAD_SECONDS
    web_server.HEAD_SECONDS = 0.5
    thread.start()
    assert started.wait(20)
    yield f"127.0.0.1:{sock.getsockname()[1]}", app_ctx
    web_server.HEAD_SECONDS = old


def raw(address: str, request: bytes, wait: float = 5.0) -> bytes:
    """Send REQUEST as it is and read one answer back (its head and its Content-Length of body)."""
    host, port = address.split(":")
    with socket.create_connection((host, int(port)), timeout=wait) as conn:
        conn.sendall(request)
        data = b""
        while b"\r\n\r\n" not in data and (chunk := conn.recv(65536)):
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        length = int(re.search(rb"content-length: (\d+)", head.lower()).group(1))  # type: ignore[union-attr]
        while len(body) < length and (chunk := conn.recv(65536)):
            body += chunk
    return head + b"\r\n\r\n" + body


def error_of(response) -> tuple[int, str]:
    return response.status_code, response.json()["error"]


# -- the key --------------------------------------------------------------------------------


def test_no_command_line_carries_the_key_when_a_browser_script_opens_the_app(tmp_path, enable):
    """BROWSER names a script (as a desktop does): it is handed the launch file, never the link with the key."""
    seen, pid = tmp_path / "browser-args", tmp_path / "browser-pid"
    script = tmp_path / "browser.sh"
    script.write_text(f'#!/bin/sh\necho $$ > {pid}\necho "$@" > {seen}\nexec sleep 30\n', encoding="utf-8")
    script.chmod(0o700)
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "BROWSER": f"{script} %s &"}
    server = subprocess.Popen([sys.executable, "-m", "lexitrain", "web", "--port", "0"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        launch = Path(re.search(r"opening (\S+\.html)", line).group(1))  # type: ignore[union-attr]
        deadline = time.monotonic() + 20
        while not seen.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert seen.read_text().strip() == launch.as_uri()
        assert stat.S_IMODE(launch.stat().st_mode) == 0o600 and launch.parent == Path(os.environ["LEXITRAIN_HOME"])
        link = re.search(r'url=(http://127\.0\.0\.1:\d+/\?key=([\w-]+))"', launch.read_text()).groups()
        key = link[1]
        commands = subprocess.run(["ps", "-eww", "-o", "args"], capture_output=True, text=True, check=True).stdout
        assert "lexitrain web" in commands and key not in commands  # no command line has the key
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
        with opener.open(link[0], timeout=60) as page:  # the launch file's link lets the player in
            assert page.status == 200 and "Study enable" in page.read().decode()
    finally:
        server.terminate()
        server.wait(timeout=60)
        if pid.exists():  # the stand-in browser (now `sleep`) started by this test
            os.kill(int(pid.read_text()), 15)
    assert not launch.exists()  # removed as the app stops


def test_a_foreign_host_is_refused_even_with_the_cookie(client):
    assert client.get("/").status_code == 200
    status, message = error_of(client.get("/", headers={"host": "evil.example:8765"}))
    assert status == 403 and "address" in message
    status, _ = error_of(client.post("/api/review", headers={"host": "evil.example"}))
    assert status == 403


# -- bodies and connections -------------------------------------------------------------------


def test_a_2mb_body_is_refused_before_it_is_read(live):
    address, _ = live
    head = (f"POST /api/review HTTP/1.1\r\nHost: {address}\r\nCookie: lexitrain_key={SECRET}\r\n"
            f"Origin: http://{address}\r\nContent-Type: application/json\r\nContent-Length: {2 * 1024 * 1024}\r\n\r\n")
    began = time.monotonic()
    answer = raw(address, head.encode())  # not a byte of the body is sent: the answer comes anyway
    assert answer.startswith(b"HTTP/1.1 413") and b"larger than 1 MB" in answer
    assert time.monotonic() - began < 3


def test_a_body_without_a_length_is_cut_off_past_the_cap(client):
    def chunks() -> Iterator[bytes]:
        for _ in range(40):
            yield b" " * 65536

    status, message = error_of(client.post("/api/review/x/answer", content=chunks(), headers={"content-type": "application/json"}))
    assert status == 413 and "larger than" in message


def test_an_idle_or_slow_connection_is_closed(live):
    address, _ = live
    host, port = address.split(":")
    with socket.create_connection((host, int(port)), timeout=5) as conn:
        conn.sendall(b"GET / HTTP/1.1\r\nHost: ")  # a head that never ends
        began = time.monotonic()
        assert conn.recv(100) == b""  # closed by the server
        assert time.monotonic() - began < 3
    with socket.create_connection((host, int(port)), timeout=5) as conn:  # and one that sends nothing
        assert conn.recv(100) == b""


@pytest.mark.parametrize("body", [
    b'{"word": "\\ud800"}',  # a lone surrogate
    b'{"word": "\\udfff", "round": "x"}',
    b'{"\\ud83d": 1}',  # in a key
    b'{"word": NaN}',
    b'{"word": Infinity}',
    b"[" * 100_000,
    b'{"word": 1' + b"0" * 5000 + b"}",  # an integer too long to read
    b"\xff\xfe{}",
    b'{"word": "A"} trailing',
])
def test_malformed_json_of_any_kind_is_a_400(client, body):
    ident = client.post("/wall", data={"source": "search", "value": "--length 7"},
                        follow_redirects=False).headers["location"].rsplit("/", 1)[1]
    response = client.post(f"/api/wall/{ident}/guess", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400 and "\n" not in response.text, response.text


# -- every answer names its question ----------------------------------------------------------


def test_an_answer_sent_twice_is_recorded_once_and_the_second_is_a_409(client, app_ctx):
    first = client.post("/api/review").json()
    body = {"text": "ZZZ", "question": first["question"]["id"], "token": first["question"]["token"]}
    assert client.post(f"/api/review/{first['id']}/answer", json=body).status_code == 200
    again = client.post(f"/api/review/{first['id']}/answer", json=body)  # Enter pressed twice
    assert again.status_code == 409 and "answered already" in again.json()["error"]
    grade = client.post(f"/api/review/{first['id']}/grade", json={**body, "rating": 3})  # a held grade key
    assert grade.status_code == 409
    assert app_ctx.store.conn.execute("SELECT count(*) FROM answers").fetchone()[0] == 1
    forged = client.post(f"/api/review/{first['id']}/answer", json={"text": "ZZZ", "question": "x", "token": "y"})
    assert forged.status_code == 409


def test_a_wall_request_for_a_round_no_longer_on_show_is_a_409(client):
    ident = client.post("/wall", data={"source": "search", "value": "--length 2-3", "size": "5", "minutes": "0"},
                        follow_redirects=False).headers["location"].rsplit("/", 1)[1]
    token = client.get(f"/api/wall/{ident}").json()["round"]["token"]
    assert client.post(f"/api/wall/{ident}/give-up", json={"round": token}).status_code == 200
    assert client.post(f"/api/wall/{ident}/next", json={"round": token}).json()["round"]["number"] == 2
    second = client.post(f"/api/wall/{ident}/next", json={"round": token})  # "next round" clicked twice
    assert second.status_code == 409
    late = client.post(f"/api/wall/{ident}/guess", json={"word": "AA", "round": token})  # typed in round 1
    assert late.status_code == 409
    assert client.get(f"/api/wall/{ident}").json()["round"]["number"] == 2


# -- nothing waits on another request -----------------------------------------------------------


def test_a_guess_is_answered_while_a_stats_page_is_held_up(live, monkeypatch):
    """A stats page stopped mid-way (a barrier in its count) holds up neither a guess nor another page."""
    address, ctx = live
    inside, release = threading.Event(), threading.Event()
    real = Context.stats

    def slow(self: Context, lexicon: str | None = None):  # type: ignore[no-untyped-def]
        inside.set()
        assert release.wait(20)
        return real(self, lexicon)

    monkeypatch.setattr(Context, "stats", slow)
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
    base = f"http://{address}"
    opener.open(f"{base}/?key={SECRET}", timeout=10).read()

    def post(path: str, data: dict) -> dict:
        request = urllib.request.Request(base + path, json.dumps(data).encode(), method="POST",
                                         headers={"content-type": "application/json", "origin": base})
        with opener.open(request, timeout=10) as answer:
            return json.loads(answer.read())

    held = threading.Thread(target=lambda: opener.open(f"{base}/stats", timeout=30).read(), daemon=True)
    held.start()
    assert inside.wait(10)
    try:
        request = urllib.request.Request(f"{base}/wall", b"source=search&value=--length+7", method="POST",
                                         headers={"origin": base})
        with opener.open(request, timeout=10) as page:
            ident = page.url.rsplit("/", 1)[1]
        token = json.loads(opener.open(f"{base}/api/wall/{ident}", timeout=10).read())["round"]["token"]
        began = time.monotonic()
        verdict = post(f"/api/wall/{ident}/guess", {"word": "SALTIER", "round": token})["guess"]["verdict"]
        assert verdict == "correct" and time.monotonic() - began < 2
        assert held.is_alive()  # the stats page is still waiting at the barrier
    finally:
        release.set()
    held.join(20)


@pytest.mark.parametrize("step", ["sealed_key", "key_opens"])
def test_the_host_keys_scrypt_holds_up_no_other_request(live, monkeypatch, step):
    """Sealing the host's key as the judge starts, and checking a key typed to stop it (scrypt, some 50 ms of
    CPU each), run off the event loop: held at a barrier there, neither holds up another page (before, the
    whole app stood still for every key tried)."""
    from lexitrain.web import judge

    address, _ctx = live
    base = f"http://{address}"
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
    opener.open(f"{base}/?key={SECRET}", timeout=10).read()
    key = "host-key-42"

    def post(path: str, form: str) -> None:
        opener.open(urllib.request.Request(base + path, form.encode(), method="POST", headers={"origin": base}),
                    timeout=30).read()

    if step == "key_opens":  # (the judge is on, to be stopped)
        post("/judge", f"key={key}&again={key}")
    inside, release = threading.Event(), threading.Event()
    real = getattr(judge, step)

    def held(*args):  # type: ignore[no-untyped-def]
        inside.set()
        assert release.wait(20)
        return real(*args)

    monkeypatch.setattr(judge, step, held)
    path, form = ("/judge", f"key={key}&again={key}") if step == "sealed_key" else ("/judge/stop", f"key={key}")
    asked = threading.Thread(target=post, args=(path, form), daemon=True)
    asked.start()
    assert inside.wait(10)
    try:
        began = time.monotonic()
        page = opener.open(f"{base}/judge", timeout=5).read().decode()
        assert "Judge" in page and time.monotonic() - began < 2
        assert asked.is_alive()  # the key is still at the barrier
    finally:
        release.set()
    asked.join(20)
    judged_on = opener.open(f"{base}/judge", timeout=5).read().decode()
    assert ("/judge/stop" in judged_on) == (step == "sealed_key")  # started, or stopped, once let go


# -- the word-file box ---------------------------------------------------------------------------


@pytest.mark.parametrize("what", ["device", "directory", "binary", "someone else's text", "too large"])
def test_the_word_file_box_refuses_what_is_no_word_file_and_quotes_nothing_of_it(client, tmp_path, what):
    secret_line = "root:x:0:0:SECRETVALUE:/root:/bin/bash"
    paths = {"device": "/dev/zero", "directory": str(tmp_path)}
    if what == "binary":
        (tmp_path / "data.bin").write_bytes(b"SECRETVALUE\x00\x01\x02" * 10)
        paths[what] = str(tmp_path / "data.bin")
    elif what == "someone else's text":
        (tmp_path / "passwd").write_text(f"{secret_line}\ndaemon:x:1:1:SECRETVALUE\n", encoding="utf-8")
        paths[what] = str(tmp_path / "passwd")
    elif what == "too large":
        (tmp_path / "big.txt").write_text("SECRETVALUE\n" * 100_000, encoding="utf-8")
        paths[what] = str(tmp_path / "big.txt")
    began = time.monotonic()
    page = client.post("/wall", data={"source": "file", "value": paths[what]}, headers={"accept": "text/html"})
    assert page.status_code == 400 and time.monotonic() - began < 5  # /dev/zero is not read without end
    assert "SECRETVALUE" not in page.text and "root" not in page.text.lower().replace(str(tmp_path).lower(), "")
    reason = {"device": "not a regular file", "directory": "not a regular file", "binary": "not a text file",
              "someone else's text": "no wall can be made of it", "too large": "larger than 1024 KB"}[what]
    assert reason in page.text, page.text


def test_the_sheet_process_ends_with_the_app_even_one_killed_outright(tmp_path, enable):
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    server = subprocess.Popen([sys.executable, "-m", "lexitrain", "web", "--port", "0", "--no-browser"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    worker = None
    try:
        assert server.stdout is not None
        link = re.search(r"http://(127\.0\.0\.1:\d+)/\?key=(\S+)", server.stdout.readline())
        assert link
        address, key = link.groups()

        def ask_sheet() -> None:  # the twos to eights: some 40 s of PDF, still being made when the app dies
            request = urllib.request.Request(f"http://{address}/sheet.pdf?length=2-8",
                                             headers={"cookie": f"lexitrain_key={key}"})
            try:
                urllib.request.urlopen(request, timeout=120).read()
            except OSError:
                pass

        threading.Thread(target=ask_sheet, daemon=True).start()
        deadline = time.monotonic() + 60
        while worker is None and time.monotonic() < deadline:
            children = subprocess.run(["ps", "-ww", "-o", "pid=,args=", "--ppid", str(server.pid)], capture_output=True,
                                      text=True).stdout.splitlines()
            worker = next((int(line.split()[0]) for line in children if "spawn_main" in line), None)
            time.sleep(0.2)
        assert worker is not None, "no sheet process started"
    finally:
        server.kill()  # SIGKILL: no chance to stop anything itself
        server.wait(timeout=30)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and subprocess.run(["ps", "-p", str(worker)], capture_output=True).returncode == 0:
        time.sleep(0.2)
    alive = subprocess.run(["ps", "-o", "stat=", "-p", str(worker)], capture_output=True, text=True).stdout.strip()
    assert alive in ("", "Z"), alive  # gone (or a zombie waiting to be reaped)


def test_a_count_of_the_stats_that_ends_at_once_hangs_nothing(app_ctx):
    """A count done before its callback is added (a small store, a fast machine) runs the callback at once,
    in the thread holding the statistics' lock: that must not hang the page (nor every later one)."""
    from concurrent.futures import Future

    class AtOnce:  # an executor whose work is done before `submit` returns
        def submit(self, work, *args):  # type: ignore[no-untyped-def]
            future: Future = Future()
            future.set_result(work(*args))
            return future

        def shutdown(self, wait: bool = True) -> None:
            pass

    app_ctx._stats_counter = AtOnce()  # type: ignore[assignment]
    done = threading.Event()
    threading.Thread(target=lambda: (app_ctx.stats(), app_ctx.stats(), done.set()), daemon=True).start()
    assert done.wait(30), "the statistics hung"


def test_a_launch_counts_the_stats_ahead_and_the_first_page_takes_that_count(app_ctx, monkeypatch):
    """`lexitrain web` starts the count as it listens (`count_stats_ahead`, which returns while the count is
    held up here): the first Stats page then takes that count, not one of its own (at 100,000 cards a
    count with the points took the first page 2.5 s)."""
    from lexitrain.study.records import stats as st

    real, started, release, counts = st.compute, threading.Event(), threading.Event(), []

    def held(*args, **kwargs):  # type: ignore[no-untyped-def]
        counts.append(1)
        started.set()
        assert release.wait(20)
        return real(*args, **kwargs)

    monkeypatch.setattr(st, "compute", held)
    app_ctx.count_stats_ahead()
    assert started.wait(10) and counts == [1]
    release.set()
    report, fresh = app_ctx.stats()
    assert fresh and counts == [1] and report.lexicon == app_ctx.lexicon


def test_counts_of_the_stats_never_queue_and_take_their_share_of_the_time(app_ctx, monkeypatch):
    """Changes made while the statistics are counted (a player guessing every 0.25 s; at 100,000 cards a count
    takes 1-2 s of CPU) queue no count of their own behind it: the next page starts one count of the store as it
    is then, and not before the last count's turn is over (it waits three times the CPU the last took:
    COUNT_SHARE). Before, each page after each change queued a count, and they ran back to back, holding the
    interpreter, long after the changes stopped."""
    from lexitrain.study.records import stats as st
    from lexitrain.web.context import COUNT_SHARE

    assert app_ctx.stats()[1]  # (a first count, of the store unchanged since)
    real, began, ended, inside, release = st.compute, [], [], threading.Event(), threading.Event()
    busy = 0.3  # seconds of CPU each count takes here at least

    def held(*args, **kwargs):  # type: ignore[no-untyped-def]
        began.append(time.monotonic())
        inside.set()
        assert release.wait(20)
        cpu = time.thread_time()
        while time.thread_time() - cpu < busy:
            pass
        ended.append(time.monotonic())
        return real(*args, **kwargs)

    monkeypatch.setattr(st, "compute", held)
    store = app_ctx.store
    store.set_setting("bench", 0)
    assert not app_ctx.stats(wait=0)[1]  # (the last count shown meanwhile)
    assert inside.wait(10)
    for change in range(1, 6):  # five changes, each with a page asking, while the count is held
        store.set_setting("bench", change)
        assert not app_ctx.stats(wait=0)[1]
    release.set()
    app_ctx._stats_counter.submit(lambda: None).result(20)  # every count queued so far has run
    assert len(began) == 1  # the five changes queued none
    report, fresh = app_ctx.stats(wait=0)  # (a count of the store after the five starts, after its turn)
    assert not fresh and report.lexicon == app_ctx.lexicon
    deadline = time.monotonic() + 20
    while len(began) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(began) == 2 and began[1] - ended[0] >= busy * (1 / COUNT_SHARE - 1)
    app_ctx._stats_counter.submit(lambda: None).result(20)
    assert app_ctx.stats(wait=0)[1]  # (that count is of the store as it is: fresh)


def test_the_local_apps_statistics_are_counted_in_a_process_of_their_own(app_ctx, monkeypatch):
    """`lexitrain web` counts the statistics in its count process (`count_apart`), at a lower priority: a count
    takes 1-2 s of CPU at 100,000 cards, which a thread would take from the interpreter every request needs. The
    report is the one a count here makes, and none is made here (refused in this test); the process ends with
    the app."""
    from lexitrain.study.records import stats as st

    app_ctx.store.set_setting("bench", 1)
    here = st.compute(app_ctx.store, NAME, app_ctx.lex(), points=True).to_json()

    def refused(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise AssertionError("the statistics were counted in the app's own process")

    monkeypatch.setattr(st, "compute", refused)
    app_ctx.count_apart = True
    try:
        report, fresh = app_ctx.stats()
        assert fresh and report.to_json() == here
        [process] = app_ctx.offload._counts._processes.values()  # type: ignore[union-attr]
        # COUNT_NICENESS lower than the app, as low as a process goes (19) where the app already runs niced
        here_niceness = os.getpriority(os.PRIO_PROCESS, 0)
        assert os.getpriority(os.PRIO_PROCESS, process.pid) == min(19, here_niceness + COUNT_NICENESS)
    finally:
        app_ctx.close()
    process.join(10)
    assert not process.is_alive()


def test_every_connection_the_app_accepts_sends_at_once() -> None:
    """TCP_NODELAY on each accepted connection: without it a response written in two parts waited for
    the browser's delayed ACK, 44 ms on every request that reused a connection (1-3 ms with it)."""
    sock = web_server.listen("127.0.0.1", 0)
    with sock, socket.create_connection(sock.getsockname()[:2]):
        accepted, _ = sock.accept()
        with accepted:
            assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
