"""The club's pages of the wall every face shares: a member's challenge attempt and a shared table.

Each is the local app's wall page itself (web/templates/wall.html and web/static/wall.js, served at the
club's /static), told its source: the script draws what the club's JSON sends (`/api/challenge/ID`,
`/api/tables/ID`) as it draws a local round, with the member's own letter style and order (their progress
store's preferences). Its header is the member's /study (their pages, a way back to the club, a log-out).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from lexitrain.club.member_stores import MemberStores
from lexitrain.study.quiz.preferences import Preferences, load_preferences
from lexitrain.web.edge import CSP, NotFound, whole_text
from lexitrain.web.pages import render_page

if TYPE_CHECKING:
    from lexitrain.club.members import Member

#: Where the club's pages take the local app's scripts and style from.
STATIC = "/static"
#: A table's page speaks to its socket too.
WALL_CSP = CSP.replace("connect-src 'self'", "connect-src 'self' ws: wss:")


def preferences(stores: MemberStores, member: Member) -> Preferences:
    """The member's way of showing a wall (tiles, dark, letter order...), kept in their progress store."""
    with stores.open(member.id) as store:
        return load_preferences(store)


def ident(request: Request, name: str, noun: str) -> int:
    """The id the path names (a whole number a database holds), else 404."""
    return whole_text(request.path_params[name], noun, 0, lambda _why: NotFound(f"no such {noun}"))


async def error_page(request: Request, stores: MemberStores, member: Member | None, lexicon: str, status: int,
                     message: str) -> Response:
    """A refusal of one of the club's pages a browser asked for (an attempt not the member's, a table that is not
    there): the study's page saying so, in the member's style, its header and the way back to the club kept."""
    chosen = Preferences() if member is None else await run_in_threadpool(preferences, stores, member)
    return render_page(request, "error.html", status, root="/study", static=STATIC, preferences=chosen,
                       lexicon=lexicon, club_page="/", message=message)


async def wall_page(request: Request, stores: MemberStores, member: Member, lexicon: str, source: str,
                    number: int, title: Callable[[], str], **values: Any) -> Response:
    """The wall page of SOURCE ("challenge" or "table") NUMBER, titled by TITLE (which also checks that the
    member may see it: a 404 or 403 of its own)."""
    shown = await run_in_threadpool(title)
    chosen = await run_in_threadpool(preferences, stores, member)
    response = render_page(request, "wall.html", root="/study", static=STATIC, preferences=chosen,
                           lexicon=lexicon, club_page="/", source=source, ident=number, title=shown,
                           letter_order=chosen.letter_order, done_href="/", done_text="Done: back to the club",
                           **values)
    response.headers["content-security-policy"] = WALL_CSP
    return response
