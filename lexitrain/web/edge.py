"""The HTTP edge both web faces stand behind (`lexitrain web` and the club, `lexitrain serve`): one piece.

What reaches a route has been let in here, the same way for both: a body larger than the face's bound
is refused before a byte of it is read (413) and cut off if it grows past it or is slow to come (408);
the door (the face's own: the local app's launch key in `web.guard`, a club member's session in
`club.door`) says who is asking or turns the request away; a write from someone whose door hands them
a CSRF token must carry it (the `X-CSRF-Token` header, or a form's `csrf` field), else 403; every
answer carries the security headers. A route reads its JSON body with `read_json` and its fields with
`text`, `whole`, `flag`, so the same bad body gets the same one-line 400 from either face (and one that would
parse to more memory than MAX_PARSED, a 413, before it is parsed); anything the
core refuses (LexitrainError) is a 4xx with one line (`Refused` says which status), a route or method
that is not there a 404 or 405, and anything else a 500 with one line: never a traceback.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import parse_qs

from starlette.exceptions import HTTPException
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from lexitrain.errors import LexitrainError

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

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
#: The largest body a request may send, unless a face says otherwise (a word list uploaded: 1 MiB holds
#: some 100,000 words).
MAX_BODY = 1 << 20
#: How long a body may take to arrive, once the request has started.
BODY_SECONDS = 30.0
#: The longest text field a route takes unless it says otherwise (a word, a play, a round's token).
MAX_TEXT = 200
#: The most fields beside its files a form of files takes (its own are a few).
MOST_FORM_FIELDS = 20
#: The header a write carries its CSRF token in, and the form field a form carries it in.
CSRF_HEADER = "x-csrf-token"
CSRF_FIELD = "csrf"
#: A UTF-16 half on its own (JSON may spell one, "\ud800", no text can hold it) and a NUL (no field holds
#: one, and PostgreSQL's text cannot).
UNTEXT = re.compile("[\ud800-\udfff\x00]")
#: Nesting past this in a body is refused (far beyond any request's).
DEEPEST = 20
#: The most memory a JSON body may take once parsed, as `parsed_size` reckons it before parsing: a body under
#: its byte bound can still parse to many times its size (`[{},{},...]`: each `{},` of 3 bytes becomes a
#: dict of 64 bytes and its list slot), so it is refused (413) before json.loads builds it.
MAX_PARSED = 128 << 20
#: What `parsed_size` counts per byte that may start a container, an element or a text: an empty dict 64 bytes
#: and its slot in a list, an empty list 56 and its slot, an element or entry with its value (a float 24, a slot 8;
#: a dict entry and its share of the table's slack), a text's header (49) for its two quotes.
PARSED_COST = {b"{": 72, b"[": 64, b",": 32, b":": 56, b'"': 26}
#: And per byte of the body, for the texts' characters while they are built and once built: ASCII 1 byte a
#: character; a text with a character past U+00FF 2 bytes each (an escape `\\uXXXX` may spell one), past U+FFFF 4.
TEXT_COST = {"ascii": 2, "wide": 4, "widest": 8}
WIDEST = re.compile(rb"[\xf0-\xff]|\\u[dD][89abAB]")
WIDE = re.compile(rb"[\x80-\xff]|\\u")
#: The largest whole number a route takes (an id, a count): what a database's 64-bit integer holds.
LARGEST_WHOLE = (1 << 63) - 1


class Refused(LexitrainError):
    """A request turned down, with the HTTP status that says why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class BadRequest(Refused):
    """A body or a field the face cannot read."""

    def __init__(self, message: str) -> None:
        super().__init__(400, message)


class NotFound(Refused):
    """A round, page or thing that is not there."""

    def __init__(self, message: str) -> None:
        super().__init__(404, message)


class Conflict(Refused):
    """A request for something no longer as it was shown (a second submit, a card answered elsewhere)."""

    def __init__(self, message: str) -> None:
        super().__init__(409, message)


def error(status: int, message: str) -> JSONResponse:
    """The one shape of every refused request: a one-line JSON error."""
    return JSONResponse({"error": " ".join(message.split())}, status_code=status, headers=HEADERS)


def reply(data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers=HEADERS)


async def read_json(request: Request) -> dict[str, Any]:
    """The request's JSON object: strict JSON (no NaN), no lone surrogate in any string, not nested deep, and
    not more to hold once parsed than MAX_PARSED (refused as too large before it is parsed)."""
    raw = await request.body()
    if parsed_size(raw) > MAX_PARSED:
        raise Refused(413, f"the request's body would take more than {_size(MAX_PARSED)} of memory to read "
                           "(too many elements for its size)")

    def no_constant(name: str) -> None:
        raise ValueError(name)

    try:
        data = json.loads(raw or b"{}", parse_constant=no_constant)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise BadRequest("the body is not JSON") from None
    if not isinstance(data, dict):
        raise BadRequest("the body must be a JSON object")
    if not _clean(data):
        raise BadRequest("the body holds text that is not Unicode (a lone surrogate), a NUL, or is nested too deep")
    return data


async def read_form(request: Request) -> FormData:
    """The request's form (a page's POST, its bytes bounded as every body's are, `Edge`), with no NUL or lone
    surrogate in a field's name or text: refused in one line (PostgreSQL's text cannot hold a NUL, and no
    field means one), as `read_json` refuses them."""
    return _clean_form(await request.form())


def _clean_form(form: FormData) -> FormData:
    if not all(_clean(name) and (not isinstance(value, str) or _clean(value)) for name, value in form.multi_items()):
        raise BadRequest("the form holds text that is not Unicode (a lone surrogate) or a NUL")
    return form


async def read_files(request: Request, field: str, most: int) -> tuple[list[tuple[str, bytes]], FormData]:
    """The files a multipart form sends in FIELD, at most MOST of them (more: 400), each as its name (printable,
    at most MAX_TEXT characters: what an error about it quotes) and its bytes, and the form for its other fields.
    The body's bytes were bounded as it came, as every body's are (`Edge`)."""
    if not request.headers.get("content-type", "").startswith("multipart/form-data"):
        raise BadRequest(f"choose the files to send: a form of files ({field!r}), not this body")
    form = _clean_form(await request.form(max_files=most, max_fields=MOST_FORM_FIELDS))
    uploads = [value for value in form.getlist(field) if not isinstance(value, str)]
    if not uploads:
        raise BadRequest(f"choose the files to send ({field!r})")
    files = []
    for number, upload in enumerate(uploads, start=1):
        name = "".join(c for c in upload.filename or "" if c.isprintable())[:MAX_TEXT].strip()
        files.append((name or f"file {number}", await upload.read()))
    return files, form


def parsed_size(raw: bytes) -> int:
    """An upper bound of the memory json.loads takes to build RAW's values (bytes), from counting the bytes that
    start each container, element and text (inside texts too: an over-count never lets too much through)."""
    width = "widest" if WIDEST.search(raw) else "wide" if WIDE.search(raw) else "ascii"
    return TEXT_COST[width] * len(raw) + sum(cost * raw.count(byte) for byte, cost in PARSED_COST.items())


def _clean(value: Any, depth: int = 0) -> bool:
    """No lone surrogate or NUL in any key or string, nor nesting past DEEPEST levels."""
    if depth > DEEPEST:
        return False
    if isinstance(value, str):
        return UNTEXT.search(value) is None
    if isinstance(value, dict):
        return all(_clean(k, depth + 1) and _clean(v, depth + 1) for k, v in value.items())
    if isinstance(value, list):
        return all(_clean(v, depth + 1) for v in value)
    return True


def text(data: dict[str, Any], name: str, longest: int = MAX_TEXT) -> str:
    value = data.get(name)
    if not isinstance(value, str):
        raise BadRequest(f"{name!r} must be a string")
    if len(value) > longest:
        raise BadRequest(f"{name!r} is longer than {longest} characters")
    return value


def flag(data: dict[str, Any], name: str) -> bool:
    value = data.get(name)
    if not isinstance(value, bool):
        raise BadRequest(f"{name!r} must be true or false")
    return value


def whole(data: dict[str, Any], name: str) -> int:
    value = data.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or abs(value) > LARGEST_WHOLE:
        raise BadRequest(f"{name!r} must be a whole number (of at most 19 digits)")
    return value


def whole_text(value: str | None, name: str, default: int,
               missing: Callable[[str], Refused] = BadRequest) -> int:
    """A whole number from 0 to LARGEST_WHOLE spelled in a path or a query (DEFAULT when absent); else MISSING's
    refusal (a 400, or a 404 for a path's id)."""
    if value is None:
        return default
    if not (value.isascii() and value.isdigit()) or len(value) > 19 or int(value) > LARGEST_WHOLE:
        raise missing(f"{name} must be a whole number, not {value[:40]!r}")
    return int(value)


@dataclass(frozen=True)
class Visitor:
    """Who a request comes from, as the door found them: `who` is the face's own (a club's member; None for
    the local player or a club's visitor not logged in), `csrf` the token their writes must carry (None:
    the door checked the write itself, by its origin, or it needs none: a login)."""

    who: Any
    csrf: str | None


class Door(Protocol):
    """A face's way in: who asks, or the answer that turns them away (a 401, a 403, a redirect to log in)."""

    async def admit(self, request: Request) -> Visitor | Response: ...


def visitor(request: Request) -> Visitor:
    """Who the edge let in (a route behind an `Edge`)."""
    found: Visitor = request.scope["state"]["visitor"]
    return found


#: A face's routes' own body bounds: (method, path) to the most bytes; a path ending in "/" (with method "*" for
#: any) bounds everything under it (a mounted app).
Bounds = Mapping[tuple[str, str], int]


class Edge:
    """ASGI middleware: the body's bound, the face's door, the CSRF token of a write, the security headers.
    Each route's body is bounded by its entry in BOUNDS, else by MAX_BODY: a route anyone may ask (a login)
    takes a small one, before its door has said who asks."""

    def __init__(self, app: ASGIApp, door: Door, max_body: int = MAX_BODY, bounds: Bounds | None = None) -> None:
        self.app = app
        self.door = door
        self.max_body = max_body
        self.bounds = dict(bounds or {})

    def bound(self, method: str, path: str) -> int:
        """The largest body the route at PATH takes for METHOD."""
        found = self.bounds.get((method, path))
        if found is not None:
            return found
        for (asked, under), bound in self.bounds.items():
            if under.endswith("/") and path.startswith(under) and asked in ("*", method):
                return bound
        return self.max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        limit = self.bound(request.method, request.url.path)
        length = request.headers.get("content-length", "0")
        if not length.isdigit() or int(length) > limit:  # refused before a byte of it is read
            await too_large(limit)(scope, receive, send)
            return
        admitted = await self.door.admit(request)
        if isinstance(admitted, Response):
            await with_headers_set(admitted)(scope, receive, send)
            return
        receive = capped(receive, limit)
        if admitted.csrf is not None and request.method not in SAFE_METHODS:
            sent = request.headers.get(CSRF_HEADER)
            if sent is None:
                try:
                    body = await _whole_body(receive)
                except HTTPException as exc:
                    refusal = error(exc.status_code, str(exc.detail))
                    await (closing(refusal) if exc.status_code in CUT_OFF else refusal)(scope, receive, send)
                    return
                sent = await _form_token(scope, body)
                receive = _replay(body)
            if not csrf_matches(sent, admitted.csrf):
                await error(403, "missing or wrong CSRF token (X-CSRF-Token, or the form's csrf field)")(
                    scope, receive, send)
                return
        state = scope.setdefault("state", {})
        state["visitor"] = admitted
        state["csrf"] = admitted.csrf or ""
        await self.app(scope, receive, with_headers(send))


def csrf_matches(sent: str | None, csrf: str) -> bool:
    """Whether a write carries its session's CSRF token (compared in constant time)."""
    return bool(sent) and hmac.compare_digest(str(sent).encode(), csrf.encode())


def too_large(limit: int) -> Response:
    return closing(error(413, f"the request's body is larger than {_size(limit)}"))


#: Refusals of a body still on its way (too large, too slow): the connection is closed after the answer, else the
#: server would read and throw away the rest of it (uvicorn does; 500 MB of a 1 GB body at the login, its event
#: loop parsing it while every member waited).
CUT_OFF = (408, 413)


def closing(response: Response) -> Response:
    """RESPONSE, the connection closed after it (`Connection: close`)."""
    response.headers["connection"] = "close"
    return response


def _size(limit: int) -> str:
    return f"{limit >> 20} MB" if limit >= 1 << 20 else f"{limit >> 10} KB"


def with_headers_set(response: Response) -> Response:
    """A response of the door's, with the security headers it does not set itself."""
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def with_headers(send: Send) -> Send:
    """SEND, adding the security headers to a response that does not set them itself."""

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            present = {name.lower() for name, _ in message.get("headers", [])}
            message["headers"] = list(message.get("headers", [])) + [
                (name.encode(), value.encode()) for name, value in HEADERS.items() if name.encode() not in present]
        await send(message)

    return sending


def capped(receive: Receive, limit: int = MAX_BODY) -> Receive:
    """The body as it arrives, cut off past LIMIT (a body sent without a length) or BODY_SECONDS."""
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
            if received > limit:
                raise HTTPException(413, f"the request's body is larger than {_size(limit)}")
        return message

    return capped


async def _whole_body(receive: Receive) -> bytes:
    parts: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            raise HTTPException(400, "the request ended before its body")
        parts.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(parts)


async def _form_token(scope: Scope, body: bytes) -> str | None:
    """The `csrf` field of a form's body (URL-encoded, or multipart: an uploaded list)."""
    kind = Request(scope).headers.get("content-type", "")
    if kind.startswith("application/x-www-form-urlencoded"):
        values = parse_qs(body.decode("latin-1"), max_num_fields=1000).get(CSRF_FIELD)
        return values[0] if values else None
    if kind.startswith("multipart/form-data"):
        try:
            form = await Request(scope, _replay(body)).form()
        except Exception:  # (a malformed multipart body carries no token: refused as one without)
            return None
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


#: How a face shows a refusal to a person reading a page (not a script): the request, the status, the line.
ErrorPage = Callable[[Request, int, str], Awaitable[Response]]


def handlers(page: ErrorPage | None = None) -> dict[Any, Callable[[Request, Exception], Awaitable[Response]]]:
    """The exception handlers of a face's app: one line each, as JSON, or in a PAGE for a page's reader."""

    async def refused(request: Request, exc: Exception) -> Response:
        status = exc.status if isinstance(exc, Refused) else 400
        message = " ".join(str(exc).split())
        if page is not None and not _wants_json(request):
            return await page(request, status, message)
        return error(status, message)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        messages = {404: "no such page", 405: "method not allowed here"}
        message = messages.get(exc.status_code, str(exc.detail))
        if page is not None and exc.status_code in (404, 405) and _asks_for_a_page(request):
            # (a link followed in a browser, or a form's address typed or reloaded: the page, not JSON)
            return await page(request, exc.status_code, message if exc.status_code == 404 else
                              "no page at this address: it takes a form sent from one of the pages")
        refusal = error(exc.status_code, message)
        return closing(refusal) if exc.status_code in CUT_OFF else refusal

    async def failed(request: Request, exc: Exception) -> Response:
        return error(500, f"internal error ({type(exc).__name__})")

    return {LexitrainError: refused, HTTPException: http_error, Exception: failed}


def _asks_for_a_page(request: Request) -> bool:
    """A browser's GET of a page (it asks for HTML), not a script's."""
    return request.method == "GET" and not _under_api(request) and _accepts_html(request)


def _wants_json(request: Request) -> bool:
    """A script's request (under /api/, or a write) unless it asks for a page."""
    return (_under_api(request) or request.method != "GET") and not _accepts_html(request)


def _under_api(request: Request) -> bool:
    """Whether the path within the face's mount (a club's /study) is under /api/."""
    return request.url.path[len(request.scope.get("root_path", "")):].startswith("/api/")


def _accepts_html(request: Request) -> bool:
    """Whether the request asks for a page first (a browser does)."""
    return request.headers.get("accept", "").startswith("text/html")
