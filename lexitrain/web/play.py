"""The Play pages and their JSON: a game against a bot in the browser, the games kept, a finished game reviewed.

The game is `study/drills/play.py`, the same as `lexitrain play`'s, saved in
the home after every move; each request reads it again from its file (a game
keeps no state in the app's process: a restart, another tab or the terminal
carry on from the file). A request names the turn it was made on, so a second
submit, or another window that moved meanwhile, is refused (409) and the page
shows the game as it stands. The time between requests counts on the clock of
the side whose time runs, as it would at a board; leaving the page stops it.
The bot thinks on a reader thread (a simulating bot may take seconds), tile
tracking answers are recorded in the lane (they write the progress store).
"""

from __future__ import annotations

import random
import secrets
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from lexitrain.engine.bots import LEVELS
from lexitrain.engine.gcg import END_RACK, EXCHANGE, PASS, TIME_PENALTY, event_text
from lexitrain.engine.match import LOST_CHALLENGE, PLAYER, RULES, Settings, challenge_rule, rule_name
from lexitrain.errors import LexitrainError
from lexitrain.study.drills.play import PlayedGame
from lexitrain.study.quiz.session import Refused
from lexitrain.study.records.leak_cards import leak_study
from lexitrain.study.records.leaks import Analysts, analysed_saved_game, leak_profile, saved_analyses
from lexitrain.study.records.saved_games import GameMoved, named_game, read_saved, saved_games
from lexitrain.study.store import ProgressStore
from lexitrain.web.api import board_view, context
from lexitrain.web.context import Context
from lexitrain.web.edge import BadRequest, Conflict, NotFound, read_form, read_json, reply, text, whole
from lexitrain.web.pages import form_field, redirect, render

#: the longest clock a page may ask for, in minutes
MOST_MINUTES = 180


def _open(ctx: Context, store: ProgressStore, name: str) -> PlayedGame:
    """The player's game of that name as it stands now (its clock run on since it was saved)."""
    try:
        path = named_game(name, ctx.home)
    except LexitrainError as exc:
        raise NotFound(str(exc)) from None
    return PlayedGame.resume(store, path, live=True)


def state(game: PlayedGame) -> dict[str, Any]:
    """The game as the page draws it: the board with the last play marked, the rack, scores, clocks (and
    whose runs), the moves so far (the bot's exchanged tiles and racks kept from the player), what to do."""
    match = game.match
    rung = match.bot.rung
    running = None if match.clock.running is None else PLAYER if match.clock.running == match.me else "bot"
    data: dict[str, Any] = {
        "name": game.name, "turn": match.turn_number, "to_move": match.to_move, "finished": game.finished,
        "board": board_view(match.game.board, match.last_play_squares()), "rack": match.rack(),
        "scores": match.scores, "clock": match.clock_seconds(), "timed": match.clock.timed, "running": running,
        "bag": match.bag(), "bot": {"name": rung.name, "level": rung.level},
        "rules": f"{rule_name(match.settings.challenge)} challenge, "
                 + (f"{match.settings.minutes:g} minutes each" if match.settings.minutes else "untimed"),
        "can_challenge": match.can_challenge(), "hide_unseen": match.settings.hide_unseen,
        "log": [_logged(game, event) for event in match.events],
    }
    if not match.settings.hide_unseen:
        data["unseen"] = match.unseen()
    question = game.tracking_question() if not game.finished else None
    data["track"] = {"count": question.info["count"]} if question is not None else None
    if game.finished:
        data["end"] = game.end_json()
    return data


def _logged(game: PlayedGame, event: Any) -> dict[str, Any]:
    """One move of the log: who, what (the bot's exchanged tiles as their count, a pass in words), points and total."""
    mine = event.player == game.match.settings.player
    move = event_text(event)
    if event.kind == EXCHANGE and not mine:
        move = f"-{len(game.match.tiles.tokenize(event.tiles))} tiles"
    if event.kind == PASS:  # (the record's `-`)
        move = "challenge (lost the turn)" if LOST_CHALLENGE in event.notes else "pass"
    if event.kind == END_RACK:
        move = f"rack {move}"
    if event.kind == TIME_PENALTY:
        move = "overtime"
    return {"who": "you" if mine else game.match.bot.name, "move": move, "score": event.score,
            "total": event.cumulative, "mine": mine}


def _this_turn(game: PlayedGame, data: dict[str, Any]) -> None:
    """The request names the turn on show, else it is a second submit or another window moved (409)."""
    if whole(data, "turn") != game.match.turn_number:
        raise Conflict("that turn is over: the game has moved on (a second submit, or another window?)")


async def play_move(request: Request) -> JSONResponse:
    """The player's line (`8D QUITE`, `exchange ABC`, `pass`, `challenge`); one the game does not take is
    refused with its reason and the same turn stays on show."""
    ctx, name, data = context(request), request.path_params["name"], await read_json(request)
    line = text(data, "line")

    def move(store: ProgressStore) -> dict[str, Any]:
        game = _open(ctx, store, name)
        _this_turn(game, data)
        try:
            happened = game.player_line(line)
        except GameMoved as exc:
            raise Conflict(str(exc)) from None
        except LexitrainError as exc:
            return {**state(game), "refused": str(exc)}
        return {**state(game), "happened": [h.text for h in happened]}

    return reply(await ctx.offload.read(move))


async def play_bot(request: Request) -> JSONResponse:
    """The bot's turn (its challenge of the player's last play, if it makes one, then its move)."""
    ctx, name, data = context(request), request.path_params["name"], await read_json(request)

    def think(store: ProgressStore) -> dict[str, Any]:
        game = _open(ctx, store, name)
        _this_turn(game, data)
        if game.to_move != "bot":
            return state(game)
        try:
            happened = game.bot_step()
        except GameMoved as exc:
            raise Conflict(str(exc)) from None
        return {**state(game), "happened": [h.text for h in happened]}

    return reply(await ctx.offload.read(think))


async def play_track(request: Request) -> JSONResponse:
    """The unseen tiles named when asked, scored tile by tile and kept in the progress store."""
    ctx, name, data = context(request), request.path_params["name"], await read_json(request)
    tiles = text(data, "tiles")

    def track(store: ProgressStore) -> dict[str, Any]:
        game = _open(ctx, store, name)
        _this_turn(game, data)
        if game.tracking_question() is None:
            raise Conflict("no unseen tiles are asked for now")
        try:
            outcome = game.track(tiles)
        except Refused as exc:
            return {**state(game), "refused": str(exc)}
        return {**state(game), "tracked": {**outcome.check.details, "wrong": list(outcome.check.wrong),
                                           "missing": list(outcome.check.missing)}}

    return reply(await ctx.offload.write(track))


async def play_get(request: Request) -> JSONResponse:
    ctx, name = context(request), request.path_params["name"]
    return reply(await ctx.offload.read(lambda store: state(_open(ctx, store, name))))


async def play_pause(request: Request) -> JSONResponse:
    """The page is left: the clock stops and the game is saved (the next visit starts it again)."""
    ctx, name = context(request), request.path_params["name"]

    def pause(store: ProgressStore) -> dict[str, Any]:
        game = _open(ctx, store, name)
        if not game.finished:
            game.put_away()
        return {"paused": True}

    return reply(await ctx.offload.read(pause))


# -- pages -------------------------------------------------------------------------------


async def play_page(request: Request) -> Response:
    """The games: a new one's settings, the unfinished ones to go on with, the finished ones to review."""
    ctx = context(request)

    def page(store: ProgressStore) -> Response:
        lex = ctx.lex()
        games = saved_games(ctx.home)
        return render(request, store, "play.html", levels=LEVELS, rules=list(RULES),
                      default_rule=rule_name(challenge_rule(None, lex.name)),
                      playing=[g for g in games if not g.finished], finished=[g for g in games if g.finished])

    return await ctx.offload.read(page)


async def play_start(request: Request) -> Response:
    ctx = context(request)
    form = await read_form(request)
    try:
        level = int(form_field(form, "level") or "3")
        minutes = float(form_field(form, "clock") or "25")
    except ValueError:
        raise BadRequest("the level and the clock are numbers") from None
    if not 0 <= minutes <= MOST_MINUTES:
        raise BadRequest(f"the clock: 0 (untimed) to {MOST_MINUTES} minutes")
    asked = form_field(form, "challenge") or None

    def start(store: ProgressStore) -> str:
        lex = ctx.lex()
        seed = secrets.randbelow(1_000_000_000)
        settings = Settings(lex.name, level, challenge_rule(asked, lex.name), minutes, seed,
                            bool(form.get("hide_unseen")), first=random.Random(f"first/{seed}").random() < 0.5)
        return PlayedGame.start(store, lex, settings, home=ctx.home).name

    name = await ctx.offload.read(start)
    return redirect(request, f"/play/{name}")


async def game_page(request: Request) -> Response:
    ctx, name = context(request), request.path_params["name"]

    def page(store: ProgressStore) -> Response:
        game = _open(ctx, store, name)
        return render(request, store, "game.html", game_name=game.name, bot=game.match.bot.rung)

    return await ctx.offload.read(page)


async def review_page(request: Request) -> Response:
    """A finished game turn by turn: each of the player's moves, the better one and the win probability lost,
    its mistake's size; the Mistake Index and the rating it suggests (by equity, or `?sim=1` by phase)."""
    ctx, name = context(request), request.path_params["name"]
    sim = request.query_params.get("sim") == "1"

    def page(store: ProgressStore) -> Response:
        try:
            saved, record = read_saved(named_game(name, ctx.home))
        except LexitrainError as exc:
            raise NotFound(str(exc)) from None
        if not saved.finished:
            raise LexitrainError(f"{name} is not finished yet: play it to the end first")
        analysed = analysed_saved_game(saved, record, Analysts(sim, threads=1))
        return render(request, store, "game_review.html", saved=saved, analysed=analysed, summary=analysed.summary(),
                      turns=analysed.report["turns"], challenges_lost=analysed.challenges_lost())

    return await ctx.offload.read(page)


async def leaks_study(request: Request) -> Response:
    """The week's study from the leak profile: the top kinds' words and positions as cards, due now."""
    ctx = context(request)

    def study(store: ProgressStore) -> int:
        games = [g for g in saved_analyses(Analysts(sim=False), home=ctx.home) if g.lexicon == ctx.lexicon]
        if not games:
            raise LexitrainError("no finished games to study from yet: play one first")
        return leak_study(store, leak_profile(games)).added

    added = await ctx.offload.write(study)
    return redirect(request, f"/stats?studied={added}#leaks")


ROUTES = [
    Route("/leaks/study", leaks_study, methods=["POST"]),
    Route("/play", play_page, methods=["GET"]),
    Route("/play", play_start, methods=["POST"]),
    Route("/play/{name}", game_page, methods=["GET"]),
    Route("/games/{name}", review_page, methods=["GET"]),
    Route("/api/play/{name}", play_get, methods=["GET"]),
    Route("/api/play/{name}/move", play_move, methods=["POST"]),
    Route("/api/play/{name}/bot", play_bot, methods=["POST"]),
    Route("/api/play/{name}/track", play_track, methods=["POST"]),
    Route("/api/play/{name}/pause", play_pause, methods=["POST"]),
]
