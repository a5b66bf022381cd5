"""Every legal play for a board and a rack, each once, with its score.

Appel & Jacobson's algorithm over a DAWG, row by row: at each anchor (an
empty square next to a tile, or the centre on an empty board) a left part is
either the tiles already there or built from the rack over free squares, then
the word is extended rightwards through board tiles and rack tiles allowed by
the cross-checks. Scores are summed while searching. Down plays are across
plays of the transposed board. A one-tile play that makes words both ways is
listed once, as across.
"""

from __future__ import annotations

from functools import lru_cache

from lexitrain.engine.board import BLANK_FLAG, EMPTY, LETTER_MASK, Board
from lexitrain.engine.crosschecks import cross_checks
from lexitrain.engine.dawg import Dawg
from lexitrain.engine.play import Play
from lexitrain.engine.rules import RACK_SIZE
from lexitrain.errors import LexitrainError
from lexitrain.layouts import PREMIUMS, BoardLayout
from lexitrain.tiles import BLANK, TileSet

Found = tuple[int, int, int, bool, tuple[int, ...], int]  # score, row, col, down, letters, through


def parse_rack(tiles: TileSet, rack: str) -> tuple[list[int], int]:
    """Rack text -> (count per tile index, number of blanks)."""
    counts = [0] * tiles.size
    blanks = 0
    try:
        parts = tiles.tokenize(rack)
    except ValueError as exc:
        raise LexitrainError(f"bad rack {rack!r}: {exc}") from None
    for tile in parts:
        if tile == BLANK:
            blanks += 1
        else:
            counts[tiles.index(tile.upper())] += 1
    return counts, blanks


@lru_cache(maxsize=16)
def _premiums(layout: BoardLayout, transposed: bool) -> tuple[list[int], list[int]]:
    rows, cols = layout.rows, layout.cols
    grid = layout.premiums
    if transposed:
        cells = [grid[r][c] for c in range(cols) for r in range(rows)]
    else:
        cells = [p for row in grid for p in row]
    return [PREMIUMS[p][0] for p in cells], [PREMIUMS[p][1] for p in cells]


def generate_plays(board: Board, rack: str, dawg: Dawg) -> list[Play]:
    """All legal plays, best score first (ties in board order)."""
    found = find_plays(board, rack, dawg)
    found.sort(key=lambda f: (-f[0], f[3], f[1], f[2], f[4]))
    return [Play(row, col, down, letters, through, score) for score, row, col, down, letters, through in found]


def find_plays(board: Board, rack: str, dawg: Dawg) -> list[Found]:
    """The raw, unsorted list of plays as tuples (fast path for search)."""
    tiles = board.tiles
    counts, blanks = parse_rack(tiles, rack)
    if sum(counts) + blanks == 0:
        return []
    points = _tile_points(tiles)
    rows, cols = board.rows, board.cols
    out: list[Found] = []
    bingo = board.layout.bingo_bonus
    squares = board.squares
    if all(s == EMPTY for s in squares):
        centre = board.layout.center
        anchors = {centre[0] * cols + centre[1]}
        lm, wm = _premiums(board.layout, False)
        _lines(squares, rows, cols, lm, wm, anchors, counts, blanks, dawg, points, bingo, False, out)
        return out
    lm, wm = _premiums(board.layout, False)
    _lines(squares, rows, cols, lm, wm, None, counts, blanks, dawg, points, bingo, False, out)
    flipped = [squares[r * cols + c] for c in range(cols) for r in range(rows)]
    lm, wm = _premiums(board.layout, True)
    _lines(flipped, cols, rows, lm, wm, None, counts, blanks, dawg, points, bingo, True, out)
    return out


@lru_cache(maxsize=16)
def _tile_points_cached(points: tuple[int, ...]) -> tuple[int, ...]:
    table = [0] * (2 * BLANK_FLAG)
    for i, p in enumerate(points):
        table[i] = p
    return tuple(table)


def _tile_points(tiles: TileSet) -> list[int]:
    """Points by tile number: index -> points, index | BLANK_FLAG -> 0."""
    return list(_tile_points_cached(tiles.points))


def _lines(
    sq: list[int],
    rows: int,
    cols: int,
    LM: list[int],
    WM: list[int],
    anchors: set[int] | None,
    rack: list[int],
    blanks: int,
    dawg: Dawg,
    points: list[int],
    bingo: int,
    down: bool,
    out: list[Found],
) -> None:
    """Across plays along each row of `sq` (the board, or its transpose)."""
    size = rows * cols
    if anchors is None:
        anchors = set()
        for i in range(size):
            if sq[i] == EMPTY:
                c = i % cols
                if (c > 0 and sq[i - 1] != EMPTY) or (c < cols - 1 and sq[i + 1] != EMPTY) or (
                    i >= cols and sq[i - cols] != EMPTY) or (i + cols < size and sq[i + cols] != EMPTY):
                    anchors.add(i)
        cmask, cscore = cross_checks(sq, rows, cols, dawg, points)
    else:
        full = (1 << dawg.tiles.size) - 1
        cmask, cscore = [full] * size, [-1] * size
    dmask, dfinal, dfirst, dchild = dawg.mask, dawg.final, dawg.first, dawg.child
    in_rack = sum(rack) + blanks
    word: list[int] = []
    spare = [blanks]  # blanks left, in a list so the nested functions can change it
    append = out.append

    def record(start: int, score: int, placed: int, through: int) -> None:
        if placed == RACK_SIZE:
            score += bingo
        r, c = divmod(start, cols)
        if down:
            if placed == 1 and cscore[start + (~through & (through + 1)).bit_length() - 1] >= 0:
                return  # a one-tile play that also makes an across word: listed as across
            append((score, c, r, True, tuple(word), through))
        else:
            append((score, r, c, False, tuple(word), through))

    def extend(node: int, i: int, end: int, start: int, main: int, wmul: int, cross: int, placed: int, through: int) -> None:
        """Continue the word at flat square i (its row ends before `end`)."""
        t = sq[i]
        if t != EMPTY:
            letter = t & LETTER_MASK
            m = dmask[node]
            if not m >> letter & 1:
                return
            word.append(t)
            through |= 1 << (i - start)
            main += points[t]
            j = i + 1
            if placed and (j == end or sq[j] == EMPTY) and dfinal[node] >> letter & 1:
                record(start, main * wmul + cross, placed, through)
            if j < end:
                extend(dchild[dfirst[node] + (m & ((1 << letter) - 1)).bit_count()], j, end, start, main, wmul, cross, placed, through)
            word.pop()
            return
        if placed == in_rack:
            return
        m = dmask[node]
        allowed = m & cmask[i]
        if not allowed:
            return
        lm = LM[i]
        w = WM[i]
        cs = cscore[i]
        j = i + 1
        closes = j == end or sq[j] == EMPTY
        goes_on = j < end
        fin = dfinal[node] if len(word) else 0  # a one-letter word is no word
        base = dfirst[node]
        wmul *= w
        placed += 1
        while allowed:
            low = allowed & -allowed
            allowed ^= low
            letter = low.bit_length() - 1
            child = -1
            if rack[letter]:
                rack[letter] -= 1
                p = points[letter] * lm
                word.append(letter)
                ncross = cross + (cs + p) * w if cs >= 0 else cross
                if closes and fin & low:
                    record(start, (main + p) * wmul + ncross, placed, through)
                if goes_on:
                    child = dchild[base + (m & (low - 1)).bit_count()]
                    extend(child, j, end, start, main + p, wmul, ncross, placed, through)
                word.pop()
                rack[letter] += 1
            if spare[0]:
                spare[0] -= 1
                word.append(letter | BLANK_FLAG)
                ncross = cross + cs * w if cs >= 0 else cross
                if closes and fin & low:
                    record(start, main * wmul + ncross, placed, through)
                if goes_on:
                    if child < 0:
                        child = dchild[base + (m & (low - 1)).bit_count()]
                    extend(child, j, end, start, main, wmul, ncross, placed, through)
                word.pop()
                spare[0] += 1

    def left(node: int, anchor: int, end: int, limit: int) -> None:
        """Try the current left part (in `word`), then longer ones from the rack."""
        k = len(word)
        start = anchor - k
        main = 0
        wmul = 1
        for n in range(k):
            t = word[n]
            main += points[t] * LM[start + n]
            wmul *= WM[start + n]
        extend(node, anchor, end, start, main, wmul, 0, k, 0)
        if not limit:
            return
        m = dmask[node]
        allowed = m
        base = dfirst[node]
        while allowed:
            low = allowed & -allowed
            allowed ^= low
            letter = low.bit_length() - 1
            if rack[letter]:
                rack[letter] -= 1
                word.append(letter)
                left(dchild[base + (m & (low - 1)).bit_count()], anchor, end, limit - 1)
                word.pop()
                rack[letter] += 1
            if spare[0]:
                spare[0] -= 1
                word.append(letter | BLANK_FLAG)
                left(dchild[base + (m & (low - 1)).bit_count()], anchor, end, limit - 1)
                word.pop()
                spare[0] += 1

    for a in sorted(anchors):
        row_start = a - a % cols
        end = row_start + cols
        if a > row_start and sq[a - 1] != EMPTY:
            s = a - 1
            while s > row_start and sq[s - 1] != EMPTY:
                s -= 1
            node = 0
            main = 0
            for i in range(s, a - 1):
                letter = sq[i] & LETTER_MASK
                m = dmask[node]
                if not m >> letter & 1:
                    node = -1
                    break
                node = dchild[dfirst[node] + (m & ((1 << letter) - 1)).bit_count()]
            if node < 0:
                continue
            # the last fixed tile is walked by extend() so its word-end check is shared
            word.clear()
            for i in range(s, a - 1):
                word.append(sq[i])
                main += points[sq[i]]
            extend(node, a - 1, end, s, main, 1, 0, 0, (1 << (a - 1 - s)) - 1)
            word.clear()
        else:
            limit = 0
            i = a - 1
            while i >= row_start and sq[i] == EMPTY and i not in anchors and limit < in_rack - 1:
                limit += 1
                i -= 1
            word.clear()
            left(0, a, end, limit)
