"""`lexitrain study tournament DATE --retention R`: the cards fsrs predicts below R on the
day are pulled forward, spread evenly over the days left; checked against fsrs's own
retrievability."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from datetime import datetime, timedelta, timezone

import fsrs
import pytest

from lexitrain.study.drills.daily import day_start
from lexitrain.study.store import ProgressStore
from study_helpers import WORDS, small  # noqa: F401  (small is a fixture)
from tests.cli_runner import run

NOW = datetime(2026, 3, 1, 10, 0, tzinfo=timezone.utc)
DAY = 86400.0


@pytest.fixture(autouse=True)
def pinned(monkeypatch):
    monkeypatch.setenv("LEXITRAIN_NOW", NOW.isoformat())


def seed_cards(count: int) -> dict[int, tuple]:
    """Review cards of every kind of history; (stability, difficulty, last review, due) by id."""
    rng = random.Random(7)
    keys = sorted({"".join(sorted(w)) for w in WORDS})[:count]
    now = NOW.timestamp()
    with ProgressStore() as store:
        ids = store.ensure_cards("small", [("anagram", k) for k in keys], now - 200 * DAY)
        for card_id in ids:
            store.save_card(replace(store.card(card_id), state=2, stability=rng.uniform(0.5, 80),
                                    difficulty=rng.uniform(2, 9), last_review=now - rng.uniform(0, 60) * DAY,
                                    due=now + rng.uniform(0.01, 90) * DAY))
        store.set_suspended(ids[:3], True)  # suspended cards are left alone
        return {i: (c.stability, c.difficulty, c.last_review, c.due) for i in ids for c in [store.card(i)]}


def test_the_cards_at_risk_on_the_day_are_spread_over_the_days_left(small):
    before = seed_cards(60)
    day = (NOW + timedelta(days=10)).date()
    result = run("study", "tournament", day.isoformat(), "--retention", "0.9", "--lexicon", "small", "--json")
    assert result.exit_code == 0, result.stderr
    plan = result.json()
    start = day_start(NOW)
    tournament = start.replace(year=day.year, month=day.month, day=day.day)
    with ProgressStore() as store:
        after = {i: store.card(i) for i in before}
        suspended = {i for i in before if store.card_place(i)[1]}
    scheduler = fsrs.Scheduler()
    at_risk, moved = set(), set()
    for card_id, (stability, difficulty, last_review, due) in before.items():
        card = fsrs.Card(state=fsrs.State.Review, stability=stability, difficulty=difficulty,
                         last_review=datetime.fromtimestamp(last_review, timezone.utc))
        if card_id in suspended or scheduler.get_card_retrievability(card, tournament) >= 0.9:
            continue
        at_risk.add(card_id)
        if due >= tournament.timestamp():
            moved.add(card_id)
    assert len(moved) > 10 and len(at_risk) > len(moved)  # the seed holds every case
    assert (plan["at_risk"], plan["moved"], plan["days"]) == (len(at_risk), len(moved), 10)
    for card_id, card in after.items():
        stability, difficulty, last_review, due = before[card_id]
        assert (card.stability, card.difficulty, card.last_review) == (stability, difficulty, last_review)
        if card_id in moved:
            assert NOW.timestamp() <= card.due < tournament.timestamp() and card.due <= due
        else:
            assert card.due == due
    days = Counter(datetime.fromtimestamp(after[i].due, timezone.utc).astimezone().date().isoformat() for i in moved)
    assert dict(days) == {d: n for d, n in plan["per_day"].items() if n}
    assert max(plan["per_day"].values()) - min(plan["per_day"].values()) <= 1 and len(plan["per_day"]) == 10
    first_day = [i for i in moved if after[i].due == NOW.timestamp()]
    assert len(first_day) == plan["per_day"][NOW.date().isoformat()]  # today's share is due at once


def test_a_tournament_today_makes_every_card_at_risk_due_now(small):
    before = seed_cards(20)
    result = run("study", "tournament", NOW.date().isoformat(), "--retention", "0.99", "--lexicon", "small")
    assert result.exit_code == 0 and "pulled forward to today, the tournament's day (" in result.stdout
    with ProgressStore() as store:
        moved = [i for i in before if store.card(i).due != before[i][3]]
        assert moved and all(store.card(i).due == NOW.timestamp() for i in moved)


@pytest.mark.parametrize("args, message", [
    (["2026-02-28", "--retention", "0.9"], "tournament date 2026-02-28 is in the past (today is 2026-03-01)"),
    (["2026-3-1x", "--retention", "0.9"], "tournament date '2026-3-1x': expected YYYY-MM-DD"),
    (["2026-04-01", "--retention", "1.5"], "--retention 1.5: expected a recall probability between 0 and 1"),
])
def test_bad_tournament_requests_are_one_line_errors(small, args, message):
    result = run("study", "tournament", *args, "--lexicon", "small")
    assert result.exit_code == 1 and message in result.stderr and len(result.stderr.strip().splitlines()) == 1
