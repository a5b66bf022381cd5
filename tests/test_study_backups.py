"""Backups that restore: an export is one consistent snapshot, even while another drill writes; an
import checks every value and every reference before writing anything and names the first bad row;
a merge never drops a schedule, and says what it merged how."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest

from lexitrain.study.quiz.scheduler import Scheduling
from lexitrain.study.quiz.session import Item, Session
from lexitrain.study.store import AnswerRow, ProgressStore
from study_helpers import anagram_oracle, small  # noqa: F401  (small is a fixture)
from tests.cli_runner import run

NOW = datetime(2026, 3, 1, 10, 0, tzinfo=timezone.utc)
ORACLE = anagram_oracle()
KEYS = ["AB", "ENT", "ANT", "AEINRST"]


def study(lex, monkeypatch, moment: datetime, right: dict[str, bool]) -> None:
    monkeypatch.setenv("LEXITRAIN_NOW", moment.isoformat())
    with ProgressStore() as store:
        ids = store.ensure_cards(lex.name, [("anagram", k) for k in right], moment.timestamp())
        session = Session(store, lex, "quiz", "test", [Item("anagram", k, i) for k, i in zip(right, ids)], Scheduling())
        for question in session.questions():
            session.answer(question, " ".join(ORACLE[question.key]) if right[question.key] else "WRONG")
        session.finish(save_missed=False)


@pytest.fixture
def history(small, monkeypatch):
    study(small, monkeypatch, NOW, {k: k != "AB" for k in KEYS})
    study(small, monkeypatch, NOW + timedelta(days=1), {k: True for k in KEYS})
    assert run("study", "deck", "hard", "--retention", "0.95", "--lexicon", "small").exit_code == 0
    return small


def exported(tmp_path) -> dict:
    backup = tmp_path / "backup.json"
    result = run("progress", "export", str(backup))
    assert result.exit_code == 0, result.stderr
    return json.loads(backup.read_text())


def test_an_export_taken_while_a_drill_answers_is_one_snapshot(history, tmp_path, monkeypatch):
    """Between the export's read of the sessions and of the answers, another drill starts a session and
    answers in it: the backup must not hold an answer whose session it lacks (it would not import)."""
    original = ProgressStore._table_rows
    done = []

    def answers_after_a_new_session(store, table, *args, **kwargs):
        if table == "answers" and not done:
            done.append(True)
            with ProgressStore() as other:
                session_id = other.start_session("daily", "small", "other drill", NOW.timestamp())
                other.record_answer(AnswerRow(session_id, "daily", None, "anagram", "AB", "AB", True, False, None,
                                              NOW.timestamp(), 900))
        return original(store, table, *args, **kwargs)

    monkeypatch.setattr(ProgressStore, "_table_rows", answers_after_a_new_session)
    data = exported(tmp_path)
    assert done
    sessions = {s["id"] for s in data["sessions"]}
    assert all(a["session"] in sessions for a in data["answers"])
    monkeypatch.undo()
    monkeypatch.setenv("LEXITRAIN_HOME", str(tmp_path / "elsewhere"))
    result = run("progress", "import", str(tmp_path / "backup.json"))
    assert result.exit_code == 0, result.stderr


def card(data, key="ENT"):
    return next(c for c in data["cards"] if c["key"] == key)


#: The crafted backups: each one bad value or reference, and the line that must name it.
CRAFTED = [
    (lambda d: card(d).update(state=7), "cards #2: state is 7 (expected 0 to 3)"),
    (lambda d: card(d).update(state=-1), "state is -1 (expected 0 to 3)"),
    (lambda d: card(d).update(stability=-3.5), "stability is -3.5 (expected more than 0)"),
    (lambda d: card(d).update(difficulty=42), "difficulty is 42 (expected 1 to 10)"),
    (lambda d: card(d).update(due=-86400), "due is -86400 (expected a time after 1970)"),
    (lambda d: card(d).update(due="tomorrow"), "due is 'tomorrow'"),
    (lambda d: card(d).update(last_review=-1.0), "last_review is -1.0"),
    (lambda d: card(d).update(cardbox=11), "cardbox is 11 (expected 0 to 10)"),
    (lambda d: card(d).update(correct=-2), "correct is -2 (expected 0 or more)"),
    (lambda d: card(d).update(step=-1), "step is -1 (expected 0 or more)"),
    (lambda d: card(d).update(due=None), "state 2 (answered) but due is null"),
    (lambda d: card(d).update(key=""), "key is ''"),
    (lambda d: d["cards"].append(dict(card(d))), "ENT in small is listed twice"),
    (lambda d: card(d).update(deck="nowhere"), "deck 'nowhere' is not in the file"),
    (lambda d: d["decks"][0].update(retention=1.5), "decks #1: retention is 1.5 (expected between 0 and 1)"),
    (lambda d: d["decks"][0].update(new_per_day=-5), "new_per_day is -5"),
    (lambda d: d["settings"].update({"limit:new": "ten"}), "settings: limit:new is 'ten' (expected 0 or more)"),
    (lambda d: d["settings"].update({"retention": 3}), "settings: retention is 3 (expected 0.70 to 0.99)"),
    (lambda d: d["settings"].update({"mode": "sm2"}), "settings: mode is 'sm2' (expected fsrs or leitner)"),
    (lambda d: d["answers"][0].update(session=999), "answers #1: session 999 is not in the file"),
    (lambda d: d["sessions"].append(dict(d["sessions"][0])), "is listed twice"),
    (lambda d: d["answers"][0].update(rating=9), "answers #1: rating is 9 (expected 1 to 4)"),
    (lambda d: d["answers"][0].update(ms=-10), "answers #1: ms is -10 (expected 0 or more)"),
    (lambda d: d["answers"][1]["before"].update(state=5), "answers #2: before: state is 5 (expected 0 to 3)"),
    (lambda d: d["challenges"].append({"session": 4242, "date": "2026-03-01", "kind": "sevens", "lexicon": "small",
                                       "score": 1, "total": 50, "seconds": 3.0, "completed": True, "retake": False}),
     "challenges #1: session 4242 is not in the file"),
    (lambda d: d["sessions"][0].pop("mode"), "sessions #1: mode is missing"),
]


@pytest.mark.parametrize("damage, message", CRAFTED, ids=[m for _, m in CRAFTED])
def test_a_crafted_backup_is_refused_whole_naming_its_first_bad_row(history, tmp_path, home, damage, message):
    data = exported(tmp_path)
    damage(data)
    backup = tmp_path / "crafted.json"
    backup.write_text(json.dumps(data))
    with ProgressStore() as store:
        before = store.export_rows()
    for target in (home, tmp_path / "fresh"):  # a home with progress, and an empty one
        import os

        os.environ["LEXITRAIN_HOME"] = str(target)
        result = run("progress", "import", str(backup))
        assert result.exit_code == 1 and message in result.stderr, result.stderr
        assert "nothing was imported" in result.stderr and result.stderr.count("\n") == 1
    os.environ["LEXITRAIN_HOME"] = str(home)
    with ProgressStore() as store:
        assert store.export_rows() == before
    assert run("daily", "--status", "--lexicon", "small").exit_code == 0


def test_a_merge_never_drops_a_schedule_and_says_what_it_merged_how(history, tmp_path, home, monkeypatch):
    data = exported(tmp_path)
    backup = tmp_path / "backup.json"
    # Here: ENT forgotten (new again: the backup is newer), AB reviewed later than in the backup.
    with ProgressStore() as store:
        ent = store.find_card("small", "anagram", "ENT")
        store.conn.execute("UPDATE answers SET card_id = NULL WHERE card_id = ?", (ent.id,))
        store.conn.execute("UPDATE cards SET state = 0, step = NULL, stability = NULL, difficulty = NULL, due = NULL, "
                           "last_review = NULL, correct = 0, incorrect = 0, streak = 0 WHERE id = ?", (ent.id,))
    study(history, monkeypatch, NOW + timedelta(days=5), {"AB": False})
    # In the backup: AEINRST scheduled (from a cardbox) but never reviewed, and new here.
    scheduled = card(data, "AEINRST")
    scheduled.update(last_review=None, state=1, due=(NOW + timedelta(days=3)).timestamp())
    with ProgressStore() as store:
        aeinrst = store.find_card("small", "anagram", "AEINRST")
        store.conn.execute("UPDATE cards SET state = 0, due = NULL, last_review = NULL, stability = NULL, "
                           "difficulty = NULL, step = NULL, correct = 0, incorrect = 0, streak = 0 WHERE id = ?",
                           (aeinrst.id,))
    data["cards"].append({**card(data, "ANT"), "key": "AEIRST"})  # only in the backup
    backup.write_text(json.dumps(data))
    result = run("progress", "import", str(backup), "--json")
    assert result.exit_code == 0, result.stderr
    report = result.json()
    assert report["merged"] == {"added": 1, "backup_newer": 1, "scheduled_over_new": 1, "kept_here": 2}
    with ProgressStore() as store:
        assert store.find_card("small", "anagram", "ENT").state == card(data, "ENT")["state"] != 0
        assert store.find_card("small", "anagram", "AEINRST").due == scheduled["due"]
        assert store.find_card("small", "anagram", "AB").last_review == (NOW + timedelta(days=5)).timestamp()
    text = run("progress", "import", str(backup)).stdout
    assert "0 cards added, 0 newer in the backup, 0 scheduled there and new here; 5 kept as they are here" in text


def test_one_card_moved_reads_in_the_singular(small, tmp_path, monkeypatch):
    """`progress export` and `progress import` said "1 cards", "1 answers", "(1 cards added, ...)"."""
    assert run("quiz", "--list", "twos", "--lexicon", "small", "--jsonl", "--limit", "1", input="x\n").exit_code == 0
    backup = tmp_path / "one.json"
    said = run("progress", "export", str(backup)).stdout
    assert said.startswith("exported 1 card, 1 answer and 0 positions to ")
    monkeypatch.setenv("LEXITRAIN_HOME", str(tmp_path / "elsewhere"))
    taken = run("progress", "import", str(backup)).stdout
    assert taken.startswith("imported 1 card, 1 answer and 0 positions from ") and "(1 card added, " in taken
