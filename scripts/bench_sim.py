"""Simulation throughput on mid-game positions of the real games, and its speed-up on more cores.

One position per game of tests/data/gcg (the first turn with 38 to 56 tiles
in the bag and a full recorded rack), up to --positions games; each
simulated with --candidates (15) candidates, --plies (2) plies and
--iterations (500) iterations (an iteration plays every candidate out once)
in one process. Prints iterations per second per position, their median,
min and max, by the wall clock and by the process's CPU time (the better
guide on a busy machine), and the ratio to Quackle's 74 iterations/s
measured on this machine (issue 24); then the same simulations on
--threads processes for the speed-up (wall clock). The machine's load (os.getloadavg) is printed with the
figures: a shared machine slows everything.

With `--infer` each position is also simulated with the opponent's rack drawn from
the inference of their move before it (`sim --infer`; positions whose previous turn is
the opponent's tile play), the two runs interleaved: iterations/s with and without it,
and the inference's own CPU time, which a simulation pays once before its iterations.

    python scripts/bench_sim.py [--positions 40] [--iterations 500] [--threads 2] [--engine compiled|python] [--infer]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lexitrain.engine.cgp import board_to_cgp  # noqa: E402
from lexitrain.engine.dawg import dawg_for  # noqa: E402
from lexitrain.engine.exchanges import tiles_in_bag  # noqa: E402
from lexitrain.engine.gcg import read_gcg  # noqa: E402
from lexitrain.engine.inference import LastMove, infer as read_rack, load_inference_model  # noqa: E402
from lexitrain.engine.leave_table import load_leaves  # noqa: E402
from lexitrain.engine.movegen import MoveGenerator  # noqa: E402
from lexitrain.engine.replay import replay  # noqa: E402
from lexitrain.engine.simulation import SimSetup, default_engine, open_playouts, position_setup, simulate  # noqa: E402
from lexitrain.errors import LexitrainError  # noqa: E402
from lexitrain.lexicon.catalog import open_lexicon  # noqa: E402
from lexitrain.tiles import Rack  # noqa: E402

GAMES = Path(__file__).resolve().parents[1] / "tests" / "data" / "gcg"
QUACKLE = 74.0  # iterations/s, median over the same kind of positions (issue 24)
MAGPIE = 290.0
#: the CPU time of each inference `positions(..., infer=True)` made
inference_seconds: list[float] = []


def positions(lexicon: str, count: int, candidates: int, plies: int, engine: str, infer: bool = False
              ) -> list[tuple[str, SimSetup]]:
    """With `infer`, only positions whose turn before is the opponent's tile play, the setup carrying the
    inference of it (and timed: `inference_seconds`)."""
    lex = open_lexicon(lexicon)
    generator = MoveGenerator(dawg_for(lex))
    model = load_leaves(lex.tiles)
    out = []
    seen: set[str] = set()
    for path in sorted(GAMES.glob("*.gcg")):
        try:
            turns = replay(read_gcg(path), lex.tiles)
        except LexitrainError:
            continue
        for n, t in enumerate(turns):
            rack = t.rack.upper()
            if len(rack) != 7 or not 38 <= tiles_in_bag(t.board, [rack]) <= 56:
                continue
            last = turns[n - 1] if n else None
            if infer and (last is None or last.player == t.player or last.play is None or last.withdrawn
                          or board_to_cgp(t.board) in seen):
                continue  # (the folder holds copies of some games: each board once)
            seen.add(board_to_cgp(t.board))
            try:
                held = Rack.parse(lex.tiles, rack, in_play=True)
            except LexitrainError:
                continue
            inferred = None
            if infer:
                assert last is not None and last.play is not None
                cpu = time.process_time()
                try:
                    inferred = read_rack(last.board, LastMove(play=last.play), held, generator, model,
                                         load_inference_model(lex.tiles)).inferred()
                except LexitrainError:
                    continue
                inference_seconds.append(time.process_time() - cpu)
            setup = position_setup(lexicon, t.board, held, t.scores, generator, model, candidates=candidates,
                                   plies=plies, engine=engine, inferred=inferred)
            out.append((f"{path.name[-40:]} turn {t.number}", setup))
            break
        if len(out) == count:
            break
    return out


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.1f} / {five:.1f} / {fifteen:.1f} on {os.cpu_count()} cores"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", default="enable")
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--candidates", type=int, default=15)
    parser.add_argument("--plies", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=500)
    parser.add_argument("--threads", type=int, default=2, help="processes for the speed-up (1: skip it)")
    parser.add_argument("--speedup-positions", type=int, default=10, help="positions timed again on --threads")
    parser.add_argument("--engine", default=None, help="compiled (default where built) or python (the reference)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--infer", action="store_true", help="also with the opponent's rack inferred, interleaved")
    args = parser.parse_args()

    engine = args.engine or default_engine()
    if args.infer:
        compare_inference(args, engine)
        return
    chosen = positions(args.lexicon, args.positions, args.candidates, args.plies, engine)
    print(f"{len(chosen)} positions, {args.candidates} candidates, {args.plies} plies, {args.iterations} iterations, "
          f"engine {engine}; {load()}", flush=True)
    rates, cpu_rates = [], []
    for name, setup in chosen:
        playouts = open_playouts(setup)  # opening the lexicon is not part of the simulation
        start, cpu = time.perf_counter(), time.process_time()
        report = simulate(setup, args.iterations, args.seed, playouts=playouts)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        rates.append(report.iterations / seconds)
        cpu_rates.append(report.iterations / cpu)
        print(f"  {name:<52} {rates[-1]:7.1f} it/s wall, {cpu_rates[-1]:7.1f} it/s of CPU time "
              f"({len(setup.candidates)} candidates)", flush=True)
    for what, figures in (("wall clock", rates), ("CPU time", cpu_rates)):
        median = statistics.median(figures)
        print(f"one process, {what}: median {median:.1f} iterations/s ({median * args.candidates:.0f} playouts/s), "
              f"min {min(figures):.1f}, max {max(figures):.1f}; {median / QUACKLE:.2f}x Quackle's {QUACKLE:.0f}, "
              f"{median / MAGPIE:.2f}x MAGPIE's {MAGPIE:.0f}; {load()}", flush=True)
    if args.threads < 2:
        return
    ratios = []
    for name, setup in chosen[:args.speedup_positions]:
        times = []
        for threads in (1, args.threads):
            start = time.perf_counter()
            simulate(setup, args.iterations, args.seed, threads=threads)
            times.append(time.perf_counter() - start)
        ratios.append(times[0] / times[1])
        print(f"  {name:<52} {times[0]:6.2f} s on 1, {times[1]:6.2f} s on {args.threads}: {ratios[-1]:.2f}x",
              flush=True)
    print(f"{args.threads} processes: median speed-up {statistics.median(ratios):.2f}x over one "
          f"(process start-up included); {load()}")


def compare_inference(args: argparse.Namespace, engine: str) -> None:
    """Each position simulated without and with the inference, one after the other: iterations/s of CPU time."""
    chosen = positions(args.lexicon, args.positions, args.candidates, args.plies, engine, infer=True)
    print(f"{len(chosen)} positions after an opponent's tile play, {args.candidates} candidates, {args.plies} plies, "
          f"{args.iterations} iterations, engine {engine}; {load()}", flush=True)
    plain, inferred = [], []
    for n, (name, setup) in enumerate(chosen):
        rates = {}
        simulate(setup, 8, args.seed)  # the process's first look-ups of this board's leaves: paid by neither
        for with_inference in (False, True) if n % 2 == 0 else (True, False):  # each goes first half the time
            run = setup if with_inference else replace(setup, inferred=None)
            playouts = open_playouts(run)
            cpu = time.process_time()
            report = simulate(run, args.iterations, args.seed, playouts=playouts)
            rates[with_inference] = report.iterations / (time.process_time() - cpu)
        plain.append(rates[False])
        inferred.append(rates[True])
        print(f"  {name:<52} {rates[False]:7.1f} it/s without, {rates[True]:7.1f} with the inference (CPU time)",
              flush=True)
    a, b = statistics.median(plain), statistics.median(inferred)
    print(f"median iterations/s of CPU time: {a:.1f} without, {b:.1f} with the inference ({b / a:.2f}x); the "
          f"inference itself: median {1000 * statistics.median(inference_seconds):.0f} ms of CPU, max "
          f"{1000 * max(inference_seconds):.0f} ms (as many iterations as {statistics.median(inference_seconds) * a:.0f}"
          f" without it); {load()}")


if __name__ == "__main__":
    main()
