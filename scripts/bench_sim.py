"""Simulation throughput on 1 and 2 threads (and MAGPIE where it is built here), in one run.

One position per distinct board of tests/data/gcg (the first turn of a game
with 38 to 56 tiles in the bag and a full recorded rack; the folder holds
copies of some games, and a board met before is skipped), up to --positions;
each simulated with --candidates (15) candidates, --plies (2) plies and
--iterations (500) iterations (an iteration plays every candidate out once).
Per position the runs compared are made one after the other, their order
turning with each position (interleaved): ours on one thread, ours on
--threads (2) threads, and with --magpie DIR, MAGPIE as it ships with its word
map (a build of its public source and the data files scripts/magpie_data.py
writes from ours: the same words, tiles, board, leave values and win model),
each on one thread. Printed per position and as medians: iterations per
second of CPU time (what one core does: the figure to compare engines by) and
of the wall clock (what threads gain: needs idle cores), the ratios (2 threads
over 1 by the wall clock, ours over MAGPIE by CPU time), and whether the runs
chose the same best play (1 and 2 threads must give the same whole report:
each iteration's deal comes from the seed alone). The machine's load
(os.getloadavg) is printed with every figure: a shared machine slows
everything, and threads need two idle cores to show.

With `--infer` every position is also run with the opponent's rack drawn from
the inference of their move before it (`sim --infer`; only positions whose
previous turn is the opponent's tile play), on 1 and 2 threads, interleaved
with the plain runs, and the inference's own CPU time is printed (a
simulation pays it once before its iterations).

    python scripts/bench_sim.py [--positions 10] [--iterations 500] [--threads 2] [--infer] [--magpie DIR]
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lexitrain.engine.cgp import Position, board_to_cgp, to_cgp  # noqa: E402
from magpie_data import magpie_name  # noqa: E402
from lexitrain.engine.dawg import dawg_for  # noqa: E402
from lexitrain.engine.equity import Candidate  # noqa: E402
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
#: iterations/s measured on other days (issues 24 and 37), printed for orientation when MAGPIE is not run
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
    return f"load {one:.1f} / {five:.1f} / {fifteen:.1f} on {os.cpu_count()} cores"


class Run(NamedTuple):
    """One way of simulating a position: its name, and how (a function of the position's setup and CGP giving
    (wall seconds, CPU seconds, the best play as `8D WORD` or `-`, the whole report's figures))."""

    name: str
    simulate: Callable[[SimSetup, str], tuple[float, float, str, Any]]


def named(best: Candidate, setup: SimSetup) -> str:
    """A best move as both engines' lines are compared: `8D WORD`, `exch TILES` or `pass`."""
    if best.play is not None:
        return f"{best.position} {best.word(setup.board.tiles)}"
    return f"exch {best.tiles_text(setup.board.tiles)}" if best.exchanged is not None else "pass"


def ours(threads: int, iterations: int, seed: int) -> Run:
    def run(setup: SimSetup, cgp: str) -> tuple[float, float, str, Any]:
        playouts = open_playouts(setup)  # the lexicon opened before the clock starts
        start, cpu = time.perf_counter(), time.process_time()  # every thread's CPU time: threads are ours
        report = simulate(setup, iterations, seed, threads=threads, playouts=playouts)
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        return wall, cpu, named(report.rows[0].candidate, setup), \
            [(r.index, r.iterations, r.equity, r.spread, r.win) for r in report.rows]
    return Run(f"ours, {threads} thread{'s' if threads > 1 else ''}", run)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", default="enable")
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--candidates", type=int, default=15)
    parser.add_argument("--plies", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=500)
    parser.add_argument("--threads", type=int, default=2, help="threads of the second run of ours")
    parser.add_argument("--engine", default=None, help="compiled (default where built) or python (the reference)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--infer", action="store_true", help="also with the opponent's rack inferred, interleaved")
    parser.add_argument("--magpie", type=Path, default=None,
                        help="a MAGPIE checkout with bin/magpie built and data/ from scripts/magpie_data.py")
    args = parser.parse_args()

    engine = args.engine or default_engine()
    runs = [ours(1, args.iterations, args.seed), ours(args.threads, args.iterations, args.seed)]
    magpie = None
    if args.magpie is not None:
        magpie = magpie_run(args.magpie, args)
        if magpie is None:
            print(f"MAGPIE is not built at {args.magpie} (bin/magpie and data/ from scripts/magpie_data.py): "
                  f"not compared", flush=True)
        else:
            runs.append(magpie)
    chosen = positions(args.lexicon, args.positions, args.candidates, args.plies, engine, infer=args.infer)
    kinds = [(False, r) for r in runs] + ([(True, r) for r in runs[:2]] if args.infer else [])
    print(f"{len(chosen)} positions, {args.candidates} candidates, {args.plies} plies, {args.iterations} iterations, "
          f"engine {engine}; {load()}", flush=True)
    wall: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    best: dict[str, list[str]] = {}
    whole: dict[str, list[Any]] = {}
    for n, (name, setup) in enumerate(chosen):
        cgp = to_cgp(Position(setup.board, [setup.board.tiles.spell(setup.rack.names()), ""], [max(setup.spread, 0),
                                                                                       max(-setup.spread, 0)]))
        turn = n % len(kinds)
        line = []
        for inferred, run in kinds[turn:] + kinds[:turn]:  # each run first in its turn
            label = run.name + (", inferred" if inferred else "")
            seconds, used, play, figures = run.simulate(setup if inferred else replace(setup, inferred=None), cgp)
            wall.setdefault(label, []).append(args.iterations / seconds)
            cpu.setdefault(label, []).append(args.iterations / used)
            best.setdefault(label, []).append(play)
            whole.setdefault(label, []).append(figures)
            line.append(f"{label}: {args.iterations / used:.0f} CPU / {args.iterations / seconds:.0f} wall it/s, {play}")
        print(f"  {name:<48} " + "; ".join(sorted(line)) + f"; {load()}", flush=True)
    print(f"medians, iterations/s ({load()}):", flush=True)
    for label in sorted(cpu):
        print(f"  {label:<28} CPU time {statistics.median(cpu[label]):7.1f} (min {min(cpu[label]):.1f}, max "
              f"{max(cpu[label]):.1f}); wall clock {statistics.median(wall[label]):7.1f}", flush=True)
    for suffix in ([""] + ([", inferred"] if args.infer else [])):
        one, more = runs[0].name + suffix, runs[1].name + suffix
        speedups = [b / a for a, b in zip(wall[one], wall[more])]
        same = sum(a == b for a, b in zip(whole[one], whole[more]))
        print(f"{args.threads} threads over 1{suffix}: median {statistics.median(speedups):.2f}x by the wall clock "
              f"(min {min(speedups):.2f}, max {max(speedups):.2f}; target 1.8x, needs {args.threads} idle cores); "
              f"the same whole report on {same} of {len(speedups)} positions; {load()}", flush=True)
    if magpie is not None:
        ratios = [a / b for a, b in zip(cpu[runs[0].name], cpu[magpie.name])]
        agree = sum(a == b for a, b in zip(best[runs[0].name], best[magpie.name]))
        print(f"ours over MAGPIE, one thread, CPU time: median {statistics.median(ratios):.2f}x (min "
              f"{min(ratios):.2f}, max {max(ratios):.2f}; target 1.0x); the same best play on {agree} of "
              f"{len(ratios)} positions; {load()}", flush=True)
    else:
        print(f"(not measured in this run, for orientation only: {OTHER_DAYS})", flush=True)
    if args.infer:
        print(f"the inference itself: median {1000 * statistics.median(inference_seconds):.0f} ms of CPU, max "
              f"{1000 * max(inference_seconds):.0f} ms; {load()}", flush=True)


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def magpie_run(root: Path, args: argparse.Namespace) -> Run | None:
    """MAGPIE's simulation of a position (its `gsim`: the top --candidates plays by its static equity, --plies,
    its word map on, one thread, no stopping rule) as a Run, or None when it is not built at `root`. Its CPU
    time is the process's less that of one that only loads the data and the position (measured first), its
    iterations the `Iters` it reports over the plays."""
    binary = root / "bin" / "magpie"
    name = magpie_name(args.lexicon)
    if not binary.exists() or not (root / "data" / "lexica" / f"{name}.wmp").exists():
        return None
    # the settings on the command line: sent as a first line, a `set` of the mode can lose a race with the next
    settings = (f"set -lex {name} -mode sync -savesettings false -wmp true -threads 1 -numplays {args.candidates} "
                f"-plies {args.plies} -iterations {args.iterations} -scondition none -seed {args.seed}").split()

    def call(cgp: str, sim: bool) -> tuple[float, float, str]:
        script = f"cgp {cgp}\n" + ("gsim\n" if sim else "")
        start, cpu = time.perf_counter(), _children_cpu()
        done = subprocess.run([str(binary), *settings], input=script, cwd=root, capture_output=True, text=True,
                              timeout=3600)
        return time.perf_counter() - start, _children_cpu() - cpu, done.stdout + done.stderr

    loading: list[float] = []

    def run(setup: SimSetup, cgp: str) -> tuple[float, float, str, Any]:
        if not loading:
            loading.append(call(cgp, False)[1])
        wall, used, out = call(cgp, True)
        top = re.search(r"\s1:\s+(\S+)\s+(\S+)", out)
        iterations = re.search(r"Iters:\s+(\d+)", out)
        if top is None or iterations is None:
            raise SystemExit(f"MAGPIE gave no simulation for {cgp}:\n{out[-2000:]}")
        done = int(iterations.group(1)) / args.candidates
        scale = args.iterations / done  # figures per --iterations, as ours
        play = f"{top.group(1)} {top.group(2)}".replace("(", "").replace(")", "")  # `(exch UUY)` as `exch UUY`
        return wall * scale, max(used - loading[0], 1e-9) * scale, play, None
    return Run("MAGPIE, 1 thread", run)


if __name__ == "__main__":
    main()
