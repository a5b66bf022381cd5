"""A member's due cards asked one at a time from any device (`/api/study`), on their own progress store.

The cards are the member's study store's, the ones `/study` and an exported backup hold, so the
club's page, a phone and the member's own app study one deck. The questions are the local app's:
each card's question kind, bound to the member's store as a session binds it (`bind_store`: an
analysed position's analysis and a read-rack card's reading were kept there when the card was made,
`study from-games`), builds it from the club's lexicon and checks the answer line with the same
instance, and the answer is kept as every answer is (`ProgressStore.grade_card`). Nothing is held between
requests, so any `serve` process takes the next answer: a question carries its card's last review
as it was shown (`reviewed`), and the answer names it back. The answer is checked against the card
read again in the store's writing transaction, and scheduled only if the card's last review is
still that one: a card answered on another device since (or scheduled by a challenge, a wall, an
import) is refused with 409 and nothing is recorded, so two devices answering one card never both
schedule it from the same old state.
"""

from __future__ import annotations

from dataclasses import asdict
from datetime import datetime, timezone
from typing import Any

from lexitrain.club.owed import MODE
from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import DamagedLexicon, Lexicon
from lexitrain.study.drills.daily import day_start
from lexitrain.study.quiz.kinds.base import Question, QuestionKind, bind_store, new_kind
from lexitrain.study.quiz.replay import rescheduling
from lexitrain.study.quiz.scheduler import AGAIN, GOOD, check_rating, load_scheduling
from lexitrain.study.store import CardMoved, CardRow, GivenAnswer, Opening, ProgressStore
from lexitrain.web.api import asked_json, words_json
from lexitrain.web.edge import Refused

#: The most questions one request hands out.
MOST = 50
#: Due cards read past the limit, to stand in for those the lexicon cannot ask (a word no longer in it, a card of
#: a kind this lexitrain does not know).
SPARE = 50
#: The session a day's answers here are kept in (one a day, named by the day's start, made by its first answer
#: as every session is: `Opening`).
SOURCE = "club study"
#: What holds a card shown here, beside the leases of the member's own rounds (`/study`).
HOLDER = "club study"


class Moved(Refused):
    """The card changed since it was shown (answered on another device, or by a challenge): nothing written."""

    def __init__(self, kind: str, key: str) -> None:
        super().__init__(409, f"the card {kind}:{key} was answered elsewhere since it was shown; "
                              "nothing was recorded: ask for it again")


def card_json(card: CardRow) -> dict[str, Any]:
    """A card as the study routes show it: its scheduling, `last_review` the mark an answer names back."""
    return {name: value for name, value in asdict(card).items() if name != "id"}


def cards(store: ProgressStore) -> list[dict[str, Any]]:
    """The member's cards that have a schedule or a history, of every lexicon."""
    return [card_json(card) for card in store.scheduled_cards()]


def question(store: ProgressStore, lex: Lexicon, kind: str, key: str) -> tuple[QuestionKind, Question]:
    """The question a card asks, and the kind's instance that built it (the one to check its answer: a position
    kind keeps what it worked out for the question); 404 when this club's lexicon cannot ask it."""
    try:
        asking = bind_store(new_kind(kind), store)
        return asking, asking.build(lex, key)
    except DamagedLexicon:
        raise
    except LexitrainError as exc:
        raise Refused(404, f"the card {kind}:{key} cannot be asked here ({' '.join(str(exc).split())})") from None


def question_json(lex: Lexicon, asked: Question, card: CardRow) -> dict[str, Any]:
    """A question as the local app's review page gets it (`web.api.asked_json`: a position's board with it),
    with its card."""
    return {**asked_json(lex, asked), "key": card.key, "card": card_json(card)}


def due(store: ProgressStore, lex: Lexicon, now: float, limit: int = 1) -> dict[str, Any]:
    """How many of the member's cards are due by `now`, and the first `limit` of them as questions (most
    overdue first; a card held by one of the member's own open rounds left out), each with its card."""
    if not 1 <= limit <= MOST:
        raise Refused(400, f"limit must be 1-{MOST}")
    count = store.due_count(lex.name, now)
    shown = store.due_cards(lex.name, now, limit + SPARE, skip=store.leased_by_others(HOLDER, now))
    questions: list[dict[str, Any]] = []
    for card in shown:
        try:
            _, asked = question(store, lex, card.kind, card.key)
        except Refused:
            continue
        questions.append(question_json(lex, asked, card))
        if len(questions) == limit:
            break
    return {"due": count, "questions": questions}


def answer(store: ProgressStore, lex: Lexicon, kind: str, key: str, given: str, reviewed: float | None,
           now: float, rating: int | None = None) -> dict[str, Any]:
    """Check an answer line to the card's question and schedule the card, if its last review is still
    `reviewed` (else `Moved`, 409, nothing recorded); with a `rating` (Again to Easy) the member's own
    grade decides. A line the question does not take (an illegal play, not v or p) is `{"refused": reason}`,
    nothing recorded. The check and the write are one transaction of the store. The answer says what the local
    app's review says of one (`Outcome.to_json`): the kind's details (a play's score and rank, a position's
    top plays, a simulation's or a reading's table) and the words' facts."""
    asking, asked = question(store, lex, kind, key)
    check = asking.check(asked, given)
    if rating is None and check.refused is not None:  # (as the local app's reviews: part of the game, no HTTP error)
        return {"refused": check.refused}
    grade = check_rating(rating) if rating is not None else (GOOD if check.correct else AGAIN)
    card = store.find_card(lex.name, kind, key)
    if card is None:
        raise Refused(404, f"you have no card {kind}:{key}")
    today = day_start(datetime.fromtimestamp(now, timezone.utc)).timestamp()
    day = Opening(MODE, lex.name, SOURCE, today, shared=True, ended=now, complete=True)  # (made by its first answer)
    try:
        kept = store.grade_card(GivenAnswer(day, MODE, lex.name, kind, key, given, grade != AGAIN, rating=grade),
                                rescheduling(store, load_scheduling(store), grade), card_id=card.id, shown=reviewed,
                                at=now)
    except CardMoved:
        raise Moved(kind, key) from None
    assert kept.after is not None
    return {**check.details, "correct": grade != AGAIN, "right": list(check.right), "wrong": list(check.wrong),
            "missing": list(check.missing), "expected": list(asked.expected),
            "words": words_json(lex, asked), "card": card_json(kept.after)}
