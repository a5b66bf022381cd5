"""The club's daily challenge: attempts, guesses, the leaderboard, medals and the club's toughies.

Today's set is the one `lexitrain challenge` gives for the lexicon (`study.challenge`), the same
for every member and every `serve` process; a member types words one at a time and each is
checked against the set's answers. A question counts when every one of its answers was found;
the score is the questions counted, the time from the attempt's start to its finish. A member's
first attempt of a kind and day is the one the leaderboard ranks; later ones are retakes.

An attempt has the kind's time (as `lexitrain challenge` has it), from its start: the server's clock is
final. A guess after the time is up finishes the attempt at its deadline and is refused, and an attempt
left running (a tab closed) is finished at its deadline when it is next read: by its member, or by the
leaderboard of its day, so it is ranked with what was found in time.

Finishing schedules the member's own card for every question (right when all its answers were
found) with the same FSRS scheduling as the local app, and records each miss for the club's wall
of toughies. A guess and a finish on one attempt never interleave: both first lock the attempt's row
(`club.store.attempts`), so a guess either lands before the finish counts the guesses or is refused after it.

The member plays an attempt on the wall every face shares (`attempt_wall`: the local app's wall, its
template and its script); today's sets are ranked, so they are never shown but in the member's ranked
attempt (see docs/club.md): the club's toughies leave today's misses out.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any, NamedTuple

from lexitrain.club.store import ClubDatabase, ClubStore
from lexitrain.club.store.attempts import AttemptRow
from lexitrain.club.owed import owe
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.study.drills.challenge import challenge_items, check_kind
from lexitrain.study.drills.wall import cell_view, round_view, solutions_view, tiles_of
from lexitrain.study.quiz.kinds.base import Question, new_kind
from lexitrain.web.edge import Refused

#: How many of the week's most missed alphagrams the club's toughies wall asks.
TOUGHIES = 50
MEDALS = ("gold", "silver", "bronze")
#: Kinds picked from one player's own misses, which a club has no single player for.
PERSONAL = ("week-toughies", "all-time-toughies")


@dataclass(frozen=True)
class ChallengeSet:
    """A day's questions of a kind: their keys in order, each one's answers, and which question a word answers."""

    kind: str
    day: date
    keys: tuple[str, ...]
    answers: dict[str, tuple[str, ...]]
    question_kind: dict[str, str]
    question_of: dict[str, str]
    questions: dict[str, Question]

    @property
    def total(self) -> int:
        return len(self.keys)

    @property
    def seconds(self) -> float:
        """The attempt's time: the kind's (`lexitrain challenge`'s round time)."""
        return float(check_kind(self.kind).seconds)


class Started(NamedTuple):
    """What never changes of an attempt once made: whose it is, its set, its start."""

    member_id: int
    kind: str
    day: str
    started: float


class ChallengeSets:
    """The sets of the club's lexicon, worked out once per process (they are fixed by lexicon, kind and day), and
    the attempts at them this process has seen (`started`: what never changes of each), so that a guess reads
    nothing before it is stored."""

    #: How many attempts' unchanging facts a process keeps (a club's day of members, several times over).
    ATTEMPTS_KEPT = 20_000

    def __init__(self, lex: Lexicon) -> None:
        self.lex = lex
        self._sets: dict[tuple[str, date], ChallengeSet] = {}
        self._started: dict[int, Started] = {}
        self._lock = threading.Lock()

    def started(self, attempt_id: int) -> Started | None:
        return self._started.get(attempt_id)

    def note_started(self, attempt_id: int, facts: Started) -> None:
        with self._lock:
            self._started[attempt_id] = facts
            if len(self._started) > self.ATTEMPTS_KEPT:
                del self._started[next(iter(self._started))]

    def get(self, kind: str, day: date) -> ChallengeSet:
        check_kind(kind)
        if kind in PERSONAL:
            raise Refused(400, f"{kind} is a player's own; the club's toughies are its wall")
        with self._lock:
            found = self._sets.get((kind, day))
            if found is None:
                found = self._sets[(kind, day)] = self._make(kind, day)
                if len(self._sets) > 64:  # (a few days of every kind)
                    del self._sets[next(iter(self._sets))]
        return found

    def _make(self, kind: str, day: date) -> ChallengeSet:
        answers: dict[str, tuple[str, ...]] = {}
        kinds: dict[str, str] = {}
        question_of: dict[str, str] = {}
        questions: dict[str, Question] = {}
        keys = []
        for item in challenge_items(self.lex, day, kind):
            question = questions[item.key] = new_kind(item.kind).build(self.lex, item.key)
            keys.append(item.key)
            answers[item.key] = question.expected
            kinds[item.key] = item.kind
            for word in question.expected:
                question_of.setdefault(word, item.key)
        return ChallengeSet(kind, day, tuple(keys), answers, kinds, question_of, questions)


@dataclass(frozen=True)
class Result:
    """A finished attempt: its score and time, and each question not counted with the answers not found."""

    score: int
    total: int
    seconds: float
    missed: dict[str, tuple[str, ...]]

    def to_json(self) -> dict[str, Any]:
        return {"score": self.score, "total": self.total, "seconds": round(self.seconds, 3),
                "missed": {key: list(words) for key, words in self.missed.items()}}


def open_attempt(db: ClubDatabase, member_id: int, lexicon: str, chosen: ChallengeSet, now: float) -> int:
    """The member's unfinished attempt at this set, or a new one: their first of the day is official,
    any later one a retake. The unique index on first attempts decides a race (two devices asking at
    once): the loser is handed the winner's attempt while it is unfinished, never a second one."""
    which = (member_id, lexicon, chosen.kind, chosen.day.isoformat())
    with db.transaction() as store:
        found = store.unfinished_attempt(which)
        if found is not None:
            return found
        made = store.add_attempt(which, chosen.total, now, retake=False)
        if made is not None:
            return made
        first = store.first_attempt(which)
        assert first is not None
        if first.finished is None:
            return first.id
        retake = store.add_attempt(which, chosen.total, now, retake=True)
        assert retake is not None
        return retake


def _attempt(store: ClubStore, member_id: int, attempt_id: int) -> tuple[str, str, float]:
    """Lock the member's unfinished attempt (see the module's docstring); its kind, date and start.
    Another member's attempt is 404, as an unknown one is (its existence is not told); a finished one 409."""
    found = store.lock_attempt(member_id, attempt_id)
    if found is not None:
        return found
    if not store.has_attempt(member_id, attempt_id):
        raise Refused(404, f"no attempt {attempt_id} of yours")
    raise Refused(409, f"attempt {attempt_id} is finished")


def guess(db: ClubDatabase, sets: ChallengeSets, member_id: int, attempt_id: int, word: str,
          now: float) -> tuple[bool, str | None]:
    """Whether the word answers a question of the attempt's set, and that question's key. After the attempt's
    time the attempt is finished at its deadline and the guess refused (409). An attempt this process has seen
    before, in its time, takes the guess in one statement (`guess_while_open`); anything else (a first guess, a
    guess late or refused, a word found already) goes the whole way, in a transaction."""
    word = word.strip().upper()
    known = sets.started(attempt_id)
    if known is not None and known.member_id == member_id:
        chosen = sets.get(known.kind, date.fromisoformat(known.day))
        if now < known.started + chosen.seconds:
            key = chosen.question_of.get(word)
            with db.reading() as store:
                if store.guess_while_open(member_id, attempt_id, word, key, now):
                    return key is not None, key
    with db.transaction() as store:
        kind, day, started = _attempt(store, member_id, attempt_id)
        sets.note_started(attempt_id, Started(member_id, kind, day, started))
        chosen = sets.get(kind, date.fromisoformat(day))
        late = now >= started + chosen.seconds
        if late:
            _finish(store, chosen, member_id, attempt_id, sets.lex.name, started, started + chosen.seconds)
        else:
            key = chosen.question_of.get(word)
            if key is not None:
                store.add_guess(attempt_id, word, key, now)
    if late:
        raise Refused(409, f"attempt {attempt_id}: the time is up (its {chosen.seconds:g} seconds ran out)")
    return key is not None, key


def finish(db: ClubDatabase, sets: ChallengeSets, member_id: int, attempt_id: int, lexicon: str,
           now: float) -> Result:
    """End the attempt (at its deadline if that came first): its score and time, the answers missed, the misses
    recorded, and the member's cards owed to their store (`club.owed`: scheduled there by `settle` just after).
    Finishing it again (a retry whose first answer was lost) answers the same result and changes nothing."""
    with db.transaction() as store:
        locked = store.lock_attempt(member_id, attempt_id)  # (see the module's docstring)
        if locked is None:  # (finished already, perhaps by a retry at once elsewhere: read after its commit)
            done = store.attempt(member_id, attempt_id)
            if done is None or done.finished is None or done.score is None:
                raise Refused(404, f"no attempt {attempt_id} of yours")
            found = _found(store.guesses(attempt_id))
            return _result(sets.get(done.kind, date.fromisoformat(done.date)), found, done.score,
                           done.finished - done.started)
        kind, day, started = locked
        chosen = sets.get(kind, date.fromisoformat(day))
        return _finish(store, chosen, member_id, attempt_id, lexicon, started, min(now, started + chosen.seconds))


def _finish(store: ClubStore, chosen: ChallengeSet, member_id: int, attempt_id: int, lexicon: str, started: float,
            at: float) -> Result:
    """Finish a locked attempt at a time (`finish`)."""
    found = _found(store.guesses(attempt_id))
    right = {key: set(chosen.answers[key]) <= found.get(key, set()) for key in chosen.keys}
    score = sum(right.values())
    store.finish_attempt(attempt_id, at, score)
    store.add_misses(member_id, lexicon, [key for key in chosen.keys if not right[key]], at)
    owe(store, member_id, lexicon, f"club challenge {chosen.kind} {chosen.day.isoformat()}", started,
        [(chosen.question_kind[key], key, ok) for key, ok in right.items()], at)
    return _result(chosen, found, score, at - started)


def _found(guesses: list[tuple[str, str]]) -> dict[str, set[str]]:
    """Each question's right answers given."""
    found: dict[str, set[str]] = {}
    for word, key in guesses:
        found.setdefault(key, set()).add(word)
    return found


def _result(chosen: ChallengeSet, found: dict[str, set[str]], score: int, seconds: float) -> Result:
    missed = {key: tuple(w for w in chosen.answers[key] if w not in found.get(key, ())) for key in chosen.keys
              if not set(chosen.answers[key]) <= found.get(key, set())}
    return Result(score, chosen.total, max(0.0, seconds), missed)


def finish_overdue(db: ClubDatabase, sets: ChallengeSets, lexicon: str, kind: str, day: date, now: float) -> None:
    """Finish, each at its deadline, the set's attempts whose time has run out (a tab closed mid-attempt): what
    was found in time is ranked."""
    chosen = sets.get(kind, day)
    with db.reading() as store:
        overdue = store.unfinished_attempts(lexicon, kind, day.isoformat(), now - chosen.seconds)
    for attempt_id, member_id in overdue:
        try:
            finish(db, sets, member_id, attempt_id, lexicon, now)
        except Refused:  # (finished meanwhile, by its member or another server)
            pass


def ranked_over(store: ClubStore, member_id: int, lexicon: str, kind: str, day: date, now: float) -> bool:
    """Whether the member's ranked attempt at the set is over (finished, or its time run out): till then the set is
    shown to them nowhere else, not in /study's challenge, not at a table."""
    row = store.first_attempt((member_id, lexicon, kind, day.isoformat()))
    return row is not None and (row.finished is not None or now >= row.started + check_kind(kind).seconds)


def check_unseen(store: ClubStore, member_id: int, lexicon: str, kind: str, day: date, now: float) -> None:
    """Refuse (403) today's ranked set of a kind to a member whose ranked attempt at it is not over; other days,
    and the personal kinds, are anyone's to practise."""
    if kind in PERSONAL or day != datetime.fromtimestamp(now).date():
        return
    if not ranked_over(store, member_id, lexicon, kind, day, now):
        raise Refused(403, f"today's {kind} is the club's ranked challenge: its set is shown to you once your ranked "
                           f"attempt is over (play it on the club's page first)")


def study_gate(db: ClubDatabase, member_id: int, lexicon: str, kind: str, day: date, now: float) -> None:
    """`check_unseen` for /study's daily challenge."""
    with db.reading() as store:
        check_unseen(store, member_id, lexicon, kind, day, now)


def attempt_wall(db: ClubDatabase, sets: ChallengeSets, member_id: int, attempt_id: int, now: float) -> dict[str, Any]:
    """The member's attempt as the wall draws it (`study.drills.wall`'s shape): its cells with the words found, the
    time left, and once it is over how it ended and the solutions. An attempt whose time has run out is finished
    first, at its deadline. Another member's attempt is 404, as an unknown one is."""
    row = _attempt_row(db, member_id, attempt_id)
    chosen = sets.get(row.kind, date.fromisoformat(row.date))
    if row.finished is None and now >= row.started + chosen.seconds:
        try:
            finish(db, sets, member_id, attempt_id, sets.lex.name, now)
        except Refused:  # (finished meanwhile, on another device)
            pass
        row = _attempt_row(db, member_id, attempt_id)
    with db.reading() as store:
        guessed = store.guesses(attempt_id)
    return _wall_view(sets.lex, chosen, row, guessed, now)


def attempt_title(db: ClubDatabase, sets: ChallengeSets, member_id: int, attempt_id: int) -> str:
    """What the member's attempt is, for its page's title (404: not theirs, or none)."""
    row = _attempt_row(db, member_id, attempt_id)
    return _title(row.kind, row.date)


def _title(kind: str, day: str) -> str:
    """(The lexicon is in the page's header.)"""
    return f"{check_kind(kind).title} · {day}"


def _attempt_row(db: ClubDatabase, member_id: int, attempt_id: int) -> AttemptRow:
    with db.reading() as store:
        row = store.attempt(member_id, attempt_id)
    if row is None:
        raise Refused(404, f"no attempt {attempt_id} of yours")
    return row


def _wall_view(lex: Lexicon, chosen: ChallengeSet, row: AttemptRow, guessed: list[tuple[str, str]],
               now: float) -> dict[str, Any]:
    found: dict[str, list[str]] = {}
    for word, key in guessed:
        found.setdefault(key, []).append(word)
    deadline = row.started + chosen.seconds
    ended = row.finished is not None
    views = []
    for key in chosen.keys:
        question = chosen.questions[key]
        words = found.get(key, [])
        views.append((question, cell_view(question, tiles_of(lex, question), words,
                                          correct=len(words) == len(question.expected) if ended else None)))
    cells = [view for _, view in views]
    timed_out = ended and row.finished is not None and row.finished >= deadline
    solved = all(cell["solved"] for cell in cells)
    state: dict[str, Any] = {
        "title": _title(chosen.kind, chosen.day.isoformat()), "done": ended,
        "has_next": False, "time_left": None if ended else max(0.0, deadline - now), "counts_wrong": False,
        "about": "a retake: not ranked" if row.retake else "ranked",
        "round": round_view(cells, ended=ended, timed_out=timed_out, gave_up=ended and not timed_out and not solved)}
    if row.finished is not None:
        took = _clock(row.finished - row.started)
        state["ended_how"] = "Time is up." if timed_out else f"Solved in {took}." if solved else f"Given up after {took}."
        state["solutions"] = solutions_view(lex, views)
    return state


def _clock(seconds: float) -> str:
    whole = max(0, round(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def leaderboard(db: ClubDatabase, sets: ChallengeSets, lexicon: str, kind: str, day: date, now: float,
                retakes: bool = False) -> list[dict[str, Any]]:
    """The finished first attempts (or the retakes) of a kind and day: most right first, then quickest. An attempt
    whose time has run out is finished first (at its deadline), so a member who left it is ranked too."""
    if kind not in PERSONAL:
        finish_overdue(db, sets, lexicon, kind, day, now)
    with db.reading() as store:
        rows = store.finished_attempts(lexicon, kind, day.isoformat(), retakes)
    return [{"member": name, "score": score, "total": total, "seconds": round(seconds, 3)}
            for name, score, total, seconds in rows]


def medals(db: ClubDatabase, lexicon: str, kind: str) -> list[dict[str, Any]]:
    """Each member's gold, silver and bronze over every day of a kind (ties in score and time share a place)."""
    with db.reading() as store:
        rows = store.first_attempts_by_day(lexicon, kind)
    counts: dict[str, dict[str, int]] = {}
    boards: dict[str, list[tuple[str, int, float]]] = {}
    for day, name, score, seconds in rows:
        boards.setdefault(day, []).append((name, score, round(seconds, 3)))
    for board in boards.values():
        place = 0
        for index, (name, score, seconds) in enumerate(board):
            if index == 0 or (score, seconds) != board[index - 1][1:]:
                place = index
            if place < len(MEDALS):
                counts.setdefault(name, dict.fromkeys(MEDALS, 0))[MEDALS[place]] += 1
    return sorted(({"member": name, **won} for name, won in counts.items()),
                  key=lambda m: (-m["gold"], -m["silver"], -m["bronze"], m["member"]))


def toughies(db: ClubDatabase, lexicon: str, today: date, limit: int = TOUGHIES) -> list[dict[str, Any]]:
    """The alphagrams the club's members missed most in the seven days before today, most missed first. Today's
    misses are left out: they are alphagrams of today's ranked sets, which a member who has not played them must
    not see."""
    start = datetime.combine(today, time()).astimezone().timestamp()
    since = start - timedelta(days=7).total_seconds()
    with db.reading() as store:
        rows = store.most_missed(lexicon, since, start, limit)
    return [{"alphagram": key, "misses": misses, "members": members} for key, misses, members in rows]
