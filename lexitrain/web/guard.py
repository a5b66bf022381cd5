"""Who may drive the app, and the headers every answer carries.

The app is bound to the player's machine, but another local user or a web
page in another tab could still send it requests, so each launch makes a
secret: the launch file (launch.py) carries it once (`/?key=...`), the answer
sets it as a cookie (HttpOnly, SameSite=Strict) and sends the browser on
without it, and from then on every request, pages and assets alike, must
carry the cookie. Every request must name the app's own address in its Host
header (a page of another name that resolves here, DNS rebinding, is refused
even with the cookie); requests that change anything (POST) must also come
from the app's own origin. A body is capped before it is read (413), and read
against a deadline. Every answer carries a Content-Security-Policy that
allows scripts, styles and images from the app alone.
"""

from __future__ import annotations

import asyncio
import hmac
from typing import TYPE_CHECKING
from urllib.parse import urlencode

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

COOKIE = "lexitrain_key"
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
HEADERS = {
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",  # "no-referrer" makes a form post's Origin "null"
    "x-frame-options": "DENY",
    "cache-control": "no-store",
}
SAFE_METHODS = ("GET", "HEAD")
#: The largest body a request may send (a word list uploaded: 1 MiB holds some 100,000 words).
MAX_BODY = 1 << 20
#: How long a body may take to arrive, once the request has started.
BODY_SECONDS = 30.0


def error(status: int, message: str) -> JSONResponse:
    """The one shape of every refused request: a one-line JSON error."""
    return JSONResponse({"error": message}, status_code=status, headers=HEADERS)


class Guard:
    """ASGI middleware: the launch secret, same-origin writes, the security headers."""

    def __init__(self, app: ASGIApp, secret: str, hosts: frozenset[str]) -> None:
        self.app = app
        self.secret = secret
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        if request.headers.get("host", "") not in self.hosts:
            await error(403, "refused: this app answers only at the address `lexitrain web` printed")(
                scope, receive, send)
            return
        length = request.headers.get("content-length", "0")
        if not length.isdigit() or int(length) > MAX_BODY:  # refused before a byte of it is read
            await error(413, f"the request's body is larger than {MAX_BODY // 1024} KB")(scope, receive, send)
            return
        key = request.query_params.get("key")
        if key is not None:
            if not hmac.compare_digest(key, self.secret):
                await error(403, "wrong key: open the link `lexitrain web` printed")(scope, receive, send)
                return
            rest = urlencode([(k, v) for k, v in request.query_params.multi_items() if k != "key"])
            target = request.url.path + (f"?{rest}" if rest else "")
            response = RedirectResponse(target, status_code=303, headers=HEADERS)
            response.set_cookie(COOKIE, self.secret, httponly=True, samesite="strict", path="/")
            await response(scope, receive, send)
            return
        if not hmac.compare_digest(request.cookies.get(COOKIE, ""), self.secret):
            await error(403, "not allowed: open the link `lexitrain web` printed when it started")(scope, receive, send)
            return
        if request.method not in SAFE_METHODS and not _same_origin(request):
            await error(403, "refused: a request that changes anything must come from the app's own pages")(
                scope, receive, send)
            return
        await self.app(scope, capped(receive), with_headers(send))


def with_headers(send: Send) -> Send:
    """SEND, adding the security headers to a response that does not set them itself."""

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            present = {name.lower() for name, _ in message.get("headers", [])}
            message["headers"] = list(message.get("headers", [])) + [
                (name.encode(), value.encode()) for name, value in HEADERS.items() if name.encode() not in present]
        await send(message)

    return sending


def capped(receive: Receive) -> Receive:
    """The body as it arrives, cut off past MAX_BODY (a body sent without a length) or BODY_SECONDS."""
    received, complete = 0, False

    async def capped() -> Message:
        nonlocal received, complete
        if complete:  # the body is in: what follows is the server saying the client went away
            return await receive()
        try:
            message = await asyncio.wait_for(receive(), BODY_SECONDS)
        except TimeoutError:
            raise HTTPException(408, "the request's body did not arrive in time") from None
        if message["type"] == "http.request":
            received += len(message.get("body", b""))
            complete = not message.get("more_body", False)
            if received > MAX_BODY:
                raise HTTPException(413, f"the request's body is larger than {MAX_BODY // 1024} KB")
        return message

    return capped


def _same_origin(request: Request) -> bool:
    """A write from the app's own pages: its Origin is this host (browsers send one with every POST);
    without one, the browser's Sec-Fetch-Site must not say it came from elsewhere."""
    origin = request.headers.get("origin")
    if origin is None:
        return request.headers.get("sec-fetch-site", "same-origin") in ("same-origin", "none")
    host = request.headers.get("host", "")
    return origin in (f"http://{host}", f"https://{host}")
