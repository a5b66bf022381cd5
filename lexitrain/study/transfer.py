"""Back up progress to one JSON file and merge such a file back in.

The file holds cards (by lexicon, kind and key, never by local id), sessions,
answers, challenge history, settings, the stored positions of the position
quiz (a position card's key is its CGP line, but the quiz draws from the
positions table) and, for reference, the plans' steps (a plan is set again
with `study plan`), the decks (by name, with their settings) and each card's
deck and suspension, and each answer's grade. Importing merges: a card takes
the incoming state only if it was reviewed more recently there, answers and
sessions already present are not doubled, so importing twice changes nothing;
a deck already here keeps its settings, a card goes into the deck the backup
puts it in, and a card suspended there is suspended here.
"""

from __future__ import annotations

import json
import math
import os
import sqlite3
from dataclasses import fields
from pathlib import Path
from typing import Any

from lexitrain.errors import LexitrainError
from lexitrain.study.scheduler import utc_now
from lexitrain.study.store import POSITION_FIELDS, AnswerRow, CardRow, ProgressStore
from lexitrain.study.store.connection import SQL_INT_MAX

FORMAT = "lexitrain-progress"
VERSION = 1
_CARD_FIELDS = [f.name for f in fields(CardRow) if f.name != "id"]
_CHALLENGE_FIELDS = ("date", "kind", "lexicon", "score", "total", "seconds", "completed", "retake")
#: Fields a backup from an earlier lexitrain may lack, and what they were then.
_CHALLENGE_DEFAULTS = {"retake": False}
_DECK_FIELDS = ("lexicon", "name", "retention", "new_per_day", "reviews_per_day")


def export_progress(store: ProgressStore, path: Path) -> dict[str, int]:
    """Write everything to `path` (atomically); counts of what was written."""
    if not path.name or path.is_dir():  # `progress export ""` or a folder: there is no file to replace
        raise LexitrainError(f"{path}: is a folder; give the backup a file name, e.g. progress.json")
    rows = store.export_rows()
    lexicon_of = {card["id"]: card["lexicon"] for card in rows["cards"]}
    deck_names = {deck["id"]: deck["name"] for deck in rows["decks"]}
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "exported": utc_now().isoformat(),
        "settings": store.all_settings(),
        "cards": [{**{k: v for k, v in card.items() if k not in ("id", "deck_id")},
                   "deck": deck_names.get(card["deck_id"]), "suspended": bool(card["suspended"])}
                  for card in rows["cards"]],
        "decks": [{k: deck[k] for k in _DECK_FIELDS} for deck in rows["decks"]],
        "sessions": [{**{k: s[k] for k in ("id", "mode", "lexicon", "source", "started", "ended")},
                      "complete": bool(s["complete"])} for s in rows["sessions"]],
        "answers": [{
            "session": a["session_id"], "mode": a["mode"], "lexicon": lexicon_of.get(a["card_id"]), "kind": a["kind"],
            "key": a["key"], "given": a["given"], "correct": bool(a["correct"]), "was_new": bool(a["was_new"]),
            "before": a["before"], "at": a["at"], "ms": a["ms"], "rating": a["rating"],
        } for a in rows["answers"]],
        "challenges": [{"session": ch["session_id"], **{k: ch[k] for k in _CHALLENGE_FIELDS}} for ch in rows["challenges"]],
        "plans": [{k: plan[k] for k in ("lexicon", "name", "spec")} for plan in rows["plans"]],
        "positions": [{k: p[k] for k in POSITION_FIELDS} for p in rows["positions"]],
    }
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise LexitrainError(f"{path}: cannot write the backup ({exc.strerror or exc})") from None
    return {"cards": len(data["cards"]), "answers": len(data["answers"]), "positions": len(data["positions"])}


def read_backup(path: Path) -> dict[str, Any]:
    """The backup's JSON; a UTF-8 byte-order mark (a backup opened and saved in Notepad) is allowed."""
    try:
        data = json.loads(path.read_text(encoding="utf-8-sig"))
    except FileNotFoundError:
        raise LexitrainError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise LexitrainError(f"{path}: is a folder, not a lexitrain progress file") from None
    except UnicodeDecodeError:
        raise LexitrainError(f"{path}: not a lexitrain progress file (not UTF-8 text)") from None
    except json.JSONDecodeError as exc:
        raise LexitrainError(f"{path}:{exc.lineno}: not a lexitrain progress file ({exc.msg})") from None
    except OSError as exc:
        raise LexitrainError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise LexitrainError(f"{path}: not a lexitrain progress file (no \"format\": \"{FORMAT}\")")
    version = data.get("version", 0)
    if not isinstance(version, int) or isinstance(version, bool):
        raise LexitrainError(f"{path}: damaged progress file (\"version\" is {version!r}, not a number); "
                             "nothing was imported")
    if version > VERSION:
        raise LexitrainError(f"{path} was written by a newer lexitrain (version {data['version']}); upgrade to read it")
    return data


def import_progress(store: ProgressStore, path: Path) -> dict[str, int]:
    """Merge a backup into the store; counts of cards updated, answers and positions added."""
    data = read_backup(path)
    try:
        _check_values(data)
        return _merge(store, data)
    except _DamagedBackup as exc:
        raise LexitrainError(f"{path}: damaged progress file ({exc}); nothing was imported") from None
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError,
            sqlite3.IntegrityError, sqlite3.InterfaceError, sqlite3.ProgrammingError) as exc:
        raise LexitrainError(f"{path}: damaged progress file ({exc!r}); nothing was imported") from None


class _DamagedBackup(Exception):
    """A value of the wrong type in a backup, said by where it is."""


#: What each value of a backup's rows must be, for the values the database stores as numbers or text:
#: a hand-edited backup with "x" for a due date would otherwise be stored and break the next review.
_NUMBER, _TEXT, _INT = (int, float), (str,), (int,)
_ROW_VALUES: dict[str, dict[str, tuple[tuple[type, ...], bool]]] = {  # list -> field -> (types, None allowed)
    "cards": {"lexicon": (_TEXT, False), "kind": (_TEXT, False), "key": (_TEXT, False), "state": (_INT, False),
              "step": (_INT, True), "stability": (_NUMBER, True), "difficulty": (_NUMBER, True),
              "due": (_NUMBER, True), "last_review": (_NUMBER, True), "cardbox": (_INT, False),
              "correct": (_INT, False), "incorrect": (_INT, False), "streak": (_INT, False),
              "added": (_NUMBER, False), "deck": (_TEXT, True)},
    "decks": {"lexicon": (_TEXT, False), "name": (_TEXT, False), "retention": (_NUMBER, True),
              "new_per_day": (_INT, True), "reviews_per_day": (_INT, True)},
    "sessions": {"id": (_INT, False), "mode": (_TEXT, False), "lexicon": (_TEXT, False), "source": (_TEXT, False),
                 "started": (_NUMBER, False), "ended": (_NUMBER, True)},
    "answers": {"session": (_INT, False), "mode": (_TEXT, False), "lexicon": (_TEXT, True), "kind": (_TEXT, False),
                "key": (_TEXT, False), "given": (_TEXT, False), "at": (_NUMBER, False), "ms": (_INT, True),
                "rating": (_INT, True)},
}


def _check_values(data: dict[str, Any]) -> None:
    """Every list a list of objects and every stored value of the right type, before anything is written."""
    if not isinstance(data.get("settings", {}), dict):
        raise _DamagedBackup('"settings" is not an object')
    for name in ("cards", "sessions", "answers", "challenges", "plans", "positions", "decks"):
        rows = data.get(name, [])
        if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
            raise _DamagedBackup(f'"{name}" is not a list of objects')
        for number, row in enumerate(rows, start=1):
            for field, (types, nullable) in _ROW_VALUES.get(name, {}).items():
                value = row.get(field)
                if value is None and (nullable or field not in row):
                    continue  # a missing field is the merge's KeyError, or a default from an older backup
                if (isinstance(value, bool) or not isinstance(value, types)
                        or (isinstance(value, float) and not math.isfinite(value))
                        or (isinstance(value, int) and abs(value) > SQL_INT_MAX)):
                    raise _DamagedBackup(f"{name} #{number}: {field} is {value!r}")


def _merge(store: ProgressStore, data: dict[str, Any]) -> dict[str, int]:
    """Everything in one transaction: a damaged file leaves the store as it was."""
    with store.transaction():
        ids, updated = _merge_cards(store, data)
        _merge_decks(store, data, ids)
        sessions = {s["id"]: store.merge_session(s["mode"], s["lexicon"], s["source"], s["started"], s["ended"],
                                                 bool(s.get("complete", False)))  # (not in older backups)
                    for s in data["sessions"]}
        added = 0
        for answer in data["answers"]:
            session_id = sessions[answer["session"]]
            if store.has_answer(session_id, answer["kind"], answer["key"], answer["at"]):
                continue
            card_id = ids.get((answer["lexicon"], answer["kind"], answer["key"])) if answer["lexicon"] else None
            before = CardRow(**{**answer["before"], "id": card_id}) if answer["before"] else None
            store.record_answer(AnswerRow(
                session_id=session_id, mode=answer["mode"], card_id=card_id, kind=answer["kind"], key=answer["key"],
                given=answer["given"], correct=bool(answer["correct"]), was_new=bool(answer["was_new"]), before=before,
                at=answer["at"], ms=answer["ms"], rating=answer.get("rating")))
            added += 1
        store.add_challenges([{"session_id": sessions[ch["session"]],
                               **{k: ch[k] if k in ch else _CHALLENGE_DEFAULTS[k] for k in _CHALLENGE_FIELDS}}
                              for ch in data["challenges"]])
        # backups from before positions were kept have none
        added_positions = store.add_positions(data.get("positions", []))
        # plan ids are local: a plan is set again with `study plan`
        store.add_settings({name: value for name, value in data["settings"].items() if not name.startswith("plan:")})
        return {"cards": updated, "answers": added, "positions": added_positions}


def _merge_cards(store: ProgressStore, data: dict[str, Any]) -> tuple[dict[tuple[str, str, str], int], int]:
    """The local card id of every (lexicon, kind, key) the backup names, and how many cards took its state.

    A card not here yet is made with the backup's state whole (when it was added included), so a
    never-answered card, or one imported from a cardbox and not reviewed since, comes back exactly;
    a card here takes the backup's state only if it was reviewed more recently there."""
    cards = data["cards"]
    now = utc_now().timestamp()
    added = {(c["lexicon"], c["kind"], c["key"]): c["added"] for c in cards}
    ids: dict[tuple[str, str, str], int] = {}
    made: set[tuple[str, str, str]] = set()
    for lexicon, kind, key in [*added, *((a["lexicon"], a["kind"], a["key"]) for a in data["answers"] if a["lexicon"])]:
        if (lexicon, kind, key) not in ids:
            if store.find_card(lexicon, kind, key) is None:
                made.add((lexicon, kind, key))
            ids[(lexicon, kind, key)] = store.ensure_card(lexicon, kind, key, added.get((lexicon, kind, key), now))
    updated = 0
    for incoming in cards:
        name = (incoming["lexicon"], incoming["kind"], incoming["key"])
        if name in made or (incoming["last_review"] or 0) > (store.card(ids[name]).last_review or 0):
            store.save_card(CardRow(id=ids[name], **{f: incoming[f] for f in _CARD_FIELDS}))
            updated += 1
    return ids, updated


def _merge_decks(store: ProgressStore, data: dict[str, Any], ids: dict[tuple[str, str, str], int]) -> None:
    """The backup's decks (one already here keeps its settings), then each card's deck and
    suspension where the backup sets them; backups from before decks have neither."""
    for deck in data.get("decks", []):
        if store.deck(deck["lexicon"], deck["name"]) is None:
            store.save_deck(deck["lexicon"], deck["name"], deck["retention"], deck["new_per_day"],
                            deck["reviews_per_day"], utc_now().timestamp())
    decks = {(d.lexicon, d.name): d.id for lexicon in {c["lexicon"] for c in data["cards"]} for d in store.decks(lexicon)}
    members: dict[int, list[int]] = {}
    for card in data["cards"]:
        card_id = ids[(card["lexicon"], card["kind"], card["key"])]
        if card.get("deck") is not None:
            members.setdefault(decks[(card["lexicon"], card["deck"])], []).append(card_id)
    for deck_id, card_ids in members.items():
        store.move_cards(card_ids, deck_id)
    store.set_suspended((ids[(c["lexicon"], c["kind"], c["key"])] for c in data["cards"] if c.get("suspended")), True)
