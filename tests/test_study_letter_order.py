"""Letter orders (Zyzzyva's four, consonants first among them) and reordering the letters
during a question: `!shuffle` / `!s` / `,` and `!order [NAME]`, in the terminal and in --jsonl."""

from __future__ import annotations

import pytest

from lexitrain.errors import LexitrainError
from lexitrain.study.quiz.kinds.words import letter_order
from lexitrain.study.drills.requests import QuizRequest, Words
from lexitrain.study.store import ProgressStore
from study_helpers import lines, of, small  # noqa: F401  (small is a fixture)
from tests.cli_runner import run

VOWELS = set("AEIOU")


@pytest.mark.parametrize("order, expected", [
    ("alphabetical", "AEINRST"),
    ("vowels-first", "AEINRST"),
    ("consonants-first", "NRSTAEI"),
])
def test_letter_orders_keep_each_group_alphabetical(small, order, expected):
    assert letter_order(small, "AEINRST", order) == expected
    assert letter_order(small, "ADEILNOT", "consonants-first") == "DLNTAEIO"
    assert letter_order(small, "AEST?", "consonants-first") == "STAE?"  # a blank stays last


def test_a_shuffle_is_a_new_order_and_order_puts_the_letters_back(small):
    with ProgressStore() as store:
        session = QuizRequest(Words(query="--anagram AEINRST"), schedule=False, order="consonants-first").start(store, small)
        question = next(iter(session.questions()))
        assert question.prompt == "NRSTAEI"
        shuffled = session.reorder(question, "random")
        assert shuffled.prompt != question.prompt and sorted(shuffled.prompt) == sorted("AEINRST")
        assert (shuffled.id, shuffled.expected) == (question.id, question.expected)
        assert session.reorder(shuffled, "alphabetical").prompt == "AEINRST"
        with pytest.raises(LexitrainError, match="unknown letter order 'backwards'"):
            session.reorder(question, "backwards")
        outcome = session.answer(shuffled, " ".join(question.expected))
        assert outcome.correct  # the reordered question is the same card, judged the same


def test_a_word_shown_has_nothing_to_reorder(small):
    with ProgressStore() as store:
        session = QuizRequest(Words(query="--length 7"), kind="hooks", limit=1, schedule=False).start(store, small)
        question = next(iter(session.questions()))
        assert session.reorder(question, "random").prompt == question.prompt


def test_terminal_reorders_during_a_question_and_keeps_the_words_found(small):
    typed = "retains\n!s\n,\n!order\n!order consonants-first\n!order backwards\n\n"
    result = run("quiz", "--search", "--anagram AEINRST", "--no-schedule", "--lexicon", "small", input=typed)
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    shown = [line.strip().split()[-1] for line in out.splitlines() if line.startswith("[RETAINS] >    ")]
    assert len(shown) == 4 and shown[2:] == ["AEINRST", "NRSTAEI"]
    assert all(sorted(s) == sorted("AEINRST") for s in shown) and shown[0] != "AEINRST"
    assert "unknown letter order 'backwards'" in out
    assert "found  " in out and "missing 8 of 9" in out  # RETAINS still counts after the reorders


def test_jsonl_reorder_lines_leave_the_question_waiting(small):
    result = run("quiz", "--search", "--anagram AEINRST", "--no-schedule", "--lexicon", "small", "--jsonl",
                 "--order", "consonants-first", input="!shuffle\n!order vowels-first\n!order upside-down\nretains\n")
    out = lines(result.stdout)
    assert of("question", out)[0]["prompt"] == "NRSTAEI"
    reorders = [line for line in out if "reorder" in line]
    assert reorders[0]["reorder"]["order"] == "random" and reorders[0]["reorder"]["prompt"] != "NRSTAEI"
    assert reorders[1] == {"reorder": {"id": "anagram:AEINRST", "prompt": "AEINRST", "order": "vowels-first"}}
    assert reorders[2]["reorder"] is None and "unknown letter order 'upside-down'" in reorders[2]["error"]
    assert of("result", out)[0]["right"] == ["RETAINS"]
