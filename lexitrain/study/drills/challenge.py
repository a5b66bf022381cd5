"""The daily challenge: a set fixed by date, kind and the lexicon's words, with a history.

The kinds and how each set is picked live in `challenge_sets` (named here too,
where the challenge's callers look for them).
"""

from __future__ import annotations

from datetime import date

from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.study.drills.challenge_sets import KINDS, ChallengeKind, challenge_items, challenge_keys, check_kind
from lexitrain.study.quiz.scheduler import utc_now
from lexitrain.study.quiz.session import CHALLENGE
from lexitrain.study.store import Attempt, ProgressStore

__all__ = ["KINDS", "MODE", "ChallengeKind", "challenge_items", "challenge_keys", "check_kind", "finish", "history",
           "parse_day", "personal_best", "bests_of_kinds_tried", "start"]

MODE = CHALLENGE


def parse_day(text: str | None) -> date:
    if text is None:
        return utc_now().astimezone().date()
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise LexitrainError(f"bad date {text!r}: use YYYY-MM-DD") from None


def not_after_today(day: date) -> date:
    """A challenge date, refused when it is after today (its set is not out yet)."""

    today = utc_now().astimezone().date()
    if day > today:
        raise LexitrainError(f"--date {day.isoformat()} is after today ({today.isoformat()}): "
                             "pick today or an earlier day")
    return day


def start(store: ProgressStore, session_id: int, lex: Lexicon, day: date, kind: str, total: int) -> None:
    """Open the attempt in the history (its score grows with every saved answer)."""
    store.start_challenge(session_id, day.isoformat(), kind, lex.name, total)


def finish(store: ProgressStore, session_id: int, seconds: float, completed: bool) -> None:
    store.finish_challenge(session_id, seconds, completed)


def history(store: ProgressStore, lexicon: str, kind: str | None = None, limit: int = 30) -> list[Attempt]:
    """Recent attempts, newest first; scores counted from the saved answers."""
    return store.challenge_history(lexicon, kind, limit)


def personal_best(store: ProgressStore, lexicon: str, kind: str) -> Attempt | None:
    """The best official attempt of a kind (finished, and the first finished that day): most right, then quickest."""
    return _best(history(store, lexicon, kind, limit=100000))


def bests_of_kinds_tried(store: ProgressStore, lexicon: str) -> dict[str, Attempt | None]:
    """Each kind attempted in LEXICON, in the order of KINDS, with its personal best (None: none finished yet)."""
    tried = {kind: history(store, lexicon, kind, limit=100000) for kind in KINDS}
    return {kind: _best(attempts) for kind, attempts in tried.items() if attempts}


def _best(attempts: list[Attempt]) -> Attempt | None:
    official = [a for a in attempts if a.completed and not a.retake]
    return min(official, key=lambda a: (-a.score, a.seconds)) if official else None
