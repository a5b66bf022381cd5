"""Benchmark the lexicon compiler and opening a compiled lexicon.

Prints medians:
- whole-process `lexitrain lexicon build` of ENABLE, word graph included (5 runs);
- a fresh home: the first `lexitrain anagram AEINRST` (which compiles ENABLE)
  and the first `lexitrain best` after it (which reads the graph the compile wrote);
- whole-process build of a synthetic 280,000-word list (5 runs);
- in-process: open a compiled lexicon and answer one anagram query (fresh
  interpreter per run, so nothing is cached in memory);
- compiled size on disk.

Run: python scripts/bench_lexicon.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENABLE = ROOT / "lexicons" / "wordlists" / "enable1.txt"


def whole_process_build(source: Path, name: str, home: str) -> float:
    env = {**os.environ, "LEXITRAIN_HOME": home, "PYTHONPATH": str(ROOT)}
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "lexitrain", "lexicon", "build", str(source), "--name", name, "--quiet"],
        check=True, env=env, stdout=subprocess.DEVNULL,
    )
    return time.perf_counter() - started


MID_GAME = ("W14/ET3V9/BE2JO9/1I1ZAX9/LI2V10/AD2E10/T1GALE9/I2WINDY7/N3N1EAU6/ODONATES7/15/15/15/15/15 "
            "AELLNST/ 122/221 0")


def first_use(home: str) -> tuple[float, float]:
    """Seconds of the first `anagram` in an empty home, then of the first `best`."""
    env = {**os.environ, "LEXITRAIN_HOME": home, "PYTHONPATH": str(ROOT)}
    times = []
    for args in (["anagram", "AEINRST"], ["best", "--cgp", MID_GAME, "--json"]):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "lexitrain", *args], check=True, env=env, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - started)
    return times[0], times[1]


OPEN_AND_ANAGRAM = """
import time
t = time.perf_counter()
from lexitrain.lexicon.lexicon import open_lexicon
lex = open_lexicon("enable-bench")
assert lex.anagrams("AEINRST")
print(time.perf_counter() - t)
"""


def open_and_query(home: str) -> float:
    env = {**os.environ, "LEXITRAIN_HOME": home, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", OPEN_AND_ANAGRAM], check=True, env=env, capture_output=True, text=True
    )
    return float(out.stdout)


def synthetic_list(path: Path, count: int, seed: int = 1) -> None:
    """ENABLE plus made-up words (English letter frequencies) up to `count` words."""
    rng = random.Random(seed)
    words = set(ENABLE.read_text().split())
    letters = "EEEEEEEEEEEEAAAAAAAAAIIIIIIIIIOOOOOOOONNNNNNRRRRRRTTTTTTLLLLSSSSUUUUDDDDGGGBBCCMMPPFFHHVVWWYYKJXQZ"
    while len(words) < count:
        words.add("".join(rng.choice(letters) for _ in range(rng.randint(2, 15))))
    path.write_text("\n".join(sorted(words)) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f} (2 cores)")
    with tempfile.TemporaryDirectory() as home:
        # "enable" is the name of the shipped build, which `lexicon build` keeps for itself
        enable = [whole_process_build(ENABLE, "enable-bench", home) for _ in range(args.runs)]
        print(f"compile ENABLE (168,551 words), whole process: median {statistics.median(enable):.2f} s "
              f"(min {min(enable):.2f}, max {max(enable):.2f}; target <= 3 s)")
        size = sum(p.stat().st_size for p in Path(home, "lexicons").rglob("*") if p.is_file())
        fresh = []
        for _ in range(args.runs):
            with tempfile.TemporaryDirectory() as empty:
                fresh.append(first_use(empty))
        print(f"fresh home: first `anagram AEINRST` median {statistics.median(f[0] for f in fresh):.2f} s "
              f"(target <= 5 s), first `best` after it median {statistics.median(f[1] for f in fresh) * 1000:.0f} ms "
              f"(target <= 500 ms)")
        print(f"compiled size on disk: {size / 1e6:.1f} MB")
        opened = [open_and_query(home) for _ in range(args.runs)]
        print(f"open lexicon + one anagram query, in process: median {statistics.median(opened) * 1000:.1f} ms "
              f"(target <= 50 ms)")
        big = Path(home) / "synthetic.txt"
        synthetic_list(big, 280_000)
        synthetic = [whole_process_build(big, "synthetic", home) for _ in range(args.runs)]
        print(f"compile synthetic 280,000 words, whole process: median {statistics.median(synthetic):.2f} s "
              f"(min {min(synthetic):.2f}, max {max(synthetic):.2f}; target <= 6 s)")
    print(f"load average while measuring: {os.getloadavg()[0]:.2f} (2 cores)")


if __name__ == "__main__":
    main()
