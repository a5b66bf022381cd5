"""How fast does the engine play itself? Games per second of the equity
player, on one core and on the whole machine.

Two ways to play the same games (the same seeds give the same games, see
tests/test_engine_selfplay.py): the reference, game.self_play with
equity.EquityPlayer over the compiled move generator's full list of plays,
and fast self-play (engine/selfplay.py), where the compiled search plays
the whole game, choosing only the best move each turn. Both value leaves by the same table (the shipped one,
or the 40-feature model's values when none is shipped). Prints the median
of --repeats runs of each, the ratio, and the load average, which matters
on a shared machine.

With --magpie DIR, fast self-play on one process is also run side by side with MAGPIE's (`autoplay`, its
static equity player on both sides, one thread; a build of its public source and the data
scripts/magpie_data.py writes from ours, so both play with the same words and leave values), its word map
on and off, the runs interleaved, each engine's games per CPU second (MAGPIE's less the CPU of a process
that only loads its data) and ours over MAGPIE's.

    python scripts/bench_selfplay.py [--games 400] [--reference-games 60] [--repeats 3] [--jobs N] [--lexicon enable]
                                     [--magpie DIR]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lexitrain.children import usable_cores  # noqa: E402
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
from magpie_data import magpie_name  # noqa: E402

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


def magpie_rate(root: Path, lexicon: str, games: int, word_map: bool, seed: int) -> float:
    """MAGPIE's autoplay games per CPU second (its process's, less one that only loads the data)."""
    settings = (f"set -lex {magpie_name(lexicon)} -mode sync -savesettings false -wmp {str(word_map).lower()} "
                "-threads 1").split()

    def cpu(script: str) -> float:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([str(root / "bin" / "magpie"), *settings], input=script, cwd=root, capture_output=True,
                       text=True, timeout=3600, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime

    loading = cpu("")
    return games / max(cpu(f"autoplay games {games} -seed {seed}\n") - loading, 1e-9)


def against_magpie(root: Path, args: argparse.Namespace) -> None:
    """Fast self-play on one process and MAGPIE's autoplay (word map on and off), interleaved: games per CPU
    second each, and the ratios of the medians."""
    word_map = root / "data" / "lexica" / f"{magpie_name(args.lexicon)}.wmp"
    if not (root / "bin" / "magpie").exists() or not word_map.exists():
        print(f"MAGPIE is not built at {root} (bin/magpie and data/ from scripts/magpie_data.py)")
        return
    figures: dict[str, list[float]] = {"ours": [], "MAGPIE, word map": [], "MAGPIE, no word map": []}
    with Pool(1, _start, (args.lexicon,)) as pool:
        pool.map(_games, [("fast", range(1))])
        for k in range(args.repeats):
            figures["ours"].append(rate(pool, "fast", args.games, 1)[1])
            figures["MAGPIE, word map"].append(magpie_rate(root, args.lexicon, args.games, True, k + 1))
            figures["MAGPIE, no word map"].append(magpie_rate(root, args.lexicon, args.games, False, k + 1))
    medians = {name: statistics.median(runs) for name, runs in figures.items()}
    for name, runs in figures.items():
        print(f"{name:20} one process: median {medians[name]:6.1f} games per CPU second "
              f"(runs {', '.join(f'{r:.1f}' for r in runs)})")
    print(f"ours over MAGPIE as it ships (word map): {medians['ours'] / medians['MAGPIE, word map']:.2f}x; "
          f"over MAGPIE without its word map: {medians['ours'] / medians['MAGPIE, no word map']:.2f}x; "
          f"load {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="fast games per run")
    parser.add_argument("--reference-games", type=int, default=60, help="reference games per run")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=usable_cores(), help="processes for the machine's figure")
    parser.add_argument("--lexicon", default="enable")
    parser.add_argument("--magpie", type=Path, default=None,
                        help="a MAGPIE checkout with bin/magpie built and data/ from scripts/magpie_data.py")
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
    if args.magpie is not None:
        against_magpie(args.magpie, args)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
