"""Shared walls: a member opens a table on a list of alphagrams, others join, one wall for all.

Every guess at a table is an event row (who, which word, whether it answered a question), and so
is every member sitting down (with who sits now) and the end; the first member to find a word is
credited with it, and the scoreboard at the end counts each seated member's finds. A right guess
schedules the guesser's own card of that question (once per table), unless the table is practice.
The events are delivered to the seated members' WebSockets by `club.events`: on PostgreSQL each
event is also sent with NOTIFY in the transaction that stores it (`club.store.shared_walls`), so every
`serve` process hears it the moment it is committed.

A table is played on the wall every face shares: `state` carries the table as the local app's wall script
draws it (`wall`: its cells with each word found and who found it), and the page follows the events.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from datetime import date
from typing import Any

from lexitrain.club.challenges import ChallengeSets, check_unseen, toughies
from lexitrain.club.store import ClubDatabase, ClubStore
from lexitrain.club.store.shared_walls import TableRow
from lexitrain.club.owed import owe
from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.study.drills.challenge_sets import check_kind
from lexitrain.study.drills.wall import cell_view, round_view, solutions_view, tiles_of
from lexitrain.study.quiz.kinds.base import Question, new_kind
from lexitrain.web.edge import Refused

KIND = "anagram"
LARGEST = 500  # most questions a table takes
#: The longest guess a table takes (a word of the lexicon, typed).
LONGEST_GUESS = 32
#: A member's guesses at a table: at most GUESSES_PER_ANSWER per answer on the wall (and SPARE_GUESSES), and
#: no faster than MEMBER_RATE a second once MEMBER_BURST are spent; a table's, from all its seats, no faster
#: than TABLE_RATE a second after TABLE_BURST. Past them a guess is refused (429), neither stored nor sent.
GUESSES_PER_ANSWER = 4
SPARE_GUESSES = 100
MEMBER_RATE, MEMBER_BURST = 3.0, 20.0
TABLE_RATE, TABLE_BURST = 40.0, 200.0
#: A table's round, as Aerolith's tables have one: on a challenge's set that kind's time, on another list
#: SECONDS_PER_ALPHAGRAM each (Today's sevens: 50 in 270 s), at least SHORTEST; whatever its opener asks,
#: from SHORTEST to LONGEST. At 0 the round ends for everyone seated and each is shown the solutions.
SECONDS_PER_ALPHAGRAM = 5.4
SHORTEST, LONGEST = 30, 3600


@dataclass(frozen=True)
class Wall:
    """A table's questions: keys in order, each one's answers, which question a word answers."""

    keys: tuple[str, ...]
    answers: dict[str, tuple[str, ...]]
    question_of: dict[str, str]
    questions: dict[str, Question]


class Walls:
    """Each table's wall, worked out once per process from its stored keys (which never change)."""

    def __init__(self, lex: Lexicon) -> None:
        self.lex = lex
        self._walls: dict[int, Wall] = {}
        self._lock = threading.Lock()

    def make(self, keys: list[str]) -> Wall:
        answers: dict[str, tuple[str, ...]] = {}
        question_of: dict[str, str] = {}
        questions: dict[str, Question] = {}
        kind = new_kind(KIND)
        for key in keys:
            questions[key] = kind.build(self.lex, key)
            answers[key] = questions[key].expected
            for word in answers[key]:
                question_of.setdefault(word, key)
        return Wall(tuple(keys), answers, question_of, questions)

    def of(self, table_id: int, keys_json: str) -> Wall:
        with self._lock:
            found = self._walls.get(table_id)
        if found is None:
            found = self.make(json.loads(keys_json))
            with self._lock:
                self._walls[table_id] = found
                if len(self._walls) > 256:
                    del self._walls[next(iter(self._walls))]
        return found


def list_keys(lex: Lexicon, sets: ChallengeSets, db: ClubDatabase, asked: dict[str, Any], day: date,
              now: float) -> list[str]:
    """The alphagrams a new table asks: given ones, a challenge's set of the day, or the club's toughies."""
    kind = new_kind(KIND)
    if isinstance(asked.get("alphagrams"), list):
        keys = []
        for text in asked["alphagrams"]:
            if not isinstance(text, str):
                raise Refused(400, "alphagrams must be strings")
            try:
                keys.append(kind.key_from_text(lex, text))
            except (LexitrainError, ValueError) as exc:  # (ValueError: a letter no tile of the set spells)
                raise Refused(400, str(exc)) from None
    elif isinstance(asked.get("challenge"), str):
        chosen = sets.get(asked["challenge"], day)
        keys = [key for key in chosen.keys if chosen.question_kind[key] == KIND]
    elif asked.get("toughies") is True:
        keys = [row["alphagram"] for row in toughies(db, lex.name, day)]
    else:
        raise Refused(400, 'give "alphagrams": [...], "challenge": KIND or "toughies": true')
    keys = list(dict.fromkeys(key for key in keys if kind.build(lex, key).expected))
    if not keys:
        raise Refused(400, "that list has no alphagram with an answer in the club's lexicon")
    if len(keys) > LARGEST:
        raise Refused(400, f"a table takes at most {LARGEST} alphagrams ({len(keys)} given)")
    return keys


def round_seconds(asked: dict[str, Any], keys: list[str]) -> float:
    """How long a new table's round lasts: the `seconds` asked, else the set's kind's time, else by its size."""
    given = asked.get("seconds")
    if given is not None:
        if not isinstance(given, (int, float)) or isinstance(given, bool) or not SHORTEST <= given <= LONGEST:
            raise Refused(400, f"seconds must be a number from {SHORTEST} to {LONGEST}")
        return float(given)
    if isinstance(asked.get("challenge"), str):
        return float(check_kind(asked["challenge"]).seconds)
    return float(min(LONGEST, max(SHORTEST, round(SECONDS_PER_ALPHAGRAM * len(keys)))))


def open_table(db: ClubDatabase, member_id: int, lexicon: str, keys: list[str], practice: bool, now: float,
               on_set: tuple[str, date] | None = None, seconds: float | None = None) -> int:
    """A new table, its opener seated, its round of SECONDS starting now (None: untimed, ended by its opener).
    ON_SET: the challenge set (kind, day) it is opened on, kept with it: today's ranked set is refused (403) to a
    member whose ranked attempt at it is not over, the opener included."""
    with db.reading() as store:
        if on_set is not None:
            check_unseen(store, member_id, lexicon, on_set[0], on_set[1], now)
        return store.add_table(lexicon, member_id, keys, practice, now,
                               None if on_set is None else (on_set[0], on_set[1].isoformat()), seconds)


def open_tables(db: ClubDatabase, lexicon: str, now: float) -> list[dict[str, Any]]:
    """The open tables of the lexicon, each with its time left (None: untimed)."""
    with db.reading() as store:
        rows = store.open_tables(lexicon, now)
    return [{"table": i, "owner": owner, "practice": practice, "opened": opened, "seated": seated,
             "time_left": None if ends is None else round(ends - now, 3)}
            for i, owner, practice, opened, seated, ends in rows]


def time_up(db: ClubDatabase, table_id: int, now: float) -> dict[str, Any] | None:
    """End a table whose time is up by NOW, at its deadline, for everyone seated: the closing event (with the
    scoreboard), or None when it was not due (still running, untimed, ended already). Read first: every guess
    and every read of a table asks, and only the one that finds the time up takes a write transaction."""
    with db.reading() as store:
        if not store.overdue(table_id, now):
            return None
    with db.transaction() as store:
        if not store.close_if_overdue(table_id, now):
            return None
        scoreboard = _scoreboard(store.finds(table_id), store.seated_names(table_id))
        return store.add_event(table_id, {"type": "end", "scoreboard": scoreboard, "timed_out": True}, now)


def _table(store: ClubStore, table_id: int) -> TableRow:
    found = store.table(table_id)
    if found is None:
        raise Refused(404, f"no table {table_id}")
    return found


def _seated(store: ClubStore, table_id: int, member_id: int) -> float:
    """When the member sat down at the table (403 when they have not)."""
    joined = store.seated_since(table_id, member_id)
    if joined is None:
        raise Refused(403, f"join table {table_id} first")
    return joined


def join(db: ClubDatabase, member_id: int, name: str, table_id: int, now: float) -> dict[str, Any] | None:
    """Seat the member: the `join` event every seated member is sent (who sits now), or None when they sat
    already. The open table's row is locked first, so two members sitting down at once, or one as the table
    ends, take turns: each event's `seated` has every seat taken before it."""
    with db.transaction() as store:
        if not store.lock_open_table(table_id):
            _table(store, table_id)  # (404 when there is no such table)
            raise Refused(409, f"table {table_id} is over")
        if _is_up(store.deadline(table_id), now):
            raise Refused(409, f"table {table_id} is over: its time is up")
        on_set = store.table_set(table_id)
        if on_set is not None:  # (a table on today's ranked set: for those whose ranked attempt is over)
            check_unseen(store, member_id, on_set[0], on_set[1], date.fromisoformat(on_set[2]), now)
        if not store.seat(table_id, member_id, now):
            return None
        return store.add_event(table_id, {"type": "join", "member": name, "seated": store.seated_names(table_id)}, now)


def _is_up(deadline: float | None, now: float) -> bool:
    return deadline is not None and now >= deadline


def state(db: ClubDatabase, walls: Walls, member_id: int, table_id: int, now: float) -> dict[str, Any]:
    """The wall as a seated member sees it: the alphagrams, what was found by whom, who sits, who opened it
    (who may end it), the scoreboard, the time left, and all of it as the wall script draws it (`wall`). (A table
    whose time is up reads as over: `time_up` closes it.)"""
    with db.transaction() as store:
        keys_json, owner_id, practice, closed = _table(store, table_id)
        _seated(store, table_id, member_id)
        owner = store.member_name(owner_id)
        me = store.member_name(member_id)
        finds = store.finds(table_id)
        seated = store.seated_names(table_id)
        last = store.last_event(table_id)
        deadline = store.deadline(table_id)
    wall = walls.of(table_id, keys_json)
    timed_out = _is_up(deadline, now if closed is None else closed)
    over = closed is not None or timed_out
    scoreboard = _scoreboard(finds, seated)
    shown = _wall_view(walls.lex, wall, finds, over, timed_out)
    shown["time_left"] = None if deadline is None or over else round(deadline - now, 3)
    shown.update({"title": f"Table {table_id}", "about": f"{owner}'s table" + (" · practice" if practice else ""),
                  "me": me, "seated": seated, "give_up": "End the table" if owner == me else None,
                  "last_event": last})
    if over:
        shown["ended_how"] = ("Time is up" if timed_out else "The table is over") + ": " + " · ".join(f"{s['member']} {s['found']}" for s in scoreboard) + "."
    return {"table": table_id, "alphagrams": list(wall.keys), "answers": {k: len(v) for k, v in wall.answers.items()},
            "found": [{"word": w, "alphagram": a, "member": m} for w, a, m in finds],
            "seated": seated, "owner": owner, "practice": practice, "over": over,
            "scoreboard": scoreboard, "last_event": last, "time_left": shown["time_left"], "wall": shown}


def _wall_view(lex: Lexicon, wall: Wall, finds: list[tuple[str, str, str]], over: bool,
               timed_out: bool) -> dict[str, Any]:
    """The table's wall in `study.drills.wall`'s shape: each cell's words found, in order, and who found each
    (`found_by`); once the table is over, the solutions."""
    found: dict[str, list[tuple[str, str]]] = {}
    for word, key, name in finds:
        found.setdefault(key, []).append((word, name))
    views = []
    for key in wall.keys:
        question = wall.questions[key]
        words = found.get(key, [])
        view = cell_view(question, tiles_of(lex, question), [w for w, _ in words],
                         correct=len(words) == len(question.expected) if over else None)
        view["found_by"] = dict(words)
        views.append((question, view))
    shown: dict[str, Any] = {"done": over, "has_next": False, "time_left": None, "counts_wrong": False,
                             "round": round_view([view for _, view in views], ended=over, timed_out=timed_out,
                                                gave_up=over and not timed_out)}
    if over:
        shown["solutions"] = solutions_view(lex, views)
    return shown


def title(db: ClubDatabase, member_id: int, table_id: int) -> str:
    """The table's page title, for a seated member (404: no such table; 403: not seated)."""
    with db.reading() as store:
        _table(store, table_id)
        _seated(store, table_id, member_id)
    return f"Table {table_id}"


def _scoreboard(finds: list[tuple[str, str, str]], seated: list[str]) -> list[dict[str, Any]]:
    """Each seated member's finds (0 for one who found none), most first."""
    counts = dict.fromkeys(seated, 0)
    for _word, _key, name in finds:
        counts[name] = counts.get(name, 0) + 1
    return [{"member": name, "found": found} for name, found in sorted(counts.items(), key=lambda c: (-c[1], c[0]))]


def guess(db: ClubDatabase, walls: Walls, member_id: int, name: str, table_id: int, word: str, lexicon: str,
          now: float) -> dict[str, Any]:
    """A seated member's guess: the event every seated member is sent (`correct`, `alphagram`, `first`). The
    table's row is locked first, so its events are numbered in the order they commit (a socket catching up
    after an id misses nothing); a guess past the limits above is refused, neither stored nor sent."""
    word = word.strip().upper()
    if len(word) > LONGEST_GUESS:
        raise Refused(400, f"a guess is at most {LONGEST_GUESS} letters")
    with db.transaction() as store:
        taken = store.take_table_guess(table_id, now, TABLE_RATE, TABLE_BURST)
        if taken is None:
            if _table(store, table_id)[3] is not None or _is_up(store.deadline(table_id), now):
                raise Refused(409, f"table {table_id} is over")
            _seated(store, table_id, member_id)
            raise Refused(429, f"table {table_id} takes no more guesses this second: try again")
        keys_json, practice = taken
        joined = _seated(store, table_id, member_id)
        wall = walls.of(table_id, keys_json)
        most = GUESSES_PER_ANSWER * sum(len(words) for words in wall.answers.values()) + SPARE_GUESSES
        if not store.take_seat_guess(table_id, member_id, now, MEMBER_RATE, MEMBER_BURST, most):
            if store.seat_guesses(table_id, member_id) >= most:
                raise Refused(429, f"you have made {most} guesses at table {table_id}, the most a member makes")
            raise Refused(429, "guessing too fast: wait a moment")
        key = wall.question_of.get(word)
        first = False
        if key is not None:
            first = store.add_find(table_id, word, key, member_id, now)
            if store.add_table_answer(table_id, member_id, key) and not practice:
                owe(store, member_id, lexicon, f"club table {table_id}", joined, [(KIND, key, True)], now)
        body = {"type": "guess", "member": name, "word": word, "correct": key is not None, "alphagram": key,
                "first": first}
        return store.add_event(table_id, body, now)


def finish(db: ClubDatabase, member_id: int, table_id: int, now: float) -> dict[str, Any]:
    """End the table (its opener only): the closing event, with the scoreboard."""
    with db.transaction() as store:
        _keys, owner, _practice, _closed = _table(store, table_id)
        if owner != member_id:
            raise Refused(403, "only the member who opened the table ends it")
        if not store.close_table(table_id, now):
            raise Refused(409, f"table {table_id} is over")
        scoreboard = _scoreboard(store.finds(table_id), store.seated_names(table_id))
        return store.add_event(table_id, {"type": "end", "scoreboard": scoreboard}, now)


def events_after(db: ClubDatabase, member_id: int, table_id: int, after: int) -> list[dict[str, Any]]:
    """A seated member's table events after the id given (a WebSocket catching up)."""
    with db.transaction() as store:
        _table(store, table_id)
        _seated(store, table_id, member_id)
        return store.events_after(table_id, after)
