"""Benchmark making the analysed position cards: the simulation of a `best-play` card and
every first play's exact value of an `endgame` card, as `study from-games` makes them.

Positions: the real games of tests/data/gcg (English ones; a position met twice counted once), per game the first turn with
38 to 56 tiles in the bag (simulated: 15 candidates, 2 plies, `--iterations`, seed 1)
and every turn with the bag empty (solved, `--limit` seconds each, the opponent holding
the unseen tiles), `--count` of each at most. Prints each position's wall and CPU time and
what it gave (a card or not), then medians; the machine's load at the start and the end
(figures taken while others run are slower than a quiet machine's).

    python scripts/bench_analysed.py [--count 10] [--iterations 300] [--limit 30]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from lexitrain.engine.cgp import Position, to_cgp  # noqa: E402
from lexitrain.engine.dawg import dawg_for  # noqa: E402
from lexitrain.engine.exchanges import unseen_tiles  # noqa: E402
from lexitrain.engine.gcg import read_gcg  # noqa: E402
from lexitrain.engine.movegen import MoveGenerator  # noqa: E402
from lexitrain.engine.replay import replay  # noqa: E402
from lexitrain.lexicon.catalog import open_lexicon  # noqa: E402
from lexitrain.study.quiz.kinds.analysed import bag_count, simulate_position, solve_endgame  # noqa: E402
from lexitrain.tiles import Rack  # noqa: E402

GAMES = ROOT / "tests" / "data" / "gcg"


def positions(lex, count: int) -> tuple[list[tuple[str, Position]], list[tuple[str, Position]]]:
    """(mid-game positions, endgame positions) of the real games, `count` of each at most."""
    mid: list[tuple[str, Position]] = []
    end: list[tuple[str, Position]] = []
    seen: set[str] = set()  # the same position in two files (a game and its annotated copy) counts once
    for path in sorted(GAMES.glob("*.gcg")):
        if "polish" in path.name or (len(mid) >= count and len(end) >= count):
            continue
        took_mid = False
        for number, turn in enumerate(replay(read_gcg(path), lex.tiles), start=1):
            rack = turn.rack.upper()
            if not rack or not all(ch == "?" or ch in lex.tiles.letters for ch in rack):
                continue
            position = Position(turn.board.copy(), [rack, ""], list(turn.scores))
            if to_cgp(position) in seen:
                continue
            seen.add(to_cgp(position))
            bag = bag_count(position)
            if 38 <= bag <= 56 and not took_mid and len(mid) < count:
                mid.append((f"{path.name[:40]} turn {number}", position))
                took_mid = True
            elif bag == 0 and len(end) < count:
                mine = Rack.parse(lex.tiles, rack)
                position.racks[1] = lex.tiles.spell(unseen_tiles(position.board, mine).names())
                if position.racks[1]:
                    end.append((f"{path.name[:40]} turn {number}", position))
    return mid, end


def timed(work):
    wall, cpu = time.perf_counter(), time.process_time()
    result = work()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--limit", type=float, default=30.0)
    args = parser.parse_args()
    print(f"load at start: {os.getloadavg()}")
    lex = open_lexicon("enable")
    generator = MoveGenerator(dawg_for(lex))
    mid, end = positions(lex, args.count)
    sims: list[tuple[float, float]] = []
    for where, position in mid:
        analysis, wall, cpu = timed(lambda: simulate_position(lex, position, generator, args.iterations))
        sims.append((wall, cpu))
        card = f"card: {analysis['best'][0]}" if analysis else "no card (the best play scores the most)"
        print(f"sim  {where:<52} {wall:6.2f} s wall {cpu:6.2f} s cpu  {card}", flush=True)
    solves: list[tuple[float, float, bool]] = []
    for where, position in end:
        analysis, wall, cpu = timed(lambda: solve_endgame(position, generator, args.limit))
        solves.append((wall, cpu, analysis is not None))
        made = f"card: {len(analysis['values'])} first plays valued" if analysis else "not solved in time"
        print(f"end  {where:<52} {wall:6.2f} s wall {cpu:6.2f} s cpu  {position.rack} v {position.racks[1]}: "
              f"{made}", flush=True)
    if sims:
        print(f"simulation, {args.iterations} iterations: median {statistics.median(w for w, _ in sims):.2f} s wall, "
              f"{statistics.median(c for _, c in sims):.2f} s cpu ({len(sims)} positions)")
    if solves:
        solved = [(w, c) for w, c, ok in solves if ok]
        print(f"endgames: {len(solved)} of {len(solves)} valued exactly within {args.limit:g} s"
              + (f", median {statistics.median(w for w, _ in solved):.2f} s wall, "
                 f"{statistics.median(c for _, c in solved):.2f} s cpu among those" if solved else ""))
    print(f"load at end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
