"""`lexitrain quiz` over every question source, and plans built from lists and searches."""

from __future__ import annotations

from pathlib import Path

import pytest

from lexitrain.search.saved import save_search
from study_helpers import anagram_oracle, lines, of, small  # noqa: F401  (small is a fixture)
from tests.cli_runner import run

ORACLE = anagram_oracle()


def quiz(*args: str, answers: list[str] = ()) -> list[dict]:
    result = run("quiz", "--jsonl", "--lexicon", "small", *args, input="".join(a + "\n" for a in answers))
    assert result.exit_code == 0, result.stderr
    return lines(result.stdout)


def right(question: dict) -> str:
    return " ".join(ORACLE["".join(sorted(question["prompt"]))])


def probability_order(lex, length: int) -> list[str]:
    return [r[0] for r in lex.db.execute(
        "SELECT alphagram FROM alphagrams WHERE length = ? ORDER BY alphagram_rank2", (length,))]


def test_builtin_list_in_probability_order(small):
    out = quiz("--list", "twos", answers=[" ab   ba "] * 200)
    ids = [q["id"] for q in of("question", out)]
    assert ids == [f"anagram:{a}" for a in probability_order(small, 2)]
    results = of("result", out)
    assert [r["id"] for r in results if r["correct"]] == ["anagram:AB"]
    assert of("summary", out)[0]["questions"] == len(ids)


def test_search_saved_search_and_word_file(small, tmp_path):
    by_search = quiz("--search", "--length 8", "--as-listed", answers=[])
    assert of("question", by_search)[0]["id"] == "anagram:ADEILNOT"  # alphabetical first word DELATION
    save_search("eights", "--length 8")
    by_saved = quiz("--saved", "eights", "--limit", "2", answers=["x", "y"])
    assert len(of("question", by_saved)) == 2
    words = tmp_path / "mine.txt"
    words.write_text("# my words\nretains\n\ntoenails\n")
    out = quiz("--file", str(words), "--kind", "hooks", answers=["", ""])
    assert [q["prompt"] for q in of("question", out)] == ["RETAINS", "TOENAILS"]
    assert [r["correct"] for r in of("result", out)] == [True, True]  # no hooks: the empty answer is right


def test_missed_list_can_be_quizzed_again(small):
    first = quiz("--list", "threes", "--limit", "3", answers=["", "", ""])
    missed = of("summary", first)[0]["missed_list"]
    assert Path(missed).is_file()
    again = quiz("--file", missed, answers=["", "", ""])
    assert {q["id"] for q in of("question", again)} == {r["id"] for r in of("result", first)}


@pytest.mark.parametrize("kind", ["hooks", "anagram-hooks", "build", "recall"])
def test_missed_list_asks_the_same_questions_of_every_kind(small, kind):
    first = quiz("--search", "--length 2-3 --front-hook", "--limit", "3", "--kind", kind, answers=["", "", ""])
    missed = of("summary", first)[0]["missed_list"]  # hooks: ANE's, not BANE's CANE's ...
    again = quiz("--file", missed, "--kind", kind, answers=[""] * 40)
    assert {q["id"] for q in of("question", again)} == {r["id"] for r in of("result", first)}


def test_quiz_cards_are_scheduled_and_then_due(small, monkeypatch):
    monkeypatch.setenv("LEXITRAIN_NOW", "2026-03-01T10:00:00+00:00")
    out = quiz("--list", "twos", "--limit", "2", answers=["nope", "nope"])
    assert all(r["card"]["state"] == "learning" for r in of("result", out))
    monkeypatch.setenv("LEXITRAIN_NOW", "2026-03-01T10:05:00+00:00")
    due = quiz("--due", answers=["", ""])
    assert {q["id"] for q in of("question", due)} == {r["id"] for r in of("result", out)}
    practice = quiz("--list", "twos", "--limit", "1", "--no-schedule", answers=["x"])
    assert "card" not in of("result", practice)[0]


@pytest.mark.parametrize("args, message", [
    (["--list", "nosuch"], "no built-in list 'nosuch'"),
    (["--search", "--length 9"], "gives no words in small: nothing to quiz"),
    (["--search", "--pattern 'QQ*'"], "gives no words in small"),
    (["--saved", "nosuch"], "nosuch"),
    (["--list", "twos", "--search", "--length 2"], "give exactly one word source"),
    ([], 'quiz on what? give --search "...", search conditions (--length 7 ...), --saved NAME, --list NAME, '
         "--my-list NAME, --file FILE, --due or --leeches (or `lexitrain quiz position`)"),
    (["--list", "twos", "--kind", "crossword"], "unknown question kind 'crossword'"),
    (["--list", "twos", "--kind", ""], "unknown question kind ''"),  # not quietly anagrams
    (["--search", ""], "--search '': give at least one condition"),  # not every word of the lexicon
    (["--list", "twos", "--order", "backwards"], "unknown letter order"),
    (["--list", "twos", "--limit", "-1"], "--limit -1: expected 1 or more"),  # not "all but the last"
    (["--list", "twos", "--limit", "0"], "--limit 0: expected 1 or more"),
    (["--list", "twos", "--question-time", "-5"], "--question-time -5: expected a number of seconds above 0"),
    (["--list", "twos", "--round-time", "0"], "--round-time 0: expected a number of seconds above 0"),
    (["--list", "twos", "--round-time", "inf"], "--round-time inf: expected a number of seconds above 0 and at most 86400"),
    (["--list", "twos", "--question-time", "nan"], "--question-time nan: expected a number of seconds above 0"),
])
def test_bad_sources_are_clear_errors(small, args, message):
    result = run("quiz", "--jsonl", "--lexicon", "small", *args, input="AB\n")
    assert result.exit_code == 1, result.stdout
    assert message in result.stderr and "Traceback" not in result.stderr
    assert '"result"' not in result.stdout


def test_word_file_with_unknown_words(small, tmp_path):
    words = tmp_path / "bad.txt"
    words.write_text("RETAINS\nZZZZ\n")
    result = run("quiz", "--jsonl", "--lexicon", "small", "--file", str(words), input="")
    assert result.exit_code == 1 and f"{words}:2" in result.stderr


def test_plan_from_lists_keeps_step_order(small, monkeypatch):
    monkeypatch.setenv("LEXITRAIN_NOW", "2026-03-01T10:00:00+00:00")
    plan = run("study", "plan", "--list", "threes", "--list", "twos", "--lexicon", "small", "--json")
    assert plan.exit_code == 0, plan.stderr
    threes, twos = probability_order(small, 3), probability_order(small, 2)
    assert plan.json()["cards"] == len(threes) + len(twos)
    run("study", "set", "--new", str(len(threes) + 2))
    out = lines(run("daily", "--jsonl", "--lexicon", "small", input="x\n" * 200).stdout)
    assert [q["id"] for q in of("question", out)] == [f"anagram:{a}" for a in threes + twos[:2]]
    bad = run("study", "plan", "--list", "nosuch", "--lexicon", "small")
    assert bad.exit_code == 1 and "no built-in list 'nosuch'" in bad.stderr


def test_only_answered_questions_become_cards(small):
    from lexitrain.study.store import ProgressStore

    quiz("--list", "threes", answers=["x"])  # one answer, then end of input
    with ProgressStore() as store:
        assert store.conn.execute("SELECT kind, state FROM cards").fetchall() == [("anagram", 1)]


@pytest.mark.parametrize("blanks", [0, 1, 2])
def test_search_quiz_asks_in_the_probability_order_of_its_blanks(blanks: int, enable):
    query = f"--length 7 --probability 1-6 --blanks {blanks}"
    result = run("quiz", "--jsonl", "--no-schedule", "--search", query, input="\n" * 6)
    asked = [q["prompt"] for q in of("question", lines(result.stdout))]
    ranked = [r[0] for r in enable.db.execute(
        f"SELECT alphagram FROM alphagrams WHERE length = 7 AND alphagram_rank{blanks} <= 6 "
        f"ORDER BY alphagram_rank{blanks}, alphagram")]
    assert asked == ranked


def test_a_round_that_answers_nothing_leaves_no_session_and_a_failed_first_answer_none_either(small, monkeypatch):
    """The sessions row is made with the round's first answer, in its transaction (a challenge's attempt,
    kept at its start, still names its session at once)."""
    from lexitrain.study.quiz.session import Item, Session
    from lexitrain.study.quiz.scheduler import Scheduling
    from lexitrain.study.store import ProgressStore

    assert of("summary", quiz("--length", "7"))[0]["questions"] == 0
    assert run("daily", "--jsonl", "--lexicon", "small", input="").exit_code == 0
    with ProgressStore() as store:
        assert store.conn.execute("SELECT count(*) FROM sessions").fetchone()[0] == 0
        session = Session(store, small, "quiz", "test", [Item("anagram", "AEINRST")], Scheduling())
        question = next(session.questions())
        real = store.grade_card

        def failing(*args, **kwargs):
            real(*args, **kwargs)
            raise OSError("the disk went away after the answer was written")
        monkeypatch.setattr(store, "grade_card", failing)
        with pytest.raises(OSError):
            session.answer(question, "RETAINS")
        assert store.conn.execute("SELECT count(*) FROM sessions").fetchone()[0] == 0
        assert store.conn.execute("SELECT count(*) FROM answers").fetchone()[0] == 0
        monkeypatch.setattr(store, "grade_card", real)
        session.answer(question, "RETAINS")
        session.finish(save_missed=False)
        assert store.conn.execute("SELECT count(*) FROM sessions WHERE ended IS NOT NULL").fetchone()[0] == 1
    assert run("challenge", "--jsonl", "--lexicon", "small", input="").exit_code == 0
    with ProgressStore() as store:
        assert store.conn.execute("SELECT count(*) FROM sessions WHERE mode = 'challenge'").fetchone()[0] == 1
