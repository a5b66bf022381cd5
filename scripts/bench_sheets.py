"""Benchmark printing a study sheet, as a user runs it (whole process).

Prints the median wall time of
  lexitrain sheet anagrams --query "--length 7 --probability 1-1000 --order probability" --out FILE.pdf
on ENABLE (the top 1,000 sevens by probability, every answer with its hooks),
compiled once beforehand in a scratch LEXITRAIN_HOME and not timed.
Target: <= 3 s.

Run: python scripts/bench_sheets.py [--runs N]
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
QUERY = "--length 7 --probability 1-1000 --order probability"


def lexitrain(args: list[str], home: str) -> float:
    env = {**os.environ, "LEXITRAIN_HOME": home, "PYTHONPATH": str(ROOT)}
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "lexitrain", *args], check=True, env=env, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as home:
        lexitrain(["lexicon", "info", "enable"], home)  # compiles ENABLE once, untimed
        out = Path(home) / "top1000.pdf"
        times = [lexitrain(["sheet", "anagrams", "--query", QUERY, "--out", str(out)], home) for _ in range(runs)]
        size = out.stat().st_size
    print(f"sheet anagrams, top 1,000 ENABLE sevens with hooks, whole process: "
          f"median {statistics.median(times):.2f} s over {runs} runs "
          f"(min {min(times):.2f}, max {max(times):.2f}; PDF {size / 1024:.0f} KiB)")


if __name__ == "__main__":
    main()
