"""Two faces, one member: a member's club progress as a `progress export` file, and one merged in.

The download is the local app's own backup format (`study.transfer`): the member's cards, and the
reviews that moved them as the local app's answers, so `lexitrain progress import` takes it as it
is; an upload is a file `lexitrain progress export` wrote, whose cards are
merged into the member's club cards by the local rule: a card takes the incoming state only when
it was reviewed more recently there, so uploading twice changes nothing. Removing a member hands
back their export first, read in the same transaction that deletes them.
"""

from __future__ import annotations

import json
import math
from datetime import datetime, timezone
from typing import Any

from lexitrain.club.cards import CARD_COLUMNS, CARD_FIELDS
from lexitrain.club.database import ClubDatabase, Tx
from lexitrain.club.members import Refused
from lexitrain.study.records.transfer import FORMAT, VERSION

#: The mode of the club's reviews when they are the local app's answers.
MODE = "club"
_INTEGERS = ("state", "cardbox", "correct", "incorrect", "streak")
_OPTIONAL_INTEGERS = ("step",)
_NUMBERS = ("added",)
_OPTIONAL_NUMBERS = ("stability", "difficulty", "due", "last_review")


def _export(tx: Tx, member_id: int, now: float) -> dict[str, Any]:
    rows = tx.rows(f"SELECT lexicon, kind, key, {CARD_COLUMNS} FROM member_cards WHERE member_id = ? "
                   "ORDER BY lexicon, kind, key", (member_id,))
    cards = [{**dict(zip(("lexicon", "kind", "key", *CARD_FIELDS), row)), "deck": None, "suspended": False}
             for row in rows]
    sessions, answers = _reviews(tx, member_id)
    return {"format": FORMAT, "version": VERSION, "exported": datetime.fromtimestamp(now, timezone.utc).isoformat(),
            "settings": {}, "cards": cards, "decks": [], "sessions": sessions, "answers": answers, "challenges": [],
            "plans": [], "positions": []}


def _reviews(tx: Tx, member_id: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The member's reviews as the local app's answers, one session per lexicon and source (`club study`,
    `club challenge`, `club table`), named by its first review, so an import twice adds nothing twice."""
    rows = tx.rows("SELECT lexicon, kind, key, source, given, correct, rating, at, before FROM member_reviews "
                   "WHERE member_id = ? ORDER BY id", (member_id,))
    sessions: dict[tuple[str, str], dict[str, Any]] = {}
    answers = []
    for lexicon, kind, key, source, given, correct, rating, at, before in rows:
        session = sessions.setdefault((lexicon, source), {
            "id": len(sessions) + 1, "mode": MODE, "lexicon": lexicon, "source": f"club {source}", "started": at,
            "ended": at, "complete": True})
        session["ended"] = at
        state = json.loads(before)
        answers.append({"session": session["id"], "mode": MODE, "lexicon": lexicon, "kind": kind, "key": key,
                        "given": given, "correct": bool(correct), "was_new": state["state"] == 0,
                        "before": {"lexicon": lexicon, "kind": kind, "key": key, **state}, "at": at, "ms": None,
                        "rating": rating, "late_mark": None})
    return list(sessions.values()), answers


def export_member(db: ClubDatabase, member_id: int, now: float) -> dict[str, Any]:
    with db.transaction() as tx:
        return _export(tx, member_id, now)


def member_id(db: ClubDatabase, name: str) -> int:
    """The id of the member of that name (404 when there is none)."""
    with db.transaction() as tx:
        row = tx.one("SELECT id FROM members WHERE name = ?", (name,))
    if row is None:
        raise Refused(404, f"no member named {name!r}")
    return int(row[0])


def remove_member(db: ClubDatabase, name: str, now: float) -> dict[str, Any]:
    """Delete a member and everything of theirs in the club's tables; their export, to hand to them
    (their own progress store goes next: `club.member_study`)."""
    with db.transaction() as tx:
        row = tx.one("SELECT id FROM members WHERE name = ?", (name,))
        if row is None:
            raise Refused(404, f"no member named {name!r}")
        export = _export(tx, int(row[0]), now)
        tx.run("DELETE FROM members WHERE id = ?", (row[0],))
    return export


def import_member(db: ClubDatabase, member_id: int, data: Any) -> dict[str, int]:
    """Merge an uploaded export's cards into the member's; how many were taken (new or newer there)."""
    cards = _checked_cards(data)
    taken = 0
    with db.transaction() as tx:
        for card in cards:
            values = tuple(card[name] for name in CARD_FIELDS)
            taken += tx.run(
                f"INSERT INTO member_cards (member_id, lexicon, kind, key, {CARD_COLUMNS}) "
                f"VALUES (?, ?, ?, ?, {', '.join('?' * len(CARD_FIELDS))}) ON CONFLICT (member_id, lexicon, kind, key) "
                f"DO UPDATE SET {', '.join(f'{c} = excluded.{c}' for c in CARD_FIELDS)}, version = member_cards.version + 1 "
                "WHERE excluded.last_review IS NOT NULL AND (member_cards.last_review IS NULL "
                "OR excluded.last_review > member_cards.last_review)",
                (member_id, card["lexicon"], card["kind"], card["key"], *values))
    return {"cards": taken}


def check_upload(data: Any) -> None:
    """Refuse (400) an upload whose cards are not all well formed, before any of it is merged."""
    _checked_cards(data)


def _checked_cards(data: Any) -> list[dict[str, Any]]:
    """The cards of an uploaded export, every value of the type it must have (else 400, nothing taken)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise Refused(400, f"not a lexitrain progress file (no \"format\": \"{FORMAT}\")")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version > VERSION:
        raise Refused(400, f"a progress file of version {version!r}: this club reads up to {VERSION}")
    cards = data.get("cards")
    if not isinstance(cards, list):
        raise Refused(400, "damaged progress file (\"cards\" is not a list); nothing was imported")
    for index, card in enumerate(cards):
        where = f"damaged progress file (card {index + 1}"
        if not isinstance(card, dict):
            raise Refused(400, f"{where} is not an object); nothing was imported")
        for name in ("lexicon", "kind", "key"):
            if not isinstance(card.get(name), str) or not card[name]:
                raise Refused(400, f"{where}: {name} is not a word); nothing was imported")
        for name in (*_INTEGERS, *_OPTIONAL_INTEGERS, *_NUMBERS, *_OPTIONAL_NUMBERS):
            value = card.get(name)
            optional = name in _OPTIONAL_INTEGERS or name in _OPTIONAL_NUMBERS
            whole = name in _INTEGERS or name in _OPTIONAL_INTEGERS
            good = (value is None and optional) or (
                not isinstance(value, bool) and isinstance(value, int if whole else (int, float))
                and math.isfinite(value) and abs(value) < 2**62)
            if not good:
                raise Refused(400, f"{where}: {name} is {value!r}); nothing was imported")
    return cards
