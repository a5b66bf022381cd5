"""The exact endgame: with the bag empty and both racks known, the play
sequence that maximises the final spread.

Negamax with alpha-beta over every legal play and the pass, by iterative
deepening (each depth's best line is searched first at the next) taking
turns with a search straight to the end of every line (`prove`), a
transposition table keyed by Zobrist hashes of the board, both racks and the
count of scoreless turns, and move ordering (the table's move, then plays
that go out, then by score). The game ends when a player goes out (+2x the
opponent's rack) or after six scoreless turns in a row (each side loses its
own rack), as `engine/game.py` plays it. A search that reaches the end of
the game everywhere is exact; `--time` may stop it earlier, and then the
answer is the best line of the deepest depth finished, marked inexact.

Two searches do this: the one below in pure Python, the reference the tests
compare, and the same algorithm compiled (`_endgame.pyx`), used where built,
(engine/engines.py says which runs), with what only saves time added (an incremental board for the move
generator, a finer move order, two-entry table buckets, a bound from the
opponent's going out and one from what a side's plays alone could get: see its docstring).
Both ask the move generator for plays, once per board and rack: a side's
plays come only from its own rack, and the same board and rack come back
across transpositions and across the depths of the deepening.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Protocol, Sequence

from lexitrain.engine.board import BLANK_FLAG, EMPTY, Board
from lexitrain.engine.engines import chosen_engine, compiled_endgame
from lexitrain.engine.movegen import MoveGenerator
from lexitrain.engine.play import ScoredPlay
from lexitrain.errors import LexitrainError
from lexitrain.tiles import Rack


#: scoreless turns in a row that end a game
MAX_ZERO_TURNS = 6
#: bounds no value reaches
INFINITY = 1 << 20
#: a transposition-table depth meaning "searched to the end of the game"
EXACT_DEPTH = 1 << 10
#: plies no endgame outlasts (every play uses a tile; passes are bounded)
MAX_PLIES = 2 * (7 + 7) + 2 * MAX_ZERO_TURNS
#: transposition-table entries kept before it starts again
TABLE_LIMIT = 4_000_000
#: (board, rack) play lists kept before the cache starts again
PLAYS_LIMIT = 50_000
#: half the width of the window the root is first searched in, around the last depth's value
ASPIRATION = 4
#: a depth no endgame reaches: a search to it follows every line to the game's end
PROOF_DEPTH = EXACT_DEPTH - 1
#: the positions the first search straight to the end may visit (see `solve`)
DIRECT_NODES = 20_000
#: plies from the root down the first line where every thread shares a position's plays (see SplitSearch)
SPLIT_PLIES = 3
LONG_PLAY = 100_000  # positions a play shared out has taken before a free thread may join it rather than take another
#: table flags
EXACT, LOWER, UPPER = 0, 1, 2

Move = ScoredPlay | None  # None is a pass
#: a table entry of the pure search: (depth searched, or EXACT_DEPTH; flag; value; the best move)
Entry = tuple[int, int, int, Move]


def _settles(entry: Entry, depth: int, alpha: int, beta: int) -> bool:
    """Does the table's entry give this position's value within (alpha, beta) at this depth without a search?"""
    e_depth, flag, value, _ = entry
    return e_depth >= depth and (flag == EXACT or flag == LOWER and value >= beta or flag == UPPER and value <= alpha)


class OutOfTime(Exception):
    """The search's time ran out (caught inside this module)."""


class OutOfNodes(OutOfTime):
    """The search visited the positions it was allowed (`node_limit`)."""


class Superseded(OutOfTime):
    """Another thread sharing out the same search stopped this one: its play was at beta or
    above, or it ran out of time or positions (see `SplitSearch.share_out`)."""


@dataclass(frozen=True)
class Solution:
    """What the solver found: the best line from the side to move's point of
    view, the points it gains over the opponent to the end (going-out bonus
    and rack penalties included), and whether that is proved."""

    sequence: tuple[Move, ...]
    value: int
    exact: bool
    depth: int
    nodes: int
    seconds: float

    @property
    def play(self) -> Move:
        return self.sequence[0] if self.sequence else None


def rack_value(tiles_points: Sequence[int], counts: Sequence[int]) -> int:
    return sum(p * n for p, n in zip(tiles_points, counts))


class Zobrist:
    """Random 64-bit keys: a tile on a square, n copies of a letter on the
    rack of the side to move or of the other side, scoreless turns so far."""

    def __init__(self, squares: int, letters: int, seed: int = 20261204) -> None:
        rng = random.Random(seed)
        bits = 64
        self.square = [[rng.getrandbits(bits) for _ in range(2 * BLANK_FLAG)] for _ in range(squares)]
        # [slot][letter (blank = letters)][count]: slot 0 the mover, 1 the other side
        self.rack = [[[0] + [rng.getrandbits(bits) for _ in range(16)] for _ in range(letters + 1)] for _ in range(2)]
        self.zero = [rng.getrandbits(bits) for _ in range(MAX_ZERO_TURNS + 1)]


class Endgame:
    """A position to solve: the board, the two racks (the side to move's
    first) and how many scoreless turns came just before."""

    def __init__(self, board: Board, racks: tuple[Rack, Rack], zero_turns: int = 0) -> None:
        if zero_turns >= MAX_ZERO_TURNS:
            raise LexitrainError(f"{zero_turns} scoreless turns: the game is already over")
        if not racks[0].size or not racks[1].size:
            raise LexitrainError("both racks need tiles: a game whose player has gone out is over")
        self.board = board
        self.racks = racks
        self.zero_turns = zero_turns


class Searcher(Protocol):
    """What the solver asks of a search (PythonSearch, or the compiled `_endgame.Search`)."""

    node_limit: int

    @property
    def nodes(self) -> int: ...
    @property
    def sizes(self) -> list[int]: ...
    def plays(self, player: int) -> list[ScoredPlay]: ...
    def reset(self, endgame: Endgame, deadline: float | None) -> None: ...
    def make(self, player: int, play: ScoredPlay) -> None: ...
    def unmake(self, player: int, play: ScoredPlay) -> None: ...
    def table_move(self, player: int, zero: int) -> tuple[bool, Move]: ...
    def root(self, depth: int, alpha: int, beta: int) -> tuple[int, bool]: ...
    def after(self, player: int, move: Move, depth: int, alpha: int, beta: int, zero: int) -> int: ...


class PythonSearch:
    """The reference search: the compiled one's algorithm without what only saves time."""

    def __init__(self, endgame: Endgame, generator: MoveGenerator, deadline: float | None = None) -> None:
        board = endgame.board
        self.generator = generator
        tiles = board.tiles
        self.letters = tiles.size
        self.points = list(tiles.points)
        self.zobrist = Zobrist(len(board.squares), tiles.size)
        self.table: dict[int, Entry] = {}
        self.plays_cache: dict[tuple[int, int], list[ScoredPlay]] = {}
        self.nodes = 0
        self.node_limit = 0  # stop (OutOfNodes) past this many positions; 0: no limit
        self.horizon = 0  # times the search stopped short of a game's end
        self.reset(endgame, deadline)

    def reset(self, endgame: Endgame, deadline: float | None) -> None:
        """Start from another position on the same kind of board, keeping the
        table and the plays found (the pre-endgame's endgames, one after another)."""
        self.board = endgame.board.copy()
        # each player's rack: counts per letter, then blanks last
        self.racks = [list(r.counts) + [r.blanks] for r in endgame.racks]
        self.values = [rack_value(self.points, r.counts) for r in endgame.racks]
        self.sizes = [r.size for r in endgame.racks]
        self.rack_keys = [[self._rack_key(p, slot) for slot in (0, 1)] for p in (0, 1)]
        self.board_key = 0
        for k, t in enumerate(self.board.squares):
            if t != EMPTY:
                self.board_key ^= self.zobrist.square[k][t]
        self.deadline = deadline
        self.start_zero = endgame.zero_turns

    def _rack_key(self, player: int, slot: int) -> int:
        z = self.zobrist.rack[slot]
        key = 0
        for letter, n in enumerate(self.racks[player]):
            key ^= z[letter][n]
        return key

    # -- making and taking back plays ----------------------------------------------
    def _take(self, player: int, slot: int, delta: int) -> None:
        rack = self.racks[player]
        keys = self.rack_keys[player]
        n = rack[slot]
        rack[slot] = n + delta
        for s in (0, 1):
            z = self.zobrist.rack[s][slot]
            keys[s] ^= z[n] ^ z[n + delta]

    def make(self, player: int, play: ScoredPlay) -> None:
        self._move_tiles(player, play, -1)

    def unmake(self, player: int, play: ScoredPlay) -> None:
        self._move_tiles(player, play, 1)

    def _move_tiles(self, player: int, play: ScoredPlay, delta: int) -> None:
        """Put the play's new tiles from the player's rack on the board (delta -1), or take them
        back (delta +1): squares, hashes, rack, rack value and size move together."""
        squares = self.board.squares
        cols = self.board.cols
        dr, dc = (1, 0) if play.down else (0, 1)
        for i, t in enumerate(play.letters):
            if play.through >> i & 1:
                continue
            k = (play.row + dr * i) * cols + play.col + dc * i
            squares[k] = t if delta < 0 else EMPTY
            self.board_key ^= self.zobrist.square[k][t]
            if t >= BLANK_FLAG:
                self._take(player, self.letters, delta)
            else:
                self._take(player, t, delta)
                self.values[player] += delta * self.points[t]
            self.sizes[player] += delta

    def plays(self, player: int) -> list[ScoredPlay]:
        """The player's plays on this board, those going out first, then by score."""
        key = (self.board_key, self.rack_keys[player][0])
        found = self.plays_cache.get(key)
        if found is None:
            rack = self.racks[player]
            held = Rack(self.board.tiles, tuple(rack[:-1]), rack[-1])
            plays = self.generator.plays(self.board, held)
            size = self.sizes[player]
            found = [p for p in plays if p.tile_count == size] + [p for p in plays if p.tile_count != size]
            if len(self.plays_cache) >= PLAYS_LIMIT:
                self.plays_cache.clear()
            self.plays_cache[key] = found
        return found

    # -- the search ------------------------------------------------------------------
    def negamax(self, player: int, depth: int, alpha: int, beta: int, zero: int) -> tuple[int, Move]:
        """The value for `player` (to move) of the rest of the game, within (alpha, beta)."""
        self.nodes += 1
        if self.deadline is not None and not self.nodes & 1023 and time.monotonic() > self.deadline:
            raise OutOfTime
        if self.node_limit and self.nodes > self.node_limit:
            raise OutOfNodes
        key = self._key(player, zero)
        entry = self.table.get(key)
        if entry is not None and _settles(entry, depth, alpha, beta):
            if entry[0] != EXACT_DEPTH:
                self.horizon += 1
            return entry[2], entry[3]
        if depth == 0:
            self.horizon += 1
            return self.values[1 - player] - self.values[player], None
        horizon_before = self.horizon
        alpha0 = alpha
        best = -INFINITY
        best_move: Move = None
        for n, move in enumerate(self._order(player, entry)):
            if n == 0:
                value = self.after(player, move, depth, alpha, beta, zero)
            else:  # a null window first: most moves only need proving worse
                value = self.after(player, move, depth, alpha, alpha + 1, zero)
                if alpha < value < beta:
                    value = self.after(player, move, depth, value, beta, zero)
            if value > best:
                best, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
        if len(self.table) >= TABLE_LIMIT:
            self.table.clear()
        self.table[key] = (EXACT_DEPTH if self.horizon == horizon_before else depth, flag, best, best_move)
        return best, best_move

    def _key(self, player: int, zero: int) -> int:
        """The table's key of this position with `player` to move after `zero` scoreless turns."""
        return self.board_key ^ self.rack_keys[player][0] ^ self.rack_keys[1 - player][1] ^ self.zobrist.zero[zero]

    def _order(self, player: int, entry: Entry | None) -> list[Move]:
        """The player's moves to search: its plays then the pass, the table's move first (where it is one of
        them: else the entry is another position's, a hash collision)."""
        plays = self.plays(player)
        order: list[Move] = [*plays, None]
        if entry is not None and (entry[3] is None or entry[3] in plays):
            order.remove(entry[3])
            order.insert(0, entry[3])
        return order

    def after(self, player: int, move: Move, depth: int, alpha: int, beta: int, zero: int) -> int:
        """The value for `player` of making `move`, searched within (alpha, beta)."""
        other = 1 - player
        if move is None:  # the pass
            if zero + 1 >= MAX_ZERO_TURNS:
                return self.values[other] - self.values[player]
            return -self.negamax(other, depth - 1, -beta, -alpha, zero + 1)[0]
        if move.tile_count == self.sizes[player]:  # going out ends the game
            return move.score + 2 * self.values[other]
        score = move.score
        self.make(player, move)
        try:
            return score - self.negamax(other, depth - 1, score - beta, score - alpha, 0 if score else zero + 1)[0]
        finally:
            self.unmake(player, move)

    def root(self, depth: int, alpha: int, beta: int) -> tuple[int, bool]:
        """Search to `depth` plies within (alpha, beta); (value, whether it reached every game's end)."""
        before = self.horizon
        value, _ = self.negamax(0, depth, alpha, beta, self.start_zero)
        return value, self.horizon == before

    def table_move(self, player: int, zero: int) -> tuple[bool, Move]:
        """(whether the table holds this position, its move: a play or None for a pass)."""
        entry = self.table.get(self._key(player, zero))
        return (False, None) if entry is None else (True, entry[3])


def best_line(search: Searcher, value: int, depth: int, zero: int, exact: bool = False) -> list[Move]:
    """The line behind a root value, read back move by move: at each step the
    first move (the table's first) whose value, searched again in a window
    around the one expected, is that value; the moves after it are not
    searched (after a proof the table's move is right and its value is in
    the table: utf8_dos's line took 3 positions, and 16,327 when every move
    was searched and the first right one kept). For an unproved value the search
    can disagree with itself: then the line stops (after the table's move).
    An `exact` value's line is read to the end of the game, past `depth`: a
    depth proved exact may have read a later position's value proved to the
    end (in its own table or another thread's), so its lines can be longer."""
    out: list[Move] = []
    player = 0
    made: list[tuple[int, ScoredPlay]] = []
    try:
        while depth > 0 or exact:
            if depth <= 0:
                depth = PROOF_DEPTH
            candidates: list[Move] = [*search.plays(player), None]
            listed, move = search.table_move(player, zero)
            if listed and move in candidates:
                candidates.remove(move)
                candidates.insert(0, move)
            right = next((k for k, m in enumerate(candidates)  # the first: the rest are not searched
                          if search.after(player, m, depth, value - 1, value + 1, zero) == value), None)
            if right is None:
                if not out and listed:
                    out.append(move)
                break
            chosen = candidates[right]
            out.append(chosen)
            if chosen is None:
                zero += 1
                value = -value
                if zero >= MAX_ZERO_TURNS:
                    break
            else:
                if chosen.tile_count == search.sizes[player]:
                    break
                zero = 0 if chosen.score else zero + 1
                value = chosen.score - value
                search.make(player, chosen)
                made.append((player, chosen))
            player = 1 - player
            depth -= 1
    finally:
        for p, move in reversed(made):
            search.unmake(p, move)
    return out


def new_search(endgame: Endgame, generator: MoveGenerator, deadline: float | None,
               engine: str | None = None) -> Searcher:
    """A search of `endgame` (the compiled one unless `engine` says otherwise), stopping at `deadline`."""
    if chosen_engine(engine, "endgame search") == "compiled":
        return compiled_endgame().Search(endgame, generator, deadline)
    return PythonSearch(endgame, generator, deadline)


def search_depth(search: Searcher, depth: int, guess: int | None, alpha: int = -INFINITY,
                 beta: int = INFINITY) -> tuple[int, bool]:
    """The root searched to `depth` within (alpha, beta): first in a narrow
    window around the last depth's value (an aspiration: every move then only
    needs proving better or worse than it), again in the whole window if the
    value falls outside the narrow one."""
    if guess is not None:
        low, high = max(alpha, guess - ASPIRATION), min(beta, guess + ASPIRATION)
        if low < high:
            value, exact = search.root(depth, low, high)
            if low < value < high or value <= low == alpha or value >= high == beta:
                return value, exact
    return search.root(depth, alpha, beta)


def direct_budget(doubled: int, searched: int) -> int:
    """The positions the next search straight to the end may visit: as many as the proof has
    searched so far (the deepening and the direct searches before), at least `doubled`
    (DIRECT_NODES, twice as many after each direct search that ran out). The direct search
    gets half the work whatever the deepening costs: with DIRECT_NODES doubling alone,
    boys1 (7 against 6, its value going out at once) reached depth 8 of the deepening, 7.9
    million positions, before a direct search was allowed the 1.6 million it needs."""
    return max(doubled, searched)


def null_windows(search: Searcher, guess: int, alpha: int = -INFINITY, beta: int = INFINITY) -> int:
    """The root's value within (alpha, beta) (fail-soft: outside it, a bound), proved straight to
    the end of every line by null-window searches from `guess` (MTD(f)): each proves the value
    above or below one point, the next moving to the side proved, until the two bounds meet.
    Every play then needs only proving better or worse than one value, where a whole window
    makes the first line's plays exact values. Measured on the real endgames (2026-12-07, one
    thread, the same schedule): vs_andy 2.55 -> 1.58 million positions, r11 0.92 -> 0.62
    million, boys2 1.51 -> 1.27 million, boys5 0.90 -> 0.84 million, the others within 3%."""
    lower, upper, value = -INFINITY, INFINITY, guess
    while lower < upper and upper > alpha and lower < beta:
        test = min(max(value + 1 if value == lower else value, alpha + 1), beta)
        value = search.root(PROOF_DEPTH, test - 1, test)[0]
        if value < test:
            upper = value
        else:
            lower = value
    return value


def prove(search: Searcher, alpha: int = -INFINITY, beta: int = INFINITY,
          on_depth: Callable[[int, int], None] | None = None) -> tuple[int, int]:
    """The root's value within (alpha, beta) (fail-soft: outside it, a bound),
    proved to the end of every line, and the depth searched to prove it.

    Iterative deepening (`on_depth` is told each depth finished and its
    value, not proved) takes turns with a search straight to the end of
    every line in null windows from that value (`null_windows`), stopped
    after as many positions as this proof has searched so far
    (`direct_budget`); one table serves both. Measured on the real
    endgames, neither alone is fast on every position: the deepening's move
    order (each depth's best first at the next) proves some a hundred times
    sooner, while on others the static order of a direct search does it ten
    times sooner; taking turns costs about twice the faster of the two at most."""
    started = search.nodes
    budget = DIRECT_NODES
    guess: int | None = None
    for depth in range(1, MAX_PLIES + 1):
        guess, exact = search_depth(search, depth, guess, alpha, beta)
        if exact:
            return guess, depth
        if on_depth is not None:
            on_depth(depth, guess)
        budget = direct_budget(budget, search.nodes - started)
        search.node_limit = search.nodes + budget
        try:
            return null_windows(search, guess, alpha, beta), PROOF_DEPTH
        except OutOfNodes:
            budget *= 2
        finally:
            search.node_limit = 0
    return search.root(PROOF_DEPTH, alpha, beta)[0], PROOF_DEPTH


class SplitSearch:
    """A compiled search and its partners on other threads (`_endgame.Search.partner`: one
    table for all), as one Searcher whose `root` shares out the plays of each position
    down the first line, its first SPLIT_PLIES plies (`line`): the first thread searches
    a position's first play (the table's move, else the search's first) alone, for the
    bound the others are then measured against (as Young Brothers Wait); the rest go to
    whichever thread is free, each first in a null window, again in the whole window
    where it comes out better; a thread with none left joins the search of one still
    searched (`share_out`). The value is the one thread's (the same alpha-beta over
    the same plays; which thread finds what only changes the work). Measured on the real
    endgames, a proof's positions lie almost all below the later plays of those plies
    (about 1.7x one thread on two); at the root alone the first play held nearly all
    of the direct search's failed tries; and a share's time lay often in one play (six_pass's
    deepening to 10 plies: 826,176 positions of one thread, 66 of the other) until a
    thread left without plays joined it. Racing two whole searches instead (each its
    own table and move order, the first to prove winning) paid only where the second
    order happened to be far better (1.12x)."""

    def __init__(self, search: Any, endgame: Endgame, threads: int) -> None:
        self.main = search
        self.searches = [search] + [search.partner(endgame) for _ in range(threads - 1)]
        self.zero = endgame.zero_turns
        self.node_limit = 0  # the positions all threads may visit before OutOfNodes (0: no limit)
        self.made: list[tuple[int, Move]] = []  # the moves made from the root (`make`: a line read back)

    @property
    def nodes(self) -> int:
        """The positions every thread has visited."""
        return sum(s.nodes for s in self.searches)

    def allow(self, searches: list[Any]) -> None:
        """Share out what is left of the positions `prove` allows (`node_limit`, 0: no limit) among
        `searches`, before each of them searches: a share left from before (`prove` lifts its limit
        after the direct search) would stop a line read back after the proof at once."""
        limit = self.node_limit
        left = max(1, (limit - self.nodes) // len(searches)) if limit else 0
        for s in searches:
            s.node_limit = s.nodes + left if limit else 0

    @property
    def sizes(self) -> list[int]:
        return list(self.main.sizes)

    def plays(self, player: int) -> list[ScoredPlay]:
        return list(self.main.plays(player))

    def reset(self, endgame: Endgame, deadline: float | None) -> None:
        for s in self.searches:
            s.reset(endgame, deadline)

    def make(self, player: int, play: ScoredPlay) -> None:
        self.main.make(player, play)
        self.made.append((player, play))

    def unmake(self, player: int, play: ScoredPlay) -> None:
        self.main.unmake(player, play)
        self.made.pop()

    def table_move(self, player: int, zero: int) -> tuple[bool, Move]:
        listed, move = self.main.table_move(player, zero)
        return bool(listed), move

    def after(self, player: int, move: Move, depth: int, alpha: int, beta: int, zero: int) -> int:
        """The value for `player` of `move` after the moves made, searched by every thread as
        `root` is: a line read back searches again the moves whose values the table does not hold."""
        main = self.main
        ends = zero + 1 >= MAX_ZERO_TURNS if move is None else move.tile_count == main.sizes[player]
        if ends or depth <= 2:  # no search, or a small one (as `eldest`'s)
            self.allow([main])
            return int(main.after(player, move, depth, alpha, beta, zero))
        return self.shared(player, move, depth, alpha, beta, zero, list(self.made))

    def root(self, depth: int, alpha: int, beta: int) -> tuple[int, bool]:
        """The root searched to `depth` within (alpha, beta) by every thread (see the class);
        (value, whether every thread reached every game's end)."""
        horizons = [s.horizon for s in self.searches]
        value = self.line(0, depth, alpha, beta, self.zero, [])
        return value, all(s.horizon == h for s, h in zip(self.searches, horizons))

    def line(self, player: int, depth: int, alpha: int, beta: int, zero: int,
             path: list[tuple[int, Move]]) -> int:
        """The value for `player`, to move after `path` (the moves from the root), within
        (alpha, beta): the table's, where it settles it; else its first play's (the table's
        move, else the search's first) by the first thread alone, then the rest shared out
        by every thread (the pass after them: `passed`); kept in the table as the search keeps
        its own nodes'."""
        main = self.main
        known = main.settled(player, zero, depth, alpha, beta)
        if known is not None:
            return int(known)
        horizons = [s.horizon for s in self.searches]
        plays = main.plays(player)
        listed, move = main.table_move(player, zero)
        first = len(plays) if listed and move is None else plays.index(move) if listed and move in plays else 0
        order = [first] + [i for i in range(len(plays) + 1) if i != first]  # index len(plays): the pass
        passing = len(plays)
        pass_last = first != passing and len(order) > 2 and depth > 2 and zero + 1 < MAX_ZERO_TURNS
        self.allow([main])
        best = self.eldest(player, plays, first, depth, alpha, beta, zero, path)
        best_index = first
        if max(alpha, best) < beta and len(order) > 1:
            self.allow(self.searches)
            best, best_index = self.share_out([i for i in order[1:] if not (pass_last and i == passing)], player,
                                              depth, max(alpha, best), beta, zero, path, best, first)
        if pass_last and max(alpha, best) < beta:
            value = self.passed(player, depth, max(alpha, best), beta, zero, path)
            if value > best:
                best, best_index = value, passing
        exact = all(s.horizon == h for s, h in zip(self.searches, horizons))
        main.remember(player, zero, best_index, best, EXACT_DEPTH if exact else depth, alpha, beta)
        return best

    def eldest(self, player: int, plays: list[ScoredPlay], index: int, depth: int, alpha: int, beta: int,
               zero: int, path: list[tuple[int, Move]]) -> int:
        """The value for `player` of its play `index` (the pass: len(plays)) within (alpha, beta),
        searched by the first thread: in the first SPLIT_PLIES plies of a line, its own first
        play by `line` (the rest of its plays shared out), below them by the search alone."""
        main = self.main
        play = plays[index] if index < len(plays) else None
        ends = zero + 1 >= MAX_ZERO_TURNS if play is None else play.tile_count == main.sizes[player]
        if len(path) - len(self.made) + 1 >= SPLIT_PLIES or depth <= 2 or ends:
            return int(main.after_index(player, index, depth, alpha, beta, zero))
        return self.shared(player, play, depth, alpha, beta, zero, path)

    def shared(self, player: int, play: Move, depth: int, alpha: int, beta: int, zero: int,
               path: list[tuple[int, Move]]) -> int:
        """The value for `player` of `play` (not ending the game) after `path` within (alpha, beta),
        the position it leads to searched by `line` (every thread)."""
        main = self.main
        if play is None:
            return -self.line(1 - player, depth - 1, -beta, -alpha, zero + 1, path + [(player, None)])
        main.make(player, play)
        try:
            return play.score - self.line(1 - player, depth - 1, play.score - beta, play.score - alpha,
                                          0 if play.score else zero + 1, path + [(player, play)])
        finally:
            main.unmake(player, play)

    def passed(self, player: int, depth: int, alpha: int, beta: int, zero: int,
               path: list[tuple[int, Move]]) -> int:
        """The value for `player` of passing after `path` within (alpha, beta), after its other plays:
        first in a null window at alpha, again in the whole window where it comes out better (as
        `share_out`), the position it leads to shared out by every thread (`shared`). Shared out
        beside them, one thread took it last and the other joined it there, the two splitting it by
        ABDADA's rule, which put off the reply that proves it (the other thread being in it) and
        searched the replies after it, not needed: some_isc_game at 59-60, where passing is the
        costliest play (18.6 of one thread's 69.2 million positions; the loser's 18th reply 16.6),
        36.9 million positions between the two threads, 89 s of a 188 s proof."""
        value = self.shared(player, None, depth, alpha, alpha + 1, zero, path)
        if alpha < value < beta:
            value = self.shared(player, None, depth, alpha, beta, zero, path)
        return value

    def share_out(self, order: list[int], player: int, depth: int, alpha: int, beta: int, zero: int,
                  path: list[tuple[int, Move]], best: int, best_index: int) -> tuple[int, int]:
        """The best of `best` (of play `best_index`) and the values of `player`'s plays `order`
        (indices, the pass last) within (alpha, beta) after `path`, and its play, searched by
        every thread: thread k first takes play k of them, then each the next not taken; once
        none is left, a thread joins the search of the earliest play still searched (their
        searches put off the positions the other is in, so the two split that play's tree,
        `Search.negamax`): the first to finish gives its value and stops the others on it. A
        value at beta or above stops them all."""
        lock = threading.Lock()
        searches = self.searches
        taken = len(searches)
        on: list[int | None] = [k if k < len(order) else 0 for k in range(len(searches))]  # each one's play
        done: set[int] = set()
        state: dict[str, Any] = {"alpha": alpha, "best": (best, best_index), "cut": False, "error": None}

        started = [s.nodes for s in searches]  # each thread's positions when it took its play
        spent = 0  # the positions of the plays finished here

        def next_play(k: int) -> int | None:
            """(Under the lock) for thread k, the next play not taken, else the earliest still
            searched; but a play still searched that has taken more positions than all those
            finished (and LONG_PLAY) is joined first: most likely it is the one that proves the
            position (a play at beta's proof is of all its replies, one that fails of one), and
            any play searched after it would then be wasted."""
            nonlocal taken
            started[k] = searches[k].nodes
            if state["cut"]:
                return None
            searched = [(j, at) for j, at in enumerate(on) if at is not None and at not in done]
            if taken < len(order):
                ran, longest = max(((searches[j].nodes - started[j], at) for j, at in searched if j != k),
                                   default=(0, None))
                if longest is not None and ran > max(spent, LONG_PLAY):
                    return longest
                taken += 1
                return taken - 1
            return min((at for _, at in searched), default=None)

        def finish(k: int, at: int, value: int) -> None:
            """(Under the lock) play `at`'s value, found by thread k: the first found counts."""
            nonlocal spent
            spent += searches[k].nodes - started[k]
            if at in done:
                return
            done.add(at)
            state["best"] = max(state["best"], (value, order[at]), key=lambda found: found[0])
            state["alpha"] = max(state["alpha"], value)
            if value >= beta:
                state["cut"] = True
            for j, other in enumerate(on):
                if j != k and other == at:
                    searches[j].halt_search(True)

        def work(k: int) -> None:
            search = searches[k]
            made: list[tuple[int, ScoredPlay]] = []
            try:
                if k:  # the first thread is there already
                    for p, play in path:
                        if play is not None:
                            search.make(p, play)
                            made.append((p, play))
                at = on[k]
                while at is not None:
                    try:
                        with lock:
                            a = state["alpha"]
                        value = search.after_index(player, order[at], depth, a, a + 1, zero)
                        if a < value < beta:
                            with lock:
                                a = state["alpha"]
                            value = search.after_index(player, order[at], depth, a, beta, zero)
                    except Superseded:
                        with lock:
                            if state["cut"] or state["error"] is not None:
                                return  # another thread's cut or error stopped this one
                    else:
                        with lock:
                            finish(k, at, value)
                    with lock:
                        search.halt_search(False)  # stopped (or about to be) as another finished its play
                        at = next_play(k)
                        on[k] = at
            except Superseded:  # another thread's cut or error stopped this one
                return
            except BaseException as error:  # out of time or positions: the root is not searched
                with lock:
                    state["error"] = state["error"] or error
            else:
                if not state["cut"]:
                    return
            finally:
                for p, play in reversed(made):
                    search.unmake(p, play)
            self.main.stop_partners(True)

        threads = [threading.Thread(target=work, args=(k,), name="endgame-partner", daemon=True)
                   for k in range(1, len(searches))]
        for thread in threads:
            thread.start()
        try:
            work(0)
        finally:
            for thread in threads:
                thread.join()
            self.main.stop_partners(False)
            for search in searches:  # one stopped as it left (another finishing a play it had joined)
                search.halt_search(False)
        if state["error"] is not None:
            raise state["error"]
        value, index = state["best"]
        return int(value), int(index)


def on_threads(search: Searcher, endgame: Endgame, threads: int) -> Searcher:
    """The search on `threads` threads sharing out each root's plays (`SplitSearch`); itself
    where the search is not the compiled one. Its value is one thread's; the line read back
    may differ among plays of equal value."""
    if threads < 2 or getattr(search, "partner", None) is None:
        return search
    return SplitSearch(search, endgame, threads)


def solve(endgame: Endgame, generator: MoveGenerator, seconds: float | None = None, engine: str | None = None,
          on_depth: Callable[[int, int], None] | None = None, threads: int = 1) -> Solution:
    """Solve exactly (`prove`, on `threads` threads: `on_threads`), or when
    `seconds` run out, answer with the best line of the deepest depth the
    deepening finished, not exact. Its nodes are every thread's."""
    started = time.monotonic()
    search = on_threads(new_search(endgame, generator, None if seconds is None else started + seconds, engine),
                        endgame, threads)
    best: Solution | None = None

    def finished(depth: int, value: int) -> None:
        nonlocal best
        line = best_line(search, value, depth, endgame.zero_turns)
        best = Solution(tuple(line), value, False, depth, search.nodes, time.monotonic() - started)
        if on_depth is not None:
            on_depth(depth, value)

    try:
        value, depth = prove(search, on_depth=finished)
        line = best_line(search, value, depth, endgame.zero_turns, exact=True)
        return Solution(tuple(line), value, True, len(line), search.nodes, time.monotonic() - started)
    except OutOfTime:
        pass
    if best is None:  # not even one ply in time: the top-scoring play, unproved
        plays = search.plays(0)
        first: Move = plays[0] if plays else None
        best = Solution((first,), 0, False, 0, search.nodes, time.monotonic() - started)
    return Solution(best.sequence, best.value, best.exact, best.depth, search.nodes, time.monotonic() - started)


def describe(move: Move, board: Board) -> dict[str, object]:
    """A move as the JSON output writes it: position, word, score (a pass has position `-`)."""
    if move is None:
        return {"position": "-", "word": "(pass)", "score": 0}
    return {"position": move.position, "word": move.word(board.tiles), "score": move.score}
