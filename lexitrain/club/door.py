"""The club's door at the edge (`web.edge`): a member's session, for the club's JSON API and their /study alike.

A session is a cookie whose token the club's database knows (`club.members`), so any `serve` process
lets its member in. Every route but the public ones (the page and its script, sign-up, logging in,
asking who the session is) needs one: without it a script is answered 401, and a page of /study
(a browser asking for HTML) is sent to the club's page to log in. A member's writes carry the
session's CSRF token (the edge checks it), and any request a browser says came from another site
(`Sec-Fetch-Site: cross-site`) is refused, since a GET may start an attempt's clock and a SameSite=Lax
cookie rides along a link.
"""

from __future__ import annotations

from collections.abc import Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection, Request
from starlette.responses import RedirectResponse, Response

from lexitrain.club import members
from lexitrain.club.store import ClubDatabase
from lexitrain.club.members import Member
from lexitrain.web.edge import SAFE_METHODS, Visitor, error

COOKIE = "lexitrain_club"
#: Where a page of /study without a session is sent to log in.
LOGIN_PAGE = "/"


class ClubDoor:
    """Members in by their session; the routes PUBLIC names (method, path) open to anyone."""

    def __init__(self, db: ClubDatabase, clock: Callable[[], float], public: frozenset[tuple[str, str]]) -> None:
        self.db = db
        self.clock = clock
        self.public = public

    async def session(self, connection: HTTPConnection) -> tuple[Member, str] | None:
        """The member whose session the cookie holds, and its CSRF token (None: no cookie, unknown, expired)."""
        return await run_in_threadpool(members.session_member, self.db, connection.cookies.get(COOKIE), self.clock())

    async def admit(self, request: Request) -> Visitor | Response:
        found = await self.session(request)
        if (request.method, request.url.path) in self.public:
            return Visitor(None if found is None else found[0], None)  # (a login needs no token: it makes one)
        if found is None:
            if request.method in SAFE_METHODS and "text/html" in request.headers.get("accept", ""):
                return RedirectResponse(LOGIN_PAGE, status_code=303)
            return error(401, "not logged in, or the session has ended: log in on the club's page (a script: "
                              "POST /api/session)")
        if request.headers.get("sec-fetch-site") == "cross-site":
            return error(403, "requests from other sites are refused")
        return Visitor(found[0], found[1])
