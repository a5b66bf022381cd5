"""What the club owes a member's progress store: the reviews its own writes make, and its old cards.

A member's cards are in their progress store (`study.store`: a file of theirs on an SQLite club, a
schema of theirs on PostgreSQL), a database apart from the club's, so a club write that schedules
cards (a challenge's finish, a shared wall's find) cannot write them in its own transaction. It
writes the debt instead (`owe`: the answers, in the club's transaction, so a finish and its debt
stand or fall together), and `settle` keeps them in the store as every answer is kept
(`ProgressStore.grade_card`), in a session of mode `club`, and deletes the debt: before the member's cards are next read, and when a
server starts (`club.app.Club`), not on the write's own path, which stays as quick as the club's
database alone (the first settling of a member makes their store). Cards the club kept in its own tables before
(`member_cards` and `member_reviews`, a club made by an earlier lexitrain) are settled the same way:
merged into the store by the local import's rule, then deleted.

Settling is repeat-safe, so a debt settled twice (two processes at once, or a crash between the
store's commit and the debt's deletion) schedules each card once: a debt's session is named by its
source and start, its answers by card and time, and an answer already in the store is not given
again; the old cards' merge takes nothing twice (`study.records.transfer`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields
from typing import Any

from lexitrain.club.store import ClubDatabase, ClubStore
from lexitrain.study.quiz.replay import rescheduling
from lexitrain.study.quiz.scheduler import AGAIN, GOOD, load_scheduling
from lexitrain.study.records.transfer import FORMAT, VERSION, merge_backup
from lexitrain.study.store import CardRow, GivenAnswer, Opening, ProgressStore

#: The mode of the sessions and answers the club gives a member's store.
MODE = "club"
#: A card's scheduling columns in the club's old `member_cards` table: a store card's, less its id and names.
_OLD_CARD_FIELDS = tuple(f.name for f in fields(CardRow) if f.name not in ("id", "lexicon", "kind", "key"))


@dataclass(frozen=True)
class Debt:
    """Answers a club write owes the store: each (kind, key, right), given at `at`, in the session of
    `source` that started at `started`."""

    id: int
    lexicon: str
    source: str
    started: float
    answers: list[tuple[str, str, bool]]
    at: float


def owe(store: ClubStore, member_id: int, lexicon: str, source: str, started: float,
        answers: Iterable[tuple[str, str, bool]], now: float) -> None:
    """Record, in the club write's own transaction, the answers it owes the member's store."""
    given: list[list[Any]] = [[kind, key, bool(right)] for kind, key, right in answers]
    if given:
        store.add_debt(member_id, lexicon, source, started, given, now)


def anything_owed(db: ClubDatabase, member_id: int) -> bool:
    """Whether the club owes the member's store anything (one cheap read before opening the store)."""
    with db.reading() as store:
        return store.anything_owed(member_id)


def members_owed(db: ClubDatabase) -> list[int]:
    """The members the club owes something (settled when a server starts: a crash may have left a debt)."""
    with db.reading() as store:
        return store.members_owed()


def settle(db: ClubDatabase, store: ProgressStore, member_id: int,
           before_paying: Callable[[], None] | None = None) -> int:
    """Pay everything the club owes the member's store, and delete it from the club; how many cards it
    scheduled or merged. `before_paying` runs between reading the debts and paying them (tests race two
    settlements there)."""
    old = _old_cards(db, member_id)
    debts = _debts(db, member_id)
    if before_paying is not None:
        before_paying()
    paid = 0
    if old is not None:
        paid += int(merge_backup(store, old, "the club's earlier cards")["cards"])
        with db.reading() as club:
            club.forget_old_cards(member_id)
    for debt in debts:
        paid += pay(store, debt)
        with db.reading() as club:
            club.forget_debt(debt.id)
    return paid


def pay(store: ProgressStore, debt: Debt) -> int:
    """Schedule a debt's cards in the store, in one transaction, unless they are there already; how many. Its
    session is the one its source and start name (made by its first answer, as every session is: `Opening`)."""
    session = Opening(MODE, debt.lexicon, debt.source, debt.started, shared=True, ended=debt.at, complete=True)
    with store.transaction():
        general = load_scheduling(store)
        paid = 0
        found = store.found_session(session)  # (paid before: its answers are there)
        there = {(kind, key, at) for _, kind, key, at in store.answers_in([] if found is None else [found])}
        for kind, key, right in debt.answers:
            if (kind, key, debt.at) not in there:
                rating = GOOD if right else AGAIN
                store.grade_card(GivenAnswer(session, MODE, debt.lexicon, kind, key, "", right, rating=rating),
                                 rescheduling(store, general, rating), make_card=True, at=debt.at)
                there.add((kind, key, debt.at))
                paid += 1
    return paid


def _debts(db: ClubDatabase, member_id: int) -> list[Debt]:
    with db.reading() as store:
        return [Debt(*row) for row in store.debts(member_id)]


def _old_cards(db: ClubDatabase, member_id: int) -> dict[str, Any] | None:
    """The member's cards and reviews in the club's old tables, as a `progress export` file's contents
    (None: there are none)."""
    with db.transaction() as store:
        cards = store.old_cards(member_id, _OLD_CARD_FIELDS)
        reviews = store.old_reviews(member_id)
    if not cards and not reviews:
        return None
    sessions: dict[tuple[str, str], dict[str, Any]] = {}
    answers = []
    for lexicon, kind, key, source, given, correct, rating, at, before in reviews:
        session = sessions.setdefault((lexicon, source), {
            "id": len(sessions) + 1, "mode": MODE, "lexicon": lexicon, "source": f"club {source}", "started": at,
            "ended": at, "complete": True})
        session["ended"] = at
        state = json.loads(before)
        answers.append({"session": session["id"], "mode": MODE, "lexicon": lexicon, "kind": kind, "key": key,
                        "given": given, "correct": bool(correct), "was_new": state["state"] == 0,
                        "before": {"lexicon": lexicon, "kind": kind, "key": key, **state}, "at": at, "ms": None,
                        "rating": rating, "late_mark": None})
    return {"format": FORMAT, "version": VERSION, "settings": {}, "decks": [], "challenges": [], "plans": [],
            "positions": [], "sessions": list(sessions.values()), "answers": answers,
            "cards": [{**dict(zip(("lexicon", "kind", "key", *_OLD_CARD_FIELDS), row)), "deck": None,
                       "suspended": False} for row in cards]}
