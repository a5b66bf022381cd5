"""Undo (`!undo`): the last scored question taken back exactly -- card, answer row, the day's
counts -- and asked again, in every face through the one round driver (study/quiz/round.py)."""

from __future__ import annotations

import pytest

from lexitrain.errors import LexitrainError
from lexitrain.study.drills import open_rounds
from lexitrain.study.drills.requests import DailyRequest, QuizRequest, Words
from lexitrain.study.quiz.round import Round, command
from lexitrain.study.quiz.session import KEPT_OUTCOMES
from lexitrain.study.store import ProgressStore
from study_helpers import anagram_oracle, lines, of, right_answer, small  # noqa: F401  (small is a fixture)
from tests.cli_runner import run

ORACLE = anagram_oracle()


def _answers(store: ProgressStore) -> int:
    return store.conn.execute("SELECT count(*) FROM answers").fetchone()[0]


def test_undo_takes_a_daily_answer_back_exactly(small):
    run("study", "plan", "--length", "8", "--lexicon", "small")
    with ProgressStore() as store:
        before_day = DailyRequest().status(store, small)
        rnd = Round(DailyRequest().start(store, small))
        question = rnd.current()
        card_id = store.find_card(small.name, question.kind, question.key).id
        card_before = store.card(card_id)
        outcome = rnd.answer(right_answer(question.to_json(), ORACLE))
        assert outcome.correct and store.card(card_id) != card_before
        assert DailyRequest().status(store, small).new_done == before_day.new_done + 1

        taken = rnd.undo()

        assert taken is outcome
        assert store.card(card_id) == card_before  # every field as it was
        assert _answers(store) == 0
        assert DailyRequest().status(store, small).new_done == before_day.new_done
        assert rnd.question is not None and rnd.question.key == question.key and rnd.number == 1
        assert rnd.session.summary.questions == 0 and rnd.last is None
        assert rnd.undo() is None  # nothing more to take back
        again = rnd.answer("")  # asked again, it is scored as any question
        assert not again.correct and rnd.finish().questions == 1


def test_undo_after_an_override_and_the_question_that_waited(small):
    with ProgressStore() as store:
        rnd = Round(QuizRequest(Words(builtin="twos"), limit=2).start(store, small))
        first = rnd.current()
        missed = rnd.answer("ZZ")
        second = rnd.current()
        rnd.override(True)
        assert store.find_card(small.name, first.kind, first.key) is not None
        rnd.undo()
        # the quiz question became a card when answered: taken back, the card is gone again
        assert store.find_card(small.name, first.kind, first.key) is None and _answers(store) == 0
        assert rnd.current().key == first.key and rnd.number == 1
        rnd.answer(first.key)
        assert rnd.current() is second and rnd.number == 2  # the question on show at the undo comes next
        assert [o.correct for o in rnd.session.outcomes] == [True] and not missed.correct


def test_undo_is_refused_when_the_card_moved_since(small):
    """Another drill answered the same card after this one: undoing would lose that answer, so it is refused."""
    run("study", "plan", "--length", "8", "--lexicon", "small")
    with ProgressStore() as store, ProgressStore() as other:
        rnd = Round(DailyRequest().start(store, small))
        question = rnd.current()
        rnd.answer("")
        card = store.find_card(small.name, question.kind, question.key)
        elsewhere = Round(QuizRequest(Words(query=f"--anagram {question.key}"), kind=question.kind).start(other, small))
        elsewhere.answer(right_answer(question.to_json(), ORACLE))
        moved = store.card(card.id)
        with pytest.raises(LexitrainError, match="answered again since"):
            rnd.undo()
        assert store.card(card.id) == moved and _answers(store) == 2  # nothing was undone


def test_commands_a_line_gives():
    assert command("!UNDO").name == "undo" and command(" !quit ").name == "stop"
    assert command("!m") == command("!missed") and command("!c").correct
    assert command(",").order == "random" and command("!order vowels-first").order == "vowels-first"
    assert command("retains") is None and command("") is None


def _first_prompt(*args: str) -> str:
    return of("question", lines(run("quiz", "--jsonl", "--no-schedule", *args, input="").stdout))[0]["prompt"]


def _right_answer(prompt: str) -> str:
    """Every word of the prompt's letters, as a player would type them."""
    return " ".join(sorted(ORACLE["".join(sorted(prompt))]))


def test_jsonl_undo_line_asks_the_question_again(small):
    args = ("--list", "twos", "--limit", "2", "--lexicon", "small")
    answer = _right_answer(_first_prompt(*args))
    result = run("quiz", "--jsonl", *args, input=f"!undo\nZZ\n!undo\n{answer}\n!quit\n")
    assert result.exit_code == 0, result.stderr
    out = lines(result.stdout)
    kinds = [next(iter(line)) for line in out]
    assert kinds == ["question", "undo", "result", "question", "undo", "question", "result", "question", "summary"]
    first, second = out[0]["question"], out[3]["question"]
    assert out[1] == {"undo": None}  # nothing answered yet
    assert out[2]["result"]["correct"] is False and second["number"] == 2
    assert out[4] == {"undo": {"id": first["id"], "number": 1}}
    assert out[5]["question"]["id"] == first["id"] and out[5]["question"]["number"] == 1
    assert out[6]["result"]["correct"] is True
    assert out[7]["question"]["id"] == second["id"] and out[7]["question"]["number"] == 2  # it waited
    assert out[8]["summary"]["questions"] == 1 and out[8]["summary"]["correct"] == 1


def test_jsonl_refused_play_waits(small):
    """A refused answer gives one `refused` line and the same question waits for another."""
    result = run("quiz", "--jsonl", "--list", "twos", "--limit", "1", "--kind", "valid-or-phony", "--lexicon",
                 "small", input="maybe\n!quit\n")
    out = lines(result.stdout)
    question = of("question", out)[0]
    assert of("refused", out) == [{"id": question["id"], "given": "maybe", "reason": of("refused", out)[0]["reason"]}]
    assert of("refused", out)[0]["reason"] and not of("result", out)
    assert out[-1]["summary"]["questions"] == 0


def test_terminal_undo_takes_back_and_asks_again(small):
    args = ("--list", "twos", "--limit", "1", "--lexicon", "small")
    prompt = _first_prompt(*args)
    answer = _right_answer(prompt)
    result = run("quiz", *args, input=f"ZZ\n\n!undo\n{answer}\n\n")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert f"took back your answer to {prompt}: it is asked again" in out
    assert out.count(f"1. {prompt}") == 2 and "1/1 right" in out


def test_flashcard_undo_shows_the_card_again(small):
    result = run("quiz", "--jsonl", "--flashcard", "--list", "twos", "--limit", "2", "--lexicon", "small",
                 input="\n1\n!undo\n\n4\n!quit\n")
    out = lines(result.stdout)
    questions = of("question", out)
    assert [q["number"] for q in questions] == [1, 2, 1, 2]
    assert of("undo", out) == [{"id": questions[0]["id"], "number": 1}]
    assert [r["rating"] for r in of("result", out)] == ["again", "easy"]  # the first taken back
    assert out[-1]["summary"]["questions"] == 1


def test_a_long_round_keeps_its_state_small_takes_back_its_latest_answers_and_still_lists_every_miss(small):
    """An open round's state is loaded and saved by every request, so it must not grow with every answer: the
    session keeps its latest KEPT_OUTCOMES answers whole (what undo, one after another, reaches) and of the
    earlier ones only the missed questions. After 36 answers the saved state is no bigger than after 12;
    the latest answers are taken back one by one, then the undo says why it takes no more; the finished
    round's summary still names every question missed, the first ones included."""
    clock = lambda: 1000.0  # noqa: E731

    def lexicons(name: str | None) -> object:
        return small

    with ProgressStore() as store:
        ident = open_rounds.open_drill(store, small, QuizRequest(Words(builtin="twos"), limit=36), clock).ident
        sizes, missed = [], []
        for n in range(36):
            with open_rounds.opened(store, lexicons, ident, Round, "round", clock) as opened:
                question = opened.thing.current()
                if n % 4 == 0:
                    missed.append(question.id)
                    opened.thing.answer("ZZ")
                else:
                    opened.thing.answer(right_answer(question.to_json(), ORACLE))
            saved = store.saved_round(ident)
            assert saved is not None
            sizes.append(len(saved.state))
        assert max(sizes[12:]) < sizes[11] * 1.25, sizes
        with open_rounds.opened(store, lexicons, ident, Round, "round", clock) as opened:
            taken = [opened.thing.undo() for _ in range(KEPT_OUTCOMES)]
            assert all(outcome is not None for outcome in taken)
        assert _answers(store) == 36 - KEPT_OUTCOMES
        with open_rounds.opened(store, lexicons, ident, Round, "round", clock) as opened:
            assert opened.thing.undo() is None
            assert opened.thing.nothing_to_undo() == \
                f"nothing more to take back: a round takes back its last {KEPT_OUTCOMES} answers"
            summary = opened.thing.finish()
        assert summary.questions == 36 - KEPT_OUTCOMES
        assert summary.missed == [q for q in missed if q in summary.missed] and missed[0] in summary.missed
        assert len(summary.missed) == len([q for n, q in enumerate(missed) if 4 * n < 36 - KEPT_OUTCOMES])
        assert summary.missed_list is not None


def test_a_mistyped_command_is_said_and_the_question_waits(small):
    """`!qiut` is no word: it was judged one, so the question was missed; now it is named and the answer awaited."""
    args = ("--list", "twos", "--limit", "1", "--lexicon", "small")
    prompt = _first_prompt(*args)
    answer = _right_answer(prompt)
    result = run("quiz", *args, input=f"!qiut\n{answer}\n\n")
    assert result.exit_code == 0, result.stderr
    assert "  !qiut is no command: !quit, !c / !m, !undo, !s (or ,), !order" in result.stdout
    assert "!QIUT" not in result.stdout and "1/1 right" in result.stdout
