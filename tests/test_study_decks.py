"""Decks with their own FSRS settings, moving, suspending and deleting cards, the card
lookup, counts per state and Leitner box, and leeches: end to end through the CLI."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone

import fsrs
import pytest

from lexitrain.study.records.cards import interval_box
from lexitrain.study.store import ProgressStore
from study_helpers import anagram_oracle, lines, of, small  # noqa: F401  (small is a fixture)
from lexitrain.study.quiz.scheduler import load_fsrs
from tests.cli_runner import run

NOW = datetime(2026, 3, 1, 10, 0, tzinfo=timezone.utc)
DAY = 86400.0
ORACLE = anagram_oracle()


@pytest.fixture(autouse=True)
def pinned(monkeypatch):
    """The clock pinned, and fsrs's interval fuzz drawing one fixed number, so that the
    CLI's due dates and fsrs's own, computed here, are the same to the second."""
    monkeypatch.setenv("LEXITRAIN_NOW", NOW.isoformat())
    monkeypatch.setattr(load_fsrs().scheduler, "random", lambda: 0.5)  # (over the answer's draw load_fsrs sets)


def ok(*args: str, input: str | None = None):
    result = run(*args, "--lexicon", "small", input=input)
    assert result.exit_code == 0, result.stderr
    return result


def quiz(*args: str, answers: list[str] = ()) -> list[dict]:
    return lines(ok("quiz", "--jsonl", *args, input="".join(a + "\n" for a in answers)).stdout)


def reviewed(keys: list[str], stability: float = 10.0, elapsed_days: float = 10.0, due_in_days: float = 0.0,
             difficulty: float = 5.0) -> list[int]:
    """Cards in FSRS review state, last reviewed `elapsed_days` ago, due in `due_in_days`."""
    now = NOW.timestamp()
    with ProgressStore() as store:
        ids = store.ensure_cards("small", [("anagram", k) for k in keys], now - 100 * DAY)
        for card_id in ids:
            store.save_card(replace(store.card(card_id), state=2, step=None, stability=stability,
                                    difficulty=difficulty, last_review=now - elapsed_days * DAY,
                                    due=now + due_in_days * DAY, correct=1))
    return ids


def card(name: str) -> dict:
    return ok("study", "card", name, "--json").json()


def right(alphagram: str) -> str:
    return " ".join(sorted(ORACLE[alphagram]))


def test_a_decks_retention_schedules_its_cards(small):
    reviewed(["AB", "AD"])
    ok("study", "deck", "tight", "--retention", "0.97")
    ok("study", "move", "anagram:AB", "--deck", "tight")
    results = of("result", quiz("--due", answers=[right("AB"), right("AD")]))
    assert [r["id"] for r in results] == ["anagram:AB", "anagram:AD"]
    for result, retention in zip(results, (0.97, 0.9)):
        expected, _ = fsrs.Scheduler(desired_retention=retention).review_card(
            fsrs.Card(state=fsrs.State.Review, stability=10.0, difficulty=5.0, due=NOW,
                      last_review=NOW - timedelta(days=10)), fsrs.Rating.Good, NOW)
        assert result["card"]["due"] == expected.due.isoformat()
    assert results[0]["card"]["due"] < results[1]["card"]["due"]  # higher retention: back sooner
    listing = {d["name"]: d for d in ok("study", "decks", "--json").json()}
    assert listing["tight"]["retention"] == 0.97 and listing["tight"]["cards"] == 1
    assert listing[None]["retention"] == 0.9 and listing[None]["cards"] == 1


def test_a_decks_daily_limits_hold_within_the_general_ones(small, monkeypatch):
    ok("study", "plan", "--list", "twos")
    ok("study", "set", "--new", "20")
    ok("study", "deck", "twos", "--new", "2", "--reviews", "0")
    assert ok("study", "move", "--search", "--length 2", "--deck", "twos").stdout.startswith("moved ")
    out = lines(ok("daily", "--jsonl", input="x\n" * 6).stdout)
    assert len(of("question", out)) == 2 and of("summary", out)[0]["questions"] == 2
    # minutes later the two missed cards are due again, but the deck allows no reviews today
    monkeypatch.setenv("LEXITRAIN_NOW", (NOW + timedelta(minutes=5)).isoformat())
    assert of("question", lines(ok("daily", "--jsonl", input="x\n" * 6).stdout)) == []
    ok("study", "deck", "twos", "--reviews", "5")  # the settings not given stay: still 2 new
    assert ok("study", "decks", "--json").json()[0]["new_per_day"] == 2
    monkeypatch.setenv("LEXITRAIN_NOW", (NOW + timedelta(days=1)).isoformat())
    out = lines(ok("daily", "--jsonl", input="x\n" * 10).stdout)
    assert [r["card"]["state"] for r in of("result", out)] == ["learning"] * 4  # 2 reviews, then 2 new
    assert sum(q["id"] in {r["id"] for r in of("result", out)[:2]} for q in of("question", out)) == 2


def test_suspend_unsuspend_move_and_delete(small):
    reviewed(["AB", "AD", "AE"])
    ok("study", "suspend", "AB", "ba")  # by letters (one card named twice)
    assert card("anagram:AB")["suspended"] is True
    asked = [q["id"] for q in of("question", quiz("--due", answers=["", ""]))]
    assert asked == ["anagram:AD", "anagram:AE"]
    assert ok("daily", "--status", "--json").json()["reviews_left"] == 0  # both answered, AB suspended
    ok("study", "unsuspend", "anagram:AB")
    assert [q["id"] for q in of("question", quiz("--due", answers=[""]))] == ["anagram:AB"]
    ok("study", "deck", "later")
    ok("study", "move", "AD", "AE", "--deck", "later")
    assert card("AD")["deck"] == "later"
    ok("study", "move", "AD", "--deck", "none")
    assert card("AD")["deck"] is None and card("AE")["deck"] == "later"
    deleted = ok("study", "deck", "later", "--delete", "--json").json()
    assert deleted == {"deleted": "later", "cards": 1} and card("AE")["deck"] is None
    assert ok("study", "delete", "AE").stdout.strip() == "deleted 1 card"  # (it said "1 cards")
    gone = run("study", "card", "AE", "--lexicon", "small")
    assert gone.exit_code == 1 and "no card anagram:AE in small" in gone.stderr
    history = ok("stats", "--json").json()["reviews_per_day"]
    assert sum(day["answers"] for day in history) == 3  # the deleted card's answer stays in the history


def test_card_lookup_shows_the_schedule_retrievability_and_every_review(small, monkeypatch):
    first = "anagram:AB"
    quiz("--search", "--anagram AB", answers=["ZZ"])
    quiz("--search", "--anagram AB", "--flashcard", answers=["", "easy"])
    later = NOW + timedelta(days=3, hours=5)
    monkeypatch.setenv("LEXITRAIN_NOW", later.isoformat())
    data = card(first)
    assert (data["id"], data["kind"], data["lexicon"]) == (first, "anagram", "small")
    assert [(r["correct"], r["rating"], r["given"]) for r in data["reviews"]] == [(False, None, "ZZ"), (True, "easy", "")]
    assert data["reviews"][0]["state_before"] == "new" and data["reviews"][1]["state_before"] == "learning"
    assert data["reviews"][1]["stability_before"] is not None
    expected = fsrs.Scheduler().get_card_retrievability(fsrs.Card(
        state=fsrs.State.Review, stability=data["stability"], difficulty=data["difficulty"],
        last_review=datetime.fromisoformat(data["last_review"])), later)
    assert data["retrievability"] == round(expected, 4) and 0 < expected < 1
    assert data["state"] == "review" and data["due"] and data["leech"] is False
    text = ok("study", "card", first).stdout
    assert "retrievability now" in text and "easy" in text


def test_counts_per_state_and_leitner_box(small):
    reviewed(["AB"], elapsed_days=1, due_in_days=0)  # a one-day interval: box 0
    reviewed(["AD", "AE"], elapsed_days=2, due_in_days=3)  # five days: box 1 (4-6 days)
    reviewed(["AG"], elapsed_days=100, due_in_days=400)  # 500 days: the last box
    quiz("--search", "--anagram OX", answers=["x"])  # a learning card (interval of a minute: box 0)
    data = ok("study", "cards", "--json").json()
    assert data["by_state"] == {"new": 0, "learning": 1, "review": 4, "relearning": 0}
    assert data["cards"] == 5 and data["suspended"] == 0
    assert data["box_days"] == [1, 4, 7, 12, 20, 30, 60, 90, 150, 270, 480]
    assert data["by_box"] == {"0": 2, "1": 2, "2": 0, "3": 0, "4": 0, "5": 0, "6": 0, "7": 0, "8": 0, "9": 0, "10": 1}
    assert [interval_box(d * DAY) for d in (0.01, 1, 3.9, 4, 7, 479, 480, 5000)] == [0, 0, 0, 1, 2, 9, 10, 10]


def test_leeches_are_flagged_listed_and_drilled_apart(small):
    ok("study", "set", "--leech", "2")
    for answer in ("x", "y"):
        quiz("--search", "--anagram AB", answers=[answer])
        quiz("--search", "--anagram OX", answers=[right("OX") if answer == "x" else answer])  # failed once
    listed = ok("study", "leeches", "--json").json()
    assert [(c["id"], c["incorrect"]) for c in listed] == [("anagram:AB", 2)]
    leech = listed[0]["id"]
    assert card(leech)["leech"] is True
    drill = quiz("--leeches", answers=["x"])
    assert [q["id"] for q in of("question", drill)] == [leech]
    assert ok("study", "leeches", "--failed", "4", "--json").json() == []
    assert ok("study", "leeches", "--failed", "99999999999999999999", "--json").json() == []  # no crash
    ok("study", "suspend", "--leeches")
    assert ok("study", "leeches", "--json").json()[0]["suspended"] is True
    none_left = run("quiz", "--jsonl", "--leeches", "--lexicon", "small")
    assert none_left.exit_code == 1 and "no leeches to drill in small" in none_left.stderr
    assert ok("study", "cards", "--json").json()["leeches"] == 1


@pytest.mark.parametrize("args, message", [
    (["study", "deck", "x", "--retention", "1.5"], "desired retention 1.5 is outside 0.70-0.99"),
    (["study", "deck", "x", "--new", "-1"], "--new -1: a daily limit is 0 to 100,000"),
    (["study", "deck", "x", "--reviews", "100000000000000000000"],
     "--reviews 100000000000000000000: a daily limit is 0 to 100,000"),
    (["study", "set", "--new", "100000000000000000000"], "--new 100000000000000000000: a daily limit is 0 to 100,000"),
    (["study", "deck", "none"], "give a name other than 'none'"),
    (["study", "deck", "nosuch", "--delete"], "no deck 'nosuch' in small"),
    (["study", "move", "AB", "--deck", "nosuch"], "no card anagram:AB in small"),
    (["study", "move", "--deck", "x"], "name the cards"),
    (["study", "suspend", "hooks:AB", "--kind", "anagram"], "names a hooks card, not anagram"),
    (["study", "card", "anagram:"], "name a card"),
    (["study", "card", "foo:BAR"], "unknown question kind 'foo'"),
    (["study", "card", "RE1"], "'RE1' names no anagram card in small: '1' is not a tile"),
    (["study", "suspend", "A-B"], "'A-B' names no anagram card"),
    (["study", "set", "--leech", "0"], "leech threshold 0: expected 1 or more"),
    (["study", "set", "--lexicon", ""], "bad lexicon name ''"),  # not stored: every study command would fail
    (["study", "leeches", "--failed", "0"], "leech threshold 0: expected 1 or more"),
    (["quiz", "--leeches", "--list", "twos"], "--leeches takes no other question source"),
])
def test_bad_card_and_deck_commands_are_one_line_errors(small, args, message):
    result = run(*args, "--lexicon", "small") if args[1] != "set" else run(*args)
    assert result.exit_code == 1 and message in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_decks_suspensions_and_grades_survive_export_and_import(small, home, tmp_path):
    reviewed(["AB", "AD", "AE"])
    ok("study", "deck", "tight", "--retention", "0.95", "--new", "3")
    ok("study", "move", "AB", "AD", "--deck", "tight")
    ok("study", "suspend", "AD", "AE")
    quiz("--search", "--anagram OX", "--flashcard", answers=["", "hard"])
    before = {name: card(name) for name in ("AB", "AD", "AE", "OX")}
    backup = tmp_path / "backup.json"
    assert run("progress", "export", str(backup)).exit_code == 0
    (home / "progress.sqlite").unlink()
    assert run("progress", "import", str(backup)).exit_code == 0
    after = {name: card(name) for name in before}
    assert after == before
    assert [r["rating"] for r in after["OX"]["reviews"]] == ["hard"]
    assert ok("study", "decks", "--json").json()[0] == {
        "name": "tight", "retention": 0.95, "new_per_day": 3, "reviews_per_day": None, "cards": 2, "suspended": 1}
    assert run("progress", "import", str(backup)).exit_code == 0  # twice: nothing changes
    assert {name: card(name) for name in before} == before
