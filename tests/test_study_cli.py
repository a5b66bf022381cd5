"""The study commands a player types: the terminal quiz, plans, settings, quiz over due cards."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from study_helpers import anagram_oracle, lines, of, small  # noqa: F401  (small is a fixture)
from tests.cli_runner import run

NOW = datetime(2026, 3, 1, 10, 0, tzinfo=timezone.utc)
ORACLE = anagram_oracle()


def test_terminal_quiz_checks_each_word_and_keeps_them(small, monkeypatch):
    monkeypatch.setenv("LEXITRAIN_NOW", NOW.isoformat())
    run("study", "plan", "--length", "8", "--lexicon", "small")
    run("study", "set", "--new", "2")
    first = of("question", lines(run("daily", "--jsonl", "--lexicon", "small", input="").stdout))[0]
    words = sorted(ORACLE["".join(sorted(first["prompt"]))])
    assert len(words) >= 2
    typed = f"{words[0].lower()} nonword\n{words[0]}\n\n!quit\n"
    result = run("daily", "--lexicon", "small", input=typed)
    out = result.stdout
    assert result.exit_code == 0, result.stderr
    assert f"{words[0]} yes" in out and "NONWORD no" in out
    assert f"[{words[0]}] >" in out  # found words stay on screen
    missing = len(words) - 1
    assert f"missed: missing {missing} of {len(words)}: {' '.join(words[1:])}; not words in small: NONWORD" in out
    listed = [line.split() for line in out.splitlines() if line.startswith("    ")]  # each answer, marked
    assert [(line[0], line[-1].strip("·")) for line in listed] == [
        ("found" if w == words[0] else "missed", w) for w in words]  # the found word is never listed as missed
    assert "0/1 right" in out and "missed words saved to" in out


def test_terminal_override_marks_previous_question(small, monkeypatch):
    monkeypatch.setenv("LEXITRAIN_NOW", NOW.isoformat())
    run("study", "plan", "--length", "8", "--lexicon", "small")
    first = of("question", lines(run("daily", "--jsonl", "--lexicon", "small", input="").stdout))[0]
    typed = " ".join(sorted(ORACLE["".join(sorted(first["prompt"]))])[1:])  # one word short
    result = run("daily", "--lexicon", "small", input=f"{typed}\n\n!c\n!quit\n")
    assert "previous question marked correct" in result.stdout and "1/1 right" in result.stdout


def test_terminal_last_question_can_be_marked_before_the_round_ends(small):
    missed = run("quiz", "--list", "twos", "--limit", "1", "--no-schedule", "--lexicon", "small", input="ZZ\n\n!c\n\n")
    assert missed.exit_code == 0, missed.stderr
    assert "end of the round: !c / !m marks the last answer" in missed.stdout
    assert "last question marked correct" in missed.stdout and "1/1 right" in missed.stdout
    finished = run("quiz", "--list", "twos", "--limit", "1", "--no-schedule", "--lexicon", "small", input="ZZ\n\n")
    assert "0/1 right" in finished.stdout  # Enter (or end of input) at that prompt leaves the verdict


def test_terminal_override_before_any_answer_says_so(small):
    result = run("quiz", "--list", "twos", "--limit", "1", "--lexicon", "small", input="!c\n\n")
    assert result.exit_code == 0, result.stderr
    assert "no previous question to mark yet" in result.stdout and "0/1 right" in result.stdout


def test_plan_settings_and_show(small):
    plan = run("study", "plan", "--length", "7", "--length", "2", "--top", "3", "--name", "mine",
               "--lexicon", "small", "--json")
    assert plan.exit_code == 0, plan.stderr
    assert plan.json()["cards"] == 2 + 3 and plan.json()["name"] == "mine"
    set_ = run("study", "set", "--new", "7", "--reviews", "30", "--retention", "0.85", "--mode", "leitner", "--json")
    assert set_.json() == {"new_per_day": 7, "reviews_per_day": 30, "mode": "leitner", "retention": 0.85,
                           "lexicon": "enable", "leech": 8, "wait_after_last": False, "daily_order": "due",
                           "fsrs_parameters": "default"}
    shown = run("study", "show", "--lexicon", "small", "--json").json()
    assert (shown["new_per_day"], shown["reviews_per_day"], shown["retention"], shown["mode"]) == (7, 30, 0.85, "leitner")
    assert shown["plan"]["name"] == "mine" and shown["plan"]["new"] == 5
    first = of("question", lines(run("daily", "--jsonl", "--lexicon", "small", input="").stdout))[0]
    assert len(first["prompt"]) == 7  # the plan's first step comes first
    assert run("study", "plan", "--default", "--lexicon", "small", "--json").json()["name"] == "default"
    all_twos = run("study", "plan", "--length", "2", "--lexicon", "small", "--json").json()["cards"]
    every = run("study", "plan", "--length", "2", "--top", "99999999999999999999", "--lexicon", "small", "--json")
    assert every.exit_code == 0 and every.json()["cards"] == all_twos  # more than there are: all of them, no crash
    said = run("study", "set", "--new", "2", "--reviews", "1").stdout  # it said "2 new and 1 reviews a day"
    assert said.startswith("2 new cards and 1 review a day; leitner scheduling")


def test_bad_settings_are_clear_errors(small):
    for args, message in [
        (["study", "set", "--retention", "2"], "retention"),
        (["study", "set", "--mode", "anki"], "unknown scheduling mode"),
        (["study", "set", "--new", "-1"], "--new -1: a daily limit is 0 to 100,000"),
        (["study", "plan", "--lexicon", "small"], "give the plan's steps"),
        (["study", "plan", "--list", "twos", "--name", " ", "--lexicon", "small"], "plan name ' ': give the plan a name"),
        (["study", "plan", "--length", "7", "--top", "-5", "--lexicon", "small"], "--top -5: expected 1 or more"),
        (["study", "plan", "--length", "7", "--top", "0", "--lexicon", "small"], "--top 0: expected 1 or more"),
        (["study", "plan", "--length", "7", "--kind", "hooks", "--lexicon", "small"], "anagram or build"),
        (["quiz", "--due", "--lexicon", "small", "--jsonl"], "no cards are due"),
        (["quiz", "--list", "twos", "--kind", "sudoku", "--lexicon", "small"], "unknown question kind"),
        (["quiz", "--due", "--kind", "hooks", "--lexicon", "small"], "--kind does not apply to --due"),
        (["quiz", "--list", "twos", "--min", "3", "--lexicon", "small"], "--min is only for build questions"),
        (["study", "plan", "--length", "7", "--min", "5", "--lexicon", "small"], "--min is only for build questions"),
        (["study", "plan", "--length", "7", "--kind", "build", "--min", "1", "--lexicon", "small"], "--min 1"),
    ]:
        result = run(*args, input="")
        assert result.exit_code == 1, args
        assert message in result.stderr and "Traceback" not in result.stderr, (args, result.stderr)


def test_a_build_plan_asks_for_words_of_its_minimum_length(small):
    plan = run("study", "plan", "--length", "7", "--top", "2", "--kind", "build", "--min", "6",
               "--lexicon", "small", "--json").json()
    assert plan["steps"] == [{"kind": "build", "length": 7, "top": 2, "minimum": 6}]
    first = of("question", lines(run("daily", "--jsonl", "--lexicon", "small", input="").stdout))[0]
    assert first["kind"] == "build" and first["minimum"] == 6 and first["prompt"].endswith("(6+)")


@pytest.mark.slow  # `study show` opens the default lexicon: ENABLE is compiled
def test_a_refused_setting_is_not_saved(small):
    """`--retention 0` and `--mode ''` are refused and leave the settings as they were."""
    for args in (["--retention", "0"], ["--mode", ""]):
        assert run("study", "set", *args).exit_code == 1
    shown = run("study", "show", "--json")
    assert shown.exit_code == 0, shown.stderr
    assert (shown.json()["retention"], shown.json()["mode"]) == (0.9, "fsrs")


def test_quiz_due_cards_reschedules_them(small, monkeypatch):
    monkeypatch.setenv("LEXITRAIN_NOW", NOW.isoformat())
    run("study", "plan", "--length", "3", "--top", "2", "--lexicon", "small")
    run("daily", "--jsonl", "--lexicon", "small", input="x\nx\n")
    monkeypatch.setenv("LEXITRAIN_NOW", (NOW + timedelta(hours=1)).isoformat())
    out = lines(run("quiz", "--due", "--lexicon", "small", "--jsonl", "--order", "random", input="x\n").stdout)
    assert len(of("question", out)) == 2 and of("result", out)[0]["card"]["streak"] == -2
    summary = of("summary", out)[0]
    assert summary["questions"] == 1 and summary["wrong"] == 1


def test_jsonl_answer_after_a_byte_order_mark_counts(small, tmp_path):
    """A program on Windows may start its pipe with a BOM; the first answer is still judged."""
    words = tmp_path / "one.txt"
    words.write_text("JO\n", encoding="utf-8")
    out = lines(run("quiz", "--file", str(words), "--lexicon", "small", "--jsonl", "--no-schedule",
                    input="\ufeffJO\n").stdout)
    assert of("result", out)[0]["right"] == ["JO"]


def test_terminal_checks_hook_notation_and_commas_as_the_verdict_does(make_lexicon, tmp_path):
    make_lexicon(["CARE", "SCARE", "CARED", "CARES", "ACRE"], name="hooky")
    words = tmp_path / "w.txt"
    words.write_text("CARE\n")
    result = run("quiz", "--kind", "hooks", "--file", str(words), "--lexicon", "hooky", "--no-schedule",
                 input="s- scare\ncared,cares\n")
    out = result.stdout
    assert result.exit_code == 0, result.stderr
    assert "S- = SCARE yes" in out and "SCARE no" not in out  # S- is SCARE, typing it again is no slip
    assert "CARED yes" in out and "CARES yes" in out and "CARED,CARES" not in out
    assert "right: SCARE CARED CARES" in out and "1/1 right" in out


def test_ctrl_c_ends_a_terminal_round_with_its_summary(small, monkeypatch):
    typed = iter(["AB BA", ""])

    def keyboard(prompt: str = "") -> str:
        try:
            return next(typed)
        except StopIteration:
            raise KeyboardInterrupt from None

    monkeypatch.setattr("builtins.input", keyboard)
    result = run("challenge", "--lexicon", "small", "--kind", "twos-to-fifteens", "--no-timer")
    assert result.exit_code == 0, result.stderr
    assert "right in 0:" in result.stdout and "personal best:" in result.stdout
    attempts = run("challenge", "--history", "--json", "--lexicon", "small").json()["attempts"]
    assert len(attempts) == 1 and not attempts[0]["completed"]


def test_a_rounds_time_reads_the_same_in_its_summary_and_the_history():
    from lexitrain.cli.answer_input import duration_text

    # the summary said 0:11 for an attempt that --history lists as 12 s
    assert [duration_text(s) for s in (11.6, 59.5, 61.2)] == ["0:12", "1:00", "1:01"]
    assert [f"{s:.0f}" for s in (11.6, 61.2)] == ["12", "61"]
