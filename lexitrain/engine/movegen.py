"""Every legal play for a board and a rack, each once, with its score.

Appel & Jacobson's algorithm over a DAWG, row by row: at each anchor (an
empty square next to a tile, or the centre on an empty board) a left part is
either the tiles already there or built from the rack over free squares, then
the word is extended rightwards through board tiles and rack tiles allowed by
the cross-checks. Scores are summed while searching. Down plays are across
plays of the transposed board. A one-tile play that makes words both ways is
listed once, as across.

Two searches do this: the one below in pure Python, and the same algorithm
compiled to C (`_movegen.pyx`), built by `pip install .` where a C compiler
is found. Both list the same plays in the same order; engine/engines.py
says which runs. The compiled calls take the game's `Setting` (the graph,
the board's shape and premiums, the tiles' points: `compiled_setting`) and
the board and rack of the moment.
"""

from __future__ import annotations

import gc
from functools import lru_cache
from itertools import repeat
from operator import itemgetter
from typing import NamedTuple, TypedDict

from lexitrain.engine.board import BLANK_FLAG, EMPTY, LETTER_MASK, Board
from lexitrain.engine.crosschecks import CrossMemo, cross_checks
from lexitrain.engine.dawg import Dawg
from lexitrain.engine.engines import chosen_engine, compiled_movegen as compiled
from lexitrain.engine.leave_table import LONGEST, LeaveTable
from lexitrain.engine.play import ScoredPlay
from lexitrain.errors import LexitrainError
from lexitrain.layouts import PREMIUMS, BoardLayout
from lexitrain.tiles import RACK_SIZE, Rack, TileSet

Found = tuple[int, int, bool, tuple[int, ...], int, int]  # row, col, down, letters, through, score (as ScoredPlay)
#: run of board tiles -> {DAWG node: which of its letters lead through the run,
#: as far as checked (see _leads_through)}
ThroughMemo = dict[tuple[int, ...], dict[int, int]]

#: cross-check memo entries a generator keeps before it starts again
CROSS_LIMIT = 200_000
#: run-through memo entries (node by run) it keeps before it starts again (some 20 MB)
THROUGH_LIMIT = 300_000


class MoveGenerator:
    """Finds every legal play over one word graph.

    It remembers what searches learn of the graph (the letters that fit
    between the tiles of a column, the letters that lead through a run of
    board tiles), as the same columns and runs come back position after
    position: make one per graph and keep it while positions keep coming.
    Each memo starts again when it reaches its limit, so memory stays bounded.
    (The memos are the pure Python search's: the compiled one needs none.)

    `engine` is "compiled" or "python" (default: `default_engine()`)."""

    def __init__(self, dawg: Dawg, cross_limit: int = CROSS_LIMIT, through_limit: int = THROUGH_LIMIT,
                 engine: str | None = None) -> None:
        self.engine = chosen_engine(engine, "move generator")
        self.dawg = dawg
        self.cross_limit = cross_limit
        self.through_limit = through_limit
        self._cross: CrossMemo = {}
        self._through: ThroughMemo = {}
        self._through_entries = 0

    @property
    def memo_entries(self) -> tuple[int, int]:
        """Entries held now: (cross-checks, run-throughs)."""
        return len(self._cross), self._through_entries

    def plays(self, board: Board, rack: Rack) -> list[ScoredPlay]:
        """All legal plays, best score first (equal scores in search order)."""
        # The search allocates thousands of tuples and makes no reference cycles:
        # keep the cyclic collector from stopping it to scan the whole heap.
        paused = gc.isenabled()
        gc.disable()
        try:
            if rack.size and self.engine == "compiled" and self._fits_compiled(board, rack.size):
                return self._plays_compiled(board, rack)  # sorted and made ScoredPlay in C
            found = self._find(board, rack)
            found.sort(key=itemgetter(5), reverse=True)  # stable: ties stay in search order
            return list(map(tuple.__new__, repeat(ScoredPlay), found))  # ScoredPlay._make, without its Python-level call
        finally:
            if paused:
                gc.enable()

    def _find(self, board: Board, rack: Rack) -> list[Found]:
        """The raw, unsorted list of plays as tuples."""
        size = rack.size
        if size == 0:
            return []
        dawg = self.dawg
        points = _tile_points(board.tiles)
        rows, cols = board.rows, board.cols
        out: list[Found] = []
        bingo = board.layout.bingo_bonus
        rack_tiles = RackTiles.of(rack.counts, rack.blanks, dawg.tiles.size)
        lefts = left_parts(rack_tiles, dawg, min(size - 1, max(rows, cols) - 1))
        if self._through_entries >= self.through_limit:
            self._through.clear()
            self._through_entries = 0
        through = self._through
        squares = board.squares
        if all(s == EMPTY for s in squares):
            centre = board.layout.center
            anchors = {centre[0] * cols + centre[1]}
            lm, wm = _premiums(board.layout, False)
            unchecked = [(1 << dawg.tiles.size) - 1] * len(squares)
            _lines(squares, rows, cols, lm, wm, anchors, unchecked, [-1] * len(squares), rack_tiles, dawg, points,
                   bingo, False, lefts, through, out)
            return out
        flipped = [squares[r * cols + c] for c in range(cols) for r in range(rows)]
        for sq, n_rows, n_cols, down in ((squares, rows, cols, False), (flipped, cols, rows, True)):
            lm, wm = _premiums(board.layout, down)
            cmask, cscore = cross_checks(sq, n_rows, n_cols, dawg, points, self._cross, self.cross_limit)
            self._through_entries += _lines(sq, n_rows, n_cols, lm, wm, _anchors(sq, n_rows, n_cols), cmask,
                                            cscore, rack_tiles, dawg, points, bingo, down, lefts, through, out)
        return out


    def _fits_compiled(self, board: Board, held: int) -> bool:
        """Within the compiled search's limits (32-bit masks, rows of 64 squares, 16 tiles held)?"""
        limits = compiled.LIMITS
        return (self.dawg.data.format == "I" and self.dawg.letters <= limits["letters"]
                and max(board.rows, board.cols) <= limits["line"] and held <= limits["rack"])

    def _plays_compiled(self, board: Board, rack: Rack) -> list[ScoredPlay]:
        return compiled.find(self.setting(board), board.squares, rack.counts, rack.blanks)

    def setting(self, board: Board) -> compiled.Setting:
        """The compiled search's setting for this graph and the board's layout and tiles."""
        return compiled_setting(self.dawg, board.layout, board.tiles)


    def best_by_equity(self, board: Board, rack: Rack, table: LeaveTable, bag: int,
                       may_exchange: bool, ticket: int | None = None) -> BestMove:
        """The move of best equity under the leave table (plays, every exchange
        when `may_exchange`, the pass), chosen in C without listing the plays:
        what `equity.best_candidate` chooses (with the same `ticket`), much faster
        (the compiled search only)."""
        self._choosing(board, rack.size)
        turn = Turn(bag=bag, may_exchange=may_exchange, ticket=-1 if ticket is None else ticket)
        return BestMove(*compiled.best(self.setting(board), board.squares, rack.counts, rack.blanks,
                                       table_leaves(table), turn))

    def self_play(self, board: Board, contents: list[int]) -> compiled.SelfPlay:
        """The compiled player of whole equity-player games on boards like `board` from a full bag of
        `contents` (tile numbers in the bag's order, a blank the number of letters): see selfplay.py."""
        self._choosing(board, RACK_SIZE)
        return compiled.SelfPlay(self.setting(board), contents)

    def _choosing(self, board: Board, held: int) -> None:
        """Refuse, in one line, a choice of the best move the compiled search cannot make here (a rack of
        `held` tiles, at most one more than the leave table's longest leave)."""
        if self.engine != "compiled" or held > LONGEST + 1 or not self._fits_compiled(board, held):
            raise LexitrainError("the best move by equity needs the compiled move generator")


class Shape(TypedDict):
    """The board and the rules the compiled search needs of it (a C struct there): its size, its centre
    square (flat) for the first play, the bingo bonus and the tiles a rack holds."""

    rows: int
    cols: int
    centre: int
    bingo: int
    rack_size: int


class Turn(TypedDict):
    """What the compiled choice of a best move needs beyond the board and the rack (a C struct there): the
    tiles in the bag, whether they allow an exchange, and a ticket drawing among the plays tied at the best
    (-1: none)."""

    bag: int
    may_exchange: bool
    ticket: int


@lru_cache(maxsize=16)
def compiled_setting(dawg: Dawg, layout: BoardLayout, tiles: TileSet) -> compiled.Setting:
    """What every compiled search over this graph, board and tile set shares, made once."""
    shape = Shape(rows=layout.rows, cols=layout.cols, centre=layout.center[0] * layout.cols + layout.center[1],
                  bingo=layout.bingo_bonus, rack_size=RACK_SIZE)
    return compiled.Setting(dawg.data, dawg.letters, shape, (_premiums(layout, False), _premiums(layout, True)),
                            _tile_points(tiles), ScoredPlay)


_table_leaves: dict[int, tuple[LeaveTable, compiled.TableLeaves]] = {}


def table_leaves(table: LeaveTable) -> compiled.TableLeaves:
    """The leave table as the compiled search reads it, made once per table."""
    kept = _table_leaves.get(id(table))
    if kept is None or kept[0] is not table:
        if len(_table_leaves) >= 16:
            _table_leaves.clear()
        # a whole rack's value (the pass's), asked of the model where the bound may beat the best move
        longer = compiled.LeaveTable(table.hundredths, list(table.tiles.points))
        bound = table.fallback.features.bound(table.fallback.weights, RACK_SIZE)
        kept = _table_leaves[id(table)] = (table, compiled.TableLeaves(table.values, table.ways, LONGEST, longer,
                                                                        bound))
    return kept[1]


class BestMove(NamedTuple):
    """The compiled search's choice: `kind` PLAY, EXCHANGE or PASS; `equity` in
    hundredths of a point; `kept` the rack's tiles kept, as a mask over them
    in set order (blanks last); `leave` the kept tiles' place in the leave
    table (-1 when none); `play` the play (None for an exchange or a pass)."""

    kind: int
    equity: int
    kept: int
    leave: int
    play: ScoredPlay | None


#: BestMove kinds, the compiled search's numbers: each its name's place in `equity.KINDS`
PLAY, EXCHANGE, PASS = 0, 1, 2


def _anchors(sq: list[int], rows: int, cols: int) -> set[int]:
    """The empty squares next to a tile."""
    size = rows * cols
    anchors = set()
    for k in [k for k, t in enumerate(sq) if t != EMPTY]:
        c = k % cols
        if c > 0 and sq[k - 1] == EMPTY:
            anchors.add(k - 1)
        if c < cols - 1 and sq[k + 1] == EMPTY:
            anchors.add(k + 1)
        if k >= cols and sq[k - cols] == EMPTY:
            anchors.add(k - cols)
        if k + cols < size and sq[k + cols] == EMPTY:
            anchors.add(k + cols)
    return anchors


@lru_cache(maxsize=16)
def _premiums(layout: BoardLayout, transposed: bool) -> tuple[list[int], list[int]]:
    rows, cols = layout.rows, layout.cols
    grid = layout.premiums
    if transposed:
        cells = [grid[r][c] for c in range(cols) for r in range(rows)]
    else:
        cells = [p for row in grid for p in row]
    return [PREMIUMS[p][0] for p in cells], [PREMIUMS[p][1] for p in cells]


@lru_cache(maxsize=16)
def _tile_points_cached(points: tuple[int, ...]) -> tuple[int, ...]:
    table = [0] * (2 * BLANK_FLAG)
    for i, p in enumerate(points):
        table[i] = p
    return tuple(table)


def _tile_points(tiles: TileSet) -> list[int]:
    """Points by tile number: index -> points, index | BLANK_FLAG -> 0."""
    return list(_tile_points_cached(tiles.points))


class RackTiles(NamedTuple):
    """The rack as numbered tile slots, so what is left of it is one small int
    (`rem`, a bitmask of the slots still on the rack) passed down the search
    instead of counts changed and put back around every tile tried.

    Taking a letter clears the lowest of its slots still set (copies of a
    letter are interchangeable); taking a blank, the lowest blank slot."""

    #: letter -> the slots holding that letter
    slots: list[int]
    #: the slots holding blanks
    blank_slots: int
    #: rem -> the letters it can still play (all letters while it holds a blank)
    avail: list[int]
    #: the whole rack
    whole: int

    @staticmethod
    def of(counts: tuple[int, ...], blanks: int, letters: int) -> RackTiles:
        """Slots from a count per letter and a number of blanks."""
        full = (1 << letters) - 1
        slots = [0] * letters
        plays: list[int] = []  # slot -> the letters it can be
        for letter, n in enumerate(counts):
            for _ in range(n):
                slots[letter] |= 1 << len(plays)
                plays.append(1 << letter)
        blank_slots = ((1 << blanks) - 1) << len(plays)
        plays += [full] * blanks
        avail = [0] * (1 << len(plays))
        for rem in range(1, len(avail)):
            low = rem & -rem
            avail[rem] = avail[rem ^ low] | plays[low.bit_length() - 1]
        return RackTiles(slots, blank_slots, avail, len(avail) - 1)


def _lines(
    sq: list[int],
    rows: int,
    cols: int,
    LM: list[int],
    WM: list[int],
    anchors: set[int],
    cmask: list[int],
    cscore: list[int],
    rack_tiles: RackTiles,
    dawg: Dawg,
    points: list[int],
    bingo: int,
    down: bool,
    lefts: list[LeftParts],
    through: ThroughMemo,
    out: list[Found],
) -> int:
    """Across plays along each row of `sq` (the board, or its transpose), from
    the anchor squares, with the cross-checks (letter masks, cross scores) of
    every square. Returns how many entries it added to `through`."""
    added = 0
    dmask, dfinal, edge = dawg.mask, dawg.final, dawg.edge
    # letters a word may have on each square: the tile there, or the cross-check set
    need = [cmask[i] if sq[i] == EMPTY else 1 << (sq[i] & LETTER_MASK) for i in range(rows * cols)]
    square = _squares_ahead(sq, cols, LM, WM, cscore, need)
    slots, blank_slots, avail, whole = rack_tiles
    in_rack = whole.bit_count()
    stride = dawg.letters
    append = out.append

    # the word being tried: its first square, where its line ends, and the
    # (row, col) a play is reported at; set for each start by the loop below
    start = end = 0
    at_row = at_col = 0

    def record_through(word: tuple[int, ...], score: int, placed: int, through: int) -> None:
        """Record a word that ends on a board tile."""
        if placed == RACK_SIZE:
            score += bingo
        if down and placed == 1 and cscore[start + (~through & (through + 1)).bit_length() - 1] >= 0:
            return  # a one-tile play that also makes an across word: listed as across
        append((at_row, at_col, down, word, through, score))

    def extend(
        node: int, i: int, word: tuple[int, ...], main: int, wmul: int, cross: int, placed: int, through: int, rem: int
    ) -> None:
        """Continue `word` (its tiles so far) at flat square i, with the rack slots `rem` left."""
        t = sq[i]
        if t != EMPTY:
            letter = t & LETTER_MASK
            if not dmask[node] >> letter & 1:
                return
            word += (t,)
            through |= 1 << (i - start)
            main += points[t]
            j = i + 1
            if placed and (j == end or sq[j] == EMPTY) and dfinal[node] >> letter & 1:
                record_through(word, main * wmul + cross, placed, through)
            if j < end:
                child = edge[node + letter]
                ahead = dmask[child] & need[j]
                if ahead and (sq[j] != EMPTY or ahead & avail[rem]):
                    extend(child, j, word, main, wmul, cross, placed, through, rem)
            return
        allowed = dmask[node] & cmask[i] & avail[rem]
        if not allowed:
            return
        lm, w, cs, next_need, next_tile = square[i]
        j = i + 1
        fin = dfinal[node] if word else 0  # a one-letter word is no word
        wmul *= w
        placed += 1
        bonus = bingo if placed == RACK_SIZE else 0
        # a one-tile down play that also makes an across word is listed as across
        keep = placed > 1 or not down or cs < 0
        blank = rem & blank_slots
        if blank:
            brem = rem ^ (blank & -blank)  # the rack after playing a blank
        if not next_need or placed >= in_rack and not next_tile:
            # the word cannot go on (the row ends, no letter fits the next
            # square, or the rack is used up): only letters that end it here
            if not keep:
                return
            allowed &= fin
            while allowed:
                low = allowed & -allowed
                allowed ^= low
                letter = low.bit_length() - 1
                if rem & slots[letter]:
                    p = points[letter] * lm
                    score = (main + p) * wmul + (cross + (cs + p) * w if cs >= 0 else cross) + bonus
                    append((at_row, at_col, down, word + (letter,), through, score))
                if blank:
                    score = main * wmul + (cross + cs * w if cs >= 0 else cross) + bonus
                    append((at_row, at_col, down, word + (letter | BLANK_FLAG,), through, score))
            return
        if next_tile or not keep:
            fin = 0  # the word runs on into the tile, or is not to be listed
        while allowed:
            low = allowed & -allowed
            allowed ^= low
            letter = low.bit_length() - 1
            child = edge[node + letter]
            further = dmask[child] & next_need
            if not further and not fin & low:
                continue  # the letter neither ends a word here nor leads on
            mine = rem & slots[letter]
            if mine:
                left = rem ^ (mine & -mine)
                p = points[letter] * lm
                longer = word + (letter,)
                ncross = cross + (cs + p) * w if cs >= 0 else cross
                if fin & low:
                    append((at_row, at_col, down, longer, through, (main + p) * wmul + ncross + bonus))
                if further and (next_tile or further & avail[left]):
                    extend(child, j, longer, main + p, wmul, ncross, placed, through, left)
            if blank:
                longer = word + (letter | BLANK_FLAG,)
                ncross = cross + cs * w if cs >= 0 else cross
                if fin & low:
                    append((at_row, at_col, down, longer, through, main * wmul + ncross + bonus))
                if further and (next_tile or further & avail[brem]):
                    extend(child, j, longer, main, wmul, ncross, placed, through, brem)

    for a in sorted(anchors):
        row_start = a - a % cols
        end = row_start + cols
        fits = cmask[a]
        # what must follow the anchor letter: a board tile, or a letter the next square allows
        after = need[a + 1] if a + 1 < end else 0
        run = _run_after(sq, a, end)
        after_tile = bool(run)
        leads: dict[int, int] = {}  # node -> what is known of its letters leading through `run`
        if after_tile:
            leads = through.setdefault(run, leads)
        if a > row_start and sq[a - 1] != EMPTY:
            prefix = _prefix_on_board(sq, row_start, a, dawg)
            if prefix is None:
                continue
            s, node = prefix
            can = dmask[node] & fits & avail[whole]
            if not can:
                continue
            if after_tile:
                known, new = _leads_known(dawg, leads, node, run, can)
                added += new
                if not can & known:
                    continue
            start = s
            at_row, at_col = divmod(s, cols)[::-1] if down else divmod(s, cols)
            extend(node, a, tuple(sq[s:a]), sum(points[t] for t in sq[s:a]), 1, 0, 0, (1 << (a - s)) - 1, whole)
            continue
        for k in range(min(_room_left(sq, a, row_start, anchors, in_rack - 1), len(lefts) - 1) + 1):
            start = a - k
            at_row, at_col = divmod(start, cols)[::-1] if down else divmod(start, cols)
            for can, group in lefts[k]:
                if not can & fits:
                    continue  # no rack tile can go on the anchor after these left parts
                want = can & fits
                for node, letters, rem, ends, next2 in group:
                    if not next2 & after and (after_tile or not ends & fits):
                        continue  # the word can neither end on the anchor nor go on past it
                    if after_tile:  # (`_leads_known`, written out: this runs for every left part)
                        known = leads.get(node, 0)
                        if want & ~(known >> stride):
                            added += not known
                            known = leads[node] = _leads_through(dawg, node, run, want, known)
                        if not want & known:
                            continue  # no letter on the anchor leads through the tiles after it
                    main = 0
                    wmul = 1
                    for n, t in enumerate(letters):
                        main += points[t] * LM[start + n]
                        wmul *= WM[start + n]
                    extend(node, a, letters, main, wmul, 0, k, 0, rem)
    # `extend` calls itself through its closure cell: empty the cell so the
    # search's memory goes back at once instead of waiting for the cyclic
    # collector (which would walk every left part of every rack searched)
    del extend
    return added


def _squares_ahead(sq: list[int], cols: int, LM: list[int], WM: list[int], cscore: list[int], need: list[int]
                   ) -> list[tuple[int, int, int, int, bool]]:
    """Per square, what the search reads when it puts a rack tile there, in one tuple: premiums, cross score, the
    letters the next square allows (NEED's) and whether it holds a tile (nothing and no tile past the end of the
    row)."""
    ahead = need[1:] + [0]
    tile_ahead = [t != EMPTY for t in sq[1:]] + [False]
    for last in range(cols - 1, len(sq), cols):
        ahead[last] = 0
        tile_ahead[last] = False
    return list(zip(LM, WM, cscore, ahead, tile_ahead))


def _run_after(sq: list[int], a: int, end: int) -> tuple[int, ...]:
    """The letters of the board tiles right after the anchor A, up to the first empty square or END."""
    i = a + 1
    while i < end and sq[i] != EMPTY:
        i += 1
    return tuple(t & LETTER_MASK for t in sq[a + 1:i])


def _prefix_on_board(sq: list[int], row_start: int, a: int, dawg: Dawg) -> tuple[int, int] | None:
    """Where the board tiles right before the anchor A begin and the DAWG node they lead to; None when they
    begin no word."""
    dmask, edge = dawg.mask, dawg.edge
    s = a - 1
    while s > row_start and sq[s - 1] != EMPTY:
        s -= 1
    node = 0
    for i in range(s, a):
        letter = sq[i] & LETTER_MASK
        if not dmask[node] >> letter & 1:
            return None
        node = edge[node + letter]
    return s, node


def _room_left(sq: list[int], a: int, row_start: int, anchors: set[int], most: int) -> int:
    """How many rack tiles a left part may put before the anchor A: the empty squares before it that are not
    anchors themselves (a word starting there is searched from that anchor), MOST at most."""
    room = 0
    i = a - 1
    while i >= row_start and sq[i] == EMPTY and i not in anchors and room < most:
        room += 1
        i -= 1
    return room


def _leads_known(dawg: Dawg, leads: dict[int, int], node: int, run: tuple[int, ...], want: int) -> tuple[int, int]:
    """What is known of NODE's letters leading through the board tiles RUN (`_leads_through`), walked for the
    letters WANT where not yet known and kept in LEADS; and 1 when LEADS gained an entry for NODE (else 0)."""
    known = leads.get(node, 0)
    if not want & ~(known >> dawg.letters):
        return known, 0
    leads[node] = _leads_through(dawg, node, run, want, known)
    return leads[node], int(not known)


LeftPart = tuple[int, tuple[int, ...], int, int, int]
#: left parts of one length, grouped by the letters the rack can put after them
LeftParts = list[tuple[int, list[LeftPart]]]


def _leads_through(dawg: Dawg, node: int, run: tuple[int, ...], want: int, known: int) -> int:
    """What is known of the letters after `node` that lead through the board
    tiles `run`, extended to the letters `want` (some of the node's letters).

    `known` packs the letters found to lead through in its low bits and the
    letters checked above them (`<< dawg.letters`). Only the letters a search
    asks about are walked (the rack's, or those the anchor allows): most
    nodes have many more, and most of those lead nowhere."""
    dmask, edge = dawg.mask, dawg.edge
    letters = want & ~(known >> dawg.letters)
    known |= letters << dawg.letters
    while letters:
        low = letters & -letters
        letters ^= low
        n = edge[node + low.bit_length() - 1]
        for t in run:
            if not dmask[n] >> t & 1:
                break
            n = edge[n + t]
        else:
            known |= low
    return known


def left_parts(rack_tiles: RackTiles, dawg: Dawg, longest: int) -> list[LeftParts]:
    """Every word start the rack can make, up to `longest` tiles, by length and
    grouped by the letters the rack can still put next: (DAWG node, tiles,
    rack slots left, letters that would end a word, letters that can come two
    steps on). Made once per rack and shared by every anchor instead of being
    searched again at each."""
    dmask, dfinal, edge = dawg.mask, dawg.final, dawg.edge
    slots, blank_slots, avail, whole = rack_tiles
    two_ahead = dawg.two_ahead
    # by length: letters the rack can put next -> the left parts after which it can
    by_length: list[dict[int, list[LeftPart]]] = [{} for _ in range(longest + 1)]
    can = dmask[0] & avail[whole]
    by_length[0][can] = [(0, (), whole, dfinal[0] & can, two_ahead[0])]

    def walk(node: int, rem: int, depth: int, letters: tuple[int, ...]) -> None:
        allowed = dmask[node] & avail[rem]
        deeper = depth + 1 < longest
        groups = by_length[depth + 1]
        blank = rem & blank_slots
        if blank:
            brem = rem ^ (blank & -blank)
        while allowed:
            low = allowed & -allowed
            allowed ^= low
            letter = low.bit_length() - 1
            child = edge[node + letter]
            mine = rem & slots[letter]
            if mine:
                left = rem ^ (mine & -mine)
                can = dmask[child] & avail[left]
                if can:  # else nothing can follow: no play starts with these tiles
                    more = letters + (letter,)
                    groups.setdefault(can, []).append((child, more, left, dfinal[child] & can, two_ahead[child]))
                    if deeper:
                        walk(child, left, depth + 1, more)
            if blank:
                can = dmask[child] & avail[brem]
                if can:
                    more = letters + (letter | BLANK_FLAG,)
                    groups.setdefault(can, []).append((child, more, brem, dfinal[child] & can, two_ahead[child]))
                    if deeper:
                        walk(child, brem, depth + 1, more)

    if longest:
        walk(0, whole, 0, ())
    del walk  # it calls itself through its closure cell: break that cycle (see _lines)
    return [list(groups.items()) for groups in by_length]
