"""`lexitrain challenge --jsonl`: the same 50 alphagrams everywhere, scoring, history, personal bests."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from datetime import date
from pathlib import Path

import pytest

from lexitrain.study.drills.challenge import challenge_keys
from lexitrain.study.quiz.session import Item, Session, Timers
from lexitrain.study.store import ProgressStore
from study_helpers import lines, of, small  # noqa: F401  (small is a fixture)
from tests.cli_runner import run

ROOT = Path(__file__).resolve().parents[1]
DAY = "2026-01-01"


def challenge(*args: str, answers: list[str] | None = None) -> list[dict]:
    """Run a challenge answering every question (blank answers unless given)."""
    answers = answers if answers is not None else [""] * 50
    result = run("challenge", "--jsonl", *args, input="".join(a + "\n" for a in answers))
    assert result.exit_code == 0, result.stderr
    return lines(result.stdout)


def test_same_set_across_runs_and_processes(enable, home):
    first = [q["id"] for q in of("question", challenge("--date", DAY, "--kind", "sevens"))]
    second = [q["id"] for q in of("question", challenge("--date", DAY, "--kind", "sevens"))]
    assert len(first) == 50 and len(set(first)) == 50 and first == second
    # A separate interpreter (its own hash seed) picks the very same set.
    env = {**os.environ, "LEXITRAIN_HOME": str(home), "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "12345"}
    proc = subprocess.run([sys.executable, "-m", "lexitrain", "challenge", "--jsonl", "--date", DAY],
                          cwd=ROOT, env=env, input="\n" * 50, capture_output=True, text=True, timeout=60)
    assert [q["id"] for q in of("question", lines(proc.stdout))] == first
    # Any machine: the seed is SHA-256 of the lexicon's words, kind and date, so these are fixed for ENABLE.
    assert first[:3] == ["anagram:EKMRSTU", "anagram:ELNOSUZ", "anagram:AEILRSV"]
    other_day = [q["id"] for q in of("question", challenge("--date", "2026-01-02", "--kind", "sevens"))]
    assert len(set(other_day) & set(first)) < 5


def test_kinds_have_the_promised_shape(enable):
    day = date(2026, 5, 17)
    sevens = challenge_keys(enable, day, "sevens")
    assert len(sevens) == 50 and all(len(k) == 7 and enable.anagrams(k) for k in sevens)
    eights = challenge_keys(enable, day, "eights")
    assert all(len(k) == 8 and enable.anagrams(k) for k in eights)
    spread = Counter(len(k) for k in challenge_keys(enable, day, "twos-to-fifteens"))
    assert sorted(spread) == list(range(2, 16)) and sum(spread.values()) == 50
    blanks = challenge_keys(enable, day, "blank-bingos")
    assert len(blanks) == 50 and all(k.endswith("?") and len(k) in (7, 8) for k in blanks)
    out = challenge("--date", "2026-05-17", "--kind", "blank-bingos", answers=[""])
    first = of("question", out)[0]
    letters = first["prompt"].replace("?", "")
    expected = {w for w in enable.words() if len(w) == len(first["prompt"]) and not Counter(letters) - Counter(w)}
    assert set(of("result", out)[0]["expected"]) == expected and first["answers"] == len(expected)


def test_scoring_history_and_personal_best(enable):
    keys = challenge_keys(enable, date(2026, 1, 1), "eights")
    right = [" ".join(enable.anagrams(k)).lower() for k in keys]
    partial = challenge("--date", DAY, "--kind", "eights", answers=right[:10] + ["WRONG"])
    summary = of("summary", partial)[0]
    assert (summary["questions"], summary["correct"], summary["personal_best"]) == (11, 10, None)
    full = challenge("--date", DAY, "--kind", "eights", answers=right)
    summary = of("summary", full)[0]
    assert summary["correct"] == 50 and summary["personal_best"]["score"] == 50
    assert summary["date"] == DAY and summary["kind"] == "eights" and summary["lexicon"] == "enable"
    history = run("challenge", "--history", "--json").json()
    assert [(a["score"], a["completed"]) for a in history["attempts"]] == [(50, True), (10, False)]
    assert history["best"]["eights"]["score"] == 50 and history["best"]["sevens"] is None


def test_round_timer_ends_the_session(enable):
    keys = challenge_keys(enable, date(2026, 1, 1), "sevens")
    clock = [0.0]
    with ProgressStore() as store:
        session = Session(store, enable, "challenge", "t", [Item("anagram", k) for k in keys], None,
                          timers=Timers(round=250), clock=lambda: clock[0])
        outcomes = []
        for question in session.questions():
            clock[0] += 100  # each answer takes 100 s
            outcomes.append(session.answer(question, " ".join(enable.anagrams(question.key))))
        assert len(outcomes) == 3 and session.summary.timed_out
        assert [o.correct for o in outcomes] == [True, True, False]  # the third came after 250 s
        assert outcomes[2].timed_out and outcomes[2].check.correct


def test_small_lexicons_get_what_they_have(small):
    sevens = of("question", challenge("--lexicon", "small", "--kind", "sevens", answers=["", ""]))
    assert sorted(q["prompt"] for q in sevens) == ["AEILRST", "AEINRST"]  # the only two it has
    history = run("challenge", "--history", "--json", "--lexicon", "small").json()["attempts"]
    assert (history[0]["total"], history[0]["completed"]) == (2, True)
    by_default = of("question", challenge("--lexicon", "small", answers=["", ""]))  # sevens when no kind is given
    assert [q["prompt"] for q in by_default] == [q["prompt"] for q in sevens]
    only_eights = run("challenge", "--history", "--kind", "eights", "--json", "--lexicon", "small").json()
    assert only_eights == {"attempts": [], "best": {"eights": None}}
    assert len(run("challenge", "--history", "--kind", "sevens", "--json", "--lexicon", "small").json()["attempts"]) == 2


def test_lexicon_without_those_lengths(make_lexicon):
    make_lexicon(["AA", "AB", "ABA"], name="tiny")
    result = run("challenge", "--jsonl", "--lexicon", "tiny", "--kind", "eights", input="")
    assert result.exit_code == 1 and "tiny has no words of the lengths the eights challenge asks" in result.stderr


@pytest.mark.parametrize("args, message", [
    (["--kind", "sixteens"], "unknown challenge kind 'sixteens'"),
    (["--kind", ""], "unknown challenge kind ''"),  # not quietly the sevens
    (["--kind", "", "--share"], "unknown challenge kind ''"),
    (["--date", "2026-13-01"], "bad date '2026-13-01'"),
    (["--date", "2026-02-30"], "bad date '2026-02-30'"),
])
def test_bad_options_are_clear_errors(enable, args, message):
    result = run("challenge", "--jsonl", *args, input="")
    assert result.exit_code == 1 and message in result.stderr and "Traceback" not in result.stderr


def test_marks_given_after_the_end_change_neither_the_attempt_nor_the_best(small):
    """Give up (every question scored as missed), then "mark correct" every answer, before and after
    the attempt is closed: the official attempt and the personal best stay what was typed in time;
    the marks are kept, as late marks. A mark given while the challenge runs still counts."""
    from lexitrain.study.drills.challenge import history, personal_best
    from lexitrain.study.drills.requests import ChallengeRequest

    with ProgressStore() as store:
        session = ChallengeRequest("sevens", timed=False).start(store, small)
        questions = session.questions()
        first = next(questions)
        typo = session.override(session.answer(first, "WRONG"), True)  # in time: counts
        assert typo.correct and typo.late_mark is None
        outcomes = [session.time_out(question) for question in questions]  # gave up
        assert outcomes and not any(o.correct for o in outcomes)
        marked = [session.override(o, True) for o in outcomes]
        assert all(m.late_mark is True and not m.correct for m in marked)
        summary = session.finish()
        for outcome in list(session.outcomes):
            session.override(outcome, True)
        assert summary.correct == 1 and summary.details["personal_best"]["score"] == 1
        attempt = history(store, "small", "sevens")[0]
        best = personal_best(store, "small", "sevens")
        assert attempt.score == 1 and best is not None and best.score == 1
        late = store.conn.execute("SELECT count(*) FROM answers WHERE session_id = ? AND late_mark = 1",
                                  (session.id,)).fetchone()[0]
        assert late == len(outcomes) + 1  # each given up answer, and the typo marked again after the end
