"""Choose FSRS's optimizer by measurement: fit time and held-out fit of fsrs-rs-python (what
`study optimize` uses) and, where torch is installed, the `fsrs` package's own Optimizer, on
one simulated learner of known forgetting (the same reviews for both).

    python scripts/bench_fsrs_fit.py [--cards 400] [--days 180] [--repeats 3]

Both fits are judged by the same yardstick: log loss and RMSE of each parameter set on the
held-out cards' reviews, and the FSRS defaults beside them. Install size is measured apart
(`du -sh` of a venv with `fsrs[optimizer]`).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from datetime import datetime, timedelta, timezone

import fsrs

from lexitrain.study.quiz import fsrs_fit


def simulate(cards: int, days: int, seed: int) -> list[fsrs_fit.Review]:
    """A learner who forgets faster than FSRS's average one, asked when the default schedule says."""
    true = list(fsrs.Scheduler().parameters)
    for i in range(4):
        true[i] *= 0.3
    true[8] *= 0.6
    truth = fsrs.Scheduler(parameters=true, enable_fuzzing=False)
    app = fsrs.Scheduler(enable_fuzzing=False)
    rng = random.Random(seed)
    start = datetime(2026, 1, 5, 9, tzinfo=timezone.utc)
    reviews = []
    for card_id in range(1, cards + 1):
        memory, shown = fsrs.Card(card_id=card_id), fsrs.Card(card_id=card_id)
        now = start + timedelta(days=rng.randrange(days // 3), minutes=rng.randrange(600))
        while now < start + timedelta(days=days):
            known = shown.last_review is not None and rng.random() < truth.get_card_retrievability(memory, now)
            rating = fsrs.Rating.Good if known else fsrs.Rating.Again
            memory, _ = truth.review_card(memory, rating, now)
            shown, _ = app.review_card(shown, rating, now)
            reviews.append(fsrs_fit.Review(card_id, now.timestamp(), int(rating)))
            now = max(shown.due, now + timedelta(minutes=1))
    return reviews


def torch_fit(reviews: list[fsrs_fit.Review]) -> list[float] | None:
    """The fsrs package's own optimizer on the training cards, or None where torch is missing."""
    try:
        optimizer_class = fsrs.Optimizer
        logs = [fsrs.ReviewLog(card_id=r.card_id, rating=fsrs.Rating(r.rating),
                               review_datetime=datetime.fromtimestamp(r.at, timezone.utc), review_duration=None)
                for r in reviews if not fsrs_fit.held_out(r.card_id)]
        return [float(p) for p in optimizer_class(logs).compute_optimal_parameters()]
    except ImportError:
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=400)
    parser.add_argument("--days", type=int, default=180)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    reviews = simulate(args.cards, args.days, seed=1)
    train = fsrs_fit.fsrs_items([r for r in reviews if not fsrs_fit.held_out(r.card_id)])
    test = fsrs_fit.fsrs_items([r for r in reviews if fsrs_fit.held_out(r.card_id)])
    print(f"{len(reviews)} reviews of {args.cards} cards; {len(test)} held-out predictions")
    default = fsrs_fit.evaluate(fsrs_fit.default_parameters(), test)
    print(f"FSRS defaults        log loss {default.log_loss:.4f}  RMSE {default.rmse:.4f}")
    times, fitted = [], []
    for _ in range(args.repeats):
        started = time.perf_counter()
        fitted = fsrs_fit.fit_parameters(train)
        times.append(time.perf_counter() - started)
    rs = fsrs_fit.evaluate(fitted, test)
    print(f"fsrs-rs-python       log loss {rs.log_loss:.4f}  RMSE {rs.rmse:.4f}  fit {statistics.median(times):.2f} s (median of {args.repeats})")
    started = time.perf_counter()
    own = torch_fit(reviews)
    if own is None:
        print("fsrs[optimizer]      not installed here (needs torch)")
    else:
        seconds = time.perf_counter() - started
        fit = fsrs_fit.evaluate(own, test)
        print(f"fsrs[optimizer]      log loss {fit.log_loss:.4f}  RMSE {fit.rmse:.4f}  fit {seconds:.2f} s (once)")


if __name__ == "__main__":
    main()
