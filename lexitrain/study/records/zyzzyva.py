"""Import a Zyzzyva cardbox (its per-lexicon quiz database) as FSRS cards.

Zyzzyva keeps one SQLite file per lexicon and quiz type, `quiz/data/LEXICON/<Quiz type>.db`
(`Anagrams.db`, `Hooks.db`...); each quiz type is asked here by the question kind of QUIZ_KINDS,
and the few that have none are named, with why, in QUIZ_TYPES_LEFT. The file holds a table
`questions (question, correct, incorrect, streak, last_correct, difficulty,
cardbox, next_scheduled)`; times are unix seconds. Each question becomes a
card: its Leitner box and due date are kept as they are, its FSRS stability
is taken as the box's interval (at 90% retention FSRS's interval equals its
stability), its difficulty from the share of misses, smoothed so one answer
does not decide it. Questions never answered stay in learning, due when
Zyzzyva had them due, in the box they had. A question out of the cardbox (no
box: Zyzzyva kept only its quiz statistics) is left out. Cards already studied
here are left as they are, so a second import changes nothing. One question
written in two cases is one card, their answers added up; a blank question
(AEINRS?) is an anagram card with a blank; every question left out is named with
the reason.
"""

from __future__ import annotations

import math
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.study.quiz.kinds.base import new_kind
from lexitrain.study.quiz.replay import set_schedule
from lexitrain.study.quiz.scheduler import LEARNING, LEITNER_DAYS, utc_now
from lexitrain.study.store import CardRow, ProgressStore

DAY = 86400.0
REVIEW = 2
COLUMNS = ("question", "correct", "incorrect", "streak", "last_correct", "cardbox", "next_scheduled")
#: Zyzzyva's quiz types (its Auxil.cpp) and the question kind that asks each here: an anagram question is
#: its alphagram (a jumble, or a quiz showing hooks, asks the same words), a subanagram or build question
#: its letters (every word of two letters or more they make), a hooks question its word
QUIZ_KINDS = {
    "Anagrams": "anagram", "Anagram Jumble": "anagram", "Anagrams with Hooks": "anagram",
    "Anagram Hooks": "anagram-hooks", "Hooks": "hooks",
    "Subanagrams": "build", "Subanagram Jumble": "build", "Build": "build",
}
#: the quiz types no kind here asks, and why
QUIZ_TYPES_LEFT = {
    "Patterns": "a Patterns quiz asks the words fitting a pattern: no question kind here asks that",
    "Word List Recall": "a Word List Recall quiz asks a whole list at once: `quiz --whole` asks lists, not cards",
    "Anagram Hook Mnemonics": "mnemonics for anagram hooks: no question kind here asks them",
}


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


@dataclass
class CardboxImport:
    """What an import did, every question accounted for: imported, kept (studied here
    already), merged (one question written in two cases), skipped and why (`outside` the
    cardbox and `damaged` ones among them)."""

    questions: int
    imported: int = 0
    kept: int = 0
    damaged: int = 0
    outside: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (question as written, why)
    merged: list[tuple[str, list[str]]] = field(default_factory=list)  # (card key, the questions merged into it)

    def to_json(self) -> dict[str, Any]:
        return {"questions": self.questions, "imported": self.imported, "kept": self.kept,
                "skipped": len(self.skipped), "damaged": self.damaged, "outside_the_cardbox": self.outside,
                "skipped_questions": [{"question": q, "why": why} for q, why in self.skipped],
                "merged": [{"card": key, "questions": questions} for key, questions in self.merged]}


def merged_row(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """One question written twice (`aeinrst` and `AEINRST`) as one: the answers added up,
    the schedule of the one answered last."""
    latest = max(rows, key=lambda r: (r["last_correct"] or 0, r["next_scheduled"] or 0))
    return {**latest, "correct": sum(r["correct"] or 0 for r in rows),
            "incorrect": sum(r["incorrect"] or 0 for r in rows)}


def cardbox_kind(path: Path, default: str | None = None) -> str:
    """The question kind of a cardbox by its file's name (`Hooks.db`: hooks); a one-line error for a quiz type
    no kind here asks, and for a name that is none of Zyzzyva's unless DEFAULT is given."""
    quiz_type = path.stem
    if quiz_type in QUIZ_KINDS:
        return QUIZ_KINDS[quiz_type]
    if quiz_type in QUIZ_TYPES_LEFT:
        raise LexitrainError(QUIZ_TYPES_LEFT[quiz_type])
    if default is not None:
        return default
    raise LexitrainError(f"{path.name}: not one of Zyzzyva's quiz types ({', '.join(QUIZ_KINDS)})")


def import_cardbox(store: ProgressStore, lex: Lexicon, path: Path, kind: str = "anagram") -> CardboxImport:
    """Bring a Zyzzyva cardbox into the store. Every question is imported, kept (a card
    studied here already keeps its schedule), merged with another spelling of it, or
    skipped with the reason (out of the cardbox, not in the lexicon, a damaged row)."""
    question_kind = new_kind(kind)
    rows = read_cardbox(path)
    now = utc_now().timestamp()
    report = CardboxImport(len(rows))
    by_key: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        text = str(row["question"] or "").strip()
        if row["cardbox"] is None:
            report.outside += 1
            report.skipped.append((text, "not in the cardbox (Zyzzyva kept only its quiz statistics)"))
            continue
        if not _readable_numbers(row):
            report.damaged += 1
            report.skipped.append((text, "a damaged row: its counts or times are not numbers"))
            continue
        try:
            question = question_kind.build(lex, question_kind.key_from_text(lex, text))
        except (LexitrainError, ValueError) as exc:
            report.skipped.append((text, str(exc)))
            continue
        by_key.setdefault(question.key, []).append(row)
    wanted = []
    for key, same in by_key.items():
        if len(same) > 1:
            report.merged.append((key, [str(r["question"]).strip() for r in same]))
        wanted.append((merged_row(same), key))
    store.check_integrity("the import")
    with store.transaction():
        ids = store.ensure_cards(lex.name, [(kind, key) for _, key in wanted], now)
        for (row, _), card_id in zip(wanted, ids):
            card = store.card(card_id)
            if card.state != 0:
                report.kept += 1
                continue
            set_schedule(store, card_state(row, card, now), now)
            report.imported += 1
    return report
