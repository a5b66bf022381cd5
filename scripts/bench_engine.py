"""Benchmark the move generator: the compiled and the pure Python search on
the same positions in one run, the word graph's build and load, and the
whole `lexitrain best` process (time and peak memory).

Positions: every turn of the real games in tests/data/gcg (board before the
turn, recorded rack; English games only, as the lexicon is ENABLE) plus
positions from seeded greedy self-play. Each pass times every position once
with each search, interleaved, so a moment of load on a shared machine
hits both; a position's figure is its median over the passes (CPU time).

    python scripts/bench_engine.py [--games DIR] [--selfplay N] [--passes N] [--cli-runs N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from lexitrain.engine import movegen  # noqa: E402
from lexitrain.engine.board import Board  # noqa: E402
from lexitrain.engine.cgp import Position, to_cgp  # noqa: E402
from lexitrain.engine.dawg import dawg_for  # noqa: E402
from lexitrain.engine.game import self_play  # noqa: E402
from lexitrain.engine.gcg import read_gcg  # noqa: E402
from lexitrain.engine.movegen import MoveGenerator  # noqa: E402
from lexitrain.engine.replay import replay  # noqa: E402
from lexitrain.lexicon import graph  # noqa: E402
from lexitrain.lexicon.catalog import open_lexicon  # noqa: E402
from lexitrain.tiles import Rack  # noqa: E402

DEFAULT_GAMES = ROOT / "tests" / "data" / "gcg"


def real_positions(folder: Path, tiles) -> list[tuple[Board, str]]:
    out = []
    for path in sorted(folder.glob("*.gcg")):
        if "polish" in path.name:
            continue  # Polish tiles: not an ENABLE position
        for turn in replay(read_gcg(path), tiles):
            rack = turn.rack.upper()
            if rack and all(ch == "?" or ch in tiles.letters for ch in rack):
                out.append((turn.board, rack))
    return out


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def cpu_median(run, times: int = 5) -> float:
    spent = []
    for _ in range(times):
        c = time.process_time()
        run()
        spent.append(time.process_time() - c)
    return statistics.median(spent)


#: runs `lexitrain ARGS` and reports its memory high-water mark on stderr at exit
#: (VmHWM of its own address space: rusage's ru_maxrss would count the
#: benchmark process it was forked from, which Linux keeps across exec)
PEAK = """
import atexit, runpy, sys
def peak():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            sys.stderr.write("peak-kb " + line.split()[1] + "\\n")
atexit.register(peak)
sys.argv = ["lexitrain", *sys.argv[1:]]
runpy.run_module("lexitrain", run_name="__main__")
"""


def whole_process(cgp: str, runs: int) -> tuple[list[float], list[int]]:
    """Wall seconds and peak RSS (KB) of each `lexitrain best` run."""
    walls, peaks = [], []
    for _ in range(runs):
        t = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", PEAK, "best", "--cgp", cgp, "--json"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT, check=True)
        walls.append(time.perf_counter() - t)
        peaks.append(int(done.stderr.split("peak-kb ")[-1]))
    return walls, peaks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=Path, default=DEFAULT_GAMES)
    parser.add_argument("--selfplay", type=int, default=20, help="self-play games (seeds 1..N)")
    parser.add_argument("--cli-runs", type=int, default=7)
    parser.add_argument("--passes", type=int, default=3, help="time every position once per pass; keep each one's median")
    args = parser.parse_args()
    if movegen.compiled is None:
        sys.exit("the compiled move generator is not built here (pip install -e . with a C compiler)")
    print(f"load average at start: {os.getloadavg()[0]:.2f} (2 cores)")

    lex = open_lexicon("enable")
    tiles = lex.tiles
    encoded = graph.word_bytes(lex.trie.keys(), tiles)
    compiled_build = cpu_median(lambda: graph.build_compiled(encoded, tiles))
    python_build = cpu_median(lambda: graph.build_in_python(encoded, tiles), times=3)
    dawg = dawg_for(lex)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / graph.FILE_NAME
        graph.save(dawg, path)
        load = cpu_median(lambda: graph.load(path, tiles))
    print(f"word graph: {dawg.nodes:,} nodes, {dawg.edges:,} edges, {dawg.nbytes / 1e6:.1f} MB mapped; "
          f"build (CPU) compiled {ms(compiled_build)}, Python {ms(python_build)}; load {ms(load)}")

    engines = {name: MoveGenerator(dawg, engine=name) for name in ("compiled", "python")}
    positions = [(b, r, "game") for b, r in real_positions(args.games, tiles)] if args.games.is_dir() else []
    for seed in range(1, args.selfplay + 1):
        _, snaps = self_play(Board(lex.layout, tiles), engines["compiled"], seed=seed)
        positions.extend((s.board, s.rack, "self-play") for s in snaps)

    racks = [Rack.parse(tiles, rack, in_play=True) for _, rack, _ in positions]
    cpus: dict[str, list[list[float]]] = {name: [[] for _ in positions] for name in engines}
    counts = [0] * len(positions)
    for _ in range(args.passes):
        for n, (board, _rack, _kind) in enumerate(positions):
            for name, generator in engines.items():
                c = time.process_time()
                plays = generator.plays(board, racks[n])
                cpus[name][n].append(time.process_time() - c)
                counts[n] = len(plays)
                del plays
    games = sum(kind == "game" for _, _, kind in positions)
    print(f"positions: {len(positions)} ({games} from real games, {len(positions) - games} from self-play), "
          f"{sum(counts):,} plays, {args.passes} passes")
    median = {name: [statistics.median(t) for t in times] for name, times in cpus.items()}
    for name in engines:
        times = median[name]
        game_times = [t for t, (_, _, kind) in zip(times, positions) if kind == "game"]
        line = [f"{name:>8}: median {ms(statistics.median(times))}"
                + (f" (real games {ms(statistics.median(game_times))})" if game_times else "")]
        for blanks in (0, 1, 2):
            sub = [(t, n) for n, t in enumerate(times) if positions[n][1].count("?") == blanks]
            if sub:
                worst, at = max(sub)
                line.append(f"{blanks} blank(s) {len(sub)}: median {ms(statistics.median(t for t, _ in sub))}, "
                            f"worst {ms(worst)} ({positions[at][1]}, {positions[at][0].tile_count()} tiles)")
        line.append(f"{sum(counts) / sum(times):,.0f} plays/s")
        print("\n           ".join(line))
    ratios = [p / c for p, c in zip(median["python"], median["compiled"]) if c > 0]
    print(f"pure Python / compiled: {sum(median['python']) / sum(median['compiled']):.1f}x in all, "
          f"median per position {statistics.median(ratios):.1f}x")

    if args.cli_runs:
        mid = [(b, r) for b, r, _ in positions if "?" not in r and 20 <= b.tile_count() <= 40] or [positions[0][:2]]
        board, rack = mid[len(mid) // 2]
        cgp = to_cgp(Position(board, [rack, ""], [0, 0], 0))
        whole_process(cgp, 1)  # warm the page cache
        walls, peaks = whole_process(cgp, args.cli_runs)
        print(f"whole process `lexitrain best` (mid-game, {board.tile_count()} tiles, rack {rack}): "
              f"median {ms(statistics.median(walls))}, peak RSS median {statistics.median(peaks) / 1024:.1f} MB "
              f"over {len(walls)} runs")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
