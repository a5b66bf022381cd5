"""The club under load, on loopback: N simulated members play today's challenge at once against two
`lexitrain serve` processes over one PostgreSQL (a throw-away cluster from the machine's binaries), then
a shared wall; with `--abuse`, again while the servers are attacked.

Each member logs in (before the clock starts), then all start together: fetch today's set, guess the
answers of the questions they "know" (a seeded share of them) plus a wrong word now and then, with a
think time between guesses, and finish. Then members sit at one shared wall and guess there, every
member's WebSocket receiving every guess. Printed: guess latency (median, p95, max, seen from the
client on the same machine), the shared wall's delivery latency (guess sent to event received, per
receiving member), errors, whether the leaderboard is exact, the most PostgreSQL connections seen
(client backends in `pg_stat_activity`, every 0.2 s) against the pools' size, the CPU each side spent
(the serve processes, PostgreSQL, this client: its share says whether the client is what is measured),
the machine's load, and PASS or FAIL.

    python scripts/bench_club.py                   # 200 members, ENABLE sevens: issue 32's figures
    python scripts/bench_club.py --kill            # kill -9 one process half-way: its members carry on
    python scripts/bench_club.py --abuse           # issue 33: the same members again, under attack
    python scripts/bench_club.py --members 50 --think 0.5 --lexicon small
    python scripts/bench_club.py --profile /tmp/club-profile   # where the serve processes spend their time

The client is one asyncio process (a minimal HTTP/1.1 client of its own, `Web`, a tenth of httpx's CPU a
request; websockets for the wall) that lowers its own priority once the servers and PostgreSQL have
started (`os.nice`), so on a busy machine they come first. `--profile` samples every
serve process with py-spy (`pip install py-spy`) while the members play, and prints, over all samples of
the processes' busy threads, the share of each function's own time and of a few things a guess could
wait on (the database driver, the thread hand-off, argon2, JSON).

Pass criteria of issue 32: guess p95 <= 50 ms and shared-wall delivery p95 <= 50 ms on a quiet machine,
0 errors, leaderboard exact, every guess reaching every seated member, PostgreSQL's connections never
above the pools' size; with `--kill` the same with one process killed half-way (only the requests in
flight there fail, and are sent again). Of issue 33 (`--abuse`): while the members play a second time
(their retakes) the servers take a chunked body of 1 GB at the login, 300 slow request heads, 40
parallel wrong logins of one name and a guess flood at a shared wall: each server's peak memory under
300 MB, the members' guess p95 within twice its quiet figure, at most 5 password checks of the name.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from postgres_cluster import Cluster, binaries  # noqa: E402

if TYPE_CHECKING:
    import httpx

PASSWORD = "bench password 1"


def _keep_alive() -> httpx.Limits:
    """A client's idle connection is dropped well before uvicorn's (5 s) drops it: otherwise a request sent on it
    as the server closes it fails (ReadError), which no server could help; browsers do the same. (The server
    counts idle time from its response's last byte, the client from its arrival: a slow answer narrows it.)"""
    import httpx

    return httpx.Limits(keepalive_expiry=IDLE_SECONDS)


#: How long a client keeps an idle connection (see `_keep_alive`).
IDLE_SECONDS = 2.5
KEEP_ALIVE = _keep_alive()


class TransportError(OSError):
    """A request that got no answer: the connection refused, closed or cut mid-answer."""


class Answer:
    """An HTTP answer as the benchmark reads it."""

    def __init__(self, status: int, body: bytes) -> None:
        self.status_code, self.content = status, body

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", "replace")

    def json(self) -> Any:
        return json.loads(self.content)


class Web:
    """A member's browser, as cheap as a client can be (so the client is not what is measured: httpx spends
    about 2 ms of CPU a request, this a tenth of it): HTTP/1.1 on one kept-alive connection per server, its
    cookies, JSON bodies, answers read by their Content-Length. The requests' shape is the browser's."""

    def __init__(self, base_url: str = "", headers: dict[str, str] | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.headers = dict(headers or {})
        self.cookies: dict[str, str] = {}
        self._open: dict[str, tuple[asyncio.StreamReader, asyncio.StreamWriter, float]] = {}

    async def post(self, path: str, json: Any = None, headers: dict[str, str] | None = None) -> Answer:
        return await self.request("POST", path, json=json, headers=headers)

    async def get(self, path: str) -> Answer:
        return await self.request("GET", path)

    async def request(self, method: str, url: str, json: Any = None, headers: dict[str, str] | None = None) -> Answer:
        """METHOD on URL (a path: on base_url); TransportError when no answer came."""
        if url.startswith("/"):
            url = self.base_url + url
        base, _, path = url.partition("://")[2].partition("/")
        body = b"" if json is None else _json_bytes(json)
        lines = [f"{method} /{path} HTTP/1.1", f"host: {base}", f"content-length: {len(body)}"]
        if json is not None:
            lines.append("content-type: application/json")
        if self.cookies:
            lines.append("cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        lines += [f"{k}: {v}" for k, v in {**self.headers, **(headers or {})}.items()]
        head = ("\r\n".join(lines) + "\r\n\r\n").encode()
        reader, writer = await self._connection(base)
        try:
            writer.write(head + body)
            status_line = await reader.readline()
            if not status_line:
                raise TransportError("the server closed the connection")
            status = int(status_line.split()[1])
            length, closing = 0, False
            while (line := await reader.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode("latin-1").partition(":")
                name, value = name.strip().lower(), value.strip()
                if name == "content-length":
                    length = int(value)
                elif name == "set-cookie":
                    cookie = value.split(";", 1)[0]
                    key, _, kept = cookie.partition("=")
                    if kept and "max-age=0" not in value.lower():
                        self.cookies[key] = kept
                    else:
                        self.cookies.pop(key, None)
                elif name == "connection" and value.lower() == "close":
                    closing = True
            content = await reader.readexactly(length)
        except (OSError, asyncio.IncompleteReadError, ValueError, IndexError) as exc:
            self._drop(base)
            raise TransportError(f"{type(exc).__name__}: {exc}") from None
        if closing:
            self._drop(base)
        else:
            self._open[base] = (reader, writer, time.monotonic())
        return Answer(status, content)

    async def _connection(self, base: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        found = self._open.pop(base, None)
        if found is not None:
            reader, writer, used = found
            if time.monotonic() - used < IDLE_SECONDS and not reader.at_eof():
                return reader, writer
            writer.close()
        host, _, port = base.rpartition(":")
        try:
            return await asyncio.open_connection(host, int(port))
        except OSError as exc:
            raise TransportError(f"cannot connect to {base}: {exc}") from None

    def _drop(self, base: str) -> None:
        found = self._open.pop(base, None)
        if found is not None:
            found[1].close()

    async def aclose(self) -> None:
        for base in list(self._open):
            self._drop(base)

    async def __aenter__(self) -> Web:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


def _json_bytes(value: Any) -> bytes:
    return json.dumps(value).encode()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(port: int, process: subprocess.Popen[bytes], seconds: float = 120.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"serve on {port} stopped: {process.stderr.read().decode() if process.stderr else ''}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"serve on {port} did not start within {seconds:.0f} s")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def member_address(index: int) -> dict[str, str]:
    """The member's own address, as the proxy in front of the servers says it (`X-Forwarded-For`, believed from
    127.0.0.1: `--trusted-proxy`): the login throttle counts password checks per address, and members do not all
    log in from one."""
    return {"x-forwarded-for": f"10.{index // 250 % 250}.{index % 250}.1"}


class Failover:
    """A member's way to the servers, as a round-robin proxy sends them: their requests go to one process; a
    request that process cannot answer (killed with `kill -9` half-way) is an in-flight failure, counted, and
    the member carries on through the next process, with the same session."""

    def __init__(self, bases: list[str], first: int, dead: set[str], in_flight: list[str]) -> None:
        self.bases, self.at, self.dead, self.in_flight = bases, first % len(bases), dead, in_flight
        self.address = member_address(first)

    async def send(self, web: Web, method: str, path: str, json: Any = None,
                   headers: dict[str, str] | None = None) -> Answer:
        for _ in range(len(self.bases)):
            base = self.bases[self.at]
            try:
                return await web.request(method, base + path, json=json, headers=headers)
            except TransportError:
                if base not in self.dead:
                    raise
                self.in_flight.append(f"{method} {path}")
                self.at = (self.at + 1) % len(self.bases)
        raise TransportError("no server left")


async def play(way: Failover, name: str, kind: str, known_share: float, think: float, seed: int,
               answers: dict[str, tuple[str, ...]], latencies: list[float], errors: list[str], ready: list[str],
               start: asyncio.Event, logins: asyncio.Semaphore, planned: list[int]) -> tuple[str, int]:
    """One member's attempt; their expected score."""
    rng = random.Random(seed)
    async with Web(headers=way.address) as web:
        try:
            async with logins:  # (a login is an argon2 hash: a few at a time, as members arrive)
                login = await way.send(web, "POST", "/api/session", json={"name": name, "password": PASSWORD})
        except TransportError as exc:
            errors.append(f"{name} login {exc}")
            ready.append(name)
            return name, -1
        if login.status_code != 200:
            errors.append(f"{name} login {login.status_code}")
            ready.append(name)
            return name, -1
        csrf = {"x-csrf-token": login.json()["csrf"]}
        ready.append(name)
        await start.wait()
        await asyncio.sleep(rng.random() * think)  # (members do not press Enter in the same millisecond)
        try:
            got = await way.send(web, "GET", f"/api/challenge?kind={kind}")
        except TransportError as exc:
            errors.append(f"{name} challenge {exc}")
            return name, -1
        if got.status_code != 200:
            errors.append(f"{name} challenge {got.status_code}")
            return name, -1
        attempt = got.json()["attempt"]
        known = [key for key in got.json()["alphagrams"] if rng.random() < known_share]
        words = [word for key in known for word in answers[key]]
        words += ["QXZJVKW"] * max(1, len(words) // 10)
        rng.shuffle(words)
        planned.append(len(words))
        for word in words:
            await asyncio.sleep(rng.expovariate(1 / think) if think > 0 else 0)
            began = time.perf_counter()
            try:
                said = await way.send(web, "POST", "/api/challenge/guess", json={"attempt": attempt, "word": word},
                                      headers=csrf)
            except TransportError as exc:
                errors.append(f"{name} guess {exc}")
                continue
            latencies.append(time.perf_counter() - began)
            if said.status_code != 200 or said.json()["correct"] != (word != "QXZJVKW"):
                errors.append(f"{name} guess {word} {said.status_code} {said.text[:80]}")
        done = await way.send(web, "POST", "/api/challenge/finish", json={"attempt": attempt}, headers=csrf)
        if done.status_code != 200:
            errors.append(f"{name} finish {done.status_code}")
        elif done.json()["score"] != len(known):
            errors.append(f"{name} scored {done.json()['score']}, expected {len(known)}")
        return name, len(known)


async def run_members(bases: list[str], names: list[str], args: argparse.Namespace, answers: dict[str, tuple[str, ...]],
                      on_start: Callable[[], None], kill: Callable[[], None] | None = None,
                      ) -> tuple[list[float], list[str], dict[str, int], float, list[str]]:
    """Every member's attempt, all started together once every login is done (`on_start` then); with KILL, the
    first process killed once half the guesses are made (KILL kills it). Also the requests
    that were in flight at the killed process."""
    latencies: list[float] = []
    errors: list[str] = []
    ready: list[str] = []
    planned: list[int] = []
    dead: set[str] = set()
    in_flight: list[str] = []
    start = asyncio.Event()
    logins = asyncio.Semaphore(8)
    tasks = [asyncio.create_task(play(Failover(bases, i, dead, in_flight), name, args.kind, args.known, args.think,
                                      args.seed + i, answers, latencies, errors, ready, start, logins, planned))
             for i, name in enumerate(names)]
    while len(ready) < len(names) and not all(task.done() for task in tasks):  # logins before the clock
        await asyncio.sleep(0.2)
    on_start()
    began = time.perf_counter()
    start.set()
    if kill is not None:
        while (len(planned) < len(names) or len(latencies) < sum(planned) / 2) and not all(t.done() for t in tasks):
            await asyncio.sleep(0.05)
        dead.add(bases[0])  # (first: a request failing as it dies is an in-flight one, sent again)
        kill()
    expected = dict(await asyncio.gather(*tasks))
    return latencies, errors, expected, time.perf_counter() - began, in_flight


class Connections:
    """How many connections the club's database holds, sampled every few tenths of a second from
    `pg_stat_activity` (client backends only: the sampler's own left out, and PostgreSQL's own workers, an
    autovacuum of the club's tables among them) on a thread of its own; the most seen."""

    def __init__(self, url: str) -> None:
        import threading

        import psycopg

        self.most = 0
        self.lost = ""  # why sampling stopped early, if it did
        self._stop = threading.Event()
        self._conn = psycopg.connect(url, autocommit=True)
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        import psycopg

        while not self._stop.wait(0.2):
            try:
                row = self._conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                                         "AND backend_type = 'client backend' AND pid <> pg_backend_pid()").fetchone()
            except psycopg.OperationalError as exc:  # (the server restarted under us: say so, and stop sampling)
                self.lost = " ".join(str(exc).split())
                return
            self.most = max(self.most, int(row[0]) if row else 0)

    def stop(self) -> int:
        self._stop.set()
        self._thread.join()
        self._conn.close()
        return self.most


async def wall(bases: list[str], names: list[str], kind: str, answers: dict[str, tuple[str, ...]], think: float,
               seed: int, seconds: float, on_start: Callable[[], None] = lambda: None,
               ) -> tuple[list[float], list[str], int, float]:
    """A shared wall of len(names) members spread over the servers: each guesses with a think time for
    `seconds`; every member's socket must receive every guess. Delivery latencies (guess sent to event
    received, per receiving member) in seconds, errors, guesses made, and the seconds from the first guess
    (ON_START is called then) to the last delivery awaited."""
    import websockets

    rng = random.Random(seed)
    errors: list[str] = []
    sent_at: dict[str, float] = {}
    delays: list[float] = []
    words = [word for key in answers for word in answers[key]]
    rng.shuffle(words)
    clients = []
    kept: list[str] = []  # the members logged in, in their clients' order
    for i, name in enumerate(names):
        web = Web(bases[i % len(bases)], headers=member_address(i))
        login = await web.post("/api/session", json={"name": name, "password": PASSWORD})
        if login.status_code != 200:  # (e.g. the login throttle, after the challenge's logins from this address)
            errors.append(f"{name} wall login {login.status_code} {login.text[:80]}")
            await web.aclose()
            continue
        clients.append((web, {"x-csrf-token": login.json()["csrf"]}))
        kept.append(name)
    names = kept
    if len(clients) < 2:
        for web, _ in clients:
            await web.aclose()
        return [], errors, 0, 0.0
    owner, owner_h = clients[0]
    opened = await owner.post("/api/tables", json={"challenge": kind, "seconds": 3600}, headers=owner_h)
    if opened.status_code != 201:
        for web, _ in clients:
            await web.aclose()
        return [], [f"the table was not opened: {opened.status_code} {opened.text[:120]}"], 0, 0.0
    table = opened.json()["table"]
    for web, headers in clients[1:]:
        if (await web.post(f"/api/tables/{table}/join", headers=headers)).status_code != 200:
            errors.append("join failed")
    received: list[set[str]] = [set() for _ in names]
    done = asyncio.Event()

    async def listen(index: int, ready: asyncio.Event) -> None:
        web = clients[index][0]
        url = web.base_url.replace("http://", "ws://") + f"/api/tables/{table}/events"
        cookie = "; ".join(f"{k}={v}" for k, v in web.cookies.items())
        async with websockets.connect(url, additional_headers={"cookie": cookie}, open_timeout=120) as socket:
            ready.set()
            while not done.is_set():
                try:
                    raw = await asyncio.wait_for(socket.recv(), 0.5)
                except asyncio.TimeoutError:
                    continue
                event = json.loads(raw)
                if event.get("type") == "guess":
                    tag = f"{event['member']}:{event['word']}"
                    delays.append(time.perf_counter() - sent_at[tag])
                    received[index].add(tag)

    readies = [asyncio.Event() for _ in names]
    listeners = [asyncio.create_task(listen(i, readies[i])) for i in range(len(names))]
    await asyncio.wait_for(asyncio.gather(*(ready.wait() for ready in readies)), 300)
    made: list[str] = []

    async def guesser(index: int) -> None:
        web, headers = clients[index]
        mine = random.Random(seed + index)
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            await asyncio.sleep(mine.expovariate(1 / think))
            word = words[mine.randrange(len(words))] if mine.random() < 0.8 else "QXZJVKW"
            tag = f"{names[index]}:{word}"
            if tag in sent_at:
                continue
            sent_at[tag] = time.perf_counter()
            try:
                said = await web.post(f"/api/tables/{table}/guess", json={"word": word}, headers=headers)
            except TransportError as exc:
                errors.append(f"table guess {exc}")
                continue
            if said.status_code != 200:
                errors.append(f"table guess {said.status_code}")
            made.append(tag)

    on_start()
    began = time.perf_counter()
    await asyncio.gather(*(guesser(i) for i in range(len(names))))
    await asyncio.sleep(1.0)
    took = time.perf_counter() - began
    done.set()
    await asyncio.gather(*listeners)
    for index, got in enumerate(received):
        if got != set(made):
            errors.append(f"{names[index]} missed {len(set(made) - got)} of {len(made)} guesses")
    for web, _ in clients:
        await web.aclose()
    return delays, errors, len(made), took


def db_password(db: Any, name: str) -> str:
    """A member's argon2id hash, as stored."""
    with db.reading() as store:
        found = store.member_with_password(name)
    assert found is not None
    return str(found[1])


def check_board(base: str, name: str, kind: str, day: str, expected: dict[str, int]) -> list[str]:
    import httpx

    with httpx.Client(base_url=base, timeout=30.0) as web:
        web.post("/api/session", json={"name": name, "password": PASSWORD})
        board = web.get(f"/api/leaderboard?kind={kind}&date={day}").json()
    problems = []
    if {row["member"]: row["score"] for row in board} != expected:
        problems.append("leaderboard scores differ from the members' known questions")
    ranks = [(-row["score"], row["seconds"]) for row in board]
    if ranks != sorted(ranks):
        problems.append("leaderboard not ranked by score, then time")
    return problems


#: What a profile's summary adds up, by a piece of the frame's text: (label, pieces).
PROFILE_GROUPS = [("psycopg (the database driver and pool)", ("psycopg",)),
                  ("argon2 (password hashes)", ("argon2",)),
                  ("thread hand-off (anyio, run_in_threadpool)", ("anyio", "concurrency.py")),
                  ("JSON", ("json/",)), ("uvicorn / h11 (HTTP)", ("uvicorn", "h11")),
                  ("starlette (routing, requests, responses)", ("starlette",)),
                  ("lexitrain.club", ("lexitrain/club",))]


#: Where a thread with nothing to do waits (an idle worker, the event loop's select): left out of the shares.
IDLE = ("Condition.wait ", "EpollSelector.select ", "Event.wait ")


def start_profiles(pids: list[int], folder: Path) -> list[subprocess.Popen[bytes]]:
    folder.mkdir(parents=True, exist_ok=True)
    return [subprocess.Popen(["py-spy", "record", "--pid", str(pid), "--nonblocking", "--format", "raw", "--rate", "100",
                              "--output", str(folder / f"serve-{pid}.txt")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for pid in pids]


def stop_profiles(profilers: list[subprocess.Popen[bytes]], folder: Path) -> None:
    """Stop the samplers (they write their files on SIGINT) and print what the samples add up to."""
    import collections
    import signal

    for profiler in profilers:
        profiler.send_signal(signal.SIGINT)
    for profiler in profilers:
        try:
            profiler.wait(60)
        except subprocess.TimeoutExpired:
            profiler.kill()
    own: collections.Counter[str] = collections.Counter()
    groups: collections.Counter[str] = collections.Counter()
    total = idle_samples = 0
    for path in folder.glob("serve-*.txt"):
        for line in path.read_text().splitlines():
            stack, _, count_text = line.rpartition(" ")
            if not stack or not count_text.isdigit():
                continue
            count = int(count_text)
            frames = stack.split(";")
            if any(frames[-1].startswith(idle) for idle in IDLE):
                idle_samples += count
                continue
            total += count
            own[frames[-1]] += count
            for label, pieces in PROFILE_GROUPS:
                if any(piece in frame for frame in frames for piece in pieces):
                    groups[label] += count
    if not total:
        print("profile: no samples (is py-spy installed, and may it trace the serve processes?)")
        return
    print(f"profile: {total} samples of working threads in the serve processes, {idle_samples} more of threads "
          f"waiting for work (left out) ({folder})")
    for label, _pieces in PROFILE_GROUPS:
        print(f"  {100 * groups[label] / total:5.1f} %  in {label}")
    print("  own time, the top functions:")
    for frame, count in own.most_common(12):
        print(f"  {100 * count / total:5.1f} %  {frame}")


def cpu_seconds(pid: int, children: bool = False) -> float:
    """A process's CPU time so far (user and system), with its reaped children's when CHILDREN; 0 once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    ticks = int(fields[11]) + int(fields[12]) + (int(fields[13]) + int(fields[14]) if children else 0)
    return ticks / os.sysconf("SC_CLK_TCK")


def postgres_cpu(postmaster: int) -> float:
    """The CPU time of a PostgreSQL cluster: its postmaster, its live backends and workers, and those ended."""
    total = cpu_seconds(postmaster, children=True)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if parent == postmaster:
                total += cpu_seconds(int(entry.name))
    return total


class CpuMeter:
    """CPU seconds spent, between `start` and `stop`, by the serve processes, PostgreSQL and this client."""

    def __init__(self, servers: list[int], postmaster: int | None) -> None:
        self.servers, self.postmaster = servers, postmaster
        self.spent = {"serve": 0.0, "postgres": 0.0, "client": 0.0}
        self._last_read: dict[int, float] = {}

    def read_servers(self) -> float:
        """The serve processes' CPU; one gone (killed) counts what it had spent when last read, not 0."""
        for pid in self.servers:
            spent = cpu_seconds(pid)
            if spent:
                self._last_read[pid] = spent
        return sum(self._last_read.get(pid, 0.0) for pid in self.servers)

    def _now(self) -> dict[str, float]:
        return {"serve": self.read_servers(),
                "postgres": postgres_cpu(self.postmaster) if self.postmaster else 0.0,
                "client": time.process_time()}

    def start(self) -> None:
        self._began = self._now()

    def stop(self) -> dict[str, float]:
        ended = self._now()
        self.spent = {side: ended[side] - self._began[side] for side in ended}
        return self.spent

    def line(self, seconds: float, requests: int) -> str:
        total = sum(self.spent.values()) or 1.0
        return (f"CPU over {seconds:.1f} s: serve processes {self.spent['serve']:.1f} s, PostgreSQL "
                f"{self.spent['postgres']:.1f} s, this client {self.spent['client']:.1f} s "
                f"({100 * self.spent['client'] / total:.0f} % of the three); servers + PostgreSQL "
                f"{1000 * (self.spent['serve'] + self.spent['postgres']) / max(requests, 1):.2f} ms a request")


def peak_memory(pid: int) -> int:
    """A process's peak resident memory so far (VmHWM), in bytes (0 once it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


async def huge_body(port: int, gigabytes: float) -> tuple[int, str]:
    """A chunked body of GIGABYTES streamed at the login, as fast as the server takes it: (bytes sent before the
    server stopped taking them, its answer's status line)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"POST /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 b"Transfer-Encoding: chunked\r\n\r\n")
    chunk = b"[" * (1 << 20)
    sent = 0
    try:
        for _ in range(int(gigabytes * 1024)):
            writer.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            await writer.drain()
            sent += len(chunk)
        writer.write(b"0\r\n\r\n")
        await writer.drain()
    except (ConnectionError, OSError):
        pass
    try:
        status = (await asyncio.wait_for(reader.readline(), 30)).decode(errors="replace").strip()
    except (ConnectionError, OSError, asyncio.TimeoutError):
        status = "(connection closed)"
    writer.close()
    return sent, status or "(connection closed)"


async def slow_heads(port: int, count: int, hold: float) -> int:
    """COUNT connections each sending half a request head and then nothing, held up to HOLD seconds: how many the
    server closed by then."""
    async def one() -> bool:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            return True  # (refused at once: not held)
        writer.write(b"POST /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        try:
            await writer.drain()
            await asyncio.wait_for(reader.read(), hold)
            closed = True
        except asyncio.TimeoutError:
            closed = False
        except (ConnectionError, OSError):
            closed = True
        writer.close()
        return closed

    return sum(await asyncio.gather(*(one() for _ in range(count))))


async def login_flood(bases: list[str], name: str, count: int) -> dict[int, int]:
    """COUNT wrong logins of one name at once, spread over the servers, each from its own address: the statuses
    answered (a 401 or a 200 is a password checked; a 429 is refused unchecked)."""
    import httpx

    async def one(index: int) -> int:
        async with httpx.AsyncClient(base_url=bases[index % len(bases)], timeout=120.0,
                                     headers=member_address(5000 + index)) as web:
            said = await web.post("/api/session", json={"name": name, "password": f"guess number {index}"})
            return said.status_code

    statuses = await asyncio.gather(*(one(i) for i in range(count)))
    return {status: statuses.count(status) for status in sorted(set(statuses))}


async def guess_flood(base: str, name: str, key: str, seconds: float, start: asyncio.Event) -> tuple[dict[int, int], float]:
    """One member (logged in and seated before the attacks) opens a practice table on KEY and, once START is set,
    sends wrong guesses as fast as the server answers for SECONDS: the statuses answered (200: stored and sent),
    and the slowest answer's seconds."""
    counts: dict[int, int] = {}
    slowest = 0.0
    async with Web(base, headers=member_address(9999)) as web:
        login = await web.post("/api/session", json={"name": name, "password": PASSWORD})
        headers = {"x-csrf-token": login.json()["csrf"]}
        table = (await web.post("/api/tables", json={"alphagrams": [key], "practice": True, "seconds": 3600},
                                headers=headers)).json()["table"]
        await start.wait()
        deadline = time.perf_counter() + seconds
        while (began := time.perf_counter()) < deadline:
            said = await web.post(f"/api/tables/{table}/guess", json={"word": "QXZJVKW"}, headers=headers)
            counts[said.status_code] = counts.get(said.status_code, 0) + 1
            slowest = max(slowest, time.perf_counter() - began)
    return counts, slowest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--members", type=int, default=200)
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--kind", default="sevens")
    parser.add_argument("--lexicon", default="enable")
    parser.add_argument("--known", type=float, default=0.6, help="share of the questions a member solves")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds between a member's guesses")
    parser.add_argument("--seed", type=int, default=25)
    parser.add_argument("--wall", type=int, default=20, help="members at the shared wall")
    parser.add_argument("--wall-think", type=float, default=2.0, help="mean seconds between a wall member's guesses")
    parser.add_argument("--wall-seconds", type=float, default=30.0, help="how long the wall is played")
    parser.add_argument("--profile", type=Path, help="sample the serve processes with py-spy into this folder")
    parser.add_argument("--pool", type=int, default=10, help="each serve process's --pool (its most connections)")
    parser.add_argument("--kill", action="store_true",
                        help="kill -9 the first serve process once half the guesses are made: its members carry on "
                             "through the others (as a round-robin proxy sends them), only in-flight requests fail")
    parser.add_argument("--abuse", action="store_true",
                        help="the members play again (retakes) while the servers are attacked (issue 33)")
    parser.add_argument("--gigabytes", type=float, default=1.0, help="--abuse: the chunked body's size")
    parser.add_argument("--heads", type=int, default=300, help="--abuse: slow request heads held open")
    parser.add_argument("--logins", type=int, default=40, help="--abuse: parallel wrong logins of one name")
    args = parser.parse_args()
    if not 1 <= args.members <= 1000 or not 1 <= args.servers <= 8 or not 1 <= args.wall <= args.members:
        raise SystemExit("--members 1-1000, --servers 1-8, --wall 1-members")
    if args.kill and (args.servers < 2 or args.abuse):
        raise SystemExit("--kill needs --servers 2 or more, and not --abuse")
    if not 0 < args.wall_seconds <= 600:
        raise SystemExit("--wall-seconds: above 0, at most 600")
    bin_dir = binaries()
    if bin_dir is None:
        raise SystemExit("PostgreSQL is not installed (apt-get install postgresql)")
    os.environ.setdefault("LEXITRAIN_HOME", tempfile.mkdtemp(prefix="bench-club-"))

    from lexitrain.club.challenges import ChallengeSets
    from lexitrain.club.store import ClubDatabase
    from lexitrain.club.members import make_admin, make_invite, sign_up
    from lexitrain.lexicon.catalog import open_lexicon
    from lexitrain.study.drills.challenge import parse_day

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from postgres_cluster import postmaster_pid

    lex = open_lexicon(args.lexicon)
    day = parse_day(None)
    answers = ChallengeSets(lex).get(args.kind, day).answers
    cluster = Cluster(bin_dir, max_connections=20 * args.servers + 40)
    servers: list[subprocess.Popen[bytes]] = []
    logs = Path(tempfile.mkdtemp(prefix="bench-club-logs-"))
    abuse: dict[str, object] = {}
    try:
        url = cluster.create_database("club")
        names = [f"member{i:03d}" for i in range(args.members)]
        with ClubDatabase(url, pool_size=2) as db:
            now = time.time()
            sign_up(db, names[0], PASSWORD, make_invite(db, now), now)
            make_admin(db, names[0])
            hashed = db_password(db, names[0])
            with db.transaction() as store:  # (the others with the first one's hash: one argon2 hash, not 200)
                for name in names[1:] + (["target", "flooder"] if args.abuse else []):
                    store.add_member(name, hashed, now, "")
        ports = [free_port() for _ in range(args.servers)]
        for index, port in enumerate(ports):
            servers.append(subprocess.Popen(
                [sys.executable, "-m", "lexitrain", "serve", "--database", url, "--port", str(port),
                 "--lexicon", lex.name, "--pool", str(args.pool), "--trusted-proxy", "127.0.0.1"],
                stdout=subprocess.DEVNULL, stderr=(logs / f"serve-{index}.log").open("wb")))
        for port, process in zip(ports, servers):
            wait_for(port, process)
        os.nice(10)  # (the client below the servers and PostgreSQL, started above at the caller's priority)
        bases = [f"http://127.0.0.1:{port}" for port in ports]
        profilers: list[subprocess.Popen[bytes]] = []
        meter = CpuMeter([process.pid for process in servers], postmaster_pid(cluster.folder / "data"))
        started_memory = [peak_memory(process.pid) for process in servers]

        def on_start() -> None:
            meter.start()
            if args.profile:
                profilers.extend(start_profiles([process.pid for process in servers], args.profile))

        def kill() -> None:
            meter.read_servers()  # (its CPU until now counted: once killed it reads as 0)
            servers[0].kill()  # (SIGKILL: nothing of it runs on)
            servers[0].wait(10)

        connections = Connections(url)
        load_before = os.getloadavg()
        latencies, errors, expected, seconds, in_flight = asyncio.run(
            run_members(bases, names, args, answers, on_start, kill if args.kill else None))
        load_after = os.getloadavg()
        meter.stop()
        play_cpu = meter.line(seconds, len(latencies))
        if args.profile:
            stop_profiles(profilers, args.profile)
        errors += check_board(bases[-1], names[0], args.kind, day.isoformat(), expected)
        alive = bases[1:] if args.kill else bases
        delays, wall_errors, guesses, wall_seconds = asyncio.run(
            wall(alive, names[:args.wall], args.kind, answers, args.wall_think, args.seed, args.wall_seconds,
                 meter.start))
        meter.stop()
        wall_cpu = meter.line(wall_seconds, guesses)
        load_wall = os.getloadavg()
        if args.abuse:
            abuse = asyncio.run(attacked(bases, ports, names, args, answers))
            abuse["memory"] = [peak_memory(process.pid) for process in servers]
        most_connections = connections.stop()
    finally:
        for process in servers:
            process.terminate()
        for process in servers:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
        cluster.stop()
    ms = [s * 1000 for s in latencies] or [float("nan")]
    print(f"members {args.members} on {args.servers} serve processes over one PostgreSQL (pools of {args.pool}); "
          f"{args.kind} of {lex.name} ({len(answers)} questions); think {args.think} s; {seconds:.1f} s of play")
    print(f"guesses {len(latencies)}: median {statistics.median(ms):.1f} ms, p95 {percentile(ms, 0.95):.1f} ms, "
          f"max {max(ms):.1f} ms; {len(latencies) / seconds:.0f} guesses/s")
    print(play_cpu)
    if args.kill:
        print(f"serve process 1 of {args.servers} killed (kill -9) half-way: {len(in_flight)} requests in flight there "
              f"failed and were sent again to another process" + (f" ({in_flight[:3]})" if in_flight else ""))
    print(f"errors {len(errors)}" + (f": {errors[:5]}" if errors else ""))
    print("leaderboard " + ("exact" if not any("leaderboard" in e for e in errors) else "WRONG"))
    print(f"load average before {load_before[0]:.1f}, after {load_after[0]:.1f} ({os.cpu_count()} cores)")
    verdict = not errors and percentile(ms, 0.95) <= 50
    print("PASS" if verdict else "FAIL", "(guess p95 <= 50 ms, 0 errors, leaderboard exact)")
    delivered = [d * 1000 for d in delays] or [float("nan")]
    print(f"shared wall: {args.wall} members on {len(alive)} processes, {guesses} guesses in {wall_seconds:.0f} s, "
          f"{len(delays)} deliveries: median {statistics.median(delivered):.1f} ms, "
          f"p95 {percentile(delivered, 0.95):.1f} ms, max {max(delivered):.1f} ms; errors {len(wall_errors)}"
          + (f": {wall_errors[:3]}" if wall_errors else "") + f"; load average after {load_wall[0]:.1f}")
    print(wall_cpu)
    wall_verdict = bool(delays) and not wall_errors and percentile(delivered, 0.95) <= 50
    print("PASS" if wall_verdict else "FAIL", "(every guess reaches every member, delivery p95 <= 50 ms)")
    bound = args.pool * args.servers
    pool_verdict = most_connections <= bound
    print(f"PostgreSQL connections (client backends in pg_stat_activity, every 0.2 s): at most {most_connections}, "
          f"the pools' size {args.servers} x {args.pool} = {bound}"
          + (f" (sampling stopped: {connections.lost})" if connections.lost else ""))
    print("PASS" if pool_verdict else "FAIL", "(never more connections than the pools hold)")
    abuse_verdict = True
    if args.abuse:
        abuse_verdict = report_abuse(abuse, ms, started_memory, args)
    print(f"(server logs: {logs})")
    sys.exit(0 if verdict and wall_verdict and pool_verdict and abuse_verdict else 1)


async def attacked(bases: list[str], ports: list[int], names: list[str], args: argparse.Namespace,
                   answers: dict[str, tuple[str, ...]]) -> dict[str, object]:
    """The members play again (a retake each) while the attacks run: a guess flood at a table from the start, then
    as the members start, the huge body, the slow heads and the login flood. What each got."""
    go = asyncio.Event()
    flood = asyncio.ensure_future(guess_flood(bases[0], "flooder", next(iter(answers)), 10.0, go))
    attacks: list[asyncio.Future[object]] = []

    def on_start() -> None:
        go.set()
        attacks.extend([asyncio.ensure_future(huge_body(ports[0], args.gigabytes)),
                        asyncio.ensure_future(slow_heads(ports[-1], args.heads, 15.0)),
                        asyncio.ensure_future(login_flood(bases, "target", args.logins))])

    load = os.getloadavg()[0]
    latencies, errors, _expected, seconds, _in_flight = await run_members(bases, names, args, answers, on_start)
    body, heads_closed, logins = await asyncio.gather(*attacks)
    return {"latencies": latencies, "errors": errors, "seconds": seconds, "flood": await flood, "body": body,
            "heads_closed": heads_closed, "logins": logins, "load": (load, os.getloadavg()[0])}


def report_abuse(abuse: dict[str, Any], quiet_ms: list[float], started_memory: list[int],
                 args: argparse.Namespace) -> bool:
    busy_ms = [s * 1000 for s in abuse["latencies"]] or [float("nan")]
    ratio = percentile(busy_ms, 0.95) / percentile(quiet_ms, 0.95)
    logins: dict[int, int] = abuse["logins"]
    checks = logins.get(401, 0) + logins.get(200, 0)
    memory: list[int] = abuse["memory"]
    body_sent, body_status = abuse["body"]
    print(f"under attack: the same members' retakes, {len(busy_ms)} guesses in {abuse['seconds']:.1f} s, median "
          f"{statistics.median(busy_ms):.1f} ms, p95 {percentile(busy_ms, 0.95):.1f} ms, max {max(busy_ms):.1f} ms; "
          f"errors {len(abuse['errors'])}" + (f": {abuse['errors'][:3]}" if abuse["errors"] else "")
          + f"; load average before {abuse['load'][0]:.1f}, after {abuse['load'][1]:.1f}")
    print(f"guess p95 under attack / quiet: {ratio:.2f}")
    print(f"{args.gigabytes:g} GB chunked body at the login: the server took {body_sent / (1 << 20):.1f} MB, "
          f"answered {body_status!r}")
    print(f"{args.heads} slow request heads: {abuse['heads_closed']} closed by the server within 15 s")
    print(f"{args.logins} wrong logins of one name at once, from {args.logins} addresses: {logins} -> {checks} "
          "password checks")
    print(f"guess flood at a table for 10 s: {abuse['flood'][0]} (200: stored and sent; 429: refused), the slowest "
          f"answer {1000 * abuse['flood'][1]:.0f} ms")
    print("peak memory per server: " + ", ".join(f"{m / (1 << 20):.0f} MB (at start {s / (1 << 20):.0f})"
                                                 for m, s in zip(memory, started_memory)))
    verdict = max(memory) < 300 << 20 and ratio <= 2.0 and checks <= 5 and not abuse["errors"]
    print("PASS" if verdict else "FAIL", "(server memory < 300 MB, guess p95 under attack <= 2x quiet, <= 5 password "
          "checks of the name, 0 errors)")
    return verdict


if __name__ == "__main__":
    main()
