"""`lexitrain serve`'s HTTP face: the club's JSON API (docs/club.md) and each member's /study, behind one edge.

The club's app stands behind the edge every face shares (`web.edge`), with the club's door
(`club.door`): every route but the public ones needs a member's session (401 without one), every
write a member makes carries the session's CSRF token (403 when missing or wrong), and a request a
browser says came from another site is refused. A member's routes act only on that member's rows:
their attempts, their cards, their progress; asking for another member's is 403 (cards) or 404 (an
attempt, whose existence is not told). The app keeps nothing between requests but caches of what
never changes (the day's challenge sets), so several processes over one PostgreSQL serve one club.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import date, datetime
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from lexitrain.club import challenges as ch
from lexitrain.club import members, owed, study, sync, tables, wall_pages
from lexitrain.club.events import CATCH_UP, ENDED, Hub, Hubs
from lexitrain.club.store import ClubDatabase
from lexitrain.club.member_stores import MemberStores
from lexitrain.club.member_study import MemberStudy
from lexitrain.club.door import COOKIE, ClubDoor
from lexitrain.club.members import LONGEST_PASSWORD, Member
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.study.drills.challenge import parse_day
from lexitrain.study.store.exchange import PAGE_BYTES
from lexitrain.web import edge
from lexitrain.web.app import STATIC as WEB_STATIC
from lexitrain.web.edge import Edge, Refused, error, handlers, read_json, text, visitor, whole, whole_text

LOG = logging.getLogger(__name__)
#: Largest body a route of the club takes, unless BODY_BOUNDS says otherwise (the edge refuses it as it streams
#: past): a login or a sign-up, asked before anyone is known, takes a few KB, a password change two passwords; an
#: uploaded progress export (a member's only) the most, then a page of a home's changes (`lexitrain sync`); a member's
#: /study the local app's own bound (an uploaded word list).
MAX_BODY = 64 << 10
BODY_BOUNDS = {("POST", "/api/session"): 4 << 10, ("POST", "/api/members"): 4 << 10, ("POST", "/api/password"): 8 << 10,
               ("POST", "/api/progress"): 64 << 20, ("POST", "/api/sync/push"): PAGE_BYTES + (64 << 10),
               ("*", "/study/"): edge.MAX_BODY}
#: The longest card key and answer line /api/study takes (a position's CGP; every word of a list typed as one).
LONGEST_KEY = 1000
LONGEST_ANSWER = 20_000
#: The cookie a browser the member logged in from carries (sent with logins only): its password checks are its own.
DEVICE_COOKIE = "lexitrain_device"
#: The routes anyone may ask, logged in or not (method, path): the page, its scripts and style, signing up, logging
#: in, who this is.
PUBLIC = frozenset({("GET", "/"), ("HEAD", "/"), ("GET", "/club.js"), ("GET", "/static/common.js"),
                    ("GET", "/static/app.css"),
                    ("POST", "/api/members"), ("POST", "/api/session"), ("GET", "/api/session")})


class Club:
    """What the routes share: the database, the members' stores, the club's lexicon and its challenge sets,
    the clock."""

    def __init__(self, db: ClubDatabase, lex: Lexicon, public_url: str | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.stores = MemberStores(db)
        self.lex = lex
        self.sets = ch.ChallengeSets(lex)
        self.walls = tables.Walls(lex)
        self.hubs = Hubs(db)
        self.clock = clock
        self.public_url = public_url
        self.secure = bool(public_url and public_url.startswith("https://"))
        self.door = ClubDoor(db, clock, PUBLIC)

    def today(self) -> date:
        """The club's day, by its clock (whose sets are today's, ranked)."""
        return datetime.fromtimestamp(self.clock()).date()

    def settle(self, member_id: int) -> None:
        """Pay what the club owes the member's store (`club.owed`), if anything: called before their cards
        are read (the study routes, their export, every request of their /study), never on a hot path
        that only writes (a finish, a find), so a challenge's guesses never wait for a store."""
        if owed.anything_owed(self.db, member_id):
            with self.stores.open(member_id) as store:
                owed.settle(self.db, store, member_id)

    def settle_everyone(self) -> None:
        """Pay every debt the club holds (a server starting: debts of members who have not read their cards
        since, and the cards an earlier lexitrain kept in the club's own tables). A store that cannot be
        written now (a full disk, a damaged file) is logged and its debt kept for the next settling."""
        for member_id in owed.members_owed(self.db):
            try:
                self.settle(member_id)
            except Exception as exc:  # (any failure: that member's debt is kept whatever it was)
                LOG.warning("member %s: reviews owed to their progress store not paid yet: %s", member_id, exc)

    def remove_member(self, member_id: int, let_go: Callable[[int], None] = lambda member_id: None) -> dict[str, Any]:
        """Remove a member: their whole progress (what the admin is handed), then, in one transaction, every row
        of theirs in the club's tables, then their store and folder (uploaded lists too). A removal cut short
        after its transaction is finished by `finish_removals` as the next server starts; the member's id is
        never given again either way. LET_GO closes whatever of theirs this process holds open (their study)
        before their store goes."""
        self.settle(member_id)
        whole = self.stores.export(member_id)  # (read before anything is deleted)
        self.hubs.committed(members.remove(self.db, member_id, self.clock()))  # (their sockets closed)
        let_go(member_id)
        self.finish_removal(member_id)
        return whole

    def finish_removal(self, member_id: int) -> None:
        self.stores.remove(member_id)
        members.end_removal(self.db, member_id)

    def finish_removals(self) -> None:
        """A server starting: finish every removal a crash cut short, and give no new member an id under which a
        store or folder is still found (one an earlier lexitrain left behind)."""
        for member_id in members.unfinished_removals(self.db):
            self.finish_removal(member_id)
        members.give_ids_above(self.db, self.stores.highest_id())


def club_of(request: Request) -> Club:
    club: Club = request.app.state.club
    return club


Handler = Callable[[Request, Club, Member], Awaitable[Response]]


def member_route(handler: Handler) -> Callable[[Request], Awaitable[Response]]:
    """The handler, given the member the edge let in (their session and any write's CSRF token checked there)."""

    async def checked(request: Request) -> Response:
        return await handler(request, club_of(request), visitor(request).who)

    return checked


def admin_route(handler: Handler) -> Callable[[Request], Awaitable[Response]]:
    async def checked(request: Request, club: Club, member: Member) -> Response:
        if not member.admin:
            return error(403, "admins only")
        return await handler(request, club, member)

    return member_route(checked)


async def _run(function: Callable[..., Any], *args: Any) -> Any:
    """A blocking call (the database, argon2) on a worker thread, so the event loop keeps serving."""

    return await run_in_threadpool(function, *args)


async def sign_up(request: Request) -> Response:
    club, data = club_of(request), await read_json(request)
    member = await _run(members.sign_up, club.db, text(data, "name"), text(data, "password", LONGEST_PASSWORD), text(data, "invite"),
                        club.clock())
    return JSONResponse({"member": member.name}, status_code=201)


async def log_in(request: Request) -> Response:
    club, data = club_of(request), await read_json(request)
    address = request.client.host if request.client else "unknown"  # (a proxy's forwarded one only if trusted: server.py)
    login = await _run(members.log_in, club.db, text(data, "name"), text(data, "password", LONGEST_PASSWORD), address,
                       club.clock(), request.cookies.get(DEVICE_COOKIE))
    response = JSONResponse({"member": login.member.name, "csrf": login.csrf})
    response.set_cookie(COOKIE, login.token, max_age=members.SESSION_DAYS * 86400, httponly=True, samesite="lax",
                        secure=club.secure, path="/")
    response.set_cookie(DEVICE_COOKIE, login.device, max_age=members.DEVICE_DAYS * 86400, httponly=True,
                        samesite="strict", secure=club.secure, path="/api/session")
    return response


async def session(request: Request) -> Response:
    """Who this session is, and its CSRF token (the page's after a reload; no other site can read it);
    `{"member": null}` without one (a visitor: the page shows the login). Either way, the club's lexicon."""
    club = club_of(request)
    found = await club.door.session(request)
    if found is None:
        return JSONResponse({"member": None, "lexicon": club.lex.name})
    return JSONResponse({"member": found[0].name, "csrf": found[1], "admin": found[0].admin,
                         "lexicon": club.lex.name})


#: The page's own files, and what a browser may do with them: nothing from elsewhere, never in a frame.
STATIC = Path(__file__).parent / "static"
PAGE_HEADERS = {"content-security-policy": "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                "connect-src 'self' ws: wss:; frame-ancestors 'none'", "x-frame-options": "DENY",
                "x-content-type-options": "nosniff", "referrer-policy": "same-origin"}


async def page(request: Request) -> Response:
    return FileResponse(STATIC / "club.html", headers=PAGE_HEADERS)


async def script(request: Request) -> Response:
    return FileResponse(STATIC / "club.js", media_type="text/javascript", headers=PAGE_HEADERS)


async def log_out(request: Request, club: Club, member: Member) -> Response:
    club.hubs.committed(await _run(members.log_out, club.db, request.cookies[COOKIE]))  # (its sockets closed)
    response = JSONResponse({"member": member.name, "logged_out": True})
    response.delete_cookie(COOKIE, path="/")
    return response


async def change_password(request: Request, club: Club, member: Member) -> Response:
    """The member's own new password, their current one verified: their other sessions end, this one stays."""
    data = await read_json(request)
    club.hubs.committed(await _run(members.change_password, club.db, member, request.cookies[COOKIE],
                                   text(data, "current", LONGEST_PASSWORD), text(data, "password", LONGEST_PASSWORD),
                                   club.clock()))
    return JSONResponse({"member": member.name, "changed": True})


async def challenge(request: Request, club: Club, member: Member) -> Response:
    kind = request.query_params.get("kind", "sevens")
    chosen = await _run(club.sets.get, kind, club.today())
    attempt = await _run(ch.open_attempt, club.db, member.id, club.lex.name, chosen, club.clock())
    return JSONResponse({"attempt": attempt, "date": chosen.day.isoformat(), "kind": kind,
                         "alphagrams": list(chosen.keys)})


async def challenge_page(request: Request, club: Club, member: Member) -> Response:
    """The member's attempt on the wall (the local app's page and script over `challenge_wall`)."""
    attempt = wall_pages.ident(request, "attempt", "attempt")
    return await wall_pages.wall_page(request, club.stores, member, club.lex.name, "challenge", attempt,
                                      lambda: ch.attempt_title(club.db, club.sets, member.id, attempt))


async def challenge_wall(request: Request, club: Club, member: Member) -> Response:
    """The member's attempt as the wall draws it (an attempt whose time has run out finished first)."""
    attempt = wall_pages.ident(request, "attempt", "attempt")
    return JSONResponse(await _run(ch.attempt_wall, club.db, club.sets, member.id, attempt, club.clock()))


async def guess(request: Request, club: Club, member: Member) -> Response:
    data = await read_json(request)
    correct, key = await _run(ch.guess, club.db, club.sets, member.id, whole(data, "attempt"), text(data, "word"),
                              club.clock())
    return JSONResponse({"correct": correct, "alphagram": key})


async def finish(request: Request, club: Club, member: Member) -> Response:
    data = await read_json(request)
    result = await _run(ch.finish, club.db, club.sets, member.id, whole(data, "attempt"), club.lex.name, club.clock())
    return JSONResponse(result.to_json())


def _day(request: Request, club: Club) -> date:
    given = request.query_params.get("date")
    return club.today() if given is None else parse_day(given)


async def leaderboard(request: Request, club: Club, member: Member) -> Response:
    kind = request.query_params.get("kind", "sevens")
    ch.check_kind(kind)
    retakes = request.query_params.get("retakes") == "1"
    return JSONResponse(await _run(ch.leaderboard, club.db, club.sets, club.lex.name, kind, _day(request, club),
                                   club.clock(), retakes))


async def medals(request: Request, club: Club, member: Member) -> Response:
    kind = request.query_params.get("kind", "sevens")
    ch.check_kind(kind)
    return JSONResponse(await _run(ch.medals, club.db, club.lex.name, kind))


async def toughies(request: Request, club: Club, member: Member) -> Response:
    return JSONResponse(await _run(ch.toughies, club.db, club.lex.name, club.today()))


async def cards(request: Request, club: Club, member: Member) -> Response:
    asked = request.query_params.get("member", member.name)
    if asked != member.name:
        return error(403, "a member sees only their own cards")
    return JSONResponse(await _run(_with_store, club, member.id, study.cards))


def _with_store(club: Club, member_id: int, read: Callable[..., Any], *args: Any) -> Any:
    """`read(store, *args)` on the member's store, once what the club owes it is paid."""
    club.settle(member_id)
    with club.stores.open(member_id) as store:
        return read(store, *args)


async def study_due(request: Request, club: Club, member: Member) -> Response:
    limit = whole_text(request.query_params.get("limit"), "limit", 1)
    return JSONResponse(await _run(_with_store, club, member.id, study.due, club.lex, club.clock(), limit))


async def study_answer(request: Request, club: Club, member: Member) -> Response:
    data = await read_json(request)
    rating = None if data.get("rating") is None else whole(data, "rating")
    if "reviewed" not in data:
        raise Refused(400, "'reviewed' is missing (the card's last_review as shown, null for a new card)")
    reviewed = data["reviewed"]
    if reviewed is not None and (isinstance(reviewed, bool) or not isinstance(reviewed, (int, float))):
        raise Refused(400, "'reviewed' is not a number or null")
    return JSONResponse(await _run(_with_store, club, member.id, study.answer, club.lex, text(data, "kind"),
                                   text(data, "key", LONGEST_KEY), text(data, "answer", LONGEST_ANSWER), reviewed, club.clock(), rating))


async def sync_identity(request: Request, club: Club, member: Member) -> Response:
    return JSONResponse(await _run(_with_store, club, member.id, sync.identity))


async def sync_push(request: Request, club: Club, member: Member) -> Response:
    data = await read_json(request)
    return JSONResponse(await _run(_with_store, club, member.id, sync.push, data))


async def sync_changes(request: Request, club: Club, member: Member) -> Response:
    query = request.query_params
    return JSONResponse(await _run(_with_store, club, member.id, sync.changes, query.get("since"), query.get("limit"),
                                   query.get("skip")))


async def sync_done(request: Request, club: Club, member: Member) -> Response:
    data = await read_json(request)
    return JSONResponse(await _run(_with_store, club, member.id, sync.done, data))


async def invite(request: Request, club: Club, member: Member) -> Response:
    return JSONResponse({"invite": await _run(members.make_invite, club.db, club.clock())}, status_code=201)


async def reset_password(request: Request, club: Club, member: Member) -> Response:
    data = await read_json(request)
    name = request.path_params["name"]
    club.hubs.committed(await _run(members.reset_password, club.db, name, text(data, "password", LONGEST_PASSWORD)))
    return JSONResponse({"member": name, "reset": True})


async def download_progress(request: Request, club: Club, member: Member) -> Response:
    """The member's whole progress: their store, everything the club owes it paid first."""
    await _run(club.settle, member.id)
    export = await _run(club.stores.export, member.id)
    return JSONResponse(export, headers={"content-disposition": f'attachment; filename="{member.name}-progress.json"'})


async def upload_progress(request: Request, club: Club, member: Member) -> Response:
    """A local export merged whole into the member's store (cards, decks, answers, plans...): what it took."""
    data = await read_json(request)
    return JSONResponse(await _run(club.stores.merge, member.id, data))


async def list_members(request: Request, club: Club, member: Member) -> Response:
    """The club's members, for the admin's page to reset a password or remove one."""
    return JSONResponse(await _run(members.roll, club.db))


async def remove_member(request: Request, club: Club, member: Member) -> Response:
    """Remove a member: their whole progress is the answer, for the admin to hand to them."""
    name = request.path_params["name"]
    if name == member.name:
        return error(409, "an admin does not remove themself")
    study: MemberStudy = request.app.state.study
    removed = await _run(members.member_named, club.db, name)
    if removed is None:
        raise Refused(404, f"no member named {name!r}")
    await _run(study.finish_rounds, removed.id)  # their open rounds finished (so saved) before their store is read
    return JSONResponse(await _run(club.remove_member, removed.id, study.close_member))


async def open_table(request: Request, club: Club, member: Member) -> Response:
    data = await read_json(request)
    keys = await _run(tables.list_keys, club.lex, club.sets, club.db, data, club.today(), club.clock())
    on_set = (data["challenge"], club.today()) if isinstance(data.get("challenge"), str) else None
    seconds = tables.round_seconds(data, keys)
    table = await _run(tables.open_table, club.db, member.id, club.lex.name, keys, data.get("practice") is True,
                       club.clock(), on_set, seconds)
    return JSONResponse({"table": table, "alphagrams": keys, "seconds": seconds}, status_code=201)


async def list_tables(request: Request, club: Club, member: Member) -> Response:
    return JSONResponse(await _run(tables.open_tables, club.db, club.lex.name, club.clock()))


def _table_id(request: Request) -> int:
    return wall_pages.ident(request, "table", "table")


async def _on_the_clock(club: Club, table: int, now: float) -> None:
    """A table whose time is up by NOW ended for everyone seated (its end sent to their sockets) before a request
    reads or writes it: the club's clock is final, whichever page asks first."""
    event = await _run(tables.time_up, club.db, table, now)
    if event is not None:
        club.hubs.committed(event)


async def join_table(request: Request, club: Club, member: Member) -> Response:
    table, now = _table_id(request), club.clock()
    await _on_the_clock(club, table, now)
    event = await _run(tables.join, club.db, member.id, member.name, table, now)
    if event is not None:
        club.hubs.committed(event)
    return JSONResponse(await _run(tables.state, club.db, club.walls, member.id, table, now))


async def table_state(request: Request, club: Club, member: Member) -> Response:
    table, now = _table_id(request), club.clock()
    await _on_the_clock(club, table, now)
    return JSONResponse(await _run(tables.state, club.db, club.walls, member.id, table, now))


async def table_page(request: Request, club: Club, member: Member) -> Response:
    """A seated member's table on the wall (the local app's page and script over `table_state`'s `wall`)."""
    table = _table_id(request)
    return await wall_pages.wall_page(request, club.stores, member, club.lex.name, "table", table,
                                      lambda: tables.title(club.db, member.id, table))


async def table_guess(request: Request, club: Club, member: Member) -> Response:
    data = await read_json(request)
    table, now = _table_id(request), club.clock()
    word = text(data, "word", tables.LONGEST_GUESS)
    await _on_the_clock(club, table, now)  # (a guess after the time is refused, 409, and the table ended)
    event = await _run(tables.guess, club.db, club.walls, member.id, member.name, table, word, club.lex.name, now)
    club.hubs.committed(event)
    return JSONResponse({k: event[k] for k in ("id", "correct", "alphagram", "first")})


async def end_table(request: Request, club: Club, member: Member) -> Response:
    table, now = _table_id(request), club.clock()
    await _on_the_clock(club, table, now)
    event = await _run(tables.finish, club.db, member.id, table, now)
    club.hubs.committed(event)
    return JSONResponse({"scoreboard": event["scoreboard"]})


async def table_events(socket: WebSocket) -> None:
    """A seated member's live table: first the events after `?after=N` (default all), then each as it comes.
    Refused (accepted, then closed with 4401, 4403 or 4404, as docs/club.md says) without a session, from
    another site (a browser's Origin, an empty one included), or for a table not joined; closed with 4401
    the moment its session ends (a logout, a password reset, a removal), in whichever process."""
    club: Club = socket.app.state.club
    origin = socket.headers.get("origin")
    host = socket.headers.get("host", "")
    allowed = {f"http://{host}", f"https://{host}", *([club.public_url.rstrip("/")] if club.public_url else [])}
    token = socket.cookies.get(COOKIE)
    found = await club.door.session(socket)
    try:
        table = whole_text(socket.path_params["table"], "a table's id", 0)
        after = whole_text(socket.query_params.get("after"), "after", 0)
    except Refused:
        table = after = -1
    if origin is not None and origin.rstrip("/") not in allowed:
        await _refuse(socket, 4403)
    elif found is None or token is None:
        await _refuse(socket, 4401)
    elif table < 0:
        await _refuse(socket, 4404)
    else:
        await _follow(socket, club, found[0], members.digest(token), table, after)


async def _refuse(socket: WebSocket, code: int) -> None:
    """A close code the page can read (closing before accepting is an HTTP 403, whatever the reason)."""
    await socket.accept()
    await socket.close(code=code)


async def _follow(socket: WebSocket, club: Club, member: Member, session: str, table: int, after: int) -> None:
    hub: Hub = socket.app.state.hub
    seat = hub.seat(table, member.id, session)  # (before reading: nothing committed from now on is missed)
    sent: set[int] = set()
    try:
        missed = await _catch_up(club, member, session, table, after)
        await socket.accept()
        if isinstance(missed, int):
            await socket.close(code=missed)
            return
        for event in missed:
            sent.add(event["id"])
            await socket.send_json(event)
        closed = asyncio.create_task(_until_closed(socket))
        try:
            while True:
                coming = asyncio.ensure_future(seat.queue.get())
                await asyncio.wait({coming, closed}, return_when=asyncio.FIRST_COMPLETED)
                if not coming.done():  # the member went away (a tab closed): nothing more to send
                    coming.cancel()
                    return
                notice = coming.result()
                if notice == CATCH_UP:  # (the process listens again after a lost connection)
                    caught = await _catch_up(club, member, session, table, max(sent, default=after))
                elif notice == ENDED:
                    caught = 4401
                else:
                    caught = [notice] if isinstance(notice, dict) else []
                if isinstance(caught, int):
                    await socket.close(code=caught)
                    return
                for event in caught:
                    if event["id"] not in sent:
                        sent.add(event["id"])
                        await socket.send_json(event)
        finally:
            closed.cancel()
    except WebSocketDisconnect:
        pass
    finally:
        hub.leave(seat)


async def _catch_up(club: Club, member: Member, session: str, table: int, after: int) -> list[dict[str, Any]] | int:
    """The table's events after AFTER, if the session still stands and the member sits there; else the close
    code."""
    if await _run(members.session_of, club.db, session, club.clock()) != member.id:
        return 4401
    try:
        return list(await _run(tables.events_after, club.db, member.id, table, after))
    except Refused as refused:
        return 4000 + refused.status


async def _until_closed(socket: WebSocket) -> None:
    """Return when the client closes the socket: a member who leaves is let go at once, not at the table's
    next event (an ended table has none: its sockets were held until the server stopped). The page sends
    nothing on it, so a client that sends anything is closed (1008), its frames never piling up."""
    if (await socket.receive())["type"] == "websocket.receive":
        await socket.close(code=1008)


ROUTES = [
    Route("/", page, methods=["GET"]),
    Route("/club.js", script, methods=["GET"]),
    Route("/api/members", sign_up, methods=["POST"]),
    Route("/api/session", log_in, methods=["POST"]),
    Route("/api/session", session, methods=["GET"]),
    Route("/api/session", member_route(log_out), methods=["DELETE"]),
    Route("/api/password", member_route(change_password), methods=["POST"]),
    Route("/api/challenge", member_route(challenge), methods=["GET"]),
    Route("/api/challenge/{attempt}", member_route(challenge_wall), methods=["GET"]),
    Route("/challenge/{attempt}", member_route(challenge_page), methods=["GET"]),
    Route("/api/challenge/guess", member_route(guess), methods=["POST"]),
    Route("/api/challenge/finish", member_route(finish), methods=["POST"]),
    Route("/api/leaderboard", member_route(leaderboard), methods=["GET"]),
    Route("/api/medals", member_route(medals), methods=["GET"]),
    Route("/api/toughies", member_route(toughies), methods=["GET"]),
    Route("/api/cards", member_route(cards), methods=["GET"]),
    Route("/api/study", member_route(study_due), methods=["GET"]),
    Route("/api/study/answer", member_route(study_answer), methods=["POST"]),
    Route("/api/progress", member_route(download_progress), methods=["GET"]),
    Route("/api/progress", member_route(upload_progress), methods=["POST"]),
    Route("/api/sync", member_route(sync_identity), methods=["GET"]),
    Route("/api/sync/push", member_route(sync_push), methods=["POST"]),
    Route("/api/sync/changes", member_route(sync_changes), methods=["GET"]),
    Route("/api/sync/done", member_route(sync_done), methods=["POST"]),
    Route("/api/tables", member_route(open_table), methods=["POST"]),
    Route("/api/tables", member_route(list_tables), methods=["GET"]),
    Route("/api/tables/{table}", member_route(table_state), methods=["GET"]),
    Route("/tables/{table}", member_route(table_page), methods=["GET"]),
    Route("/api/tables/{table}/join", member_route(join_table), methods=["POST"]),
    Route("/api/tables/{table}/guess", member_route(table_guess), methods=["POST"]),
    Route("/api/tables/{table}/end", member_route(end_table), methods=["POST"]),
    WebSocketRoute("/api/tables/{table}/events", table_events),
    Route("/api/admin/invites", admin_route(invite), methods=["POST"]),
    Route("/api/admin/members", admin_route(list_members), methods=["GET"]),
    Route("/api/admin/members/{name}", admin_route(remove_member), methods=["DELETE"]),
    Route("/api/admin/members/{name}/password", admin_route(reset_password), methods=["POST"]),
    Mount(wall_pages.STATIC, StaticFiles(directory=WEB_STATIC), name="static"),  # (the wall's script and style)
]


#: How often the members' open rounds' clocks are checked with no request coming.
TICK_SECONDS = 2.0


def create_app(club: Club) -> Starlette:
    """The club's routes, and each member's study (the local app's pages and JSON) under /study."""
    study = MemberStudy(club.stores, club.lex, club.clock, club.settle,
                        lambda member_id, lexicon, kind, day: ch.study_gate(club.db, member_id, lexicon, kind, day,
                                                                            club.clock()), today=club.today)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await _run(club.finish_removals)
        await _run(club.settle_everyone)
        hub = app.state.hub = Hub(club.db, club.clock)
        await hub.start()
        club.hubs.live.append(hub)

        async def clock() -> None:
            while True:
                await asyncio.sleep(TICK_SECONDS)
                await study.tick()

        ticking = asyncio.create_task(clock())
        yield
        ticking.cancel()
        await _run(study.close)  # every member's open round saved
        club.hubs.live.remove(hub)
        await hub.stop()

    async def error_page(request: Request, status: int, message: str) -> Response:
        admitted = request.scope.get("state", {}).get("visitor")
        return await wall_pages.error_page(request, club.stores, admitted and admitted.who, club.lex.name, status,
                                           message)

    app = Starlette(routes=[*ROUTES, Mount("/study", app=study)], lifespan=lifespan,
                    middleware=[Middleware(Edge, door=club.door, max_body=MAX_BODY, bounds=BODY_BOUNDS)],
                    exception_handlers=handlers(error_page))
    app.state.club = club
    app.state.study = study
    return app
