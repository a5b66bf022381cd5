"""How fast does the engine play itself? Games per second of the equity
player, on one core and on the whole machine.

Two ways to play the same games (the same seeds give the same games, see
tests/test_engine_selfplay.py): the reference, game.self_play with
equity.EquityPlayer over the compiled move generator's full list of plays,
and fast self-play (engine/selfplay.py), where the compiled search returns
only the best move. Both value leaves by the same table (the shipped one,
or the 40-feature model's values when none is shipped). Prints the median
of --repeats runs of each, the ratio, and the load average, which matters
on a shared machine.

    python scripts/bench_selfplay.py [--games 400] [--reference-games 60] [--repeats 3] [--jobs N] [--lexicon enable]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lexitrain.engine.board import Board  # noqa: E402
from lexitrain.engine.dawg import dawg_for  # noqa: E402
from lexitrain.engine.equity import EquityPlayer  # noqa: E402
from lexitrain.engine.game import self_play  # noqa: E402
from lexitrain.engine.leave import load_leave_model  # noqa: E402
from lexitrain.engine.leave_table import load_leaves  # noqa: E402
from lexitrain.engine.leave_table import LeaveTable  # noqa: E402
from lexitrain.engine.movegen import MoveGenerator  # noqa: E402
from lexitrain.engine.selfplay import SelfPlayer  # noqa: E402
from lexitrain.lexicon.catalog import open_lexicon  # noqa: E402

_worker: dict = {}


def _start(lexicon: str) -> None:
    lex = open_lexicon(lexicon)
    leaves = load_leaves(lex.tiles)
    table = leaves if isinstance(leaves, LeaveTable) else LeaveTable.from_model(load_leave_model(lex.tiles))
    generator = MoveGenerator(dawg_for(lex))
    _worker.update(lex=lex, table=table, generator=generator, fast=SelfPlayer(generator, lex.layout, table),
                   reference=EquityPlayer(table))


def _games(task: tuple[str, range]) -> tuple[int, float]:
    """Play the games; how many, and the CPU seconds this process spent on them."""
    way, seeds = task
    lex = _worker["lex"]
    cpu = time.process_time()
    for seed in seeds:
        if way == "fast":
            _worker["fast"].play(seed)
        else:
            self_play(Board(lex.layout, lex.tiles), _worker["generator"], seed, policies=(_worker["reference"],))
    return len(seeds), time.process_time() - cpu


def rate(pool: Pool, way: str, games: int, jobs: int) -> tuple[float, float]:
    """Games per second of the clock, and per CPU second of one process (what an idle core would
    give, near enough, on a machine too busy for the clock to say), the games split into one task per job."""
    step = -(-games // jobs)
    tasks = [(way, range(i, min(i + step, games))) for i in range(0, games, step)]
    start = time.perf_counter()
    done = pool.map(_games, tasks)
    played = sum(n for n, _ in done)
    return played / (time.perf_counter() - start), played / sum(cpu for _, cpu in done)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="fast games per run")
    parser.add_argument("--reference-games", type=int, default=60, help="reference games per run")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes for the machine's figure")
    parser.add_argument("--lexicon", default="enable")
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} cores")
    results: dict[tuple[str, int], float] = {}
    for jobs in sorted({1, args.jobs}):
        with Pool(jobs, _start, (args.lexicon,)) as pool:
            pool.map(_games, [("fast", range(1))] * jobs)  # warm every worker
            for way, games in (("reference", args.reference_games), ("fast", args.games)):
                runs = [rate(pool, way, games * jobs, jobs) for _ in range(args.repeats)]
                results[way, jobs] = statistics.median(r[0] for r in runs)
                per_cpu = statistics.median(r[1] for r in runs)
                print(f"{way:9} {jobs} process{'es' if jobs > 1 else ''}: median {results[way, jobs]:6.1f} games/s "
                      f"(runs {', '.join(f'{r[0]:.1f}' for r in runs)}); {per_cpu:.1f} games per CPU second "
                      f"of a process", flush=True)
    for jobs in sorted({1, args.jobs}):
        print(f"fast / reference on {jobs}: {results['fast', jobs] / results['reference', jobs]:.1f}x; "
              f"per 1,000 games: {1000 / results['fast', jobs]:.1f} s")
    if args.jobs > 1:
        print(f"fast, {args.jobs} processes / 1: {results['fast', args.jobs] / results['fast', 1]:.2f}x")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
