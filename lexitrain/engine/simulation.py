"""Monte Carlo simulation: each candidate played out a few turns over random draws, as Quackle and Macondo do.

One *iteration* deals the unseen tiles once at random (the opponent's rack
first, unless the position gives it, then the bag in order; with an
inference from the opponent's last move, `Inferred`, their rack starts with
a leave drawn from it and is filled from the rest) and plays every
candidate out on that same deal: the candidate, then `plies` more moves, each
side making its move of best equity (exchanges and the pass included) and
drawing from the front of the bag. A playout is worth its spread (the
mover's points less the opponent's, the candidate's own included) plus the
value of the tiles kept by the side that moved last (plus for the mover,
minus for the opponent): its *equity*. Its *win* is the win probability
model's chance for the mover at that spread (the game's spread added) with
the tiles then unseen; a playout that reaches the end of the game is won,
drawn or lost outright. A candidate's figures are the means over iterations.

Leaves are counted in hundredths of a point (`cents`), so every sum is exact
and the same whatever the order: iteration i's deal comes from `(seed, i)`
alone, threads play blocks of iterations, and their results are added up in
iteration order, so `--seed` gives the same figures whatever the number of
threads. The stop rule (`stop`: 95, 98 or 99) is checked
every `CHECK_EVERY` iterations: a candidate the leader (best win, then
equity; equity first where the win chances are all too near 1 or 0 to tell
the candidates apart, `_Tally.by_equity`) is ahead of with that one-sided
confidence, by a paired test on the per-iteration differences (every
candidate sees the same deals; on equity where the leader is chosen by it), cannot
catch up and is pruned: it is played out no more, and keeps the figures of
the iterations it had. The simulation stops when the leader alone is left.
Threads take small blocks of iterations as they free up, so a slow deal does
not hold the other thread idle.

Two choosers pick the moves in a playout: `PythonChooser` (the move
generator's list, valued in Python: the reference) and `CompiledChooser`
(one call into `_movegen.best`, which keeps only the best move while it
searches). They choose the same move every time (the tests hold them to it),
the move `equity.best_candidate` makes (its `equity_order`, ties included).
Under the compiled engine a whole iteration is one call into C
(`_movegen.Playout`: `Playouts.playout` step for step, the same figures),
which lets go of the GIL, so threads share the work; the reference runs on
one thread.
"""

from __future__ import annotations

import bisect
import math
import multiprocessing
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Iterator, NamedTuple, Sequence, TypedDict

from lexitrain.children import may_fork
from lexitrain.engine.board import BLANK_FLAG, Board
from lexitrain.engine.dawg import Dawg, dawg_for
from lexitrain.engine.equity import Candidate, best_candidate, rank_by_equity
from lexitrain.engine.exchanges import EXCHANGE_LIMIT, unseen_tiles
from lexitrain.engine.leave import LeaveModel, LeaveValues
from lexitrain.engine.leave_table import load_leaves
from lexitrain.engine.mistakes import decided
from lexitrain.engine.engines import chosen_engine, compiled_movegen as compiled, default_engine as default_engine
from lexitrain.engine.movegen import MoveGenerator, table_leaves
from lexitrain.engine.play import ScoredPlay
from lexitrain.engine.win_probability import WinModel, load_win_model
from lexitrain.errors import LexitrainError
from lexitrain.lexicon.catalog import open_lexicon
from lexitrain.lexicon.progress import Progress, quiet
from lexitrain.tiles import BLANK, RACK_SIZE, Rack, TileSet

#: iterations between stop checks (a fixed number, so the stop is the same for any threads)
CHECK_EVERY = 32
#: iterations a thread plays per task (small: the threads share a round's work evenly)
TASK_ITERATIONS = 4
#: one-sided normal quantiles of the stop rule's confidence levels
CONFIDENCE = {95: 1.6449, 98: 2.0537, 99: 2.3263}
DEFAULT_CANDIDATES = 15
DEFAULT_PLIES = 2
DEFAULT_ITERATIONS = 500
#: the kinds of move a chooser returns
PLAY, EXCHANGE, PASS = 0, 1, 2


class Choice(NamedTuple):
    """The move a side makes in a playout: its kind, the play (for a play),
    the tiles put back as counts by tile with blanks last (for an exchange),
    its score and the value of the tiles it keeps, in cents."""

    kind: int
    play: ScoredPlay | None
    given: tuple[int, ...] | None
    score: int
    leave: int


class LeaveCents:
    """Leave values in hundredths of a point, remembered: the model's while the
    bag holds tiles, else minus twice the points kept (as `equity.leave_value`)."""

    def __init__(self, model: LeaveValues, tiles: TileSet) -> None:
        self.model = model
        self.points = list(tiles.points)
        self._table: Any = None

    def of(self, counts: Sequence[int], blanks: int) -> int:
        """The model's value of a leave (counts by letter, blanks), in cents."""
        return int(round(self.model._value(counts, blanks) * 100))

    def table(self, points: list[int]) -> Any:
        """The compiled chooser's table of these values (one per LeaveCents: it fills as leaves are met)."""
        if self._table is None:
            self._table = compiled.LeaveTable(self.of, points)
        return self._table

    def kept(self, counts: Sequence[int], blanks: int, bag: int) -> int:
        if bag > 0:
            return self.of(counts, blanks)
        return -200 * sum(n * p for n, p in zip(counts, self.points))


class PythonChooser:
    """The reference chooser: every play from the move generator, the move of
    `equity.best_candidate` (its equity order, ties included)."""

    def __init__(self, board: Board, generator: MoveGenerator, leaves: LeaveCents,
                 exchange_limit: int = EXCHANGE_LIMIT) -> None:
        self.board = board.copy()
        self.tiles = board.tiles
        self.generator = generator
        self.model = leaves.model
        self.exchange_limit = exchange_limit

    def choose(self, squares: list[int], counts: list[int], bag: int) -> Choice:
        letters = len(counts) - 1
        rack = Rack(self.tiles, tuple(counts[:letters]), counts[letters])
        self.board.squares = squares
        plays = self.generator.plays(self.board, rack)
        best = best_candidate(self.model, rack, plays, bag, exchange_limit=self.exchange_limit)
        cents = int(round(best.leave_value * 100))
        if best.play is not None:
            return Choice(PLAY, best.play, None, best.score, cents)
        if best.exchanged is not None:
            return Choice(EXCHANGE, None, (*best.exchanged.counts, best.exchanged.blanks), 0, cents)
        return Choice(PASS, None, None, 0, cents)


class CompiledChooser:
    """The same choice made in C: the search keeps only its best play. Under a
    leave table (`MoveGenerator.best_by_equity`) it reads the table itself;
    under any other leave model (`_movegen.best_valued`) it asks the model once
    per leave and remembers the answer in C (`LeaveTable`)."""

    def __init__(self, board: Board, generator: MoveGenerator, leaves: LeaveCents,
                 exchange_limit: int = EXCHANGE_LIMIT) -> None:
        chosen_engine("compiled", "simulation")
        self.board = board.copy()
        self.generator = generator
        self.setting = generator.setting(board)
        self.leaves = leaves
        self.by_table = getattr(generator, "best_by_equity", None) if not isinstance(leaves.model, LeaveModel) else None
        self.table = leaves.table(list(board.tiles.points)) if self.by_table is None else None
        self.exchange_limit = max(exchange_limit, 1)

    def choose(self, squares: list[int], counts: list[int], bag: int) -> Choice:
        if self.by_table is not None:
            return self._by_table(squares, counts, bag)
        assert self.table is not None
        return Choice._make(compiled.best_valued(self.setting, squares, counts, self.table, bag,
                                                 bag >= self.exchange_limit))

    def _by_table(self, squares: list[int], counts: list[int], bag: int) -> Choice:
        """The leave table's search: its kept tiles (a mask over the rack's tiles in set order, blanks last)
        turned into the tiles put back."""
        letters = len(counts) - 1
        self.board.squares = squares
        rack = Rack(self.board.tiles, tuple(counts[:letters]), counts[letters])
        assert self.by_table is not None
        move = self.by_table(self.board, rack, self.leaves.model, bag, bag >= self.exchange_limit)
        if move.kind == PLAY:
            return Choice(PLAY, move.play, None, move.play.score, move.equity - 100 * move.play.score)
        if move.kind == EXCHANGE:
            slots = [t for t, n in enumerate(counts) for _ in range(n)]
            given = [0] * len(counts)
            for k, t in enumerate(slots):
                if not move.kept >> k & 1:
                    given[t] += 1
            return Choice(EXCHANGE, None, tuple(given), 0, move.equity)
        return Choice(PASS, None, None, 0, move.equity)


class Rules(TypedDict):
    """How the compiled playouts go on (a C struct there): the moves after the candidate, the fewest tiles in
    the bag that allow an exchange, and the mover's spread before the candidate."""

    plies: int
    exchange_limit: int
    spread: int


class Inferred(NamedTuple):
    """The opponent's leaves, as inferred from their last move (`engine.inference`): each leave's
    tiles (blanks as the tile after the letters) and the running total of their probabilities."""

    leaves: tuple[tuple[int, ...], ...]
    cumulative: tuple[float, ...]

    @staticmethod
    def of(weighted: Sequence[tuple[Sequence[int], float]]) -> Inferred:
        """From (counts by tile, blanks last; weight) pairs."""
        leaves, running, total = [], [], 0.0
        for counts, weight in weighted:
            if weight > 0:
                total += weight
                leaves.append(tuple(t for t, n in enumerate(counts) for _ in range(n)))
                running.append(total)
        if not leaves:
            raise LexitrainError("the inference gave no leave to draw the opponent's rack from")
        return Inferred(tuple(leaves), tuple(r / total for r in running))

    def pick(self, rng: random.Random) -> tuple[int, ...]:
        return self.leaves[min(bisect.bisect_left(self.cumulative, rng.random()), len(self.leaves) - 1)]


@dataclass(frozen=True)
class SimSetup:
    """What a simulation needs (small enough to hand to `simulate_many`'s worker processes)."""

    lexicon: str
    board: Board
    rack: Rack
    spread: int  # the mover's score less the opponent's, before this turn
    candidates: tuple[Candidate, ...]
    plies: int = DEFAULT_PLIES
    opponent: Rack | None = None  # the opponent's rack, when the position gives it
    engine: str = "compiled"
    inferred: Inferred | None = None  # else the opponent's rack starts with a leave drawn from these


@dataclass
class SimRow:
    """One candidate's results."""

    candidate: Candidate
    index: int  # its place in the equity order
    iterations: int = 0
    equity: float = 0.0
    spread: float = 0.0
    win: float = 0.0


@dataclass
class SimReport:
    iterations: int
    plies: int
    rows: list[SimRow]  # best first
    stopped: str  # "iterations" or "confidence 95" ...
    seconds: float = 0.0
    # the candidates still played out at the end (the list's head) ranked by equity, their win chances all too
    # near 100% or 0% to tell them apart (`_Tally.ranking`): what the terminal says the list is ranked by
    by_equity: bool = False

    def to_json(self, tiles: TileSet, rack: Rack) -> dict[str, Any]:
        return {"iterations": self.iterations, "plies": self.plies, "candidates": [
            {"position": r.candidate.position, "word": r.candidate.word(tiles) if r.candidate.play is not None
             else r.candidate.tiles_text(tiles), "score": r.candidate.score,
             "leave": tiles.spell(r.candidate.leave(rack).names()), "equity": round(r.equity, 2),
             "win": round(r.win, 4), "spread": round(r.spread, 2), "iterations": r.iterations}
            for r in self.rows], "by_equity": self.by_equity}


def sim_candidates(model: LeaveValues, rack: Rack, plays: Sequence[ScoredPlay], bag: int, n: int) -> list[Candidate]:
    """The top n candidates by equity: plays, exchanges and the pass."""
    return rank_by_equity(model, rack, plays, bag)[:n]


class _Prepared(NamedTuple):
    squares: list[int]
    leave: list[int]  # counts by tile, blanks last
    given: list[int]  # tiles put back (an exchange)
    score: int
    cents: int
    out: bool  # the candidate plays out the whole rack


_cents: dict[int, tuple[LeaveValues, LeaveCents]] = {}


def leave_cents(model: LeaveValues, tiles: TileSet) -> LeaveCents:
    """One LeaveCents per model in a process, so what its compiled table learns serves every simulation."""
    kept = _cents.get(id(model))
    if kept is None or kept[0] is not model:
        kept = _cents[id(model)] = (model, LeaveCents(model, tiles))
    return kept[1]


class Playouts:
    """Plays out every candidate of one setup; one per process (its threads each have a `twin`)."""

    def __init__(self, setup: SimSetup, words: Dawg, leaves: LeaveValues, win: WinModel) -> None:
        self.setup = setup
        self.win = win
        board = setup.board
        tiles = board.tiles
        self.letters = tiles.size
        self.points = [*tiles.points, 0]
        self.leaves = leave_cents(leaves, tiles)
        self.generator = MoveGenerator(words)
        # the reference's moves, one at a time; the compiled engine's are made inside `_movegen.Playout`
        self.chooser = PythonChooser(board, self.generator, self.leaves) if setup.engine == "python" else None
        unseen = unseen_tiles(board, setup.rack)
        if setup.opponent is not None:
            unseen = Rack(tiles, tuple(max(0, n - m) for n, m in zip(unseen.counts, setup.opponent.counts)),
                          max(0, unseen.blanks - setup.opponent.blanks))
            self.opponent: list[int] | None = [*setup.opponent.counts, setup.opponent.blanks]
        else:
            self.opponent = None
        self.unseen = [i for i, n in enumerate(unseen.counts) for _ in range(n)] + [self.letters] * unseen.blanks
        if setup.inferred is not None:
            held = [*unseen.counts, unseen.blanks]
            if setup.opponent is not None or any(leave.count(t) > held[t] for leave in setup.inferred.leaves
                                                 for t in set(leave)):
                raise LexitrainError("an inferred leave holds tiles the position does not leave unseen")
        self.bag_before = len(self.unseen) - (0 if self.opponent is not None else min(RACK_SIZE, len(self.unseen)))
        self.prepared = [self._prepare(c) for c in setup.candidates]
        self.runner = self.twin() if setup.engine != "python" else None

    def twin(self) -> Any:
        """The compiled playouts of these candidates (`_movegen.Playout`), for one thread: its own search and
        its own memory of the leave model's answers (it writes that memory without the GIL, so no other
        thread may read it: not even the process's, `LeaveCents.table`, which the choosers share). Under the
        exhaustive leave table the playouts read the table itself; under a leave model they ask it."""
        chosen_engine("compiled", "simulation")
        model = self.leaves.model
        cache = compiled.LeaveTable(self.leaves.of, list(self.setup.board.tiles.points))
        table = None if isinstance(model, LeaveModel) else table_leaves(model)  # type: ignore[arg-type]
        bands = [(band.centre, band.slope, band.intercept) for band in self.win.bands]
        rules = Rules(plies=self.setup.plies, exchange_limit=EXCHANGE_LIMIT, spread=self.setup.spread)
        return compiled.Playout(self.generator.setting(self.setup.board), table, cache,
                                [(p.squares, p.leave, p.given, p.score, p.cents, p.out) for p in self.prepared],
                                self.opponent, rules, bands)

    def _prepare(self, candidate: Candidate) -> _Prepared:
        squares = list(self.setup.board.squares)
        cols = self.setup.board.cols
        rack = self.setup.rack
        leave = candidate.leave(rack)
        given: list[int] = []
        if candidate.play is not None:
            for r, c, t in candidate.play.placed():
                squares[r * cols + c] = t
        if candidate.exchanged is not None:
            given = [i for i, n in enumerate(candidate.exchanged.counts) for _ in range(n)]
            given += [self.letters] * candidate.exchanged.blanks
        counts = [*leave.counts, leave.blanks]
        cents = self.leaves.kept(leave.counts, leave.blanks, self.bag_before)
        out = candidate.play is not None and leave.size == 0
        return _Prepared(squares, counts, given, candidate.score, cents, out)

    def deal(self, seed: int, iteration: int) -> list[int]:
        """The unseen tiles in the order iteration `iteration` deals them (the same for every candidate);
        with an inference, the opponent's rack starts with a leave drawn from it, the rest shuffled."""
        order = list(self.unseen)
        rng = random.Random(f"{seed}/{iteration}")
        if self.setup.inferred is None:
            rng.shuffle(order)
            return order
        leave = self.setup.inferred.pick(rng)
        for t in leave:
            order.remove(t)
        rng.shuffle(order)
        return [*leave, *order]

    def iteration(self, seed: int, iteration: int, active: Sequence[int] | None = None, runner: Any = None
                  ) -> list[tuple[int, int, float]]:
        """Every candidate (or those numbered in `active`) played out on one deal: (equity in cents, spread,
        win) each; by the compiled playouts (`runner`, else this thread's first) where the engine is compiled."""
        order = self.deal(seed, iteration)
        runner = runner or self.runner
        if runner is not None:
            return runner.run(order, range(len(self.prepared)) if active is None else active)
        if active is None:
            return [self.playout(p, order) for p in self.prepared]
        return [self.playout(self.prepared[k], order) for k in active]

    def playout(self, start: _Prepared, order: list[int]) -> tuple[int, int, float]:
        """One candidate played out on one deal: (equity in cents, spread, win)."""
        assert self.chooser is not None, "the compiled engine plays out in _movegen.Playout"
        game = self._after_candidate(start, order)
        for _ in range(self.setup.plies if not game.over else 0):
            choice = self.chooser.choose(game.squares, game.racks[game.player], game.left)
            self._make(game, choice)
            if game.over:
                break
            game.player ^= 1
        return self._result(game)

    def _after_candidate(self, start: _Prepared, order: list[int]) -> _Game:
        """The game just after the candidate: the opponent's rack (the position's, or the deal's first
        tiles), the bag the rest of the deal, the mover's rack filled from its front, the tiles an
        exchange put back at its end; over if the candidate went out."""
        if self.opponent is not None:
            them = list(self.opponent)
            bag = list(order)
        else:
            them = [0] * (self.letters + 1)
            for t in order[:RACK_SIZE]:
                them[t] += 1
            bag = order[RACK_SIZE:]
        game = _Game(list(start.squares), [list(start.leave), them], bag, spread=start.score,
                     last_cents=start.cents, player=1)
        game.draw(game.racks[0], RACK_SIZE - sum(start.leave))
        bag.extend(start.given)
        if start.out and not any(game.racks[0]):
            game.spread += 2 * self._points(them)
            game.over = True
        return game

    def _make(self, game: _Game, choice: Choice) -> None:
        """The side to move makes its choice: a play put down and its tiles drawn (going out ends the game,
        with twice the other rack's points), or an exchange; its score and leave are counted."""
        rack = game.racks[game.player]
        sign = 1 if game.player == 0 else -1
        if choice.kind == PLAY:
            assert choice.play is not None
            cols = self.setup.board.cols
            for r, c, t in choice.play.placed():
                game.squares[r * cols + c] = t
                rack[self.letters if t >= BLANK_FLAG else t] -= 1
            game.draw(rack, RACK_SIZE - sum(rack))
        elif choice.kind == EXCHANGE:
            assert choice.given is not None
            put_back = [i for i, n in enumerate(choice.given) for _ in range(n)]
            for t in put_back:
                rack[t] -= 1
            game.draw(rack, len(put_back))
            game.bag.extend(put_back)
        game.spread += sign * choice.score
        game.last, game.last_cents = game.player, choice.leave
        if choice.kind == PLAY and not any(rack):
            game.spread += sign * 2 * self._points(game.racks[1 - game.player])
            game.over = True

    def _result(self, game: _Game) -> tuple[int, int, float]:
        """A playout's (equity in cents, spread, win): a finished game is won, drawn or lost outright; else
        the spread plus the value of the last mover's leave (theirs counted against), and the win model's
        chance at that spread with the tiles the mover cannot see."""
        spread = game.spread
        if game.over:
            total = self.setup.spread + spread
            return spread * 100, spread, 1.0 if total > 0 else 0.5 if total == 0 else 0.0
        cents = spread * 100 + (game.last_cents if game.last == 0 else -game.last_cents)
        unseen = game.left + sum(game.racks[1 - game.player])
        ahead = (self.setup.spread * 100 + cents) / 100
        chance = self.win.win(ahead if game.player == 0 else -ahead, unseen)
        return cents, spread, chance if game.player == 0 else 1.0 - chance

    def _points(self, rack: list[int]) -> int:
        return sum(n * p for n, p in zip(rack, self.points))


@dataclass(slots=True)
class _Game:
    """A playout under way: the board, both racks (counts by tile, blanks last; the candidate's side
    first), the bag in drawing order and how much of its front is drawn, the spread so far (the
    candidate's side's points less the opponent's), the side to move, the last mover and the value of
    the tiles it kept, and whether the game is over."""

    squares: list[int]
    racks: list[list[int]]
    bag: list[int]
    drawn: int = 0
    spread: int = 0
    player: int = 0
    last: int = 0
    last_cents: int = 0
    over: bool = False

    @property
    def left(self) -> int:
        """Tiles still in the bag."""
        return len(self.bag) - self.drawn

    def draw(self, rack: list[int], wanted: int) -> None:
        """Up to `wanted` tiles from the front of the bag onto `rack`."""
        take = max(0, min(wanted, self.left))
        for t in self.bag[self.drawn:self.drawn + take]:
            rack[t] += 1
        self.drawn += take


# -- running iterations, on one thread or several -----------------------------------
class _Threads:
    """Threads taking blocks of `TASK_ITERATIONS` iterations as they free up, each with its own compiled
    playouts (`Playouts.twin`), which run without the GIL; their results come back in iteration order."""

    def __init__(self, playouts: Playouts, threads: int) -> None:
        self.playouts = playouts
        spare = [playouts.runner] + [playouts.twin() for _ in range(threads - 1)]
        self.local = threading.local()
        self.pool = ThreadPoolExecutor(threads, initializer=lambda: setattr(self.local, "runner", spare.pop()))

    def _block(self, task: tuple[int, int, int, tuple[int, ...]]) -> list[list[tuple[int, int, float]]]:
        seed, first, last, active = task
        runner = self.local.runner
        return [self.playouts.iteration(seed, i, active, runner) for i in range(first, last)]

    def iterations(self, seed: int, first: int, last: int, active: tuple[int, ...]
                   ) -> Iterator[list[tuple[int, int, float]]]:
        """Iterations first..last-1 of the active candidates, each one's results in turn."""
        tasks = [(seed, a, min(a + TASK_ITERATIONS, last), active) for a in range(first, last, TASK_ITERATIONS)]
        for results in self.pool.map(self._block, tasks):
            yield from results

    def close(self) -> None:
        self.pool.shutdown(cancel_futures=True)


_resources: dict[str, tuple[Dawg, LeaveValues, WinModel]] = {}


def open_playouts(setup: SimSetup) -> Playouts:
    """The playouts of a setup, with the lexicon, leave and win models it names,
    opened once per process and lexicon (a worker's start)."""
    found = _resources.get(setup.lexicon)
    if found is None:
        lex = open_lexicon(setup.lexicon)
        found = _resources[setup.lexicon] = (dawg_for(lex), load_leaves(lex.tiles), load_win_model(lex.tiles))
    return Playouts(setup, *found)


def _simulate_one(task: tuple[SimSetup, int, int, int | None]) -> SimReport:
    setup, iterations, seed, stop = task
    return simulate(setup, iterations, seed, stop=stop, playouts=open_playouts(setup))


def simulate_many(setups: Sequence[SimSetup], iterations: int, seed: int, *, threads: int = 1,
                  stop: int | None = None, progress: Progress = quiet) -> list[SimReport]:
    """Several positions, each simulated in one process, `threads` at a time (a game's turns)."""
    tasks = [(setup, iterations, seed, stop) for setup in setups]
    out: list[SimReport] = []
    if threads > 1 and len(tasks) > 1 and may_fork():
        with multiprocessing.get_context("fork").Pool(min(threads, len(tasks))) as pool:
            for report in pool.imap(_simulate_one, tasks):
                out.append(report)
                progress("simulating", len(out), len(tasks))
        return out
    for task in tasks:
        out.append(_simulate_one(task))
        progress("simulating", len(out), len(tasks))
    return out


@dataclass
class _Tally:
    """Each candidate's results, one per iteration it was played out in (every iteration until it is pruned)."""

    equity: list[list[int]]
    spread: list[list[int]]
    win: list[list[float]]
    active: list[int]  # the candidates still played out, by number

    @staticmethod
    def of(candidates: int) -> _Tally:
        return _Tally([[] for _ in range(candidates)], [[] for _ in range(candidates)],
                      [[] for _ in range(candidates)], list(range(candidates)))

    def add(self, results: list[tuple[int, int, float]]) -> None:
        """One iteration's results, one per active candidate."""
        for k, (e, s, w) in zip(self.active, results):
            self.equity[k].append(e)
            self.spread[k].append(s)
            self.win[k].append(w)

    def means(self, k: int) -> tuple[float, float]:
        n = max(1, len(self.equity[k]))
        return math.fsum(self.win[k]) / n, sum(self.equity[k]) / n

    def by_equity(self, group: Sequence[int]) -> bool:
        """Whether the win chances cannot tell GROUP's candidates apart: all too near 1, or all too near 0
        (`mistakes.decided`, by which a game's analysis then judges a move by points). Equity ranks them then:
        a hundredth of a percent of a win is the win model's noise, not a better move."""
        wins = [self.means(k)[0] for k in group]
        return bool(wins) and decided(max(wins), min(wins))

    def ranking(self) -> tuple[list[int], bool]:
        """Candidates best first: those still played out, then the pruned; each group by mean win, then mean
        equity (by equity, then win, where the group's win chances cannot tell them apart), then their equity
        order. With it, whether the candidates still played out were ranked by equity."""
        active = set(self.active)
        pruned = [k for k in range(len(self.equity)) if k not in active]
        equity_first = {True: self.by_equity(self.active), False: self.by_equity(pruned)}

        def key(k: int) -> tuple[bool, float, float, int]:
            win, equity = self.means(k)
            still = k in active
            return (not still, -equity, -win, k) if equity_first[still] else (not still, -win, -equity, k)
        return sorted(range(len(self.equity)), key=key), equity_first[True]

    def prune(self, level: int) -> None:
        """Stop playing out the candidates the leader is ahead of at `level`%: by win, else by equity where the
        wins never differ or cannot tell the candidates apart (`by_equity`), as `order` ranks them."""
        z = CONFIDENCE[level]
        leader = self.ranking()[0][0]
        kept = [leader]
        equity_only = self.by_equity(self.active)
        for k in self.active:
            if k == leader:
                continue
            verdict = None if equity_only else _ahead(self.win[leader], self.win[k], z)
            if verdict is None:
                verdict = _ahead(self.equity[leader], self.equity[k], z)
            if not verdict:
                kept.append(k)
        self.active = sorted(kept)


def _ahead(a: Sequence[float], b: Sequence[float], z: float) -> bool | None:
    """Is `a` ahead of `b` with one-sided confidence z (paired)? None when they never differ."""
    diffs = [x - y for x, y in zip(a, b)]
    n = len(diffs)
    if not any(diffs):
        return None
    mean = math.fsum(diffs) / n
    variance = math.fsum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    if variance == 0.0:
        return mean > 0
    return mean / math.sqrt(variance / n) > z


def simulate(setup: SimSetup, iterations: int, seed: int, *, threads: int = 1, stop: int | None = None,
             progress: Progress = quiet, playouts: Playouts | None = None) -> SimReport:
    """Play out every candidate `iterations` times (the pruned ones fewer, all fewer when `stop` is reached),
    on `threads` threads (the compiled engine; the reference runs on one)."""

    _check_simulation(setup, iterations, threads, stop)
    started = time.perf_counter()
    tally = _Tally.of(len(setup.candidates))
    done = 0
    stopped = "iterations"
    if playouts is None:
        playouts = open_playouts(setup)
    pool = _Threads(playouts, threads) if threads > 1 and playouts.runner is not None else None
    try:
        while done < iterations:
            block = min(CHECK_EVERY if stop is not None else iterations, iterations - done)
            _play_block(tally, playouts, pool, seed, done, block, iterations, progress)
            done += block
            progress("simulating", done, iterations)
            if stop is not None and done < iterations and len(tally.active) > 1:
                tally.prune(stop)
                if len(tally.active) == 1:
                    stopped = f"confidence {stop}"
                    break
    finally:
        if pool is not None:
            pool.close()
    if stop is not None and len(setup.candidates) == 1:
        stopped = "one candidate"
    order, by_equity = tally.ranking()
    return SimReport(done, setup.plies, [_row(setup, tally, k) for k in order], stopped,
                     time.perf_counter() - started, by_equity)


def _check_simulation(setup: SimSetup, iterations: int, threads: int, stop: int | None) -> None:
    """A simulation that cannot run (no candidate, an unknown confidence, a count below one) is refused whole."""
    if not setup.candidates:
        raise LexitrainError("nothing to simulate: the position has no candidate move")
    if stop is not None and stop not in CONFIDENCE:
        raise LexitrainError(f"stop at {stop}% confidence: choose one of {', '.join(map(str, CONFIDENCE))}")
    if iterations < 1 or setup.plies < 1 or threads < 1:
        raise LexitrainError("iterations, plies and threads must each be at least 1")


def _play_block(tally: _Tally, playouts: Playouts, pool: _Threads | None, seed: int, done: int, block: int,
                iterations: int, progress: Progress) -> None:
    """Iterations DONE to DONE + BLOCK of the candidates still played out, on the threads or here, added to the
    tally in iteration order (so the figures are the same whatever the threads), the progress said every
    `CHECK_EVERY`."""
    active = tuple(tally.active)
    if pool is not None:
        for k, results in enumerate(pool.iterations(seed, done, done + block, active)):
            tally.add(results)
            if (k + 1) % CHECK_EVERY == 0:
                progress("simulating", done + k + 1, iterations)
        return
    for i in range(done, done + block):
        tally.add(playouts.iteration(seed, i, active))
        if (i + 1) % CHECK_EVERY == 0:
            progress("simulating", i + 1, iterations)


def _row(setup: SimSetup, tally: _Tally, k: int) -> SimRow:
    """Candidate K's means over the iterations it was played out: equity (kept in hundredths), spread, win."""
    n = len(tally.equity[k])
    return SimRow(setup.candidates[k], k, n, sum(tally.equity[k]) / n / 100, sum(tally.spread[k]) / n,
                  math.fsum(tally.win[k]) / n)


def position_setup(lexicon: str, board: Board, rack: Rack, scores: Sequence[int], generator: MoveGenerator,
                   model: LeaveValues, *, opponent: Rack | None = None, candidates: int = DEFAULT_CANDIDATES,
                   plies: int = DEFAULT_PLIES, engine: str | None = None, inferred: Inferred | None = None
                   ) -> SimSetup:
    """A simulation of the position: the top `candidates` moves by equity for `rack`,
    the bag worked out from the board (and the opponent's rack, when known; or with the
    opponent's rack started by a leave inferred from their last move)."""
    if candidates < 1:
        raise LexitrainError("--candidates must be at least 1")
    if plies < 1:
        raise LexitrainError("--plies must be at least 1")
    if not rack.size:
        raise LexitrainError("the position has no rack for the player to move")
    unseen = unseen_tiles(board, rack).size
    held = opponent.size if opponent is not None else min(RACK_SIZE, unseen)
    bag = max(0, unseen - held)
    plays = generator.plays(board, rack)
    spread = (scores[0] - scores[1]) if len(scores) > 1 else 0
    return SimSetup(lexicon, board, rack, spread, tuple(sim_candidates(model, rack, plays, bag, candidates)),
                    plies, opponent, engine or default_engine(), inferred)
