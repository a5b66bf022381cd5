"""Who may drive the app, and the headers every answer carries.

The app is bound to the player's machine, but another local user or a web
page in another tab could still send it requests, so each launch makes a
secret: the URL printed at start carries it once (`/?key=...`), the answer
sets it as a cookie (HttpOnly, SameSite=Strict) and sends the browser on
without it, and from then on every request, pages and assets alike, must
carry the cookie. Requests that change anything (POST) must also come from
the app's own origin. Every answer carries a Content-Security-Policy that
allows scripts, styles and images from the app alone.
"""

from __future__ import annotations

import hmac
from typing import TYPE_CHECKING
from urllib.parse import urlencode

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


def error(status: int, message: str) -> JSONResponse:
    """The one shape of every refused request: a one-line JSON error."""
    return JSONResponse({"error": message}, status_code=status, headers=HEADERS)


class Guard:
    """ASGI middleware: the launch secret, same-origin writes, the security headers."""

    def __init__(self, app: ASGIApp, secret: str) -> None:
        self.app = app
        self.secret = secret

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
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

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                message["headers"] = list(message.get("headers", [])) + [
                    (name.encode(), value.encode()) for name, value in HEADERS.items()
                    if name.encode() not in present]
            await send(message)

        await self.app(scope, receive, with_headers)


def _same_origin(request: Request) -> bool:
    """A write from the app's own pages: its Origin is this host (browsers send one with every POST);
    without one, the browser's Sec-Fetch-Site must not say it came from elsewhere."""
    origin = request.headers.get("origin")
    if origin is None:
        return request.headers.get("sec-fetch-site", "same-origin") in ("same-origin", "none")
    host = request.headers.get("host", "")
    return origin in (f"http://{host}", f"https://{host}")
