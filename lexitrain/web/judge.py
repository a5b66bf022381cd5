"""The Judge page: the club night's word judge in the browser, and the lock that keeps players on it.

The host opens /judge and starts the judge with a key of their choosing;
from then on the app answers only the Judge page, its JSON and its static
files: every other page sends the browser back to /judge, every other JSON
route is refused (423), until the host's key stops the judge. The lock is
kept in the progress store (a setting holding the key's digest), so a
reload, a second tab or the app started again finds it still on. A play is
judged as a whole (search/judging.py, as `judge --kiosk` judges it) and
logged; the page shows VALID or NOT VALID in large letters, never which
word failed, and clears itself after CLEAR_SECONDS.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from lexitrain.errors import LexitrainError
from lexitrain.search.judging import (
    CLEAR_SECONDS, MAX_WORDS, check_host_key, judge_play, key_opens, log_judgement, sealed_key, words_typed,
)
from lexitrain.study.store import ProgressStore
from lexitrain.web.api import context, lane
from lexitrain.web.context import Context
from lexitrain.web.edge import NotFound, error, read_form, read_json, reply, text
from lexitrain.web.pages import form_field, redirect, render

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Receive, Scope, Send

#: the setting that holds the host's key (sealed) while the judge is on
KEY_SETTING = "judge_key"
#: seconds a wrong key waits before it is refused (guessing a short key by hand takes all night)
WRONG_KEY_SECONDS = 1.0
#: the paths (below the app's root) a judge that is on still answers
OPEN_PATHS = ("/judge", "/judge/stop", "/api/judge")


def judge_on(store: ProgressStore) -> bool:
    return store.setting(KEY_SETTING) is not None


def _judging(request: Request) -> Context:
    """The launch's context, where a judge may run: on the machine at the table, not a club member's study."""
    ctx = context(request)
    if not ctx.on_this_machine:
        raise NotFound("the word judge runs on the machine at the table: `lexitrain web` there, "
                       "or `lexitrain judge --kiosk`")
    return ctx


async def judge_page(request: Request) -> Response:
    ctx = _judging(request)
    error_text = request.query_params.get("error", "")[:200]

    def page(store: ProgressStore) -> Response:
        return render(request, store, "judge.html", on=judge_on(store), lexicon_name=ctx.lex().name,
                      clear_seconds=CLEAR_SECONDS, max_words=MAX_WORDS, error=error_text)

    return await ctx.offload.read(page)


async def judge_start(request: Request) -> Response:
    ctx = _judging(request)
    form = await read_form(request)
    key, again = form_field(form, "key"), form_field(form, "again")
    try:
        key = check_host_key(key)
        if again.strip() != key:
            raise LexitrainError("the two keys typed differ: type the same key twice")
    except LexitrainError as exc:
        return redirect(request, f"/judge?error={quote(str(exc))}")
    sealed = await run_in_threadpool(sealed_key, key)  # (scrypt: some 50 ms of CPU, off the event loop)

    def start(store: ProgressStore) -> None:
        if not judge_on(store):  # a judge already on keeps its host's key
            store.set_setting(KEY_SETTING, sealed)

    await ctx.offload.write(start)
    return redirect(request, "/judge")


async def judge_stop(request: Request) -> Response:
    ctx = _judging(request)
    form = await read_form(request)
    key = form_field(form, "key")
    sealed = await ctx.offload.read(lambda store: store.setting(KEY_SETTING))
    if sealed is None:
        return redirect(request, "/")
    if not (isinstance(sealed, dict) and await run_in_threadpool(key_opens, sealed, key)):  # (scrypt, as above)
        await asyncio.sleep(WRONG_KEY_SECONDS)
        return redirect(request, f"/judge?error={quote('that is not the host key')}")

    def stop(store: ProgressStore) -> None:
        store.set_setting(KEY_SETTING, None)

    await ctx.offload.write(stop)
    return redirect(request, "/")


async def judge_play_api(request: Request) -> JSONResponse:
    """One play judged and logged: `{"words": "QAT ZAX"}` gives `{"valid", "words", "lexicon", "at"}`, never
    which word failed."""
    ctx = _judging(request)
    words = words_typed(text(await read_json(request), "words", longest=400))
    lex = ctx.lex()

    def judged(store: ProgressStore) -> dict[str, Any]:
        judgement = judge_play(lex, words)
        log_judgement(judgement)
        return {"valid": judgement.valid, "words": list(judgement.words), "lexicon": judgement.lexicon,
                "at": judgement.at.isoformat(timespec="seconds")}

    return reply(await lane(request, judged))


class JudgeLock:
    """ASGI middleware: while the judge is on, only the Judge page, its JSON and the static files answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        path = request.url.path[len(scope.get("root_path", "")):]
        if path in OPEN_PATHS or path.startswith("/static/") or not await self._on(request):
            await self.app(scope, receive, send)
            return
        if path.startswith("/api/") or request.method != "GET":
            response: Response = error(423, "the word judge is on: the host's key, on the Judge page, stops it")
        else:
            response = RedirectResponse(f"{scope.get('root_path', '')}/judge", status_code=303)
        await response(scope, receive, send)

    @staticmethod
    async def _on(request: Request) -> bool:
        """Whether the judge is on: read from the store again only when the store has changed since (every
        request asks: a read on a thread each time made every page and guess wait for a free reader)."""
        ctx = context(request)
        return ctx.on_this_machine and await ctx.read_per_change("judge", judge_on)


ROUTES = [
    Route("/judge", judge_page, methods=["GET"]),
    Route("/judge", judge_start, methods=["POST"]),
    Route("/judge/stop", judge_stop, methods=["POST"]),
    Route("/api/judge", judge_play_api, methods=["POST"]),
]
