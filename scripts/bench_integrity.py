"""Time the damage check and the daily backup at 100,000 cards, and `daily`'s first question.

Prints medians (milliseconds):
- `PRAGMA quick_check` on the progress file (run at the day's first open, before anything else);
- `PRAGMA integrity_check`, the full check that also compares every index with its table (run
  beside the command at an open an hour after the last, writes held until it passes; before every
  upgrade, import, export and bulk reschedule; on every backup's copy);
- the rolling backup (SQLite's backup API into backups/, its copy checked in full);
- `lexitrain daily --jsonl`: from starting the process to its first question line, on a day
  already checked, and on the day's first open (quick_check included, the full check running
  beside it; the backup is taken as the store closes, after the drill). Python runs as an installed lexitrain runs, its modules'
  bytecode cached (compiled once here): with PYTHONDONTWRITEBYTECODE set, as in some sandboxes,
  every start compiles every module from source again, some 75 ms more; `--no-bytecode`
  measures that way.

The store is filled as scripts/bench_study.py fills it (100,000 ENABLE alphagram cards,
60,000 reviewed, 100,000 past answers).

Run: python scripts/bench_integrity.py [--runs N] [--home DIR]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))


def median_ms(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1000:.1f} ms"


def first_question(env: dict[str, str]) -> float:
    """Seconds from starting `lexitrain daily --jsonl` to its first question line."""
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "lexitrain", "daily", "--jsonl", "--lexicon", "enable"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=env)
    assert process.stdout is not None and process.stdin is not None
    line = process.stdout.readline()
    elapsed = time.perf_counter() - started
    process.stdin.close()
    process.wait(timeout=60)
    assert '"question"' in line, (line, process.stderr.read() if process.stderr else "")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="timed runs of each")
    parser.add_argument("--home", help="LEXITRAIN_HOME with ENABLE compiled (default: a fresh one); a progress "
                        "file already there is used as it is")
    parser.add_argument("--no-bytecode", action="store_true", help="start each `daily` compiling its modules "
                        "from source (PYTHONDONTWRITEBYTECODE), not from the cached bytecode")
    args = parser.parse_args()
    if args.no_bytecode:
        os.environ["PYTHONDONTWRITEBYTECODE"] = "1"
    else:
        import compileall

        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
        compileall.compile_dir(ROOT / "lexitrain", quiet=1)
    home = Path(args.home or tempfile.mkdtemp(prefix="bench-integrity-"))
    os.environ["LEXITRAIN_HOME"] = str(home)
    from bench_study import CARDS, PAST_ANSWERS, fill

    from lexitrain.lexicon.catalog import open_lexicon
    from lexitrain.study.store import ProgressStore, backups
    from lexitrain.study.store.integrity import full_check, quick_check

    lex = open_lexicon("enable")
    progress = home / "progress.sqlite"
    if not progress.exists():
        with ProgressStore() as store:
            fill(store, lex)
            store.set_setting("limit:reviews", 1000)
    size = progress.stat().st_size
    print(f"store: {CARDS:,} cards, {PAST_ANSWERS:,} past answers, {size / 1e6:.1f} MB")
    with ProgressStore() as store:
        checks, copies, check_cpu, copy_cpu, fulls, full_cpu = [], [], [], [], [], []
        for run in range(args.runs):
            t0, c0 = time.perf_counter(), time.process_time()
            assert quick_check(store.conn) is None
            checks.append(time.perf_counter() - t0)
            check_cpu.append(time.process_time() - c0)
            t0, c0 = time.perf_counter(), time.process_time()
            assert full_check(store.conn) is None
            fulls.append(time.perf_counter() - t0)
            full_cpu.append(time.process_time() - c0)
            t0, c0 = time.perf_counter(), time.process_time()
            copy = backups.take(store.conn, progress, datetime(2000, 1, 1 + run))
            copies.append(time.perf_counter() - t0)
            copy_cpu.append(time.process_time() - c0)
            copy.unlink()
    # (CPU time too: on a loaded machine the wall time is mostly waiting for a core)
    print(f"quick_check:                 median {median_ms(checks)} wall, {median_ms(check_cpu)} CPU  over {args.runs}")
    print(f"integrity_check:             median {median_ms(fulls)} wall, {median_ms(full_cpu)} CPU  over {args.runs}")
    print(f"rolling backup, copy checked: median {median_ms(copies)} wall, {median_ms(copy_cpu)} CPU  over {args.runs}")
    base = datetime.now(timezone.utc) + timedelta(days=30 + int(time.time()) % 5000)  # days no earlier run used
    checked_today, first_open = [], []
    for run in range(args.runs):
        day = (base + timedelta(days=run)).isoformat()
        env = {**os.environ, "LEXITRAIN_NOW": day}
        first_open.append(first_question(env))  # the day's first open: the check
        checked_today.append(first_question(env))
    print("daily (bytecode " + ("compiled at each start" if args.no_bytecode else "cached, as installed") + "):")
    print(f"daily: first question, day already checked:  median {median_ms(checked_today)}  over {args.runs}")
    print(f"daily: first question, day's first open:     median {median_ms(first_open)}  over {args.runs}")
    print(f"ratio first open / checked: {statistics.median(first_open) / statistics.median(checked_today):.2f}")
    load = os.getloadavg()
    print(f"load average during the run: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
