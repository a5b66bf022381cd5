"""Back up progress to one JSON file and merge such a file back in.

The file holds cards (by lexicon, kind and key, never by local id), sessions,
answers, challenge history, settings, the stored positions of the position
quiz (a position card's key is its CGP line, but the quiz draws from the
positions table) and, for reference, the plans' steps (a plan is set again
with `study plan`), the decks (by name, with their settings) and each card's
deck and suspension, each answer's grade, and the uploaded word lists (each list's latest version, a removal
too: the later version of a list wins on import, as in a sync). An export is one snapshot of a
sound file; an import checks every value and reference first (`backup_check`)
and merges: a card takes the incoming state if it was reviewed more recently
there, or has a schedule there and none here (never answered), answers and
sessions already present are not doubled, so importing twice changes nothing;
a deck already here keeps its settings, a card goes into the deck the backup
puts it in, and a card suspended there is suspended here. Each answer carries its stable id and the
way of scheduling that graded it (`schedulings`: each by its id), so an answer imported here is the
same answer a sync later brings (never counted twice); an answer of a backup written before answers
had ids gets the id its store gave it (`legacy_answer_uid`). A card the import gives a schedule, or
graded answers, keeps its schedule as a `set` event of the import's moment (`replay.set_schedule`).
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import tempfile
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

from lexitrain.errors import LexitrainError
from lexitrain.study.records.backup_check import BadBackup, check_backup
from lexitrain.study.quiz.replay import set_schedule
from lexitrain.study.quiz.scheduler import utc_now
from lexitrain.study.store import POSITION_FIELDS, AnswerRow, CardRow, Opening, ProgressStore
from lexitrain.study.store.uids import legacy_answer_uid
from lexitrain.study.store.word_lists import ListVersion

FORMAT = "lexitrain-progress"
VERSION = 1
_CARD_FIELDS = [f.name for f in fields(CardRow) if f.name != "id"]
_CHALLENGE_FIELDS = ("date", "kind", "lexicon", "score", "total", "seconds", "completed", "retake")
#: Fields a backup from an earlier lexitrain may lack, and what they were then.
_CHALLENGE_DEFAULTS = {"retake": False}
_DECK_FIELDS = ("lexicon", "name", "retention", "new_per_day", "reviews_per_day")


def export_progress(store: ProgressStore, path: Path) -> dict[str, int]:
    """Write everything to `path` (atomically), from one snapshot of a sound file; counts of what was written."""
    if not path.name or path.is_dir():  # `progress export ""` or a folder: there is no file to replace
        raise LexitrainError(f"{path}: is a folder; give the backup a file name, e.g. progress.json")
    store.check_integrity("the export")
    data = backup_data(store.export_rows())
    write_backup(data, path)
    return {"cards": len(data["cards"]), "answers": len(data["answers"]), "positions": len(data["positions"]),
            "lists": sum(version["words"] is not None for version in data["lists"])}


def backup_data(rows: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """A backup file's contents from the store's rows (`export_rows`)."""
    lexicon_of = {card["id"]: card["lexicon"] for card in rows["cards"]}
    deck_names = {deck["id"]: deck["name"] for deck in rows["decks"]}
    used = {a["scheduling"] for a in rows["answers"] if a["scheduling"] is not None}
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported": utc_now().isoformat(),
        "settings": {setting["name"]: setting["value"] for setting in rows["settings"]},
        "cards": [{**{k: v for k, v in card.items() if k not in ("id", "deck_id", "placed", "placed_seq")},
                   "deck": deck_names.get(card["deck_id"]), "suspended": bool(card["suspended"])}
                  for card in rows["cards"]],
        "decks": [{k: deck[k] for k in _DECK_FIELDS} for deck in rows["decks"]],
        "sessions": [{**{k: s[k] for k in ("id", "mode", "lexicon", "source", "started", "ended")},
                      "complete": bool(s["complete"])} for s in rows["sessions"]],
        "answers": [{
            "session": a["session_id"], "mode": a["mode"], "lexicon": lexicon_of.get(a["card_id"]), "kind": a["kind"],
            "key": a["key"], "given": a["given"], "correct": bool(a["correct"]), "was_new": bool(a["was_new"]),
            "before": a["before"], "at": a["at"], "ms": a["ms"], "rating": a["rating"],
            "late_mark": None if a.get("late_mark") is None else bool(a["late_mark"]),
            "uid": a["uid"], "scheduling": a["scheduling"],
        } for a in rows["answers"]],
        "schedulings": {way["id"]: json.loads(way["spec"]) for way in rows["schedulings"] if way["id"] in used},
        "challenges": [{"session": ch["session_id"], **{k: ch[k] for k in _CHALLENGE_FIELDS}} for ch in rows["challenges"]],
        "plans": [{k: plan[k] for k in ("lexicon", "name", "spec")} for plan in rows["plans"]],
        "positions": [{k: p[k] for k in POSITION_FIELDS} for p in rows["positions"]],
        "lists": rows["lists"],
    }


def write_backup(data: dict[str, Any], path: Path) -> None:
    """Write a backup's JSON beside `path`, then move it into place whole."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise LexitrainError(f"{path}: cannot write the backup ({exc.strerror or exc})") from None


def read_backup(path: Path) -> Any:
    """The backup's JSON (what it holds is checked as it is merged); a UTF-8 byte-order mark (a backup opened
    and saved in Notepad) is allowed. A copy of a progress database (an automatic backup, `progress backups`)
    is read as if exported."""
    if _is_sqlite(path):
        return _database_backup(path)
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
    return data


def _check_header(data: Any, name: str) -> None:
    """Refuse what is not a progress file's contents, or one of a newer lexitrain (NAME: what messages call it)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise LexitrainError(f"{name}: not a lexitrain progress file (no \"format\": \"{FORMAT}\")")
    version = data.get("version", 0)
    if not isinstance(version, int) or isinstance(version, bool):
        raise LexitrainError(f"{name}: damaged progress file (\"version\" is {version!r}, not a number); "
                             "nothing was imported")
    if version > VERSION:
        raise LexitrainError(f"{name} was written by a newer lexitrain (version {data['version']}); upgrade to read it")


def _is_sqlite(path: Path) -> bool:
    try:
        with path.open("rb") as file:
            return file.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False


def _database_backup(path: Path) -> dict[str, Any]:
    """A progress database's rows as a backup, read from a copy of it (upgraded there if it is older,
    the original never written to)."""
    with tempfile.TemporaryDirectory(prefix="lexitrain-restore-") as folder:
        copy = Path(folder) / "progress.sqlite"
        try:
            shutil.copyfile(path, copy)
        except OSError as exc:
            raise LexitrainError(f"{path}: cannot read ({exc.strerror or exc})") from None
        with ProgressStore(copy) as backup:
            backup.check_integrity("the import")
            return backup_data(backup.export_rows())


def import_progress(store: ProgressStore, path: Path) -> dict[str, Any]:
    """Merge a backup into the store; counts of cards updated, answers and positions added, and
    `merged`: how many cards were added, taken from the backup (newer there, or scheduled there and
    never answered here) and kept as they are here."""
    return merge_backup(store, read_backup(path), str(path))


def merge_backup(store: ProgressStore, data: Any, name: str) -> dict[str, Any]:
    """Merge a backup's contents already read (a club's upload, an export in memory) as `import_progress`
    does a file's; NAME is what its messages call it."""
    _check_header(data, name)
    try:
        check_backup(data)
    except BadBackup as exc:
        raise LexitrainError(f"{name}: damaged progress file ({exc}); nothing was imported") from None
    store.check_integrity("the import")
    try:
        return _merge(store, data)
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError,
            sqlite3.IntegrityError, sqlite3.InterfaceError, sqlite3.ProgrammingError) as exc:
        raise LexitrainError(f"{name}: damaged progress file ({exc!r}); nothing was imported") from None


def _merge(store: ProgressStore, data: dict[str, Any]) -> dict[str, Any]:
    """Everything in one transaction: a damaged file leaves the store as it was."""
    with store.transaction():
        ids, merged = _merge_cards(store, data)
        _merge_decks(store, data, ids)
        sessions = {s["id"]: store.session_for(Opening(s["mode"], s["lexicon"], s["source"], s["started"], shared=True,
                                                       ended=s["ended"], complete=bool(s.get("complete", False))))
                    for s in data["sessions"]}  # ("complete": not in older backups)
        ways = data.get("schedulings", {})
        graded: set[int] = set()
        uids = _answer_uids(data)
        known = store.answers_here(uids)
        given = store.answers_in(sessions.values())
        rows = []
        for answer, uid in zip(data["answers"], uids):
            session_id = sessions[answer["session"]]
            place = (session_id, answer["kind"], answer["key"], float(answer["at"]))
            if uid in known or place in given:
                continue
            given.add(place)
            card_id = ids.get((answer["lexicon"], answer["kind"], answer["key"])) if answer["lexicon"] else None
            before = CardRow(**{**answer["before"], "id": card_id}) if answer["before"] else None
            way = answer.get("scheduling")
            if way is not None and card_id is not None:
                graded.add(card_id)
            rows.append(AnswerRow(
                session_id=session_id, mode=answer["mode"], card_id=card_id, kind=answer["kind"], key=answer["key"],
                given=answer["given"], correct=bool(answer["correct"]), was_new=bool(answer["was_new"]), before=before,
                at=answer["at"], ms=answer["ms"], rating=answer.get("rating"), late_mark=answer.get("late_mark"),
                uid=uid, scheduling=way if card_id is not None else None))
        for way in {row.scheduling for row in rows if row.scheduling is not None}:
            store.keep_scheduling(way, ways[way])
        store.add_answers(rows)
        added = len(rows)
        now = utc_now().timestamp()
        for card_id in graded - set(merged.pop("set")):  # (the schedule kept here stands: the import's verdict)
            set_schedule(store, store.card(card_id), now)
        store.add_challenges([{"session_id": sessions[ch["session"]],
                               **{k: ch[k] if k in ch else _CHALLENGE_DEFAULTS[k] for k in _CHALLENGE_FIELDS}}
                              for ch in data["challenges"]])
        # backups from before positions were kept have none
        added_positions = store.add_positions(data.get("positions", []))
        # plan ids are local: a plan is set again with `study plan`
        store.add_settings({name: value for name, value in data["settings"].items() if not name.startswith("plan:")})
        # backups from before lists travelled have none; a list's latest version wins, a removal included
        lists = sum(store.take_list_version(ListVersion(**version)) for version in data.get("lists", []))
        updated = merged["added"] + merged["backup_newer"] + merged["scheduled_over_new"]
        return {"cards": updated, "answers": added, "positions": added_positions, "lists": lists, "merged": merged}


def _answer_uids(data: dict[str, Any]) -> list[str]:
    """Each answer's stable id: its own, or (a backup from before answers had ids) the one its store gave it."""
    sessions = {s["id"]: s for s in data["sessions"]}
    repeats: dict[tuple[Any, ...], int] = {}
    uids = []
    for answer in data["answers"]:
        if answer.get("uid") is not None:
            uids.append(answer["uid"])
            continue
        session = sessions[answer["session"]]
        name = (session["mode"], session["lexicon"], session["source"], session["started"], answer["kind"],
                answer["key"], answer["at"])
        repeats[name] = repeats.get(name, -1) + 1
        uids.append(legacy_answer_uid(*name, repeat=repeats[name]))
    return uids


def _merge_cards(store: ProgressStore, data: dict[str, Any]) -> tuple[dict[tuple[str, str, str], int], dict[str, Any]]:
    """The local card id of every (lexicon, kind, key) the backup names, and how each card merged.

    A card not here yet is made with the backup's state whole (when it was added included), so a
    never-answered card, or one imported from a cardbox and not reviewed since, comes back exactly.
    A card here takes the backup's state if it was reviewed more recently there, or if it has a
    schedule there and none here (never answered: a schedule is never dropped for a new card);
    otherwise it is kept as it is here."""
    cards = data["cards"]
    now = utc_now().timestamp()
    added = {(c["lexicon"], c["kind"], c["key"]): c["added"] for c in cards}
    names = dict.fromkeys([*added, *((a["lexicon"], a["kind"], a["key"]) for a in data["answers"] if a["lexicon"])])
    made = set(names) - set(store.card_ids_named(names))
    ids = store.make_cards((*name, added.get(name, now)) for name in names)
    rows = {card.id: card for card in store.card_rows(ids[name] for name in added)}
    merged: dict[str, Any] = {"added": 0, "backup_newer": 0, "scheduled_over_new": 0, "kept_here": 0, "set": []}
    for incoming in cards:
        name = (incoming["lexicon"], incoming["kind"], incoming["key"])
        here = rows[ids[name]]
        if name in made:
            how = "added"
        elif (incoming["last_review"] or 0) > (here.last_review or 0):
            how = "backup_newer"
        elif _scheduled(incoming) and not _scheduled(asdict(here)):
            how = "scheduled_over_new"
        else:
            merged["kept_here"] += 1
            continue
        set_schedule(store, CardRow(id=ids[name], **{f: incoming[f] for f in _CARD_FIELDS}), now)
        merged["set"].append(ids[name])
        merged[how] += 1
    return ids, merged


def _scheduled(card: dict[str, Any]) -> bool:
    """Whether a card has a schedule or history (answered, or given a due date by a cardbox import)."""
    return bool(card["state"] or card["due"] is not None or card["last_review"] is not None
                or card["correct"] or card["incorrect"])


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
