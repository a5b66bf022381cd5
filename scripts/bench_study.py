"""Benchmark the study core with 100,000 cards in the progress store.

Prints medians (milliseconds):
- picking the next question of the daily drill (due review or next new card, leased
  to the drill, within today's limits) and building it from the lexicon;
- recording an answer: check it, schedule the card with FSRS, commit;
- building a 50-question daily challenge, for each kind;
- a card lookup (`study card`: the card, its deck, every answer, retrievability now);
- the tournament reschedule of every card (`study tournament`), on a copy of the store.
- the coverage of the sevens (the share of bingo draws whose words are known);

The store is filled through the real API: a plan of 100,000 ENABLE alphagram
cards, 60,000 of them given a review history spread over the last and next
two months, and 100,000 past answers.

Run: python scripts/bench_study.py [--runs N] [--home DIR]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CARDS = 100_000
REVIEWED = 60_000
PAST_ANSWERS = 100_000


def median_ms(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1000:.2f} ms"


def fill(store, lex) -> int:
    """A 100,000-card plan; most cards reviewed before; returns the plan id."""
    from lexitrain.study.drills.plans import set_plan
    from lexitrain.study.quiz.scheduler import utc_now
    from lexitrain.study.store import AnswerRow

    steps, total = [], 0
    for length in range(2, 16):
        count = lex.counts_by_length("alphagram")[length]
        steps.append({"kind": "anagram", "length": length, "top": min(count, CARDS - total)})
        total += steps[-1]["top"]
        if total == CARDS:
            break
    plan = set_plan(store, lex, "bench", steps)
    assert plan.cards == CARDS, plan.cards
    rng = random.Random(1)
    now = utc_now().timestamp()
    day = 86400.0
    ids = [card.id for card in store.new_cards(plan.id, REVIEWED)]
    with store.transaction():
        for card_id in ids:
            store.save_card(replace(
                store.card(card_id), state=2, stability=rng.uniform(1, 60), difficulty=rng.uniform(2, 8),
                due=now + rng.uniform(-60, 60) * day, last_review=now - rng.uniform(1, 60) * day, correct=3))
        session_id = store.start_session("daily", "enable", "bench", 0)
        for _ in range(PAST_ANSWERS):
            store.record_answer(AnswerRow(session_id, "daily", rng.choice(ids), "anagram", "", "", True, False, None,
                                          now - rng.uniform(1, 60) * day, None))
    return plan.id


def bench_lookups(store, lex, runs: int) -> None:
    """`study card` on cards with answers (the ones just answered and the reviewed ones)."""
    from lexitrain.study.records.cards import look_up

    rng = random.Random(2)
    keys = [key for kind, key, state, *_ in store.card_counters(lex.name) if state != 0 and kind == "anagram"]
    samples = []
    for _ in range(runs):
        key = rng.choice(keys)
        t0 = time.perf_counter()
        look_up(store, lex, f"anagram:{key}")
        samples.append(time.perf_counter() - t0)
    print(f"card lookup (of {CARDS:,}):           median {median_ms(samples)}  over {runs}")


def bench_tournament(home: Path, progress: Path, runs: int = 5) -> None:
    """The tournament reschedule of every card, each run on a fresh copy of the filled store."""
    import shutil

    from lexitrain.study.store import ProgressStore
    from lexitrain.study.drills.tournament import prepare

    day = (date.today() + timedelta(days=21)).isoformat()
    samples, moved = [], 0
    for run in range(runs):
        copy = home / f"tournament-{run}.sqlite"
        with ProgressStore() as store:
            store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        shutil.copy(progress, copy)
        with ProgressStore(copy) as store:
            t0 = time.perf_counter()
            moved = prepare(store, "enable", day, 0.95).moved
            samples.append(time.perf_counter() - t0)
        copy.unlink()
    print(f"tournament reschedule ({CARDS:,} cards, {moved:,} moved): median {median_ms(samples)}  over {runs}")


def bench_coverage(store, lex, runs: int = 5) -> None:
    """The stats' coverage of the sevens over the filled store (budget: 2 s)."""
    from lexitrain.study.records.coverage import coverage

    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        [sevens] = coverage(store, lex, [7])
        samples.append(time.perf_counter() - t0)
    print(f"coverage of the sevens ({sevens.known:,} of {sevens.alphagrams:,} known, {sevens.share:.1%} of draws): "
          f"median {median_ms(samples)}  over {runs}")


def bench_arguments(doc: str, prefix: str, runs: int, runs_help: str,
                    more: Callable[[argparse.ArgumentParser], None] | None = None) -> argparse.Namespace:
    """A store benchmark's options (--runs, --home and MORE), LEXITRAIN_HOME set to its home (by default a fresh
    temporary one, named from PREFIX)."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--runs", type=int, default=runs, help=runs_help)
    parser.add_argument("--home", help="LEXITRAIN_HOME to use (default: a fresh temporary one)")
    if more is not None:
        more(parser)
    args = parser.parse_args()
    os.environ["LEXITRAIN_HOME"] = args.home = args.home or tempfile.mkdtemp(prefix=prefix)
    return args


def main() -> None:
    args = bench_arguments(__doc__, "bench-study-", 300, "timed picks and answers")
    home = args.home
    from lexitrain.lexicon.catalog import open_lexicon
    from lexitrain.study.drills import challenge as ch
    from lexitrain.study.quiz.kinds.base import new_kind
    from lexitrain.study.drills.daily import Limits, new_holder, pick
    from lexitrain.study.quiz.scheduler import Scheduling
    from lexitrain.study.quiz.session import Item, Session
    from lexitrain.study.store import ProgressStore

    lex = open_lexicon("enable")
    progress = Path(home) / "progress.sqlite"
    if progress.exists():
        sys.exit(f"{progress} exists: give an empty --home")
    with ProgressStore() as store:
        started = time.perf_counter()
        plan_id = fill(store, lex)
        print(f"store filled with {CARDS:,} cards and {PAST_ANSWERS:,} past answers "
              f"in {time.perf_counter() - started:.1f} s")
        limits = Limits(new=10 * args.runs, reviews=10 * args.runs)
        session = Session(store, lex, "daily", "bench", [], Scheduling())
        picks, builds, answers = [], [], []
        holder = new_holder()
        for _ in range(args.runs):
            t0 = time.perf_counter()
            card = pick(store, lex.name, plan_id, limits, holder)  # leased, as the drill picks it
            t1 = time.perf_counter()
            question = session.ask(Item(card.kind, card.key, card.id))
            t2 = time.perf_counter()
            session.answer(question, " ".join(question.expected[:1]) if card.id % 3 else "WRONG")
            t3 = time.perf_counter()
            picks.append(t1 - t0)
            builds.append(t2 - t0)
            answers.append(t3 - t2)
        print(f"pick next card (of {CARDS:,}):       median {median_ms(picks)}  over {args.runs}")
        print(f"pick + build next question:       median {median_ms(builds)}")
        print(f"record an answer (check, FSRS, commit): median {median_ms(answers)}")
        bench_lookups(store, lex, args.runs)
        bench_coverage(store, lex)
    bench_tournament(Path(home), progress)
    day = date(2026, 1, 1)
    for kind in (k for k in ch.KINDS.values() if not k.personal):  # the toughies read the store, not the lexicon
        samples = []
        for offset in range(20):
            t0 = time.perf_counter()
            items = ch.challenge_items(lex, day + timedelta(days=offset), kind.name)
            questions = [new_kind(item.kind).build(lex, item.key) for item in items]
            samples.append(time.perf_counter() - t0)
            assert questions
        print(f"build a challenge ({kind.name}, {len(questions)} questions): median {median_ms(samples)}  over 20 dates")
    load = os.getloadavg()
    print(f"load average during the run: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
