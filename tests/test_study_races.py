"""No lost update: a write that follows a read (spread, postpone, tournament, an override)
changes a card only if it is still as it was read; an answer given in between always wins.

Each race is made deterministic: the command's read is wrapped so that, right after it, a real
answer is given to one of the cards it read, from another connection (as another drill would),
before the command writes."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone

import pytest

from lexitrain.study.drills import backlog
from lexitrain.study.quiz.scheduler import GOOD, Scheduling
from lexitrain.study.quiz.session import Item, Session
from lexitrain.study.store import CardRow, ProgressStore
from study_helpers import anagram_oracle, small  # noqa: F401  (small is a fixture)
from tests.cli_runner import run

NOW = datetime(2026, 3, 1, 10, 0, tzinfo=timezone.utc)
DAY = 86400.0
ORACLE = anagram_oracle()
KEYS = ["AB", "ENT", "ANT", "AEINRST", "AEILNRST", "AEGINRST"]


def answer(lex, key: str, right: bool, moment: datetime) -> CardRow:
    """One real answer to the card of `key`, given in a drill of its own connection; the card after it."""
    with ProgressStore() as store:
        card_id = store.ensure_card(lex.name, "anagram", key, moment.timestamp())
        session = Session(store, lex, "quiz", "other drill", [Item("anagram", key, card_id)], Scheduling())
        for question in session.questions():
            session.answer(question, " ".join(sorted(ORACLE[key])) if right else "WRONG")
        session.finish(save_missed=False)
        return store.card(card_id)


@pytest.fixture
def overdue(small, monkeypatch):
    """Six review cards, all overdue by weeks on the day the test runs (NOW)."""
    monkeypatch.setenv("LEXITRAIN_NOW", NOW.isoformat())
    with ProgressStore() as store:
        ids = store.ensure_cards("small", [("anagram", k) for k in KEYS], NOW.timestamp() - 90 * DAY)
        for number, card_id in enumerate(ids):
            store.save_card(replace(store.card(card_id), state=2, stability=20.0 + number, difficulty=5.0,
                                    last_review=NOW.timestamp() - 60 * DAY, due=NOW.timestamp() - (30 + number) * DAY,
                                    correct=3, cardbox=3))
    return small


def missed_meanwhile(monkeypatch, lex, target, read: str) -> dict[str, CardRow]:
    """Wrap `target.read` so that right after it the card of ENT is missed in another drill."""
    original = getattr(target, read)
    given: dict[str, CardRow] = {}

    def read_then_answer(*args, **kwargs):
        rows = original(*args, **kwargs)
        if not given:
            given["ENT"] = answer(lex, "ENT", False, NOW)
        return rows

    monkeypatch.setattr(target, read, read_then_answer)
    return given


def ent() -> CardRow:
    with ProgressStore() as store:
        card = store.find_card("small", "anagram", "ENT")
        assert card is not None
        return card


@pytest.mark.parametrize("command", [
    ["study", "spread", "--per-day", "1"],
    ["study", "postpone", "--days", "30"],
])
def test_an_answer_given_while_the_backlog_is_sorted_wins(overdue, monkeypatch, command):
    given = missed_meanwhile(monkeypatch, overdue, backlog, "_overdue")
    result = run(*command, "--lexicon", "small")
    assert result.exit_code == 0, result.stderr
    missed = given["ENT"]
    assert missed.incorrect == 1 and missed.due < NOW.timestamp() + DAY  # missed: due again within the day
    assert ent() == missed  # not moved days or weeks ahead by the command
    with ProgressStore() as store:  # the other cards were moved
        moved = [k for k in KEYS if k != "ENT" and store.find_card("small", "anagram", k).due > NOW.timestamp()]
    assert len(moved) >= 4


def test_an_answer_given_while_the_tournament_plan_is_made_wins(overdue, monkeypatch):
    with ProgressStore() as store:  # all due after the tournament, and at risk by then
        for key in KEYS:
            card = store.find_card("small", "anagram", key)
            store.save_card(replace(card, stability=2.0, last_review=NOW.timestamp() - DAY,
                                    due=NOW.timestamp() + 40 * DAY))
    given = missed_meanwhile(monkeypatch, overdue, ProgressStore, "cards_forgotten_by")
    result = run("study", "tournament", (NOW + timedelta(days=20)).date().isoformat(), "--retention", "0.9",
                 "--lexicon", "small", "--json")
    assert result.exit_code == 0, result.stderr
    assert ent() == given["ENT"]
    with ProgressStore() as store:
        moved = [k for k in KEYS if store.find_card("small", "anagram", k).due < NOW.timestamp() + 20 * DAY]
    assert "ENT" in moved and len(moved) == len(KEYS)  # ENT by its answer (due within a day), the rest by the plan


def test_an_override_does_not_undo_an_answer_given_since_in_another_drill(small, monkeypatch):
    """`!c` on an answer after another drill answered the card again: the later answer stands, and the card
    is what both answers make of it with the first one right (as if it had been typed right)."""
    monkeypatch.setenv("LEXITRAIN_NOW", NOW.isoformat())
    with ProgressStore() as store:
        card_id = store.ensure_card("small", "anagram", "ENT", NOW.timestamp())
        session = Session(store, small, "quiz", "first drill", [Item("anagram", "ENT", card_id)], Scheduling())
        question = next(iter(session.questions()))
        outcome = session.answer(question, "WRONG")
        monkeypatch.setenv("LEXITRAIN_NOW", (NOW + timedelta(minutes=5)).isoformat())
        later = answer(small, "ENT", True, NOW + timedelta(minutes=5))  # another drill, in between
        assert later.correct == 1 and later.incorrect == 1
        changed = session.override(outcome, True)  # `!c` on the first answer, after the second
        assert changed.correct
        fresh = store.card(store.ensure_card("small", "anagram", "OTHER", NOW.timestamp()))
        both_right = Scheduling().grade(Scheduling().grade(replace(fresh, key="ENT"), GOOD, NOW), GOOD,
                                        NOW + timedelta(minutes=5))
        assert store.card(card_id) == replace(both_right, id=card_id, added=later.added)
        assert store.card(card_id).correct == 2 and store.card(card_id).last_review == later.last_review
        assert [review.correct for review in store.card_reviews(card_id)] == [True, True]  # the verdict is changed


def test_an_override_with_no_answer_since_reschedules_the_card(small, monkeypatch):
    monkeypatch.setenv("LEXITRAIN_NOW", NOW.isoformat())
    with ProgressStore() as store:
        card_id = store.ensure_card("small", "anagram", "ENT", NOW.timestamp())
        session = Session(store, small, "quiz", "drill", [Item("anagram", "ENT", card_id)], Scheduling())
        outcome = session.answer(next(iter(session.questions())), "WRONG")
        assert store.card(card_id).incorrect == 1
        session.override(outcome, True)
        card = store.card(card_id)
        assert (card.correct, card.incorrect) == (1, 0) and card.due > NOW.timestamp() + 60


def test_an_answer_saved_after_another_is_timed_after_it(small, monkeypatch):
    """Two drills answer one card (a quiz does not lease its cards): the one that waited for the
    write lock while the other saved is timed when it saves, so the card's last review is its
    latest answer and FSRS never sees time run backwards."""
    monkeypatch.setenv("LEXITRAIN_NOW", NOW.isoformat())
    with ProgressStore() as store:
        card_id = store.ensure_card("small", "anagram", "ENT", NOW.timestamp())
        session = Session(store, small, "quiz", "waiting drill", [Item("anagram", "ENT", card_id)], Scheduling())
        question = next(iter(session.questions()))
        original = store.transaction
        other: list[CardRow] = []

        def other_drill_saves_first():
            if not other:  # the other drill takes the lock first, ten seconds later by the clock
                monkeypatch.setenv("LEXITRAIN_NOW", (NOW + timedelta(seconds=10)).isoformat())
                other.append(answer(small, "ENT", True, NOW + timedelta(seconds=10)))
            return original()

        monkeypatch.setattr(store, "transaction", other_drill_saves_first)
        session.answer(question, "WRONG")
        monkeypatch.undo()
        card = store.card(card_id)
        reviews = store.card_reviews(card_id)
        assert [r.at for r in reviews] == sorted(r.at for r in reviews)
        assert card.last_review == reviews[-1].at >= other[0].last_review
