"""How long `lexitrain gcg analyze` takes on one game, whole process (target 2 s for 25 turns).

Runs the command as a user would (a new process each time, start-up and the
lexicon's opening included) on a real game of 25 turns, and prints the median
wall and CPU time of the runs.

    python scripts/bench_analysis.py [--runs 5] [--game FILE]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

GAMES = Path(__file__).resolve().parents[1] / "tests" / "data" / "gcg"
GAME = GAMES / "domino14__macondo__gcgio__testdata__vs_frentz.gcg"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--game", type=Path, default=GAME)
    args = parser.parse_args()
    command = [sys.executable, "-m", "lexitrain", "gcg", "analyze", str(args.game), "--json"]
    walls, cpus = [], []
    for _ in range(args.runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=os.environ.copy())
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    turns = sum(1 for line in args.game.read_text(encoding="utf-8").splitlines() if line.startswith(">"))
    print(f"gcg analyze {args.game.name} ({turns} event lines), {args.runs} runs: median wall "
          f"{statistics.median(walls):.2f} s, CPU {statistics.median(cpus):.2f} s (load {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
