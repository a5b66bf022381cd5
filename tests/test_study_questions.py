"""Question kinds, answer checking, letter orders and session overrides/timers."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from lexitrain.errors import LexitrainError
from lexitrain.study.quiz.kinds.base import new_kind
from lexitrain.study.quiz.kinds.words import answer_words, check_words, letter_order
from lexitrain.study.quiz.sources import question_keys
from lexitrain.study.quiz.scheduler import Scheduling
from lexitrain.study.quiz.session import Item, Session, Timers
from lexitrain.study.store import ProgressStore
from study_helpers import small  # noqa: F401  (fixture)


def ask(lex, kind, key, answer):
    question_kind = new_kind(kind)
    question = question_kind.build(lex, key)
    return question, question_kind.check(question, answer)


@pytest.mark.parametrize("answer", [
    "ENTRAILS LATRINES RATLINES TRENAILS",
    "  entrails   latrines ratlines trenails  ",
    "Trenails,Ratlines, latrines;entrails",
    "ENTRAILS LATRINES LATRINES RATLINES TRENAILS entrails",
])
def test_spaces_case_and_duplicates_are_accepted(small, answer):
    _, check = ask(small, "anagram", "AEILNRST", answer)
    assert check.correct and not check.wrong and not check.missing


def test_wrong_and_missing_words_are_named(small):
    _, check = ask(small, "anagram", "AEILNRST", "entrails salient latrines entrails")
    assert not check.correct
    assert check.right == ("ENTRAILS", "LATRINES") and check.wrong == ("SALIENT",)
    assert check.missing == ("RATLINES", "TRENAILS") and check.duplicates == ("ENTRAILS",)


def test_every_kind(small):
    question, check = ask(small, "anagram-hooks", "ENT", "net ten nte")
    assert set(question.expected) == {"NET", "TEN"} and check.wrong == ("NTE",)
    question, check = ask(small, "hooks", "AB", "a- -a -s")
    assert set(question.expected) == {"ABA", "ABS"} and check.wrong == ("AAB",) and not check.correct
    _, check = ask(small, "hooks", "AB", "aba abs")
    assert check.correct
    question, _ = ask(small, "recall", "2:x", "")
    assert question.expected == ("XI", "XU") and question.prompt == "2-letter words starting with X"
    question, check = ask(small, "build", "AENT:3", "ant net tan ten nat")
    assert set(question.expected) == {"ANT", "NAT", "NET", "TAN", "TEN", "ETA", "EAT", "ATE", "TEA"}
    assert check.missing == ("ATE", "EAT", "ETA", "TEA") and not check.correct
    _, check = ask(small, "build", "AENT:3", "ant net tan ten nat ate eat eta tea")
    assert check.correct
    question, _ = ask(small, "anagram", "AEINRS?", "")
    assert "RETAINS" in question.expected and "ENTRAILS" not in question.expected


def test_unknown_or_impossible_questions(small):
    with pytest.raises(LexitrainError, match="no anagrams"):
        new_kind("anagram").build(small, "QQQ")
    with pytest.raises(LexitrainError, match="unknown question kind 'sudoku'"):
        new_kind("sudoku")


def test_letter_orders(small):
    assert letter_order(small, "AEINRST", "vowels-first") == "AEINRST"
    assert letter_order(small, "ENRSTAI", "vowels-first") == "EAINRST"
    shown = letter_order(small, "AEINRST", "random", random.Random(3))
    assert sorted(shown) == sorted("AEINRST")
    with pytest.raises(LexitrainError, match="unknown letter order"):
        letter_order(small, "AB", "backwards")


def test_question_keys_order_without_repeats():
    ranks = {"TEN": (5, 9), "NET": (5, 8), "ANT": (2, 3), "TAN": (2, 4), "AB": (1, 1)}  # with 2 blanks
    rows = [{"word": w, "alphagram": "".join(sorted(w)), "length": len(w),
             "alphagram_ranks": [6 - a, 0, a], "probability_ranks": [10 - p, 0, p]}  # 0 blanks: the other way round
            for w, (a, p) in ranks.items()]
    assert question_keys(new_kind("hooks"), rows, blanks=0) == ["AB", "TEN", "NET", "TAN", "ANT"]
    assert question_keys(new_kind("anagram"), rows, by_probability=False) == ["ENT", "ANT", "AB"]
    assert question_keys(new_kind("anagram"), rows) == ["AB", "ANT", "ENT"]  # shorter first, then most probable
    assert question_keys(new_kind("hooks"), rows) == ["AB", "ANT", "TAN", "NET", "TEN"]
    assert question_keys(new_kind("recall"), rows, by_probability=False) == ["3:T", "3:N", "3:A", "2:A"]
    assert question_keys(new_kind("build"), rows, 3) == ["AB:3", "ANT:3", "ENT:3"]


def test_override_reschedules_from_the_state_before(small):
    with ProgressStore() as store:
        ids = store.ensure_cards("small", [("anagram", "ENT"), ("anagram", "ANT")], 0.0)
        session = Session(store, small, "quiz", "t", [Item("anagram", "ENT", ids[0]), Item("anagram", "ANT", ids[1])],
                          Scheduling())
        questions = session.questions()
        first = session.answer(next(questions), "NET TEM")  # a typo
        assert not first.correct and first.card.streak == -1
        fixed = session.override(first, True)
        assert fixed.correct and fixed.card.streak == 1 and fixed.card.incorrect == 0 and fixed.card.correct == 1
        stored = store.card(ids[0])
        assert (stored.correct, stored.incorrect, stored.stability) == (1, 0, fixed.card.stability)
        second = session.answer(next(questions), "ANT NAT TAN")
        assert second.correct
        summary = session.finish()
        assert (summary.questions, summary.correct, summary.missed, summary.missed_list) == (2, 2, [], None)
        row = store.conn.execute("SELECT correct FROM answers WHERE id = ?", (first.answer_id,)).fetchone()
        assert row[0] == 1


def test_question_timer_counts_late_answers_as_missed(small):
    ticks = iter([0, 0, 5, 5, 50, 60])
    with ProgressStore() as store:
        session = Session(store, small, "quiz", "t", [Item("anagram", "ENT"), Item("anagram", "ANT")], None,
                          timers=Timers(question=10), clock=lambda: next(ticks))
        questions = session.questions()
        quick = session.answer(next(questions), "NET TEN")
        slow = session.answer(next(questions), "ANT NAT TAN")
        assert quick.correct and not quick.timed_out
        assert slow.timed_out and not slow.correct and slow.check.correct


def test_unbuildable_questions_are_skipped_not_fatal(small):
    with ProgressStore() as store:
        session = Session(store, small, "quiz", "t", [Item("anagram", "QQQ"), Item("anagram", "ENT")], None)
        asked = [q.key for q in session.questions()]
        assert asked == ["ENT"] and session.summary.skipped == ["anagram:QQQ"]


WORD = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=2, max_size=8)


@settings(max_examples=100, deadline=None)
@given(st.lists(WORD, min_size=1, max_size=6, unique=True), st.data())
def test_any_spelling_of_the_right_words_is_right(expected, data):
    """Order, case, separators and repeats never change the verdict; one stray word always does."""
    order = data.draw(st.permutations(expected))
    repeats = data.draw(st.lists(st.sampled_from(expected), max_size=3))
    tokens = [data.draw(st.sampled_from([w, w.lower(), w.title()])) for w in [*order, *repeats]]
    separators = data.draw(st.lists(st.sampled_from([" ", "  ", ",", ", ", "\t", ";"]),
                                    min_size=len(tokens), max_size=len(tokens)))
    line = " " + "".join(t + s for t, s in zip(tokens, separators))
    check = check_words(tuple(expected), *answer_words(line))
    assert check.correct and set(check.right) == set(expected) and not check.missing
    assert len(check.duplicates) == len(repeats)
    stray = data.draw(WORD.filter(lambda w: w not in expected))
    wrong = check_words(tuple(expected), *answer_words(f"{line} {stray.lower()}"))
    assert not wrong.correct and wrong.wrong == (stray,)
