"""`quiz` rounds resume like `daily`; `quiz --whole`: every word of a list typed as one question."""

from __future__ import annotations

import re

from study_helpers import WORDS, lines, of, small  # noqa: F401  (small is a fixture)
from tests.cli_runner import run

TWOS = [w for w in WORDS if len(w) == 2]


def quiz(*args: str, answers: list[str]) -> list[dict]:
    result = run("quiz", "--jsonl", "--lexicon", "small", *args, input="".join(a + "\n" for a in answers))
    assert result.exit_code == 0, result.stderr
    return lines(result.stdout)


def test_a_stopped_round_resumes_where_it_stopped(small):
    everything = [q["id"] for q in of("question", quiz("--list", "twos", "--no-schedule", answers=[""] * 200))]
    first = quiz("--list", "twos", answers=["", ""])  # stopped after two answers (end of input)
    assert [q["id"] for q in of("question", first)][:2] == everything[:2]
    assert "resumed" not in of("summary", first)[0]
    again = quiz("--list", "twos", answers=["", "", ""])
    assert [q["id"] for q in of("question", again)] == everything[2:6]  # carries on, nothing asked twice
    assert of("summary", again)[0]["resumed"] == {"answered_before": 2, "round_questions": len(everything)}
    rest = quiz("--list", "twos", answers=[""] * 200)
    assert [q["id"] for q in of("question", rest)] == everything[5:]
    fresh = quiz("--list", "twos", answers=[""])  # the round was finished: a new one starts
    assert of("question", fresh)[0]["id"] == everything[0] and "resumed" not in of("summary", fresh)[0]


def test_a_resumed_round_numbers_its_questions_on_from_where_it_stopped(small):
    """A resumed quiz numbered its questions from 1 again: the third question of the round is 3."""
    assert quiz("--list", "twos", answers=["", ""])  # two answered, then stopped
    shown = run("quiz", "--list", "twos", "--lexicon", "small", input="\n").stdout
    assert "resumed: 2 answered" in shown
    numbers = re.findall(r"^(\d+)\. ", shown, re.MULTILINE)
    assert numbers and numbers[0] == "3", shown


def test_a_round_that_reached_its_end_is_not_resumed(small):
    """Every question answered (here a round of two), or the round's time up: the round is over,
    and the next quiz on that source, even a longer one, starts a new round."""
    everything = [q["id"] for q in of("question", quiz("--list", "twos", "--no-schedule", answers=[""] * 200))]
    short = quiz("--list", "twos", "--limit", "2", answers=["", ""])
    assert of("summary", short)[0]["questions"] == 2
    longer = quiz("--list", "twos", "--limit", "3", answers=["", "", ""])
    assert of("question", longer)[0]["id"] == everything[0] and "resumed" not in of("summary", longer)[0]
    stopped = quiz("--list", "twos", answers=[""])  # a round stopped after one answer ...
    timed = timed_out_round("--list", "twos", "--round-time", "0.5")  # ... carried on until its time ran out
    assert timed["summary"]["timed_out"] and timed["summary"]["resumed"]["answered_before"] == 1
    assert of("question", stopped)[0]["id"] == everything[0]
    after = quiz("--list", "twos", answers=[""])
    assert of("question", after)[0]["id"] == everything[0] and "resumed" not in of("summary", after)[0]


def timed_out_round(*args: str) -> dict:
    """A quiz left unanswered until its round time runs out (stdin kept open), in its own process."""
    import json
    import os
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-m", "lexitrain", "quiz", "--jsonl", "--lexicon", "small", *args],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=os.environ.copy())
    assert proc.stdin is not None and proc.stdout is not None
    last: dict = {}
    for line in proc.stdout:
        last = json.loads(line)
        if "summary" in last:
            break
    proc.stdin.close()
    proc.wait(timeout=60)
    return last


def test_restart_and_another_kind_start_afresh(small):
    first = of("question", quiz("--list", "twos", answers=["", ""]))[0]["id"]
    restarted = quiz("--list", "twos", "--restart", answers=[""])
    assert of("question", restarted)[0]["id"] == first and "resumed" not in of("summary", restarted)[0]
    terminal = run("quiz", "--list", "twos", "--lexicon", "small", input="!quit\n")
    assert "resumed: 1 answered" in terminal.stdout.splitlines()[0]
    assert terminal.stdout.splitlines()[0].endswith("(--restart starts afresh)")  # the terminal says how
    recall = quiz("--list", "twos", "--kind", "recall", answers=[""])  # same list, other questions
    assert of("question", recall)[0]["id"] == "recall:2:A" and "resumed" not in of("summary", recall)[0]


def test_whole_list_recall_shows_the_words_missed(small):
    typed = "aa ab ad zz " + " ".join(TWOS[4:])  # every two but AE, and a word that is not one
    out = quiz("--list", "twos", "--whole", answers=[typed])
    [question], [result] = of("question", out), of("result", out)
    assert question["id"] == "whole-list:list:twos" and question["answers"] == len(TWOS)
    assert result["missing"] == ["AE"] and result["wrong"] == ["ZZ"] and not result["correct"]
    assert result["expected"] == sorted(TWOS)
    right = of("result", quiz("--list", "twos", "--whole", "--restart", answers=[" ".join(TWOS)]))[0]
    assert right["correct"] and right["missing"] == []
    threes = of("question", quiz("--search", "--length 3 --pattern A*", "--whole", answers=[""]))[0]
    assert threes["answers"] == len([w for w in WORDS if len(w) == 3 and w.startswith("A")])
    terminal = run("quiz", "--list", "twos", "--whole", "--restart", "--lexicon", "small", input="AA AB\nAD\n\n")
    assert re.search(r"missing \d+ of \d+: AE AG", terminal.stdout)  # the words not recalled, named


def test_whole_list_refuses_a_kind(small):
    result = run("quiz", "--list", "twos", "--whole", "--kind", "hooks", "--lexicon", "small", "--jsonl", input="")
    assert result.exit_code == 1 and "--whole asks for every word of one list" in result.stderr
    result = run("quiz", "--list", "twos", "--kind", "whole-list", "--lexicon", "small", "--jsonl", input="")
    assert result.exit_code == 1 and "quiz --list NAME --whole" in result.stderr
