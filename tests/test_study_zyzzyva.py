"""Importing a Zyzzyva cardbox built here with Zyzzyva's own quiz-database schema."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timezone

from hypothesis import given, settings, strategies as st

from lexitrain.study.quiz.scheduler import LEITNER_DAYS, Scheduling
from lexitrain.study.store import CardRow, ProgressStore
from lexitrain.study.records.zyzzyva import card_state
from study_helpers import small  # noqa: F401  (fixture)
from tests.cli_runner import run

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)
DAY = 86400

# As Zyzzyva creates it (QuizDatabase.cpp).
ZYZZYVA_SCHEMA = [
    "CREATE TABLE questions (question varchar(16), correct integer, incorrect integer, streak integer, "
    "last_correct integer, difficulty integer, cardbox integer, next_scheduled integer)",
    "CREATE UNIQUE INDEX question_index ON questions (question)",
    "CREATE TABLE db_version (version integer)",
    "INSERT INTO db_version VALUES (1)",
]


def cardbox(path, rows):
    conn = sqlite3.connect(path)
    for statement in ZYZZYVA_SCHEMA:
        conn.execute(statement)
    conn.executemany("INSERT INTO questions VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
    conn.commit()
    conn.close()
    return path


def test_damaged_rows_are_left_out_and_counted(small, tmp_path):
    """A cardbox row whose counts are not numbers (a damaged or hand-edited file) was a ValueError."""
    db = cardbox(tmp_path / "Anagrams.db", [
        ("AEINRST", "x", 1, 5, 0, 0, 5, 0),
        ("AEGINRST", 1, 1, 1e20, 0, 0, 0, 0),
        ("AEILRST", 2, 0, 2, 0, 0, 1, 0),
    ])
    result = run("progress", "import-zyzzyva", str(db), "--lexicon", "small")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == f"imported 1 of 3 questions from {db} (0 not in small; 2 damaged rows left out)\n"
    with ProgressStore() as store:
        assert store.find_card("small", "anagram", "AEINRST") is None
        assert store.find_card("small", "anagram", "AEILRST").correct == 2


def test_import_maps_boxes_to_fsrs(small, tmp_path, monkeypatch):
    monkeypatch.setenv("LEXITRAIN_NOW", NOW.isoformat())
    now = int(NOW.timestamp())
    db = cardbox(tmp_path / "Anagrams.db", [
        # question, correct, incorrect, streak, last_correct, difficulty, cardbox, next_scheduled
        ("AEINRST", 9, 1, 5, now - 20 * DAY, 0, 5, now + 10 * DAY),   # well known, box 5 (30 days)
        ("RSTAEIL", 0, 0, 0, 0, 0, 0, now + DAY),                     # AEILRST unsorted: never answered
        ("AEGINRST", 1, 4, -2, now - 3 * DAY, 0, 0, now - DAY),       # often missed, overdue
        ("QQQQQQQ", 3, 0, 3, now, 0, 2, now),                         # not in this lexicon
    ])
    result = run("progress", "import-zyzzyva", str(db), "--lexicon", "small", "--json")
    assert result.exit_code == 0, result.stderr
    assert result.json() == {"questions": 4, "imported": 3, "kept": 0, "skipped": 1, "damaged": 0,
                             "outside_the_cardbox": 0, "lexicon": "small",
                             "skipped_questions": [{"question": "QQQQQQQ", "why": "QQQQQQQ has no anagrams in small"}],
                             "merged": []}
    with ProgressStore() as store:
        known = store.find_card("small", "anagram", "AEINRST")
        assert (known.state, known.cardbox, known.correct, known.incorrect, known.streak) == (2, 5, 9, 1, 5)
        assert known.stability == 30.0 and known.due == now + 10 * DAY and known.last_review == now - 20 * DAY
        fresh = store.find_card("small", "anagram", "AEILRST")
        assert fresh.state == 1 and fresh.stability is None and fresh.due == now + DAY
        hard = store.find_card("small", "anagram", "AEGINRST")
        assert hard.state == 2 and hard.difficulty > known.difficulty and hard.due == now - DAY
    # The overdue card is due now, and answering it goes through FSRS from the imported state.
    out = run("quiz", "--due", "--lexicon", "small", "--jsonl", input="GRANITES INGRATES RANGIEST\n")
    assert out.exit_code == 0, out.stderr
    assert '"id": "anagram:AEGINRST"' in out.stdout and '"state": "review"' in out.stdout
    # Importing again keeps what is now studied here.
    again = run("progress", "import-zyzzyva", str(db), "--lexicon", "small", "--json").json()
    assert again["kept"] == 3 and again["imported"] == 0
    said = run("progress", "import-zyzzyva", str(db), "--lexicon", "small")
    assert said.stdout == f"imported 0 of 4 questions from {db} (3 already studied here, kept as they are; 1 not in small)\n"
    assert said.stderr == "warning: skipped QQQQQQQ: QQQQQQQ has no anagrams in small\n"


def test_every_question_is_accounted_for_by_name(small, tmp_path, monkeypatch):
    """What the issue found: skipped questions counted but not named, a case duplicate called
    "already studied here", a blank question lumped with invalid words, a never-answered card
    shown in Leitner box 10."""
    monkeypatch.setenv("LEXITRAIN_NOW", NOW.isoformat())
    now = int(NOW.timestamp())
    db = cardbox(tmp_path / "Anagrams.db", [
        ("AEINRST", 3, 1, 2, now - 9 * DAY, 0, 2, now + 3 * DAY),
        ("aeinrst", 1, 2, 0, now - 2 * DAY, 0, 1, now + DAY),       # the same question in lower case: answered later
        ("AEINRS?", 2, 0, 2, now - 5 * DAY, 0, 3, now + 7 * DAY),   # a blank question
        ("TEA", 0, 0, 0, None, 0, 4, now + 30 * DAY),               # never answered, in box 4
        ("QQQQ", 1, 0, 1, now, 0, 1, now),                          # not a word here
        ("ZZZ???", 1, 0, 1, now, 0, 1, now),                        # three blanks
        ("AELST", "x", 0, 1, now, 0, 1, now),                       # damaged
    ])
    result = run("progress", "import-zyzzyva", str(db), "--lexicon", "small")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == (f"imported 3 of 7 questions from {db} (1 case duplicate merged; 2 not in small; "
                             "1 damaged rows left out)\n")
    assert result.stderr.splitlines() == [
        "warning: skipped QQQQ: QQQQ has no anagrams in small",
        "warning: skipped ZZZ???: ZZZ???: at most two blanks",
        "warning: skipped AELST: a damaged row: its counts or times are not numbers",
        "warning: merged AEINRST and aeinrst into one card AEINRST (their answers added up, the later schedule kept)"]
    with ProgressStore() as store:
        merged = store.find_card("small", "anagram", "AEINRST")
        assert (merged.correct, merged.incorrect, merged.cardbox, merged.due) == (4, 3, 1, now + DAY)
        blank = store.find_card("small", "anagram", "AEINRS?")
        assert (blank.state, blank.cardbox, blank.correct) == (2, 3, 2)
    assert "Leitner box 4," in run("study", "card", "AET", "--lexicon", "small").stdout
    assert run("study", "card", "AET", "--lexicon", "small", "--json").json()["leitner_box"] == 4
    data = run("progress", "import-zyzzyva", str(db), "--lexicon", "small", "--json").json()
    assert data["kept"] == 3 and data["merged"] == [{"card": "AEINRST", "questions": ["AEINRST", "aeinrst"]}]
    assert [q["question"] for q in data["skipped_questions"]] == ["QQQQ", "ZZZ???", "AELST"]


def test_the_lexicon_is_hinted_by_zyzzyvas_folder(small, make_lexicon, tmp_path):
    folder = tmp_path / "quiz" / "data" / "NWL2023"
    folder.mkdir(parents=True)
    db = cardbox(folder / "Anagrams.db", [("AEINRST", 1, 0, 1, 0, 0, 1, 0)])
    refused = run("progress", "import-zyzzyva", str(db))
    assert refused.exit_code == 1 and len(refused.stderr.splitlines()) == 1
    assert f"{db} is in Zyzzyva's folder for NWL2023, which is not compiled here" in refused.stderr
    assert "give --lexicon" in refused.stderr
    into_small = run("progress", "import-zyzzyva", str(db), "--lexicon", "small", "--json").json()
    assert into_small["lexicon"] == "small" and into_small["imported"] == 1
    make_lexicon(["RETAINS", "NASTIER"], name="nwl23")
    hinted = run("progress", "import-zyzzyva", str(db))
    assert hinted.exit_code == 0, hinted.stderr
    assert hinted.stdout.startswith(f"imported 1 of 1 question from {db} (lexicon nwl23, from the file's folder NWL2023;")
    with ProgressStore() as store:
        assert store.find_card("nwl23", "anagram", "AEINRST").cardbox == 1


def test_import_never_writes_to_the_zyzzyva_file(small, tmp_path):
    db = cardbox(tmp_path / "Anagrams.db", [("AEINRST", 1, 0, 1, 0, 0, 1, 0)])
    before = db.read_bytes()
    assert run("progress", "import-zyzzyva", str(db), "--lexicon", "small").exit_code == 0
    assert db.read_bytes() == before


def test_not_a_zyzzyva_database(small, tmp_path):
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()
    result = run("progress", "import-zyzzyva", str(other), "--lexicon", "small")
    assert result.exit_code == 1 and "not a Zyzzyva quiz database" in result.stderr
    missing = run("progress", "import-zyzzyva", str(tmp_path / "nope.db"), "--lexicon", "small")
    assert missing.exit_code == 1 and "no such file" in missing.stderr


def test_hooks_cardbox(small, tmp_path):
    db = cardbox(tmp_path / "Hooks.db", [("TEN", 2, 0, 2, 0, 0, 2, 0), ("ZZZ", 1, 0, 1, 0, 0, 1, 0)])
    report = run("progress", "import-zyzzyva", str(db), "--kind", "hooks", "--lexicon", "small", "--json").json()
    assert (report["imported"], report["skipped"]) == (1, 1)
    with ProgressStore() as store:
        assert store.find_card("small", "hooks", "TEN").cardbox == 2


COUNT = st.one_of(st.none(), st.integers(min_value=0, max_value=10_000))
STAMP = st.one_of(st.none(), st.just(0), st.integers(min_value=1_000_000_000, max_value=2_000_000_000))


@settings(max_examples=150, deadline=None)
@given(st.fixed_dictionaries({
    "question": st.just("AEINRST"), "correct": COUNT, "incorrect": COUNT,
    "streak": st.one_of(st.none(), st.integers(-50, 50)), "last_correct": STAMP,
    "cardbox": st.one_of(st.none(), st.integers(-3, 40)), "next_scheduled": STAMP,
}), st.sampled_from(["fsrs", "leitner"]), st.booleans())
def test_any_cardbox_row_becomes_a_card_fsrs_can_review(row, mode, right):
    """Whatever a cardbox holds (NULLs, odd boxes), the card it makes can be reviewed."""
    made = card_state(row, CardRow(1, "x", "anagram", "AEINRST", 0, None, None, None, None, None, 0, 0, 0, 0, 0.0),
                      NOW.timestamp())
    assert made.state in (1, 2) and 0 <= made.cardbox < len(LEITNER_DAYS) and made.due is not None
    if made.state == 2:
        assert made.stability > 0 and 1 <= made.difficulty <= 10 and made.last_review is not None
    after = Scheduling(mode).review(made, right, NOW)
    assert after.due > NOW.timestamp() and after.stability > 0
