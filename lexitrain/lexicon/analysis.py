"""What a word list's words are made of, worked out for every word at once.

The compiler needs, per word, its alphagram, hooks and ranks, and per
alphagram its tile counts and combinations. Done word by word in Python
that was most of a build; here the words become one matrix of tile indices
(a row per word) and numpy does each step for all rows together. Rows are
compared as bytes of `index + 1` (0 past a word's end), which sort as the
words do in dictionary (tile-set) order.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from lexitrain.lexicon.probability import combinations, rank_order, ranks
from lexitrain.tiles import TileSet

#: a cell past the end of a word in the tile matrix (sorts after every tile index;
#: plus one, it wraps round to 0, which sorts first)
_PAD = 255


@dataclass
class Analysis:
    """Everything computed about a word list before anything is written.

    Alphagrams are numbered in dictionary order; each alphagram-sized array
    is in that order, each word-sized one in the order of `codes`."""

    codes: list[str]  # word codes in dictionary order
    alph_of: list[str]  # alphagram code of each word
    alphagrams: list[str]  # distinct alphagram codes, in dictionary order
    word_alph: np.ndarray  # alphagram number of each word
    combos: np.ndarray  # (alphagrams, 3) exact combinations
    alph_rank: list[np.ndarray]  # per alphagram, 0/1/2 blanks
    word_rank: list[np.ndarray]  # per word, 0/1/2 blanks
    points: np.ndarray  # per alphagram
    vowels: np.ndarray  # per alphagram
    anagrams: np.ndarray  # per alphagram
    lengths: np.ndarray  # per alphagram
    word_lengths: np.ndarray  # per word, in tiles
    front_hooks: list[str]  # per word: tiles that make a word in front, in tile order
    back_hooks: list[str]  # per word: tiles that make a word behind
    inner_front: np.ndarray  # per word: 1 if it is a word without its first tile
    inner_back: np.ndarray  # per word: 1 if it is a word without its last tile


def analyse(codes: list[str], tiles: TileSet) -> Analysis:
    """Analyse distinct word codes given in dictionary order (`tiles.sort_key` order)."""
    n = len(codes)
    matrix, word_lengths = tile_matrix(codes, tiles)
    by_tile = np.sort(matrix, axis=1)  # each word's alphagram, padding last
    alph_rows, word_alph = _distinct_rows(by_tile)
    alphagrams = _strings(alph_rows, tiles)
    counts = _tile_counts(alph_rows, tiles.size)
    combos = combinations(alphagrams, tiles, counts)
    lengths = counts.sum(axis=1)
    m = len(alphagrams)
    anagrams = np.bincount(word_alph, minlength=m)
    orders = [rank_order(lengths, combos[:, b]) for b in range(3)]
    within = _place_among_anagrams(word_alph, anagrams)
    vowel_mask = np.array([tiles.is_vowel(t) for t in tiles.letters], dtype=np.int64)
    found_front, front_of = _find(_keys(_drop_first(matrix)), matrix)
    found_back, back_of = _find(_keys(_drop_last(matrix, word_lengths)), matrix)
    first = matrix[:, 0]
    last = matrix[np.arange(n), word_lengths - 1]
    return Analysis(
        codes=codes,
        alph_of=np.array(alphagrams, dtype=object)[word_alph].tolist(),  # one string per alphagram, shared
        alphagrams=alphagrams,
        word_alph=word_alph,
        combos=combos,
        alph_rank=[ranks(lengths, order) for order in orders],
        word_rank=[_word_ranks(order, lengths, anagrams, word_alph, within) for order in orders],
        points=counts @ np.array(tiles.points, dtype=np.int64),
        vowels=counts @ vowel_mask,
        anagrams=anagrams,
        lengths=lengths,
        word_lengths=word_lengths,
        front_hooks=_hook_strings(front_of[found_front], first[found_front], n, tiles),
        back_hooks=_hook_strings(back_of[found_back], last[found_back], n, tiles),
        inner_front=found_front.astype(np.int64),
        inner_back=found_back.astype(np.int64),
    )


def tile_matrix(codes: list[str], tiles: TileSet) -> tuple[np.ndarray, np.ndarray]:
    """(words x longest) uint8 tile indices, padded past each word's end; and the lengths."""
    n = len(codes)
    lengths = np.fromiter(map(len, codes), dtype=np.int64, count=n)
    table = {ord(code): index for index, code in enumerate(tiles.codes)}
    flat = np.frombuffer("".join(codes).translate(table).encode("latin-1"), dtype=np.uint8)
    width = int(lengths.max(initial=1))
    matrix = np.full((n, width), _PAD, dtype=np.uint8)
    matrix[np.arange(width) < lengths[:, None]] = flat  # row by row, each word's cells in turn
    return matrix, lengths


def _keys(matrix: np.ndarray) -> np.ndarray:
    """Each row as bytes of `index + 1` (0 past its end): these sort as the words do."""
    keys = matrix + np.uint8(1)  # _PAD + 1 wraps round to 0
    return np.ascontiguousarray(keys).view(f"S{max(matrix.shape[1], 1)}")[:, 0]


def _distinct_rows(by_tile: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows in dictionary order, and each row's number among them."""
    distinct, number = np.unique(_keys(by_tile), return_inverse=True)
    rows = distinct.view(np.uint8).reshape(len(distinct), -1)
    return rows - np.uint8(1), number.reshape(-1).astype(np.int64)  # 0 - 1 wraps round to _PAD


def _strings(matrix: np.ndarray, tiles: TileSet) -> list[str]:
    """Rows of tile indices as code strings."""
    points = np.zeros(256, dtype=np.uint32)
    points[: tiles.size] = [ord(code) for code in tiles.codes]
    cells = np.ascontiguousarray(points[matrix])
    return cells.view(f"U{max(matrix.shape[1], 1)}")[:, 0].tolist()  # numpy drops the trailing zeros


def _tile_counts(matrix: np.ndarray, size: int) -> np.ndarray:
    """(rows x tiles) matrix of how many of each tile a row holds, laid out by
    column (the combinations are worked out a tile at a time)."""
    row, column = np.nonzero(matrix != _PAD)
    rows = len(matrix)
    flat = np.bincount(matrix[row, column].astype(np.int64) * rows + row, minlength=rows * size)
    return flat.reshape(size, rows).T


def _place_among_anagrams(word_alph: np.ndarray, anagrams: np.ndarray) -> np.ndarray:
    """Each word's place (from 0) among the words of its alphagram, in dictionary order."""
    order = np.argsort(word_alph, kind="stable")
    first = np.cumsum(anagrams) - anagrams
    place = np.empty(len(word_alph), dtype=np.int64)
    place[order] = np.arange(len(order)) - first[word_alph[order]]
    return place


def _word_ranks(
    alph_order: np.ndarray, lengths: np.ndarray, anagrams: np.ndarray, word_alph: np.ndarray, place: np.ndarray
) -> np.ndarray:
    """Per-word ranks from the alphagrams' rank order: words rank as their alphagrams do,
    an alphagram's words in dictionary order, so a word's rank is the words of its length
    in alphagrams ranked above its own, plus its place among its anagrams, plus one."""
    words = anagrams[alph_order]
    ahead = np.cumsum(words) - words  # words in alphagrams ranked above, any length
    in_order = lengths[alph_order]
    ahead -= ahead[np.searchsorted(in_order, in_order, side="left")]  # ... of this length only
    above = np.empty(len(alph_order), dtype=np.int64)
    above[alph_order] = ahead
    return above[word_alph] + place + 1


def _drop_first(matrix: np.ndarray) -> np.ndarray:
    shorter = np.full_like(matrix, _PAD)
    shorter[:, :-1] = matrix[:, 1:]
    return shorter


def _drop_last(matrix: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    shorter = matrix.copy()
    shorter[np.arange(len(matrix)), lengths - 1] = _PAD
    return shorter


def _find(queries: np.ndarray, matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Which query keys are words (rows of `matrix`, in dictionary order), and their rows."""
    words = _keys(matrix)
    at = np.minimum(np.searchsorted(words, queries), len(words) - 1)
    return words[at] == queries, at


def _hook_strings(word: np.ndarray, tile: np.ndarray, n: int, tiles: TileSet) -> list[str]:
    """Per word, the tiles of its hooks joined in tile order, given (word, tile) pairs
    listed in dictionary order of the longer words (so each word's tiles come in order)."""
    order = np.argsort(word, kind="stable")
    word, tile = word[order], tile[order]
    starts = np.searchsorted(word, word)
    hooks = np.full((n, tiles.size), _PAD, dtype=np.uint8)
    hooks[word, np.arange(len(word)) - starts] = tile
    return _strings(hooks, tiles)
