"""The player's own FSRS: parameters fitted to their review log, judged on reviews held out.

lexitrain schedules with FSRS's default parameters until the player has answered enough
to fit their own (Anki does the same; WordVault never does). The fit is fsrs-rs-python's
optimizer (the Rust FSRS that Anki runs: a 1.5 MB wheel, a fit in about a second), chosen
over the `fsrs` package's own, which needs torch (see docs/study.md for the measurement).
A fit is applied only where it predicts held-out reviews better than what it replaces,
and a deck whose cards the general fit predicts worse than its own gets its own.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone

from fsrs_rs_python import DEFAULT_PARAMETERS, FSRS, FSRSItem, FSRSReview

from lexitrain.errors import LexitrainError
from lexitrain.study.quiz.scheduler import AGAIN, FSRS_PARAMETERS, GOOD
from lexitrain.study.store import ProgressStore

#: Fewer reviews than this fit noise, not a player (Anki asks for about as many).
MIN_REVIEWS = 400
#: Every fifth card, picked by a hash of its id (the same on every run), is held out.
HELD_OUT_EVERY = 5


@dataclass(frozen=True)
class Review:
    """One answer as FSRS reads it: which card, when (UTC seconds) and the rating 1-4."""

    card_id: int
    at: float
    rating: int


@dataclass(frozen=True)
class Fit:
    """How well a set of parameters predicts reviews: log loss and RMSE over bins, as FSRS
    reports them (lower is better)."""

    log_loss: float
    rmse: float

    def as_json(self) -> dict[str, float]:
        return {"log_loss": round(self.log_loss, 5), "rmse": round(self.rmse, 5)}


@dataclass
class Optimized:
    """The outcome of one `study optimize`: what was fitted and how it did."""

    reviews: int
    cards: int
    held_out: int
    parameters: list[float]
    before: Fit
    after: Fit
    applied: bool
    decks: list[dict[str, object]] = field(default_factory=list)

    def as_json(self) -> dict[str, object]:
        return {"reviews": self.reviews, "cards": self.cards, "held_out_reviews": self.held_out,
                "parameters": [round(p, 4) for p in self.parameters], "before": self.before.as_json(),
                "after": self.after.as_json(), "applied": self.applied, "decks": self.decks}


def reviews_from(rows: Iterable[tuple[int, float, int, int | None]]) -> list[Review]:
    """Reviews from stored answers (card, at, correct, rating): a typed answer is Good or Again."""
    return [Review(card, at, rating if rating is not None else (GOOD if correct else AGAIN))
            for card, at, correct, rating in rows]


def held_out(card_id: int) -> bool:
    return int(hashlib.sha256(str(card_id).encode()).hexdigest(), 16) % HELD_OUT_EVERY == 0


def fsrs_items(reviews: Sequence[Review]) -> list[FSRSItem]:
    """FSRS's training items: for each card, every prefix of its reviews that ends in one to
    predict on a later day; days between reviews counted on UTC calendar days."""
    by_card: dict[int, list[Review]] = {}
    for review in sorted(reviews, key=lambda r: (r.card_id, r.at)):
        by_card.setdefault(review.card_id, []).append(review)
    items: list[FSRSItem] = []
    for history in by_card.values():
        steps, last_day = [], None
        for review in history:
            day = datetime.fromtimestamp(review.at, timezone.utc).date()
            days = 0 if last_day is None else (day - last_day).days
            steps.append(FSRSReview(review.rating, days))
            last_day = day
            if len(steps) > 1 and days > 0:  # FSRS predicts recall across days, not within one
                items.append(FSRSItem(list(steps)))
    return items


def evaluate(parameters: Sequence[float], items: list[FSRSItem]) -> Fit:
    result = FSRS(list(parameters)).evaluate(items)
    return Fit(float(result.log_loss), float(result.rmse_bins))


def fit_parameters(items: list[FSRSItem]) -> list[float]:
    return [float(p) for p in FSRS(list(DEFAULT_PARAMETERS)).compute_parameters(items)]


def default_parameters() -> list[float]:
    return [float(p) for p in DEFAULT_PARAMETERS]


def fit(reviews: Sequence[Review], current: Sequence[float] | None = None) -> tuple[list[float], Fit, Fit, int]:
    """(fitted parameters, the fit of CURRENT (default: FSRS's defaults) on held-out cards, the
    fitted parameters' fit there, held-out reviews), or a one-line error when there are too
    few reviews to fit."""
    if len(reviews) < MIN_REVIEWS:
        raise LexitrainError(f"{len(reviews)} reviews so far; FSRS fits a player's own parameters from "
                             f"{MIN_REVIEWS} on (answer {MIN_REVIEWS - len(reviews)} more)")
    train = fsrs_items([r for r in reviews if not held_out(r.card_id)])
    test = fsrs_items([r for r in reviews if held_out(r.card_id)])
    if not train or not test:
        raise LexitrainError("too few cards reviewed twice or more to fit and check FSRS's parameters")
    fitted = fit_parameters(train)
    before = evaluate(current if current is not None else default_parameters(), test)
    return fitted, before, evaluate(fitted, test), sum(1 for r in reviews if held_out(r.card_id))


def optimize(store: ProgressStore, lexicon: str, apply: bool = True) -> Optimized:
    """Fit the player's FSRS parameters to every review they gave, and a deck of LEXICON its own
    where that predicts its cards better; keep (unless APPLY is false) only what beats what it
    would replace on held-out reviews."""
    saved = store.setting(FSRS_PARAMETERS, {})
    general = saved.get("general")
    reviews = reviews_from(store.review_log())
    fitted, before, after, held = fit(reviews, general)
    applied = apply and after.log_loss < before.log_loss
    result = Optimized(len(reviews), len({r.card_id for r in reviews}), held, fitted, before, after, applied)
    chosen = fitted if applied else general
    decks: dict[str, list[float]] = dict(saved.get("decks", {}))
    for deck in store.decks(lexicon):
        decks.pop(str(deck.id), None)
        deck_reviews = reviews_from(store.review_log(deck.id))
        if len(deck_reviews) < MIN_REVIEWS:
            continue
        try:
            own, shared, alone, _ = fit(deck_reviews, chosen)
        except LexitrainError:
            continue
        better = alone.log_loss < shared.log_loss
        result.decks.append({"deck": deck.name, "reviews": len(deck_reviews), "general": shared.as_json(),
                             "own": alone.as_json(), "applied": apply and better})
        if better:
            decks[str(deck.id)] = own
    if apply:
        store.set_setting(FSRS_PARAMETERS, {"general": chosen, "decks": decks})
    return result


def reset(store: ProgressStore) -> None:
    """Back to FSRS's default parameters, in general and in every deck."""
    store.set_setting(FSRS_PARAMETERS, {"general": None, "decks": {}})
