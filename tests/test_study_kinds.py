"""Question kinds are plug-ins: a toy kind written in this one module, registered, and quizzed end to end.

The toy `reversed` kind shows a word spelled backwards and asks for the word.
Nothing outside this module knows it: the quiz, the session, the missed list,
a plan, the daily drill and the due sheet all work on it through the kind's
own answers.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from lexitrain.errors import LexitrainError
from lexitrain.study.quiz.kinds.base import Question, kind_names, new_kind, register_kind
from lexitrain.study.quiz.kinds.words import WordKind
from study_helpers import lines, of, small  # noqa: F401  (small is a fixture)
from tests.cli_runner import run


class ReversedKind(WordKind):
    name = "reversed"
    description = "a word spelled backwards shown: type the word"

    def keys_from_rows(self, rows: Sequence, minimum: int = 2) -> list[str] | None:
        return [row["word"] for row in rows]

    def build(self, lex, key: str, order: str = "alphabetical") -> Question:
        word = key.upper()
        if word not in lex:
            raise LexitrainError(f"{key} is not a word in {lex.name}")
        return Question(self.name, word, word[::-1], (word,), {"length": len(word)})


register_kind(ReversedKind)


def quiz(*args: str, answers: Sequence[str] = ()) -> list[dict]:
    result = run("quiz", "--jsonl", "--lexicon", "small", *args, input="".join(a + "\n" for a in answers))
    assert result.exit_code == 0, result.stderr
    return lines(result.stdout)


def test_a_registered_kind_is_quizzed_end_to_end(small):
    out = quiz("--search", "--length 3 --pattern T??", "--as-listed", "--kind", "reversed", answers=["ten", "tar", ""])
    questions = of("question", out)
    assert [(q["id"], q["prompt"], q["answers"]) for q in questions] == [  # the fourth waits when input ends
        ("reversed:TAN", "NAT", 1), ("reversed:TAR", "RAT", 1), ("reversed:TEA", "AET", 1), ("reversed:TEN", "NET", 1)]
    results = of("result", out)
    assert [(r["id"], r["correct"], r["wrong"]) for r in results] == [
        ("reversed:TAN", False, ["TEN"]), ("reversed:TAR", True, []), ("reversed:TEA", False, [])]
    assert results[1]["card"]["state"] == "learning"  # scheduled like any card
    summary = of("summary", out)[0]
    assert (summary["questions"], summary["correct"], summary["missed"]) == (3, 1, ["reversed:TAN", "reversed:TEA"])
    assert Path(summary["missed_list"]).read_text() == "TAN\nTEA\n"  # the kind's words ask it again
    again = quiz("--file", summary["missed_list"], "--kind", "reversed", "--as-listed", answers=["tan", "tea"])
    assert [r["correct"] for r in of("result", again)] == [True, True]


def test_a_registered_kind_joins_a_plan_the_daily_drill_and_the_due_sheet(small, tmp_path, monkeypatch):
    monkeypatch.setenv("LEXITRAIN_NOW", "2026-03-01T10:00:00+00:00")
    plan = run("study", "plan", "--search", "--length 2 --pattern X?", "--kind", "reversed", "--lexicon", "small",
               "--json")
    assert plan.exit_code == 0, plan.stderr
    assert plan.json()["cards"] == 2
    drill = lines(run("daily", "--jsonl", "--lexicon", "small", input="xi\nnope\n").stdout)
    assert [q["prompt"] for q in of("question", drill)] == ["IX", "UX"]
    assert [r["correct"] for r in of("result", drill)] == [True, False]
    sheet = tmp_path / "due.md"
    made = run("sheet", "due", "--out", str(sheet), "--lexicon", "small")
    assert made.exit_code == 0, made.stderr
    assert "reversed: UX" in sheet.read_text()


def test_a_kind_not_made_from_words_says_so(small):
    result = run("quiz", "--jsonl", "--lexicon", "small", "--list", "twos", "--kind", "position")
    assert result.exit_code == 1 and "question kind 'position' cannot be made from a word list" in result.stderr
    plan = run("study", "plan", "--length", "2", "--kind", "hooks", "--lexicon", "small")
    assert plan.exit_code == 1 and "a plan step by length makes anagram or build questions, not hooks" in plan.stderr


def test_the_registry_names_every_kind_and_makes_fresh_instances():
    assert {"anagram", "anagram-hooks", "hooks", "recall", "build", "position", "reversed"} <= set(kind_names())
    assert new_kind("position") is not new_kind("position")  # a session's caches are its own
    with pytest.raises(LexitrainError, match="unknown question kind 'sudoku' .known: anagram, anagram-hooks"):
        new_kind("sudoku")
