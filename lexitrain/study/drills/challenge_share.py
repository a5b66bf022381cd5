"""Sharing a challenge score as one line, and checking another player's line against one's own set.

The line names the date, the kind, the score of the day's official attempt
(the first finished one), its time and a hash of the set; another player with
the same word list makes the same set, so `verify` can tell whether the two
scores were made on the same questions. Its last field is a check over the
rest: it catches a line cut short or edited by hand, but it is no signature
(anyone can make a line), as there is no server to vouch for a score.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import date
from typing import Any

from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.study.drills.challenge_sets import challenge_items, check_kind, set_hash
from lexitrain.study.store import Attempt, ProgressStore

PREFIX = "lexitrain-challenge/1"
_LINE = re.compile(
    rf"{re.escape(PREFIX)} date=(?P<date>\S+) kind=(?P<kind>\S+) score=(?P<score>\d+)/(?P<total>\d+) "
    r"seconds=(?P<seconds>\d+(?:\.\d+)?) set=(?P<set>[0-9a-f]{16}) check=(?P<check>[0-9a-f]{8})"
)


def _check(body: str) -> str:
    return hashlib.sha256(body.encode("utf-8")).hexdigest()[:8]


@dataclass(frozen=True)
class SharedScore:
    """A score as shared: which set it was made on, how many right of how many, in how long."""

    day: date
    kind: str
    score: int
    total: int
    seconds: float
    set: str

    @property
    def body(self) -> str:
        return (f"{PREFIX} date={self.day.isoformat()} kind={self.kind} score={self.score}/{self.total} "
                f"seconds={self.seconds:.1f} set={self.set}")

    @property
    def line(self) -> str:
        return f"{self.body} check={_check(self.body)}"

    def to_json(self) -> dict[str, Any]:
        return {"date": self.day.isoformat(), "kind": self.kind, "score": self.score, "total": self.total,
                "seconds": round(self.seconds, 1), "set": self.set}


@dataclass(frozen=True)
class Verdict:
    """Whether a shared line was made on the same set as this player's (and is intact); why not, if not."""

    ok: bool
    shared: SharedScore
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, **self.shared.to_json(), "reason": self.reason}


def official_attempt(store: ProgressStore, lexicon: str, day: date, kind: str) -> Attempt | None:
    """The first finished attempt of a kind on a date (later ones are retakes)."""
    finished = [a for a in store.challenge_history(lexicon, kind, 1_000_000)
                if a.date == day.isoformat() and a.completed]
    return finished[-1] if finished else None  # the history is newest first


def share(store: ProgressStore, lex: Lexicon, day: date, kind: str) -> SharedScore:
    """The official score of a day's challenge, ready to share."""
    if check_kind(kind).personal:
        raise LexitrainError(f"the {kind} set is this player's own: there is no common set to share a score on")
    attempt = official_attempt(store, lex.name, day, kind)
    if attempt is None:
        raise LexitrainError(f"no finished {kind} challenge on {day} in {lex.name} to share "
                             f"(play it: lexitrain challenge --kind {kind} --date {day} -l {lex.name})")
    return SharedScore(day, kind, attempt.score, attempt.total, attempt.seconds,
                       set_hash(challenge_items(lex, day, kind)))


def parse_line(line: str) -> SharedScore:
    """A shared line read back (a one-line error for text that is not one)."""
    found = _LINE.fullmatch(line.strip())
    if found is None:
        raise LexitrainError(f"not a shared challenge line (expected '{PREFIX} date=... check=...'): {line.strip()!r}")
    try:
        day = date.fromisoformat(found["date"])
    except ValueError:
        raise LexitrainError(f"bad date {found['date']!r} in the shared line") from None
    return SharedScore(day, found["kind"], int(found["score"]), int(found["total"]), float(found["seconds"]),
                       found["set"])


def verify(lex: Lexicon, line: str) -> Verdict:
    """Check a shared line: intact, of a kind with a common set, and made on the set this lexicon gives that day."""
    shared = parse_line(line)
    body, _, check = line.strip().rpartition(" check=")
    if _check(body) != check:
        return Verdict(False, shared, "the line was changed after it was made (its check does not match)")
    if check_kind(shared.kind).personal:
        raise LexitrainError(f"a {shared.kind} set is its player's own: there is no common set to check against")
    items = challenge_items(lex, shared.day, shared.kind)
    mine = set_hash(items)
    if mine != shared.set:
        return Verdict(False, shared, f"not the same set: {lex.name} gives set {mine} for {shared.kind} on "
                                      f"{shared.day}, the line's is {shared.set} (a different word list?)")
    if shared.total != len(items) or shared.score > shared.total:
        return Verdict(False, shared, f"score {shared.score}/{shared.total} cannot be made on this set "
                                      f"of {len(items)} questions")
    return Verdict(True, shared)
