"""Benchmark the reviews page's requests with 100,000 cards in the progress store: start, answer, grade, undo.

Each request goes through the local app (`lexitrain web`'s routes, in process): the round loaded from its row
of the store, acted on, saved, and today's counts (due now, done today, left) read for the page, in one
transaction. Prints, for each of the four, the median and p95 of the CPU time of the whole process (the app's
threads included) and of the wall time, with the load average before and after. The issue's target (32): each
under 10 ms of CPU at 100,000 cards.

The store is filled as scripts/bench_study.py fills it (100,000 ENABLE cards, 60,000 reviewed, due over the
last and next two months; 100,000 past answers).

Run: python scripts/bench_review.py [--runs 200] [--home DIR]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

TARGET_MS = 10.0


def p95(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200, help="timed rounds of start, answer, grade and undo")
    parser.add_argument("--home", help="LEXITRAIN_HOME to use (default: a fresh temporary one)")
    args = parser.parse_args()
    home = args.home or tempfile.mkdtemp(prefix="bench-review-")
    os.environ["LEXITRAIN_HOME"] = home
    from bench_study import CARDS, fill

    from lexitrain.lexicon.catalog import open_lexicon
    from lexitrain.study.store import ProgressStore
    from lexitrain.web.app import create_app
    from lexitrain.web.context import Context

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    lex = open_lexicon("enable")
    with ProgressStore() as store:
        if not store.conn.execute("SELECT 1 FROM cards LIMIT 1").fetchone():
            started = time.perf_counter()
            fill(store, lex)
            print(f"store filled with {CARDS:,} cards in {time.perf_counter() - started:.1f} s")
        store.set_setting("limit:reviews", 100 * args.runs)
        store.set_setting("limit:new", 20)  # (the default: the reviews due come first)
        ctx = Context(store, lex.name, secret="bench", hosts=frozenset({"testserver"}))
        cpu: dict[str, list[float]] = {"start": [], "answer": [], "grade": [], "undo": []}
        wall: dict[str, list[float]] = {name: [] for name in cpu}
        headers = {"origin": "http://testserver", "sec-fetch-site": "same-origin"}
        with TestClient(create_app(ctx), headers=headers) as client:
            assert client.get("/?key=bench").status_code == 200

            def timed(name: str, call: Callable[[], Any]) -> Any:
                c0, w0 = time.process_time(), time.perf_counter()
                response = call()
                cpu[name].append(time.process_time() - c0)
                wall[name].append(time.perf_counter() - w0)
                assert response.status_code == 200, response.text
                return response.json()

            print(f"load average before: {load()}")
            for _ in range(args.runs):
                drill = timed("start", lambda: client.post("/api/review", json={}))
                ident, question = drill["id"], drill["question"]
                answer = timed("answer", lambda: client.post(f"/api/review/{ident}/answer", json={
                    "question": question["id"], "token": question["token"], "text": question["prompt"]}))
                shown = answer["question"]
                graded = timed("grade", lambda: client.post(f"/api/review/{ident}/grade", json={
                    "question": shown["id"], "token": shown["token"], "rating": 3}))
                following = graded["question"]
                timed("undo", lambda: client.post(f"/api/review/{ident}/undo", json={
                    "question": following["id"], "token": following["token"]}))
        ctx.close()
    print(f"{CARDS:,} cards, {args.runs} rounds: CPU time of the process per request (wall time beside it)")
    for name in cpu:
        ms, wall_ms = [s * 1000 for s in cpu[name]], [s * 1000 for s in wall[name]]
        verdict = "ok" if statistics.median(ms) < TARGET_MS else f"OVER the {TARGET_MS:g} ms target"
        print(f"  {name:7s} CPU median {statistics.median(ms):6.2f} ms, p95 {p95(ms):6.2f} ms | wall median "
              f"{statistics.median(wall_ms):6.2f} ms, p95 {p95(wall_ms):6.2f} ms  {verdict}")
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
