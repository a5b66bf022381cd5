"""The pre-endgame, one or two tiles in the bag: each candidate (every play
and the pass) against each way the bag may fall, with the exact endgame after.

The side to move sees the unseen tiles but not which of them the bag holds.
Every way the bag may fall is a *draw*, weighted by how many ways the unseen
tiles give it (each tile as likely as any other). A play placing at least as
many tiles as the bag holds empties it: both racks are then known, and the
endgame that follows (the opponent to move) is solved; the play's value for
the draw is its score minus the opponent's value of that endgame. A play that
leaves tiles in the bag (one tile with two in it), and the pass, hand the
opponent a pre-endgame of theirs: its value for a draw is bounded by
`_Reply`'s two strategies (see there), exact where the bounds meet. A draw is
won when the spread plus the value is above 0 (a tie counting half); the best
candidate wins the most draws, then has the highest expected value.

What a player asks first is which play wins the most draws, and a draw's
outcome needs only the side of a threshold (the spread) the value falls on:
a search in the window around it proves win, tie or loss far sooner than the
value. So the solver goes in three passes (`_Solver`):

1. every draw estimated (one ply deep): the order of the candidates (likeliest
   winners first) and of each one's draws (likeliest losses first), and what a
   candidate keeps where time runs out before a proof;
2. each draw's outcome proved, candidate by candidate; a candidate stops as
   soon as the draws it has lost leave it unable to win as many as the best
   found (it is "cut": its wins are only bounded above);
3. the exact values of the candidates that may win the most, so the expected
   value breaks their tie; a candidate stops when its proved bounds show it
   cannot beat the best, and once one's values are exact, each after it is
   first bounded from above by null windows just above its likely values,
   which rules most out for a small part of what their values cost.

Every search result is kept as the bounds it proves, cut to the window it was
searched in (a value inside it exact, outside only "at most"/"at least" the
window's edge), so what is known does not depend on what a search's table held
from earlier searches: the passes' searches can run on several processes
(`threads`) and give the same report as one.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import time
from multiprocessing.pool import AsyncResult, Pool
from dataclasses import dataclass, field
from typing import Callable, Collection, Iterator, Sequence

from lexitrain.children import end_with_parent, may_fork
from lexitrain.engine.board import Board
from lexitrain.engine.endgame import (INFINITY, MAX_ZERO_TURNS, Endgame, OutOfTime, Searcher, new_search, prove,
                                      rack_value)
from lexitrain.engine.leave import leave_after
from lexitrain.engine.movegen import MoveGenerator
from lexitrain.engine.play import ScoredPlay
from lexitrain.engine.rules import apply_play
from lexitrain.errors import LexitrainError
from lexitrain.tiles import BLANK, Rack, TileSet

WIN, TIE, LOSS = "win", "tie", "loss"
#: a candidate: a play, or None for the pass
Move = ScoredPlay | None


@dataclass(frozen=True)
class Draw:
    """One way the bag may fall: the tiles in it in the order they are drawn
    (`tile`; "E", or "AE" for A then E), of which the side to move draws
    `mine`; how many ways the unseen tiles give it; the candidate's value for
    the side to move then.

    `value` is exact when `exact`; else the estimate one ply deep, brought
    within the bounds proved (`low`, `high`). `result` is the proved outcome
    for the side to move (win, tie, loss), None where it was not proved."""

    tile: str
    count: int
    value: int
    exact: bool
    result: str | None = None
    low: int = -INFINITY  # the value's proved bounds (INFINITY: none)
    high: int = INFINITY
    mine: str = ""


@dataclass(frozen=True)
class PlayOutcome:
    """A candidate (a play, or None for the pass) against every draw."""

    play: Move
    draws: tuple[Draw, ...]
    spread: int  # the spread before the play (side to move minus opponent)

    @property
    def unseen(self) -> int:
        """The ways the bag may fall, counted (8 with one in the bag, 72 with two)."""
        return sum(d.count for d in self.draws)

    @property
    def expected(self) -> float:
        """The mean value over the draws (exact only when every draw is)."""
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
        return "pass" if self.play is None else f"{self.play.position} {self.play.word(tiles)}"


@dataclass(frozen=True)
class PreEndgame:
    """Every candidate: most wins first (at equal wins, a candidate whose wins are
    proved first), then by expected value.

    `wins_proved`: the first candidate's wins are proved and no other can win
    more. `exact`: besides, the first one's expected value is exact and none
    winning as many can have a higher one, so the first is proved best."""

    plays: tuple[PlayOutcome, ...]
    exact: bool
    seconds: float
    candidates: int  # candidates there were to try (those not reached in time are left out)
    wins_proved: bool = False
    wins_seconds: float | None = None  # when the wins were proved (None: they were not)
    #: where the first candidate's expected value is exact but not proved best: those that may still beat it
    #: (as many wins possible, and no bound keeping their expected value at or below the first's)
    may_be_better: tuple[PlayOutcome, ...] = ()
    in_bag: int = 1
    #: the candidates the proofs do not keep from beating the first (every one where the first is not decided)
    unproved: tuple[PlayOutcome, ...] = ()


@dataclass(frozen=True)
class _Reply:
    """The opponent to move with tiles still in the bag: after a pass, or after a play that left some.

    Its value for the side to move is bounded by two strategies. From above, by the opponent's: its best
    play that empties the bag (after it both racks are known and the endgame is solved); the opponent's
    own rack tells it which tiles the bag holds (the unseen tiles it sees are the side to move's rack and
    the bag: with one tile in the bag, each draw leaves it a different rack), so it can choose this reply
    in each draw. From below, by the side to move's: the opponent's best reply as above (a clairvoyant
    opponent does no worse), or, if the opponent passes back, the side to move's top-scoring play then,
    drawing the bag. Where the opponent's best play is better for it than passing back, the bounds meet
    and the value is exact. With two tiles in the bag and the side to move having played one, the
    opponent cannot tell which of the two it drew: the value is the one the opponent choosing in each
    draw gives (a floor for the side to move, Macondo's convention), and said so in the docs. A reply that
    leaves a tile in the bag (one tile after a pass with two in it) is not valued: the floor is then unknown.
    """

    board: Board
    mine: Rack  # the side to move's rack after its move (and draw)
    theirs: Rack
    bag: tuple[int, ...]  # the tiles left in the bag (-1 a blank), drawn by whoever plays next
    zero: int  # scoreless turns in a row after the side to move's move


@dataclass(frozen=True)
class _Answer:
    """The opponent's reply emptying the bag: its score and play, its rack after it (the bag drawn), the
    scoreless turns then (the game is over at MAX_ZERO_TURNS), and the side to move's margin if the game
    stopped there."""

    score: int
    play: ScoredPlay
    theirs: Rack
    zero: int
    margin: int


@dataclass
class _World:
    """One candidate in one draw: how its value there is found."""

    label: str
    mine: str
    weight: int
    score: int  # the side to move's points from its move
    endgame: Endgame | None = None  # the bag empty, the opponent to move
    reply: _Reply | None = None
    fixed: int | None = None  # the game is over (six scoreless turns): the value


@dataclass
class _Candidate:
    """A candidate being solved: its draws and what is known of each."""

    move: Move
    worlds: list[_World]
    value: list[int] = field(default_factory=list)  # per draw: exact, a bound, or the estimate
    estimate: float = 0.0  # the expected value one ply deep (the order in which values are proved)
    guesses: list[int] = field(default_factory=list)  # per draw: the value one ply deep
    low: list[int] = field(init=False)  # per draw: proved bounds on the value
    high: list[int] = field(init=False)
    settled: list[bool] = field(init=False)  # per draw: searched in the whole window (no more to prove)
    number: int = 0  # its place among the candidates (how tasks name it)

    def __post_init__(self) -> None:
        self.low = [-INFINITY] * len(self.worlds)
        self.high = [INFINITY] * len(self.worlds)
        self.settled = [False] * len(self.worlds)

    @property
    def tiles(self) -> int:
        return 0 if self.move is None else self.move.tile_count

    @property
    def key(self) -> object:
        return None if self.move is None else self.move.key()


def solve_preendgame(board: Board, rack: Rack, unseen: Rack, generator: MoveGenerator,
                     seconds: float | None = None, spread: int = 0, candidates: int | None = None,
                     engine: str | None = None, plays: Sequence[Move] | None = None,
                     decide: Collection[Move] = (), *, in_bag: int = 1, zero_turns: int = 0,
                     threads: int = 1) -> PreEndgame:
    """Solve with `unseen` the opponent's rack and the `in_bag` tiles in the bag
    together (eight or nine tiles for a full rack), `spread` the side to move's
    lead, `zero_turns` the scoreless turns just before. The candidates are every
    play and the pass; `candidates` limits the plays to the top ones by score;
    `plays` names the candidates instead (None: the pass); those in `decide`
    have every draw's outcome proved, never cut. When `seconds` run out, what is
    proved so far is kept and the rest is the estimate one ply deep; a
    candidate not reached even at one ply is left out. `threads` processes share
    the searches (the report is the same as with one)."""
    if in_bag not in (1, 2):
        raise LexitrainError(f"the pre-endgame is for 1 or 2 tiles in the bag, not {in_bag}")
    if unseen.size < in_bag + 1:
        raise LexitrainError("a pre-endgame needs the opponent's rack and the tiles in the bag")
    started = time.monotonic()
    if plays is None:
        found: list[Move] = list(generator.plays(board, rack))
        if candidates is not None:
            found = found[:candidates]
        plays = [*found, None]
    deadline = None if seconds is None else started + seconds
    problem = _Problem(board, rack, unseen, in_bag, zero_turns, spread)
    solver = _Solver(problem, [problem.candidate(m) for m in plays], {_key(m) for m in decide},
                     _Prover(generator, engine, deadline), started)
    with _runner(solver, threads) as run:
        solver.run = run
        try:
            solver.estimate()
            best_wins = solver.prove_wins()
            solver.prove_values(best_wins)
        except OutOfTime:
            pass
    return solver.report()


class _Problem:
    """The position: what each candidate leaves in each draw."""

    def __init__(self, board: Board, rack: Rack, unseen: Rack, in_bag: int, zero_turns: int, spread: int) -> None:
        self.board, self.rack, self.unseen, self.in_bag = board, rack, unseen, in_bag
        self.zero, self.spread = zero_turns, spread
        held = [(i, n) for i, n in enumerate(unseen.counts) if n] + ([(-1, unseen.blanks)] if unseen.blanks else [])
        self.letters = {t: BLANK if t < 0 else board.tiles.letters[t] for t, _ in held}
        # every order the bag may be drawn in, with its weight
        if in_bag == 1:
            self.orders: list[tuple[tuple[int, ...], int]] = [((t,), n) for t, n in held]
        else:
            self.orders = [((a, b), n * (m - (a == b))) for a, n in held for b, m in held if n * (m - (a == b))]

    def text(self, tiles: Sequence[int]) -> str:
        return "".join(self.letters[t] for t in tiles)

    def candidate(self, move: Move) -> _Candidate:
        """The candidate's draws: an endgame where it empties the bag, else the opponent's reply."""
        if move is None:  # the opponent holds all but the bag and faces it
            return _Candidate(None, [self._world(self.board, bag, n, 0, self.rack, (), bag, self.zero + 1)
                                     for bag, n in self._unordered()])
        after = self.board.copy()
        apply_play(after, move)
        left = leave_after(self.rack, move)
        zero = 0 if move.score else self.zero + 1
        if move.tile_count >= self.in_bag:  # it draws the whole bag
            return _Candidate(move, [self._world(after, bag, n, move.score, _plus(left, bag), bag, (), zero)
                                     for bag, n in self._unordered()])
        # one tile played with two in the bag: it draws the first, the opponent faces the second
        return _Candidate(move, [self._world(after, order, n, move.score, _plus(left, order[:1]), order[:1],
                                             order[1:], zero) for order, n in self.orders])

    def _unordered(self) -> list[tuple[tuple[int, ...], int]]:
        """The draws that differ only in order merged (where one side draws the whole bag)."""
        merged: dict[tuple[int, ...], int] = {}
        for order, n in self.orders:
            key = tuple(sorted(order))
            merged[key] = merged.get(key, 0) + n
        return list(merged.items())

    def _world(self, board: Board, tiles: tuple[int, ...], weight: int, score: int, mine: Rack,
               drawn: tuple[int, ...], bag: tuple[int, ...], zero: int) -> _World:
        theirs = _plus(self.unseen, tiles, -1)
        world = _World(self.text(tiles), self.text(drawn), weight, score)
        if zero >= MAX_ZERO_TURNS:  # the sixth scoreless turn: each side loses its own rack
            world.fixed = score + _margin(board.tiles.points, mine, theirs)
        elif bag:
            world.reply = _Reply(board, mine, theirs, bag, zero)
        else:
            world.endgame = Endgame(board, (theirs, mine), zero)
        return world


class _Prover:
    """The searches of one process: each draw's value estimated, or bounded within a window."""

    def __init__(self, generator: MoveGenerator, engine: str | None, deadline: float | None) -> None:
        self.generator, self.engine, self.deadline = generator, engine, deadline
        self.search: Searcher | None = None
        self.replies: dict[int, tuple[list[_Answer], bool]] = {}
        self.fallbacks: dict[int, int] = {}

    def searched(self, endgame: Endgame, alpha: int, beta: int, depth: int | None = None) -> int:
        """The side to move's value of an endgame within (alpha, beta), fail-soft: searched `depth` plies
        deep, or else proved to the end of every line."""
        if self.search is None:
            self.search = new_search(endgame, self.generator, self.deadline, self.engine)
        else:
            self.search.reset(endgame, self.deadline)
        if depth is not None:
            return self.search.root(depth, alpha, beta)[0]
        return prove(self.search, alpha, beta)[0]

    def estimate(self, world: _World) -> int:
        """The value one ply deep (a reply: the opponent's reply best by score and racks)."""
        if world.fixed is not None:
            return world.fixed
        if world.endgame is not None:
            return world.score - self.searched(world.endgame, -INFINITY, INFINITY, depth=1)
        assert world.reply is not None
        return min((world.score - a.score + a.margin for a in self._replies(world.reply)[0]), default=world.score)

    def bounds(self, world: _World, alpha: int, beta: int, quick: bool = False) -> tuple[int, int]:
        """The value's bounds proved by a search within (alpha, beta), cut to its edges: (v, v) for a value
        v inside, (-INFINITY, alpha) at most alpha, (beta, INFINITY) at least beta. `quick`: where the
        opponent replies, only its first reply is searched (an upper bound, far cheaper than the least)."""
        if world.fixed is not None:
            return world.fixed, world.fixed
        if world.endgame is not None:
            return _cut(world.score - self.searched(world.endgame, world.score - beta, world.score - alpha),
                        alpha, beta)
        assert world.reply is not None
        low, high = self._best_reply(world, alpha, beta, 1 if quick else None)
        if quick:
            return -INFINITY, high
        if low > -INFINITY:  # the opponent may pass back instead: at least the side to move's fallback then
            fallback = self._fallback(world, low)
            if fallback < low:
                low = fallback
        return low, high

    def _replies(self, reply: _Reply) -> tuple[list[_Answer], bool]:
        """The opponent's plays emptying the bag, the highest-scoring first; and whether they are all its
        plays. The board after each is made only when its endgame is searched (`_endgame`): the one-ply
        estimate needs only the racks, and most replies are never searched (making every board took three
        quarters of a 2-in-the-bag estimate's time)."""
        key = id(reply)
        cached = self.replies.get(key)
        if cached is None:
            # built here in Python, with no search to read the clock: a one-ply estimate of a reply is
            # none (a 2-in-the-bag run went 6.5 s past --time 30 valuing one-tile plays' replies)
            if self.deadline is not None and time.monotonic() > self.deadline:
                raise OutOfTime
            found: list[_Answer] = []
            every = True
            points = reply.board.tiles.points
            mine = rack_value(points, reply.mine.counts)
            for q in self.generator.plays(reply.board, reply.theirs):
                if q.tile_count < len(reply.bag):
                    every = False
                    continue
                theirs = _plus(leave_after(reply.theirs, q), reply.bag)
                found.append(_Answer(q.score, q, theirs, 0 if q.score else reply.zero + 1,
                                     rack_value(points, theirs.counts) - mine))
            cached = self.replies[key] = (found, every)
        return cached

    @staticmethod
    def _endgame(reply: _Reply, answer: _Answer) -> Endgame:
        """The endgame after the opponent's answer, the side to move to move."""
        after = reply.board.copy()
        apply_play(after, answer.play)
        return Endgame(after, (reply.mine, answer.theirs), answer.zero)

    def _best_reply(self, world: _World, alpha: int, beta: int, first: int | None = None) -> tuple[int, int]:
        """The side to move's value after the opponent's best reply emptying the bag (or its `first`
        replies), within (alpha, beta) (-INFINITY below where some reply cannot be valued; INFINITY where it
        has none)."""
        assert world.reply is not None
        reply = world.reply
        replies, valued_all = self._replies(reply)
        least = INFINITY
        for answer in replies[:first]:
            top = min(beta, least)
            if top <= alpha:
                break
            base = world.score - answer.score
            v = base + (answer.margin if answer.zero >= MAX_ZERO_TURNS else
                        self.searched(self._endgame(reply, answer), alpha - base, top - base))
            least = min(least, v)
        if least >= INFINITY:
            return (-INFINITY if not valued_all else INFINITY), INFINITY
        low, high = _cut(least, alpha, beta)
        return (low if valued_all else -INFINITY), high

    def _fallback(self, world: _World, floor: int) -> int:
        """The side to move's value if the opponent passes back and it then makes its top-scoring play
        (drawing the bag), or `floor` where that is proved at least `floor`."""
        assert world.reply is not None
        reply = world.reply
        if reply.zero + 1 >= MAX_ZERO_TURNS:  # the opponent's pass ends the game
            return world.score + _margin(reply.board.tiles.points, reply.mine, reply.theirs)
        plays = self.generator.plays(reply.board, reply.mine)
        top = max(plays, key=lambda p: p.score, default=None)
        if top is None or top.tile_count < len(reply.bag):
            return -INFINITY
        after = reply.board.copy()
        apply_play(after, top)
        zero = 0 if top.score else reply.zero + 2
        mine = _plus(leave_after(reply.mine, top), reply.bag)
        if zero >= MAX_ZERO_TURNS:
            return world.score + top.score + _margin(reply.board.tiles.points, mine, reply.theirs)
        end = Endgame(after, (reply.theirs, mine), zero)
        base = world.score + top.score
        value = base - self.searched(end, base - floor - 1, base - floor + 1)  # at least `floor`?
        if value >= floor:
            return floor
        return base - self.searched(end, -INFINITY, INFINITY)


def _margin(points: Sequence[int], mine: Rack, theirs: Rack) -> int:
    """The side to move's margin if the game stopped now, each side losing its own rack's points (`mine`:
    the side to move's rack)."""
    return rack_value(points, theirs.counts) - rack_value(points, mine.counts)


def _cut(value: int, alpha: int, beta: int) -> tuple[int, int]:
    """A fail-soft result within (alpha, beta) as the bounds it proves, cut to the window's edges."""
    if value <= alpha:
        return -INFINITY, alpha
    if value >= beta:
        return beta, INFINITY
    return value, value


#: one search's work: (candidate, draw, alpha, beta, quick), or (candidate, -1, 0, 0, False) for every
#: draw's estimate
Task = tuple[int, int, int, int, bool]
Runner = Callable[[Iterator[Task], Callable[[Task], bool]], Iterator[tuple[Task, object]]]


class _Solver:
    """One pre-endgame solved in steps: every candidate estimated one ply deep, then each draw's outcome
    proved (cut where a candidate cannot win more draws than the best), then the exact values of those
    that may win as many; `report` is what is known when it ends or runs out of time."""

    def __init__(self, problem: _Problem, solving: list[_Candidate], keep: set[object], prover: _Prover,
                 started: float) -> None:
        self.problem, self.solving, self.keep, self.prover = problem, solving, keep, prover
        self.started = started
        self.spread = problem.spread
        for n, p in enumerate(solving):
            p.number = n
        self.reached: list[_Candidate] = []
        self.wins_seconds: float | None = None
        self.run: Runner = self.in_turn
        #: per draw (by its tiles): the exact values proved less their one-ply guesses, summed, and how many
        self.errors: dict[str, list[int]] = {}
        self.measured: set[int] = set()  # the candidates whose values are in `errors`

    def work(self, task: Task) -> object:
        """A task's result: every draw's estimate, or a draw's bounds (run here or in a worker)."""
        c, d, alpha, beta, quick = task
        candidate = self.solving[c]
        if d < 0:
            return [self.prover.estimate(w) for w in candidate.worlds]
        return self.prover.bounds(candidate.worlds[d], alpha, beta, quick)

    def in_turn(self, tasks: Iterator[Task], wanted: Callable[[Task], bool]) -> Iterator[tuple[Task, object]]:
        """The tasks run here one at a time, each still wanted when its turn comes."""
        for task in tasks:
            if wanted(task):
                yield task, self.work(task)

    def known(self, p: _Candidate) -> PlayOutcome:
        """What is known of a candidate so far: its wins proved or bounded, its values."""
        return PlayOutcome(p.move, tuple(Draw(w.label, w.weight, value, low == high, _result(low, high, self.spread),
                                              low, high, w.mine)
                                         for w, value, low, high in zip(p.worlds, p.value, p.low, p.high)),
                           self.spread)

    def estimate(self) -> None:
        """1. Every candidate one ply deep."""
        tasks = ((c, -1, 0, 0, False) for c in range(len(self.solving)))
        for (c, *_), values in self.run(tasks, lambda task: True):
            p = self.solving[c]
            assert isinstance(values, list)
            p.value, p.guesses = values, list(values)
            p.estimate = sum(v * w.weight for v, w in zip(values, p.worlds)) / sum(w.weight for w in p.worlds)
            self.reached.append(p)

    def prove_wins(self) -> float:
        """2. The outcomes, the most estimated wins first; among as many, the candidates placing most tiles
        (the endgames after them are smallest, so a best play is proved soonest), then the highest estimated
        value. Returns the most wins proved."""
        known = self.known
        self.reached.sort(key=lambda p: (-known(p).wins, -p.tiles, -known(p).expected))
        threshold = -self.spread  # a draw is won when its value is above it
        best = [-1.0]

        def tasks() -> Iterator[Task]:
            for p in self.reached:
                draws = sorted(range(len(p.worlds)), key=lambda d: p.value[d])  # likeliest losses first
                # where the opponent replies, its first reply alone first: a loss proved cheaply
                yield from ((p.number, d, threshold - 1, threshold + 1, True) for d in draws if p.worlds[d].reply)
                yield from ((p.number, d, threshold - 1, threshold + 1, False) for d in draws)

        def wanted(task: Task) -> bool:  # not cut: it may still win more draws than the best; not known
            p, d = self.solving[task[0]], task[1]
            return (p.key in self.keep or known(p).wins_at_most > best[0]) and \
                _result(p.low[d], p.high[d], self.spread) is None

        for (c, d, *_), bounds in self.run(tasks(), wanted):
            p = self.solving[c]
            assert isinstance(bounds, tuple)
            _record(p, d, bounds)
            if known(p).decided:
                best[0] = max(best[0], known(p).wins)
        for p in self.reached:
            if known(p).decided:
                best[0] = max(best[0], known(p).wins)
        self.wins_seconds = time.monotonic() - self.started
        return best[0]

    def prove_values(self, best_wins: float) -> None:
        """3. The exact values of the candidates that may win as many, the likeliest best first: by the
        one-ply estimate, since the bounds pass 2 leaves at the spread's threshold say nothing of how far
        above it a draw is won (one real position put a play worth +18.0 at -3.75 by them, behind one worth
        +10.5). The first to get exact values sets the expected value to beat; each one after is first
        bounded from above (`_bound_below`), which rules most out at a small part of the cost of their
        values, and only then, where it may still beat the best, has its values proved. One candidate at a
        time, so what each is measured against does not depend on how many processes search."""
        known = self.known
        top = [p for p in self.reached if known(p).wins_at_most >= best_wins]
        top.sort(key=lambda p: (-p.estimate, -p.tiles))
        best_sum = [float(-INFINITY)]
        for p in top:
            if known(p).wins_at_most < best_wins or _weighted(p, p.high) <= best_sum[0]:
                continue
            self._bound_below(p, best_wins, best_sum[0])
            self._exact_values(p, best_wins, best_sum)

    def _exact_values(self, p: _Candidate, best_wins: float, best_sum: list[float]) -> None:
        """The candidate's exact values, only while it may still beat the best (`best_sum`, raised if it
        does); its draws not yet bounded from above first."""
        known = self.known

        def tasks() -> Iterator[Task]:
            draws = sorted(range(len(p.worlds)), key=lambda d: (p.high[d] < INFINITY, p.value[d]))
            # where the opponent replies, an upper bound from its first reply first: often enough to cut
            yield from ((p.number, d, -INFINITY, INFINITY, True) for d in draws
                        if p.worlds[d].reply and p.high[d] >= INFINITY)
            yield from ((p.number, d, -INFINITY, INFINITY, False) for d in draws)

        def wanted(task: Task) -> bool:  # as many wins possible, and a higher expected value
            d = task[1]
            return (known(p).wins_at_most >= best_wins and _weighted(p, p.high) > best_sum[0]
                    and not p.settled[d] and p.low[d] < p.high[d])

        for (_, d, _, _, quick), bounds in self.run(tasks(), wanted):
            assert isinstance(bounds, tuple)
            _record(p, d, bounds)
            p.settled[d] = not quick
            self._consider(p, best_wins, best_sum)
        self._consider(p, best_wins, best_sum)

    def _bound_below(self, p: _Candidate, best_wins: float, target: float) -> None:
        """Where the candidate's likely values (`_likely`) sum below `target` (the best's weighted sum),
        each draw searched in a null window at a threshold: its likely value plus an equal share of the
        margin, NEAR at most, so that the thresholds' weighted sum is at most `target`. Where every draw
        proves at most its threshold, the candidate cannot beat the best. Measured on real endgames, a
        null window just above a value costs a small part of the value's proof, far above or below it as
        much or more (docs/engine.md): a draw that proves more than its threshold stops the bounding (the
        candidate's values are then proved)."""
        shares = _shares(p, target, self._likely(p)) if target > -INFINITY else None
        if shares is None:
            return
        known = self.known
        tasks = ((p.number, d, shares[d], shares[d] + 1, False) for d in sorted(shares, key=lambda d: -p.value[d]))

        def wanted(task: Task) -> bool:  # as many wins possible, and no draw above its threshold yet
            d = task[1]
            return (known(p).wins_at_most >= best_wins and p.high[d] > shares[d]
                    and all(p.low[e] <= t for e, t in shares.items()))

        for (_, d, *_), bounds in self.run(tasks, wanted):
            assert isinstance(bounds, tuple)
            _record(p, d, bounds)

    def _likely(self, p: _Candidate) -> list[float]:
        """Each draw's likely value: its one-ply guess (which leaves out the side to move's reply, so it is
        mostly low) plus the mean error of the guesses of that draw in the values proved so far, within the
        bounds proved."""
        out = []
        for d, w in enumerate(p.worlds):
            total, n = self.errors.get(w.label, [0, 0])
            out.append(min(max(p.guesses[d] + (total / n if n else 0.0), p.low[d]), p.high[d]))
        return out

    def _consider(self, p: _Candidate, best_wins: float, best_sum: list[float]) -> None:
        """A candidate whose values are all exact and wins as many sets the expected value to beat; its
        values tell how far off the one-ply guesses are."""
        o = self.known(p)
        if o.exact and p.number not in self.measured:
            self.measured.add(p.number)
            for w, guess, value in zip(p.worlds, p.guesses, p.value):
                error = self.errors.setdefault(w.label, [0, 0])
                error[0] += value - guess
                error[1] += 1
        if o.exact and o.wins == best_wins:
            best_sum[0] = max(best_sum[0], _weighted(p, p.value))

    def report(self) -> PreEndgame:
        """What is known, in `ranked` order; the candidates that may still beat the first."""
        out = ranked([self.known(p) for p in self.reached])
        # with no play to make there is nothing to prove (the side to move can only pass)
        wins_proved = len(out) == len(self.solving) and (not out or out[0].decided and all(
            o.wins_at_most <= out[0].wins for o in out[1:]))
        rivals = may_be_better(out)
        exact = wins_proved and (not out or out[0].exact and not rivals)
        return PreEndgame(tuple(out), exact, time.monotonic() - self.started, len(self.solving), wins_proved,
                          self.wins_seconds if wins_proved else None, rivals if wins_proved else (),
                          self.problem.in_bag, unproved(out))


def unproved(out: list[PlayOutcome]) -> tuple[PlayOutcome, ...]:
    """The candidates that may beat the first (ranked first: the best proved): more wins possible, or as
    many and an expected value the proofs do not keep at or below the first's; every one where the first's
    wins are not proved."""
    if not out or not out[0].decided:
        return tuple(out)
    first = out[0]
    return tuple(o for o in out[1:] if o.wins_at_most > first.wins or o.wins_at_most >= first.wins and (
        not first.exact or _ceiling(o) > first.expected))


def may_be_better(out: list[PlayOutcome]) -> tuple[PlayOutcome, ...]:
    """Where the first candidate's expected value is exact: those that may still beat it (as many wins
    possible, and no proved bound keeping their expected value at or below the first's)."""
    if not out or not out[0].exact:
        return ()
    return tuple(o for o in out[1:] if o.wins_at_most >= out[0].wins and _ceiling(o) > out[0].expected)


def ranked(outcomes: list[PlayOutcome]) -> list[PlayOutcome]:
    """The candidates best first: those whose wins are proved before those whose are not, then most
    wins (for one not proved, the most its proofs leave possible: the `<=N` a report shows, as a player
    reads it), then one whose expected value is exact before one whose is not, then by expected value. So
    when time runs out the first is the best proved, never one whose wins or value are partly an
    estimate (which may be far off either way: those that may be better are `unproved`). Where not one
    is proved, the first is the one estimated to win most (the best guess, which a bot plays), the
    rest by their bounds."""
    order = sorted(outcomes, key=lambda o: (not o.decided, -o.wins_at_most, -o.wins, not o.exact, -o.expected))
    if order and not order[0].decided:
        guess = min(order, key=lambda o: (-o.wins, not o.exact, -o.expected))
        order.remove(guess)
        order.insert(0, guess)
    return order


def _record(p: _Candidate, d: int, bounds: tuple[int, int]) -> None:
    """A draw's proved bounds kept, and its value: exact, else the one-ply estimate brought within them (the
    bounds proved at the spread's threshold say only on which side of it the value lies)."""
    low, high = bounds
    p.low[d] = max(p.low[d], low)
    p.high[d] = min(p.high[d], high)
    p.value[d] = min(max(p.value[d], p.low[d]), p.high[d])


#: how far above a draw's likely value its threshold is put at most: proving a value at most a threshold far
#: above it can cost far more than near it
NEAR = 8


def _shares(p: _Candidate, target: float, likely: list[float]) -> dict[int, int] | None:
    """Thresholds for the draws not yet bounded at or below them, whose weighted sum with the other draws'
    upper bounds is at most `target`: each its `likely` value plus one equal margin (None: the likely values
    themselves sum above `target`, so the candidate may well beat it)."""
    weights = [w.weight for w in p.worlds]
    fixed: dict[int, int] = {d: p.high[d] for d in range(len(weights)) if p.low[d] == p.high[d]}
    while True:
        free = [d for d in range(len(weights)) if d not in fixed]
        if not free:
            return None
        margin = (target - sum(weights[d] * v for d, v in fixed.items())
                  - sum(weights[d] * likely[d] for d in free)) / sum(weights[d] for d in free)
        if margin < 0:
            return None
        bounded = {d: p.high[d] for d in free if p.high[d] <= likely[d] + margin}
        if not bounded:
            return {d: math.floor(likely[d] + min(margin, NEAR)) for d in free}
        fixed.update(bounded)


def _weighted(p: _Candidate, values: list[int]) -> float:
    return float(sum(v * w.weight for v, w in zip(values, p.worlds)))


def _key(move: Move) -> object:
    return None if move is None else move.key()


def _share(result: str | None) -> float:
    """A draw's part of a win."""
    return 1.0 if result == WIN else 0.5 if result == TIE else 0.0


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
    """The highest expected value the proofs leave a candidate (INFINITY where a draw has no upper bound)."""
    at_most = o.expected_at_most
    return float(INFINITY) if at_most is None else at_most


def _plus(rack: Rack, tiles: Sequence[int], n: int = 1) -> Rack:
    """The rack with `n` more of each tile (-1: a blank)."""
    counts = list(rack.counts)
    blanks = rack.blanks
    for tile in tiles:
        if tile < 0:
            blanks += n
        else:
            counts[tile] += n
    return Rack(rack.tiles, tuple(counts), blanks)


# -- several processes ---------------------------------------------------------------------------------
#: tasks a process may be given beyond the one awaited: a search can take a thousand times another, and while
#: the one awaited runs, the other processes go on with the ones after it (with one ahead they sat idle)
AHEAD = 4
_worker: _Solver | None = None


def _work_there(task: Task) -> object:
    assert _worker is not None
    return _worker.work(task)


class _runner:
    """Where the solver's searches run: here, or `threads` forked processes that take the tasks in their
    order, up to `AHEAD` a process ahead of the one awaited; the results are used in that order, each only
    if still wanted then (else thrown away), so the report is the one a single process gives."""

    def __init__(self, solver: _Solver, threads: int) -> None:
        self.solver, self.threads = solver, threads
        self.pool: Pool | None = None

    def __enter__(self) -> Runner:
        if self.threads <= 1 or not may_fork():
            return self.solver.in_turn
        global _worker
        _worker = self.solver  # inherited by the forked workers
        self.pool = multiprocessing.get_context("fork").Pool(self.threads, initializer=end_with_parent,
                                                             initargs=(os.getpid(),))
        return self.ahead

    def __exit__(self, *exc: object) -> None:
        global _worker
        if self.pool is not None:  # its work is done, or no longer wanted (time ran out): no waiting for it
            self.pool.terminate()
            self.pool.join()
            _worker = None

    def ahead(self, tasks: Iterator[Task], wanted: Callable[[Task], bool]) -> Iterator[tuple[Task, object]]:
        assert self.pool is not None
        pending: list[tuple[Task, AsyncResult[object]]] = []
        deadline = self.solver.prover.deadline
        source = iter(tasks)
        while True:
            while len(pending) < AHEAD * self.threads:
                task = next(source, None)
                if task is None:
                    break
                if wanted(task):
                    pending.append((task, self.pool.apply_async(_work_there, (task,))))
            if not pending:
                return
            task, future = pending.pop(0)
            if not wanted(task):
                continue  # thrown away when it comes (a worker cannot be stopped mid-search)
            timeout = None if deadline is None else max(0.0, deadline - time.monotonic()) + 1.0
            try:
                result = future.get(timeout)
            except multiprocessing.TimeoutError:
                raise OutOfTime from None
            yield task, result
