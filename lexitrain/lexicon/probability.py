"""Combinations and probability ranks, by the players' (Zyzzyva's) formula.

For a word of n tiles and b blanks allowed, the combinations are the distinct
n-tile draws from the full bag that can spell it using up to b of the bag's
blanks. Per alphagram that is sum over k <= b of C(B, k) * P_k, where P_k sums,
over every multiset of k of the word's tiles played by blanks, the product of
C(bag_t, count_t - blanked_t). P_0..P_2 are the coefficients of the product,
over the word's tiles, of the polynomials sum_j C(bag_t, count_t - j) x^j,
which is what `combinations` multiplies out, vectorised over all alphagrams.
"""

from __future__ import annotations

from math import comb

import numpy as np

from lexitrain.tiles import TileSet

MAX_BLANKS = 2
_SAFE = float(2**62)


def tile_counts(alphagram_codes: list[str], tiles: TileSet) -> np.ndarray:
    """Matrix (alphagram x tile) of how many of each tile an alphagram holds."""
    n = len(alphagram_codes)
    joined = "".join(alphagram_codes)
    points = np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32)
    lookup = np.full(int(points.max(initial=0)) + 1, -1, dtype=np.int64)
    for i, code in enumerate(tiles.codes):
        if ord(code) < len(lookup):
            lookup[ord(code)] = i
    tile_index = lookup[points]
    lengths = np.fromiter((len(a) for a in alphagram_codes), dtype=np.int64, count=n)
    rows = np.repeat(np.arange(n, dtype=np.int64), lengths)
    flat = np.bincount(rows * tiles.size + tile_index, minlength=n * tiles.size)
    return flat.reshape(n, tiles.size)


def _exact_row(counts: np.ndarray, tiles: TileSet) -> list[int]:
    poly = [1, 0, 0]
    for t, c in enumerate(counts.tolist()):
        if c:
            bag = tiles.counts[t]
            f = [comb(bag, c - j) if c >= j else 0 for j in range(MAX_BLANKS + 1)]
            poly = [
                poly[0] * f[0],
                poly[0] * f[1] + poly[1] * f[0],
                poly[0] * f[2] + poly[1] * f[1] + poly[2] * f[0],
            ]
    return _with_blanks(poly, tiles.blanks)


def _with_blanks(poly: list[int], bag_blanks: int) -> list[int]:
    """[b0, b1, b2] from the blank-polynomial coefficients."""
    out, total = [], 0
    for k in range(MAX_BLANKS + 1):
        total += comb(bag_blanks, k) * poly[k]
        out.append(total)
    return out


def combinations(
    alphagram_codes: list[str], tiles: TileSet, counts: np.ndarray | None = None
) -> np.ndarray:
    """Exact combinations, shape (alphagrams, 3): columns b0, b1, b2.

    int64 when every value fits (always, for 100-tile sets); otherwise an
    object array of Python integers, so the figures stay exact.
    `counts` may pass in an already computed `tile_counts` matrix.
    """
    if counts is None:
        counts = tile_counts(alphagram_codes, tiles)
    n = len(alphagram_codes)
    if n == 0:
        return np.zeros((0, 3), dtype=np.int64)
    max_count = int(counts.max()) + 1
    # factor[j][t][c] = C(bag_t, c - j)
    factor = np.zeros((MAX_BLANKS + 1, tiles.size, max_count), dtype=np.int64)
    for t, bag in enumerate(tiles.counts):
        for c in range(max_count):
            for j in range(MAX_BLANKS + 1):
                if c >= j:
                    factor[j, t, c] = comb(bag, c - j)
    shadow = not _fits_int64(tiles, int(counts.sum(axis=1).max()))
    p0, p1, p2 = np.ones(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64)
    q0, q1, q2 = np.ones(n), np.zeros(n), np.zeros(n)  # float shadow to catch overflow
    for t in range(tiles.size):
        col = counts[:, t]
        if not col.any():
            continue
        a0, a1, a2 = factor[0, t][col], factor[1, t][col], factor[2, t][col]
        p0, p1, p2 = p0 * a0, p0 * a1 + p1 * a0, p0 * a2 + p1 * a1 + p2 * a0
        if shadow:
            f0, f1, f2 = a0.astype(float), a1.astype(float), a2.astype(float)
            q0, q1, q2 = q0 * f0, q0 * f1 + q1 * f0, q0 * f2 + q1 * f1 + q2 * f0
    c1, c2 = comb(tiles.blanks, 1), comb(tiles.blanks, 2)
    b1 = p0 + c1 * p1
    result = np.stack([p0, b1, b1 + c2 * p2], axis=1)
    too_big = np.flatnonzero((q0 + c1 * q1 + c2 * q2) > _SAFE) if shadow else np.zeros(0, dtype=np.int64)
    if len(too_big):
        result = result.astype(object)
        for i in too_big.tolist():
            result[i] = _exact_row(counts[i], tiles)
    return result


def _fits_int64(tiles: TileSet, longest: int) -> bool:
    """Can no figure for words of up to `longest` tiles overflow int64? Every figure
    met on the way (each a count of distinct draws of at most `longest` tiles from
    the bag) is at most C(tiles in the bag, k) for some k <= longest."""
    bag = sum(tiles.counts) + tiles.blanks
    return max(comb(bag, k) for k in range(longest + 1)) < _SAFE


def rank_order(lengths: np.ndarray, combos: np.ndarray) -> np.ndarray:
    """Items listed in their tie order (alphagram, then word) put in rank order:
    by length, most combinations first, ties as listed.

    Exact: combinations held as Python integers are ordered as integers.
    """
    if combos.dtype == object:
        position = {c: i for i, c in enumerate(sorted(set(combos.tolist())))}
        key = -np.array([position[c] for c in combos.tolist()], dtype=np.int64)
    else:
        key = -combos
    by_combos = np.argsort(key, kind="stable")
    return by_combos[np.argsort(lengths[by_combos].astype(np.int16), kind="stable")]  # int16: a radix sort


def ranks(lengths: np.ndarray, order: np.ndarray) -> np.ndarray:
    """1-based rank within each length of items in rank order `order`."""
    sorted_lengths = lengths[order]
    starts = np.searchsorted(sorted_lengths, sorted_lengths, side="left")
    result = np.empty(len(order), dtype=np.int64)
    result[order] = np.arange(len(order)) - starts + 1
    return result
