"""Search conditions typed straight on `quiz` and `study plan` (issue 14), and `quiz --file --skip-invalid`."""

from __future__ import annotations

import pytest

from lexitrain.search.saved import save_search
from study_helpers import WORDS, lines, of, small  # noqa: F401  (small is a fixture)
from tests.cli_runner import run


def asked(*args: str, answers: str = "\n" * 60) -> list[dict]:
    result = run("quiz", "--jsonl", "--no-schedule", "--lexicon", "small", *args, input=answers)
    assert result.exit_code == 0, result.stderr
    return of("question", lines(result.stdout))


def test_conditions_on_quiz_are_the_search_they_spell(small):
    typed = asked("--length", "8", "--not-includes", "G")
    assert [q["id"] for q in typed] == [q["id"] for q in asked("--search", "--length 8 --not-includes G")]
    assert {q["prompt"] for q in typed} == {"".join(sorted(w)) for w in WORDS if len(w) == 8 and "G" not in w}
    anagram_first = asked("--anagram", "AEINRST?")  # the first condition is no SUBJECT for click to take
    assert {q["id"] for q in anagram_first} == {"anagram:AEILNRST", "anagram:AEGINRST"}


def test_conditions_narrow_a_list_or_a_saved_search(small):
    twos_with_x = {q["id"] for q in asked("--list", "twos", "--includes", "X")}
    assert twos_with_x == {"anagram:AX", "anagram:EX", "anagram:OX", "anagram:IX", "anagram:UX"}
    save_search("eights", "--length 8")
    assert {q["id"] for q in asked("--saved", "eights", "--includes", "G")} == {"anagram:AEGINRST"}


def test_quiz_order_and_limit_are_the_quiz_own(small):
    """--order is the letter order and --limit the questions asked, not the search's order and limit."""
    out = asked("--length", "7-8", "--limit", "2", "--order", "consonants-first")
    assert len(out) == 2
    assert all(q["prompt"][-1] in "AEIOU" and q["prompt"][0] not in "AEIOU" for q in out)
    searched = asked("--search", "--length 7-8 --limit 1 --order alphagram", "--as-listed")
    assert [q["prompt"] for q in searched] == ["ADEILNOT"]  # a search's own order and limit, inside --search


def test_quiz_title_names_the_list_and_the_conditions_in_words(small):
    result = run("quiz", "--list", "twos", "--includes", "X", "--no-schedule", "--lexicon", "small", input="")
    assert result.stdout.splitlines()[0] == "Two-letter words (with X) · 5 questions · small"
    searched = run("quiz", "--search", "--length 7-8 --order probability", "--no-schedule", "--lexicon", "small",
                   input="")
    assert searched.stdout.splitlines()[0].startswith("words of 7 to 8 letters · ")


@pytest.mark.parametrize("args, message", [
    (["--lenth", "8"], "unknown search condition '--lenth'"),
    (["--length", "9"], "the search '--length 9' gives no words in small"),
    (["--due", "--length", "8"], "--due takes no other question source"),
    (["--file", "words.txt", "--length", "8"], "give exactly one word source"),
    (["--list", "twos", "--skip-invalid"], "--skip-invalid goes with --file FILE"),
    (["twos"], "unexpected 'twos' (the only quiz subject is `position`"),
])
def test_bad_conditions_are_one_line_errors(small, args, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "words.txt").write_text("RETAINS\n")
    result = run("quiz", "--jsonl", "--lexicon", "small", *args, input="")
    assert result.exit_code == 1 and message in result.stderr and "Traceback" not in result.stderr


def test_quiz_file_skip_invalid_counts_and_lists_what_it_left_out(small, tmp_path):
    words = tmp_path / "mine.txt"
    words.write_text("RETAINS\nZZZZ\nDELATION\nQQQ\n")
    refused = run("quiz", "--jsonl", "--lexicon", "small", "--file", str(words), input="")
    assert refused.exit_code == 1 and f"{words}:2: 'ZZZZ' is not in small" in refused.stderr
    assert refused.stderr.rstrip().endswith("(--skip-invalid leaves them out and uses the rest)")  # the way on
    result = run("quiz", "--jsonl", "--no-schedule", "--lexicon", "small", "--file", str(words), "--skip-invalid",
                 input="\n\n")
    assert result.exit_code == 0, result.stderr
    assert [q["id"] for q in of("question", lines(result.stdout))] == ["anagram:AEINRST", "anagram:ADEILNOT"]
    assert result.stderr.splitlines() == [f"warning: {words}:2: 'ZZZZ' is not in small",
                                          f"warning: {words}:4: 'QQQ' is not in small",
                                          "warning: skipped 2 words not in the lexicon"]


def test_plan_from_conditions_is_one_search_step(small, monkeypatch):
    monkeypatch.setenv("LEXITRAIN_NOW", "2026-03-01T10:00:00+00:00")
    plan = run("study", "plan", "--list", "twos", "--length", "8", "--includes", "G", "--lexicon", "small", "--json")
    assert plan.exit_code == 0, plan.stderr
    assert plan.json()["steps"] == [{"kind": "anagram", "builtin": "twos"},
                                    {"kind": "anagram", "query": "--length 8 --includes G"}]
    ranged = run("study", "plan", "--length", "7-8", "--not-includes", "G", "--lexicon", "small", "--json").json()
    assert ranged["steps"] == [{"kind": "anagram", "query": "--length 7-8 --not-includes G"}]
    run("study", "plan", "--length", "8", "--includes", "G", "--lexicon", "small")
    out = lines(run("daily", "--jsonl", "--lexicon", "small", input="\n" * 5).stdout)
    assert [q["id"] for q in of("question", out)] == ["anagram:AEGINRST"]
    top = run("study", "plan", "--length", "8", "--top", "2", "--lexicon", "small", "--json")
    assert top.json()["steps"] == [{"kind": "anagram", "length": 8, "top": 2}]  # no conditions: a length step


@pytest.mark.parametrize("args, message", [
    (["--length", "8", "--top", "2", "--includes", "G"], "--top goes with --length steps, not with search conditions"),
    (["--length", "7", "--length", "8", "--includes", "G"], "with search conditions give one --length"),
    (["--includes", "G", "--lenght", "8"], "unknown search condition '--lenght'"),
])
def test_bad_plan_conditions_are_one_line_errors(small, args, message):
    result = run("study", "plan", *args, "--lexicon", "small")
    assert result.exit_code == 1 and message in result.stderr and "Traceback" not in result.stderr
