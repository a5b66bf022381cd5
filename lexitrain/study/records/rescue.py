"""`progress rescue`: a damaged progress file's readable rows, as a backup `progress import` takes.

The store reads what it can (`study.store.rescue`); here the rows become a
backup like an export's, and what cannot be restored whole is left out and
counted, never guessed: a row whose values are out of range, an answer or
challenge whose session was on a damaged page, a card's deck that was lost
(the card stays, in no deck). The backup then passes the import's checks.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from lexitrain.errors import LexitrainError
from lexitrain.study.records.backup_check import BadBackup, check_backup
from lexitrain.study.store.rescue import rescue_rows
from lexitrain.study.records.transfer import backup_data, write_backup

_LISTS = ("cards", "decks", "sessions", "answers", "challenges", "plans", "positions", "lists")


def rescue(source: Path, target: Path) -> dict[str, Any]:
    """Write the readable, whole rows of `source` to the backup `target`; what was saved and lost."""
    if not target.name or target.is_dir():
        raise LexitrainError(f"{target}: is a folder; give the rescued backup a file name, e.g. rescued.json")
    rescued = rescue_rows(source)
    rows = rescued.rows
    for row in rows["answers"]:
        row["before"] = _decoded(row.get("before"))
    for row in rows["plans"]:
        row["spec"] = _decoded(row.get("spec"))
    rows["settings"] = [{"name": row["name"], "value": _decoded(row["value"])} for row in rows["settings"]
                        if isinstance(row.get("name"), str)]
    rows["lists"] = [{"name": row.get("name"), "uid": row.get("uid"), "changed": row.get("changed"),
                      "words": None if row.get("removed") else row.get("words")} for row in rows.pop("word_lists")]
    try:
        data = backup_data(rows)
    except (KeyError, TypeError, ValueError) as exc:
        raise LexitrainError(f"{source}: the rows read are not a lexitrain progress database's ({exc!r})") from None
    left_out = _leave_out_what_cannot_be_restored(data)
    write_backup(data, target)
    return {"file": str(target), "saved": {name: len(data[name]) for name in _LISTS},
            "unreadable": rescued.unreadable, "tables_lost": rescued.missing_tables, "left_out": left_out}


def _decoded(text: Any) -> Any:
    try:
        return json.loads(text) if isinstance(text, str) else text
    except ValueError:
        return None


def _leave_out_what_cannot_be_restored(data: dict[str, Any]) -> dict[str, int]:
    """Drop the rows the import's check would refuse: first in one pass the answers and challenges
    whose session was lost (a card whose deck was lost stays, in no deck), then, one at a time, the
    row (or setting) the check names, until the backup passes. How many rows of each list were dropped."""
    dropped: dict[str, int] = {}
    decks = {(deck.get("lexicon"), deck.get("name")) for deck in data["decks"]}
    for card in data["cards"]:
        if card.get("deck") is not None and (card.get("lexicon"), card["deck"]) not in decks:
            card["deck"] = None
    ways = data["schedulings"]
    for answer in data["answers"]:  # (a way of scheduling lost: the answer stays, graded by none)
        if answer.get("scheduling") is not None and answer["scheduling"] not in ways:
            answer["scheduling"] = None
    sessions = {session.get("id") for session in data["sessions"]}
    for name in ("answers", "challenges"):
        kept = [row for row in data[name] if row.get("session") in sessions]
        if len(kept) < len(data[name]):
            dropped[name] = len(data[name]) - len(kept)
            data[name] = kept
    while True:
        try:
            check_backup(data)
            return dropped
        except BadBackup as exc:
            if exc.where is None:
                raise LexitrainError(f"the rows read cannot make a backup ({exc})") from None
            name, place = exc.where
            if name in ("settings", "schedulings"):
                data[name].pop(place)
            else:
                del data[name][int(place) - 1]
            dropped[name] = dropped.get(name, 0) + 1
