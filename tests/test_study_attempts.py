"""Challenge attempts a player can trust (the day's first finished attempt is the official one,
later ones are retakes, no date after today, a killed attempt keeps its time) and two daily drills
at once never asking the same card."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone

from lexitrain.study.drills.requests import DailyRequest
from lexitrain.study.store import ProgressStore
from lexitrain.study.store.migrations import MIGRATIONS
from study_helpers import anagram_oracle, lines, of, right_answer, small  # noqa: F401  (small is a fixture)
from tests.cli_runner import run

NOW = datetime(2026, 3, 1, 10, 0, tzinfo=timezone.utc)
DAY = "2026-03-01"
ORACLE = anagram_oracle()


def challenge(*answers: str, day: str = DAY) -> list[dict]:
    result = run("challenge", "--jsonl", "--lexicon", "small", "--date", day, input="".join(a + "\n" for a in answers))
    assert result.exit_code == 0, result.stderr
    return lines(result.stdout)


def test_the_first_finished_attempt_is_official_and_later_ones_are_retakes(small, monkeypatch):
    monkeypatch.setenv("LEXITRAIN_NOW", NOW.isoformat())
    official = challenge("", "")  # the small lexicon has two sevens: both missed, and the attempt finished
    assert not of("summary", official)[0]["retake"]
    right = [right_answer(q, ORACLE) for q in of("question", official)]
    better = of("summary", challenge(*right))[0]  # a perfect retake is kept, never a personal best
    assert better["retake"] and better["correct"] == 2 and better["personal_best"]["score"] == 0
    history = run("challenge", "--history", "--json", "--lexicon", "small").json()
    assert [(a["score"], a["retake"]) for a in history["attempts"]] == [(2, True), (0, False)]
    assert history["best"]["sevens"]["score"] == 0 and not history["best"]["sevens"]["retake"]
    text = run("challenge", "--history", "--lexicon", "small").stdout
    assert "2/2" in text and "(retake)" in text
    other_day = of("summary", challenge("", "", day="2026-02-28"))[0]  # another day has its own official attempt
    assert not other_day["retake"]


def test_an_unfinished_attempt_leaves_the_official_one_to_come(small, monkeypatch):
    monkeypatch.setenv("LEXITRAIN_NOW", NOW.isoformat())
    stopped = of("summary", challenge(""))[0]  # one of two answered, then the input ends: unfinished
    assert not stopped["retake"] and stopped["personal_best"] is None
    finished = of("summary", challenge("", ""))[0]
    assert not finished["retake"] and finished["personal_best"] is not None


def test_terminal_says_a_retake_is_one(small, monkeypatch):
    monkeypatch.setenv("LEXITRAIN_NOW", NOW.isoformat())
    challenge("", "")
    result = run("challenge", "--lexicon", "small", "--date", DAY, "--no-timer", input="\n\n\n")
    assert "this attempt: a retake" in result.stdout


def test_no_date_after_today(small, monkeypatch):
    monkeypatch.setenv("LEXITRAIN_NOW", NOW.isoformat())
    tomorrow = (NOW + timedelta(days=1)).date().isoformat()
    result = run("challenge", "--jsonl", "--lexicon", "small", "--date", tomorrow, input="")
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    assert result.stderr.strip() == f"error: --date {tomorrow} is after today ({DAY}): pick today or an earlier day"
    assert run("challenge", "--jsonl", "--lexicon", "small", "--date", DAY, input="").exit_code == 0


def test_a_killed_attempt_keeps_its_time_so_far(small, home):
    quiz = subprocess.Popen([sys.executable, "-m", "lexitrain", "challenge", "--jsonl", "--lexicon", "small"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    assert quiz.stdin is not None and quiz.stdout is not None
    assert "question" in json.loads(quiz.stdout.readline())
    time.sleep(0.6)  # thinking
    quiz.stdin.write("NOPE\n")
    quiz.stdin.flush()
    assert "result" in json.loads(quiz.stdout.readline())
    assert "question" in json.loads(quiz.stdout.readline())
    quiz.kill()
    quiz.wait(timeout=30)
    [attempt] = run("challenge", "--history", "--json", "--lexicon", "small").json()["attempts"]
    assert not attempt["completed"] and attempt["seconds"] >= 0.6 and attempt["score"] == 0


def test_the_upgrade_marks_stored_same_day_attempts_as_retakes(tmp_path):
    path = tmp_path / "old.sqlite"
    conn = sqlite3.connect(path, isolation_level=None)
    for script in MIGRATIONS[:2]:  # a version-2 file with three attempts of one day, two of them finished
        conn.executescript(f"BEGIN; {script}; COMMIT;")
    conn.execute("PRAGMA user_version = 2")
    for n, completed in ((1, 0), (2, 1), (3, 1)):
        conn.execute("INSERT INTO sessions (mode, lexicon, source, started) VALUES ('challenge', 'enable', 'c', ?)", (n,))
        conn.execute("INSERT INTO challenges (session_id, date, kind, lexicon, total, completed) "
                     "VALUES (?, ?, 'sevens', 'enable', 50, ?)", (n, DAY, completed))
    conn.close()
    with ProgressStore(path) as store:
        attempts = store.challenge_history("enable", None, 10)
    assert [(a.completed, a.retake) for a in attempts] == [(True, True), (True, False), (False, False)]


def test_two_daily_drills_at_once_never_ask_the_same_card(small, home, monkeypatch):
    monkeypatch.setenv("LEXITRAIN_NOW", NOW.isoformat())
    assert run("study", "plan", "--list", "twos", "--lexicon", "small").exit_code == 0
    run("study", "set", "--new", "6")
    with ProgressStore() as one, ProgressStore() as two:  # two connections, as two processes have
        first = DailyRequest().start(one, small)
        second = DailyRequest().start(two, small)
        asked: list[str] = []
        drills = [iter(first.questions()), iter(second.questions())]
        sessions = [first, second]
        while drills:  # interleaved: a question from each, both on screen at once, then both answered
            shown = [(s, next(d, None)) for s, d in zip(sessions, drills)]
            for session, question in shown:
                if question is not None:
                    asked.append(question.id)
            for session, question in shown:
                if question is not None:
                    session.answer(question, right_answer(question.to_json(), ORACLE))
            kept = [(s, d) for (s, d), (_, q) in zip(zip(sessions, drills), shown) if q is not None]
            sessions, drills = [s for s, _ in kept], [d for _, d in kept]
        first.finish(save_missed=False)
        second.finish(save_missed=False)
    assert len(asked) == 6 and len(set(asked)) == 6  # the day's six new cards, each asked once
    with ProgressStore() as store:
        assert store.conn.execute("SELECT count(*) FROM card_leases").fetchone()[0] == 0  # all given back


def test_two_daily_processes_at_once_ask_different_cards(small, home, monkeypatch):
    monkeypatch.setenv("LEXITRAIN_NOW", NOW.isoformat())
    assert run("study", "plan", "--list", "twos", "--lexicon", "small").exit_code == 0
    drills = [subprocess.Popen([sys.executable, "-m", "lexitrain", "daily", "--jsonl", "--lexicon", "small"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1) for _ in range(2)]
    shown = []
    for drill in drills:  # both started at once: each shows its first question
        assert drill.stdout is not None
        shown.append(json.loads(drill.stdout.readline())["question"]["id"])
    for drill in drills:
        drill.communicate("", timeout=60)
    assert shown[0] != shown[1]
    again = of("question", lines(run("daily", "--jsonl", "--lexicon", "small", input="").stdout))
    assert again[0]["id"] in shown  # both stopped, unanswered: their cards are free again at once


def test_two_daily_drills_at_once_stay_within_the_days_new_cards(small, home, monkeypatch):
    monkeypatch.setenv("LEXITRAIN_NOW", NOW.isoformat())
    assert run("study", "plan", "--list", "twos", "--lexicon", "small").exit_code == 0
    run("study", "set", "--new", "3")
    with ProgressStore() as one, ProgressStore() as two:
        first = DailyRequest().start(one, small)
        second = DailyRequest().start(two, small)
        drills = [iter(first.questions()), iter(second.questions())]
        question = next(drills[0])  # the first drill answers two, the second holds the third on screen
        first.answer(question, right_answer(question.to_json(), ORACLE))
        question = next(drills[0])
        first.answer(question, right_answer(question.to_json(), ORACLE))
        held = next(drills[1])
        asked = [held.id]
        asked += [q.id for q in drills[0]]  # the first drill may not take a fourth new card of three
        first.finish(save_missed=False)
        second.answer(held, right_answer(held.to_json(), ORACLE))
        assert next(drills[1], None) is None
        second.finish(save_missed=False)
    assert len(asked) == 1
    with ProgressStore() as store:  # three new cards answered today, as the limit says
        assert store.answers_since("daily", "small", 0)[0] == 3


def test_history_before_any_attempt_says_so(small):
    assert run("challenge", "--history", "--lexicon", "small").stdout == (
        "no challenge attempts yet in small (`lexitrain challenge` starts today's)\n")
    assert run("challenge", "--history", "--kind", "eights", "--lexicon", "small").stdout == (
        "no eights attempts yet in small (`lexitrain challenge --kind eights` starts today's)\n")
    assert run("challenge", "--history", "--lexicon", "small", "--json").json()["attempts"] == []
