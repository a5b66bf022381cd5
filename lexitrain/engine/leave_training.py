"""Training the leave model on the engine's own self-play games.

Each turn after which the player draws gives one sample: the tiles kept
(its leave) and what the player's next turn then made, the equity of that
next move (its score plus the value of its own leave under the model being
improved; its score alone for the first model). A least-squares fit of that
figure on the leave's features, with an intercept for "a fresh rack", gives
each feature's weight: the points it adds to or takes from later turns
compared with drawing new tiles. Rounds alternate: play games with the
current model, fit a better one on them (the first round plays by score).

The exhaustive table (`leave_table.py`) is trained the same way from fast
self-play (`selfplay.py`): each round plays by the table so far and moves
every leave's value towards the mean of its samples (`refit_table`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable

from lexitrain.engine.board import Board
from lexitrain.engine.equity import EquityPlayer, leave_value
from lexitrain.engine.exchanges import kept_after
from lexitrain.engine.game import Game, Move, Policy, Snapshot, greedy, self_play
from lexitrain.engine.leave import LeaveFeatures, LeaveModel, leave_after
from lexitrain.engine.movegen import MoveGenerator
from lexitrain.engine.selfplay import GameRecord
from lexitrain.tiles import Rack, TileSet

if TYPE_CHECKING:
    import numpy as np


#: weight of the ridge term that keeps rare features (a kept pair of blanks) from wild values, in samples
RIDGE = 20.0


@dataclass
class Sample:
    """A leave (counts per tile, blanks) and the equity of the same player's next move."""

    counts: tuple[int, ...]
    blanks: int
    target: float


def game_seed(seed: int, round_: int, game: int) -> int:
    """The seed of one training game: distinct for every seed, round and game number."""
    return seed * 1_000_000 + round_ * 100_000 + game


def move_leave(tiles: TileSet, move: Move) -> Rack:
    """The tiles a move kept: the rack less the tiles played or put back (all of it for a pass)."""
    rack = Rack.of(tiles, move.rack_before)
    if move.play is not None:
        return leave_after(rack, move.play)
    return kept_after(rack, Rack.of(tiles, move.exchanged))


def samples(game: Game, positions: list[Snapshot], model: LeaveModel | None) -> list[Sample]:
    """The samples of one self-play game (`positions[i]` is the position before move `i`)."""
    tiles = game.board.tiles
    moves = game.history
    out: list[Sample] = []
    for i, move in enumerate(moves[:-2]):
        nxt = moves[i + 2]
        if positions[i].bag == 0 or move.kind == "pass" or nxt.player != move.player:
            continue
        target = float(nxt.score)
        if model is not None:
            target += leave_value(model, move_leave(tiles, nxt), positions[i + 2].bag)
        kept = move_leave(tiles, move)
        out.append(Sample(kept.counts, kept.blanks, target))
    return out


def play_round(board: Board, generator: MoveGenerator, seed: int, round_: int, games: Iterable[int],
               model: LeaveModel | None) -> list[Sample]:
    """Self-play games by the model (by score when None), and their samples under it."""
    policy: Policy = EquityPlayer(model) if model is not None else greedy
    out: list[Sample] = []
    for number in games:
        game, positions = self_play(board.copy(), generator, game_seed(seed, round_, number), policies=(policy,))
        out += samples(game, positions, model)
    return out


@dataclass
class Fit:
    """A fitted model and how well it fits."""

    model: LeaveModel
    intercept: float
    errors: list[float]  # standard error of each weight
    rmse: float
    r2: float
    samples: int
    ridge: float


def fit(tiles: TileSet, data: list[Sample], ridge: float = RIDGE) -> Fit:
    """Least squares (with a small ridge term) of the targets on the leave features and an intercept."""
    import numpy as np

    features = LeaveFeatures(tiles)
    width = len(features.features)
    x = np.zeros((len(data), width + 1))
    x[:, width] = 1.0
    for row, sample in enumerate(data):
        for column, value in features.of(sample.counts, sample.blanks):
            x[row, column] += value
    y = np.array([s.target for s in data])
    penalty = np.full(width + 1, ridge)
    penalty[width] = 0.0  # the intercept is not shrunk
    gram = x.T @ x + np.diag(penalty)
    inverse = np.linalg.inv(gram)
    weights = inverse @ (x.T @ y)
    residual = y - x @ weights
    variance = float(residual @ residual) / max(1, len(data) - width - 1)
    errors = np.sqrt(np.diag(inverse) * variance)
    total = float(((y - y.mean()) ** 2).sum())
    model = LeaveModel(tiles, [round(float(w), 2) for w in weights[:width]])
    return Fit(model, float(weights[width]), [float(e) for e in errors[:width]], variance ** 0.5,
               1 - float(residual @ residual) / total if total else 0.0, len(data), ridge)


# -- the exhaustive table ----------------------------------------------------------

#: samples at which a leave's own average counts as much as the value it starts from
TABLE_SHRINK = 30.0


def table_samples(record: GameRecord) -> tuple[list[int], list[int]]:
    """The samples of one fast self-play game, as the model's: the leave each
    move kept (its place in the table) and the equity of the same player's
    next move (hundredths of a point), for each move after which the player drew."""
    leaves: list[int] = []
    targets: list[int] = []
    turns = record.turns
    for i, turn in enumerate(turns[:-2]):
        nxt = turns[i + 2]
        if turn.bag == 0 or turn.kind == "pass" or turn.leave < 0 or nxt.player != turn.player:
            continue
        leaves.append(turn.leave)
        targets.append(nxt.equity)
    return leaves, targets


def refit_table(values: np.ndarray, leaves: np.ndarray, targets: np.ndarray,
                shrink: float = TABLE_SHRINK) -> tuple[np.ndarray, dict[str, float]]:
    """A better table from the samples of games played by `values`: each
    leave moves from its value towards what its samples say it is worth
    (their mean next-move equity less the mean over all samples of what the
    table does not explain), by n / (n + shrink) for n samples; keeping
    nothing stays worth 0. Returns the new values and the fit's figures."""
    import numpy as np

    residual = targets - values[leaves].astype(np.float64)
    fresh = float(residual.mean())  # what a move is worth on top of its leave's value: the fresh-rack level
    size = len(values)
    count = np.bincount(leaves, minlength=size).astype(np.float64)
    total = np.bincount(leaves, weights=residual - fresh, minlength=size)
    step = np.divide(total, count + shrink)
    new = np.clip(np.rint(values + step), -32000, 32000).astype(np.int16)
    new[0] = 0
    seen = count > 0
    return new, {"samples": float(len(leaves)), "leaves_seen": float(seen.sum()), "fresh_rack": fresh / 100,
                 "rmse": float(np.sqrt(((residual - fresh) ** 2).mean())) / 100,
                 "mean_change": float(np.abs(step[seen]).mean()) / 100 if seen.any() else 0.0}
