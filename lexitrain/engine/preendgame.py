"""The pre-endgame with one tile in the bag: each candidate play against
each tile the bag might hold, with the exact endgame after it.

With one tile in the bag the side to move knows the eight unseen tiles but
not which seven the opponent holds. A tile play draws the bag's last tile,
so after it both racks are known and the bag is empty: an endgame, the
opponent to move, searched by the endgame search. A play's value for one
draw is its score minus the opponent's value of that endgame; over the draws
(each unseen tile as likely as any other) it has a number of draws it wins
(a tie is half) and an expected value. The best play wins the most draws,
then has the highest expected value. Passes and exchanges are left out (the
bag holds too few tiles to exchange; a pass hands the same problem to the
opponent, a pre-endgame of theirs).

What a player asks first is which play wins the most draws, and a draw's
outcome needs only the endgame's side of a threshold (the spread the play
leaves), not its value: a search in the window around it, to the end of
every line, proves win, tie or loss far sooner than the exact value. So the
solver goes in three passes over one search (its table and plays found
carry over from endgame to endgame):

1. every endgame one ply deep: an estimate of each draw, which orders the
   plays (likeliest winners first) and each play's draws (likeliest losses
   first), and is what a play keeps where time runs out before a proof;
2. the outcome of each draw, proved, play by play; a play stops as soon as
   the draws it has lost leave it unable to win as many as the best play
   found (it is "cut": its wins are only bounded above);
3. the exact value of each draw of the plays that win the most, so the
   expected value breaks their tie; a play stops when the values it has and
   the bounds of the rest prove it cannot beat the best.
"""

from __future__ import annotations

import time
from operator import mul
from dataclasses import dataclass, field
from typing import Collection, Sequence

from lexitrain.engine.board import Board
from lexitrain.engine.endgame import INFINITY, Endgame, OutOfTime, Searcher, new_search, prove
from lexitrain.engine.leave import leave_after
from lexitrain.engine.movegen import MoveGenerator
from lexitrain.engine.play import ScoredPlay
from lexitrain.engine.rules import apply_play
from lexitrain.errors import LexitrainError
from lexitrain.tiles import BLANK, Rack, TileSet

WIN, TIE, LOSS = "win", "tie", "loss"


@dataclass(frozen=True)
class Draw:
    """One tile the bag may hold: how many of the unseen tiles are it, and the
    play's value for the side to move when it is (score minus the endgame's).

    `value` is exact when `exact`; else, when the outcome is proved, a bound
    the search proved (at least this for a win, at most for a loss); else the
    estimate one ply deep. `result` is the proved outcome for the side to
    move (win, tie, loss), None where it was not searched or time ran out."""

    tile: str
    count: int
    value: int
    exact: bool
    result: str | None = None
    low: int = -INFINITY  # the value's proved bounds (INFINITY: none)
    high: int = INFINITY


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
        """The mean value over the unseen tiles (exact only when every draw is)."""
        return sum(d.value * d.count for d in self.draws) / self.unseen

    @property
    def wins(self) -> float:
        """Draws (out of `unseen`) after which the side to move wins, a tie
        counting half: proved where `decided`, else partly estimated."""
        return sum(d.count * _share(d.result or self._estimate(d)) for d in self.draws)

    @property
    def wins_at_most(self) -> float:
        """What the proofs leave possible: every draw not proved lost or tied counted won."""
        return sum(d.count * (_share(d.result) if d.result is not None else 1.0) for d in self.draws)

    @property
    def decided(self) -> bool:
        """Every draw's outcome is proved, so `wins` is."""
        return all(d.result is not None for d in self.draws)

    @property
    def exact(self) -> bool:
        return all(d.exact for d in self.draws)

    @property
    def expected_at_least(self) -> float | None:
        """The lowest expected value the proofs leave it (None: a draw has no lower bound)."""
        if any(d.low <= -INFINITY for d in self.draws):
            return None
        return sum(d.low * d.count for d in self.draws) / self.unseen

    @property
    def expected_at_most(self) -> float | None:
        """The highest expected value the proofs leave it (None: a draw has no upper bound)."""
        if any(d.high >= INFINITY for d in self.draws):
            return None
        return sum(d.high * d.count for d in self.draws) / self.unseen

    def _estimate(self, draw: Draw) -> str:
        margin = self.spread + draw.value
        return WIN if margin > 0 else TIE if margin == 0 else LOSS

    def describe(self, tiles: TileSet) -> str:
        return f"{self.play.position} {self.play.word(tiles)}"


@dataclass(frozen=True)
class PreEndgame:
    """Every candidate: most wins first (at equal wins, a play whose wins are
    proved first), then by expected value.

    `wins_proved`: the first play's wins are proved and no other play can win
    more. `exact`: besides, the first play's expected value is exact and no
    play winning as many can have a higher one, so the first play is proved
    best."""

    plays: tuple[PlayOutcome, ...]
    exact: bool
    seconds: float
    candidates: int  # plays there were to try (those not reached in time are left out)
    wins_proved: bool = False
    wins_seconds: float | None = None  # when the wins were proved (None: they were not)
    #: where the first play's expected value is exact but not proved best: the plays that may still beat it
    #: (as many wins possible, and no bound keeping their expected value at or below the first's)
    may_be_better: tuple[PlayOutcome, ...] = ()


@dataclass
class _Play:
    """A play being solved: its endgames (one per draw) and what is known of each."""

    play: ScoredPlay
    endgames: list[Endgame]
    value: list[int] = field(default_factory=list)  # per draw: exact, a bound, or the estimate
    estimate: float = 0.0  # the expected value one ply deep (the order in which values are proved)
    low: list[int] = field(init=False)  # per draw: proved bounds on the value
    high: list[int] = field(init=False)

    def __post_init__(self) -> None:
        self.low = [-INFINITY] * len(self.endgames)
        self.high = [INFINITY] * len(self.endgames)


def solve_preendgame(board: Board, rack: Rack, unseen: Rack, generator: MoveGenerator,
                     seconds: float | None = None, spread: int = 0, candidates: int | None = None,
                     engine: str | None = None, plays: Sequence[ScoredPlay] | None = None,
                     decide: Collection[ScoredPlay] = ()) -> PreEndgame:
    """Solve with `unseen` the opponent's rack and the one tile in the bag
    together (eight tiles for a full rack), `spread` the side to move's lead.
    `candidates` limits the plays tried to the top ones by score; `plays`
    names them instead; the plays in `decide` have every draw's outcome
    proved, never cut. When `seconds` run out, what is proved so far is kept
    and the rest is the estimate one ply deep; a play not reached even at one
    ply is left out."""
    if unseen.size < 2:
        raise LexitrainError("a pre-endgame needs the opponent's rack and one tile in the bag")
    started = time.monotonic()
    if plays is None:
        plays = generator.plays(board, rack)
        if candidates is not None:
            plays = plays[:candidates]
    solver = _Solver(board, rack, unseen, generator, started, seconds, spread, engine, plays, decide)
    try:
        solver.estimate()
        best_wins = solver.prove_wins()
        solver.prove_values(best_wins)
    except OutOfTime:
        pass
    return solver.report()


class _Solver:
    """One pre-endgame solved in steps: every play estimated one ply deep, then each draw's outcome proved
    (cut where a play cannot win more draws than the best), then the exact values of the plays that may win
    as many; `report` is what is known when it ends or runs out of time."""

    def __init__(self, board: Board, rack: Rack, unseen: Rack, generator: MoveGenerator, started: float,
                 seconds: float | None, spread: int, engine: str | None, plays: Sequence[ScoredPlay],
                 decide: Collection[ScoredPlay]) -> None:
        self.started = started
        self.deadline = None if seconds is None else self.started + seconds
        self.generator = generator
        self.engine = engine
        self.spread = spread
        self.plays = plays
        draws = [(i, n) for i, n in enumerate(unseen.counts) if n] + ([(-1, unseen.blanks)] if unseen.blanks else [])
        self.draws = range(len(draws))
        self.counts = [n for _, n in draws]
        self.letters = [BLANK if tile < 0 else board.tiles.letters[tile] for tile, _ in draws]
        self.keep = {p.key() for p in decide}
        self.solving: list[_Play] = []
        for play in plays:
            after = board.copy()
            apply_play(after, play)
            left = leave_after(rack, play)
            # the opponent moves first, holding the unseen tiles but the one drawn
            self.solving.append(_Play(play, [Endgame(after, (_plus(unseen, tile, -1), _plus(left, tile)))
                                             for tile, _ in draws]))
        self.search: Searcher | None = None
        self.reached: list[_Play] = []
        self.wins_seconds: float | None = None

    def searched(self, endgame: Endgame, alpha: int, beta: int, depth: int | None = None) -> int:
        """The opponent's value of an endgame within (alpha, beta), fail-soft: searched `depth` plies deep,
        or else proved to the end of every line."""
        if self.search is None:
            self.search = new_search(endgame, self.generator, self.deadline, self.engine)
        else:
            self.search.reset(endgame, self.deadline)
        if depth is not None:
            return self.search.root(depth, alpha, beta)[0]
        return prove(self.search, alpha, beta)[0]

    def known(self, p: _Play) -> PlayOutcome:
        """What is known of a play so far: its wins proved or bounded, its values."""
        return PlayOutcome(p.play, tuple(Draw(letter, count, value, low == high, _result(low, high, self.spread),
                                              low, high)
                                         for letter, count, value, low, high
                                         in zip(self.letters, self.counts, p.value, p.low, p.high)), self.spread)

    def estimate(self) -> None:
        """1. Every play one ply deep."""
        for p in self.solving:
            p.value = [p.play.score - self.searched(e, -INFINITY, INFINITY, depth=1) for e in p.endgames]
            p.estimate = sum(map(mul, self.counts, p.value)) / sum(self.counts)
            self.reached.append(p)

    def prove_wins(self) -> float:
        """2. The outcomes, the most estimated wins first; among as many, the plays placing most tiles (the
        endgames after them are smallest, so a best play is proved soonest), then the highest estimated
        value. Returns the most wins proved."""
        known = self.known
        self.reached.sort(key=lambda p: (-known(p).wins, -p.play.tile_count, -known(p).expected))
        threshold = -self.spread  # the play wins a draw whose value is above it
        best_wins = -1.0
        for p in self.reached:
            full = p.play.key() in self.keep
            for d in sorted(self.draws, key=lambda d: p.value[d]):  # likeliest losses first
                if not full and known(p).wins_at_most <= best_wins:
                    break  # cut: it cannot win more draws than the best
                opponent = self.searched(p.endgames[d], p.play.score - threshold - 1, p.play.score - threshold + 1)
                _bound(p, d, p.play.score - opponent, threshold - 1, threshold + 1)
            if known(p).decided:
                best_wins = max(best_wins, known(p).wins)
        self.wins_seconds = time.monotonic() - self.started
        return best_wins

    def prove_values(self, best_wins: float) -> None:
        """3. The exact values of the plays that may win as many, the likeliest best first."""
        known = self.known
        top = [p for p in self.reached if known(p).wins_at_most >= best_wins]
        # by the one-ply estimate: the values pass 2 left are bounds at the spread's threshold, which say
        # nothing of how far above it a play's draws are won (one real position put a play worth +18.0
        # at -3.75 by them, behind one worth +10.5)
        top.sort(key=lambda p: (-p.estimate, -p.play.tile_count))
        best_sum = -INFINITY
        for p in top:
            for d in sorted(self.draws, key=lambda d: p.value[d]):
                if known(p).wins_at_most < best_wins or sum(map(mul, self.counts, p.high)) <= best_sum:
                    break  # fewer wins, or no higher expected value: its values stay bounds
                if p.low[d] < p.high[d]:
                    _bound(p, d, p.play.score - self.searched(p.endgames[d], -INFINITY, INFINITY),
                           -INFINITY, INFINITY)
            if known(p).exact and known(p).wins == best_wins:
                best_sum = max(best_sum, sum(map(mul, self.counts, p.value)))

    def report(self) -> PreEndgame:
        """What is known, in `ranked` order; the plays that may still beat the first."""
        out = ranked([self.known(p) for p in self.reached])
        # with no play to make there is nothing to prove (the side to move can only pass)
        wins_proved = len(out) == len(self.plays) and (not out or out[0].decided and all(
            o.wins_at_most <= out[0].wins for o in out[1:]))
        rivals = may_be_better(out)
        exact = wins_proved and (not out or out[0].exact and not rivals)
        return PreEndgame(tuple(out), exact, time.monotonic() - self.started, len(self.plays), wins_proved,
                          self.wins_seconds if wins_proved else None, rivals if wins_proved else ())


def may_be_better(out: list[PlayOutcome]) -> tuple[PlayOutcome, ...]:
    """Where the first play's expected value is exact: the plays that may still beat it (as many wins
    possible, and no proved bound keeping their expected value at or below the first's)."""
    if not out or not out[0].exact:
        return ()
    return tuple(o for o in out[1:] if o.wins_at_most >= out[0].wins and _ceiling(o) > out[0].expected)


def ranked(outcomes: list[PlayOutcome]) -> list[PlayOutcome]:
    """The plays best first: most wins (at equal wins, a play whose wins are proved first), then a play
    whose expected value is exact before one whose is not, then by expected value. So when time runs
    out the first play is the best proved, never one whose value is partly an estimate (which may be
    far off either way: the plays that may be better are `PreEndgame.may_be_better`)."""
    return sorted(outcomes, key=lambda o: (-o.wins, not o.decided, not o.exact, -o.expected))


def _share(result: str | None) -> float:
    """A draw's part of a win."""
    return 1.0 if result == WIN else 0.5 if result == TIE else 0.0


def _bound(p: _Play, d: int, value: int, alpha: int, beta: int) -> None:
    """Record a fail-soft search result for the side to move, searched within
    (alpha, beta) of its value: exact inside, a bound outside."""
    if value <= alpha:
        p.high[d] = min(p.high[d], value)
    elif value >= beta:
        p.low[d] = max(p.low[d], value)
    else:
        p.low[d] = p.high[d] = value
    p.value[d] = value


def _result(low: int, high: int, spread: int) -> str | None:
    """The proved outcome of a draw for the side to move, if the bounds on its value decide it."""
    if spread + low > 0:
        return WIN
    if spread + high < 0:
        return LOSS
    if low == high == -spread:
        return TIE
    return None


def _ceiling(o: PlayOutcome) -> float:
    """The highest expected value the proofs leave a play (INFINITY where a draw has no upper bound)."""
    at_most = o.expected_at_most
    return float(INFINITY) if at_most is None else at_most


def _plus(rack: Rack, tile: int, n: int = 1) -> Rack:
    """The rack with `n` more of a tile (-1: a blank)."""
    if tile < 0:
        return Rack(rack.tiles, rack.counts, rack.blanks + n)
    counts = list(rack.counts)
    counts[tile] += n
    return Rack(rack.tiles, tuple(counts), rack.blanks)
