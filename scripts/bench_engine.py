"""Benchmark the move generator: structure build/load, per-position times.

Positions: every turn of the real games in tests/data/gcg (board before
the turn, recorded rack; English games only, as the lexicon is ENABLE) plus
positions from seeded greedy self-play. Prints medians; run it a few times
on a quiet machine.

    python scripts/bench_engine.py [--games DIR] [--selfplay N] [--cli-runs N] [--passes N]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lexitrain.engine import dawg as dawg_module  # noqa: E402
from lexitrain.engine.board import Board  # noqa: E402
from lexitrain.engine.cgp import Position, to_cgp  # noqa: E402
from lexitrain.engine.game import self_play  # noqa: E402
from lexitrain.engine.gcg import read_gcg  # noqa: E402
from lexitrain.engine.movegen import MoveGenerator  # noqa: E402
from lexitrain.engine.replay import replay  # noqa: E402
from lexitrain.lexicon.lexicon import open_lexicon  # noqa: E402
from lexitrain.tiles import Rack  # noqa: E402

DEFAULT_GAMES = Path(__file__).resolve().parents[1] / "tests" / "data" / "gcg"
#: the issue's ceilings per number of blanks (one blank has none; 150 ms is shown for it)
LIMITS = {0: 0.010, 1: 0.150, 2: 0.150}


def real_positions(folder: Path, tiles) -> list[tuple[Board, str]]:
    out = []
    for path in sorted(folder.glob("*.gcg")):
        game = read_gcg(path)
        try:
            turns = replay(game, tiles)
        except Exception:  # noqa: BLE001 - a game in another alphabet (the Polish one)
            continue
        for turn in turns:
            rack = turn.rack.upper()
            if rack and all(ch == "?" or ch in tiles.letters for ch in rack):
                out.append((turn.board, rack))
    return out


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=Path, default=DEFAULT_GAMES)
    parser.add_argument("--selfplay", type=int, default=20, help="self-play games (seeds 1..N)")
    parser.add_argument("--cli-runs", type=int, default=7)
    parser.add_argument("--passes", type=int, default=1, help="time every position once per pass; keep each one's median")
    args = parser.parse_args()

    lex = open_lexicon("enable")
    tiles = lex.tiles
    t = time.perf_counter()
    dawg = dawg_module.dawg_from_codes(lex.trie.keys(), tiles, "enable")
    build = time.perf_counter() - t
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / dawg_module.FILE_NAME
        dawg_module.save(dawg, path)
        loads = []
        for _ in range(5):
            t = time.perf_counter()
            dawg_module.load(path, tiles, "enable")
            loads.append(time.perf_counter() - t)
        size = path.stat().st_size
    print(f"DAWG build: {build:.2f} s ({dawg.nodes:,} nodes, {dawg.edges:,} edges, {size / 1e6:.1f} MB)")
    print(f"DAWG load from cache: median {ms(statistics.median(loads))} (5 runs)")

    # one generator for the whole run, as a quiz session keeps one
    generator = MoveGenerator(dawg)
    positions = [(b, r, "game") for b, r in real_positions(args.games, tiles)] if args.games.is_dir() else []
    for seed in range(1, args.selfplay + 1):
        _, snaps = self_play(Board(lex.layout, tiles), generator, seed=seed)
        positions.extend((s.board, s.rack, "self-play") for s in snaps)

    # Each pass times every position once, in order, as a quiz session would
    # meet them; with --passes N a position's time is its median over the N
    # passes, which keeps a moment of noise on a shared machine from posing
    # as that position's cost. CPU time is the fairer figure there too.
    walls: list[list[float]] = [[] for _ in positions]
    cpus: list[list[float]] = [[] for _ in positions]
    counts = [0] * len(positions)
    for _ in range(args.passes):
        for n, (board, rack, _kind) in enumerate(positions):
            t, c = time.perf_counter(), time.process_time()
            plays = generator.plays(board, Rack.parse(tiles, rack, in_play=True))
            walls[n].append(time.perf_counter() - t)
            cpus[n].append(time.process_time() - c)
            counts[n] = len(plays)
            del plays
    total_plays = sum(counts)
    # (wall seconds, CPU seconds, blanks, kind, board, rack)
    times = [
        (statistics.median(w), statistics.median(c), rack.count("?"), kind, board, rack)
        for w, c, (board, rack, kind) in zip(walls, cpus, positions)
    ]
    games = sum(x[3] == "game" for x in times)
    print(f"positions: {len(times)} ({games} from real games, {len(times) - games} from self-play)")
    for label, col in (("wall", 0), ("CPU", 1)):
        all_t = sorted(x[col] for x in times)
        print(f"generation ({label}): median {ms(statistics.median(all_t))}, "
              f"90th pct {ms(all_t[int(len(all_t) * 0.9)])}, worst {ms(all_t[-1])}")
        for blanks in (0, 1, 2):
            sub = [x for x in times if x[2] == blanks]
            if sub:
                worst = max(sub, key=lambda x: x[col])
                print(f"  {blanks} blank(s): {len(sub)} positions, median {ms(statistics.median(x[col] for x in sub))}, "
                      f"worst {ms(worst[col])} (rack {worst[5]}, {worst[4].tile_count()} tiles on board), "
                      f"{sum(x[col] > LIMITS[blanks] for x in sub)} over {ms(LIMITS[blanks])}")
    total = sum(x[1] for x in times)
    print(f"plays/second (CPU): {total_plays / total:,.0f} ({total_plays:,} plays in {total:.2f} s"
          + (f", median of {args.passes} passes per position)" if args.passes > 1 else ")"))

    if args.cli_runs:
        mid = [x for x in times if x[2] == 0 and 20 <= x[4].tile_count() <= 40]
        board, rack = (mid[len(mid) // 2][4], mid[len(mid) // 2][5]) if mid else (times[0][4], times[0][5])
        cgp = to_cgp(Position(board, [rack, ""], [0, 0], 0))
        runs = []
        for _ in range(args.cli_runs):
            t = time.perf_counter()
            subprocess.run([sys.executable, "-m", "lexitrain", "best", "--cgp", cgp, "--json"], check=True,
                           capture_output=True, cwd=Path(__file__).resolve().parents[1])
            runs.append(time.perf_counter() - t)
        print(f"whole process `lexitrain best` (mid-game, {board.tile_count()} tiles, rack {rack}): "
              f"median {ms(statistics.median(runs))} over {len(runs)} runs")


if __name__ == "__main__":
    main()
