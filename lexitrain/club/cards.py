"""A member's cards on the club server: read with their version, written only if nothing moved, each
scheduling recorded as a review.

A member's card is the local app's card (`CardRow`: the same FSRS state and counters, scheduled by
the same `Scheduling`), kept in `member_cards` with a `version` that every write moves on. A write
names the version it read and changes nothing when the card moved since (`UPDATE ... WHERE version
= ?`, `INSERT ... ON CONFLICT DO NOTHING` for a card not there yet): two devices answering one card,
or a study answer racing a challenge's finish, can never both write from the same old state, on
SQLite as on PostgreSQL, in one process or several. A write that must land (a challenge's finish,
a table's find) reads again and schedules from what is there now.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from datetime import datetime, timezone
from typing import Any

from lexitrain.club.database import ClubDatabase, Tx
from lexitrain.club.members import Refused
from lexitrain.study.quiz.scheduler import AGAIN, GOOD, Scheduling
from lexitrain.study.store import CardRow

#: The scheduling columns a member's card has (a local card's, less its id and deck).
CARD_FIELDS = ("state", "step", "stability", "difficulty", "due", "last_review", "cardbox", "correct", "incorrect",
               "streak", "added")
CARD_COLUMNS = ", ".join(CARD_FIELDS)
#: How often a write that must land reads the card again after another write moved it first.
RETRIES = 8
_WHICH = "member_id = ? AND lexicon = ? AND kind = ? AND key = ?"


class Moved(Refused):
    """The card changed since it was read (answered on another device, or by a challenge): nothing written."""

    def __init__(self, kind: str, key: str) -> None:
        super().__init__(409, f"the card {kind}:{key} was answered elsewhere since it was shown; "
                              "nothing was recorded: ask for it again")


def card_values(card: CardRow) -> tuple[Any, ...]:
    return tuple(getattr(card, name) for name in CARD_FIELDS)


def new_card(lexicon: str, kind: str, key: str, now: float) -> CardRow:
    return CardRow(0, lexicon, kind, key, 0, None, None, None, None, None, 0, 0, 0, 0, now)


def read_card(tx: Tx, member_id: int, lexicon: str, kind: str, key: str) -> tuple[CardRow, int] | None:
    """The member's card and its version, or None when they have no such card."""
    row = tx.one(f"SELECT {CARD_COLUMNS}, version FROM member_cards WHERE {_WHICH}", (member_id, lexicon, kind, key))
    if row is None:
        return None
    return CardRow(0, lexicon, kind, key, *row[:-1]), int(row[-1])


def write_card(tx: Tx, member_id: int, card: CardRow, version: int | None) -> bool:
    """Store the card if the stored one is still at `version` (None: no card there yet); whether it was."""
    which = (member_id, card.lexicon, card.kind, card.key)
    if version is None:
        return tx.run(f"INSERT INTO member_cards (member_id, lexicon, kind, key, {CARD_COLUMNS}, version) "
                      f"VALUES (?, ?, ?, ?, {', '.join('?' * len(CARD_FIELDS))}, 1) ON CONFLICT DO NOTHING",
                      (*which, *card_values(card))) == 1
    return tx.run(f"UPDATE member_cards SET {', '.join(f'{c} = ?' for c in CARD_FIELDS)}, version = version + 1 "
                  f"WHERE {_WHICH} AND version = ?", (*card_values(card), *which, version)) == 1


def record_review(tx: Tx, member_id: int, before: CardRow, after: CardRow, source: str, given: str,
                  rating: int, now: float) -> None:
    """Keep the answer that moved a card: what was given, the grade, and the card as it was (as the
    local app's answers keep it)."""
    state = {name: getattr(before, name) for name in CARD_FIELDS}
    tx.run("INSERT INTO member_reviews (member_id, lexicon, kind, key, source, given, correct, rating, at, before) "
           "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
           (member_id, after.lexicon, after.kind, after.key, source, given, rating != AGAIN, rating, now,
            json.dumps(state)))


def review_cards(tx: Tx, member_id: int, lexicon: str, answers: list[tuple[str, str, bool]], now: float,
                 source: str) -> None:
    """Schedule the member's card of each (kind, key) answered right (Good) or wrong (Again), as the
    local app does, made when new; a card another transaction moved meanwhile is read again."""
    when = datetime.fromtimestamp(now, timezone.utc)
    scheduling = Scheduling()
    for kind, key, correct in answers:
        rating = GOOD if correct else AGAIN
        for _ in range(RETRIES):
            read = read_card(tx, member_id, lexicon, kind, key)
            before, version = read if read is not None else (new_card(lexicon, kind, key, now), None)
            after = scheduling.grade(before, rating, when)
            if write_card(tx, member_id, after, version):
                record_review(tx, member_id, before, after, source, "", rating, now)
                break
        else:
            raise Moved(kind, key)


def member_cards(db: ClubDatabase, member_id: int) -> list[dict[str, Any]]:
    with db.transaction() as tx:
        rows = tx.rows(f"SELECT lexicon, kind, key, {CARD_COLUMNS} FROM member_cards WHERE member_id = ? "
                       "ORDER BY lexicon, kind, key", (member_id,))
    return [dict(zip(("lexicon", "kind", "key", *CARD_FIELDS), row)) for row in rows]


def card_json(card: CardRow, version: int) -> dict[str, Any]:
    """A card as the study routes show it: its scheduling and the version an answer names."""
    return {**{k: v for k, v in asdict(card).items() if k != "id"}, "version": version}
