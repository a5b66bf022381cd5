"""The pre-endgame with one tile in the bag: each candidate play against
each tile the bag might hold, with the exact endgame after it.

With one tile in the bag the side to move knows the eight unseen tiles but
not which seven the opponent holds. A tile play draws the bag's last tile,
so after it both racks are known and the bag is empty: an endgame, the
opponent to move, searched by the endgame search. A play's value for one draw is
its score minus the opponent's value of that endgame; over the draws
(each unseen tile as likely as any other) it has an expected value and a
number of draws it wins (a tie is half). Passes and exchanges are left out
(the bag holds too few tiles to exchange; a pass hands the same problem to
the opponent, a pre-endgame of theirs).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Sequence

from lexitrain.engine.board import Board
from lexitrain.engine.endgame import MAX_PLIES, Endgame, OutOfTime, Searcher, new_search, search_depth
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
                     engine: str | None = None, plays: Sequence[ScoredPlay] | None = None) -> PreEndgame:
    """Solve with `unseen` the opponent's rack and the one tile in the bag
    together (eight tiles for a full rack). `candidates` limits the plays
    tried to the top ones by score; `plays` names them instead.

    Every endgame (a play and a draw) is searched a ply deeper at a time, all
    of them at one depth before any at the next, in one search whose table
    and plays found carry over from endgame to endgame and depth to depth.
    So when `seconds` run out every play has a value from the deepest depth
    it finished (marked not exact), instead of the first plays solved and the
    rest not reached; a play not reached even at one ply is left out."""
    if unseen.size < 2:
        raise LexitrainError("a pre-endgame needs the opponent's rack and one tile in the bag")
    started = time.monotonic()
    deadline = None if seconds is None else started + seconds
    tiles = board.tiles
    if plays is None:
        plays = generator.plays(board, rack)
        if candidates is not None:
            plays = plays[:candidates]
    draws = [(i, n) for i, n in enumerate(unseen.counts) if n] + ([(-1, unseen.blanks)] if unseen.blanks else [])
    endgames: list[Endgame] = []
    for play in plays:
        after = board.copy()
        apply_play(after, play)
        left = leave_after(rack, play)
        # the opponent moves first, holding the unseen tiles but the one drawn
        endgames.extend(Endgame(after, (_plus(unseen, tile, -1), _plus(left, tile))) for tile, _ in draws)
    found: list[tuple[int, bool] | None] = [None] * len(endgames)
    search: Searcher | None = None
    try:
        for depth in range(1, MAX_PLIES + 1):
            for j, endgame in enumerate(endgames):
                known = found[j]
                if known is not None and known[1]:
                    continue
                if search is None:
                    search = new_search(endgame, generator, deadline, engine)
                else:
                    search.reset(endgame, deadline)
                found[j] = search_depth(search, depth, None if known is None else known[0])
            if all(f is not None and f[1] for f in found):
                break
    except OutOfTime:
        pass
    out = []
    for n, play in enumerate(plays):
        mine = found[n * len(draws):(n + 1) * len(draws)]
        if any(f is None for f in mine):
            continue  # not reached in time
        results = tuple(Draw(BLANK if tile < 0 else tiles.letters[tile], count, play.score - f[0], f[1])
                        for (tile, count), f in zip(draws, mine) if f is not None)
        out.append(PlayOutcome(play, results, spread))
    out.sort(key=lambda o: (-o.wins, -o.expected))
    return PreEndgame(tuple(out), len(out) == len(plays) and all(o.exact for o in out),
                      time.monotonic() - started, len(plays))


def _plus(rack: Rack, tile: int, n: int = 1) -> Rack:
    """The rack with `n` more of a tile (-1: a blank)."""
    if tile < 0:
        return Rack(rack.tiles, rack.counts, rack.blanks + n)
    counts = list(rack.counts)
    counts[tile] += n
    return Rack(rack.tiles, tuple(counts), rack.blanks)
