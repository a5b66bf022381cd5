"""Training the win probability model on the engine's own self-play games.

Every position of a game played by the equity player on both sides gives one
sample: the spread for the player to move, the tiles that player cannot see
(the bag and the opponent's rack) and how the game ended for them (1 a win,
0.5 a draw, 0 a loss). Each band of unseen tiles gets its own logistic fit of
the outcome on the spread (`engine/win_probability.py` reads the bands).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from lexitrain.engine.board import Board
from lexitrain.engine.equity import EquityPlayer
from lexitrain.engine.game import Game, Move, Policy, Rules, Snapshot, self_play
from lexitrain.engine.play import ScoredPlay
from lexitrain.engine.leave import LeaveModel, LeaveValues
from lexitrain.engine.movegen import MoveGenerator
from lexitrain.engine.simulation import EXCHANGE, PLAY, CompiledChooser, default_engine, leave_cents
from lexitrain.engine.win_probability import Band, WinModel
from lexitrain.tiles import Rack, TileSet

#: tiles unseen per band (the last band takes the rest)
BAND_WIDTH = 7
#: a small ridge on the slope and intercept, in samples, so a thin band cannot run wild
RIDGE = 1e-3


@dataclass
class Sample:
    spread: int
    unseen: int
    outcome: float


def game_seed(seed: int, game: int) -> int:
    return seed * 1_000_000 + game


def samples(game: Game, positions: list[Snapshot]) -> list[Sample]:
    """One sample per position before a move (`positions[i]` is before move i)."""
    tiles = game.board.tiles
    total = sum(tiles.counts) + tiles.blanks
    final = [p.score for p in game.players]
    out = []
    for position, move in zip(positions, game.history):
        me, other = move.player, 1 - move.player
        spread = position.scores[me] - position.scores[other]
        held = len(tiles.tokenize(position.rack))
        unseen = total - position.board.tile_count() - held
        result = final[me] - final[other]
        out.append(Sample(spread, unseen, 1.0 if result > 0 else 0.5 if result == 0 else 0.0))
    return out


def play_games(board: Board, generator: MoveGenerator, model: LeaveValues, seed: int,
               games: Iterable[int]) -> list[Sample]:
    """Self-play games by equity on both sides, and their samples."""
    player = fast_equity_player(board, generator, model)
    out: list[Sample] = []
    for number in games:
        game, positions = self_play(board.copy(), generator, game_seed(seed, number), policies=(player,),
                                    list_plays=False)
        out += samples(game, positions)
    return out


def fast_equity_player(board: Board, generator: MoveGenerator, model: LeaveValues) -> Policy:
    """The equity player's moves (`EquityPlayer`, exchanges and the pass included), chosen in C where
    the compiled chooser is built, without listing every play; else EquityPlayer itself."""
    if default_engine() != "compiled":
        slow = EquityPlayer(model)
        return lambda game, plays: slow(game, plays or generator.plays(game.board, Rack.of(game.board.tiles,
                                                                                           game.current.rack)))
    chooser = CompiledChooser(board, generator, leave_cents(model, board.tiles), Rules().exchange_limit)
    tiles = board.tiles

    def move(game: Game, plays: list[ScoredPlay]) -> Move:
        rack = Rack.of(tiles, game.current.rack)
        choice = chooser.choose(game.board.squares, [*rack.counts, rack.blanks], len(game.bag))
        if choice.kind == PLAY:
            assert choice.play is not None
            return game.play(choice.play)
        if choice.kind == EXCHANGE:
            assert choice.given is not None
            given = Rack(tiles, tuple(choice.given[:-1]), choice.given[-1])
            return game.exchange(tiles.spell(given.names()))
        return game.pass_turn()

    return move


def fit_band(data: list[Sample]) -> tuple[float, float]:
    """Logistic regression of outcome on spread (Newton's method): (slope, intercept)."""
    import numpy as np

    x = np.array([[s.spread, 1.0] for s in data])
    y = np.array([s.outcome for s in data])
    w = np.zeros(2)
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        gradient = x.T @ (y - p) - RIDGE * w
        hessian = (x * (p * (1 - p))[:, None]).T @ x + RIDGE * np.eye(2)
        step = np.linalg.solve(hessian, gradient)
        w += step
        if float(np.abs(step).max()) < 1e-9:
            break
    return float(w[0]), float(w[1])


def fit(tiles: TileSet, data: list[Sample], width: int = BAND_WIDTH, least: int = 200) -> WinModel:
    """One band per `width` tiles unseen; a band with fewer than `least` samples, or whose spreads
    never differ (the opening position), joins the band before it (the first joins the next)."""
    top = max(s.unseen for s in data)
    bands: list[tuple[int, int, list[Sample]]] = []  # low, high, samples
    for low in range(1, top + 1, width):
        high = min(top, low + width - 1)
        group = [s for s in data if low <= s.unseen <= high]
        if bands and (_thin(group, least) or _thin(bands[-1][2], least)):
            before = bands.pop()
            bands.append((before[0], high, before[2] + group))
        else:
            bands.append((low, high, group))
    return WinModel(tiles.name, [Band(low, high, *fit_band(group)) for low, high, group in bands])


def _thin(group: list[Sample], least: int) -> bool:
    return len(group) < least or len({s.spread for s in group}) < 2
