"""Benchmark the reviews page's requests with 100,000 cards in the progress store: start, answer, grade, undo.

Each request goes through the local app (`lexitrain web`'s routes, in process): the round loaded from its row
of the store, acted on, saved, and today's counts (due now, due later today, done today, left) read for the page,
in one transaction. Prints, for each of the four, the median and p95 of the CPU time of the whole process (the
app's threads included) and of the wall time, and the same for an answer deep in one long round (its 150th to
200th answers: a round's state must not grow with it), with the load average before and after. The issue's
target (32): each under 10 ms of CPU at 100,000 cards; the last line says PASS or FAIL.

With --postgres the same requests run, interleaved round by round, on a member's store in a throw-away
PostgreSQL cluster (the club's kind of store), holding the same rows (copied from the SQLite store, table by
table: filling it answer by answer takes half an hour on a loaded machine); its lines add the CPU time the
cluster's own processes spent on each request (read from /proc), which the process's own CPU time does not hold.

The store is filled as scripts/bench_study.py fills it (100,000 ENABLE cards, 60,000 reviewed, due over the
last and next two months; 100,000 past answers), with the default 20 new cards a day (the reviews due come
first) and room for every review the benchmark answers.

Run: nice -n 10 python scripts/bench_review.py [--runs 200] [--deep 200] [--home DIR] [--postgres]
(a --home filled by an earlier run is used as it is: the filling takes some 20 s on SQLite, longer on PostgreSQL)
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))

from bench_club import postgres_cpu  # noqa: E402  (the one /proc reader of CPU time)
from bench_study import CARDS, bench_arguments, fill  # noqa: E402

TARGET_MS = 10.0
REQUESTS = ("start", "answer", "grade", "undo")
DEEP = "answer deep in a round"
HEADERS = {"origin": "http://testserver", "sec-fetch-site": "same-origin"}


def p95(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


@dataclass
class Face:
    """One store behind the local app, and what its requests cost."""

    name: str
    client: Any
    postmaster: int | None = None
    cpu: dict[str, list[float]] = field(default_factory=lambda: {name: [] for name in (*REQUESTS, DEEP)})
    wall: dict[str, list[float]] = field(default_factory=lambda: {name: [] for name in (*REQUESTS, DEEP)})
    server: dict[str, list[float]] = field(default_factory=lambda: {name: [] for name in (*REQUESTS, DEEP)})

    def cluster_cpu(self) -> float:
        """The CPU seconds the PostgreSQL cluster's processes have used so far (0: no cluster)."""
        return postgres_cpu(self.postmaster) if self.postmaster is not None else 0.0

    def timed(self, name: str, call: Callable[[], Any]) -> dict[str, Any]:
        s0, c0, w0 = self.cluster_cpu(), time.process_time(), time.perf_counter()
        response = call()
        self.cpu[name].append(time.process_time() - c0)
        self.wall[name].append(time.perf_counter() - w0)
        self.server[name].append(self.cluster_cpu() - s0)
        assert response.status_code == 200, response.text
        data: dict[str, Any] = response.json()
        return data

    def review_round(self) -> None:
        """Start a review, answer its question, grade the next one, take that grade back."""
        post = self.client.post
        drill = self.timed("start", lambda: post("/api/review", json={}))
        ident, question = drill["id"], drill["question"]
        answer = self.timed("answer", lambda: post(f"/api/review/{ident}/answer", json={
            "question": question["id"], "token": question["token"], "text": question["prompt"]}))
        shown = answer["question"]
        graded = self.timed("grade", lambda: post(f"/api/review/{ident}/grade", json={
            "question": shown["id"], "token": shown["token"], "rating": 3}))
        following = graded["question"]
        self.timed("undo", lambda: post(f"/api/review/{ident}/undo", json={
            "question": following["id"], "token": following["token"]}))

    def long_round(self, answers: int) -> Iterator[None]:
        """One round answered ANSWERS times (every other answer right), its last quarter timed; a step a yield."""
        post = self.client.post
        drill = post("/api/review", json={}).json()
        ident, question = drill["id"], drill["question"]
        for n in range(answers):
            def answer() -> Any:
                return post(f"/api/review/{ident}/answer", json={"question": question["id"], "token": question["token"],
                                                                "text": question["prompt"] if n % 2 else "?"})
            question = (self.timed(DEEP, answer) if n >= answers * 3 // 4 else answer().json())["question"]
            yield

    def report(self) -> bool:
        """Print the medians; whether every one is under the target."""
        print(f"{self.name}: CPU time of the process per request (wall time beside it"
              + (", and the CPU time of the PostgreSQL cluster's processes)" if self.postmaster else ")"))
        met = True
        for name in (*REQUESTS, DEEP):
            ms = [s * 1000 for s in self.cpu[name]]
            wall_ms = [s * 1000 for s in self.wall[name]]
            under = statistics.median(ms) < TARGET_MS
            met = met and under
            server = (f" | server CPU mean {statistics.mean(self.server[name]) * 1000:6.2f} ms"  # (10 ms ticks)
                      if self.postmaster else "")
            print(f"  {name:22s} CPU median {statistics.median(ms):6.2f} ms, p95 {p95(ms):6.2f} ms | wall median "
                  f"{statistics.median(wall_ms):6.2f} ms, p95 {p95(wall_ms):6.2f} ms{server}  "
                  f"{'ok' if under else f'OVER the {TARGET_MS:g} ms target'} ({len(ms)} requests)")
        return met


@contextmanager
def local_app(open_store: Callable[[], Any], lex: Any, name: str, runs: int, postmaster: int | None = None,
              copy_in: Callable[[], None] | None = None) -> Iterator[Face]:
    """The local app on a store of 100,000 cards: filled here if it is empty, or by COPY_IN (another's rows)."""
    from lexitrain.web.app import create_app
    from lexitrain.web.context import Context

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    store = open_store()
    if store.due_count(lex.name, time.time() + 86400 * 365) == 0:
        started = time.perf_counter()
        copy_in() if copy_in is not None else fill(store, lex)
        print(f"{name}: store filled with {CARDS:,} cards in {time.perf_counter() - started:.1f} s")
    store.set_setting("limit:reviews", 1000 * runs)
    store.set_setting("limit:new", 20)
    ctx = Context(None, lex.name, secret="bench", hosts=frozenset({"testserver"}), open_store=open_store)
    try:
        with TestClient(create_app(ctx), headers=HEADERS) as client:
            assert client.get("/?key=bench").status_code == 200
            yield Face(name, client, postmaster)
    finally:
        ctx.close()
        store.close()


@contextmanager
def postgres_store(rows_of: Path) -> Iterator[tuple[Callable[[], Any], int, Callable[[], None]]]:
    """A member's store in a throw-away PostgreSQL cluster: how to open it, the cluster's postmaster, and how to
    fill it with the rows of the SQLite store at ROWS_OF."""
    import psycopg

    from postgres_cluster import Cluster, postmaster_pid, binaries, copy_store

    from lexitrain.study.store import ProgressStore
    from lexitrain.study.store.postgres import PostgresConnection

    bin_dir = binaries()
    if bin_dir is None:
        raise SystemExit("--postgres: PostgreSQL is not installed (apt-get install postgresql)")
    cluster = Cluster(bin_dir)
    try:
        url = cluster.create_database("bench_review")
        postmaster = postmaster_pid(cluster.folder / "data")
        assert postmaster is not None
        yield ((lambda: ProgressStore(postgres=PostgresConnection(psycopg.connect(url), "member_1"))), postmaster,
               lambda: copy_store(rows_of, url, "member_1"))
    finally:
        cluster.stop()


def main() -> None:
    def more(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--deep", type=int, default=200, help="answers of the long round (its last quarter timed)")
        parser.add_argument("--postgres", action="store_true",
                            help="also on a member's store in a throw-away PostgreSQL cluster")

    args = bench_arguments(__doc__, "bench-review-", 200, "timed rounds of start, answer, grade and undo", more)
    from lexitrain.lexicon.catalog import open_lexicon
    from lexitrain.study.store import ProgressStore, progress_path

    lex = open_lexicon("enable")
    with ExitStack() as stack:
        faces = [stack.enter_context(local_app(ProgressStore, lex, "SQLite", args.runs))]
        if args.postgres:
            open_store, postmaster, copy_in = stack.enter_context(postgres_store(progress_path()))
            faces.append(stack.enter_context(local_app(open_store, lex, "PostgreSQL", args.runs, postmaster, copy_in)))
        print(f"load average before: {load()}")
        for _ in range(args.runs):  # (interleaved: every store sees the same load)
            for face in faces:
                face.review_round()
        rounds = [face.long_round(args.deep) for face in faces]
        for _ in range(args.deep):
            for steps in rounds:
                next(steps)
        print(f"{CARDS:,} cards, {args.runs} review rounds and one round of {args.deep} answers on each store")
        met = all([face.report() for face in faces])
    print(f"load average after: {load()}")
    print(f"{'PASS' if met else 'FAIL'}: every median under {TARGET_MS:g} ms of CPU")


if __name__ == "__main__":
    main()
