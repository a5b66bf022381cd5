"""Import a Zyzzyva cardbox (its per-lexicon quiz database) as FSRS cards.

Zyzzyva keeps one SQLite file per lexicon and quiz type with a table
`questions (question, correct, incorrect, streak, last_correct, difficulty,
cardbox, next_scheduled)`; times are unix seconds. Each question becomes a
card: its Leitner box and due date are kept as they are, its FSRS stability
is taken as the box's interval (at 90% retention FSRS's interval equals its
stability), its difficulty from the share of misses, smoothed so one answer
does not decide it. Questions never answered stay in learning, due when
Zyzzyva had them due. Cards already studied here are left as they are.
"""

from __future__ import annotations

import math
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lexitrain.errors import LexitrainError
from lexitrain.study.quiz.kinds.base import new_kind
from lexitrain.study.quiz.scheduler import LEARNING, LEITNER_DAYS, utc_now
from lexitrain.study.store import CardRow, ProgressStore

if TYPE_CHECKING:
    from lexitrain.lexicon.lexicon import Lexicon

DAY = 86400.0
REVIEW = 2
COLUMNS = ("question", "correct", "incorrect", "streak", "last_correct", "cardbox", "next_scheduled")


def read_cardbox(path: Path) -> list[dict[str, Any]]:
    """The rows of a Zyzzyva quiz database, opened read-only."""
    if path.is_dir():
        raise LexitrainError(f"{path}: is a folder, not a Zyzzyva quiz database")
    if not path.is_file():
        raise LexitrainError(f"{path}: no such file")
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        conn.row_factory = sqlite3.Row
        rows = [dict(r) for r in conn.execute(f"SELECT {', '.join(COLUMNS)} FROM questions")]
        conn.close()
    except sqlite3.DatabaseError as exc:
        raise LexitrainError(f"{path} is not a Zyzzyva quiz database ({exc})") from None
    return rows


def card_state(row: dict[str, Any], card: CardRow, now: float) -> CardRow:
    """A Zyzzyva question's history as FSRS + Leitner state."""
    correct, incorrect = int(row["correct"] or 0), int(row["incorrect"] or 0)
    box = max(0, min(int(row["cardbox"] or 0), len(LEITNER_DAYS) - 1))
    interval = float(LEITNER_DAYS[box])
    due = float(row["next_scheduled"]) if row["next_scheduled"] else now
    card.cardbox, card.correct, card.incorrect, card.streak = box, correct, incorrect, int(row["streak"] or 0)
    card.due = due
    if correct + incorrect == 0:
        card.state, card.step, card.stability, card.difficulty, card.last_review = LEARNING, 0, None, None, None
        return card
    card.state, card.step = REVIEW, None
    card.stability = interval
    card.difficulty = min(10.0, max(1.0, 1.0 + 9.0 * (incorrect + 1) / (correct + incorrect + 2)))
    card.last_review = float(row["last_correct"]) if row["last_correct"] else due - interval * DAY
    return card


def _readable_numbers(row: dict[str, Any]) -> bool:
    """Whether a row's counts and times are numbers a card can hold (None is Zyzzyva's "never")."""
    return all(value is None or (isinstance(value, (int, float)) and not isinstance(value, bool)
                                 and math.isfinite(value) and abs(value) < 2**62)
               for value in (row[column] for column in COLUMNS[1:]))


def import_cardbox(store: ProgressStore, lex: Lexicon, path: Path, kind: str = "anagram") -> dict[str, int]:
    """Bring a Zyzzyva cardbox into the store; counts of imported, kept, skipped (not in the
    lexicon) and damaged (counts or times that are not numbers) questions."""
    question_kind = new_kind(kind)
    rows = read_cardbox(path)
    now = utc_now().timestamp()
    wanted: list[tuple[dict[str, Any], str]] = []
    skipped = damaged = 0
    for row in rows:
        text = str(row["question"] or "").strip()
        if not _readable_numbers(row):  # a damaged row is left out and counted, like a question not in the lexicon
            damaged += 1
            continue
        try:
            question = question_kind.build(lex, question_kind.key_from_text(lex, text))
        except (LexitrainError, ValueError):
            skipped += 1
            continue
        wanted.append((row, question.key))
    imported = kept = 0
    store.check_integrity("the import")
    with store.transaction():
        ids = store.ensure_cards(lex.name, [(kind, key) for _, key in wanted], now)
        for (row, _), card_id in zip(wanted, ids):
            card = store.card(card_id)
            if card.state != 0:
                kept += 1
                continue
            store.save_card(card_state(row, card, now))
            imported += 1
    return {"questions": len(rows), "imported": imported, "kept": kept, "skipped": skipped, "damaged": damaged}
