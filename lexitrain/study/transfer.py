"""Back up progress to one JSON file and merge such a file back in.

The file holds cards (by lexicon, kind and key, never by local id), sessions,
answers, challenge history, settings, the stored positions of the position
quiz (a position card's key is its CGP line, but the quiz draws from the
positions table) and, for reference, the plans' steps (a plan is set again
with `study plan`). Importing merges: a card takes
the incoming state only if it was reviewed more recently there, answers and
sessions already present are not doubled, so importing twice changes nothing.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict
from pathlib import Path
from typing import Any

from lexitrain.errors import LexitrainError
from lexitrain.study.positions import open_table
from lexitrain.study.scheduler import utc_now
from lexitrain.study.store import CARD_COLUMNS, CardRow, ProgressStore

FORMAT = "lexitrain-progress"
VERSION = 1
_CARD_FIELDS = [c.strip() for c in CARD_COLUMNS.split(",") if c.strip() != "id"]
_POSITION_FIELDS = ("lexicon", "cgp", "source", "top_score", "top_play", "top_word", "top_length", "bingo", "blank",
                    "margin", "top_rank", "plays", "added")


def export_progress(store: ProgressStore, path: Path) -> dict[str, int]:
    """Write everything to `path` (atomically); counts of what was written."""
    conn = store.conn
    cards = {row[0]: row for row in conn.execute(f"SELECT {CARD_COLUMNS} FROM cards")}
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "exported": utc_now().isoformat(),
        "settings": {name: json.loads(value) for name, value in conn.execute("SELECT name, value FROM settings")},
        "cards": [{k: v for k, v in asdict(CardRow(*row)).items() if k != "id"} for row in cards.values()],
        "sessions": [dict(zip(("id", "mode", "lexicon", "source", "started", "ended"), row))
                     for row in conn.execute("SELECT id, mode, lexicon, source, started, ended FROM sessions")],
        "answers": [],
        "challenges": [dict(zip(("session", "date", "kind", "lexicon", "score", "total", "seconds", "completed"), row))
                       for row in conn.execute("SELECT session_id, date, kind, lexicon, score, total, seconds, "
                                               "completed FROM challenges")],
        "plans": [dict(zip(("lexicon", "name", "spec"), (r[0], r[1], json.loads(r[2]))))
                  for r in conn.execute("SELECT lexicon, name, spec FROM plans")],
    }
    if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'positions'").fetchone():
        data["positions"] = [dict(zip(_POSITION_FIELDS, row))
                             for row in conn.execute(f"SELECT {', '.join(_POSITION_FIELDS)} FROM positions")]
    else:
        data["positions"] = []
    for row in conn.execute("SELECT session_id, mode, card_id, kind, key, given, correct, was_new, before, at, ms "
                            "FROM answers ORDER BY id"):
        card = cards.get(row[2])
        data["answers"].append({
            "session": row[0], "mode": row[1], "lexicon": card[1] if card else None, "kind": row[3], "key": row[4],
            "given": row[5], "correct": bool(row[6]), "was_new": bool(row[7]),
            "before": json.loads(row[8]) if row[8] else None, "at": row[9], "ms": row[10],
        })
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
    except (OSError, ValueError) as exc:
        raise LexitrainError(f"{path}: not a lexitrain progress file ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise LexitrainError(f"{path}: not a lexitrain progress file (no \"format\": \"{FORMAT}\")")
    if int(data.get("version", 0)) > VERSION:
        raise LexitrainError(f"{path} was written by a newer lexitrain (version {data['version']}); upgrade to read it")
    return data


def import_progress(store: ProgressStore, path: Path) -> dict[str, int]:
    """Merge a backup into the store; counts of cards updated, answers and positions added."""
    data = read_backup(path)
    try:
        return _merge(store, data)
    except (KeyError, TypeError, ValueError) as exc:
        raise LexitrainError(f"{path}: damaged progress file ({exc!r}); nothing was imported") from None


def _merge(store: ProgressStore, data: dict[str, Any]) -> dict[str, int]:
    cards = data["cards"]
    now = utc_now().timestamp()
    ids: dict[tuple[str, str, str], int] = {}
    for lexicon in {c["lexicon"] for c in cards} | {a["lexicon"] for a in data["answers"] if a["lexicon"]}:
        pairs = [(c["kind"], c["key"]) for c in cards if c["lexicon"] == lexicon]
        pairs += [(a["kind"], a["key"]) for a in data["answers"] if a["lexicon"] == lexicon]
        pairs = list(dict.fromkeys(pairs))
        for (kind, key), card_id in zip(pairs, store.ensure_cards(lexicon, pairs, now)):
            ids[(lexicon, kind, key)] = card_id
    positions = data.get("positions", [])  # backups from before positions were kept have none
    if positions:
        open_table(store)
    updated = added = added_positions = 0
    with store.write() as conn:
        for incoming in cards:
            card_id = ids[(incoming["lexicon"], incoming["kind"], incoming["key"])]
            mine = store.card(card_id)
            if (incoming["last_review"] or 0) > (mine.last_review or 0):
                store.save_card(conn, CardRow(id=card_id, **{f: incoming[f] for f in _CARD_FIELDS}))
                updated += 1
        sessions: dict[int, int] = {}
        for session in data["sessions"]:
            row = conn.execute("SELECT id FROM sessions WHERE mode = ? AND lexicon = ? AND started = ?",
                               (session["mode"], session["lexicon"], session["started"])).fetchone()
            if row is None:
                row = (conn.execute("INSERT INTO sessions (mode, lexicon, source, started, ended) VALUES (?, ?, ?, ?, ?)",
                                    (session["mode"], session["lexicon"], session["source"], session["started"],
                                     session["ended"])).lastrowid,)
            sessions[session["id"]] = row[0]
        for answer in data["answers"]:
            session_id = sessions[answer["session"]]
            exists = conn.execute("SELECT 1 FROM answers WHERE session_id = ? AND kind = ? AND key = ? AND at = ?",
                                  (session_id, answer["kind"], answer["key"], answer["at"])).fetchone()
            if exists:
                continue
            card_id = ids.get((answer["lexicon"], answer["kind"], answer["key"])) if answer["lexicon"] else None
            before = answer["before"] and {**answer["before"], "id": card_id}
            conn.execute(
                "INSERT INTO answers (session_id, mode, card_id, kind, key, given, correct, was_new, before, at, ms) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (session_id, answer["mode"], card_id, answer["kind"], answer["key"], answer["given"],
                 int(answer["correct"]), int(answer["was_new"]),
                 json.dumps(before) if before else None, answer["at"], answer["ms"]),
            )
            added += 1
        for ch in data["challenges"]:
            conn.execute(
                "INSERT OR IGNORE INTO challenges (session_id, date, kind, lexicon, score, total, seconds, completed) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (sessions[ch["session"]], ch["date"], ch["kind"], ch["lexicon"], ch["score"], ch["total"],
                 ch["seconds"], int(ch["completed"])),
            )
        for position in positions:
            added_positions += conn.execute(
                f"INSERT OR IGNORE INTO positions ({', '.join(_POSITION_FIELDS)}) "
                f"VALUES ({', '.join('?' * len(_POSITION_FIELDS))})",
                tuple(position[f] for f in _POSITION_FIELDS),
            ).rowcount
        for name, value in data["settings"].items():
            if not name.startswith("plan:"):  # plan ids are local: a plan is set again with `study plan`
                conn.execute("INSERT OR IGNORE INTO settings (name, value) VALUES (?, ?)", (name, json.dumps(value)))
    return {"cards": updated, "answers": added, "positions": added_positions}
