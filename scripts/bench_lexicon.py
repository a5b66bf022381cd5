"""Benchmark the lexicon compiler and opening a compiled lexicon.

Prints medians, of wall time and of CPU time (user + sys of the process and its
children: the machine is shared, so wall time alone says little), with the
load average beside each:
- whole-process `lexitrain lexicon build` of ENABLE, word graph included (5 runs);
- a fresh home: the first `lexitrain anagram AEINRST` (which compiles ENABLE)
  and the first `lexitrain best` after it (which reads the graph the compile wrote);
- whole-process build of a synthetic 280,000-word list (5 runs);
- in-process: open a compiled lexicon and answer one anagram query (fresh
  interpreter per run, so nothing is cached in memory);
- compiled size on disk.

With `--against REV`, compares instead the whole-process build of ENABLE, as a
plain list and with its WordNet definitions (as the embedded lexicon is
compiled), by this tree and by commit REV (exported and its compiled modules
built in a temporary folder), the two interleaved run by run so that the load
falls on both alike; prints each one's medians and the ratios.

Run: python scripts/bench_lexicon.py [--runs N] [--against REV]
"""

from __future__ import annotations

import argparse
import io
import os
import random
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENABLE = ROOT / "lexicons" / "wordlists" / "enable1.txt"
DEFINITIONS = ROOT / "lexicons" / "definitions" / "wordnet_enable.txt"


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU (user + sys) seconds of one whole process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, check=True, env=env, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def whole_process_build(source: Path, name: str, home: str, tree: Path = ROOT,
                        definitions: Path | None = None) -> tuple[float, float]:
    env = {**os.environ, "LEXITRAIN_HOME": home, "PYTHONPATH": str(tree)}
    extra = ["--definitions", str(definitions)] if definitions else []
    return timed([sys.executable, "-m", "lexitrain", "lexicon", "build", str(source), "--name", name, "--quiet",
                  *extra], env)


def exported(rev: str, folder: Path) -> Path:
    """Commit REV's tree written into FOLDER, its compiled modules built in place (as an install builds them)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", rev], check=True,
                             capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=folder, check=True,
                   capture_output=True)
    return folder


def compare_with(rev: str, runs: int) -> None:
    """ENABLE compiled by REV and by this tree, interleaved (ABBA...), plain and with its definitions."""
    with tempfile.TemporaryDirectory() as scratch, tempfile.TemporaryDirectory() as home:
        trees = {rev: exported(rev, Path(scratch)), "this tree": ROOT}
        cases = {"plain list": None, "with definitions": DEFINITIONS}
        times: dict[tuple[str, str], list[tuple[float, float]]] = {(t, c): [] for t in trees for c in cases}
        for run in range(runs):
            order = list(trees) if run % 2 == 0 else list(trees)[::-1]
            for tree in order:
                for case, definitions in cases.items():
                    times[tree, case].append(whole_process_build(ENABLE, "enable-bench", home, trees[tree],
                                                                 definitions))
        for case in cases:
            for tree in trees:
                print(f"compile ENABLE, {case}, {tree}: {medians(times[tree, case], 'within 10% of ' + rev)}")
            old, new = (statistics.median(c for _, c in times[tree, case]) for tree in trees)
            old_wall, new_wall = (statistics.median(w for w, _ in times[tree, case]) for tree in trees)
            print(f"  ratio this tree / {rev}: CPU {new / old:.3f}, wall {new_wall / old_wall:.3f}")


def medians(runs: list[tuple[float, float]], target: str) -> str:
    walls, cpus = [w for w, _ in runs], [c for _, c in runs]
    return (f"median {statistics.median(walls):.2f} s (min {min(walls):.2f}, max {max(walls):.2f}; target {target}), "
            f"CPU {statistics.median(cpus):.2f} s; load {os.getloadavg()[0]:.2f}")


MID_GAME = ("W14/ET3V9/BE2JO9/1I1ZAX9/LI2V10/AD2E10/T1GALE9/I2WINDY7/N3N1EAU6/ODONATES7/15/15/15/15/15 "
            "AELLNST/ 122/221 0")


def first_use(home: str) -> tuple[tuple[float, float], tuple[float, float]]:
    """(wall, CPU) seconds of the first `anagram` in an empty home, then of the first `best`."""
    env = {**os.environ, "LEXITRAIN_HOME": home, "PYTHONPATH": str(ROOT)}
    anagram, best = (timed([sys.executable, "-m", "lexitrain", *args], env)
                     for args in (["anagram", "AEINRST"], ["best", "--cgp", MID_GAME, "--json"]))
    return anagram, best


OPEN_AND_ANAGRAM = """
import time
t = time.perf_counter()
from lexitrain.lexicon.catalog import open_lexicon
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
    parser.add_argument("--against", metavar="REV", help="compare ENABLE's compile with commit REV's, interleaved")
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f} (2 cores)")
    if args.against:
        compare_with(args.against, args.runs)
        print(f"load average while measuring: {os.getloadavg()[0]:.2f} (2 cores)")
        return
    with tempfile.TemporaryDirectory() as home:
        # "enable" is the name of the shipped build, which `lexicon build` keeps for itself
        enable = [whole_process_build(ENABLE, "enable-bench", home) for _ in range(args.runs)]
        print(f"compile ENABLE (168,551 words), whole process: {medians(enable, '<= 3 s')}")
        size = sum(p.stat().st_size for p in Path(home, "lexicons").rglob("*") if p.is_file())
        fresh = []
        for _ in range(args.runs):
            with tempfile.TemporaryDirectory() as empty:
                fresh.append(first_use(empty))
        print(f"fresh home: first `anagram AEINRST` {medians([f[0] for f in fresh], '<= 5 s')}")
        print(f"  first `best` after it median {statistics.median(f[1][0] for f in fresh) * 1000:.0f} ms "
              f"(target <= 500 ms), CPU {statistics.median(f[1][1] for f in fresh) * 1000:.0f} ms")
        print(f"compiled size on disk: {size / 1e6:.1f} MB")
        opened = [open_and_query(home) for _ in range(args.runs)]
        print(f"open lexicon + one anagram query, in process: median {statistics.median(opened) * 1000:.1f} ms "
              f"(target <= 50 ms)")
        big = Path(home) / "synthetic.txt"
        synthetic_list(big, 280_000)
        synthetic = [whole_process_build(big, "synthetic", home) for _ in range(args.runs)]
        print(f"compile synthetic 280,000 words, whole process: {medians(synthetic, '<= 6 s')}")
    print(f"load average while measuring: {os.getloadavg()[0]:.2f} (2 cores)")


if __name__ == "__main__":
    main()
