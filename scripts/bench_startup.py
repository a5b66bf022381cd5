"""How long `lexitrain --help`, `judge QI` and `anagram AEINRST` take to start and finish, in a fresh process each.

Each command runs --runs times (median printed, with the fastest), first with
PYTHONDONTWRITEBYTECODE=1 and lexitrain's bytecode caches removed (its modules compiled from
source on every run, as when the caches cannot be written), then with Python writing and
reading them. The lexicon is compiled before timing, in a LEXITRAIN_HOME of its own; the load
average goes with the figures. With --against OTHER (another checkout, e.g. a `git worktree`
of main), each run of this checkout is followed by one of OTHER, so both see the same load,
and the ratio of the medians is printed.

    python scripts/bench_startup.py [--runs 10] [--against ../main]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = (["--help"], ["judge", "QI"], ["anagram", "AEINRST"])


def timed(root: Path, args: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "lexitrain", *args], env={**env, "PYTHONPATH": str(root)}, cwd=root,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start  # (judge exits 1 on a word the default lexicon lacks)


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--against", type=Path, help="another checkout, timed in turn with this one")
    options = parser.parse_args()
    roots = [ROOT] + ([options.against.resolve()] if options.against else [])
    home = tempfile.mkdtemp(prefix="lexitrain-startup-")
    try:
        base = {**os.environ, "LEXITRAIN_HOME": home}
        base.pop("PYTHONDONTWRITEBYTECODE", None)
        uncached = {**base, "PYTHONDONTWRITEBYTECODE": "1"}
        for root in roots:
            for cache in (root / "lexitrain").rglob("__pycache__"):
                shutil.rmtree(cache)
        timed(ROOT, ["judge", "QI"], uncached)  # compiles the lexicon
        print(f"load average at start: {load()} ({os.cpu_count()} cores)")
        for label, env in (("PYTHONDONTWRITEBYTECODE=1", uncached), ("bytecode cached", base)):
            for root in roots:
                timed(root, ["--help"], env)  # (the cached runs: writes the caches)
            for args in COMMANDS:
                times: list[list[float]] = [[] for _ in roots]
                for _ in range(options.runs):
                    for root, found in zip(roots, times):
                        found.append(timed(root, args, env))
                medians = [statistics.median(found) * 1000 for found in times]
                line = (f"{label:26} lexitrain {' '.join(args):16} median {medians[0]:6.0f} ms"
                        f"  fastest {min(times[0]) * 1000:6.0f} ms")
                if len(roots) > 1:
                    line += f"  | against: median {medians[1]:6.0f} ms, ratio {medians[0] / medians[1]:.2f}"
                print(line + f"  ({options.runs} runs)")
        print(f"load average at end: {load()}")
    finally:
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
