"""A minimised word graph (DAWG) in flat integer arrays, for the move generator.

Built once per compiled lexicon from its word trie (tile codes) and cached
beside it in `lexicon.folder`, so later runs only read five flat arrays.

A node is an offset, a multiple of the number of letters, so the child for
letter L is simply `edge[node + L]`, with no bit counting in the generator's
inner loop. `mask[node]` is a bitmask of the letters (tile indices) the node
has edges for, `final[node]` the letters whose edge ends a word. Node 0 is
the root. The wide tables cost four slots per letter per node (some 45 MB
for ENABLE); the cache file holds only the occupied slots (`WideArrays`).
"""

from __future__ import annotations

import os
import struct
import tempfile
from array import array
from collections import OrderedDict
from dataclasses import astuple, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from lexitrain.tiles import TileSet

if TYPE_CHECKING:
    from lexitrain.lexicon.lexicon import Lexicon

CACHE_NAME = "dawg-v2.bin"
_MAGIC = b"LXDAWG2\0"


@dataclass(frozen=True, eq=False)
class Dawg:
    """The graph, never changed once built (what searches learn of it is kept
    by their `MoveGenerator`); two graphs are equal only if they are the same
    object, so one can key a dict without hashing millions of slots."""

    mask: tuple[int, ...] = field(repr=False)
    final: tuple[int, ...] = field(repr=False)
    edge: tuple[int, ...] = field(repr=False)
    #: letters in the tile set: node offsets are multiples of it
    stride: int
    tiles: TileSet = field(repr=False)
    name: str = ""
    #: letters two steps on from a node (the union of its children's masks)
    two_ahead: tuple[int, ...] = field(default=(), repr=False)

    @property
    def nodes(self) -> int:
        return len(self.mask) // self.stride

    @property
    def edges(self) -> int:
        return sum(self.mask[n].bit_count() for n in range(0, len(self.mask), self.stride))

    def step(self, node: int, letter: int) -> int:
        """The node after `letter`, or -1 if no word continues that way."""
        if not self.mask[node] >> letter & 1:
            return -1
        return self.edge[node + letter]

    def contains(self, letters: Iterable[int]) -> bool:
        """Is this sequence of tile indices a word?"""
        seq = list(letters)
        if not seq:
            return False
        node = 0
        for letter in seq[:-1]:
            node = self.step(node, letter)
            if node < 0:
                return False
        return bool(self.final[node] >> seq[-1] & 1)

    def has_code(self, code: str) -> bool:
        """Same look-up on a code string (lets the validator use a Dawg)."""
        index = self.tiles.code_index
        try:
            return self.contains(index(c) for c in code)
        except KeyError:
            return False


def build(words: Iterable[tuple[int, ...]], tiles: TileSet, name: str = "") -> Dawg:
    """Minimal DAWG from words given as tile-index tuples (Daciuk et al.'s
    incremental algorithm: sorted input, each finished suffix merged with an
    equal one already registered)."""
    finals: list[bool] = [False]
    edges: list[dict[int, int]] = [{}]
    register: dict[tuple, int] = {}
    unchecked: list[tuple[int, int, int]] = []
    previous: tuple[int, ...] = ()

    def minimise(down_to: int) -> None:
        while len(unchecked) > down_to:
            parent, letter, node = unchecked.pop()
            key = (finals[node], tuple(edges[node].items()))
            same = register.get(key)
            if same is None:
                register[key] = node
            else:
                edges[parent][letter] = same

    for word in sorted(set(words)):
        common = 0
        for a, b in zip(word, previous):
            if a != b:
                break
            common += 1
        minimise(common)
        node = unchecked[-1][2] if unchecked else 0
        for letter in word[common:]:
            edges.append({})
            finals.append(False)
            new = len(edges) - 1
            edges[node][letter] = new
            unchecked.append((node, letter, new))
            node = new
        finals[node] = True
        previous = word
    minimise(0)
    return _flatten(finals, edges, tiles, name)


def _flatten(finals: list[bool], edges: list[dict[int, int]], tiles: TileSet, name: str) -> Dawg:
    """Number the nodes breadth first and lay them out wide."""
    stride = tiles.size
    number = {0: 0}
    order = [0]
    for old in order:  # `order` grows as we go
        for target in edges[old].values():
            if target not in number:
                number[target] = len(order)
                order.append(target)
    mask = [0] * len(order)
    final = [0] * len(order)
    slots: list[int] = []
    targets: list[int] = []
    for new, old in enumerate(order):
        for letter, target in edges[old].items():
            mask[new] |= 1 << letter
            if finals[target]:
                final[new] |= 1 << letter
            slots.append(new * stride + letter)
            targets.append(number[target] * stride)
    ahead = [0] * len(order)
    for slot, target in zip(slots, targets):
        ahead[slot // stride] |= mask[target // stride]
    return _assemble(WideArrays(mask, final, ahead, slots, targets), tiles, name)


@dataclass
class WideArrays:
    """What the cache file holds: per node (by number) its letters, final
    letters and letters two steps on; per edge its slot in the wide table
    and the offset of the node it leads to. Widening these takes a few
    slice copies and one pass over the edges."""

    mask: list[int]
    final: list[int]
    two_ahead: list[int]
    slots: list[int]
    targets: list[int]


def _assemble(arrays: WideArrays, tiles: TileSet, name: str) -> Dawg:
    stride = tiles.size
    size = len(arrays.mask) * stride
    mask = [0] * size
    mask[::stride] = arrays.mask
    final = [0] * size
    final[::stride] = arrays.final
    ahead = [0] * size
    ahead[::stride] = arrays.two_ahead
    edge = [0] * size
    for slot, target in zip(arrays.slots, arrays.targets):
        edge[slot] = target
    # tuples of ints are untracked by the cyclic garbage collector, so its
    # full collections never walk these millions of slots
    return Dawg(tuple(mask), tuple(final), tuple(edge), stride, tiles, name, tuple(ahead))


def _narrow(dawg: Dawg) -> WideArrays:
    stride = dawg.stride
    slots = [n + letter for n in range(0, len(dawg.mask), stride) for letter in range(stride) if dawg.mask[n] >> letter & 1]
    return WideArrays(
        list(dawg.mask[::stride]), list(dawg.final[::stride]), list(dawg.two_ahead[::stride]),
        slots, [dawg.edge[slot] for slot in slots],
    )


def dawg_from_codes(codes: Iterable[str], tiles: TileSet, name: str = "") -> Dawg:
    index = tiles.code_index
    return build((tuple(index(c) for c in code) for code in codes), tiles, name)


# -- cache ------------------------------------------------------------------------
_TYPECODES = "QQQII"  # WideArrays' fields in order


def save(dawg: Dawg, path: Path) -> None:
    """Write atomically: a temporary file in the same folder, then rename."""
    wide = _narrow(dawg)
    arrays = [array(code, values) for code, values in zip(_TYPECODES, astuple(wide))]
    header = _MAGIC + struct.pack(f"<{len(arrays)}Q", *(len(a) for a in arrays))
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".dawg-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(header)
            for a in arrays:
                fh.write(a.tobytes())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load(path: Path, tiles: TileSet, name: str = "") -> Dawg | None:
    """Read a cached DAWG; None if absent or not in this format."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    count = len(_TYPECODES)
    offset = len(_MAGIC) + 8 * count
    if not data.startswith(_MAGIC) or len(data) < offset:
        return None
    sizes = struct.unpack_from(f"<{count}Q", data, len(_MAGIC))
    out = []
    for size, code in zip(sizes, _TYPECODES):
        a = array(code)
        nbytes = size * a.itemsize
        a.frombytes(data[offset : offset + nbytes])
        if len(a) != size:
            return None
        offset += nbytes
        out.append(a.tolist())
    return _assemble(WideArrays(*out), tiles, name)


#: graphs open in this process, most recently used last, by compiled folder
#: name (unique per build); a process rarely needs more than two lexicons at
#: once, and each graph takes some 45 MB
_OPEN: OrderedDict[str, Dawg] = OrderedDict()
OPEN_LIMIT = 2


def dawg_for(lexicon: Lexicon) -> Dawg:
    """The lexicon's DAWG: from memory, else the cache file, else built and cached."""
    path = Path(lexicon.folder) / CACHE_NAME
    key = path.parent.name
    dawg = _OPEN.get(key)
    if dawg is None:
        dawg = load(path, lexicon.tiles, lexicon.name)
        if dawg is None:
            dawg = dawg_from_codes(lexicon.trie.keys(), lexicon.tiles, lexicon.name)
            try:
                save(dawg, path)
                for old in path.parent.glob("dawg-v*.bin"):  # a cache an older version wrote
                    if old != path:
                        old.unlink()
            except OSError:
                pass  # a read-only lexicon folder still works, only slower next time
        _OPEN[key] = dawg
        while len(_OPEN) > OPEN_LIMIT:
            _OPEN.popitem(last=False)
    _OPEN.move_to_end(key)
    return dawg
