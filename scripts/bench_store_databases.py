"""Benchmark the progress store on SQLite and on PostgreSQL (a member's schema), through the same API.

Fills each with the same cards (N alphagram cards, a third of them reviewed and due), then times,
as the daily drill and a page do:
- pick: the most overdue due card not leased to another drill, leased, in one write transaction;
- answer: the card read, scheduled by FSRS, saved and its answer recorded, in one write transaction;
- stats: the counts a statistics page reads (cards by state, answers per quarter hour, review tally).

PostgreSQL is a throw-away cluster on a unix socket (the tests' `Cluster`, Debian's binaries), fsync off
like the tests'; SQLite is a file in WAL mode as the local app keeps it. Prints medians and p95 in ms
and PostgreSQL's ratio to SQLite, with the load average (the machine may be shared).

Run: python scripts/bench_store_databases.py [--cards N] [--runs N]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from lexitrain.study.quiz.scheduler import GOOD, Scheduling  # noqa: E402
from lexitrain.study.store import AnswerRow, ProgressStore  # noqa: E402

T0 = datetime(2026, 3, 1, tzinfo=timezone.utc).timestamp()


def fill(store: ProgressStore, cards: int) -> None:
    rng = random.Random(1)
    keys = sorted({"".join(sorted(rng.choices("ABCDEFGHIJKLMNOPRSTU", k=7))) for _ in range(cards * 2)})[:cards]
    with store.transaction():
        ids = store.ensure_cards("enable", [("anagram", key) for key in keys], T0)
        for card_id in ids[::3]:
            store.save_card(replace(store.card(card_id), state=2, stability=5.0, difficulty=5.0,
                                    due=T0 - rng.random() * 86400 * 10, last_review=T0 - 86400 * 12, correct=1))


def timed(runs: int, work: Callable[[int], None]) -> list[float]:
    samples = []
    for n in range(runs):
        start = time.perf_counter()
        work(n)
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def measure(store: ProgressStore, runs: int) -> dict[str, list[float]]:
    scheduling = Scheduling()
    session = store.start_session("daily", "enable", "bench", T0)
    picked: list[int] = []

    def pick(n: int) -> None:
        with store.transaction():
            card = store.due_cards("enable", T0, 1, skip=store.leased_by_others("bench", T0))[0]
            store.lease_card(card.id, f"bench-{n}", T0 + 600)
        picked.append(card.id)

    def answer(n: int) -> None:
        with store.transaction():
            before = store.card(picked[n])
            after = scheduling.grade(before, GOOD, datetime.fromtimestamp(T0 + n, timezone.utc))
            store.save_card(after)
            store.record_answer(AnswerRow(session, "daily", before.id, "anagram", before.key, before.key, True, False,
                                          before, T0 + n, 1500, rating=GOOD))

    def stats(n: int) -> None:
        store.state_counts("enable")
        store.answers_per_quarter_hour("enable", T0 - 86400 * 30)
        store.review_tally("enable", T0 - 86400 * 30)

    return {"pick": timed(runs, pick), "answer": timed(runs, answer), "stats": timed(max(5, runs // 20), stats)}


def summary(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=300)
    args = parser.parse_args()
    print(f"load at start: {os.getloadavg()[0]:.1f}; {args.cards} cards, {args.runs} picks and answers")
    import psycopg

    from postgres_cluster import Cluster, binaries
    from lexitrain.study.store.postgres import PostgresConnection

    bin_dir = binaries()
    if bin_dir is None:
        sys.exit("PostgreSQL is not installed (apt-get install postgresql)")
    results: dict[str, dict[str, list[float]]] = {}
    with tempfile.TemporaryDirectory() as folder:
        os.environ["LEXITRAIN_HOME"] = folder
        with ProgressStore(Path(folder) / "progress.sqlite") as store:
            fill(store, args.cards)
            results["SQLite"] = measure(store, args.runs)
        cluster = Cluster(bin_dir)
        try:
            url = cluster.create_database("bench")
            with ProgressStore(postgres=PostgresConnection(psycopg.connect(url), "member_1")) as store:
                fill(store, args.cards)
                results["PostgreSQL"] = measure(store, args.runs)
        finally:
            cluster.stop()
    print(f"{'':10} {'SQLite median / p95':>22} {'PostgreSQL median / p95':>26} {'ratio (medians)':>16}")
    for name in ("pick", "answer", "stats"):
        lite, pg = summary(results["SQLite"][name]), summary(results["PostgreSQL"][name])
        print(f"{name:10} {lite[0]:10.2f} / {lite[1]:6.2f} ms {pg[0]:13.2f} / {pg[1]:6.2f} ms {pg[0] / lite[0]:15.1f}x")
    print(f"load at end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
