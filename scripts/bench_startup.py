"""How long `lexitrain --help`, `judge QI` and `anagram AEINRST` take to start and finish, in a fresh process each.

Each command runs --runs times (median printed, with the fastest), first with
PYTHONDONTWRITEBYTECODE=1 and lexitrain's bytecode caches removed (its modules compiled from
source on every run, as when the caches cannot be written), then with Python writing and
reading them. The lexicon is
compiled before timing, in a LEXITRAIN_HOME of its own; the load average goes with the figures.

    python scripts/bench_startup.py [--runs 10]
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


def timed(args: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "lexitrain", *args], env=env, cwd=ROOT,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start  # (judge exits 1 on a word the default lexicon lacks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    runs = parser.parse_args().runs
    home = tempfile.mkdtemp(prefix="lexitrain-startup-")
    try:
        base = {**os.environ, "LEXITRAIN_HOME": home, "PYTHONPATH": str(ROOT)}
        base.pop("PYTHONDONTWRITEBYTECODE", None)
        uncached = {**base, "PYTHONDONTWRITEBYTECODE": "1"}
        for cache in (ROOT / "lexitrain").rglob("__pycache__"):
            shutil.rmtree(cache)
        timed(["judge", "QI"], uncached)  # compiles the lexicon
        print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} cores)")
        for label, env in (("PYTHONDONTWRITEBYTECODE=1", uncached), ("bytecode cached", base)):
            timed(["--help"], env)  # (the cached runs: writes the caches)
            for args in COMMANDS:
                times = [timed(args, env) for _ in range(runs)]
                print(f"{label:26} lexitrain {' '.join(args):16} median {statistics.median(times) * 1000:6.0f} ms"
                      f"  fastest {min(times) * 1000:6.0f} ms  ({runs} runs)")
        print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    finally:
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
