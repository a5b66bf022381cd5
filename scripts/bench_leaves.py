"""Which values leaves better: the exhaustive table or the 40-feature model?

Head to head in fast self-play (engine/selfplay.py): game i (seed i) is
played twice, the table's player moving first in one and second in the
other, so both sides get the same racks; the model is turned into a table of
its own values, so the two players differ in their leave values alone.
Prints the table player's wins (a tie counts half), the win rate with its
standard error (over game pairs, which are not independent of each other's
draws), the mean spread, games per second and the load average.

    python scripts/bench_leaves.py [--games 2000] [--jobs N] [--table FILE] [--lexicon enable] [--seed 0]
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lexitrain.children import usable_cores  # noqa: E402
from lexitrain.engine.dawg import dawg_for  # noqa: E402
from lexitrain.engine.leave import load_leave_model  # noqa: E402
from lexitrain.engine.leave_table import LeaveTable, load_table, table_path  # noqa: E402
from lexitrain.engine.movegen import MoveGenerator  # noqa: E402
from lexitrain.engine.selfplay import SelfPlayer  # noqa: E402
from lexitrain.lexicon.catalog import open_lexicon  # noqa: E402

CHUNK = 50
_worker: dict = {}


def _start(lexicon: str, table: Path, model_table: LeaveTable) -> None:
    lex = open_lexicon(lexicon)
    model = load_leave_model(lex.tiles)
    _worker.update(player=SelfPlayer(MoveGenerator(dawg_for(lex)), lex.layout, load_table(table, model)),
                   model=model_table)


def _pairs(seeds: range) -> list[tuple[float, int]]:
    """Per seed: the table player's points (1 a win, 0.5 a tie) over its two games, and its total spread."""
    player, model = _worker["player"], _worker["model"]
    out = []
    for seed in seeds:
        first = player.play(seed, second=model)  # the table moves first
        spread_first = first.scores[0] - first.scores[1]
        swapped = SelfPlayer(player.generator, player.layout, model).play(seed, second=player.table)
        spread_second = swapped.scores[1] - swapped.scores[0]
        points = sum(1.0 if s > 0 else 0.5 if s == 0 else 0.0 for s in (spread_first, spread_second))
        out.append((points, spread_first + spread_second))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games in all (pairs of games on the same seed)")
    parser.add_argument("--jobs", type=int, default=usable_cores())
    parser.add_argument("--table", type=Path, help="the table to measure (default: the shipped one)")
    parser.add_argument("--lexicon", default="enable")
    parser.add_argument("--seed", type=int, default=10**6, help="first game seed (away from the training seeds)")
    args = parser.parse_args()
    lex = open_lexicon(args.lexicon)
    table = args.table or table_path(lex.tiles)
    model_table = LeaveTable.from_model(load_leave_model(lex.tiles))
    load = os.getloadavg()
    pairs = args.games // 2
    tasks = [range(args.seed + i, args.seed + min(i + CHUNK, pairs)) for i in range(0, pairs, CHUNK)]
    start = time.perf_counter()
    with Pool(args.jobs, _start, (args.lexicon, table, model_table)) as pool:
        results = [r for chunk in pool.map(_pairs, tasks) for r in chunk]
    seconds = time.perf_counter() - start
    rates = [points / 2 for points, _ in results]
    mean = sum(rates) / len(rates)
    error = math.sqrt(sum((r - mean) ** 2 for r in rates) / (len(rates) - 1) / len(rates))
    spread = sum(s for _, s in results) / (2 * len(results))
    wins = sum(points for points, _ in results)
    print(f"table {table.name} vs the 40-feature model, {2 * len(results)} games ({len(results)} seeds, each side "
          f"first once): table wins {wins:g} ({100 * mean:.1f}% +- {100 * error:.1f}%, one standard error), "
          f"mean spread {spread:+.1f} per game")
    print(f"{2 * len(results) / seconds:.0f} games/s on {args.jobs} processes; load average before "
          f"{' '.join(f'{x:.2f}' for x in load)}, after {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
