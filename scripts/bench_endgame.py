"""Benchmark the endgame solver on endgames of the real games.

Positions: in each English game of tests/data/gcg (one per game, the same
board and racks only once), the first turn with the bag empty: the recorded
rack of the side to move, the opponent holding every unseen tile. The first
40 are solved one after another, each with a time limit (60 s, MAGPIE's
figure in issue 24), by the compiled search unless `--engine python`.
Prints each position's time, whether it was proved, its value and nodes;
then how many were solved within the limit, the median over those solved
and over all (a position not solved counts as the limit), the worst, the
total, and whether every value proved equals the one the previous exact
solver proved (scripts/bench_endgame_reference.json; a difference is named
and makes the exit status 1).

The pre-endgame (one or two tiles in the bag) has its own benchmark,
scripts/bench_preendgame.py (what `--preendgame N --skip K` timed here is its
`--one N --skip K --two 0 --threads 1`).

`--threads 1 2` solves each position with one thread, then with two (one
after the other, position by position, so both see the same load), and prints
the figures for each, the ratio of their totals (unsolved counted as the
limit) and whether every value proved with two threads equals one thread's
(a difference is named and makes the exit status 1).

The limit is wall-clock time, as a player waits; each position's CPU time is
printed beside it. The machine's load is printed at the start and the end:
figures taken while others run are slower than a quiet machine's.

    python scripts/bench_endgame.py [--games DIR] [--count 40] [--limit 60] [--engine compiled|python]
                                    [--threads 1 2]
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from lexitrain.engine.dawg import dawg_for  # noqa: E402
from lexitrain.engine.endgame import Endgame, solve  # noqa: E402
from lexitrain.engine.movegen import MoveGenerator  # noqa: E402
from lexitrain.lexicon.catalog import open_lexicon  # noqa: E402
from tests.engine_helpers import recorded_endgames  # noqa: E402  (the tests' real endgames)

DEFAULT_GAMES = ROOT / "tests" / "data" / "gcg"
REFERENCE = Path(__file__).with_name("bench_endgame_reference.json")


@dataclass
class Run:
    """One thread count's figures."""

    times: list[float] = field(default_factory=list)  # wall time, an unsolved position counted as the limit
    solved: list[float] = field(default_factory=list)
    cpus: list[float] = field(default_factory=list)
    compared: int = 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=Path, default=DEFAULT_GAMES)
    parser.add_argument("--count", type=int, default=40, help="endgames to solve")
    parser.add_argument("--limit", type=float, default=60.0, help="seconds allowed each")
    parser.add_argument("--engine", default="compiled", choices=("compiled", "python"))
    parser.add_argument("--threads", type=int, nargs="+", default=[1], help="thread counts to solve each with")
    args = parser.parse_args()
    print("load at start: {:.2f} {:.2f} {:.2f} (1, 5, 15 min), {} cores".format(*os.getloadavg(), os.cpu_count()))
    lex = open_lexicon("enable")
    generator = MoveGenerator(dawg_for(lex))
    positions = recorded_endgames(args.games, lex.tiles, 0)[: args.count]
    reference = json.loads(REFERENCE.read_text())["values"]
    runs = {n: Run() for n in args.threads}
    differ = []
    for name, board, mine, theirs, _ in positions:
        values = {}
        for threads, run in runs.items():
            started, cpu = time.monotonic(), time.process_time()
            solution = solve(Endgame(board, (mine, theirs)), generator, args.limit, engine=args.engine,
                             threads=threads)
            spent, cpu = time.monotonic() - started, time.process_time() - cpu
            run.times.append(spent if solution.exact else args.limit)
            run.cpus.append(cpu)
            if solution.exact:
                run.solved.append(spent)
                values[threads] = solution.value
                if name in reference:
                    run.compared += 1
                    if reference[name] != solution.value:
                        differ.append(f"{name} ({threads} threads): {solution.value:+d}, "
                                      f"the previous solver {reference[name]:+d}")
            first = solution.play
            play = f"{first.position} {first.word(lex.tiles)}" if first is not None else "(pass)"
            print(f"{name[:48]:<48} {mine.size}v{theirs.size} {threads}t {spent:7.2f} s (cpu {cpu:6.2f} s) "
                  f"{'exact' if solution.exact else 'NOT  '} "
                  f"value {solution.value:+4d} depth {solution.depth:2d} nodes {solution.nodes:>9,} {play}",
                  flush=True)
        if len(set(values.values())) > 1:
            differ.append(f"{name}: " + ", ".join(f"{n} threads {v:+d}" for n, v in values.items()))
    for threads, run in runs.items():
        print(f"\n{len(positions)} endgames (bag empty), {args.engine} search, {threads} thread(s), "
              f"limit {args.limit:.0f} s each")
        print(f"solved within the limit: {len(run.solved)} of {len(positions)}")
        if run.solved:
            print(f"median among those solved: {statistics.median(run.solved):.2f} s, "
                  f"worst solved {max(run.solved):.2f} s")
        if run.times:
            print(f"median over all (unsolved counted as {args.limit:.0f} s): {statistics.median(run.times):.2f} s")
            print(f"total (unsolved counted as {args.limit:.0f} s): {sum(run.times):.1f} s")
            print(f"CPU time (this process's share of the machine): median {statistics.median(run.cpus):.2f} s, "
                  f"worst {max(run.cpus):.2f} s, total {sum(run.cpus):.1f} s")
        print(f"values equal to the previous exact solver's: {run.compared} compared")
    if len(runs) > 1:
        base = runs[args.threads[0]]
        for threads, run in runs.items():
            if run is not base and sum(run.times):
                print(f"total time, {args.threads[0]} thread(s) / {threads}: "
                      f"{sum(base.times) / sum(run.times):.2f}x")
    print("every value proved equal (to the previous solver's, and across thread counts)" if not differ
          else "DIFFERENT: " + "; ".join(differ))
    print("load at end: {:.2f} {:.2f} {:.2f} (1, 5, 15 min)".format(*os.getloadavg()))
    if differ:
        sys.exit(1)


if __name__ == "__main__":
    main()
