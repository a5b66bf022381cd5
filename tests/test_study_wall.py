"""The word wall in the core, driven without a browser: guesses routed to their questions,
answers recorded as they are decided, the deadline on an injected clock, rounds, the missed round;
and the graded review (Again / Hard / Good / Easy)."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from lexitrain.errors import LexitrainError
from lexitrain.search.execute import run_search
from lexitrain.search.query import parse_query
from lexitrain.study.drills.requests import ChallengeRequest, Due, QuizRequest, Words
from lexitrain.study.quiz.scheduler import AGAIN, EASY, GOOD, HARD, Scheduling
from lexitrain.study.store import CardRow, ProgressStore
from lexitrain.study.drills.wall import ALREADY, CORRECT, ENDED, WRONG, Wall
from study_helpers import anagram_oracle, small  # noqa: F401  (small is a fixture)

ORACLE = anagram_oracle()
SEVENS = "--length 7"  # small has two: AEINRST (9 words) and AEILRST (SALTIER)


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def answers(store: ProgressStore) -> list[tuple[str, str, int]]:
    return store.conn.execute("SELECT key, given, correct FROM answers ORDER BY id").fetchall()


def test_a_whole_wall_solved_by_typing_records_each_question_as_it_is_solved(small):
    with ProgressStore() as store:
        wall = Wall(QuizRequest(Words(query=SEVENS)).start(store, small), seconds=60, clock=Clock())
        current = wall.start_round()
        assert {c.question.key for c in current.cells} == {"AEINRST", "AEILRST"}
        assert all(c.to_json()["tiles"] == list(c.question.prompt) for c in current.cells)  # for a face to reorder
        for word in sorted(ORACLE["AEILRST"]):
            assert wall.guess(word.lower()).verdict == CORRECT
        assert answers(store) == [("AEILRST", " ".join(sorted(ORACLE["AEILRST"])), 1)]  # at once, not at the end
        for word in sorted(ORACLE["AEINRST"]):
            wall.guess(word)
        assert current.ended and wall.done and wall.summary is not None
        assert (wall.summary.questions, wall.summary.correct) == (2, 2)
        assert store.find_card("small", "anagram", "AEINRST").state != 0  # rescheduled


def test_a_wrong_word_and_a_word_found_again(small):
    with ProgressStore() as store:
        wall = Wall(QuizRequest(Words(query=SEVENS)).start(store, small), clock=Clock())
        wall.start_round()
        assert wall.guess("RETAINS").verdict == CORRECT
        again = wall.guess("retains")
        assert again.verdict == ALREADY and again.cell is not None and again.cell.found == ["RETAINS"]
        phony = wall.guess("NITRATES")  # spells no question's tiles
        assert phony.verdict == WRONG and phony.cell is None
        near = wall.guess("TRAINES")  # the tiles of AEINRST, not a word: counts against it
        assert near.verdict == WRONG and near.cell is not None and near.cell.question.key == "AEINRST"
        assert near.cell.wrong == 1
        with pytest.raises(LexitrainError, match="a guess is one word"):
            wall.guess("two words")


def test_giving_up_records_every_open_question_missed_with_its_words(small):
    with ProgressStore() as store:
        wall = Wall(QuizRequest(Words(query=SEVENS)).start(store, small), clock=Clock(), missed_round=False)
        wall.start_round()
        wall.guess("RETAINS")
        current = wall.give_up()
        assert current.gave_up and current.correct == 0
        assert sorted(answers(store)) == [("AEILRST", "", 0), ("AEINRST", "RETAINS", 0)]
        table = wall.solutions()
        row = next(r for r in table if r["alphagram"] == "AEINRST")
        assert [w["found"] for w in row["words"]] == [w == "RETAINS" for w in sorted(ORACLE["AEINRST"])]
        assert {"probability", "front_hooks", "back_hooks", "definition", "symbols"} <= set(row["words"][0])
        ranks = {r["word"]: r["alphagram_rank"] for r in run_search(small, parse_query(SEVENS))}
        assert {w["probability"] for w in row["words"]} == {ranks["RETAINS"]}  # the alphagram's, as search shows
        assert wall.guess("RETAINS").verdict == ENDED


def test_the_deadline_on_the_injected_clock_is_final(small):
    clock = Clock()
    with ProgressStore() as store:
        wall = Wall(QuizRequest(Words(query=SEVENS)).start(store, small), seconds=60, clock=clock, missed_round=False)
        wall.start_round()
        wall.guess("RETAINS")
        clock.now += 59.5
        assert wall.time_left() == pytest.approx(0.5)
        clock.now += 1
        assert wall.guess("NASTIER").verdict == ENDED  # too late: the round ended instead
        assert wall.round is not None and wall.round.timed_out and wall.done
        assert wall.summary is not None and wall.summary.timed_out
        assert ("AEINRST", "RETAINS", 0) in answers(store)


def test_a_long_list_goes_round_after_round_then_its_missed_round(small):
    with ProgressStore() as store:
        session = QuizRequest(Words(builtin="twos")).start(store, small)
        total = len(session.items)  # type: ignore[arg-type]
        wall = Wall(session, size=40, clock=Clock())
        first = wall.start_round()
        assert (first.first, first.last, first.total) == (1, 40, total)
        for cell in first.cells[:-1]:
            for word in cell.question.expected:
                wall.guess(word)
        wall.give_up()  # the last one missed
        missed = first.cells[-1].question
        second = wall.start_round()
        assert second.first == 41 and not second.missed_pass
        wall.give_up()
        wall.mark(second.cells[0].question.id, True)  # a typo: marked correct, off the missed list
        assert wall.has_next()
        again = wall.start_round()
        assert again.missed_pass and missed.id in {c.question.id for c in again.cells}
        assert second.cells[0].question.id not in {c.question.id for c in again.cells}
        wall.give_up()
        assert wall.done and not wall.has_next()
        with pytest.raises(LexitrainError, match="the wall is done"):
            wall.start_round()


def test_a_missed_list_longer_than_a_round_goes_round_after_round_too(small):
    with ProgressStore() as store:
        session = QuizRequest(Words(builtin="twos")).start(store, small)
        total = len(session.items)  # type: ignore[arg-type]
        assert total > 6
        wall = Wall(session, size=3, clock=Clock())
        rounds = []
        while wall.has_next():  # every question missed, in the list and in its missed list
            rounds.append(wall.start_round())
            wall.give_up()
        listed = [r for r in rounds if not r.missed_pass]
        missed = [r for r in rounds if r.missed_pass]
        assert [(r.first, r.total) for r in missed] == [(n, total) for n in range(1, total + 1, 3)]
        ids = [[c.question.id for c in r.cells] for r in listed]
        assert [[c.question.id for c in r.cells] for r in missed] == ids  # each asked again, once, in order
        assert wall.done


def test_a_challenge_wall_holds_the_days_alphagrams(small):
    request = ChallengeRequest("sevens", "2026-03-01")
    with ProgressStore() as store:
        wall = Wall(request.start(store, small), clock=Clock(), missed_round=False)
        assert wall.seconds == 270
        keys = [c.question.key for c in wall.start_round().cells]
    from lexitrain.study.drills.challenge import challenge_keys

    assert keys == challenge_keys(small, datetime(2026, 3, 1).date(), "sevens")


def test_finishing_mid_round_keeps_the_words_given_and_scores_no_untouched_question(small):
    with ProgressStore() as store:  # leaving is stopping: what was typed is kept, nothing else counts
        wall = Wall(QuizRequest(Words(query="--length 8")).start(store, small), clock=Clock())
        wall.start_round()
        wall.guess("DELATION")  # its only word: recorded at once
        wall.guess("RELATION")  # one of two: kept as given when the wall ends
        summary = wall.finish()
        assert summary.questions == 2
        assert answers(store) == [("ADEILNOT", "DELATION", 1), ("AEILNORT", "RELATION", 0)]
        shown = wall.state()["round"]  # what a face says of it: left, not given up, the rest unscored
        assert shown["left"] and not shown["gave_up"] and not shown["timed_out"]
        assert sum(not c["decided"] for c in shown["cells"]) == len(shown["cells"]) - 2


NOW = datetime(2026, 3, 1, 12, tzinfo=timezone.utc)


def new_card() -> CardRow:
    return CardRow(1, "small", "anagram", "AEINRST", 0, None, None, None, None, None, 0, 0, 0, 0, NOW.timestamp())


def test_grades_order_the_next_review_and_review_keeps_its_meaning():
    scheduling = Scheduling()
    due = {rating: scheduling.grade(new_card(), rating, NOW).due for rating in (AGAIN, HARD, GOOD, EASY)}
    assert due[AGAIN] <= due[HARD] <= due[GOOD] < due[EASY]  # type: ignore[operator]
    assert scheduling.review(new_card(), True, NOW) == scheduling.grade(new_card(), GOOD, NOW)
    assert scheduling.review(new_card(), False, NOW) == scheduling.grade(new_card(), AGAIN, NOW)
    hard = scheduling.grade(new_card(), HARD, NOW)
    assert (hard.correct, hard.incorrect, hard.streak) == (1, 0, 1)
    with pytest.raises(LexitrainError, match="rating 5"):
        scheduling.grade(new_card(), 5, NOW)


def test_leitner_boxes_follow_the_grade():
    leitner = Scheduling(mode="leitner")
    card = leitner.grade(new_card(), GOOD, NOW)
    assert card.cardbox == 1
    assert leitner.grade(card, HARD, NOW).cardbox == 1
    assert leitner.grade(card, EASY, NOW).cardbox == 3
    assert leitner.grade(card, AGAIN, NOW).cardbox == 0


def test_a_session_records_a_graded_answer(small):
    with ProgressStore() as store:
        session = QuizRequest(Words(query=SEVENS), limit=1).start(store, small)
        question = next(iter(session.questions()))
        outcome = session.grade(question, HARD)
        assert outcome.correct and outcome.card is not None and outcome.card.state != 0
        assert answers(store) == [(question.key, "", 1)]
        assert session.finish().correct == 1


def test_a_wall_of_the_due_cards_counts_a_word_to_judge_it_cannot_show_and_leaves_it_due(small):
    """A valid-or-phony card due among anagram cards: not a cell, but its place in the list is counted
    (the page says "questions 1-2 of 2", one left for the reviews) and nothing is recorded for it."""
    from lexitrain.study.quiz.scheduler import LEARNING, utc_now

    with ProgressStore() as store:
        now = utc_now().timestamp() - 60
        for kind, key in (("valid-or-phony", "ZZZQ"), ("anagram", "AEILRST")):
            card = store.card(store.ensure_card("small", kind, key, now))
            card.state, card.step, card.due = LEARNING, 0, now
            store.save_card(card)
        wall = Wall(QuizRequest(Due()).start(store, small), clock=Clock())
        first = wall.start_round()
        assert [c.question.key for c in first.cells] == ["AEILRST"]
        assert (first.first, first.last, first.total, first.elsewhere) == (1, 2, 2, 1)
        assert wall.state()["round"]["elsewhere"] == 1
        wall.guess("SALTIER")
        assert [key for key, _, _ in answers(store)] == ["AEILRST"]  # the word to judge is still due, unanswered
