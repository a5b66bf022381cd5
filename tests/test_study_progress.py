"""Progress export/import, statistics and the backlog commands."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest

from lexitrain.study.quiz.scheduler import Scheduling
from lexitrain.study.quiz.session import Item, Session
from lexitrain.study.store import ProgressStore
from study_helpers import anagram_oracle, small  # noqa: F401  (small is a fixture)
from tests.cli_runner import run

NOW = datetime(2026, 3, 1, 10, 0, tzinfo=timezone.utc)
ORACLE = anagram_oracle()
KEYS = ["AB", "ENT", "ANT", "AEINRST", "AEILNRST", "AEGINRST"]


def study(lex, monkeypatch, moment: datetime, right: dict[str, bool]) -> None:
    """Answer each key once at `moment` (right or wrong) in a scheduled quiz."""
    monkeypatch.setenv("LEXITRAIN_NOW", moment.isoformat())
    with ProgressStore() as store:
        ids = store.ensure_cards(lex.name, [("anagram", k) for k in right], moment.timestamp())
        session = Session(store, lex, "quiz", "test", [Item("anagram", k, i) for k, i in zip(right, ids)], Scheduling())
        for question in session.questions():
            session.answer(question, " ".join(ORACLE[question.key]) if right[question.key] else "WRONG")
        session.finish(save_missed=False)


@pytest.fixture
def history(small, monkeypatch):
    """Three days of study: AEGINRST always missed, AB missed once."""
    study(small, monkeypatch, NOW, {k: k not in ("AEGINRST", "AB") for k in KEYS})
    study(small, monkeypatch, NOW + timedelta(days=1), {k: k != "AEGINRST" for k in KEYS})
    study(small, monkeypatch, NOW + timedelta(days=2), {k: k != "AEGINRST" for k in KEYS})
    return small


def test_stats_tables_and_plot(history, tmp_path):
    report = run("stats", "--lexicon", "small", "--json").json()
    assert [(d["date"], d["answers"], d["correct"], d["new"]) for d in report["reviews_per_day"]] == [
        ("2026-03-01", 6, 4, 6), ("2026-03-02", 6, 5, 0), ("2026-03-03", 6, 5, 0)]
    assert report["retention"] == round(10 / 12, 3)
    assert sum(report["cards_by_state"].values()) == 6 and report["cards_by_state"]["new"] == 0
    assert len(report["forecast"]) == 30 and sum(d["due"] for d in report["forecast"]) == 6
    hardest = report["hardest"]
    assert hardest[0] == {"key": "AEGINRST", "correct": 0, "incorrect": 3, "miss_rate": 1.0}
    assert hardest[1]["key"] == "AB" and len(hardest) == 2
    png = tmp_path / "stats.png"
    text = run("stats", "--lexicon", "small", "--plot", str(png))
    assert text.exit_code == 0 and "hardest alphagrams: AEGINRST (3/3 missed)" in text.stdout
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
    bad = run("stats", "--lexicon", "small", "--plot", str(tmp_path / "stats.jpg"))
    assert bad.exit_code == 1 and "PNG" in bad.stderr


def test_stats_count_a_plans_waiting_cards_apart_from_new_ones(small, monkeypatch):
    """A fresh home's daily drill lines up its plan's cards the first time it is looked at (the web app's home
    does, before anything is studied: a player who had played one game saw "1784 new" on Stats). Stats counts
    them apart, as waiting in the plan, and its new cards are the player's own (cards from a game) not yet
    answered; a card of the plan answered leaves the waiting ones for learning."""
    from lexitrain.study.drills.requests import DailyRequest
    from lexitrain.study.records.stats import compute, render_text

    monkeypatch.setenv("LEXITRAIN_NOW", NOW.isoformat())
    with ProgressStore() as store:
        lined_up = DailyRequest().status(store, small).new_waiting  # (what the home page shows: the plan made)
        assert lined_up > 0
        report = compute(store, small.name, small)
        assert report.by_state == {"new": 0, "learning": 0, "review": 0, "relearning": 0}
        assert report.waiting == lined_up and report.to_json()["cards_waiting_in_plans"] == lined_up
        assert render_text(report)[0] == (f"small: 0 new, 0 learning, 0 review, 0 relearning; {lined_up:,} more wait "
                                          "in your study plan (the daily drill introduces a few a day)")
        store.ensure_cards(small.name, [("hooks", "CARE")], NOW.timestamp())  # a card of the player's own
    study(small, monkeypatch, NOW, {"ENT": True})  # a card of the plan answered
    with ProgressStore() as store:
        report = compute(store, small.name, small)
    assert report.by_state["new"] == 1 and report.by_state["learning"] + report.by_state["review"] == 1
    assert report.waiting == lined_up - 1  # (ENT, a three, was one of the plan's)


def test_export_import_round_trip(history, home, tmp_path, monkeypatch):
    backup = tmp_path / "backup.json"
    assert run("progress", "export", str(backup), "--json").json() == {
        "file": str(backup), "cards": 6, "answers": 18, "positions": 0, "lists": 0}
    data = json.loads(backup.read_text())
    assert data["format"] == "lexitrain-progress" and len(data["cards"]) == 6 and len(data["answers"]) == 18
    with ProgressStore() as store:
        original = {(c.kind, c.key): c for c in (store.find_card("small", "anagram", k) for k in KEYS)}
    (home / "progress.sqlite").rename(tmp_path / "old.sqlite")
    for suffix in ("-wal", "-shm"):
        (home / f"progress.sqlite{suffix}").unlink(missing_ok=True)
    result = run("progress", "import", str(backup))
    assert result.exit_code == 0 and "imported 6 cards, 18 answers and 0 positions" in result.stdout
    again = run("progress", "import", str(backup))
    assert "imported 0 cards, 0 answers and 0 positions" in again.stdout
    assert run("progress", "import", str(backup), "--json").json() == {
        "file": str(backup), "cards": 0, "answers": 0, "positions": 0, "lists": 0,
        "merged": {"added": 0, "backup_newer": 0, "scheduled_over_new": 0, "kept_here": 6}}
    with ProgressStore() as store:
        for (kind, key), before in original.items():
            after = store.find_card("small", kind, key)
            assert (after.state, after.stability, after.due, after.correct, after.incorrect) == (
                before.state, before.stability, before.due, before.correct, before.incorrect)
        assert store.conn.execute("SELECT count(*) FROM answers").fetchone()[0] == 18
    assert run("stats", "--lexicon", "small", "--json").json()["retention"] == round(10 / 12, 3)


def test_import_rejects_other_files(tmp_path):
    not_json = tmp_path / "x.json"
    not_json.write_text("{oops")
    result = run("progress", "import", str(not_json))
    assert result.exit_code == 1 and "not a lexitrain progress file" in result.stderr
    newer = tmp_path / "newer.json"
    newer.write_text(json.dumps({"format": "lexitrain-progress", "version": 99}))
    assert "newer lexitrain" in run("progress", "import", str(newer)).stderr


def test_unreadable_backups_are_one_line_each(tmp_path):
    """A folder, binary data or broken JSON is named as such (the line of the JSON error too)."""
    binary = tmp_path / "x.bin"
    binary.write_bytes(b"\x00\xe4\xff" * 10)
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "lexitrain-progress",\n"version": 1,\n"cards": [}\n')
    odd_version = tmp_path / "odd.json"
    odd_version.write_text(json.dumps({"format": "lexitrain-progress", "version": "one"}))
    for path, message in ((tmp_path, f"{tmp_path}: is a folder, not a lexitrain progress file"),
                          (binary, f"{binary}: not a lexitrain progress file (not UTF-8 text)"),
                          (broken, f"{broken}:3: not a lexitrain progress file (Expecting value)"),
                          (odd_version, "\"version\" is 'one', not a number")):
        result = run("progress", "import", str(path))
        assert result.exit_code == 1 and result.stderr.count("\n") == 1 and message in result.stderr


@pytest.mark.parametrize("damage, message", [
    (lambda d: d["cards"][0].update(due="tomorrow"), "cards #1: due is 'tomorrow'"),
    (lambda d: d["cards"][0].update(correct=10**30), "cards #1: correct is 1000000000000000000000000000000"),
    (lambda d: d["answers"][0].update(at=[1, 2]), "answers #1: at is [1, 2]"),
    (lambda d: d.update(cards={"a": 1}), '"cards" is not a list of objects'),
    (lambda d: d.update(settings=3), '"settings" is not an object'),
    (lambda d: d["sessions"][0].pop("mode"), "sessions #1: mode is missing"),
])
def test_a_damaged_backup_imports_nothing(history, tmp_path, damage, message):
    """A hand-edited backup with a value of the wrong kind is refused whole, before anything is written:
    a due date of "tomorrow" stored as is would break the card's next review."""
    backup = tmp_path / "backup.json"
    assert run("progress", "export", str(backup)).exit_code == 0
    data = json.loads(backup.read_text())
    damage(data)
    backup.write_text(json.dumps(data))
    with ProgressStore() as store:
        store.conn.execute("DELETE FROM answers")
        store.conn.execute("DELETE FROM cards")
        store.conn.commit()
    result = run("progress", "import", str(backup))
    assert result.exit_code == 1 and message in result.stderr and "nothing was imported" in result.stderr
    with ProgressStore() as store:
        assert store.conn.execute("SELECT count(*) FROM cards").fetchone()[0] == 0


#: Crafted values an import let in before: keys and fields lexitrain never writes, lexicon names no
#: lexicon can have (or another spelling of one here), kinds and settings lexitrain does not have.
UNKNOWN = [
    (lambda d: d.update(cardz=[]), "'cardz' is not a key of a lexitrain progress file"),
    (lambda d: d["cards"][0].update(colour="red"), "cards #1: 'colour' is not a field of its cards"),
    (lambda d: d["sessions"][0].update(owner="eve"), "sessions #1: 'owner' is not a field of its sessions"),
    (lambda d: d["answers"][0].update(bonus=5), "answers #1: 'bonus' is not a field of its answers"),
    (lambda d: d["answers"][0]["before"].update(extra=1), "answers #1: before: 'extra' is not a field of a card"),
    (lambda d: d["decks"].append({"lexicon": "small", "name": "d", "retention": None, "new_per_day": None,
                                  "reviews_per_day": None, "hidden": True}), "decks #1: 'hidden' is not a field"),
    (lambda d: d["cards"][0].update(lexicon="../../etc"), "cards #1: lexicon '../../etc' is not a lexicon's name"),
    (lambda d: d["cards"][0].update(lexicon="SMALL"), "cards #1: lexicon 'SMALL' is spelled 'small' here"),
    (lambda d: d["sessions"][0].update(lexicon="Enable"), "sessions #1: lexicon 'Enable' is spelled 'enable' here"),
    (lambda d: d["answers"][0].update(lexicon="no such"), "answers #1: lexicon 'no such' is not a lexicon's name"),
    (lambda d: d["cards"][0].update(kind="bogus"), "cards #1: kind 'bogus' is not a question kind"),
    (lambda d: d["answers"][0].update(kind="bogus"), "answers #1: kind 'bogus' is not a question kind"),
    (lambda d: d["settings"].update(colour="red"), "settings: 'colour' is not a setting lexitrain has"),
    (lambda d: d["settings"].update({"limit:newz": 5}), "settings: 'limit:newz' is not a setting"),
    (lambda d: d["settings"].update(lexicon="../x"), "settings: lexicon: lexicon '../x' is not a lexicon's name"),
    (lambda d: d["settings"].update(lexicon="SMALL"), "settings: lexicon: lexicon 'SMALL' is spelled 'small' here"),
    (lambda d: d["settings"].update(daily_order="random"), "settings: daily_order is 'random' (expected due or points-per-game)"),
    (lambda d: d["settings"].update({"display:tiles": "yes"}), "settings: display:tiles is 'yes'"),
    (lambda d: d["settings"].update({"display:letter_order": 7}), "settings: display:letter_order is 7"),
    (lambda d: d["settings"].update({"display:sparkles": True}), "settings: 'display:sparkles' is not a setting"),
    (lambda d: d["settings"].update(fsrs_parameters="fast"), "settings: fsrs_parameters is 'fast'"),
    (lambda d: d["settings"].update(fsrs_parameters={"general": [1, 2]}), "settings: fsrs_parameters is {'general': [1, 2]}"),
    (lambda d: d["settings"].update({"positions:daily:small": {"per_day": -1}}), "settings: positions:daily:small is"),
    (lambda d: d["settings"].update({"positions:daily:small": {"per_day": 2, "filters": {"colour": 1}}}),
     "settings: positions:daily:small is"),
    (lambda d: d["settings"].update({"positions:daily:x/y": {"per_day": 2}}), "settings: positions:daily:x/y: lexicon 'x/y'"),
    (lambda d: d["settings"].update({"plan:small": "first"}), "settings: plan:small is 'first' (expected a plan's id)"),
]


def test_an_unknown_key_field_lexicon_kind_or_setting_is_refused_by_name(history, tmp_path):
    """Before, 15 such crafted values were merged: a daily plan's unknown filter then broke every `daily`."""
    backup = tmp_path / "backup.json"
    assert run("progress", "export", str(backup)).exit_code == 0
    exported = backup.read_text()
    with ProgressStore() as store:
        store.conn.execute("DELETE FROM answers")
        store.conn.execute("DELETE FROM cards")
    for craft, message in UNKNOWN:
        data = json.loads(exported)
        craft(data)
        backup.write_text(json.dumps(data))
        result = run("progress", "import", str(backup))
        assert result.exit_code == 1 and result.stderr.count("\n") == 1, (message, result.stderr)
        assert message in result.stderr and "nothing was imported" in result.stderr, (message, result.stderr)
    with ProgressStore() as store:
        assert store.conn.execute("SELECT count(*) FROM cards").fetchone()[0] == 0
        assert store.setting("colour") is None
    backup.write_text(exported)
    assert run("progress", "import", str(backup)).exit_code == 0  # the export itself passes every check
    older = json.loads(exported)
    older["settings"]["daily_order"] = "points"  # points first as lexitrain spelled it before points-per-game
    backup.write_text(json.dumps(older))
    assert run("progress", "import", str(backup)).exit_code == 0


def test_export_needs_a_file_name(tmp_path):
    for target in ("", str(tmp_path)):
        result = run("progress", "export", target)
        assert result.exit_code == 1 and "give the backup a file name" in result.stderr


def test_import_a_backup_saved_with_a_byte_order_mark(history, home, tmp_path):
    backup = tmp_path / "b.json"
    assert run("progress", "export", str(backup)).exit_code == 0
    backup.write_bytes(b"\xef\xbb\xbf" + backup.read_bytes())  # Notepad's "UTF-8 with BOM"
    result = run("progress", "import", str(backup))
    assert result.exit_code == 0, result.stderr
    assert "imported 0 cards, 0 answers" in result.stdout  # already here: nothing doubled


def test_postpone_and_spread_move_only_due_dates(history, monkeypatch):
    later = NOW + timedelta(days=400)
    monkeypatch.setenv("LEXITRAIN_NOW", later.isoformat())
    with ProgressStore() as store:
        before = {k: store.find_card("small", "anagram", k) for k in KEYS}
    refused = run("study", "postpone", "--days", "5", "--count", "-1", "--lexicon", "small")
    assert refused.exit_code == 1 and "--count must be at least 1" in refused.stderr  # not "all but one"
    too_far = run("study", "postpone", "--days", "100000000", "--lexicon", "small")
    assert too_far.exit_code == 1 and too_far.stderr == "error: --days 100000000: expected 1 to 3650 (ten years)\n"
    assert "postponed 2 cards by 5 days" in run("study", "postpone", "--days", "5", "--count", "2",
                                                "--lexicon", "small").stdout
    with ProgressStore() as store:
        after = {k: store.find_card("small", "anagram", k) for k in KEYS}
    moved = [k for k in KEYS if after[k].due != before[k].due]
    assert len(moved) == 2 and "AEGINRST" not in moved  # the most-missed card is most at risk: not postponed
    assert all(after[k].due == (later + timedelta(days=5)).timestamp() for k in moved)
    assert all(after[k].stability == before[k].stability for k in KEYS)
    spread = run("study", "spread", "--per-day", "2", "--lexicon", "small", "--json").json()
    assert spread == {"lexicon": "small", "overdue": 4, "per_day": 2, "days": 2}
    due_today = run("daily", "--status", "--json", "--lexicon", "small").json()
    assert due_today["reviews_left"] == 2
    # Spread again: the two due today are the backlog now, taken in one day.
    assert run("study", "spread", "--per-day", "2", "--lexicon", "small").stdout == "2 overdue cards: 2 due today\n"
    assert run("study", "postpone", "--days", "1", "--lexicon", "small", "--json").json() == {
        "lexicon": "small", "postponed": 2, "days": 1}


def test_spread_tells_how_the_backlog_is_taken_and_when_there_is_none(history, monkeypatch):
    monkeypatch.setenv("LEXITRAIN_NOW", (NOW + timedelta(days=400)).isoformat())
    text = run("study", "spread", "--per-day", "4", "--lexicon", "small").stdout
    assert text == "6 overdue cards: 4 due today, the rest 4 a day over the next 1 day\n"
    monkeypatch.setenv("LEXITRAIN_NOW", NOW.isoformat())  # before any card fell due
    assert run("study", "spread", "--per-day", "4", "--lexicon", "small").stdout == (
        "no cards are overdue in small: nothing to spread\n")
    assert run("study", "postpone", "--days", "3", "--lexicon", "small").stdout == (
        "no cards are overdue in small: nothing to postpone\n")


def test_export_to_a_missing_folder(tmp_path):
    result = run("progress", "export", str(tmp_path / "no" / "such" / "backup.json"))
    assert result.exit_code == 1 and "cannot write the backup" in result.stderr


def test_a_damaged_backup_imports_nothing_at_all(history, home, tmp_path):
    backup = tmp_path / "backup.json"
    assert run("progress", "export", str(backup), "--json").json() == {
        "file": str(backup), "cards": 6, "answers": 18, "positions": 0, "lists": 0}
    data = json.loads(backup.read_text())
    data["cards"].append({**data["cards"][0], "key": "ELOPS"})  # a card that is new here ...
    del data["answers"][-1]["at"]  # ... in a file damaged further on
    backup.write_text(json.dumps(data))
    result = run("progress", "import", str(backup))
    assert result.exit_code == 1 and "damaged progress file" in result.stderr and "nothing was imported" in result.stderr
    with ProgressStore() as store:
        assert store.find_card("small", "anagram", "ELOPS") is None


def test_export_then_import_on_an_empty_home_reproduces_every_card_exactly(small, home, tmp_path, monkeypatch):
    """New (never answered, in a plan), learning, review and relearning cards, a Leitner box, a card
    imported from a cardbox and never reviewed since, and their history: all come back as they were."""
    from lexitrain.study.records.zyzzyva import card_state

    monkeypatch.setenv("LEXITRAIN_NOW", NOW.isoformat())
    assert run("study", "plan", "--length", "7", "--lexicon", "small").exit_code == 0  # new cards, never answered
    study(small, monkeypatch, NOW, {"AB": False, "ENT": True, "ANT": True})  # learning
    study(small, monkeypatch, NOW + timedelta(days=1), {"ENT": True})  # review
    study(small, monkeypatch, NOW + timedelta(days=9), {"ENT": False})  # relearning
    stopped = run("quiz", "--list", "twos", "--lexicon", "small", "--no-schedule", "--jsonl", input="AA\n")
    assert stopped.exit_code == 0  # a round stopped before its end: the next quiz resumes it
    with ProgressStore() as store:
        fresh = store.card(store.ensure_card("small", "anagram", "AEILNRST", NOW.timestamp()))
        store.save_card(card_state({"correct": 0, "incorrect": 0, "cardbox": 3, "streak": 0, "next_scheduled":
                                    (NOW + timedelta(days=3)).timestamp(), "last_correct": None}, fresh, NOW.timestamp()))
        boxed = store.card(store.ensure_card("small", "hooks", "CARE", NOW.timestamp()))
        store.save_card(card_state({"correct": 5, "incorrect": 1, "cardbox": 4, "streak": 3, "next_scheduled":
                                    (NOW + timedelta(days=20)).timestamp(), "last_correct": NOW.timestamp()},
                                   boxed, NOW.timestamp()))
        before = store.export_rows()
    states = {c["state"] for c in before["cards"]}
    assert states == {0, 1, 2, 3}, states
    assert any(c["last_review"] is None and c["state"] != 0 for c in before["cards"])  # the cardbox's unreviewed

    backup = tmp_path / "backup.json"
    assert run("progress", "export", str(backup)).exit_code == 0
    empty = tmp_path / "empty-home"
    monkeypatch.setenv("LEXITRAIN_HOME", str(empty))
    result = run("progress", "import", str(backup))
    assert result.exit_code == 0, result.stderr
    with ProgressStore() as store:
        after = store.export_rows()

    def cards(rows):
        return sorted(({k: v for k, v in c.items() if k not in ("id", "placed", "placed_seq")} for c in rows["cards"]),
                      key=lambda c: (c["kind"], c["key"]))

    def answers(rows):
        key_of = {c["id"]: (c["kind"], c["key"]) for c in rows["cards"]}
        return [({k: v for k, v in a.items() if k not in ("id", "session_id", "card_id", "before", "seq")},
                 key_of.get(a["card_id"]), a["before"] and {k: v for k, v in a["before"].items() if k != "id"})
                for a in rows["answers"]]

    assert cards(after) == cards(before)  # state, due, stability, difficulty, step, box, counters, added
    assert answers(after) == answers(before) and len(before["answers"]) == 6  # every review, with its before
    assert [{k: v for k, v in s.items() if k not in ("id", "seq")} for s in after["sessions"]] == \
        [{k: v for k, v in s.items() if k not in ("id", "seq")} for s in before["sessions"]]
    assert {s["complete"] for s in before["sessions"]} == {0, 1}  # rounds over and rounds to resume alike


def test_stats_plot_legend_sits_above_the_bars_it_names(history):
    """The answers-per-day legend is in the headroom, not drawn over the tallest bar."""
    import matplotlib.pyplot as plt

    from lexitrain.study.records.stats import charts, compute

    with ProgressStore() as store:
        fig = charts(compute(store, "small"))
    try:
        fig.canvas.draw()
        answers = fig.axes[0]
        legend = answers.get_legend().get_window_extent()
        bars = [bar.get_window_extent() for bar in answers.patches]
        assert len(bars) == 6  # three days, answered and right
        assert not any(legend.overlaps(bar) for bar in bars)
    finally:
        plt.close(fig)


def test_the_forecast_leaves_out_suspended_cards_as_the_drills_do(history):
    """A suspended card is never asked: the due forecast (and so the web's due chart, whose today is the
    reviews due now plus later today) does not count it."""
    before = sum(d["due"] for d in run("stats", "--lexicon", "small", "--json").json()["forecast"])
    assert run("study", "suspend", "anagram:AB", "--lexicon", "small").exit_code == 0
    after = sum(d["due"] for d in run("stats", "--lexicon", "small", "--json").json()["forecast"])
    assert (before, after) == (6, 5)


def test_the_forecast_shown_gathers_the_days_with_nothing_due_and_ends_with_the_last_day_due():
    import pandas as pd

    from lexitrain.study.records.stats import DueDays, StatsReport, shown_forecast

    due = [0, 0, 3, 0, 0, 0, 2, 1, 0] + [0] * 21
    days = [f"2026-03-{d:02d}" for d in range(1, 31)]
    report = StatsReport("small", pd.DataFrame(), {}, pd.DataFrame({"date": days, "due": due}), pd.DataFrame(), None,
                         None)
    assert shown_forecast(report) == [
        DueDays("2026-03-01", "2026-03-02", 0), DueDays("2026-03-03", "2026-03-03", 3),
        DueDays("2026-03-04", "2026-03-06", 0), DueDays("2026-03-07", "2026-03-07", 2),
        DueDays("2026-03-08", "2026-03-08", 1)]
    assert shown_forecast(report, 3) == [DueDays("2026-03-01", "2026-03-02", 0), DueDays("2026-03-03", "2026-03-03", 3)]
    assert shown_forecast(report, 2) == []  # nothing due in those days
