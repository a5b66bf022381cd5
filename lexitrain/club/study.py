"""A member's study on the club server: their due cards asked one at a time, from any device.

The questions are the local app's: each card's question kind builds it from the club's lexicon and
checks the answer line, and the answer is scheduled by the same FSRS `Scheduling` and kept as a
review (`club.cards`). Nothing is held between requests, so any `serve` process takes the next
answer: a question handed out carries its card's `version`, and the answer names it back. The
answer is read, scheduled and then written only if the card is still at that version; a card
answered on another device since (or scheduled by a challenge) is refused with 409 and nothing is
recorded, so two devices answering one card never both schedule it from the same old state.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

from lexitrain.club.cards import CARD_COLUMNS, Moved, card_json, read_card, record_review, write_card
from lexitrain.club.database import ClubDatabase
from lexitrain.club.members import Refused
from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import DamagedLexicon, Lexicon
from lexitrain.study.quiz.kinds.base import Question, new_kind
from lexitrain.study.quiz.scheduler import AGAIN, GOOD, Scheduling, check_rating
from lexitrain.study.store import CardRow

#: The most questions one request hands out.
MOST = 50
#: Due cards read past the limit, to stand in for those the lexicon cannot ask (e.g. a position's card
#: uploaded from the local app, or a word no longer in the lexicon).
SPARE = 50


def question(lex: Lexicon, kind: str, key: str) -> Question:
    """The question a card asks (404 when this club's lexicon cannot ask it)."""
    try:
        return new_kind(kind).build(lex, key)
    except DamagedLexicon:
        raise
    except LexitrainError as exc:
        raise Refused(404, f"the card {kind}:{key} cannot be asked here ({' '.join(str(exc).split())})") from None


def due(db: ClubDatabase, lex: Lexicon, member_id: int, now: float, limit: int = 1) -> dict[str, Any]:
    """How many of the member's cards are due by `now`, and the first `limit` of them as questions (most
    overdue first), each with its card and version."""
    if not 1 <= limit <= MOST:
        raise Refused(400, f"limit must be 1-{MOST}")
    which = (member_id, lex.name, now)
    with db.transaction() as tx:
        count = tx.one("SELECT count(*) FROM member_cards WHERE member_id = ? AND lexicon = ? AND due <= ?", which)
        rows = tx.rows(f"SELECT kind, key, {CARD_COLUMNS}, version FROM member_cards WHERE member_id = ? "
                       "AND lexicon = ? AND due <= ? ORDER BY due, kind, key LIMIT ?", (*which, limit + SPARE))
    questions: list[dict[str, Any]] = []
    for kind, key, *state, version in rows:
        try:
            asked = question(lex, kind, key)
        except Refused:
            continue
        card = CardRow(0, lex.name, kind, key, *state)
        questions.append({**asked.to_json(), "key": key, "hint": asked.hint, "card": card_json(card, int(version))})
        if len(questions) == limit:
            break
    return {"due": int(count[0]) if count else 0, "questions": questions}


def answer(db: ClubDatabase, lex: Lexicon, member_id: int, kind: str, key: str, given: str, version: int,
           now: float, rating: int | None = None, before_write: Callable[[], None] | None = None) -> dict[str, Any]:
    """Check an answer line to the card's question and schedule the card, if it is still at `version`
    (else `Moved`, 409, nothing recorded); with a `rating` (Again to Easy) the member's own grade decides.
    `before_write` runs between the read and the write (tests put two answers' race there)."""
    asked = question(lex, kind, key)
    check = new_kind(kind).check(asked, given)
    if rating is None and check.refused is not None:
        raise Refused(400, check.refused)
    grade = check_rating(rating) if rating is not None else (GOOD if check.correct else AGAIN)
    with db.transaction() as tx:
        read = read_card(tx, member_id, lex.name, kind, key)
    if read is None:
        raise Refused(404, f"you have no card {kind}:{key}")
    before, stored = read
    if stored != version:
        raise Moved(kind, key)
    after = Scheduling().grade(before, grade, datetime.fromtimestamp(now, timezone.utc))
    if before_write is not None:
        before_write()
    with db.transaction() as tx:
        if not write_card(tx, member_id, after, version):
            raise Moved(kind, key)
        record_review(tx, member_id, before, after, "study", given, grade, now)
    return {"correct": grade != AGAIN, "right": list(check.right), "wrong": list(check.wrong),
            "missing": list(check.missing), "expected": list(asked.expected), "card": card_json(after, version + 1)}
