"""Benchmark the pre-endgame solver on the real games, with 1 and 2 processes.

Positions: in each English game of tests/data/gcg (one per game, the same
board and rack only once), the first turn with one tile in the bag (eight
unseen tiles), then the first with two (nine), at the game's real spread:
every play and the pass against every way the bag may fall. Each position is
solved with `--threads 1` and then 2 (interleaved, position by position, so
both see the same load), each with a wall-clock limit (as a player waits).

Per position and thread count: the candidates, when the candidate winning
the most draws was proved and when the first was proved best (or NOT within
the limit), the first, the wall and CPU time (the workers' included). Then,
per thread count, how many were proved best and the total wall time (a
position not proved counted as the limit), the ratio of the totals, and
whether every report both finished is the same with 2 processes as with 1
(a difference is named and makes the exit status 1). The load is printed at
the start and the end: figures taken while others run are slower than a
quiet machine's, and the ratio needs a second free core.

The first one-tile position of noah_vs_peter (spread +40) is the issue's:
the solver once chose ED (+10.5, every draw won) over a play worth +18.0
that also wins every draw. `--issue` solves it alone and prints its first
three candidates.

    python scripts/bench_preendgame.py [--one 5] [--skip 0] [--two 3] [--limit 60] [--threads 1 2] [--issue]

(`--skip 15 --one 10` takes the one-tile positions whose wins were proved within 25 s at load 12-17.)
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from lexitrain.engine.dawg import dawg_for  # noqa: E402
from lexitrain.engine.movegen import MoveGenerator  # noqa: E402
from lexitrain.engine.preendgame import PreEndgame, solve_preendgame  # noqa: E402
from lexitrain.lexicon.catalog import open_lexicon  # noqa: E402
from lexitrain.tiles import RACK_SIZE  # noqa: E402
from tests.engine_helpers import recorded_endgames  # noqa: E402  (the tests' real positions)

GAMES = ROOT / "tests" / "data" / "gcg"
ISSUE = "noah_vs_peter"


def cpu_seconds() -> float:
    """This process's CPU time and its finished workers'."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def facts(result: PreEndgame) -> list[object]:
    """What a report says, its times aside."""
    return [(o.play, o.draws) for o in result.plays] + [result.exact, result.wins_proved,
                                                        [o.play for o in result.unproved]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--one", type=int, default=5, help="one-tile-in-the-bag positions")
    parser.add_argument("--two", type=int, default=3, help="two-tiles-in-the-bag positions")
    parser.add_argument("--skip", type=int, default=0, help="one-tile-in-the-bag positions to skip first")
    parser.add_argument("--limit", type=float, default=60.0, help="seconds (wall) per position and thread count")
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--issue", action="store_true", help="the issue's position alone, no time limit")
    args = parser.parse_args()
    print("load at start: {:.2f} {:.2f} {:.2f} (1, 5, 15 min), {} cores".format(*os.getloadavg(), os.cpu_count() or 1))
    lex = open_lexicon("enable")
    generator = MoveGenerator(dawg_for(lex))
    positions = []
    for in_bag, count in ((1, args.one), (2, args.two)):
        found = [p for p in recorded_endgames(GAMES, lex.tiles, in_bag) if p[3].size == RACK_SIZE + in_bag]
        if args.issue:
            found = [p for p in found if ISSUE in p[0]] if in_bag == 1 else []
        skip = args.skip if in_bag == 1 else 0
        positions += [(in_bag, *p) for p in found[skip: skip + count]]
    totals: dict[int, list[float]] = {n: [] for n in args.threads}
    proved: dict[int, int] = {n: 0 for n in args.threads}
    differ: list[str] = []
    limit = None if args.issue else args.limit
    for in_bag, name, board, mine, unseen, spread in positions:
        reports = {}
        for threads in args.threads:
            started, cpu = time.monotonic(), cpu_seconds()
            result = solve_preendgame(board, mine, unseen, generator, limit, spread, in_bag=in_bag,
                                      threads=threads)
            wall, cpu = time.monotonic() - started, cpu_seconds() - cpu
            reports[threads] = result
            totals[threads].append(wall if result.exact or limit is None else limit)
            proved[threads] += int(result.exact)
            first = result.plays[0] if result.plays else None
            wins = f"wins proved {result.wins_seconds:6.2f} s" if result.wins_seconds is not None else \
                "wins NOT proved    "
            best = f"best proved {result.seconds:6.2f} s" if result.exact else "best NOT proved    "
            print(f"{in_bag} in bag {name[:38]:<38} spread {spread:+4d} {result.candidates:5,d} candidates "
                  f"threads {threads}: {wins} {best} wall {wall:6.2f} s cpu {cpu:6.2f} s first "
                  f"{first.describe(lex.tiles) if first else '-'} {first.wins if first else 0:g}/"
                  f"{first.unseen if first else 0} {first.expected if first else 0:+.2f}", flush=True)
            if args.issue:
                for o in result.plays[:3]:
                    print(f"    {o.describe(lex.tiles):<16} wins {o.wins:g}/{o.unseen} expected {o.expected:+.2f} "
                          f"{'exact' if o.exact else 'not exact'}")
        done = [n for n, r in reports.items() if limit is None or r.seconds < limit]
        if len(done) > 1 and any(facts(reports[n]) != facts(reports[done[0]]) for n in done[1:]):
            differ.append(name)
    print(f"\n{len(positions)} positions, limit {limit} s each (wall), real spreads")
    for threads in args.threads:
        print(f"threads {threads}: best proved in {proved[threads]} of {len(positions)}, total "
              f"{sum(totals[threads]):.1f} s (not proved counted as the limit), median "
              f"{statistics.median(totals[threads]) if totals[threads] else 0:.2f} s")
    fewest, most = sum(totals[args.threads[0]]), sum(totals[args.threads[-1]])
    if len(args.threads) > 1 and most > 0:
        print(f"ratio of totals, {args.threads[0]} thread(s) over {args.threads[-1]}: {fewest / most:.2f}x")
    print("reports equal whatever the threads, where both finished: "
          + ("yes" if not differ else "NO -- " + ", ".join(differ)))
    print("load at end: {:.2f} {:.2f} {:.2f} (1, 5, 15 min)".format(*os.getloadavg()))
    if differ:
        sys.exit(1)


if __name__ == "__main__":
    main()
