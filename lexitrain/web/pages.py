"""The pages: HTML from Jinja2 templates (every value escaped), forms that start rounds, downloads.

A page that cannot be made (an unknown lexicon, a source with no words, a
bad date) shows the core's one-line reason in the page instead (app.py).
"""

from __future__ import annotations

import secrets
import shlex
from dataclasses import replace
from urllib.parse import quote, urlencode
from pathlib import Path
from typing import Any

from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route
from starlette.templating import Jinja2Templates

from lexitrain.errors import LexitrainError
from lexitrain.lexicon.catalog import known_lexicons
from lexitrain.lexicon.rows import WordRow
from lexitrain.search.execute import first_found, found_at_most
from lexitrain.search.lists import builtin_lists
from lexitrain.search.query import ORDERS, Query, described_search, parse_query
from lexitrain.search.saved import saved_searches
from lexitrain.sheets.request import SheetRequest
from lexitrain.study.drills import challenge as ch
from lexitrain.study.drills.requests import ChallengeRequest, DailyRequest, DueWallRequest, QuizRequest, Words
from lexitrain.study.drills import open_rounds
from lexitrain.study.drills.wall import SIZE, Wall
from lexitrain.study.quiz.preferences import Preferences, save_preferences
from lexitrain.study.records import stats as st
from lexitrain.study.records.leaks import Analysts, leak_profile, saved_analyses
from lexitrain.study.records.club_link import ClubLink, LoginNeeded, saved_links
from lexitrain.study.records.stakes import DAILY_ORDER_SETTING, check_daily_order, daily_order
from lexitrain.study.records.stats import synced_line
from lexitrain.study.records.sync import sync_home
from lexitrain.study.store import ProgressStore
from lexitrain.web import word_lists
from lexitrain.web.api import context, opened
from lexitrain.web.context import Context
from lexitrain.web.edge import NotFound, read_form

TEMPLATES = Jinja2Templates(directory=str(Path(__file__).parent / "templates"))
SHOWN_RESULTS = 500
#: The search form's fields and the `lexitrain search` option each fills in.
SEARCH_FIELDS = {"length": "--length", "anagram": "--anagram", "build": "--build", "pattern": "--pattern",
                 "starts_with": "--starts-with", "ends_with": "--ends-with", "takes_prefix": "--takes-prefix",
                 "takes_suffix": "--takes-suffix", "includes": "--includes",
                 "probability": "--probability", "playability": "--playability", "definition": "--definition",
                 "order": "--order",
                 "limit": "--limit"}
SEARCH_FLAGS = {"front_hook": "--front-hook", "back_hook": "--back-hook"}
SOURCES = ("search", "list", "saved", "upload", "file", "due")
DEFAULT_MINUTES = 5.0


def render(request: Request, store: ProgressStore, name: str, status: int = 200, **values: Any) -> Response:
    """A page of the app (made off the event loop: the template reads the player's preferences from STORE)."""
    return render_page(request, name, status, **context(request).page_context(store), root=root(request), **values)


def render_page(request: Request, name: str, status: int = 200, *, root: str, **values: Any) -> Response:
    """A page from a template, for the local app or a club (which shows the wall of its challenge and tables
    with this app's template and script). Its links start with `root` (the app's own path: "" for `lexitrain
    web`, "/study" on a club), its scripts and style come from `static` (ROOT/static unless given), and its
    forms carry `csrf` (the club member's token; the local app needs none). VALUES hold the rest of what
    every page is given (`Context.page_context`: preferences, lexicon, club_page) and the page's own."""
    return TEMPLATES.TemplateResponse(
        request, name, {"static": f"{root}/static", "csrf": request.scope.get("state", {}).get("csrf", ""),
                        "root": root, **values}, status_code=status)


def root(request: Request) -> str:
    """The path the app is mounted at ("" at the top)."""
    return str(request.scope.get("root_path", ""))


def redirect(request: Request, path: str) -> RedirectResponse:
    """See the page at PATH (below the app's root) after a form's post."""
    return RedirectResponse(root(request) + path, status_code=303)


async def home(request: Request) -> Response:
    ctx = context(request)

    def page(store: ProgressStore) -> Response:
        lex = ctx.lex()
        state = DailyRequest().status(store, lex)
        records = [word_lists.list_record(store, lex.name, name) for name in store.word_list_names()]
        sources = SOURCES if ctx.on_this_machine else tuple(s for s in SOURCES if s not in ("file", "saved"))
        return render(request, store, "home.html", state=state, lists=sorted(builtin_lists()),
                      saved=saved_searches() if ctx.on_this_machine else {}, words=lex.word_count, sources=sources,
                      minutes=DEFAULT_MINUTES,
                      size=SIZE, lexicons=sorted(set(known_lexicons()) | {lex.name}), nonce=secrets.token_urlsafe(9),
                      records=records, uploaded=request.query_params.get("uploaded"),
                      removed=request.query_params.get("removed"),
                      syncs=[synced_line(status) for status in ctx.syncs(store)],
                      clubs=saved_links() if ctx.on_this_machine else [], synced=request.query_params.get("synced"),
                      sync_failed=request.query_params.get("sync_failed"))

    return await ctx.offload.read(page)


async def sync_now(request: Request) -> Response:
    """The local app's Sync: this home with the club it keeps a session with (`lexitrain sync`); what it did,
    or why not, said on the home page. The sync's reads and writes are the store's own transactions, as in
    `lexitrain sync`: the lane is not held while it waits on the club, and a guess meanwhile is answered."""
    ctx = context(request)
    if not ctx.on_this_machine:
        raise HTTPException(404)
    form = await read_form(request)
    chosen = form_field(form, "club")

    def run(store: ProgressStore) -> dict[str, str]:
        """{"synced": what it did} or {"sync_failed": why not} (the page shows the second as a refusal)."""
        for club, member in saved_links():
            if f"{member} on {club}" == chosen:
                link = ClubLink(club, member)
                try:
                    done = sync_home(store, link, link.name)
                except LoginNeeded:
                    return {"sync_failed": f"the session as {member} on {club} has ended: run lexitrain sync {club} "
                                           f"--name {member} once in a terminal to log in again"}
                except LexitrainError as exc:
                    return {"sync_failed": str(exc)}
                return {"synced": done.said(chosen)}
        return {"sync_failed": f"no session is kept with {chosen}"}

    said = await ctx.offload.aside(run)  # (not in the lane: a sync waits on the network for seconds)
    return redirect(request, "/?" + urlencode(said))


async def wall_start(request: Request) -> Response:
    """A wall from the form's one source: a search, a built-in list, a saved search, an uploaded list, a word
    file, or the cards due (leased to the wall, within today's review limit, as the daily drill's reviews)."""
    ctx = context(request)
    form = await read_form(request)
    source = form_field(form, "source") or "search"
    value = form_field(form, "value").strip()
    if source not in SOURCES:
        raise LexitrainError(f"unknown source {source!r} (use {', '.join(SOURCES)})")
    if source != "due" and not value:
        raise LexitrainError(f"give the {source} to put on the wall")
    if source in ("file", "saved") and not ctx.on_this_machine:
        raise LexitrainError(f"the {source} source reads this server's files: upload the list instead")
    if source == "file":  # a path on this machine: only a regular text file of bounded size is read
        chosen: dict[str, Any] = {"word_file": word_lists.checked_path(value)}
    elif source == "upload":  # (its words checked again when played: another lexicon may lack some of them)
        chosen = {"upload": value}
    else:
        by_source: dict[str, dict[str, Any]] = {"search": {"query": value}, "list": {"builtin": value},
                                                "saved": {"saved": value}}
        chosen = by_source.get(source, {})
    practice = bool(form.get("practice"))
    seconds = _minutes(form) * 60 or None
    size = _size(form)
    request_: QuizRequest | DueWallRequest = DueWallRequest(size) if source == "due" else QuizRequest(
        Words(**chosen), restart=form_field(form, "start") == "restart", schedule=not practice,
        most_words=ctx.most_words)
    lexicon = form_field(form, "lexicon").strip() or None  # a wall may use another lexicon than the player's
    nonce = form_field(form, "nonce")

    def start(store: ProgressStore) -> str:
        lex = ctx.lex(lexicon)
        try:
            return open_rounds.open_wall(store, lex, request_, ctx.clock, size=size, seconds=seconds, nonce=nonce)
        except LexitrainError:
            if source != "file":
                raise
            raise LexitrainError(  # (the core's reason may quote a line of a file that is not the player's)
                f"word file {value!r}: no wall can be made of it in {lex.name} (lines that are not words of "
                "it, or no words at all): upload it as a list to see which lines") from None

    return redirect(request, f"/wall/{await ctx.offload.write(start)}")


async def list_upload(request: Request) -> Response:
    """A word list from the browser (a file picker, or a file dropped on it), kept under a name."""
    form = await read_form(request)
    upload = form.get("file")
    if isinstance(upload, str) or upload is None:
        raise LexitrainError("choose a file of words to upload")
    data = await upload.read()
    name = form_field(form, "name").strip() or Path(upload.filename or "").stem
    ctx = context(request)
    kept = await ctx.offload.write(lambda store: word_lists.save_list(store, name, data, ctx.lex(), ctx.clock()))
    return redirect(request, f"/?uploaded={quote(kept)}#lists")


async def list_remove(request: Request) -> Response:
    """A list removed (here, and by the next sync in the player's other homes and on the club)."""
    ctx = context(request)
    name = form_field(await read_form(request), "name")
    if not await ctx.offload.write(lambda store: store.remove_word_list(name, ctx.clock())):
        raise NotFound(f"no uploaded list {name!r}")
    return redirect(request, f"/?removed={quote(name)}#lists")


async def list_missed(request: Request) -> Response:
    """A wall of the words missed the last time a list was played ("NAME - missed"), in one click."""
    ctx = context(request)
    form = await read_form(request)
    name = form_field(form, "name")

    def start(store: ProgressStore) -> str:
        lex = ctx.lex()
        record = word_lists.list_record(store, lex.name, name)
        missed = word_lists.missed_list(store, lex, name, record.missed_last_time, ctx.clock())
        return open_rounds.open_wall(store, lex, QuizRequest(Words(upload=missed), restart=True), ctx.clock,
                                     seconds=DEFAULT_MINUTES * 60, nonce=form_field(form, "nonce"))

    return redirect(request, f"/wall/{await ctx.offload.write(start)}")


async def wall_page(request: Request) -> Response:
    ctx = context(request)
    ident = request.path_params["ident"]

    def page(store: ProgressStore) -> Response:
        with opened(ctx, store, ident, Wall, "wall") as wall:
            title = wall.thing.session.title
        return render(request, store, "wall.html", ident=ident, title=title,
                      letter_order=ctx.preferences(store).letter_order)

    return await ctx.offload.write(page)


async def challenge_page(request: Request) -> Response:
    ctx = context(request)

    def page(store: ProgressStore) -> Response:
        lex = ctx.lex()
        bests = ch.bests_of_kinds_tried(store, lex.name)
        return render(request, store, "challenge.html", kinds=list(ch.KINDS), attempts=ch.history(store, lex.name),
                      bests=bests, untried=len(ch.KINDS) - len(bests), today=ctx.today().isoformat(), default_kind=ChallengeRequest().kind)

    return await ctx.offload.read(page)


async def challenge_start(request: Request) -> Response:
    ctx = context(request)
    form = await read_form(request)
    request_ = ChallengeRequest(form_field(form, "kind") or ChallengeRequest().kind,
                                form_field(form, "date") or ctx.today().isoformat())

    def start(store: ProgressStore) -> str:
        if ctx.challenge_gate is not None:  # (a club's: today's ranked set only after the ranked attempt)
            ctx.challenge_gate(ctx.lex().name, request_.kind, request_.date())
        return open_rounds.open_wall(store, ctx.lex(), request_, ctx.clock, missed_round=False)

    return redirect(request, f"/wall/{await ctx.offload.write(start)}")


async def review_page(request: Request) -> Response:
    ctx = context(request)

    def page(store: ProgressStore) -> Response:
        report = _due_now(ctx, store, *ctx.stats(wait=0))  # (only its forecast is shown: never wait for a count)
        return render(request, store, "review.html", forecast=st.shown_forecast(report), **_due_figures(report))

    return await ctx.offload.read(page)


async def position_page(request: Request) -> Response:
    ctx = context(request)

    def page(store: ProgressStore) -> Response:
        ctx.lex()  # an unknown lexicon says so in the page
        return render(request, store, "position.html")

    return await ctx.offload.read(page)


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
    ctx = context(request)
    params = request.query_params
    text = search_text(params)

    def page(store: ProgressStore) -> Response:
        rows: list[WordRow] | None = None
        found: int | None = 0  # None: more than the club's cap
        error, about = None, ""
        if text:
            try:
                query = parse_query(text)
                found, rows = _found(ctx, query)
                about = described_search(query)
            except LexitrainError as exc:
                error = str(exc)
        return render(request, store, "search.html", params=params, text=text, about=about,
                      rows=rows, found=found, shown=SHOWN_RESULTS, most=ctx.most_words,
                      error=error, orders=ORDERS, status=400 if error else 200)

    return await ctx.offload.read(page)


def _found(ctx: Context, query: Query) -> tuple[int | None, list[WordRow]]:
    """How many words the search gives and the page's first SHOWN_RESULTS of them; on a club (`most_words`),
    None and no rows past its cap, told from cap + 1 matches: counting the whole lexicon took 0.85 s of CPU a
    request, and a member can ask again and again."""
    if ctx.most_words is None:
        return first_found(ctx.lex(), query, SHOWN_RESULTS)  # the page's rows, the rest counted
    found = found_at_most(ctx.lex(), query, ctx.most_words, SHOWN_RESULTS)
    return (None, []) if found is None else found


async def sheet_pdf(request: Request) -> Response:
    """An anagram sheet of the search's results, as a PDF download (made in the sheet process:
    a long one holds up nothing else)."""
    ctx = context(request)
    text = search_text(request.query_params)
    if not text:
        raise LexitrainError("give some search conditions to print")
    data = await ctx.offload.sheet(SheetRequest("anagrams", query=text, most_words=ctx.most_words), ctx.lexicon)
    return Response(data, media_type="application/pdf",
                    headers={"content-disposition": 'attachment; filename="lexitrain-sheet.pdf"'})


async def stats_page(request: Request) -> Response:
    ctx = context(request)

    def page(store: ProgressStore) -> Response:
        report, fresh = ctx.stats()
        report = _due_now(ctx, store, report, fresh)
        per_day = report.per_day.to_dict("records")
        points_weeks = report.points.dated_weeks() if report.points else []
        due = _due_figures(report)
        return render(request, store, "stats.html", report=report, lines=st.render_text(report), per_day=per_day,
                      leaks=_leaks(report.lexicon, ctx.home), studied=request.query_params.get("studied"),
                      forecast=st.shown_forecast(report), week=st.shown_forecast(report, 7),
                      total_due=due["total"], hardest=report.hardest.to_dict("records"),
                      coverage=st.shown_coverage(report), most_answers=max([1] + [d["answers"] for d in per_day]),
                      most_due=due["most"],
                      most_cards=max([1, *report.by_state.values()]), fresh=fresh,
                      points_weeks=points_weeks, most_points=max([1.0] + [covered for _, covered in points_weeks]))

    return await ctx.offload.read(page)


def _leaks(lexicon: str, home: Path | None) -> dict[str, Any] | None:
    """The leak profile of the player's (HOME's) finished games against the bots in this lexicon (None: none
    finished yet); a game not analysed yet is analysed by equity now and kept."""
    games = [g for g in saved_analyses(Analysts(sim=False), home=home) if g.lexicon == lexicon]
    return leak_profile(games).to_json() if games else None


def _due_now(ctx: Context, store: ProgressStore, report: st.StatsReport, fresh: bool) -> st.StatsReport:
    """The report with its due forecast as the store is now, so a page shows the same due counts as `lexitrain
    stats` and the day's drill right after an answer: a FRESH report's own, else the one read once per change of
    the store (a few milliseconds: the rest of a report is counted again apart, and may be a count behind)."""
    return report if fresh else replace(report, forecast=ctx.due_forecast(store, report.lexicon))


def _due_figures(report: st.StatsReport) -> dict[str, int]:
    """The due forecast's total over its days, and its largest day (the chart's full bar)."""
    due = [int(n) for n in report.forecast["due"]]
    return {"total": sum(due), "most": max([1, *due])}


async def settings_page(request: Request) -> Response:
    def page(store: ProgressStore) -> Response:
        return render(request, store, "settings.html", lexicons=known_lexicons(),
                      saved=request.query_params.get("saved"), daily_order=daily_order(store))

    return await context(request).offload.read(page)


async def settings_save(request: Request) -> Response:
    """Keep the settings, or show the form again as the player filled it with the reason it was refused
    (a typo in one field must not cost the others)."""
    ctx = context(request)
    form = await read_form(request)
    name = form_field(form, "lexicon").strip() or ctx.lexicon
    order_given = form_field(form, "daily_order") if form.get("daily_order") is not None else None
    preferences = Preferences(tiles=bool(form.get("tiles")), dark=bool(form.get("dark")),
                              letter_order=form_field(form, "letter_order"), symbols=bool(form.get("symbols")),
                              contrast=bool(form.get("contrast")))

    def save(store: ProgressStore) -> Response | None:
        try:
            order = check_daily_order(order_given) if order_given is not None else None
            lex = ctx.lex(name)  # an unknown lexicon is refused here, in the page
            save_preferences(store, lex, preferences)
        except LexitrainError as exc:
            return render(request, store, "settings.html", status=400, lexicons=known_lexicons(), error=str(exc),
                          filled={"lexicon": name, "preferences": preferences,
                                  "daily_order": order_given or daily_order(store)})
        store.set_setting("lexicon", lex.name)
        if order is not None:
            store.set_setting(DAILY_ORDER_SETTING, order)
        return None  # (the next request uses the lexicon: `Context.follow_lexicon`)

    refused = await ctx.offload.write(save)
    return refused or redirect(request, "/settings?saved=1")


def form_field(form: FormData, name: str) -> str:
    value = form.get(name)
    return value if isinstance(value, str) else ""


def _minutes(form: FormData) -> float:
    text = form_field(form, "minutes").strip()
    try:
        minutes = float(text) if text else DEFAULT_MINUTES
    except ValueError:
        raise LexitrainError(f"minutes {text!r}: expected a number (0 for no time limit)") from None
    if not 0 <= minutes <= 600:
        raise LexitrainError(f"minutes {text!r}: expected 0 (no limit) to 600")
    return minutes


def _size(form: FormData) -> int:
    text = form_field(form, "size").strip()
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
    Route("/lists", list_upload, methods=["POST"]),
    Route("/lists/missed", list_missed, methods=["POST"]),
    Route("/lists/remove", list_remove, methods=["POST"]),
    Route("/wall/{ident}", wall_page, methods=["GET"]),
    Route("/challenge", challenge_page, methods=["GET"]),
    Route("/challenge", challenge_start, methods=["POST"]),
    Route("/review", review_page, methods=["GET"]),
    Route("/position", position_page, methods=["GET"]),
    Route("/search", search_page, methods=["GET"]),
    Route("/sheet.pdf", sheet_pdf, methods=["GET"]),
    Route("/stats", stats_page, methods=["GET"]),
    Route("/settings", settings_page, methods=["GET"]),
    Route("/settings", settings_save, methods=["POST"]),
    Route("/sync", sync_now, methods=["POST"]),
]
