"""A minimised word graph (DAWG) in flat integer arrays, for the move generator.

Built once per compiled lexicon from its word trie (tile codes) and cached
beside it in `lexicon.folder`, so later runs only read four arrays.

On disk (compact): node n has `mask[n]`, a bitmask of the letters (tile
indices) it has edges for, `final[n]`, the letters whose edge ends a word,
and its children in `child[first[n]:]` in letter order.

In memory (wide, for speed): a node is an offset, a multiple of the number
of letters, so the child for letter L is simply `edge[node + L]`, with no
bit counting in the generator's inner loop; `mask[node]` and `final[node]`
are lists indexed by the same offsets. Node 0 is the root. The wide form
costs about three list slots per letter per node (some 35 MB for ENABLE).
"""

from __future__ import annotations

import os
import struct
import tempfile
from array import array
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from lexitrain.tiles import TileSet

CACHE_NAME = "dawg-v1.bin"
_MAGIC = b"LXDAWG1\0"


@dataclass
class Dawg:
    mask: tuple[int, ...] = field(repr=False)
    final: tuple[int, ...] = field(repr=False)
    edge: tuple[int, ...] = field(repr=False)
    #: letters in the tile set: node offsets are multiples of it
    stride: int
    tiles: TileSet = field(repr=False)
    name: str = ""
    #: letters two steps on from a node (the union of its children's masks)
    two_ahead: tuple[int, ...] = field(default=(), repr=False, compare=False)
    #: memo for cross-checks: (letters above, letters below) -> letters between
    cross_cache: dict = field(default_factory=dict, repr=False, compare=False)
    #: memo for the move generator: run of board tiles -> {node: letters at the
    #: node that lead through the run}; the same runs come back position after position
    through_cache: dict = field(default_factory=dict, repr=False, compare=False)
    through_entries: int = field(default=0, repr=False, compare=False)

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

    def words(self) -> list[tuple[int, ...]]:
        """Every word as tile indices (for tests; walks the whole graph)."""
        out: list[tuple[int, ...]] = []

        def walk(node: int, prefix: tuple[int, ...]) -> None:
            m = self.mask[node]
            for letter in range(self.stride):
                if m >> letter & 1:
                    word = prefix + (letter,)
                    if self.final[node] >> letter & 1:
                        out.append(word)
                    walk(self.edge[node + letter], word)

        walk(0, ())
        return out


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
    number = {0: 0}
    order = [0]
    for old in order:  # breadth first; `order` grows as we go
        for target in edges[old].values():
            if target not in number:
                number[target] = len(order)
                order.append(target)
    mask = [0] * len(order)
    final = [0] * len(order)
    first = [0] * len(order)
    child: list[int] = []
    for new, old in enumerate(order):
        first[new] = len(child)
        for letter in sorted(edges[old]):
            target = edges[old][letter]
            mask[new] |= 1 << letter
            if finals[target]:
                final[new] |= 1 << letter
            child.append(number[target])
    return widen(mask, final, first, child, tiles, name)


def widen(
    mask: list[int], final: list[int], first: list[int], child: list[int], tiles: TileSet, name: str
) -> Dawg:
    """The in-memory form of the compact arrays (see the module docstring)."""
    stride = tiles.size
    size = len(mask) * stride
    wide_mask = [0] * size
    wide_final = [0] * size
    wide_mask[::stride] = mask
    wide_final[::stride] = final
    edge = [0] * size
    two_ahead = [0] * size
    for n, m in enumerate(mask):
        offset = n * stride
        k = first[n]
        ahead = 0
        letter = 0
        while m:
            if m & 1:
                target = child[k]
                edge[offset + letter] = target * stride
                ahead |= mask[target]
                k += 1
            m >>= 1
            letter += 1
        two_ahead[offset] = ahead
    # tuples of ints are untracked by the cyclic garbage collector, so its
    # full collections never walk these millions of slots
    return Dawg(tuple(wide_mask), tuple(wide_final), tuple(edge), stride, tiles, name, tuple(two_ahead))


def compact(dawg: Dawg) -> tuple[list[int], list[int], list[int], list[int]]:
    """(mask, final, first, child) by node number: the form written to disk."""
    stride = dawg.stride
    mask = list(dawg.mask[::stride])
    final = list(dawg.final[::stride])
    first: list[int] = []
    child: list[int] = []
    for n, m in enumerate(mask):
        first.append(len(child))
        offset = n * stride
        child.extend(dawg.edge[offset + letter] // stride for letter in range(stride) if m >> letter & 1)
    return mask, final, first, child


def dawg_from_codes(codes: Iterable[str], tiles: TileSet, name: str = "") -> Dawg:
    index = tiles.code_index
    return build((tuple(index(c) for c in code) for code in codes), tiles, name)


# -- cache ------------------------------------------------------------------------
def save(dawg: Dawg, path: Path) -> None:
    """Write atomically: a temporary file in the same folder, then rename."""
    mask, final, first, child = compact(dawg)
    arrays = [array("Q", mask), array("Q", final), array("I", first), array("I", child)]
    header = _MAGIC + struct.pack("<4Q", *(len(a) for a in arrays))
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
    if not data.startswith(_MAGIC) or len(data) < len(_MAGIC) + 32:
        return None
    sizes = struct.unpack_from("<4Q", data, len(_MAGIC))
    offset = len(_MAGIC) + 32
    out = []
    for size, code in zip(sizes, "QQII"):
        a = array(code)
        nbytes = size * a.itemsize
        a.frombytes(data[offset : offset + nbytes])
        if len(a) != size:
            return None
        offset += nbytes
        out.append(a.tolist())
    return widen(out[0], out[1], out[2], out[3], tiles, name)


_OPEN: dict[str, Dawg] = {}  # by compiled folder name, which is unique per build


def dawg_for(lexicon) -> Dawg:  # lexicon: lexitrain.lexicon.lexicon.Lexicon
    """The lexicon's DAWG: from memory, else the cache file, else built and cached."""
    path = Path(lexicon.folder) / CACHE_NAME
    dawg = _OPEN.get(path.parent.name)
    if dawg is None:
        dawg = load(path, lexicon.tiles, lexicon.name)
        if dawg is None:
            dawg = dawg_from_codes(lexicon.trie.keys(), lexicon.tiles, lexicon.name)
            try:
                save(dawg, path)
            except OSError:
                pass  # a read-only lexicon folder still works, only slower next time
        _OPEN[path.parent.name] = dawg
    return dawg
