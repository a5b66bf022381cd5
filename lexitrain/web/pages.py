"""The pages: HTML from Jinja2 templates (every value escaped), forms that start rounds, downloads.

A page that cannot be made (an unknown lexicon, a source with no words, a
bad date) shows the core's one-line reason in the page instead (app.py).
"""

from __future__ import annotations

import shlex
import tempfile
from pathlib import Path
from typing import Any

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route
from starlette.templating import Jinja2Templates

from lexitrain.errors import LexitrainError
from lexitrain.study.wall import SIZE, Wall
from lexitrain.web.api import context
from lexitrain.web.context import Context

TEMPLATES = Jinja2Templates(directory=str(Path(__file__).parent / "templates"))
SHOWN_RESULTS = 500
#: The search form's fields and the `lexitrain search` option each fills in.
SEARCH_FIELDS = {"length": "--length", "anagram": "--anagram", "build": "--build", "pattern": "--pattern",
                 "starts_with": "--starts-with", "ends_with": "--ends-with", "takes_prefix": "--takes-prefix",
                 "takes_suffix": "--takes-suffix", "includes": "--includes",
                 "probability": "--probability", "definition": "--definition", "order": "--order",
                 "limit": "--limit"}
SEARCH_FLAGS = {"front_hook": "--front-hook", "back_hook": "--back-hook"}
SOURCES = ("search", "list", "saved", "file", "due")
DEFAULT_MINUTES = 5.0


def render(request: Request, name: str, status: int = 200, **values: Any) -> Response:
    return TEMPLATES.TemplateResponse(request, name, {**context(request).page_context(), **values},
                                      status_code=status)


async def home(request: Request) -> Response:
    from lexitrain.search.lists import builtin_lists
    from lexitrain.search.saved import saved_searches
    from lexitrain.study.requests import DailyRequest

    ctx = context(request)
    lex = ctx.lex()
    state = DailyRequest().status(ctx.store, lex)
    return render(request, "home.html", state=state, lists=sorted(builtin_lists()), saved=saved_searches(),
                  words=lex.word_count, sources=SOURCES, minutes=DEFAULT_MINUTES, size=SIZE)


async def wall_start(request: Request) -> Response:
    """A wall from the form's one source: a search, a built-in list, a saved search, a word file, the cards due."""
    from lexitrain.study.requests import QuizRequest

    ctx = context(request)
    form = await request.form()
    source = _field(form, "source") or "search"
    value = _field(form, "value").strip()
    if source not in SOURCES:
        raise LexitrainError(f"unknown source {source!r} (use {', '.join(SOURCES)})")
    if source != "due" and not value:
        raise LexitrainError(f"give the {source} to put on the wall")
    chosen = {"search": {"query": value}, "list": {"builtin": value}, "saved": {"saved": value},
              "file": {"word_file": Path(value).expanduser()}, "due": {"due": True}}[source]
    request_ = QuizRequest(**chosen)  # type: ignore[arg-type]
    seconds = _minutes(form) * 60 or None
    wall = Wall(request_.start(ctx.store, ctx.lex()), size=_size(form), seconds=seconds, clock=ctx.clock)
    wall.start_round()
    return RedirectResponse(f"/wall/{ctx.keep(wall)}", status_code=303)


async def wall_page(request: Request) -> Response:
    ctx = context(request)
    ident = request.path_params["ident"]
    wall = ctx.opened(ident, Wall, "wall")
    return render(request, "wall.html", ident=ident, title=wall.session.title,
                  letter_order=ctx.preferences().letter_order)


async def challenge_page(request: Request) -> Response:
    from lexitrain.study import challenge as ch
    from lexitrain.study.requests import ChallengeRequest

    ctx = context(request)
    lex = ctx.lex()
    bests = {kind: ch.personal_best(ctx.store, lex.name, kind) for kind in ch.KINDS}
    return render(request, "challenge.html", kinds=list(ch.KINDS), attempts=ch.history(ctx.store, lex.name),
                  bests=bests, today=ch.parse_day(None).isoformat(), default_kind=ChallengeRequest().kind)


async def challenge_start(request: Request) -> Response:
    from lexitrain.study.requests import ChallengeRequest

    ctx = context(request)
    form = await request.form()
    request_ = ChallengeRequest(_field(form, "kind") or ChallengeRequest().kind, _field(form, "date") or None)
    wall = Wall(request_.start(ctx.store, ctx.lex()), clock=ctx.clock, missed_round=False)
    wall.start_round()
    return RedirectResponse(f"/wall/{ctx.keep(wall)}", status_code=303)


async def review_page(request: Request) -> Response:
    from lexitrain.study import stats as st

    ctx = context(request)
    report = st.compute(ctx.store, ctx.lex().name)
    forecast = report.forecast.to_dict("records")
    return render(request, "review.html", forecast=forecast, most=max([1] + [d["due"] for d in forecast]))


async def position_page(request: Request) -> Response:
    ctx = context(request)
    ctx.lex()  # an unknown lexicon says so in the page
    return render(request, "position.html")


def search_text(params: Any) -> str:
    """The `lexitrain search` conditions the form's fields stand for (as one shell-quoted line)."""
    tokens: list[str] = []
    for name, option in SEARCH_FIELDS.items():
        value = str(params.get(name) or "").strip()
        if value:
            tokens += [option, value]
    tokens += [option for name, option in SEARCH_FLAGS.items() if params.get(name)]
    return shlex.join(tokens)


async def search_page(request: Request) -> Response:
    from lexitrain.search.execute import run_search
    from lexitrain.search.query import ORDERS, parse_query

    ctx = context(request)
    params = request.query_params
    text = search_text(params)
    rows, error = None, None
    if text:
        try:
            rows = run_search(ctx.lex(), parse_query(text))
        except LexitrainError as exc:
            error = str(exc)
    return render(request, "search.html", params=params, text=text, rows=rows[:SHOWN_RESULTS] if rows else rows,
                  found=len(rows or []), shown=SHOWN_RESULTS, error=error, orders=ORDERS,
                  status=400 if error else 200)


async def sheet_pdf(request: Request) -> Response:
    """An anagram sheet of the search's results, as a PDF download."""
    from lexitrain.sheets.request import SheetRequest, build_sheet
    from lexitrain.sheets.write import write_sheet

    ctx = context(request)
    text = search_text(request.query_params)
    if not text:
        raise LexitrainError("give some search conditions to print")
    sheet = build_sheet(SheetRequest("anagrams", query=text), ctx.lex())
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "sheet.pdf"
        write_sheet(sheet, out)
        data = out.read_bytes()
    return Response(data, media_type="application/pdf",
                    headers={"content-disposition": 'attachment; filename="lexitrain-sheet.pdf"'})


async def stats_page(request: Request) -> Response:
    from lexitrain.study import stats as st

    ctx = context(request)
    lex = ctx.lex()
    report = st.compute(ctx.store, lex.name, lex)
    return render(request, "stats.html", report=report, lines=st.render_text(report),
                  per_day=report.per_day.to_dict("records"), forecast=report.forecast.to_dict("records"),
                  hardest=report.hardest.to_dict("records"), coverage=st.shown_coverage(report))


async def stats_png(request: Request) -> Response:
    from lexitrain.study import stats as st

    ctx = context(request)
    report = st.compute(ctx.store, ctx.lex().name)
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "stats.png"
        st.plot(report, out)
        data = out.read_bytes()
    return Response(data, media_type="image/png")


async def settings_page(request: Request) -> Response:
    from lexitrain.lexicon.lexicon import known_lexicons

    return render(request, "settings.html", lexicons=known_lexicons(), saved=request.query_params.get("saved"))


async def settings_save(request: Request) -> Response:
    from lexitrain.study.preferences import Preferences, save_preferences

    ctx = context(request)
    form = await request.form()
    name = _field(form, "lexicon").strip() or ctx.lexicon
    lex = ctx.lex(name)  # an unknown lexicon is refused here, in the page
    save_preferences(ctx.store, lex, Preferences(
        tiles=bool(form.get("tiles")), dark=bool(form.get("dark")),
        letter_order=_field(form, "letter_order"), symbols=bool(form.get("symbols"))))
    ctx.store.set_setting("lexicon", lex.name)
    ctx.lexicon = lex.name
    return RedirectResponse("/settings?saved=1", status_code=303)


def _field(form: FormData, name: str) -> str:
    value = form.get(name)
    return value if isinstance(value, str) else ""


def _minutes(form: FormData) -> float:
    text = _field(form, "minutes").strip()
    try:
        minutes = float(text) if text else DEFAULT_MINUTES
    except ValueError:
        raise LexitrainError(f"minutes {text!r}: expected a number (0 for no time limit)") from None
    if not 0 <= minutes <= 600:
        raise LexitrainError(f"minutes {text!r}: expected 0 (no limit) to 600")
    return minutes


def _size(form: FormData) -> int:
    text = _field(form, "size").strip()
    try:
        size = int(text) if text else SIZE
    except ValueError:
        raise LexitrainError(f"questions a round {text!r}: expected a whole number") from None
    if not 1 <= size <= SIZE:
        raise LexitrainError(f"questions a round: 1 to {SIZE}, not {size}")
    return size


ROUTES = [
    Route("/", home, methods=["GET"]),
    Route("/wall", wall_start, methods=["POST"]),
    Route("/wall/{ident}", wall_page, methods=["GET"]),
    Route("/challenge", challenge_page, methods=["GET"]),
    Route("/challenge", challenge_start, methods=["POST"]),
    Route("/review", review_page, methods=["GET"]),
    Route("/position", position_page, methods=["GET"]),
    Route("/search", search_page, methods=["GET"]),
    Route("/sheet.pdf", sheet_pdf, methods=["GET"]),
    Route("/stats", stats_page, methods=["GET"]),
    Route("/stats.png", stats_png, methods=["GET"]),
    Route("/settings", settings_page, methods=["GET"]),
    Route("/settings", settings_save, methods=["POST"]),
]
