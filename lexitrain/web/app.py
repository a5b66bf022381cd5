"""The app of one launch: the pages, the JSON, the static files, behind the guard; errors as one line.

An error the core raises (LexitrainError: a bad request, an unknown lexicon,
an empty source) is the player's to read: a one-line JSON error on /api/ and
the same line inside a page elsewhere, with 400 (404 for a thing not there).
Anything else is a bug, answered 500 with one line and no traceback.
"""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from pathlib import Path
from typing import AsyncIterator

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

from lexitrain.errors import LexitrainError
from lexitrain.web import api, pages
from lexitrain.web.context import Conflict, Context, NotFound
from lexitrain.web.guard import Guard, error

STATIC = Path(__file__).parent / "static"
#: How often the open rounds' clocks are checked with no request coming.
TICK_SECONDS = 2.0


#: Every page, JSON route and static file of the app.
ROUTES = [*pages.ROUTES, *api.ROUTES, Mount("/static", StaticFiles(directory=STATIC), name="static")]


def create_app(ctx: Context, guarded: bool = True) -> Starlette:
    """The app of one launch; `guarded` by the launch secret (a club puts its members' sessions in front instead)."""

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async def clock() -> None:
            while True:
                await asyncio.sleep(TICK_SECONDS)
                await ctx.offload.write(ctx.tick_all)

        ticking = asyncio.create_task(clock())
        yield
        ticking.cancel()
        ctx.close()  # the server is stopping: every open round is saved

    app = Starlette(
        routes=ROUTES,
        middleware=[Middleware(Guard, secret=ctx.secret, hosts=ctx.hosts)] if guarded else [],
        exception_handlers={LexitrainError: refused, HTTPException: http_error, Exception: failed},
        lifespan=lifespan,
    )
    app.state.ctx = ctx
    return app


def _wants_json(request: Request) -> bool:
    path = request.url.path[len(request.scope.get("root_path", "")):]
    return path.startswith("/api/") or request.method != "GET"


async def refused(request: Request, exc: Exception) -> Response:
    status = 404 if isinstance(exc, NotFound) else 409 if isinstance(exc, Conflict) else 400
    message = " ".join(str(exc).split())
    if _wants_json(request) and not request.headers.get("accept", "").startswith("text/html"):
        return error(status, message)
    ctx: Context = request.app.state.ctx
    return await ctx.offload.read(lambda store: pages.render(request, store, "error.html", status=status,
                                                             message=message))


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    messages = {404: "no such page", 405: "method not allowed here"}
    return error(exc.status_code, messages.get(exc.status_code, str(exc.detail)))


async def failed(request: Request, exc: Exception) -> Response:
    return error(500, f"internal error ({type(exc).__name__}): {' '.join(str(exc).split())}")
