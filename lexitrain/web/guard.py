"""The local app's door (`lexitrain web`): the launch key, its own address, same-origin writes.

The app is bound to the player's machine, but another local user or a web
page in another tab could still send it requests, so each launch makes a
secret: the launch file (launch.py) carries it once (`/?key=...`), the answer
sets it as a cookie (HttpOnly, SameSite=Strict) and sends the browser on
without it, and from then on every request, pages and assets alike, must
carry the cookie. Every request must name the app's own address in its Host
header (a page of another name that resolves here, DNS rebinding, is refused
even with the cookie); requests that change anything (POST) must also name
the app's own origin in their Origin header (one without it is refused as a
foreign one is). The rest of the way in (the body's bound, the headers, the
errors) is the edge every face shares (`web.edge`).
"""

from __future__ import annotations

import hmac
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from lexitrain.web.edge import HEADERS, SAFE_METHODS, Visitor, error

COOKIE = "lexitrain_key"


class LaunchKey:
    """The door of one launch: the key it made, and the Host headers it answers."""

    def __init__(self, secret: str, hosts: frozenset[str]) -> None:
        self.secret = secret
        self.hosts = hosts

    async def admit(self, request: Request) -> Visitor | Response:
        if request.headers.get("host", "") not in self.hosts:
            return error(403, "refused: this app answers only at the address `lexitrain web` printed")
        key = request.query_params.get("key")
        if key is not None:
            if not hmac.compare_digest(key, self.secret):
                return error(403, "wrong key: open the link `lexitrain web` printed")
            rest = urlencode([(k, v) for k, v in request.query_params.multi_items() if k != "key"])
            target = request.url.path + (f"?{rest}" if rest else "")
            response = RedirectResponse(target, status_code=303, headers=HEADERS)
            response.set_cookie(COOKIE, self.secret, httponly=True, samesite="strict", path="/")
            return response
        if not hmac.compare_digest(request.cookies.get(COOKIE, ""), self.secret):
            return error(403, "not allowed: open the link `lexitrain web` printed when it started")
        if request.method not in SAFE_METHODS and not _same_origin(request):
            return error(403, "refused: a request that changes anything must come from the app's own pages")
        return Visitor(None, None)


def _same_origin(request: Request) -> bool:
    """A write from the app's own pages: its Origin is this host. Browsers send an Origin with every
    POST, so a write without one (another program, a tool that leaves it out) is refused as a foreign
    one is."""
    host = request.headers.get("host", "")
    return request.headers.get("origin") in (f"http://{host}", f"https://{host}")
