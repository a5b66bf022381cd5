"""Benchmark the web app (`lexitrain web`) with 100,000 cards in the progress store, over real HTTP.

One run, against `lexitrain web` started as a process of its own (as a player starts it):

1. pages alone: `GET /review` and `GET /stats` in turn, the store unchanged (counted once, then cached);
2. under load: a player guessing on a 50-alphagram wall (untimed, one guess every GUESS_GAP s, most
   of them words that decide a question, so the statistics are counted again after each), while
   CLIENTS other clients browse (/, /review, /stats, /search, /challenge) as fast as they are
   answered and a PDF sheet of the twos to eights (`--length 2-8`, about 40 s) renders: p95 of a
   guess, of /review and of /stats;
3. starting a 50-alphagram wall (the start form's post, to the wall's page): median and p95;
4. reviews over HTTP on the player's connection after it sat idle past the server's keep-alive timeout
   (the client opens a new one, as a browser does): a typed answer's and a grade's median and p95
   (their CPU: scripts/bench_review.py).

Prints, phase by phase, medians and p95 in milliseconds, the load average as the phase began and as it
ended, and the CPU time the server took in it (the machine may be shared: compare CPU times, and re-run
it on a quiet one). Targets (issue 23): /review and /stats p95 <= 100 ms; a guess p95
<= 20 ms while the sheet renders and 20 clients browse; a wall's start p95 <= 60 ms.

Run: python scripts/bench_web.py [--home DIR] [--clients 20] [--seconds 40] [--starts 50]
The store is filled as scripts/bench_study.py fills it (100,000 ENABLE cards, 60,000 reviewed); a
--home that already holds them is reused.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench_club import cpu_seconds  # noqa: E402  (after the path is set)
from lexitrain.web.server import KEEP_ALIVE_SECONDS  # noqa: E402

WALL = "--length 7 --probability 1-50"  # 50 alphagrams
SHEET = "length=2-8"  # the twos to eights: about 40 s of PDF
PAGES = ["/", "/review", "/stats", "/search?length=7&probability=1-100", "/challenge"]
GUESS_GAP = 0.25
SHEET_WAIT = 300.0  # seconds the sheet is waited for at most
#: Longer than the server's keep-alive (lexitrain.web.server.KEEP_ALIVE_SECONDS): phase 4's connection
#: has been closed by the server meanwhile, and the client must open a new one.
IDLE_PAST_KEEP_ALIVE = KEEP_ALIVE_SECONDS + 2.0


def p95(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def figures(name: str, samples: list[float], target: float | None = None) -> None:
    if not samples:
        print(f"{name}: no samples")
        return
    ms = [s * 1000 for s in samples]
    verdict = "" if target is None else (" ok" if p95(ms) <= target else f" OVER the {target:g} ms target")
    print(f"{name}: median {statistics.median(ms):.1f} ms, p95 {p95(ms):.1f} ms, max {max(ms):.1f} ms "
          f"({len(ms)} requests){verdict}")


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def children_cpu(server: int) -> dict[int, float]:
    """The CPU time so far of each process the server has started and that still runs (its sheet process, its
    count process)."""
    pids: set[int] = set()
    for task in Path(f"/proc/{server}/task").glob("*"):  # (each thread's: a process is the child of its starter)
        try:
            pids.update(int(pid) for pid in (task / "children").read_text().split())
        except OSError:
            pass
    return {pid: cpu_seconds(pid) for pid in pids}


@contextmanager
def phase(title: str, server: int) -> Iterator[None]:
    """A phase's figures between its title, with the load average as it begins, and a line with the load average
    as it ends and the CPU time the server process took in it: its own (the event loop, the lane, the readers),
    and its child processes' (the sheet, the statistics' counts)."""
    print(f"{title} (load average {load()} as it began)")
    cpu, children, began = cpu_seconds(server), children_cpu(server), time.monotonic()
    yield
    apart = sum(seconds - children.get(pid, 0.0) for pid, seconds in children_cpu(server).items())
    print(f"  load average {load()} as it ended; in {time.monotonic() - began:.1f} s the server took "
          f"{cpu_seconds(server) - cpu:.1f} s of CPU, its sheet and count processes {apart:.1f} s")


class Client:
    """One browser's connection (keep-alive) with the launch's cookie."""

    def __init__(self, address: str, cookie: str, timeout: float = 120) -> None:
        host, port = address.split(":")
        self.conn = http.client.HTTPConnection(host, int(port), timeout=timeout)
        self.origin = f"http://{address}"
        self.cookie = cookie

    def request(self, method: str, path: str, body: bytes | None = None, kind: str = "application/json",
                ) -> tuple[int, dict[str, str], bytes]:
        """One request; where the server has closed the connection while it sat idle (its keep-alive
        timeout), the request never reached it: it is sent again once, on a new connection."""
        headers = {"cookie": self.cookie, "origin": self.origin}
        if body is not None:
            headers["content-type"] = kind
        for attempt in (1, 2):
            try:
                self.conn.request(method, path, body=body, headers=headers)
                answer = self.conn.getresponse()
                return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.conn.close()  # (the next request opens a new connection)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")


def start(address: str, cookie: str) -> tuple[str, float]:
    """Post the start form; the wall's id and the time to its page's redirect."""
    client = Client(address, cookie)
    form = urlencode({"source": "search", "value": WALL, "minutes": "0", "start": "restart",
                      "nonce": f"bench-{random.random()}"}).encode()
    began = time.perf_counter()
    status, headers, _ = client.request("POST", "/wall", form, "application/x-www-form-urlencoded")
    taken = time.perf_counter() - began
    assert status == 303, status
    return headers["location"].rsplit("/", 1)[1], taken


def reviews(client: Client, count: int) -> tuple[list[float], list[float]]:
    """COUNT reviews answered in turn by a typed (wrong) answer and by a grade, as the reviews page
    sends them: the seconds each answer and each grade took."""
    def post(path: str, body: dict[str, object]) -> dict[str, object]:
        status, _, answer = client.request("POST", path, json.dumps(body).encode())
        assert status == 200, (path, status, answer[:200])
        return json.loads(answer)

    state = post("/api/review", {})
    typed: list[float] = []
    graded: list[float] = []
    for number in range(count):
        question = state.get("question")
        if not isinstance(question, dict):
            break
        shown = {"question": question["id"], "token": question["token"]}
        began = time.perf_counter()
        if number % 2:
            state = post(f"/api/review/{state['id']}/grade", {**shown, "rating": 3})
            graded.append(time.perf_counter() - began)
        else:
            state = post(f"/api/review/{state['id']}/answer", {**shown, "text": "ZZZ"})
            typed.append(time.perf_counter() - began)
    return typed, graded


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", help="LEXITRAIN_HOME with ENABLE compiled (default: a fresh temporary one)")
    parser.add_argument("--clients", type=int, default=20, help="clients browsing at once")
    parser.add_argument("--rate", type=float, default=15.0, help="pages a second the browsing clients ask for "
                        "together, each waiting a random (exponential) time between its pages: the issue measured "
                        "20 clients at 15 requests a second; 0: every client asks again the moment it is answered")
    parser.add_argument("--seconds", type=float, default=40.0, help="how long the load phase lasts at most")
    parser.add_argument("--starts", type=int, default=50, help="walls started in phase 3")
    parser.add_argument("--reviews", type=int, default=60, help="reviews answered and graded in phase 4")
    args = parser.parse_args()
    home = args.home or tempfile.mkdtemp(prefix="bench-web-")
    os.environ["LEXITRAIN_HOME"] = home

    from bench_study import fill

    from lexitrain.lexicon.catalog import open_lexicon
    from lexitrain.study.store import ProgressStore

    lex = open_lexicon("enable")
    with ProgressStore() as store:
        if store.conn.execute("SELECT COUNT(*) FROM cards").fetchone()[0] < 100_000:
            fill(store, lex)
        cards = store.conn.execute("SELECT COUNT(*) FROM cards").fetchone()[0]
    print(f"{cards} cards in the store; load average {load()} on {os.cpu_count()} cores")

    server = subprocess.Popen([sys.executable, "-m", "lexitrain", "web", "--port", "0", "--no-browser",
                               "--lexicon", "enable"], stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert server.stdout is not None
        link = re.search(r"http://([\d.]+:\d+)/\?key=(\S+)", server.stdout.readline())
        assert link, "no link printed"
        address, key = link.groups()
        cookie = f"lexitrain_key={key}"

        # 1. the pages alone
        alone: dict[str, list[float]] = {"/review": [], "/stats": []}
        client = Client(address, cookie)
        with phase("1. the pages alone, the store unchanged", server.pid):
            for path in alone:
                client.request("GET", path)  # the first count
            for _ in range(30):
                for path, samples in alone.items():
                    began = time.perf_counter()
                    status, _, _ = client.request("GET", path)
                    samples.append(time.perf_counter() - began)
                    assert status == 200, (path, status)
            for path, samples in alone.items():
                figures(f"  GET {path}", samples, 100)

        # 2. under load: a sheet rendering, CLIENTS browsing, a player guessing
        ident, _ = start(address, cookie)
        player = Client(address, cookie)
        state = json.loads(player.request("GET", f"/api/wall/{ident}")[2])
        words = [w for c in state["round"]["cells"] for w in lex.anagrams(c["alphagram"])]
        random.Random(1).shuffle(words)
        stop = threading.Event()
        sheet: dict[str, float] = {}
        browsed: dict[str, list[float]] = {path.split("?")[0]: [] for path in PAGES}
        guesses: list[float] = []

        def render_sheet() -> None:
            began = time.perf_counter()
            try:
                status, headers, body = Client(address, cookie, SHEET_WAIT).request("GET", f"/sheet.pdf?{SHEET}")
                sheet["bytes"] = len(body) if status == 200 and headers.get("content-type") == "application/pdf" else -1
            except OSError:  # (not made in SHEET_WAIT: said below, as a sheet not finished)
                pass
            sheet["seconds"] = time.perf_counter() - began
            stop.set()

        def browse(number: int) -> None:
            visitor = Client(address, cookie)
            rng = random.Random(number)
            while not stop.is_set():
                if args.rate:
                    stop.wait(rng.expovariate(args.rate / args.clients))
                path = rng.choice(PAGES)
                began = time.perf_counter()
                status, _, _ = visitor.request("GET", path)
                if status == 200:
                    browsed[path.split("?")[0]].append(time.perf_counter() - began)

        pace = f"{args.rate:g} pages/s together" if args.rate else "each asking again at once"
        with phase(f"2. under load: {args.clients} clients browsing ({pace}), a player guessing every {GUESS_GAP} s, "
                   f"a sheet of `{SHEET}` rendering", server.pid):
            threads = [threading.Thread(target=render_sheet, daemon=True)]
            threads += [threading.Thread(target=browse, args=(n,), daemon=True) for n in range(args.clients)]
            for thread in threads:
                thread.start()
            time.sleep(2.0)  # the sheet process has started and every client is browsing
            began_load = time.monotonic()
            token = state["round"]["token"]
            for word in words:
                if stop.is_set() or time.monotonic() - began_load > args.seconds:
                    break
                body = json.dumps({"word": word, "round": token}).encode()
                began = time.perf_counter()
                status, _, answer = player.request("POST", f"/api/wall/{ident}/guess", body)
                guesses.append(time.perf_counter() - began)
                assert status == 200, (status, answer[:200])
                time.sleep(GUESS_GAP)
            sheet_done = stop.wait(SHEET_WAIT) and "bytes" in sheet
            stop.set()
            for thread in threads[1:]:
                thread.join(120)
            figures("  a guess", guesses, 20)
            for path, samples in browsed.items():
                figures(f"  GET {path}", samples, 100 if path in ("/review", "/stats") else None)
            if sheet_done:
                print(f"  the sheet: {sheet['seconds']:.1f} s, {sheet['bytes'] / 1024:.0f} KB of PDF")
            else:
                print(f"  the sheet had not come after {SHEET_WAIT:g} s (the machine is too busy to measure)")

        # 3. starting a wall
        with phase("3. starting walls", server.pid):
            starts = [start(address, cookie)[1] for _ in range(args.starts)]
            figures("  start a 50-alphagram wall (form post to redirect)", starts, 60)

        # 4. reviews over HTTP, after the connection sat idle past the server's keep-alive timeout
        time.sleep(IDLE_PAST_KEEP_ALIVE)
        with phase(f"4. reviews, after {IDLE_PAST_KEEP_ALIVE:g} s idle", server.pid):
            review_answers, review_grades = reviews(player, args.reviews)
            figures("  a review's typed answer (POST /api/review/ID/answer)", review_answers)
            figures("  a review's grade (POST /api/review/ID/grade)", review_grades)
    finally:
        stopping = time.monotonic()
        server.terminate()
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        print(f"the server stopped {time.monotonic() - stopping:.1f} s after it was asked to; "
              f"load average {load()} at the end")


if __name__ == "__main__":
    main()
