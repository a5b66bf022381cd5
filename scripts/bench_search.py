"""Benchmark the word tools on ENABLE; prints the median of several runs.

Usage: python scripts/bench_search.py [--runs N] [--lexicon enable]

In-process timings call the same functions the commands use (after one
warm-up call, which opens the tries and builds the regex scan string and the
top stems); the last lines time whole processes: `lexitrain anagram AEINRST`,
and 500 search rows as the table and as --json (the table may take 100 ms more).
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

from lexitrain.lexicon.catalog import open_lexicon  # noqa: E402
from lexitrain.search import hooks  # noqa: E402
from lexitrain.search.execute import run_search  # noqa: E402
from lexitrain.search.query import parse_query  # noqa: E402
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
        ("search --pattern ?A?E??S (all lengths)", 100, lambda: run_search(lex, parse_query("--pattern ?A?E??S"))),
        ("search --pattern *ZZ*", 100, lambda: run_search(lex, parse_query("--pattern *ZZ*"))),
        ("search --anagram AEINRST??", 100, lambda: run_search(lex, parse_query("--anagram AEINRST??"))),
        ("search --length 7 --probability 1-500", 100, lambda: run_search(lex, parse_query("--length 7 --probability 1-500"))),
        ("search --length 2-15 --regex ^QI", 1000, lambda: run_search(lex, parse_query("--regex ^QI"))),
        ("search --length 7 (23,109 rows)", 1000, lambda: run_search(lex, parse_query("--length 7"))),
        ("search --takes-prefix RE (all of ENABLE)", 200, lambda: run_search(lex, parse_query("--takes-prefix RE"))),
        ("search --group type1-sevens", 300, lambda: run_search(lex, parse_query("--group type1-sevens"))),
    ]
    print(f"{'case':<44} {'median':>10} {'target':>8}  results")
    for name, target, fn in cases:
        ms, result = median_ms(fn, args.runs)
        size = len(result) if hasattr(result, "__len__") else 1
        flag = "" if ms <= target else "  OVER"
        print(f"{name:<44} {ms:>8.2f}ms {target:>6g}ms  {size}{flag}")
    runs = max(5, args.runs // 3)
    ms = process_ms(["anagram", "AEINRST", "--lexicon", args.lexicon], runs)
    print(f"{'process: lexitrain anagram AEINRST':<44} {ms:>8.2f}ms {300:>6g}ms{'  OVER' if ms > 300 else ''}")
    rows = ["search", "--length", "7", "--probability", "1-300", "--limit", "500", "--lexicon", args.lexicon]
    json_ms = process_ms([*rows, "--json"], runs)
    print(f"{'process: search 500 rows --json':<44} {json_ms:>8.2f}ms")
    table_ms = process_ms(rows, runs, terminal=True)
    flag = "  OVER" if table_ms > json_ms + 100 else ""
    print(f"{'process: search 500 rows as the table':<44} {table_ms:>8.2f}ms {json_ms + 100:>6.0f}ms{flag}")


def process_ms(args: list[str], runs: int, terminal: bool = False) -> float:
    """Median time of whole `lexitrain ARGS` processes; `terminal` gives them a pseudo-terminal
    for stdout, so the table is styled as a player sees it."""
    import os
    import pty

    times = []
    for _ in range(runs):
        reader, writer = pty.openpty() if terminal else (None, subprocess.PIPE)
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "lexitrain", *args], cwd=ROOT, stdout=writer,
                                stderr=subprocess.DEVNULL)
        if reader is not None:
            os.close(writer)
            while True:  # drain the terminal so the process never blocks on it
                try:
                    if not os.read(reader, 65536):
                        break
                except OSError:
                    break
            os.close(reader)
        else:
            assert proc.stdout is not None
            proc.stdout.read()
        proc.wait()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


if __name__ == "__main__":
    main()
