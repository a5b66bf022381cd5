"""The JSON the pages' scripts speak: walls, reviews and positions, each an open round by id.

Every body is one JSON object, read and checked at the edge (`web.edge`); a field missing or of the
wrong type, an unknown round, or a request the core refuses is a 4xx with a one-line `{"error": ...}`,
never a 500.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any, Callable, TypeVar

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from lexitrain.engine.board import EMPTY, column_name, is_blank, tile_text
from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.study.drills.requests import DailyRequest, PositionQuizRequest
from lexitrain.study.quiz.kinds.base import BOARD, Question
from lexitrain.study.quiz.kinds.position import read_position
from lexitrain.study.quiz.round import Round
from lexitrain.study.quiz.session import Outcome, Refused
from lexitrain.study.drills.wall import Wall, word_facts
from lexitrain.web.context import Context
from lexitrain.web.edge import Conflict, flag, read_json, reply, text, whole

T = TypeVar("T")


def context(request: Request) -> Context:
    ctx: Context = request.app.state.ctx
    return ctx


async def lane(request: Request, work: Callable[[], T]) -> T:
    """Run WORK in the launch's lane (it touches open rounds or writes the store)."""
    return await context(request).offload.write(work)


def token(ctx: Context, *parts: object) -> str:
    """The token of one question (or one round) on show: a request naming it answers that showing only,
    so a second submit of the same answer finds the next question on show and is refused (409)."""
    return hmac.new(ctx.secret.encode(), ":".join(map(str, parts)).encode(), hashlib.sha256).hexdigest()[:16]


# -- walls -------------------------------------------------------------------------


def wall_state(ctx: Context, ident: str, wall: Wall) -> dict[str, Any]:
    state = wall.state()
    if state["round"] is not None:
        state["round"]["token"] = token(ctx, ident, "round", state["round"]["number"])
        if state["round"]["ended"]:
            state["solutions"] = wall.solutions()
    return state


async def wall_get(request: Request) -> JSONResponse:
    ctx, ident = context(request), request.path_params["ident"]
    return reply(await lane(request, lambda: wall_state(ctx, ident, _wall(ctx, ident))))


def _this_round(ctx: Context, ident: str, wall: Wall, data: dict[str, Any]) -> None:
    """The request names the round on show by its token, else it is a stale or second submit (409)."""
    sent = text(data, "round")
    if wall.round is None or not hmac.compare_digest(sent, token(ctx, ident, "round", wall.round.number)):
        raise Conflict("that round is over: the wall has moved on (a second submit?)")


async def wall_guess(request: Request) -> JSONResponse:
    ctx, ident, data = context(request), request.path_params["ident"], await read_json(request)
    word = text(data, "word")

    def guess() -> dict[str, Any]:
        wall = _wall(ctx, ident)
        _this_round(ctx, ident, wall, data)
        return {"guess": wall.guess(word).to_json(), **wall_state(ctx, ident, wall)}

    return reply(await lane(request, guess))


async def wall_give_up(request: Request) -> JSONResponse:
    ctx, ident, data = context(request), request.path_params["ident"], await read_json(request)

    def give_up() -> dict[str, Any]:
        wall = _wall(ctx, ident)
        _this_round(ctx, ident, wall, data)
        if wall.round is not None and not wall.round.ended:
            wall.give_up()
        return wall_state(ctx, ident, wall)

    return reply(await lane(request, give_up))


async def wall_next(request: Request) -> JSONResponse:
    ctx, ident, data = context(request), request.path_params["ident"], await read_json(request)

    def next_round() -> dict[str, Any]:
        wall = _wall(ctx, ident)
        _this_round(ctx, ident, wall, data)  # a double click on "next round" starts one round, not two
        wall.start_round()
        return wall_state(ctx, ident, wall)

    return reply(await lane(request, next_round))


async def wall_mark(request: Request) -> JSONResponse:
    ctx, ident, data = context(request), request.path_params["ident"], await read_json(request)
    question, correct = text(data, "id"), flag(data, "correct")

    def mark() -> dict[str, Any]:
        wall = _wall(ctx, ident)
        _this_round(ctx, ident, wall, data)
        cell = next((c for c in wall.round.cells if c.question.id == question), None) if wall.round else None
        if cell is not None and cell.outcome is not None and cell.outcome.correct == correct:
            raise Conflict(f"{question!r} is already marked {'correct' if correct else 'missed'} (a second submit?)")
        wall.mark(question, correct)
        return wall_state(ctx, ident, wall)

    return reply(await lane(request, mark))


def _wall(ctx: Context, ident: str) -> Wall:
    return ctx.opened(ident, Wall, "wall")


# -- reviews -----------------------------------------------------------------------


def question_json(ctx: Context, ident: str, drill: Round) -> dict[str, Any] | None:
    question = drill.question
    if question is None:
        return None
    data = {**question.to_json(), "number": drill.number, "hint": question.hint,
            "token": token(ctx, ident, drill.number, question.id)}
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


def drill_state(ctx: Context, ident: str, drill: Round) -> dict[str, Any]:
    """The round as the page shows it; a round with no question left is finished (and so saved) here."""
    if drill.question is None:
        drill.finish()
    data: dict[str, Any] = {"id": ident, "title": drill.session.title, "question": question_json(ctx, ident, drill),
                            "last": outcome_json(drill.session.lex, drill.last) if drill.last else None}
    if drill.summary is not None:
        data["summary"] = drill.summary.to_json()
    return data


def on_show(ctx: Context, ident: str, drill: Round, data: dict[str, Any]) -> Question:
    """The question the request names (its id and token): the one on show, else 409 (a second
    submit, a held key, another tab): nothing is recorded for a question the player did not see."""
    question_id, sent = text(data, "question"), text(data, "token")
    question = drill.question
    if question is None or question.id != question_id \
            or not hmac.compare_digest(sent, token(ctx, ident, drill.number, question.id)):
        raise Conflict("that question was answered already: the next one is on show (a second submit?)")
    return question


async def review_start(request: Request) -> JSONResponse:
    ctx = context(request)

    def start() -> dict[str, Any]:
        drill = Round(DailyRequest().start(ctx.store, ctx.lex()))
        ident = ctx.keep(drill)
        return {**drill_state(ctx, ident, drill), "today": today(ctx)}

    return reply(await lane(request, start))


def answered(ctx: Context, ident: str, drill: Round, question: Question, line: str) -> dict[str, Any]:
    """Record an answer line and move on; a line the question does not take (an illegal play, a
    valid-or-phony answer other than v or p) is refused with its reason, nothing recorded, the
    same question still on show. A refusal is part of the game, so it is no HTTP error."""
    try:
        drill.answer(line)  # `question` is the one on show (checked by its token)
    except Refused as exc:
        return {**drill_state(ctx, ident, drill), "refused": str(exc)}
    return drill_state(ctx, ident, drill)


async def review_answer(request: Request) -> JSONResponse:
    ctx, ident, data = context(request), request.path_params["ident"], await read_json(request)
    line = text(data, "text")

    def answer() -> dict[str, Any]:
        drill = _drill(ctx, ident)
        return {**answered(ctx, ident, drill, on_show(ctx, ident, drill, data), line), "today": today(ctx)}

    return reply(await lane(request, answer))


async def review_reveal(request: Request) -> JSONResponse:
    """The answer of the question on show, recording nothing (the player grades next): the
    words' facts, and what an empty line is checked to (a position's top plays, whether the word
    shown is valid and how a phony was made)."""
    ctx, ident, data = context(request), request.path_params["ident"], await read_json(request)

    def reveal() -> dict[str, Any]:
        drill = _drill(ctx, ident)
        question = on_show(ctx, ident, drill, data)
        return {"id": question.id, "words": words_json(drill.session.lex, question),
                "details": drill.session.check(question, "").details}

    return reply(await lane(request, reveal))


async def review_grade(request: Request) -> JSONResponse:
    ctx, ident, data = context(request), request.path_params["ident"], await read_json(request)
    rating = whole(data, "rating")

    def grade() -> dict[str, Any]:
        drill = _drill(ctx, ident)
        on_show(ctx, ident, drill, data)
        drill.grade(rating)
        return {**drill_state(ctx, ident, drill), "today": today(ctx)}

    return reply(await lane(request, grade))


def undone(ctx: Context, ident: str, drill: Round, data: dict[str, Any]) -> dict[str, Any]:
    """Take the last scored answer back (`Session.undo`, as `!undo` does in the terminal) and show
    its question again. The request names the question on show (its token), so a second submit of
    the same undo is refused (409) rather than taking back one more; so is an undo with nothing to
    take back, and one whose card was answered since in another drill (the card stays as it is)."""
    if drill.question is None:
        raise Conflict("this round is over: nothing to take back")
    on_show(ctx, ident, drill, data)
    try:
        taken = drill.undo()
    except LexitrainError as exc:
        raise Conflict(str(exc)) from None
    if taken is None:
        raise Conflict("nothing to take back: no answer given yet in this round")
    return {**drill_state(ctx, ident, drill), "undone": {"id": taken.question.id, "prompt": taken.question.prompt}}


async def review_undo(request: Request) -> JSONResponse:
    ctx, ident, data = context(request), request.path_params["ident"], await read_json(request)

    def undo() -> dict[str, Any]:
        return {**undone(ctx, ident, _drill(ctx, ident), data), "today": today(ctx)}

    return reply(await lane(request, undo))


def today(ctx: Context) -> dict[str, int]:
    """Today's counts of the daily drill, as `lexitrain daily --status` gives them."""
    state = DailyRequest().status(ctx.store, ctx.lex())
    return {"new_done": state.new_done, "reviews_done": state.reviews_done, "new_left": state.new_left,
            "reviews_left": state.reviews_left, "due_now": state.due_now, "due_later_today": state.due_later_today}


def _drill(ctx: Context, ident: str) -> Round:
    return ctx.opened(ident, Round, "review or position round")


# -- positions -----------------------------------------------------------------------


def board_json(ctx: Context, question: Question) -> dict[str, Any]:
    """The board as the page draws it: each square's premium, tile and whether a blank plays it."""
    position = read_position(question.key, ctx.lex(question.info.get("lexicon")))
    board = position.board
    rows = [[{"premium": board.premium(r, c) if board.get(r, c) == EMPTY else "",
              "tile": "" if board.get(r, c) == EMPTY else tile_text(board.tiles, board.get(r, c)),
              "blank": board.get(r, c) != EMPTY and is_blank(board.get(r, c))}
             for c in range(board.cols)] for r in range(board.rows)]
    opponent = position.racks[1] if len(position.racks) > 1 else ""
    return {"columns": [column_name(c) for c in range(board.cols)], "rows": rows, "rack": position.rack,
            "opponent": opponent}


async def position_start(request: Request) -> JSONResponse:
    """A round of positions, judged `by` score (the default), equity, a simulation or the endgame solver."""
    ctx, data = context(request), await read_json(request)
    by = text(data, "by") if "by" in data else "score"

    def start() -> dict[str, Any]:
        drill = Round(PositionQuizRequest(limit=10, by=by).start(ctx.store, ctx.lex()))
        return drill_state(ctx, ctx.keep(drill), drill)

    return reply(await lane(request, start))


async def position_play(request: Request) -> JSONResponse:
    """A play in GCG notation: an illegal one is refused with its reason and the position stays;
    a legal one is recorded (top score or not) and the verdict shows the top plays."""
    ctx, ident, data = context(request), request.path_params["ident"], await read_json(request)
    play = text(data, "play")

    def answer() -> dict[str, Any]:
        drill = _drill(ctx, ident)
        return answered(ctx, ident, drill, on_show(ctx, ident, drill, data), play)

    return reply(await lane(request, answer))


async def position_undo(request: Request) -> JSONResponse:
    ctx, ident, data = context(request), request.path_params["ident"], await read_json(request)
    return reply(await lane(request, lambda: undone(ctx, ident, _drill(ctx, ident), data)))


ROUTES = [
    Route("/api/wall/{ident}", wall_get, methods=["GET"]),
    Route("/api/wall/{ident}/guess", wall_guess, methods=["POST"]),
    Route("/api/wall/{ident}/give-up", wall_give_up, methods=["POST"]),
    Route("/api/wall/{ident}/next", wall_next, methods=["POST"]),
    Route("/api/wall/{ident}/mark", wall_mark, methods=["POST"]),
    Route("/api/review", review_start, methods=["POST"]),
    Route("/api/review/{ident}/answer", review_answer, methods=["POST"]),
    Route("/api/review/{ident}/reveal", review_reveal, methods=["POST"]),
    Route("/api/review/{ident}/grade", review_grade, methods=["POST"]),
    Route("/api/review/{ident}/undo", review_undo, methods=["POST"]),
    Route("/api/position", position_start, methods=["POST"]),
    Route("/api/position/{ident}/play", position_play, methods=["POST"]),
    Route("/api/position/{ident}/undo", position_undo, methods=["POST"]),
]
