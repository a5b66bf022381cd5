"""Cards from the player's own games, uploaded (`/games`): what `lexitrain study from-games FILES` makes.

The page sends the .gcg files as one multipart body, which the edge reads and bounds (`edge.read_files`: the
body's bytes, the number of files); the games are analysed by the command's own function
(`study.records.from_games.read_games`) against the app's lexicon, a game recorded in another noted
as the command notes it, without the store (on a club a pooled connection, which another member's request may
need meanwhile); then the cards and their positions go into the player's store (a club member's own) in one short
transaction (`add_due_cards`), new ones due now. A
file that does not read is named with its line, in one line, as the command names it, and the others are
still read. The quick kinds only: missed bingos, costly turns, phonies, read-the-rack; a best-play or an
endgame card takes seconds to minutes of simulation or solving a turn, which the command makes.
"""

from __future__ import annotations


from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from lexitrain.engine.analysis import Analyst
from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.study.records.from_games import (
    DEFAULT_POINTS, GameCards, Uploaded, add_due_cards, players, read_games,
)
from lexitrain.study.store import ProgressStore
from lexitrain.web.api import context
from lexitrain.web.edge import Conflict, read_files, reply
from lexitrain.web.pages import form_field, render

#: The most games one upload takes (each a second or two of analysis; a read-rack card's inference more).
MOST_GAMES = 20
#: The largest turn loss a position card's threshold takes (`--points`).
MOST_POINTS = 1000
#: The form field the games come in.
FIELD = "games"


async def games_page(request: Request) -> Response:
    """The page: the games chosen, their player, the options; what was made (`static/games.js`)."""
    ctx = context(request)

    def page(store: ProgressStore) -> Response:
        ctx.lex()  # an unknown lexicon says so in the page
        return render(request, store, "games.html", most=MOST_GAMES, points=DEFAULT_POINTS)

    return await ctx.offload.read(page)


async def games_players(request: Request) -> Response:
    """The players the uploaded games name (nick and name), and the files that did not read."""
    files, _ = await read_files(request, FIELD, MOST_GAMES)
    named, skipped = await run_in_threadpool(players, [Uploaded(name, data) for name, data in files])
    return reply({"players": [{"nick": nick, "name": name} for nick, name in named], "skipped": skipped})


async def games_cards(request: Request) -> Response:
    """Analyse the uploaded games (the chosen player's turns, or every player's) and add their cards, as
    `study from-games` does; what it made, in the command's words."""
    ctx = context(request)
    files, form = await read_files(request, FIELD, MOST_GAMES)
    player = form_field(form, "player").strip() or None
    points = _points(form_field(form, "points"))
    read_rack = form_field(form, "read_rack") == "1"
    busy = ctx.games_busy  # (one upload analysed at a time: a second meanwhile is refused)
    if not busy.acquire(blocking=False):
        raise Conflict("your games are still being analysed: wait for them before sending more")

    def analyse() -> tuple[Lexicon, GameCards]:
        lex = ctx.lex()
        found, _ = read_games(lex, Analyst.of_lexicon(lex), [Uploaded(name, data) for name, data in files], player,
                              points, read_rack)
        return lex, found

    try:  # (the analysis, up to a minute, holds no store: on a club a pooled connection is another member's meanwhile)
        lex, found = await run_in_threadpool(analyse)
        await ctx.offload.write(lambda store: add_due_cards(store, lex, found))
    finally:
        busy.release()
    return reply({**found.to_json(), "lexicon": lex.name, "said": found.said(lex.name)})


def _points(text: str) -> int:
    """A position card's threshold as typed (blank: the command's default)."""
    text = text.strip()
    if not text:
        return DEFAULT_POINTS
    if not (text.isascii() and text.isdigit()) or int(text) > MOST_POINTS:
        raise LexitrainError(f"points {text[:20]!r}: a whole number of points from 0 to {MOST_POINTS}")
    return int(text)


ROUTES = [
    Route("/games", games_page, methods=["GET"]),
    Route("/api/games/players", games_players, methods=["POST"]),
    Route("/api/games/cards", games_cards, methods=["POST"]),
]
