"""The self-play players the inference scripts share: the simulation player, plain or reading the opponent.

`SimPlayer` simulates its top --candidates moves by equity (--iterations
iterations of --plies plies, in the same process) and makes the one with the
best win chance, as `bench_sim_player.py`'s does; with `infer` it first reads
the opponent's last move (`engine.inference`, its own rack known) and draws
the opponent's rack in every playout from that reading. `recorded` wraps a
policy so each move it makes is written down with the position before it
and the other player's rack (what `fit_inference.py` learns from).
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lexitrain.engine.board import Board  # noqa: E402
from lexitrain.engine.cgp import Position, to_cgp  # noqa: E402
from lexitrain.engine.dawg import dawg_for  # noqa: E402
from lexitrain.engine.game import Game, Move, Policy  # noqa: E402
from lexitrain.engine.inference import LastMove, infer, load_inference_model  # noqa: E402
from lexitrain.engine.leave_table import load_leaves  # noqa: E402
from lexitrain.engine.movegen import MoveGenerator  # noqa: E402
from lexitrain.engine.play import ScoredPlay  # noqa: E402
from lexitrain.engine.simulation import Playouts, position_setup, simulate  # noqa: E402
from lexitrain.engine.win_probability import load_win_model  # noqa: E402
from lexitrain.engine.win_training import fast_equity_player  # noqa: E402
from lexitrain.errors import LexitrainError  # noqa: E402
from lexitrain.lexicon.catalog import open_lexicon  # noqa: E402
from lexitrain.tiles import Rack  # noqa: E402


def board_before(game: Game, move: Move) -> Board:
    """The board as it was before `move` (the last move made) was played."""
    board = game.board.copy()
    if move.kind == "play" and move.play is not None:
        for r, c, _ in move.play.placed():
            board.set(r, c, -1)
    return board


def last_move(game: Game) -> tuple[Board, LastMove] | None:
    """The opponent's last move as the inference reads it (a tile play or an exchange), with the board before it."""
    if not game.history:
        return None
    move = game.history[-1]
    if move.player == game.turn:
        return None
    if move.kind == "play" and move.play is not None:
        return board_before(game, move), LastMove(play=move.play)
    if move.kind == "exchange":
        return game.board.copy(), LastMove(exchanged=len(move.exchanged))
    return None


@dataclass
class SimPlayer:
    lexicon: str
    candidates: int = 5
    iterations: int = 40
    plies: int = 2
    infer: bool = False
    samples: int = 1000  # leaves weighed at most, with --infer
    inferences: list[float] = field(default_factory=list)  # the seconds each inference took

    def __post_init__(self) -> None:
        lex = open_lexicon(self.lexicon)
        self.words = dawg_for(lex)
        self.board = Board(lex.layout, lex.tiles)
        self.generator = MoveGenerator(self.words)
        self.model = load_leaves(lex.tiles)
        self.win = load_win_model(lex.tiles)
        self.reading = load_inference_model(lex.tiles)
        self.equity = fast_equity_player(self.board, self.generator, self.model)

    def __call__(self, game: Game, plays: list[ScoredPlay]) -> Move:
        tiles = game.board.tiles
        rack = Rack.of(tiles, game.current.rack)
        me, them = game.players[game.turn], game.players[1 - game.turn]
        inferred = None
        last = last_move(game) if self.infer and len(game.bag) > 0 else None
        if last is not None:
            started = time.process_time()
            try:
                reading = infer(last[0], last[1], rack, self.generator, self.model, self.reading,
                                exhaustive=self.samples, samples=self.samples)
                inferred = reading.inferred()
            except LexitrainError:
                inferred = None
            self.inferences.append(time.process_time() - started)
        setup = position_setup(self.lexicon, game.board, rack, [me.score, them.score], self.generator, self.model,
                               candidates=self.candidates, plies=self.plies, inferred=inferred)
        if len(setup.candidates) == 1 or len(game.bag) == 0:
            return self.equity(game, plays)
        report = simulate(setup, self.iterations, seed=len(game.history),
                          playouts=Playouts(setup, self.words, self.model, self.win))
        best = report.rows[0].candidate
        if best.play is not None:
            return game.play(best.play)
        if best.exchanged is not None:
            return game.exchange(tiles.spell(best.exchanged.names()))
        return game.pass_turn()


def recorded(policy: Policy, log: list[dict[str, Any]]) -> Policy:
    """The policy, each move it makes written to `log`: the position before it (the mover's rack, then the
    other player's), the bag and the move (`8D QUIT.`, `exchange ABC` or `pass`)."""

    def move(game: Game, plays: list[ScoredPlay]) -> Move:
        tiles = game.board.tiles
        racks = [game.rack_text(), game.rack_text(1 - game.turn)]
        scores = [game.players[game.turn].score, game.players[1 - game.turn].score]
        cgp = to_cgp(Position(game.board.copy(), racks, scores))
        bag = len(game.bag)
        made = policy(game, plays)
        text = (made.play.format(tiles) if made.kind == "play" and made.play is not None
                else f"exchange {tiles.spell(made.exchanged)}" if made.kind == "exchange" else "pass")
        log.append({"cgp": cgp, "move": text, "bag": bag})
        return made

    return move
