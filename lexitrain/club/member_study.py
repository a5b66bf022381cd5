"""Each member's study on the club: the local web app (`lexitrain web`) under /study, on the member's own store.

A member's progress store is the local app's own, one per member (`club.member_stores`), and holds
everything of their study, the cards the club's challenge and shared walls schedule included (what
the club owes it is paid before each of their requests: `club.owed`). Under /study the member gets every page and JSON route of the
local app (the daily drill and reviews, walls, challenges, positions, lists, statistics, settings),
the app made for them alone (`web.context.Context` over their store), so a round, a list or a card
of another member is never within reach: there is no route that names a member.

The local app's launch key is replaced by the club's door at the club's edge (`club.door`): a page
without a session is sent to the club's page to log in (the JSON is 401), and every write must carry
the session's CSRF token, in the X-CSRF-Token header (the pages' scripts send it) or a form's `csrf`
field (the pages' forms carry it). The server's own files are not a member's: a wall from a file by its path and the
server's saved searches are refused; uploaded lists are rows of the member's own store.

A member's open rounds (a review, a wall) and uploaded lists are rows of their store, as the local app's
are: any `serve` process answers any request of theirs, a process killed loses no answer acknowledged,
and a restarted one carries every round on. Their app here holds no connection: each piece of work
borrows their store (on PostgreSQL from the process's one pool) and gives it back, on threads every
member shares; the MOST_OPEN members who used it last keep their apps (caches only).
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from datetime import date
from functools import partial
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request

from lexitrain.club.member_stores import MemberStores
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.study.drills import open_rounds
from lexitrain.study.store import ProgressStore
from lexitrain.web.app import ROUTES, create_app
from lexitrain.web.context import Context
from lexitrain.web.edge import visitor

if TYPE_CHECKING:
    from starlette.applications import Starlette
    from starlette.routing import BaseRoute
    from starlette.types import Receive, Scope, Send

#: The members whose study apps a process keeps at once (an app holds no connection and no open round: its
#: caches, the statistics counted, are what letting one go loses).
MOST_OPEN = 32
#: The most words a member's wall or sheet may be made of (a search, a built-in list or an uploaded list finding
#: more is refused in one line, counted before its rows are built): a generous study list (Aerolith's lists run to
#: a few thousand questions a round-set; ENABLE's 5,000 likeliest sevens are 3,442 alphagrams, the largest built-in
#: list 1,002 words), where the whole lexicon took 4 s of CPU, 370 MB and a 4.9 MB saved wall, or a 605 MB sheet.
MOST_WORDS = 5000
#: Threads that run every member's study work at once (each borrows a connection while it works).
WORKERS = 8


class MemberStudy:
    """The ASGI app mounted at /study, behind the club's edge: the member it let in gets their own app."""

    def __init__(self, stores: MemberStores, lex: Lexicon, clock: Callable[[], float],
                 settle: Callable[[int], None], gate: Callable[[int, str, str, date], None] | None = None,
                 most_open: int = MOST_OPEN, today: Callable[[], date] | None = None) -> None:
        """STORES: the members' stores; LEX: the club's lexicon (a member's until they choose another);
        SETTLE: pays what the club owes a member's store (`Club.settle`), before each of their requests;
        GATE(member, lexicon, kind, day) refuses a daily challenge the member may not see yet (today's ranked set);
        TODAY: the club's day by its clock (`Club.today`), whose challenges are today's in /study too."""
        self.gate = gate
        self.today = today
        self.stores = stores
        self.lex = lex
        self.clock = clock
        self.settle = settle
        self.most_open = most_open
        self._apps: OrderedDict[int, tuple[Context, Starlette]] = OrderedDict()
        self._busy: dict[int, int] = {}
        self._lock = threading.Lock()
        self._lexicons: dict[str, Any] = {lex.name: lex}  # shared: a lexicon is opened once
        self._lexicons_lock = threading.Lock()
        self._workers = ThreadPoolExecutor(WORKERS, thread_name_prefix="lexitrain-study")

    @property
    def routes(self) -> list[BaseRoute]:
        """The routes of a member's study app (the local app's), below the mount."""
        return ROUTES

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        member = visitor(Request(scope)).who  # (the club's edge let them in: their session and CSRF token checked)
        await run_in_threadpool(self.settle, member.id)
        ctx, app = await run_in_threadpool(self._take, member.id)  # (their lexicon: the app's `follow_lexicon`)
        try:
            await app(scope, receive, send)
        finally:
            self._give_back(member.id)

    def _take(self, member_id: int) -> tuple[Context, Starlette]:
        """The member's app, made on first use; the least recently used idle ones past MOST_OPEN let go."""
        with self._lock:
            self._busy[member_id] = self._busy.get(member_id, 0) + 1
            if member_id in self._apps:
                self._apps.move_to_end(member_id)
                return self._apps[member_id]
        try:
            ctx = self._context(member_id)
        except BaseException:
            self._give_back(member_id)
            raise
        made = (ctx, create_app(ctx, guarded=False))
        with self._lock:
            if member_id in self._apps:  # (another request made it meanwhile: that one is kept)
                ctx.close()
                return self._apps[member_id]
            self._apps[member_id] = made
            idle = [m for m in self._apps if not self._busy.get(m)]
            closing = [self._apps.pop(m)[0] for m in idle[:max(0, len(self._apps) - self.most_open)]]
        for old in closing:
            old.close()
        return made

    def _context(self, member_id: int) -> Context:
        """A member's app's launch: every piece of work borrows their store for itself, on threads all members
        share. The statistics are counted again when the store changed: PostgreSQL's snapshot says so through
        any connection, an SQLite file's data_version through one that never writes (the app's own)."""

        @contextmanager
        def lend() -> Iterator[ProgressStore]:
            with self.stores.open(member_id) as store:
                yield store

        def changes() -> int:
            with lend() as store:
                return store.data_version()

        file = None if self.stores.postgres else self.stores.home(member_id) / "progress.sqlite"
        return Context(None, self.lex.name, clock=self.clock, lend=lend, shared=self._workers,
                       open_store=None if file is None else (lambda: ProgressStore(file)),
                       changes=changes if file is None else None, home=self.stores.home(member_id),
                       on_this_machine=False, club_page="/", _lexicons=self._lexicons,
                       _lexicons_lock=self._lexicons_lock,
                       challenge_gate=None if self.gate is None else partial(self.gate, member_id),
                       club_day=self.today, most_words=MOST_WORDS)

    def _give_back(self, member_id: int) -> None:
        with self._lock:
            self._busy[member_id] -= 1
            if not self._busy[member_id]:
                del self._busy[member_id]

    async def tick(self) -> None:
        """End the open rounds whose time ran out of the members this process served lately (the club's clock
        task calls it; any other's ends at their next request)."""
        with self._lock:
            open_now = [ctx for ctx, _ in self._apps.values()]
        for ctx in open_now:
            try:
                await ctx.offload.write(ctx.tick)
            except RuntimeError:  # (let go meanwhile)
                pass

    def finish_rounds(self, member_id: int) -> None:
        """Finish every open round of a member (so every answer given on it is kept): they are being removed."""
        with self.stores.open(member_id) as store:
            open_rounds.finish_all(store, self.lex, self.clock)

    def close_member(self, member_id: int) -> None:
        """Let a member's app go if this process holds it (they are being removed; their rounds were finished)."""
        with self._lock:
            made = self._apps.pop(member_id, None)
        if made is not None:
            made[0].close()

    def close(self) -> None:
        """The server is stopping: the members' apps let go (their open rounds stay, to be carried on)."""
        with self._lock:
            made, self._apps = list(self._apps.values()), OrderedDict()
        for ctx, _ in made:
            ctx.close()
        self._workers.shutdown(wait=True)
