"""`lexitrain daily --jsonl` end to end: limits, FSRS state changes, resuming, a killed process."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from lexitrain.study.store import ProgressStore
from study_helpers import anagram_oracle, lines, of, small  # noqa: F401  (small is a fixture)
from tests.cli_runner import run

ROOT = Path(__file__).resolve().parents[1]
NOW = datetime(2026, 3, 1, 10, 0, tzinfo=timezone.utc)
ORACLE = anagram_oracle()


def plan_order(lex, length: int) -> list[str]:
    """The default plan's order: the lexicon's alphagrams of a length, most probable first."""
    return [r[0] for r in lex.db.execute(
        "SELECT alphagram FROM alphagrams WHERE length = ? ORDER BY alphagram_rank2", (length,))]


def answer_for(alphagram: str) -> str:
    return " ".join(sorted(ORACLE[alphagram]))


def at(moment: datetime, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEXITRAIN_NOW", moment.isoformat())


def daily(*answers: str) -> list[dict]:
    result = run("daily", "--jsonl", "--lexicon", "small", input="".join(a + "\n" for a in answers))
    assert result.exit_code == 0, result.stderr
    return lines(result.stdout)


def test_fresh_install_limits_and_fsrs_state_changes(small, monkeypatch):
    at(NOW, monkeypatch)
    assert run("study", "set", "--new", "5", "--reviews", "50").exit_code == 0
    twos = plan_order(small, 2)
    a, b, c, d, e = twos[:5]
    out = daily(answer_for(a), "  " + answer_for(b).lower() + "  ", "ZZ",
                f"{answer_for(d)} {answer_for(d)}", answer_for(e), "extra line never read")
    questions, results = of("question", out), of("result", out)
    assert [q["id"] for q in questions] == [f"anagram:{x}" for x in (a, b, c, d, e)]
    assert all(q["answers"] == len(ORACLE[x]) for q, x in zip(questions, (a, b, c, d, e)))
    assert [r["correct"] for r in results] == [True, True, False, True, True]
    assert results[2]["wrong"] == ["ZZ"] and results[2]["missing"] == sorted(ORACLE[c])
    assert results[3]["duplicates"] == answer_for(d).split()
    # FSRS on a new card: Good -> learning, back in 10 minutes; Again -> learning, back in 1 minute.
    assert results[0]["card"]["state"] == "learning"
    assert results[0]["card"]["due"] == (NOW + timedelta(minutes=10)).isoformat()
    assert results[2]["card"]["due"] == (NOW + timedelta(minutes=1)).isoformat()
    summary = of("summary", out)[0]
    assert (summary["questions"], summary["correct"], summary["new_left"]) == (5, 4, 0)
    assert summary["missed"] == [f"anagram:{c}"]
    assert Path(summary["missed_list"]).read_text().split() == sorted(ORACLE[c])

    # Next day: the five are due (most overdue first) and graduate to review; then five new cards.
    at(NOW + timedelta(days=1), monkeypatch)
    out = daily(*[answer_for(x) for x in (c, a, b, d, e)], *[answer_for(x) for x in twos[5:10]])
    ids = [q["id"] for q in of("question", out)]
    assert ids == [f"anagram:{x}" for x in (c, a, b, d, e, *twos[5:10])]
    graduated = of("result", out)[1]["card"]
    assert graduated["state"] == "review"
    assert datetime.fromisoformat(graduated["due"]) >= NOW + timedelta(days=2)
    relearned = of("result", out)[0]["card"]  # the card missed yesterday, right today
    assert relearned["state"] == "learning" and relearned["streak"] == 1  # next learning step: 10 minutes
    assert relearned["due"] == (NOW + timedelta(days=1, minutes=10)).isoformat()


def test_review_limit_is_respected(small, monkeypatch):
    at(NOW, monkeypatch)
    run("study", "set", "--new", "4", "--reviews", "2")
    twos = plan_order(small, 2)
    daily(*[answer_for(x) for x in twos[:4]])
    at(NOW + timedelta(days=1), monkeypatch)
    run("study", "set", "--new", "0")
    out = daily(*["x"] * 10)
    assert len(of("question", out)) == 2
    status = run("daily", "--status", "--json", "--lexicon", "small").json()
    assert status["reviews_done"] == 2 and status["reviews_left"] == 0 and status["new_left"] == 0


def test_the_status_says_the_reviews_that_fall_due_later_today(small, monkeypatch):
    """A card missed today comes back within minutes (its learning step): nothing is due now, but the
    status says it is coming, as the web's reviews and home pages do."""
    at(NOW, monkeypatch)
    run("study", "set", "--new", "1")
    daily("x")  # (the one new card, missed: its next learning step is a minute away)
    status = run("daily", "--status", "--json", "--lexicon", "small").json()
    assert status["reviews_left"] == 0 and status["due_later_today"] == 1
    text = run("daily", "--status", "--lexicon", "small").stdout.strip()
    assert text == "small: 0 reviews and 0 new cards left today (done 0 reviews, 1 new); 1 review more falls due later today"


def test_the_status_counts_as_done_every_card_answered_today_not_only_the_drills(small, monkeypatch):
    """A card answered in a quiz, not the drill, is done today as the status says it (the drill's limits still
    spend only the drill's answers)."""
    at(NOW, monkeypatch)
    quiz = run("quiz", "--jsonl", "--lexicon", "small", "--list", "twos", input="x\n")
    assert len(of("result", lines(quiz.stdout))) == 1
    text = run("daily", "--status", "--lexicon", "small").stdout.strip()
    assert text.startswith("small: 0 reviews and 20 new cards left today (done 0 reviews, 1 new)"), text
    status = run("daily", "--status", "--json", "--lexicon", "small").json()
    assert (status["new_answered"], status["reviews_answered"], status["new_done"]) == (1, 0, 0)


def test_one_review_is_counted_in_the_singular(small, monkeypatch):
    at(NOW, monkeypatch)
    run("study", "set", "--new", "1")
    daily(answer_for(plan_order(small, 2)[0]))
    at(NOW + timedelta(days=1), monkeypatch)
    run("study", "set", "--new", "0")
    assert len(of("result", daily("x"))) == 1
    status = run("daily", "--status", "--lexicon", "small").stdout.strip()
    assert status == ("small: 0 reviews and 0 new cards left today (done 1 review, 0 new); "
                      "1 review more falls due later today")  # (the review missed, in its relearning step)
    done = run("daily", "--lexicon", "small", input="").stdout.strip()  # as --status says: not "tomorrow"
    assert done == ("nothing left now in small: 1 review and 0 new cards done; 1 review more falls due later today "
                    "(run `lexitrain daily` again then) (`lexitrain daily --status`)")


def test_second_run_same_day_resumes(small, monkeypatch):
    at(NOW, monkeypatch)
    run("study", "set", "--new", "6")
    twos = plan_order(small, 2)
    first = daily(answer_for(twos[0]), answer_for(twos[1]))  # then end of input
    assert len(of("result", first)) == 2
    assert of("summary", first)[0]["new_left"] == 4
    second = daily(*[answer_for(x) for x in twos[2:6]])
    assert [q["id"] for q in of("question", second)] == [f"anagram:{x}" for x in twos[2:6]]
    third = daily("anything")
    assert of("question", third) == [] and of("summary", third)[0]["questions"] == 0
    done = run("daily", "--lexicon", "small", input="")  # at the terminal: a plain line, no empty round
    assert done.exit_code == 0
    assert done.stdout.strip() == ("nothing left now in small: 0 reviews and 6 new cards done; 6 reviews more fall "
                                   "due later today (run `lexitrain daily` again then) (`lexitrain daily --status`)")
    # (it said "more are due tomorrow": the six cards are in their learning steps, due again in minutes)


def test_leitner_mode_uses_zyzzyva_schedule(small, monkeypatch):
    at(NOW, monkeypatch)
    run("study", "set", "--mode", "leitner", "--new", "2")
    twos = plan_order(small, 2)
    results = of("result", daily(answer_for(twos[0]), "nope"))
    assert results[0]["card"]["cardbox"] == 1 and results[0]["card"]["due"] == (NOW + timedelta(days=4)).isoformat()
    assert results[1]["card"]["cardbox"] == 0 and results[1]["card"]["due"] == (NOW + timedelta(days=1)).isoformat()


def test_killed_process_loses_no_answer(small, home, monkeypatch):
    """A real `python -m lexitrain daily --jsonl`, killed while waiting for its fourth answer."""
    env = {**os.environ, "LEXITRAIN_HOME": str(home), "LEXITRAIN_NOW": NOW.isoformat(),
           "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "lexitrain", "daily", "--jsonl", "--lexicon", "small"],
                            cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    given = []
    try:
        for number in range(3):
            question = json.loads(proc.stdout.readline())["question"]
            answer = answer_for("".join(sorted(question["prompt"]))) if number != 1 else "WRONG"
            given.append((question["id"], answer))
            proc.stdin.write(answer + "\n")
            proc.stdin.flush()
            assert "result" in json.loads(proc.stdout.readline())
        assert "question" in json.loads(proc.stdout.readline())  # the fourth is waiting
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    conn = sqlite3.connect(home / "progress.sqlite")
    rows = conn.execute("SELECT kind || ':' || key, given, correct FROM answers ORDER BY id").fetchall()
    assert [(r[0], r[1]) for r in rows] == given
    assert [r[2] for r in rows] == [1, 0, 1]
    states = conn.execute("SELECT count(*) FROM cards WHERE state = 1 AND lexicon = 'small'").fetchone()[0]
    assert states == 3
    conn.close()
    at(NOW, monkeypatch)
    again = daily("x")
    assert of("question", again)[0]["id"] not in {qid for qid, _ in given}


def test_corrupt_progress_database_is_refused_and_kept(small, home):
    path = home / "progress.sqlite"
    garbage = b"this is not a database, but it is the user's file" * 100
    path.write_bytes(garbage)
    result = run("daily", "--jsonl", "--lexicon", "small", input="AA\n")
    assert result.exit_code == 1
    assert "damaged" in result.stderr and "left untouched" in result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""
    assert path.read_bytes() == garbage


def test_newer_progress_database_is_refused_and_kept(small, home):
    path = home / "progress.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE future (x)")
    conn.execute("PRAGMA user_version = 99")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    result = run("daily", "--lexicon", "small")
    assert result.exit_code == 1
    assert "newer lexitrain" in result.stderr and "schema 99" in result.stderr
    assert path.read_bytes() == before


def test_unknown_lexicon_is_a_clear_error():
    result = run("daily", "--jsonl", "--lexicon", "nosuch")
    assert result.exit_code == 1 and "unknown lexicon 'nosuch'" in result.stderr


def test_damage_found_mid_use_is_a_clear_error(small, home, monkeypatch):
    at(NOW, monkeypatch)
    daily(*["x"] * 3)  # a real store with a plan, cards and answers
    path = home / "progress.sqlite"
    with ProgressStore(path) as store:  # (written back into the main file, so the pages below are all there)
        store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        roots = [r[0] for r in store.conn.execute("SELECT rootpage FROM sqlite_master WHERE name IN ('cards', 'answers')")]
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    for root in roots:  # the tables' pages ruined, the schema left whole: found at the first read, not at open
        data[(root - 1) * page : root * page] = b"\xff" * page
    path.write_bytes(bytes(data))
    result = run("daily", "--jsonl", "--lexicon", "small", input="x\n")
    assert result.exit_code == 1 and "progress database failed" in result.stderr
    assert "Traceback" not in result.stderr
    assert path.read_bytes() == bytes(data)
