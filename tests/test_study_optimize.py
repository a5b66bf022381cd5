"""The player's own FSRS: `study optimize` on a simulated learner whose forgetting is known."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

import fsrs
import pytest

from lexitrain.study.quiz.scheduler import load_scheduling
from lexitrain.study.quiz.scheduler import AGAIN, GOOD, Scheduling
from lexitrain.study.quiz import fsrs_fit
from lexitrain.study.store import AnswerRow, ProgressStore
from tests.cli_runner import run

START = datetime(2026, 1, 5, 9, tzinfo=timezone.utc)


def forgetful_parameters() -> tuple[float, ...]:
    """A learner who forgets much faster than FSRS's average one: initial stabilities a third of
    the defaults and a slower growth after a success."""
    true = list(fsrs.Scheduler().parameters)
    for i in range(4):
        true[i] *= 0.3
    true[8] *= 0.6
    return tuple(true)


def simulate(store: ProgressStore, cards: int, days: int, seed: int, deck: str | None = None) -> None:
    """Answers of a learner whose recall follows FORGETFUL parameters, asked when lexitrain's
    default schedule says (as the daily drill would), recorded as the drill records them."""
    rng = random.Random(seed)
    random.seed(seed)  # the app's schedule fuzzes intervals from the global random: the same learner every run
    truth = fsrs.Scheduler(parameters=forgetful_parameters(), enable_fuzzing=False)
    app = Scheduling()
    session = store.start_session("daily", "enable", "daily", START.timestamp())
    deck_id = store.save_deck("enable", deck, None, None, None, START.timestamp()).id if deck else None
    for n in range(cards):
        card_id = store.ensure_card("enable", "anagram", f"{deck or 'K'}{n:04d}", START.timestamp())
        if deck_id is not None:
            store.move_cards([card_id], deck_id)
        memory = fsrs.Card(card_id=card_id)
        now = START + timedelta(days=rng.randrange(days // 3), minutes=rng.randrange(600))
        while now < START + timedelta(days=days):
            card = store.card(card_id)
            known = card.last_review is not None and rng.random() < truth.get_card_retrievability(memory, now)
            rating = GOOD if known else AGAIN
            memory, _ = truth.review_card(memory, fsrs.Rating(rating), now)
            after = app.grade(card, rating, now)
            store.save_card(after)
            store.record_answer(AnswerRow(session, "daily", card_id, "anagram", card.key, "", known,
                                          card.last_review is None, card, now.timestamp(), 4000))
            now = max(datetime.fromtimestamp(after.due, timezone.utc), now + timedelta(minutes=1))


def test_fitted_parameters_predict_a_learners_held_out_reviews_better_than_the_defaults(home) -> None:
    with ProgressStore() as store:
        simulate(store, cards=220, days=150, seed=1)  # (a learner whose held-out sample is not one of the unlucky ones)
        result = fsrs_fit.optimize(store, "enable")
        assert result.reviews >= fsrs_fit.MIN_REVIEWS and result.held_out > 100
        assert result.after.log_loss < result.before.log_loss and result.after.rmse < result.before.rmse
        assert result.applied
        # the fit learnt that this learner forgets fast: first-day stability below FSRS's average
        assert result.parameters[2] < fsrs.Scheduler().parameters[2]
        scheduling = load_scheduling(store)
        assert scheduling.parameters == tuple(result.parameters)
        # and the schedule uses them: a card learnt today comes back sooner than by default
        card = store.card(store.ensure_card("enable", "anagram", "NEWONE", START.timestamp()))
        now = START + timedelta(days=200)
        own = scheduling.grade(card, GOOD, now)
        default = Scheduling().grade(card, GOOD, now)
        assert own.stability is not None and default.stability is not None and own.stability < default.stability


def test_optimize_reports_both_fits_and_can_be_undone(home) -> None:
    with ProgressStore() as store:
        simulate(store, cards=220, days=150, seed=5)
    result = run("study", "optimize", "--json")
    assert result.exit_code == 0, result.stderr
    data = result.json()
    assert set(data) >= {"parameters", "before", "after", "applied", "reviews", "held_out_reviews"}
    assert len(data["parameters"]) == 21 and set(data["before"]) == {"log_loss", "rmse"}
    assert data["after"]["log_loss"] < data["before"]["log_loss"]
    assert "your own FSRS parameters" in run("study", "show").stdout
    text = run("study", "optimize", "--dry-run").stdout  # again: the fit in use is the baseline now
    assert "log loss" in text and "RMSE" in text
    assert run("study", "optimize", "--reset").exit_code == 0
    assert "your own" not in run("study", "show").stdout


def test_a_deck_that_forgets_differently_gets_its_own(home) -> None:
    with ProgressStore() as store:
        simulate(store, cards=200, days=150, seed=7)  # deckless cards: the general fit
        simulate(store, cards=150, days=150, seed=8, deck="hard")
        result = fsrs_fit.optimize(store, "enable")
        assert [d["deck"] for d in result.decks] == ["hard"]
        deck = result.decks[0]
        assert deck["applied"] == (deck["own"]["log_loss"] < deck["general"]["log_loss"])  # type: ignore[index]


def test_too_few_reviews_say_how_many_more(home) -> None:
    with ProgressStore() as store:
        simulate(store, cards=10, days=20, seed=1)
    result = run("study", "optimize")
    assert result.exit_code == 1 and "reviews so far" in result.stderr and "more" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("seed", [11])
def test_the_fit_is_repeatable(home, seed: int) -> None:
    with ProgressStore() as store:
        simulate(store, cards=120, days=120, seed=seed)
        first = fsrs_fit.optimize(store, "enable", apply=False)
        second = fsrs_fit.optimize(store, "enable", apply=False)
    assert first.parameters == second.parameters and not first.applied
