"""Flashcard mode (reveal, then grade 1-4) and grading typed answers by speed, end to end;
each grade's FSRS state change equals the `fsrs` package's own for the same card and time."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone

import fsrs
import pytest

from lexitrain.study.quiz.grading import MINIMUM, SpeedGrades
from lexitrain.study.quiz.scheduler import EASY, GOOD, HARD, load_fsrs
from lexitrain.study.store import AnswerRow, ProgressStore
from study_helpers import anagram_oracle, lines, of, small  # noqa: F401  (small is a fixture)
from tests.cli_runner import run

NOW = datetime(2026, 3, 1, 10, 0, tzinfo=timezone.utc)
DAY = 86400.0
ORACLE = anagram_oracle()


@pytest.fixture(autouse=True)
def pinned(monkeypatch):
    """The clock pinned, and fsrs's interval fuzz drawing one fixed number (in the CLI and here alike)."""
    monkeypatch.setenv("LEXITRAIN_NOW", NOW.isoformat())
    monkeypatch.setattr(load_fsrs().scheduler, "random", lambda: 0.5)  # (over the answer's draw load_fsrs sets)


def session(*args: str, command: str = "quiz", lines_in: list[str] = ()) -> list[dict]:
    result = run(command, "--jsonl", "--lexicon", "small", *args, input="".join(x + "\n" for x in lines_in))
    assert result.exit_code == 0, result.stderr
    return lines(result.stdout)


def right(alphagram: str) -> str:
    return " ".join(sorted(ORACLE[alphagram]))


def stored(key: str):
    with ProgressStore() as store:
        return store.find_card("small", "anagram", key)


def test_reveal_then_grade_over_json_lines(small):
    out = session("--search", "--anagram AB", "--flashcard", lines_in=["my guess", "5", "best", "Hard"])
    kinds = [next(iter(line)) for line in out]
    assert kinds == ["question", "reveal", "error", "error", "result", "summary"]
    assert out[0]["question"]["flashcard"] is True and out[0]["question"]["id"] == "anagram:AB"
    assert out[1]["reveal"] == {"id": "anagram:AB", "expected": sorted(ORACLE["AB"])}
    assert "'5' is no grade" in out[2]["error"]
    result = out[4]["result"]
    assert (result["rating"], result["correct"]) == ("hard", True)
    assert out[5]["summary"]["questions"] == 1 and out[5]["summary"]["correct"] == 1
    with ProgressStore() as store:
        [review] = store.card_reviews(stored("AB").id)
    assert (review.given, review.rating, review.correct) == ("my guess", HARD, True)


@pytest.mark.parametrize("stop_after", [0, 1])
def test_stopping_before_the_grade_leaves_the_question_unscored(small, stop_after):
    out = session("--search", "--anagram AB", "--flashcard", lines_in=["reveal"][:stop_after])
    assert of("result", out) == [] and of("summary", out)[0]["questions"] == 0
    assert stored("AB") is None  # a quiz question becomes a card only when graded


def _fsrs_card(card) -> fsrs.Card:
    if card is None or card.state == 0:
        return fsrs.Card(due=NOW)
    return fsrs.Card(state=fsrs.State(card.state), step=card.step, stability=card.stability,
                     difficulty=card.difficulty, due=datetime.fromtimestamp(card.due, timezone.utc),
                     last_review=datetime.fromtimestamp(card.last_review, timezone.utc))


@pytest.mark.parametrize("rating", [1, 2, 3, 4])
@pytest.mark.parametrize("state", ["new", "learning", "review", "relearning"])
def test_each_grade_changes_the_card_as_fsrs_itself_does(small, rating, state):
    if state != "new":
        with ProgressStore() as store:
            [card_id] = store.ensure_cards("small", [("anagram", "AB")], NOW.timestamp() - 90 * DAY)
            step = 0 if state in ("learning", "relearning") else None
            store.save_card(replace(store.card(card_id), state={"learning": 1, "review": 2, "relearning": 3}[state],
                                    step=step, stability=7.5, difficulty=6.2,
                                    last_review=NOW.timestamp() - 9 * DAY, due=NOW.timestamp() - DAY))
    before = stored("AB")
    expected, _ = fsrs.Scheduler().review_card(_fsrs_card(before), fsrs.Rating(rating), NOW)
    source = ["--due"] if state != "new" else ["--search", "--anagram AB"]
    out = session(*source, "--flashcard", lines_in=["", str(rating)])
    after = stored("AB")
    assert (after.state, after.step) == (int(expected.state), expected.step)
    assert (after.stability, after.difficulty) == (expected.stability, expected.difficulty)
    assert after.due == expected.due.timestamp() and after.last_review == NOW.timestamp()
    assert of("result", out)[0]["card"]["due"] == expected.due.isoformat()
    assert (after.correct, after.incorrect) == ((rating != 1) + (before.correct if before else 0),
                                                (rating == 1) + (before.incorrect if before else 0))


def test_daily_runs_as_flashcards(small):
    out = session("--flashcard", command="daily", lines_in=["", "easy", "", "again"])
    results = of("result", out)
    assert [r["rating"] for r in results] == ["easy", "again"] and [r["correct"] for r in results] == [True, False]


def _past_right_answers(seconds: list[float]) -> None:
    with ProgressStore() as store:
        session_id = store.start_session("quiz", "small", "past", 0)
        for s in seconds:
            store.record_answer(AnswerRow(session_id, "quiz", None, "anagram", "X", "", True, False, None, 0,
                                          int(s * 1000)))


def test_speed_grades_come_from_the_players_own_quartiles(small):
    with ProgressStore() as store:
        assert SpeedGrades(store)("anagram", 0.1) == GOOD  # no past answers: nothing to compare with
    _past_right_answers([float(s) for s in range(1, 21)])  # 1 ... 20 seconds: quartiles 5.25 and 15.75
    with ProgressStore() as store:
        grades = SpeedGrades(store)
        assert grades.cuts("anagram") == (5.25, 15.75)
        assert [grades("anagram", s) for s in (1, 5.25, 5.3, 15.7, 15.75, 60)] == [EASY, EASY, GOOD, GOOD, HARD, HARD]
        assert grades("hooks", 1) == GOOD  # another kind has its own (here no) history
    assert MINIMUM <= 20


def test_typed_answers_graded_by_speed_wrong_is_again(small):
    _past_right_answers([float(s) for s in range(1, 21)])
    out = session("--search", "--length 2", "--limit", "2", "--grade-by-speed", lines_in=[right("AE"), "ZZ"])
    results = of("result", out)
    assert [r["id"] for r in results] == ["anagram:AE", "anagram:EO"]
    assert [(r["correct"], r["rating"]) for r in results] == [(True, "easy"), (False, "again")]  # answered at once
    expected, _ = fsrs.Scheduler().review_card(fsrs.Card(due=NOW), fsrs.Rating.Easy, NOW)
    assert stored("AE").due == expected.due.timestamp()
    plain = session("--search", "--anagram OX", lines_in=[right("OX")])
    assert "rating" not in of("result", plain)[0]  # without the option a right answer is Good, unnamed


@pytest.mark.parametrize("args, message", [
    (["--flashcard", "--grade-by-speed"], "--flashcard and --grade-by-speed: pick one"),
    (["--flashcard", "--round-time", "60"], "--flashcard is untimed"),
])
def test_conflicting_grading_options_are_refused(small, args, message):
    result = run("quiz", "--jsonl", "--lexicon", "small", "--list", "twos", *args)
    assert result.exit_code == 1 and message in result.stderr and "Traceback" not in result.stderr


def test_terminal_flashcards(small):
    result = run("quiz", "--lexicon", "small", "--search", "--anagram AB", "--flashcard", input="\nx\n4\n")
    assert result.exit_code == 0, result.stderr
    revealed = result.stdout.split("reveal >", 1)[1].split("grade:", 1)[0]  # each answer with its hooks
    assert {"AB", "BA"} <= {word.strip("·") for word in revealed.split()}
    assert "'x' is no grade" in result.stdout and "graded easy" in result.stdout
    assert "1/1 known" in result.stdout
    assert stored("AB").correct == 1
    assert stored("AB").due > (NOW + timedelta(days=1)).timestamp()
    due = datetime.fromtimestamp(stored("AB").due, timezone.utc).astimezone()  # said in words, not ISO 8601
    days = (due.date() - NOW.astimezone().date()).days
    assert f"graded easy; next due in {days} days ({due:%a} {due.day} {due:%b})" in result.stdout
    assert "T" not in result.stdout.split("next due", 1)[1].split("\n", 1)[0]


def test_when_a_card_is_next_due_reads_in_words() -> None:
    from lexitrain.cli.output import when_text

    now = datetime(2026, 3, 1, 10, 0).astimezone()
    assert when_text(now + timedelta(seconds=20), now) == "now"
    assert when_text(now + timedelta(minutes=1), now) == f"in 1 minute ({now + timedelta(minutes=1):%H:%M})"
    assert when_text(now + timedelta(minutes=10), now) == f"in 10 minutes ({now + timedelta(minutes=10):%H:%M})"
    assert when_text(now + timedelta(hours=5), now) == "in 5 hours (15:00)"
    assert when_text(now + timedelta(days=1), now) == "tomorrow (Mon 2 Mar)"
    assert when_text(now + timedelta(days=12), now) == "in 12 days (Fri 13 Mar)"
