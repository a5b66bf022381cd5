"""Cross-checks: which letters may go on each empty square of a line.

For across plays, an empty square with tiles above or below it may only take
a letter that makes the column run a word; its cross score is the points of
those tiles (-1 when it has none, i.e. no cross word is formed). Sets are
bitmasks over tile indices, so the generator intersects them with one `&`.
"""

from __future__ import annotations

from lexitrain.engine.board import EMPTY, LETTER_MASK
from lexitrain.engine.dawg import Dawg


def cross_checks(
    squares: list[int], rows: int, cols: int, dawg: Dawg, points: list[int]
) -> tuple[list[int], list[int]]:
    """(masks, scores) per square for plays along the rows of `squares`.

    `points[tile]` is the value of a placed tile number (0 for blanks).
    """
    size = rows * cols
    full = (1 << dawg.tiles.size) - 1
    masks = [full] * size
    scores = [-1] * size
    dmask, dfinal, dfirst, dchild = dawg.mask, dawg.final, dawg.first, dawg.child
    for i in range(size):
        if squares[i] != EMPTY:
            continue
        above = i - cols >= 0 and squares[i - cols] != EMPTY
        below = i + cols < size and squares[i + cols] != EMPTY
        if not (above or below):
            continue
        j = i
        while j - cols >= 0 and squares[j - cols] != EMPTY:
            j -= cols
        up = [squares[k] for k in range(j, i, cols)]
        j = i + cols
        down = []
        while j < size and squares[j] != EMPTY:
            down.append(squares[j])
            j += cols
        scores[i] = sum(points[t] for t in up) + sum(points[t] for t in down)
        node = 0
        for t in up:
            letter = t & LETTER_MASK
            m = dmask[node]
            if not m >> letter & 1:
                node = -1
                break
            node = dchild[dfirst[node] + (m & ((1 << letter) - 1)).bit_count()]
        allowed = 0
        if node >= 0:
            m = dmask[node]
            if not down:
                allowed = dfinal[node]
            else:
                tail = [t & LETTER_MASK for t in down]
                base = dfirst[node]
                letter = 0
                k = 0
                while m >> letter:
                    if m >> letter & 1:
                        n = dchild[base + k]
                        k += 1
                        for t in tail[:-1]:
                            nm = dmask[n]
                            if not nm >> t & 1:
                                n = -1
                                break
                            n = dchild[dfirst[n] + (nm & ((1 << t) - 1)).bit_count()]
                        if n >= 0 and dfinal[n] >> tail[-1] & 1:
                            allowed |= 1 << letter
                    letter += 1
        masks[i] = allowed
    return masks, scores
