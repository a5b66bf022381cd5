"""Benchmark merging a large progress backup (`lexitrain progress import FILE`).

A backup of CARDS cards and ANSWERS answers (each with its id and way of scheduling, as an export writes
them) is merged into a fresh home, then merged again into the same home (nothing new: the second import
changes nothing). Prints, for each, the median CPU and wall seconds over the runs and the SQL statements the
merge ran per answer (SQLite's trace), with the load.

Run: python scripts/bench_import.py [--cards 20000] [--answers 200000] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

T0 = 1.77e9


def backup(cards: int, answers: int, seed: int = 1) -> dict[str, Any]:
    """A backup as `progress export` writes one: cards reviewed, sessions of a hundred answers, every answer graded."""
    from lexitrain.study.quiz.scheduler import Scheduling, scheduling_id
    from lexitrain.study.records.transfer import FORMAT, VERSION

    rng = random.Random(seed)
    spec = Scheduling().spec()
    way = scheduling_id(spec)
    keys = [f"K{n:07d}" for n in range(cards)]
    card_rows = [{"lexicon": "enable", "kind": "anagram", "key": key, "state": 2, "step": None, "stability": 5.0,
                  "difficulty": 5.0, "due": T0 + 86400, "last_review": T0, "cardbox": 0, "correct": 3, "incorrect": 1,
                  "streak": 2, "added": T0 - 86400 * 30, "deck": None, "suspended": False} for key in keys]
    sessions = [{"id": n + 1, "mode": "daily", "lexicon": "enable", "source": "daily", "started": T0 - 86400 * 30 + n * 600,
                 "ended": T0 - 86400 * 30 + n * 600 + 500, "complete": True} for n in range(answers // 100 + 1)]
    answer_rows = [{"session": n // 100 + 1, "mode": "daily", "lexicon": "enable", "kind": "anagram",
                    "key": keys[rng.randrange(cards)], "given": "X", "correct": rng.random() < 0.8, "was_new": False,
                    "before": None, "at": T0 - 86400 * 30 + (n // 100) * 600 + n % 100, "ms": 1500, "rating": 3,
                    "late_mark": None, "uid": f"{rng.getrandbits(128):032x}", "scheduling": way} for n in range(answers)]
    return {"format": FORMAT, "version": VERSION, "exported": "2026-01-01T00:00:00+00:00", "settings": {},
            "cards": card_rows, "decks": [], "sessions": sessions, "answers": answer_rows, "schedulings": {way: spec},
            "challenges": [], "plans": [], "positions": [], "lists": []}


def merged(home: Path, file: Path) -> tuple[float, float, int, dict[str, Any]]:
    """(CPU seconds, wall seconds, SQL statements, counts) of one import of FILE into the home's store."""
    from lexitrain.study.records.transfer import import_progress
    from lexitrain.study.store import ProgressStore

    with ProgressStore(home / "progress.sqlite") as store:
        statements = [0]
        store.conn.set_trace_callback(lambda _: statements.__setitem__(0, statements[0] + 1))  # type: ignore[union-attr]
        cpu, wall = time.process_time(), time.perf_counter()
        counts = import_progress(store, file)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        store.conn.set_trace_callback(None)  # type: ignore[union-attr]
    return cpu, wall, statements[0], counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=20_000)
    parser.add_argument("--answers", type=int, default=200_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-import-") as folder:
        os.environ["LEXITRAIN_HOME"] = folder
        file = Path(folder) / "backup.json"
        file.write_text(json.dumps(backup(args.cards, args.answers)), encoding="utf-8")
        first: list[tuple[float, float, int]] = []
        again: list[tuple[float, float, int]] = []
        for run in range(args.runs):
            home = Path(folder) / f"home{run}"
            home.mkdir()
            cpu, wall, statements, counts = merged(home, file)
            assert counts["answers"] == args.answers, counts
            first.append((cpu, wall, statements))
            cpu, wall, statements, counts = merged(home, file)
            assert counts["answers"] == 0, counts
            again.append((cpu, wall, statements))
            print(f"run {run + 1}: first {first[-1][0]:.2f} s CPU, again {again[-1][0]:.2f} s CPU "
                  f"(load {os.getloadavg()[0]:.1f})", flush=True)
    print(f"{args.cards:,} cards, {args.answers:,} answers, {args.runs} runs (medians)")
    for name, samples in (("into a fresh home", first), ("again (nothing new)", again)):
        cpu = statistics.median(s[0] for s in samples)
        wall = statistics.median(s[1] for s in samples)
        per = statistics.median(s[2] for s in samples) / args.answers
        print(f"  {name}: {cpu:.2f} s CPU, {wall:.2f} s wall, {per:.2f} SQL statements an answer")
    print(f"load (1, 5, 15 min) at the end: {tuple(round(x, 1) for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
