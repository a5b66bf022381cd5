"""The pre-endgame with one tile in the bag: each candidate play against
each tile the bag might hold, with the exact endgame after it.

With one tile in the bag the side to move knows the eight unseen tiles but
not which seven the opponent holds. A tile play draws the bag's last tile,
so after it both racks are known and the bag is empty: an endgame, the
opponent to move, solved by `endgame.solve`. A play's value for one draw is
its score minus the opponent's value of that endgame; over the draws
(each unseen tile as likely as any other) it has an expected value and a
number of draws it wins (a tie is half). Passes and exchanges are left out
(the bag holds too few tiles to exchange; a pass hands the same problem to
the opponent, a pre-endgame of theirs).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from lexitrain.engine.board import Board
from lexitrain.engine.endgame import Endgame, Solution, solve
from lexitrain.engine.leave import leave_after
from lexitrain.engine.movegen import MoveGenerator
from lexitrain.engine.play import ScoredPlay
from lexitrain.engine.rules import apply_play
from lexitrain.errors import LexitrainError
from lexitrain.tiles import BLANK, Rack, TileSet


@dataclass(frozen=True)
class Draw:
    """One tile the bag may hold: how many of the unseen tiles are it, and the
    play's value for the side to move when it is (score minus the endgame's)."""

    tile: str
    count: int
    value: int
    exact: bool


@dataclass(frozen=True)
class PlayOutcome:
    """A candidate play against every draw."""

    play: ScoredPlay
    draws: tuple[Draw, ...]
    spread: int  # the spread before the play (side to move minus opponent)

    @property
    def unseen(self) -> int:
        return sum(d.count for d in self.draws)

    @property
    def expected(self) -> float:
        """The mean value over the unseen tiles."""
        return sum(d.value * d.count for d in self.draws) / self.unseen

    @property
    def wins(self) -> float:
        """Draws (out of `unseen`) after which the side to move wins, a tie counting half."""
        return sum(d.count * (1.0 if self.spread + d.value > 0 else 0.5 if self.spread + d.value == 0 else 0.0)
                   for d in self.draws)

    @property
    def exact(self) -> bool:
        return all(d.exact for d in self.draws)

    def describe(self, tiles: TileSet) -> str:
        return f"{self.play.position} {self.play.word(tiles)}"


@dataclass(frozen=True)
class PreEndgame:
    """Every candidate solved: most wins first, then by expected value."""

    plays: tuple[PlayOutcome, ...]
    exact: bool
    seconds: float
    candidates: int  # plays there were to try (those not reached in time are left out)


def solve_preendgame(board: Board, rack: Rack, unseen: Rack, generator: MoveGenerator,
                     seconds: float | None = None, spread: int = 0, candidates: int | None = None,
                     engine: str | None = None) -> PreEndgame:
    """Solve with `unseen` the opponent's rack and the one tile in the bag
    together (eight tiles for a full rack). `candidates` limits the plays
    tried to the top ones by score; `seconds` the whole search, shared out
    evenly over the endgames still to solve (a play not reached is left out,
    an endgame cut short is marked not exact)."""
    if unseen.size < 2:
        raise LexitrainError("a pre-endgame needs the opponent's rack and one tile in the bag")
    started = time.monotonic()
    tiles = board.tiles
    plays = generator.plays(board, rack)
    if candidates is not None:
        plays = plays[:candidates]
    draws = [(i, n) for i, n in enumerate(unseen.counts) if n] + ([(-1, unseen.blanks)] if unseen.blanks else [])
    total = len(plays) * len(draws)
    out = []
    done = 0
    for play in plays:
        if seconds is not None and time.monotonic() - started >= seconds:
            break
        after = board.copy()
        apply_play(after, play)
        left = leave_after(rack, play)
        results = []
        for tile, count in draws:
            budget = None
            if seconds is not None:
                budget = max(0.001, (seconds - (time.monotonic() - started)) / max(1, total - done))
            mine = _plus(left, tile)
            theirs = _plus(unseen, tile, -1)
            solution = _endgame_after(after, theirs, mine, generator, budget, engine)
            value = play.score - solution.value
            results.append(Draw(BLANK if tile < 0 else tiles.letters[tile], count, value, solution.exact))
            done += 1
        out.append(PlayOutcome(play, tuple(results), spread))
    out.sort(key=lambda o: (-o.wins, -o.expected))
    return PreEndgame(tuple(out), len(out) == len(plays) and all(o.exact for o in out),
                      time.monotonic() - started, len(plays))


def _endgame_after(board: Board, to_move: Rack, other: Rack, generator: MoveGenerator, seconds: float | None,
                   engine: str | None) -> Solution:
    """The opponent's endgame after the play (they move first, the bag empty)."""
    return solve(Endgame(board, (to_move, other)), generator, seconds, engine=engine)


def _plus(rack: Rack, tile: int, n: int = 1) -> Rack:
    """The rack with `n` more of a tile (-1: a blank)."""
    if tile < 0:
        return Rack(rack.tiles, rack.counts, rack.blanks + n)
    counts = list(rack.counts)
    counts[tile] += n
    return Rack(rack.tiles, tuple(counts), rack.blanks)

