"""Benchmark the position quiz on ENABLE.

Prints medians (milliseconds) over the positions of a few seeded self-play
games and the turns of some recorded games (tests/data/gcg), stored first
through the real API:
- preparing the next position question: pick it from the store, read its
  CGP, generate every legal play, and have the question and the top 5 ready;
- judging an answer: read the play, check it with the rules and the lexicon,
  score it and rank it;
- storing a position (solving it once to record its top play for the filters).

Run: python scripts/bench_positions.py [--games N] [--home DIR]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
GCG = ROOT / "tests" / "data" / "gcg"


def median_ms(samples: list[float]) -> str:
    ordered = sorted(samples)
    return (f"{statistics.median(samples) * 1000:7.2f} ms  (p90 {ordered[int(len(ordered) * 0.9)] * 1000:.1f} ms, "
            f"{len(samples)} positions)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="self-play games to take positions from")
    parser.add_argument("--home", help="data folder (default: a temporary one; ENABLE is compiled there)")
    args = parser.parse_args()
    os.environ["LEXITRAIN_HOME"] = args.home or tempfile.mkdtemp(prefix="lexitrain-bench-")

    from lexitrain.engine.dawg import dawg_for
    from lexitrain.lexicon.catalog import open_lexicon
    from lexitrain.study.drills import positions as pos
    from lexitrain.study.quiz.kinds.base import new_kind
    from lexitrain.study.quiz.kinds.position import PositionKind, judge
    from lexitrain.study.quiz.scheduler import utc_now
    from lexitrain.study.store import ProgressStore

    lex = open_lexicon("enable")
    kind = new_kind("position")  # a session's instance, with its cache of solved positions
    assert isinstance(kind, PositionKind)
    dawg_for(lex)  # built and cached once, as after the first quiz
    with ProgressStore() as store:
        report = pos.ImportReport()
        started = time.perf_counter()
        found = pos.from_self_play(lex, args.games, seed=1)
        games = sorted(GCG.glob("*.gcg"))[:4]
        found += pos.from_games(lex, games, report)
        per_store = (time.perf_counter() - started) / max(1, len(found))
        pos.store_positions(store, lex, found, report)
        keys = [p.cgp for p in pos.select(store, lex.name, pos.Filters(), utc_now().timestamp())]

        prepare: list[float] = []
        answer: list[float] = []
        for key in keys:
            started = time.perf_counter()
            nxt = pos.select(store, lex.name, pos.Filters(), utc_now().timestamp(), limit=1)
            question = kind.build(lex, key)
            solved = kind.solved(question)
            question.to_json(), solved.top()
            prepare.append(time.perf_counter() - started)
            assert nxt
            started = time.perf_counter()
            judge(solved, question.expected[0])
            answer.append(time.perf_counter() - started)

    load = os.getloadavg()[0]
    print(f"ENABLE, {len(keys)} positions ({args.games} self-play games, {len(games)} recorded games); "
          f"load average {load:.1f} on {os.cpu_count()} cores")
    print(f"prepare next position question (top 5 ready): {median_ms(prepare)}")
    print(f"judge an answer (rules, lexicon, score, rank):  {median_ms(answer)}")
    print(f"solve and describe a position when storing:    {per_store * 1000:7.2f} ms  (mean)")


if __name__ == "__main__":
    main()
