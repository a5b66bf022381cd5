"""Study requests in the core, as the web app will use them: refused at once with the CLI's
one-line reasons, then started into a session that a face drives, nothing printed."""

from __future__ import annotations

import pytest

from lexitrain.errors import LexitrainError
from lexitrain.study.quiz.kinds.base import BOARD, LETTERS
from lexitrain.study.drills.requests import ChallengeRequest, DailyRequest, Due, PositionQuizRequest, QuizRequest, Words, quiz_source
from lexitrain.study.store import ProgressStore
from study_helpers import anagram_oracle, small  # noqa: F401  (small is a fixture)
from tests.test_positions_quiz import WORDS as POSITION_WORDS

ORACLE = anagram_oracle()


@pytest.mark.parametrize("make, message", [
    (lambda: QuizRequest(Due(), kind="hooks"), "--kind does not apply to --due: each due card is asked in its own kind"),
    (lambda: QuizRequest(Words(builtin="twos"), kind="crossword"), "unknown question kind 'crossword'"),
    (lambda: QuizRequest(Words(builtin="twos"), minimum=3), "--min is only for build questions (this quiz asks anagram questions)"),
    (lambda: QuizRequest(Words(builtin="twos"), limit=0), "--limit 0: expected 1 or more"),
    (lambda: QuizRequest(Words(builtin="twos"), question_time=-5), "--question-time -5: expected a number of seconds above 0"),
    (lambda: QuizRequest(Words(builtin="twos"), round_time=0), "--round-time 0: expected a number of seconds above 0"),
    (lambda: QuizRequest(quiz_source(Words(builtin="twos"), due=True)), "--due takes no other question source"),
    (lambda: QuizRequest(Words(builtin="twos"), order="backwards"), "unknown letter order 'backwards'"),
    (lambda: DailyRequest(order="backwards"), "unknown letter order 'backwards'"),
    (lambda: ChallengeRequest("sixteens"), "unknown challenge kind 'sixteens'"),
    (lambda: ChallengeRequest("sevens", "2026-13-01"), "bad date '2026-13-01': use YYYY-MM-DD"),
    (lambda: PositionQuizRequest(limit=0), "--limit must be at least 1"),
    (lambda: PositionQuizRequest(daily=True, day="tomorrow"), "bad date 'tomorrow': use YYYY-MM-DD"),
])
def test_requests_are_refused_when_made(make, message):
    with pytest.raises(LexitrainError) as refused:
        make()
    assert str(refused.value).startswith(message)


def test_a_quiz_of_one_question_is_titled_in_the_singular(small):
    with ProgressStore() as store:
        assert QuizRequest(Words(builtin="twos"), limit=1, schedule=False).start(store, small).title == \
            "Two-letter words · 1 question · small"


def test_a_quiz_request_starts_a_session_a_face_drives(small, capsys):
    request = QuizRequest(Words(builtin="twos"), limit=3, kind="anagram", schedule=False)
    with ProgressStore() as store:
        session = request.start(store, small)
        assert session.title == "Two-letter words · 3 questions · small"
        asked = []
        for question in session.questions():
            assert question.hint == LETTERS
            first = sorted(ORACLE[question.key])[0]
            assert session.check(question, first).right == (first,)  # a face's word-by-word check records nothing
            asked.append(session.answer(question, " ".join(ORACLE[question.key])))
        summary = session.finish()
        assert (summary.questions, summary.correct) == (3, 3) and all(o.card is None for o in asked)
        assert store.conn.execute("SELECT COUNT(*) FROM cards").fetchone()[0] == 0  # practice: no cards
    assert capsys.readouterr() == ("", "")


def test_a_challenge_request_records_the_attempt_when_the_session_ends(small, monkeypatch):
    monkeypatch.setenv("LEXITRAIN_NOW", "2026-03-01T10:00:00+00:00")
    request = ChallengeRequest("sevens", "2026-03-01", timed=False)
    with ProgressStore() as store:
        unfinished = request.start(store, small)  # small has two seven-letter alphagrams
        assert unfinished.title == "challenge sevens 2026-03-01 (small): 2 alphagrams"
        question = next(unfinished.questions())
        unfinished.answer(question, " ".join(question.expected))
        assert unfinished.finish().details["personal_best"] is None  # one answer of two: not a finished round
        finished = request.start(store, small)
        for question in finished.questions():
            finished.answer(question, " ".join(question.expected))
        summary = finished.finish().to_json()
    assert (summary["date"], summary["kind"], summary["lexicon"]) == ("2026-03-01", "sevens", "small")
    assert summary["personal_best"]["score"] == 2 and summary["personal_best"]["completed"]
    assert list(summary)[-6:] == ["date", "kind", "lexicon", "personal_best", "retake", "set"]  # after the summary's own fields


def test_a_daily_request_says_what_is_left(small, monkeypatch):
    monkeypatch.setenv("LEXITRAIN_NOW", "2026-03-01T10:00:00+00:00")
    with ProgressStore() as store:
        store.set_setting("limit:new", 1)
        request = DailyRequest()
        assert not request.status(store, small).nothing_left
        session = request.start(store, small)
        question = next(session.questions())
        session.answer(question, " ".join(ORACLE[question.key]))
        assert request.status(store, small).nothing_left
        summary = session.finish()
    assert (summary.details["new_today"], summary.details["new_left"]) == (1, 0)


def test_a_position_request_asks_on_a_board(make_lexicon):
    lex = make_lexicon(POSITION_WORDS, name="positions")
    with ProgressStore() as store:
        session = PositionQuizRequest(limit=2, schedule=False).start(store, lex)  # made by self-play on a fresh store
        assert session.title == "positions (2 questions, positions)"
        questions = list(session.questions())
        assert [q.hint for q in questions] == [BOARD, BOARD]
        outcome = session.answer(questions[0], questions[0].expected[0])
        assert outcome.correct and outcome.check.details["rank"] == 1
        session.answer(questions[1], "")
        assert session.finish().missed_list is None  # a missed play is not a word to list


def test_each_session_keeps_its_own_bounded_solved_positions(make_lexicon):
    from lexitrain.study.quiz.kinds.position import PositionKind

    lex = make_lexicon(POSITION_WORDS, name="positions")
    with ProgressStore() as store:
        one = PositionQuizRequest(limit=3, schedule=False).start(store, lex)
        other = PositionQuizRequest(limit=3, schedule=False).start(store, lex)
        asked = list(one.questions())
        assert one.kind("position") is not other.kind("position")
        with pytest.raises(LexitrainError, match="was not built in this session"):
            other.check(asked[0], asked[0].expected[0])
        kind = PositionKind(cache_size=1)
        first, second = (kind.build(lex, q.key) for q in asked[:2])
        assert kind.check(second, second.expected[0]).correct
        with pytest.raises(LexitrainError, match="was not built in this session"):
            kind.check(first, first.expected[0])  # the oldest solved position made room
