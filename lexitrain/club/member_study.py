"""Each member's study on the club: the local web app (`lexitrain web`) under /study, on the member's own store.

A member's progress store is the local app's own, one per member (`club.member_stores`), and holds
everything of their study, the cards the club's challenge and shared walls schedule included (what
the club owes it is paid before each of their requests: `club.owed`). Under /study the member gets every page and JSON route of the
local app (the daily drill and reviews, walls, challenges, positions, lists, statistics, settings),
the app made for them alone (`web.context.Context` over their store), so a round, a list or a card
of another member is never within reach: there is no route that names a member.

The local app's launch secret is replaced by the club's session (a page without one is sent to the
club's page to log in; the JSON is 401), and every write must carry the session's CSRF token, in
the X-CSRF-Token header (the pages' scripts send it) or a form's `csrf` field (the pages' forms
carry it). The server's own files are not a member's: a wall from a file by its path and the
server's saved searches are refused; uploaded lists are kept in the member's own folder.

A member's app holds their open rounds (a review, a wall) in this process, as `lexitrain web` does:
the MOST_OPEN members who used it last keep theirs open, and an older one's rounds are finished (so
saved) when another member needs the room. Behind several `serve` processes, a proxy keeps a
member on one process for /study (by the session cookie); the club's own routes need no such thing.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response

from lexitrain.club import members
from lexitrain.errors import LexitrainError
from lexitrain.web.app import ROUTES, create_app
from lexitrain.web.context import Context
from lexitrain.web.guard import HEADERS, MAX_BODY, SAFE_METHODS, capped, with_headers

if TYPE_CHECKING:
    from starlette.applications import Starlette
    from starlette.routing import BaseRoute
    from starlette.types import Message, Receive, Scope, Send

    from lexitrain.club.app import Club

#: The members whose study apps (and open rounds) a process keeps at once.
MOST_OPEN = 8
#: The form field a write carries its CSRF token in (a script sends members.CSRF_HEADER).
CSRF_FIELD = "csrf"


class MemberStudy:
    """The ASGI app mounted at /study: the member's session and CSRF checked, then their own app."""

    def __init__(self, club: Club, cookie: str, most_open: int = MOST_OPEN) -> None:
        """`cookie`: the name of the club's session cookie."""
        self.club = club
        self.cookie = cookie
        self.stores = club.stores
        self.most_open = most_open
        self._apps: OrderedDict[int, tuple[Context, Starlette]] = OrderedDict()
        self._busy: dict[int, int] = {}
        self._lock = threading.Lock()
        self._lexicons: dict[str, Any] = {club.lex.name: club.lex}  # shared: a lexicon is opened once
        self._lexicons_lock = threading.Lock()

    @property
    def routes(self) -> list[BaseRoute]:
        """The routes of a member's study app (the local app's), below the mount."""
        return ROUTES

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        request = Request(scope)
        token = request.cookies.get(self.cookie)
        found = await run_in_threadpool(members.session_member, self.club.db, token, self.club.clock())
        if found is None:
            if request.method in SAFE_METHODS and "text/html" in request.headers.get("accept", ""):
                await RedirectResponse("/", status_code=303, headers=HEADERS)(scope, receive, send)
            else:
                await _refuse(401, "log in first (POST /api/session)", scope, receive, send)
            return
        member, csrf = found
        if request.headers.get("sec-fetch-site") == "cross-site":
            await _refuse(403, "requests from other sites are refused", scope, receive, send)
            return
        receive = capped(receive)
        if request.method not in SAFE_METHODS:
            sent = request.headers.get(members.CSRF_HEADER)
            if sent is None:
                body = await _whole_body(receive)
                sent = await _form_token(scope, body)
                receive = _replay(body)
            if not members.csrf_matches(sent, csrf):
                await _refuse(403, "missing or wrong CSRF token (X-CSRF-Token, or the form's csrf field)",
                              scope, receive, send)
                return
        scope.setdefault("state", {})["csrf"] = csrf
        await run_in_threadpool(self.club.settle, member.id)  # (what the club's challenge and walls owe their store)
        ctx, app = await run_in_threadpool(self._take, member.id)
        try:
            await app(scope, receive, with_headers(send))
        finally:
            self._give_back(member.id)

    def _take(self, member_id: int) -> tuple[Context, Starlette]:
        """The member's app, made on first use; the least recently used idle ones past MOST_OPEN closed."""
        with self._lock:
            self._busy[member_id] = self._busy.get(member_id, 0) + 1
            if member_id in self._apps:
                self._apps.move_to_end(member_id)
                return self._apps[member_id]
        try:
            open_store = self.stores.opener(member_id)
            store = open_store()
            lexicon = str(store.setting("lexicon", self.club.lex.name))
            ctx = Context(store, lexicon, clock=self.club.clock, open_store=open_store,
                          home=self.stores.home(member_id), on_this_machine=False, readers=1, club_page="/",
                          _lexicons=self._lexicons, _lexicons_lock=self._lexicons_lock)
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

    def _give_back(self, member_id: int) -> None:
        with self._lock:
            self._busy[member_id] -= 1
            if not self._busy[member_id]:
                del self._busy[member_id]

    async def tick(self) -> None:
        """End every open member's rounds whose time ran out (the club's clock task calls it)."""
        with self._lock:
            open_now = [ctx for ctx, _ in self._apps.values()]
        for ctx in open_now:
            try:
                await ctx.offload.write(ctx.tick_all)
            except RuntimeError:  # (closed meanwhile: another member needed the room, its rounds saved)
                pass

    def close_member(self, member_id: int) -> None:
        """Close a member's app if this process holds it: their open rounds are finished, so saved."""
        with self._lock:
            made = self._apps.pop(member_id, None)
        if made is not None:
            made[0].close()

    def forget(self, member_id: int) -> None:
        """Delete a member's store (the member is being removed), closing their app first if it was opened
        again meanwhile."""
        self.close_member(member_id)
        self.stores.remove(member_id)

    def close(self) -> None:
        """The server is stopping: every member's open rounds saved."""
        with self._lock:
            made, self._apps = list(self._apps.values()), OrderedDict()
        for ctx, _ in made:
            ctx.close()


async def _refuse(status: int, message: str, scope: Scope, receive: Receive, send: Send) -> None:
    response: Response = JSONResponse({"error": message}, status_code=status, headers=HEADERS)
    await response(scope, receive, send)


async def _whole_body(receive: Receive) -> bytes:
    parts: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            raise LexitrainError("the request ended before its body")
        parts.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(parts)


async def _form_token(scope: Scope, body: bytes) -> str | None:
    """The `csrf` field of a form's body (URL-encoded, or multipart: an uploaded list)."""
    kind = Request(scope).headers.get("content-type", "")
    if kind.startswith("application/x-www-form-urlencoded"):
        values = parse_qs(body.decode("latin-1"), max_num_fields=1000).get(CSRF_FIELD)
        return values[0] if values else None
    if kind.startswith("multipart/form-data") and len(body) <= MAX_BODY:
        form = await Request(scope, _replay(body)).form()
        value = form.get(CSRF_FIELD)
        return value if isinstance(value, str) else None
    return None


def _replay(body: bytes) -> Receive:
    """A receive that hands the body read already to the app, then waits as the server's would."""
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.Event().wait()  # (the server's receive waits for the client to go away)
        return {"type": "http.disconnect"}

    return receive
