"""The JSON the pages' scripts speak: walls, reviews and positions, each an open round by id.

Every body is one JSON object; a field missing or of the wrong type, an
unknown round, or a request the core refuses is a 4xx with a one-line
`{"error": ...}`, never a 500.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from lexitrain.errors import LexitrainError
from lexitrain.study.kinds.base import BOARD, Question
from lexitrain.study.session import Outcome, Refused
from lexitrain.study.wall import Wall, word_facts
from lexitrain.web.context import Context, OneByOne
from lexitrain.web.guard import HEADERS

if TYPE_CHECKING:
    from lexitrain.lexicon.lexicon import Lexicon

MAX_TEXT = 200


class BadRequest(LexitrainError):
    """A body the app cannot read (answered with 400)."""


def context(request: Request) -> Context:
    ctx: Context = request.app.state.ctx
    return ctx


def reply(data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers=HEADERS)


async def body(request: Request) -> dict[str, Any]:
    """The request's JSON object."""
    raw = await request.body()
    try:
        data = json.loads(raw or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise BadRequest("the body is not JSON") from None
    if not isinstance(data, dict):
        raise BadRequest("the body must be a JSON object")
    return data


def text(data: dict[str, Any], name: str) -> str:
    value = data.get(name)
    if not isinstance(value, str):
        raise BadRequest(f"{name!r} must be a string")
    if len(value) > MAX_TEXT:
        raise BadRequest(f"{name!r} is longer than {MAX_TEXT} characters")
    return value


def flag(data: dict[str, Any], name: str) -> bool:
    value = data.get(name)
    if not isinstance(value, bool):
        raise BadRequest(f"{name!r} must be true or false")
    return value


def whole(data: dict[str, Any], name: str) -> int:
    value = data.get(name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadRequest(f"{name!r} must be a whole number")
    return value


# -- walls -------------------------------------------------------------------------


def wall_state(wall: Wall) -> dict[str, Any]:
    state = wall.state()
    if state["round"] is not None and state["round"]["ended"]:
        state["solutions"] = wall.solutions()
    return state


async def wall_get(request: Request) -> JSONResponse:
    return reply(wall_state(_wall(request)))


async def wall_guess(request: Request) -> JSONResponse:
    wall = _wall(request)
    guess = wall.guess(text(await body(request), "word"))
    return reply({"guess": guess.to_json(), **wall_state(wall)})


async def wall_give_up(request: Request) -> JSONResponse:
    wall = _wall(request)
    if wall.round is not None and not wall.round.ended:
        wall.give_up()
    return reply(wall_state(wall))


async def wall_leave(request: Request) -> JSONResponse:
    """The page is going (closed, reloaded, navigated away): the wall ends as `Wall.finish` says."""
    wall = _wall(request)
    wall.finish()
    return reply(wall_state(wall))


async def wall_next(request: Request) -> JSONResponse:
    wall = _wall(request)
    wall.start_round()
    return reply(wall_state(wall))


async def wall_mark(request: Request) -> JSONResponse:
    wall = _wall(request)
    data = await body(request)
    wall.mark(text(data, "id"), flag(data, "correct"))
    return reply(wall_state(wall))


def _wall(request: Request) -> Wall:
    return context(request).opened(request.path_params["ident"], Wall, "wall")


# -- reviews -----------------------------------------------------------------------


def question_json(ctx: Context, drill: OneByOne) -> dict[str, Any] | None:
    question = drill.question
    if question is None:
        return None
    data = {**question.to_json(), "number": drill.number, "hint": question.hint}
    if question.hint == BOARD:
        data["board"] = board_json(ctx, question)
    return data


def words_json(lex: Lexicon, question: Question) -> list[dict[str, Any]]:
    """The facts (hooks, definition) of the words an answer shows: the answers of a word question,
    the word on show of a valid-or-phony one; none for a position, whose answers are plays."""
    if question.hint == BOARD:
        return []
    shown = question.words_shown
    facts = word_facts(lex, shown)
    return [facts[w] for w in shown]


def outcome_json(lex: Lexicon, outcome: Outcome) -> dict[str, Any]:
    """An answer's result line, with the words' facts."""
    return {**outcome.to_json(), "words": words_json(lex, outcome.question)}


def drill_state(ctx: Context, ident: str, drill: OneByOne) -> dict[str, Any]:
    data: dict[str, Any] = {"id": ident, "title": drill.session.title, "question": question_json(ctx, drill),
                            "last": outcome_json(drill.session.lex, drill.last) if drill.last else None}
    if drill.summary is not None:
        data["summary"] = drill.summary.to_json()
    return data


async def review_start(request: Request) -> JSONResponse:
    from lexitrain.study.requests import DailyRequest

    ctx = context(request)
    drill = OneByOne(DailyRequest().start(ctx.store, ctx.lex()))
    ident = ctx.keep(drill)
    return reply({**drill_state(ctx, ident, drill), "today": today(ctx)})


def answered(ctx: Context, ident: str, drill: OneByOne, line: str) -> dict[str, Any]:
    """Record an answer line and move on; a line the question does not take (an illegal play, a
    valid-or-phony answer other than v or p) is refused with its reason, nothing recorded, the
    same question still on show. A refusal is part of the game, so it is no HTTP error."""
    try:
        drill.record(drill.session.answer(drill.current(), line))
    except Refused as exc:
        return {**drill_state(ctx, ident, drill), "refused": str(exc)}
    return drill_state(ctx, ident, drill)


async def review_answer(request: Request) -> JSONResponse:
    ctx, ident, drill = _drill(request)
    state = answered(ctx, ident, drill, text(await body(request), "text"))
    return reply({**state, "today": today(ctx)})


async def review_reveal(request: Request) -> JSONResponse:
    """The answer of the question on show, recording nothing (the player grades next): the
    words' facts, and what an empty line is checked to (a position's top plays, whether the word
    shown is valid and how a phony was made)."""
    ctx, ident, drill = _drill(request)
    question = drill.current()
    return reply({"id": question.id, "words": words_json(drill.session.lex, question),
                  "details": drill.session.check(question, "").details})


async def review_grade(request: Request) -> JSONResponse:
    ctx, ident, drill = _drill(request)
    rating = whole(await body(request), "rating")
    drill.record(drill.session.grade(drill.current(), rating))
    return reply({**drill_state(ctx, ident, drill), "today": today(ctx)})


def today(ctx: Context) -> dict[str, int]:
    """Today's counts of the daily drill, as `lexitrain daily --status` gives them."""
    from lexitrain.study.requests import DailyRequest

    state = DailyRequest().status(ctx.store, ctx.lex())
    return {"new_done": state.new_done, "reviews_done": state.reviews_done, "new_left": state.new_left,
            "reviews_left": state.reviews_left}


def _drill(request: Request) -> tuple[Context, str, OneByOne]:
    ctx = context(request)
    ident = request.path_params["ident"]
    return ctx, ident, ctx.opened(ident, OneByOne, "review or position round")


# -- positions -----------------------------------------------------------------------


def board_json(ctx: Context, question: Question) -> dict[str, Any]:
    """The board as the page draws it: each square's premium, tile and whether a blank plays it."""
    from lexitrain.engine.board import EMPTY, column_name, is_blank, tile_text
    from lexitrain.study.positions import read_position

    position = read_position(question.key, ctx.lex(question.info.get("lexicon")))
    board = position.board
    rows = [[{"premium": board.premium(r, c) if board.get(r, c) == EMPTY else "",
              "tile": "" if board.get(r, c) == EMPTY else tile_text(board.tiles, board.get(r, c)),
              "blank": board.get(r, c) != EMPTY and is_blank(board.get(r, c))}
             for c in range(board.cols)] for r in range(board.rows)]
    return {"columns": [column_name(c) for c in range(board.cols)], "rows": rows, "rack": position.rack}


async def position_start(request: Request) -> JSONResponse:
    from lexitrain.study.requests import PositionQuizRequest

    ctx = context(request)
    drill = OneByOne(PositionQuizRequest(limit=10).start(ctx.store, ctx.lex()))
    return reply(drill_state(ctx, ctx.keep(drill), drill))


async def position_play(request: Request) -> JSONResponse:
    """A play in GCG notation: an illegal one is refused with its reason and the position stays;
    a legal one is recorded (top score or not) and the verdict shows the top plays."""
    ctx, ident, drill = _drill(request)
    return reply(answered(ctx, ident, drill, text(await body(request), "play")))


ROUTES = [
    Route("/api/wall/{ident}", wall_get, methods=["GET"]),
    Route("/api/wall/{ident}/guess", wall_guess, methods=["POST"]),
    Route("/api/wall/{ident}/give-up", wall_give_up, methods=["POST"]),
    Route("/api/wall/{ident}/next", wall_next, methods=["POST"]),
    Route("/api/wall/{ident}/leave", wall_leave, methods=["POST"]),
    Route("/api/wall/{ident}/mark", wall_mark, methods=["POST"]),
    Route("/api/review", review_start, methods=["POST"]),
    Route("/api/review/{ident}/answer", review_answer, methods=["POST"]),
    Route("/api/review/{ident}/reveal", review_reveal, methods=["POST"]),
    Route("/api/review/{ident}/grade", review_grade, methods=["POST"]),
    Route("/api/position", position_start, methods=["POST"]),
    Route("/api/position/{ident}/play", position_play, methods=["POST"]),
]
