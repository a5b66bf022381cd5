"""Exchanges: when the rules allow one, how many tiles the bag holds, and every distinct exchange of a rack.

A position (CGP) gives the board and the racks, not the bag: the tiles not
on the board nor on the mover's rack are *unseen*, and the opponent holds
seven of them (all of them when fewer are left; exactly their rack when the
CGP gives it). The rest are in the bag. Tournament rules allow an exchange
with 7 or more tiles in the bag.
"""

from __future__ import annotations

from itertools import product
from typing import Sequence

from lexitrain.engine.board import EMPTY, Board, is_blank, letter_of
from lexitrain.tiles import RACK_SIZE, Rack

#: tiles needed in the bag to exchange, by the tournament rule
EXCHANGE_LIMIT = 7


def unseen_tiles(board: Board, rack: Rack) -> Rack:
    """The tiles of the set that are neither on the board nor on the rack
    (the bag and the opponent's rack together)."""
    tiles = board.tiles
    counts = list(tiles.counts)
    blanks = tiles.blanks
    for square in board.squares:
        if square == EMPTY:
            continue
        if is_blank(square):
            blanks -= 1
        else:
            counts[letter_of(square)] -= 1
    counts = [max(0, n - m) for n, m in zip(counts, rack.counts)]
    return Rack(tiles, tuple(counts), max(0, blanks - rack.blanks))


def tiles_in_bag(board: Board, racks: Sequence[str]) -> int:
    """Tiles in the bag for the player to move (`racks[0]`), the opponent
    holding their CGP rack when given, else seven of the unseen tiles."""
    tiles = board.tiles
    unseen = unseen_tiles(board, Rack.parse(tiles, racks[0] if racks else ""))
    opponent = racks[1] if len(racks) > 1 else ""
    held = Rack.parse(tiles, opponent).size if opponent else min(RACK_SIZE, unseen.size)
    return max(0, unseen.size - held)


def can_exchange(bag: int, limit: int = EXCHANGE_LIMIT) -> bool:
    """Whether the rules allow an exchange with `bag` tiles in the bag (limit 0: any time, with a tile to draw)."""
    return bag >= max(limit, 1)


def distinct_exchanges(rack: Rack) -> list[Rack]:
    """Every distinct set of tiles the rack can put back (one to all of them),
    fewest tiles first, then in tile-set order."""
    letters = [i for i, n in enumerate(rack.counts) if n]
    ranges = [range(rack.counts[i] + 1) for i in letters] + [range(rack.blanks + 1)]
    out = []
    for choice in product(*ranges):
        counts = [0] * len(rack.counts)
        for i, n in zip(letters, choice):
            counts[i] = n
        given = Rack(rack.tiles, tuple(counts), choice[-1])
        if given.size:
            out.append(given)
    out.sort(key=exchange_order)
    return out


def exchange_order(given: Rack) -> tuple[int, tuple[int, ...], int]:
    """Sort key of exchanges: fewest tiles first, then in tile-set order (A before B, blanks last)."""
    return (given.size, tuple(-n for n in given.counts), -given.blanks)


def kept_after(rack: Rack, given: Rack) -> Rack:
    """The tiles left on the rack after putting `given` back."""
    return Rack(rack.tiles, tuple(n - m for n, m in zip(rack.counts, given.counts)), rack.blanks - given.blanks)
