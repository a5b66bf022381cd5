"""The daily challenge: 50 alphagrams fixed by date, kind and lexicon, with a history.

The set is chosen by SHA-256 of `lexicon|kind|date` (never Python's salted
`hash()`, never `random`, whose algorithms may change between versions), so
everyone with the same lexicon gets the same questions that day on any
machine. Questions index the lexicon's alphagrams by their probability rank
(unique 1..N per length), which needs no scan of the table.
"""

from __future__ import annotations

import hashlib
from datetime import date
from typing import TYPE_CHECKING, Any

from lexitrain.errors import LexitrainError
from lexitrain.study.session import Item
from lexitrain.study.store import Attempt, ProgressStore
from lexitrain.tiles import BLANK

if TYPE_CHECKING:
    from lexitrain.lexicon.lexicon import Lexicon

SIZE = 50
MODE = "challenge"

#: Question lengths of each kind (how many alphagrams of each length) and the round time.
KINDS: dict[str, dict[str, Any]] = {
    "sevens": {"lengths": {7: 50}, "seconds": 270},
    "eights": {"lengths": {8: 50}, "seconds": 270},
    "twos-to-fifteens": {
        "lengths": {**{n: 4 for n in range(2, 10)}, **{n: 3 for n in range(10, 16)}},
        "seconds": 600,
    },
    "blank-bingos": {"lengths": {7: 50}, "seconds": 300, "blank": True},
}


def check_kind(kind: str) -> dict[str, Any]:
    try:
        return KINDS[kind]
    except KeyError:
        raise LexitrainError(f"unknown challenge kind {kind!r} (known: {', '.join(KINDS)})") from None


def parse_day(text: str | None) -> date:
    if text is None:
        from lexitrain.study.scheduler import utc_now

        return utc_now().astimezone().date()
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise LexitrainError(f"bad date {text!r}: use YYYY-MM-DD") from None


def not_after_today(day: date) -> date:
    """A challenge date, refused when it is after today (its set is not out yet)."""
    from lexitrain.study.scheduler import utc_now

    today = utc_now().astimezone().date()
    if day > today:
        raise LexitrainError(f"--date {day.isoformat()} is after today ({today.isoformat()}): "
                             "pick today or an earlier day")
    return day


def _draws(seed: str):
    """An endless stream of 64-bit numbers fixed by the seed."""
    counter = 0
    while True:
        digest = hashlib.sha256(f"{seed}|{counter}".encode()).digest()
        for start in range(0, 32, 8):
            yield int.from_bytes(digest[start : start + 8], "big")
        counter += 1


def challenge_keys(lex: Lexicon, day: date, kind: str) -> list[str]:
    """The day's question keys (alphagrams; with `?` for blank bingos), in order."""
    spec = check_kind(kind)
    draws = _draws(f"lexitrain-challenge|{lex.name}|{kind}|{day.isoformat()}")
    keys: list[str] = []
    for length, count in spec["lengths"].items():
        size = lex.counts_by_length("alphagram").get(length, 0)
        chosen: list[int] = []
        while len(chosen) < min(count, size):
            rank = next(draws) % size + 1
            if rank not in chosen:
                chosen.append(rank)
        for rank in chosen:
            [alphagram] = lex.alphagrams_by_rank(length, (rank, rank))
            if spec.get("blank"):
                tiles = lex.tiles.tokenize(alphagram)
                del tiles[next(draws) % len(tiles)]
                alphagram = lex.tiles.spell(tiles) + BLANK
            keys.append(alphagram)
    if not keys:
        raise LexitrainError(f"{lex.name} has no words of the lengths the {kind} challenge asks")
    return keys


def challenge_items(lex: Lexicon, day: date, kind: str) -> list[Item]:
    return [Item("anagram", key) for key in challenge_keys(lex, day, kind)]


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
    attempts = [a for a in history(store, lexicon, kind, limit=100000) if a.completed and not a.retake]
    if not attempts:
        return None
    return min(attempts, key=lambda a: (-a.score, a.seconds))
