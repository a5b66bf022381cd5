"""How long `lexitrain gcg analyze` takes on one game, whole process (target 2 s for 25 turns; with
--sim, every turn simulated: target 60 s), and `lexitrain study from-games` over the 110 real games (target 60 s).

Runs the commands as a user would (a new process each time, start-up and the
lexicon's opening included): analyze on a real game of 25 turns, and
from-games on every game in tests/data/gcg, each run in a fresh home whose
ENABLE was compiled beforehand (not timed), so every card is new. Prints the
median wall and CPU time of the runs.

    python scripts/bench_analysis.py [--runs 5] [--game FILE] [--from-games-runs 3] [--sim-runs 3]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GAMES = Path(__file__).resolve().parents[1] / "tests" / "data" / "gcg"
GAME = GAMES / "domino14__macondo__gcgio__testdata__vs_frentz.gcg"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--game", type=Path, default=GAME)
    parser.add_argument("--from-games-runs", type=int, default=3)
    parser.add_argument("--sim-runs", type=int, default=3, help="runs of gcg analyze --sim (0: skip)")
    args = parser.parse_args()
    lexitrain = [sys.executable, "-m", "lexitrain"]
    walls, cpus = [], []
    for _ in range(args.runs):
        wall, cpu, _ = timed(lexitrain + ["gcg", "analyze", str(args.game), "--json"], os.environ.copy())
        walls.append(wall)
        cpus.append(cpu)
    turns = sum(1 for line in args.game.read_text(encoding="utf-8").splitlines() if line.startswith(">"))
    if walls:
        print(f"gcg analyze {args.game.name} ({turns} event lines), {args.runs} runs: median wall "
              f"{statistics.median(walls):.2f} s, CPU {statistics.median(cpus):.2f} s (load {os.getloadavg()[0]:.1f})")
    walls, cpus = [], []
    for _ in range(args.sim_runs):
        wall, cpu, _ = timed(lexitrain + ["gcg", "analyze", str(args.game), "--sim", "--json"], os.environ.copy())
        walls.append(wall)
        cpus.append(cpu)
    if walls:
        print(f"gcg analyze --sim {args.game.name}, {args.sim_runs} runs: median wall {statistics.median(walls):.2f} s, "
              f"CPU {statistics.median(cpus):.2f} s over {os.cpu_count()} cores (load {os.getloadavg()[0]:.1f}; "
              f"target 60 s)")
    if not args.from_games_runs:
        return
    games = sorted(str(path) for path in GAMES.glob("*.gcg"))
    walls, cpus = [], []
    for _ in range(args.from_games_runs):
        with tempfile.TemporaryDirectory() as home:
            env = {**os.environ, "LEXITRAIN_HOME": home}
            subprocess.run(lexitrain + ["judge", "AA"], check=True, stdout=subprocess.DEVNULL, env=env)  # compile
            wall, cpu, out = timed(lexitrain + ["study", "from-games", *games, "--json"], env)
            report = json.loads(out)  # a file it skips (another tile set) is named there, not a failure
            walls.append(wall)
            cpus.append(cpu)
    print(f"study from-games over {len(games)} files ({report['games']} games, {report['added']} cards), "
          f"{args.from_games_runs} runs: median wall "
          f"{statistics.median(walls):.2f} s, CPU {statistics.median(cpus):.2f} s (load {os.getloadavg()[0]:.1f}; "
          f"target 60 s)")


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Wall and CPU seconds of one whole process, and what it printed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        sys.exit(f"{' '.join(command[:5])}...: exit {done.returncode}: {done.stderr.strip()}")
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, done.stdout


if __name__ == "__main__":
    main()
