"""Simulation throughput on mid-game positions of the real games, on one process and on several.

One position per distinct board of tests/data/gcg (the first turn of a game
with 38 to 56 tiles in the bag and a full recorded rack; the folder holds
copies of some games, and a board met before is skipped), up to --positions;
each simulated with --candidates (15) candidates, --plies (2) plies and
--iterations (500) iterations (an iteration plays every candidate out once)
in one process. Prints iterations per second per position, their median,
min and max, by the wall clock and by the process's CPU time (the better
guide on a busy machine).

Then the first --speedup-positions positions again on 1 and on --threads
processes, the two runs interleaved (each goes first half the time): the
speed-up by the wall clock (start-up included), and by CPU time (every
process's, the workers' included) how much of the work the extra processes
add: on an idle machine the wall-clock speed-up is at most --threads times
one run's CPU time over the several runs' total. The machine's load
(os.getloadavg) is printed with every figure: a shared machine slows everything.

No other engine is built here, so nothing is divided by another engine's
figure: the issue's (MAGPIE 717 iterations/s as it ships, Quackle 74) were
measured on other days and are printed beside ours for orientation only.

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
#: iterations/s measured on other days (issues 24 and 37), printed for orientation, never divided by
OTHER_DAYS = "Quackle 74 (issue 24), MAGPIE 717 as it ships with its word map (issue 37)"
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
            if board_to_cgp(t.board) in seen:
                break  # the folder holds copies of some games: each board once
            if infer and (last is None or last.player == t.player or last.play is None or last.withdrawn):
                continue
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
              f"min {min(figures):.1f}, max {max(figures):.1f}; {load()}", flush=True)
    print(f"(not measured here, for orientation only: {OTHER_DAYS})", flush=True)
    if args.threads >= 2:
        compare_threads(chosen[:args.speedup_positions], args)


def _cpu() -> float:
    """This process's CPU time and its finished children's (a simulation's workers are joined when it ends)."""
    usage = os.times()
    return usage.user + usage.system + usage.children_user + usage.children_system


def compare_threads(chosen: list[tuple[str, SimSetup]], args: argparse.Namespace) -> None:
    """Each position on 1 and on `args.threads` processes, interleaved: wall-clock and CPU-time figures."""
    speedups, shares = [], []
    for n, (name, setup) in enumerate(chosen):
        wall, cpu = {}, {}
        open_playouts(setup)  # the lexicon opened before either run times anything
        for threads in (1, args.threads) if n % 2 == 0 else (args.threads, 1):
            start, used = time.perf_counter(), _cpu()
            simulate(setup, args.iterations, args.seed, threads=threads)
            wall[threads], cpu[threads] = time.perf_counter() - start, _cpu() - used
        speedups.append(wall[1] / wall[args.threads])
        shares.append(cpu[1] / cpu[args.threads])
        print(f"  {name:<52} {args.iterations / wall[1]:6.1f} it/s on 1, {args.iterations / wall[args.threads]:6.1f} "
              f"on {args.threads} (wall): {speedups[-1]:.2f}x; CPU {cpu[1]:.2f} s on 1, {cpu[args.threads]:.2f} s on "
              f"{args.threads}; {load()}", flush=True)
    ceiling = args.threads * statistics.median(shares)
    print(f"{args.threads} processes against one: median speed-up {statistics.median(speedups):.2f}x by the wall "
          f"clock (start-up included; needs {args.threads} idle cores); the work costs {1 / statistics.median(shares):.2f}x "
          f"the CPU time of one process, so an idle machine gives at most {ceiling:.2f}x; {load()}", flush=True)


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
