"""The app of one launch: the pages, the JSON, the static files, behind the edge; errors as one line.

An error the core raises (LexitrainError: a bad request, an unknown lexicon,
an empty source) is the player's to read: a one-line JSON error on /api/ and
the same line inside a page elsewhere, with 400 (404 for a thing not there).
Anything else is a bug, answered 500 with one line and no traceback (`web.edge`).
"""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from pathlib import Path
from typing import AsyncIterator

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from lexitrain.web import api, games, judge, pages, play
from lexitrain.web.context import Context
from lexitrain.web.edge import Edge, handlers
from lexitrain.web.guard import LaunchKey

STATIC = Path(__file__).parent / "static"
#: How often the open rounds' clocks are checked with no request coming.
TICK_SECONDS = 2.0


#: Every page, JSON route and static file of the app.
ROUTES = [*pages.ROUTES, *api.ROUTES, *games.ROUTES, *play.ROUTES, *judge.ROUTES, Mount("/static", StaticFiles(directory=STATIC), name="static")]


class FollowLexicon:
    """ASGI middleware: each request is served in the player's lexicon as it is set now (`Context.follow_lexicon`)."""

    def __init__(self, app: ASGIApp, ctx: Context) -> None:
        self.app = app
        self.ctx = ctx

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self.ctx.follow_lexicon()
        await self.app(scope, receive, send)


def create_app(ctx: Context, guarded: bool = True) -> Starlette:
    """The app of one launch, behind the edge with the launch key for its door (`guarded`; a club puts its
    own edge, with its members' sessions for the door, in front instead)."""

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async def clock() -> None:
            while True:
                await asyncio.sleep(TICK_SECONDS)
                await ctx.offload.write(ctx.tick)

        ticking = asyncio.create_task(clock())
        yield
        ticking.cancel()
        ctx.close()  # the server is stopping: every open round is saved

    async def page(request: Request, status: int, message: str) -> Response:
        return await ctx.offload.read(lambda store: pages.render(request, store, "error.html", status=status,
                                                                 message=message))

    app = Starlette(
        routes=ROUTES,
        middleware=[*([Middleware(Edge, door=LaunchKey(ctx.secret, ctx.hosts))] if guarded else []),
                    Middleware(judge.JudgeLock), Middleware(FollowLexicon, ctx=ctx)],
        exception_handlers=handlers(page),
        lifespan=lifespan,
    )
    app.state.ctx = ctx
    return app
