"""Benchmark the word tools on ENABLE; prints the median of several runs.

Usage: python scripts/bench_search.py [--runs N] [--lexicon enable]

In-process timings call the same functions the commands use (after one
warm-up call, which opens the tries and builds the regex scan string); the
last line times whole `lexitrain anagram AEINRST` processes.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from lexitrain.lexicon.lexicon import open_lexicon  # noqa: E402
from lexitrain.search import hooks  # noqa: E402
from lexitrain.search.execute import run_search  # noqa: E402
from lexitrain.search.query import Query, parse_query  # noqa: E402
from lexitrain.search.racks import rack_words  # noqa: E402


def median_ms(fn: Callable[[], object], runs: int) -> tuple[float, object]:
    result = fn()  # warm-up
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--lexicon", default="enable")
    args = parser.parse_args()
    lex = open_lexicon(args.lexicon)
    code = lex.tiles.encode("RETAIN")
    cases: list[tuple[str, float, Callable[[], object]]] = [
        ("anagram AEINRST", 2, lambda: rack_words(lex, "AEINRST")),
        ("anagram AEINRS? (1 blank)", 20, lambda: rack_words(lex, "AEINRS?")),
        ("build AEINRST? (7 letters + 1 blank)", 20, lambda: rack_words(lex, "AEINRST?", build=True)),
        ("build AEINRST?? (7 letters + 2 blanks)", 100, lambda: rack_words(lex, "AEINRST??", build=True)),
        ("build ERTNOSZ?? (7 letters + 2 blanks)", 100, lambda: rack_words(lex, "ERTNOSZ??", build=True)),
        ("hooks RETAIN", 1, lambda: hooks.hooks(lex, code)),
        ("stems RETAIN (+1 tile anagrams)", 1, lambda: hooks.stems(lex, code)),
        ("search --pattern ?A?E??S (all lengths)", 100, lambda: run_search(lex, Query(pattern="?A?E??S"))),
        ("search --pattern *ZZ*", 100, lambda: run_search(lex, Query(pattern="*ZZ*"))),
        ("search --anagram AEINRST??", 100, lambda: run_search(lex, Query(anagram="AEINRST??"))),
        ("search --length 7 --probability 1-500", 100, lambda: run_search(lex, parse_query("--length 7 --probability 1-500"))),
        ("search --length 2-15 --regex ^QI", 1000, lambda: run_search(lex, parse_query("--regex ^QI"))),
        ("search --length 7 (23,109 rows)", 1000, lambda: run_search(lex, parse_query("--length 7"))),
    ]
    print(f"{'case':<44} {'median':>10} {'target':>8}  results")
    for name, target, fn in cases:
        ms, result = median_ms(fn, args.runs)
        size = len(result) if hasattr(result, "__len__") else 1
        flag = "" if ms <= target else "  OVER"
        print(f"{name:<44} {ms:>8.2f}ms {target:>6g}ms  {size}{flag}")
    times = []
    for _ in range(max(5, args.runs // 3)):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "lexitrain", "anagram", "AEINRST", "--lexicon", args.lexicon],
                       cwd=ROOT, check=True, capture_output=True)
        times.append((time.perf_counter() - start) * 1000)
    ms = statistics.median(times)
    print(f"{'process: lexitrain anagram AEINRST':<44} {ms:>8.2f}ms {300:>6g}ms{'  OVER' if ms > 300 else ''}")


if __name__ == "__main__":
    main()
