"""The JSON the pages' scripts speak: walls, reviews and positions, each an open round by id.

Every body is one JSON object, read and checked at the edge (`web.edge`); a field missing or of the
wrong type, an unknown round, or a request the core refuses is a 4xx with a one-line `{"error": ...}`,
never a 500.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Callable, TypeVar

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from lexitrain.engine.board import EMPTY, Board, column_name, is_blank, tile_text
from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.study.drills.requests import DailyRequest, PositionQuizRequest
from lexitrain.study.quiz.kinds.base import BOARD, Question
from lexitrain.study.quiz.kinds.position import read_position
from lexitrain.study.drills import open_rounds
from lexitrain.study.drills.open_rounds import NoSuchRound, OpenRound
from lexitrain.study.drills.wall import Wall, word_facts
from lexitrain.study.quiz.round import Round
from lexitrain.study.quiz.session import Outcome, Refused
from lexitrain.study.store import ProgressStore
from lexitrain.web.context import Context
from lexitrain.web.edge import Conflict, NotFound, flag, read_json, reply, text, whole

T = TypeVar("T")
W = TypeVar("W", Wall, Round)


def context(request: Request) -> Context:
    ctx: Context = request.app.state.ctx
    return ctx


async def lane(request: Request, work: Callable[[ProgressStore], T]) -> T:
    """Run WORK in the launch's lane with a store (it writes the store: an open round's every request does)."""
    return await context(request).offload.write(work)


@contextmanager
def opened(ctx: Context, store: ProgressStore, ident: str, kind: type[W], noun: str) -> Iterator[OpenRound[W]]:
    """The open round of that id, for one request, saved as the block ends (404 when there is none)."""
    try:
        with open_rounds.opened(store, ctx.lex, ident, kind, noun, ctx.clock) as found:
            yield found
    except NoSuchRound as exc:
        raise NotFound(str(exc)) from None


# -- walls -------------------------------------------------------------------------


def wall_state(opened: OpenRound[Wall]) -> dict[str, Any]:
    wall = opened.thing
    state = wall.state()
    if state["round"] is not None:
        state["round"]["token"] = opened.token("round", state["round"]["number"])
        if state["round"]["ended"]:
            state["solutions"] = wall.solutions()
    return state


async def wall_get(request: Request) -> JSONResponse:
    ctx, ident = context(request), request.path_params["ident"]

    def get(store: ProgressStore) -> dict[str, Any]:
        with opened(ctx, store, ident, Wall, "wall") as wall:
            return wall_state(wall)

    return reply(await lane(request, get))


def _this_round(opened: OpenRound[Wall], data: dict[str, Any]) -> Wall:
    """The request names the round on show by its token, else it is a stale or second submit (409)."""
    sent, wall = text(data, "round"), opened.thing
    if wall.round is None or not hmac.compare_digest(sent, opened.token("round", wall.round.number)):
        raise Conflict("that round is over: the wall has moved on (a second submit?)")
    return wall


async def wall_guess(request: Request) -> JSONResponse:
    ctx, ident, data = context(request), request.path_params["ident"], await read_json(request)
    word = text(data, "word")

    def guess(store: ProgressStore) -> dict[str, Any]:
        with opened(ctx, store, ident, Wall, "wall") as wall:
            return {"guess": _this_round(wall, data).guess(word).to_json(), **wall_state(wall)}

    return reply(await lane(request, guess))


async def wall_give_up(request: Request) -> JSONResponse:
    ctx, ident, data = context(request), request.path_params["ident"], await read_json(request)

    def give_up(store: ProgressStore) -> dict[str, Any]:
        with opened(ctx, store, ident, Wall, "wall") as wall:
            shown = _this_round(wall, data)
            if shown.round is not None and not shown.round.ended:
                shown.give_up()
            return wall_state(wall)

    return reply(await lane(request, give_up))


async def wall_next(request: Request) -> JSONResponse:
    ctx, ident, data = context(request), request.path_params["ident"], await read_json(request)

    def next_round(store: ProgressStore) -> dict[str, Any]:
        with opened(ctx, store, ident, Wall, "wall") as wall:
            _this_round(wall, data).start_round()  # a double click on "next round" starts one round, not two
            return wall_state(wall)

    return reply(await lane(request, next_round))


async def wall_mark(request: Request) -> JSONResponse:
    ctx, ident, data = context(request), request.path_params["ident"], await read_json(request)
    question, correct = text(data, "id"), flag(data, "correct")

    def mark(store: ProgressStore) -> dict[str, Any]:
        with opened(ctx, store, ident, Wall, "wall") as wall:
            shown = _this_round(wall, data)
            cell = next((c for c in shown.round.cells if c.question.id == question), None) if shown.round else None
            if cell is not None and cell.outcome is not None and cell.outcome.correct == correct:
                raise Conflict(f"{question!r} is already marked {'correct' if correct else 'missed'} (a second submit?)")
            shown.mark(question, correct)
            return wall_state(wall)

    return reply(await lane(request, mark))


# -- reviews -----------------------------------------------------------------------


def question_json(ctx: Context, opened: OpenRound[Round]) -> dict[str, Any] | None:
    drill = opened.thing
    question = drill.question
    if question is None:
        return None
    return {**asked_json(ctx.lex(question.info.get("lexicon")), question), "number": drill.number,
            "token": opened.token(drill.number, question.id)}


def asked_json(lex: Lexicon, question: Question) -> dict[str, Any]:
    """A question as every page asks it (the reviews, the positions, a club member's cards): what its kind says
    of it, how it is answered (`hint`), and a position's board (its key a position of LEX)."""
    shown = {**question.to_json(), "hint": question.hint}
    if question.hint == BOARD:
        shown["board"] = board_json(lex, question)
    return shown


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


def drill_state(ctx: Context, opened: OpenRound[Round]) -> dict[str, Any]:
    """The round as the page shows it; a round with no question left is finished (and so saved) here."""
    drill = opened.thing
    if drill.question is None:
        drill.finish()
    data: dict[str, Any] = {"id": opened.ident, "title": drill.session.title, "question": question_json(ctx, opened),
                            "last": outcome_json(drill.session.lex, drill.last) if drill.last else None}
    if drill.summary is not None:
        data["summary"] = drill.summary.to_json()
    return data


def on_show(opened: OpenRound[Round], data: dict[str, Any]) -> Question:
    """The question the request names (its id and token): the one on show, else 409 (a second
    submit, a held key, another tab): nothing is recorded for a question the player did not see."""
    question_id, sent = text(data, "question"), text(data, "token")
    drill = opened.thing
    question = drill.question
    if question is None or question.id != question_id \
            or not hmac.compare_digest(sent, opened.token(drill.number, question.id)):
        raise Conflict("that question was answered already: the next one is on show (a second submit?)")
    return question


async def review_start(request: Request) -> JSONResponse:
    ctx = context(request)

    def start(store: ProgressStore) -> dict[str, Any]:
        drill = open_rounds.open_drill(store, ctx.lex(), DailyRequest(), ctx.clock)
        return {**drill_state(ctx, drill), "today": today(ctx, store)}

    return reply(await lane(request, start))


def answered(ctx: Context, opened: OpenRound[Round], line: str) -> dict[str, Any]:
    """Record an answer line and move on; a line the question does not take (an illegal play, a
    valid-or-phony answer other than v or p) is refused with its reason, nothing recorded, the
    same question still on show. A refusal is part of the game, so it is no HTTP error."""
    try:
        opened.thing.answer(line)  # the question on show (checked by its token)
    except Refused as exc:
        return {**drill_state(ctx, opened), "refused": str(exc)}
    return drill_state(ctx, opened)


async def review_answer(request: Request) -> JSONResponse:
    ctx, ident, data = context(request), request.path_params["ident"], await read_json(request)
    line = text(data, "text")

    def answer(store: ProgressStore) -> dict[str, Any]:
        with opened(ctx, store, ident, Round, "review or position round") as drill:
            on_show(drill, data)
            state = answered(ctx, drill, line)
        return {**state, "today": today(ctx, store)}

    return reply(await lane(request, answer))


async def review_reveal(request: Request) -> JSONResponse:
    """The answer of the question on show, recording nothing (the player grades next): the
    words' facts, and what an empty line is checked to (a position's top plays, whether the word
    shown is valid and how a phony was made)."""
    ctx, ident, data = context(request), request.path_params["ident"], await read_json(request)

    def reveal(store: ProgressStore) -> dict[str, Any]:
        with opened(ctx, store, ident, Round, "review or position round") as drill:
            question = on_show(drill, data)
            session = drill.thing.session
            return {"id": question.id, "words": words_json(session.lex, question),
                    "details": session.check(question, "").details}

    return reply(await lane(request, reveal))


async def review_grade(request: Request) -> JSONResponse:
    ctx, ident, data = context(request), request.path_params["ident"], await read_json(request)
    rating = whole(data, "rating")

    def grade(store: ProgressStore) -> dict[str, Any]:
        with opened(ctx, store, ident, Round, "review or position round") as drill:
            on_show(drill, data)
            drill.thing.grade(rating)
            state = drill_state(ctx, drill)
        return {**state, "today": today(ctx, store)}

    return reply(await lane(request, grade))


def undone(ctx: Context, opened: OpenRound[Round], data: dict[str, Any]) -> dict[str, Any]:
    """Take the last scored answer back (`Session.undo`, as `!undo` does in the terminal) and show
    its question again. The request names the question on show (its token), so a second submit of
    the same undo is refused (409) rather than taking back one more; so is an undo with nothing to
    take back, and one whose card was answered since in another drill (the card stays as it is)."""
    drill = opened.thing
    if drill.question is None:
        raise Conflict("this round is over: nothing to take back")
    on_show(opened, data)
    try:
        taken = drill.undo()
    except LexitrainError as exc:
        raise Conflict(str(exc)) from None
    if taken is None:
        raise Conflict(drill.nothing_to_undo())
    return {**drill_state(ctx, opened), "undone": {"id": taken.question.id, "prompt": taken.question.prompt}}


async def review_undo(request: Request) -> JSONResponse:
    ctx, ident, data = context(request), request.path_params["ident"], await read_json(request)

    def undo(store: ProgressStore) -> dict[str, Any]:
        with opened(ctx, store, ident, Round, "review or position round") as drill:
            state = undone(ctx, drill, data)
        return {**state, "today": today(ctx, store)}

    return reply(await lane(request, undo))


def today(ctx: Context, store: ProgressStore) -> dict[str, int]:
    """Today's counts of the daily drill, and of the cards answered today by any route, as `lexitrain daily
    --status` gives them."""
    state = DailyRequest().status(store, ctx.lex())
    return {"new_done": state.new_done, "reviews_done": state.reviews_done, "new_left": state.new_left,
            "reviews_left": state.reviews_left, "due_now": state.due_now, "due_later_today": state.due_later_today,
            "new_answered": state.new_answered, "reviews_answered": state.reviews_answered}


# -- positions -----------------------------------------------------------------------


def board_json(lex: Lexicon, question: Question) -> dict[str, Any]:
    """A position question's board (its key a position of LEX) as the page draws it, with the rack, the scores
    (the player's first) and the opponent's rack, when given."""
    position = read_position(question.key, lex)
    opponent = position.racks[1] if len(position.racks) > 1 else ""
    return {**board_view(position.board), "rack": position.rack, "opponent": opponent,
            "scores": (list(position.scores) + [0, 0])[:2]}


def board_view(board: Board, marked: set[tuple[int, int]] | frozenset[tuple[int, int]] = frozenset()) -> dict[str, Any]:
    """A board as the pages draw it (`lexitrain.boardRows`): each square's premium, tile, whether a blank plays
    it, and whether it is MARKED (the last play's squares)."""
    rows = [[{"premium": board.premium(r, c) if board.get(r, c) == EMPTY else "",
              "tile": "" if board.get(r, c) == EMPTY else tile_text(board.tiles, board.get(r, c)),
              "blank": board.get(r, c) != EMPTY and is_blank(board.get(r, c)), "last": (r, c) in marked}
             for c in range(board.cols)] for r in range(board.rows)]
    return {"columns": [column_name(c) for c in range(board.cols)], "rows": rows}


async def position_start(request: Request) -> JSONResponse:
    """A round of positions, judged `by` score (the default), equity, a simulation or the endgame solver."""
    ctx, data = context(request), await read_json(request)
    by = text(data, "by") if "by" in data else "score"

    def start(store: ProgressStore) -> dict[str, Any]:
        return drill_state(ctx, open_rounds.open_drill(store, ctx.lex(), PositionQuizRequest(limit=10, by=by),
                                                       ctx.clock))

    return reply(await lane(request, start))


async def position_play(request: Request) -> JSONResponse:
    """A play in GCG notation: an illegal one is refused with its reason and the position stays;
    a legal one is recorded (top score or not) and the verdict shows the top plays."""
    ctx, ident, data = context(request), request.path_params["ident"], await read_json(request)
    play = text(data, "play")

    def answer(store: ProgressStore) -> dict[str, Any]:
        with opened(ctx, store, ident, Round, "review or position round") as drill:
            on_show(drill, data)
            return answered(ctx, drill, play)

    return reply(await lane(request, answer))


async def position_undo(request: Request) -> JSONResponse:
    ctx, ident, data = context(request), request.path_params["ident"], await read_json(request)
    def undo(store: ProgressStore) -> dict[str, Any]:
        with opened(ctx, store, ident, Round, "review or position round") as drill:
            return undone(ctx, drill, data)

    return reply(await lane(request, undo))


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
