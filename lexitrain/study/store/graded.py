"""The one way a graded answer is kept: the card graded now and the answer recorded, in one commit.

Every graded answer, whichever face or round gives it (a quiz, the daily drill, a wall, the club's
challenge finish and shared-wall finds, a member's review from any device), goes through
`grade_card`. Inside one write transaction it makes the answer's session row if this is its first answer
(`Opening`: a session, local or the club's, that answers nothing leaves no row), reads the card (making it
first where asked), checks that it is still as the player was shown it (`shown`: its last review then; a
card answered elsewhere since is refused with `CardMoved`, nothing written), reschedules it by the caller's rule
(the scheduler is a floor above the store: the rule is handed in), saves it and records the answer
with its id and the way of scheduling in force (`history`: what the card's schedule is made of).
An answer that is not the card's latest fact (kept late: a club's debt paid after a review elsewhere,
a clock behind another machine's) is recorded in its place in time, and the card is made again from
its history by the rule (`Reschedule.remake`), so the card is what its answers in time order make
of it, whichever order they were kept in.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from enum import Enum
from typing import Any, Final, Protocol

from lexitrain.errors import LexitrainError
from lexitrain.study.store.answers import AnswerRow, Answers, Opening
from lexitrain.study.store.cards import CardRow, Cards
from lexitrain.study.store.clock import utc_now

class Reschedule(Protocol):
    """How an answer reschedules its card (the scheduler's, a floor above: `study.quiz.replay.rescheduling`)."""

    def __call__(self, card: CardRow, when: datetime) -> CardRow:
        """The card after the answer, from the card before it and the moment it was given."""
        ...

    def way(self, card: CardRow) -> tuple[str, dict[str, Any]]:
        """The way of scheduling in force for the card: its id and spec (kept with the answer)."""
        ...

    def remake(self, card_id: int) -> CardRow:
        """The card made again from its history, and saved (in the caller's transaction)."""
        ...


class _Unchecked(Enum):
    UNCHECKED = "unchecked"


#: `shown` for an answer whose card is not compared with what was shown (the answer grades it as it is now).
UNCHECKED: Final = _Unchecked.UNCHECKED


class CardMoved(LexitrainError):
    """The card was answered (or rescheduled) since it was shown: nothing was written."""


@dataclass(frozen=True)
class GivenAnswer:
    """One answer to keep: to which card (by lexicon, kind and key), in which session (its id, or how it opens:
    its row is made with this answer), what was given and its verdict, how long it took (None: not timed) and
    the grade (None: checked only)."""

    session: int | Opening
    mode: str
    lexicon: str
    kind: str
    key: str
    given: str
    correct: bool
    ms: int | None = None
    rating: int | None = None
    uid: str | None = None  # its stable id (None: one is made as it is kept)


@dataclass(frozen=True)
class Kept:
    """An answer as kept: its id, its card before and after (None: no card, or not rescheduled), whether
    it made the card, when it was given, and its session's row."""

    answer_id: int
    before: CardRow | None
    after: CardRow | None
    made_card: bool
    at: float
    session_id: int


class Graded(Cards, Answers):
    def grade_card(self, answer: GivenAnswer, reschedule: Reschedule | None, *, card_id: int | None = None,
                   make_card: bool = False, shown: float | None | _Unchecked = UNCHECKED,
                   at: float | None = None) -> Kept:
        """Keep one answer and reschedule its card (by RESCHEDULE; None: the card is left as it is), in one
        transaction. The card is CARD_ID's, else with MAKE_CARD the answer's (made if new), else none (a
        practice question). SHOWN: the card's last review as the player was shown it (CardMoved when it is
        not that now). AT: when it was given (None: now, read once the write lock is held, so the answers
        to a card are timed in the order they are kept)."""
        with self.transaction():
            now = utc_now().timestamp() if at is None else at
            session_id = answer.session if isinstance(answer.session, int) else self.session_for(answer.session)
            made = False
            if card_id is None and make_card:
                card_id, made = self.made_card(answer.lexicon, answer.kind, answer.key, now)
            before = after = None
            way = None
            in_order = True
            if card_id is not None:
                before = self.card(card_id)
                if shown is not UNCHECKED and before.last_review != shown:
                    raise CardMoved(f"the card {answer.kind}:{answer.key} was answered elsewhere since it was shown; "
                                    "nothing was recorded")
                if reschedule is not None:
                    way = self.keep_scheduling(*reschedule.way(before))
                    latest = self.latest_fact(before)
                    in_order = latest is None or latest < now
                    if in_order:
                        after = reschedule(before, datetime.fromtimestamp(now, timezone.utc))
                        self.save_card(after)
            answer_id = self.record_answer(AnswerRow(
                session_id=session_id, mode=answer.mode, card_id=card_id, kind=answer.kind, key=answer.key,
                given=answer.given, correct=answer.correct, was_new=before is not None and before.state == 0,
                before=before, at=now, ms=answer.ms, rating=answer.rating, uid=answer.uid, scheduling=way))
            if not in_order:
                assert reschedule is not None and card_id is not None
                after = reschedule.remake(card_id)
        return Kept(answer_id, before, after, made, now, session_id)
