"""Cross-checks: which letters may go on each empty square of a line.

For across plays, an empty square with tiles above or below it may only take
a letter that makes the column run a word; its cross score is the points of
those tiles (-1 when it has none, i.e. no cross word is formed). Sets are
bitmasks over tile indices, so the generator intersects them with one `&`.
The letter sets depend only on the tiles above and below, so the caller
keeps a memo of them for its word graph (see `MoveGenerator`).
"""

from __future__ import annotations

from lexitrain.engine.board import EMPTY, LETTER_MASK
from lexitrain.engine.dawg import Dawg


#: memo of cross-checks: (letters above, letters below) -> the letters between
CrossMemo = dict[tuple[tuple[int, ...], tuple[int, ...]], int]


def cross_checks(
    squares: list[int], rows: int, cols: int, dawg: Dawg, points: list[int], memo: CrossMemo, limit: int
) -> tuple[list[int], list[int]]:
    """(masks, scores) per square for plays along the rows of `squares`.

    `points[tile]` is the value of a placed tile number (0 for blanks);
    `memo` (for this graph) starts again once it holds `limit` entries.
    """
    size = rows * cols
    full = (1 << dawg.tiles.size) - 1
    masks = [full] * size
    scores = [-1] * size
    # the empty squares just above or below a tile
    between: set[int] = set()
    for k in [k for k, t in enumerate(squares) if t != EMPTY]:
        if k >= cols and squares[k - cols] == EMPTY:
            between.add(k - cols)
        if k + cols < size and squares[k + cols] == EMPTY:
            between.add(k + cols)
    for i in between:
        j = i
        while j - cols >= 0 and squares[j - cols] != EMPTY:
            j -= cols
        up = [squares[k] for k in range(j, i, cols)]
        j = i + cols
        down: list[int] = []
        while j < size and squares[j] != EMPTY:
            down.append(squares[j])
            j += cols
        scores[i] = sum(points[t] for t in up) + sum(points[t] for t in down)
        key = (tuple(t & LETTER_MASK for t in up), tuple(t & LETTER_MASK for t in down))
        allowed = memo.get(key)
        if allowed is None:
            allowed = _letters_between(dawg, *key)
            if len(memo) >= limit:
                memo.clear()
            memo[key] = allowed
        masks[i] = allowed
    return masks, scores


def _letters_between(dawg: Dawg, up: tuple[int, ...], down: tuple[int, ...]) -> int:
    """Bitmask of letters L such that up + L + down is a word."""
    dmask, dfinal, edge = dawg.mask, dawg.final, dawg.edge
    node = 0
    for letter in up:
        if not dmask[node] >> letter & 1:
            return 0
        node = edge[node + letter]
    if not down:
        return dfinal[node]
    allowed = 0
    m = dmask[node]
    last = down[-1]
    rest = down[:-1]
    while m:
        low = m & -m
        m ^= low
        letter = low.bit_length() - 1
        n = edge[node + letter]
        for t in rest:
            if not dmask[n] >> t & 1:
                break
            n = edge[n + t]
        else:
            if dfinal[n] >> last & 1:
                allowed |= low
    return allowed
