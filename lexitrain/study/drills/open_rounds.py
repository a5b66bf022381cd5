"""Open rounds (a wall, a review or position round) kept in the player's store, so no process holds them.

A round is a row of the store (`study.store.rounds`): the study request that made it (which makes its session
again), the round's own state (`Wall.saved`, `Round.saved`, `Session.saved`) and a secret of its own, which
signs the tokens a page sends back (so any process checks them). Every request on a round loads it, acts
and saves it in one transaction of the store, with the answers it records: two requests of one round take
turns (the store's write lock), any `lexitrain web` or `serve` process answers any request, a process killed
loses no answer it acknowledged, and a restarted one carries every round on. A round's clock is the face's
(wall-clock seconds), so its deadline means the same in every process; a round whose time ran out is ended by
`tick` (every few seconds), or by its next request, whichever comes first.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from lexitrain.errors import LexitrainError
from lexitrain.lexicon.catalog import open_lexicon
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.study.drills.requests import StudyRequest, request_from_saved, request_saved
from lexitrain.study.drills.wall import SIZE, Wall
from lexitrain.study.quiz.round import Round
from lexitrain.study.store import ProgressStore

WALL, DRILL = "wall", "drill"
#: Rounds kept open at once: opening one more finishes (and so saves) the one used longest ago.
OPEN_LIMIT = 16
#: How long an ended round is kept to be looked at (its page shows its end), in seconds, and how many at most (the
#: last ended): a player starting walls over and over keeps no more than these and the open ones.
KEPT_SECONDS = 86_400.0
KEPT_ENDED = 16
T = TypeVar("T", Wall, Round)
#: The lexicon a round names (the player's default for None).
Lexicons = Callable[[str | None], Lexicon]


class NoSuchRound(LexitrainError):
    """No open round of that id and kind (a face answers 404)."""


@dataclass
class OpenRound(Generic[T]):
    """A round loaded for one request: its id, the wall or round itself, and its secret."""

    ident: str
    thing: T
    secret: str

    def token(self, *parts: object) -> str:
        """The token of one thing on show (a question, a wall's round): a request naming it acts on that showing
        only, so a second submit of the same answer finds the next one on show and is refused."""
        return hmac.new(self.secret.encode(), ":".join(map(str, parts)).encode(), hashlib.sha256).hexdigest()[:16]


def open_wall(store: ProgressStore, lex: Lexicon, request: StudyRequest, clock: Callable[[], float], *,
              size: int = SIZE, seconds: float | None = None, missed_round: bool = True, nonce: str = "") -> str:
    """Start a wall of REQUEST's questions, its first round on show; its id. A second submit of one start form
    (the same NONCE) finds the wall the first one started."""
    with store.transaction():
        found = store.round_of_nonce(nonce) if nonce else None
        if found is not None:
            return found
        wall = Wall(request.start(store, lex), size=size, seconds=seconds, clock=clock, missed_round=missed_round)
        wall.start_round()
        shape = {"size": size, "seconds": wall.seconds, "missed_round": missed_round}
        return _add(store, WALL, lex, request, {"shape": shape, "wall": wall.saved()}, _deadline(wall), clock, nonce)


def open_drill(store: ProgressStore, lex: Lexicon, request: StudyRequest,
               clock: Callable[[], float]) -> OpenRound[Round]:
    """Start a round of REQUEST's questions asked one at a time (reviews, positions), its first on show."""
    with store.transaction():
        session = request.start(store, lex)
        session.clock = clock
        session.started = session.asked_at = clock()
        drill = Round(session)
        state = {"session": session.saved(), "round": drill.saved()}
        ident = _add(store, DRILL, lex, request, state, None, clock)
        saved = store.saved_round(ident)
        assert saved is not None
        return OpenRound(ident, drill, json.loads(saved.state)["secret"])


@contextmanager
def opened(store: ProgressStore, lexicons: Lexicons, ident: str, kind: type[T], noun: str,
           clock: Callable[[], float]) -> Iterator[OpenRound[T]]:
    """The open round of that id and kind, for one request, saved when the block ends (all in one transaction
    of the store; an error inside undoes the request whole); NoSuchRound names it as the player knows it (NOUN)."""
    with store.transaction():
        saved = store.saved_round(ident)
        if saved is None or saved.kind != (WALL if kind is Wall else DRILL):
            raise NoSuchRound(f"no open {noun} {ident!r}")
        state = json.loads(saved.state)
        thing = _made_again(store, lexicons(saved.lexicon), state, clock)
        if not isinstance(thing, kind):
            raise NoSuchRound(f"no open {noun} {ident!r}")
        yield OpenRound(ident, thing, state["secret"])
        _save(store, ident, state, thing, saved.state, clock)


def finish_all(store: ProgressStore, lex: Lexicon, clock: Callable[[], float]) -> None:
    """Finish every open round (so every answer given on it is kept): its player is leaving for good."""
    for ident in store.open_round_ids():
        _finish(store, lex, ident, clock)


def tick(store: ProgressStore, lexicons: Lexicons, clock: Callable[[], float]) -> None:
    """End every open round whose time has run out (a wall left mid-round, the tab closed or the machine asleep,
    is decided by its clock, not by its next request)."""
    for ident in store.rounds_out_of_time(clock()):
        with opened(store, lexicons, ident, Wall, "wall", clock) as wall:
            wall.thing.tick()


def _add(store: ProgressStore, kind: str, lex: Lexicon, request: StudyRequest, state: dict[str, Any],
         deadline: float | None, clock: Callable[[], float], nonce: str = "") -> str:
    """Keep a new round (the one used longest ago finished, past OPEN_LIMIT; rounds ended long ago, or
    before the last KEPT_ENDED, forgotten)."""
    still_open = store.open_round_ids()
    for old in still_open[: max(0, len(still_open) - OPEN_LIMIT + 1)]:
        _finish(store, lex, old, clock)
    now = clock()
    store.forget_rounds(now - KEPT_SECONDS, KEPT_ENDED)
    ident = secrets.token_urlsafe(9)
    state = {"request": request_saved(request), "secret": secrets.token_urlsafe(18), **state}
    store.add_round(ident, kind, lex.name, json.dumps(state), deadline, now, nonce or None)
    return ident


def _finish(store: ProgressStore, lex: Lexicon, ident: str, clock: Callable[[], float]) -> None:
    saved = store.saved_round(ident)
    assert saved is not None
    lexicons: Lexicons = lambda name: lex if name in (None, lex.name) else open_lexicon(str(name))  # noqa: E731
    if saved.kind == WALL:
        with opened(store, lexicons, ident, Wall, "wall", clock) as wall:
            wall.thing.finish()
    else:
        with opened(store, lexicons, ident, Round, "round", clock) as drill:
            drill.thing.finish()


def _made_again(store: ProgressStore, lex: Lexicon, state: dict[str, Any], clock: Callable[[], float]) -> Wall | Round:
    request: StudyRequest = request_from_saved(state["request"])
    if "wall" in state:
        shape = state["shape"]
        wall = Wall(request.resume(store, lex, state["wall"]["session"]), size=shape["size"], seconds=shape["seconds"],
                    clock=clock, missed_round=shape["missed_round"])
        wall.restore(state["wall"])
        return wall
    session = request.resume(store, lex, state["session"])
    session.clock = clock
    session.restore(state["session"])
    return Round(session, saved=state["round"])


def _save(store: ProgressStore, ident: str, state: dict[str, Any], thing: Wall | Round, was: str,
          clock: Callable[[], float]) -> None:
    if isinstance(thing, Wall):
        state["wall"] = thing.saved()
        deadline, ended = _deadline(thing), thing.done
    else:
        state["session"], state["round"] = thing.session.saved(), thing.saved()
        deadline, ended = None, thing.summary is not None
    now = json.dumps(state)
    if now != was:
        store.save_round(ident, now, deadline, clock(), ended)


def _deadline(wall: Wall) -> float | None:
    current = wall.round
    return None if current is None or current.ended else current.deadline
