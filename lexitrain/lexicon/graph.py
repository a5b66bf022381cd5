"""The lexicon's word graph (a minimal DAWG) for the move generator: one flat
array of 32-bit words, built by the compiler beside the tries and opened by
memory map, so a process holds no copy of its own and processes share it.

A node is the offset of its record of `letters + 3` words: `data[node]` is a
bitmask of the letters (tile indices) it has edges for, `data[node + 1]` the
letters whose edge ends a word, `data[node + 2]` the letters one step further
(the union of its children's masks) and `data[node + 3 + L]` the node after
letter L. Node 0 is the root. `mask`, `final`, `two_ahead` and `edge` are
views of the same memory shifted by 0..3 words, so the search reads
`edge[node + L]` with no arithmetic of its own.
"""

from __future__ import annotations

import mmap
import os
import struct
import tempfile
from array import array
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Iterable

from lexitrain.errors import LexitrainError
from lexitrain.implementation import PYTHON, chosen_implementation
from lexitrain.tiles import TileSet

try:
    from lexitrain.lexicon import _graph as compiled
except ImportError:  # built without a C compiler: graphs are built in Python
    compiled = None  # type: ignore[assignment]

FILE_NAME = "dawg-v3.bin"
_MAGIC = b"LXDAWG3\0"
#: magic, byte-order check, letters, item size, nodes (24 bytes, so the records are 8-aligned)
_HEADER = struct.Struct("=8sIIII")
_BYTE_ORDER = 0x01020304
#: between words in `word_bytes` (tile indices are below 128)
_SEPARATOR = 255
#: words before a node's edges: its mask, final letters and letters two steps on
FIELDS = 3


def typecode(letters: int) -> str:
    """The array type whose items hold a mask of `letters` bits."""
    if letters <= 32:
        return "I"
    if letters <= 64:
        return "Q"
    raise LexitrainError(f"a tile set of {letters} letters is too large for the move generator (at most 64)")


@dataclass(frozen=True, eq=False)
class Dawg:
    """The graph, never changed once built; two graphs are equal only if they
    are the same object, so one can key a dict without comparing the arrays."""

    #: the records, as a memoryview of unsigned ints (over an array or a mapped file)
    data: memoryview = field(repr=False)
    tiles: TileSet = field(repr=False)
    name: str = ""
    #: the mapped file the data lives in, if any (kept open as long as the graph)
    source: mmap.mmap | None = field(default=None, repr=False)

    @property
    def letters(self) -> int:
        """Letters in the tile set (the width of a mask)."""
        return self.tiles.size

    @property
    def record(self) -> int:
        """Words per node: node offsets are multiples of it."""
        return self.letters + FIELDS

    @cached_property
    def mask(self) -> memoryview:
        return self.data

    @cached_property
    def final(self) -> memoryview:
        return self.data[1:]

    @cached_property
    def two_ahead(self) -> memoryview:
        return self.data[2:]

    @cached_property
    def edge(self) -> memoryview:
        return self.data[FIELDS:]

    @property
    def nodes(self) -> int:
        return len(self.data) // self.record

    @property
    def edges(self) -> int:
        return sum(self.data[n].bit_count() for n in range(0, len(self.data), self.record))

    @property
    def nbytes(self) -> int:
        return self.data.nbytes

    def step(self, node: int, letter: int) -> int:
        """The node after `letter`, or -1 if no word continues that way."""
        if not self.data[node] >> letter & 1:
            return -1
        return self.data[node + FIELDS + letter]

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
        return bool(self.data[node + 1] >> seq[-1] & 1)

    def has_code(self, code: str) -> bool:
        """Same look-up on a code string (lets the validator use a Dawg)."""
        index = self.tiles.code_index
        try:
            return self.contains(index(c) for c in code)
        except KeyError:
            return False


def build(words: Iterable[bytes], tiles: TileSet, name: str = "") -> Dawg:
    """Minimal DAWG from words given as bytes of tile indices: compiled where
    it was built and `implementation.py` chooses it (`_graph.pyx`, the same
    algorithm), else in Python."""
    if chosen_implementation(compiled is not None) == PYTHON or tiles.size > compiled.LIMITS["letters"]:
        return build_in_python(words, tiles, name)
    return build_compiled(words, tiles, name)


def build_compiled(words: Iterable[bytes], tiles: TileSet, name: str = "") -> Dawg:
    if compiled is None:
        raise LexitrainError("the compiled graph builder is not built in this install (no C compiler?)")
    return Dawg(memoryview(compiled.build(sorted(set(words)), tiles.size)).cast("I"), tiles, name)


def build_in_python(words: Iterable[bytes], tiles: TileSet, name: str = "") -> Dawg:
    """Daciuk et al.'s incremental algorithm: sorted input, each finished
    suffix merged with an equal one already registered."""
    finals: list[bool] = [False]
    edges: list[dict[int, int]] = [{}]
    register: dict[tuple, int] = {}
    unchecked: list[tuple[int, int, int]] = []
    previous = b""

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
            new = len(edges)
            edges.append({})
            finals.append(False)
            edges[node][letter] = new
            unchecked.append((node, letter, new))
            node = new
        finals[node] = True
        previous = word
    minimise(0)
    return _lay_out(finals, edges, tiles, name)


def word_bytes(codes: Iterable[str], tiles: TileSet) -> list[bytes]:
    """Words given as tile codes, as bytes of tile indices (translated in one go)."""
    table = {ord(code): index for index, code in enumerate(tiles.codes)}
    table[ord("\n")] = _SEPARATOR
    text = "\n".join(codes)
    return text.translate(table).encode("latin-1").split(bytes([_SEPARATOR])) if text else []


def _lay_out(finals: list[bool], edges: list[dict[int, int]], tiles: TileSet, name: str) -> Dawg:
    """Number the nodes breadth first and write their records."""
    letters = tiles.size
    record = letters + FIELDS
    number = {0: 0}
    order = [0]
    for old in order:  # `order` grows as we go
        for target in edges[old].values():
            if target not in number:
                number[target] = len(order) * record
                order.append(target)
    code = typecode(letters)
    data = array(code, bytes(len(order) * record * array(code).itemsize))
    masks: list[int] = []
    final_masks: list[int] = []
    for new, old in enumerate(order):
        at = new * record + FIELDS
        mask = final = 0
        for letter, target in edges[old].items():
            bit = 1 << letter
            mask |= bit
            if finals[target]:
                final |= bit
            data[at + letter] = number[target]
        masks.append(mask)
        final_masks.append(final)
    ahead = [0] * len(order)
    for new, old in enumerate(order):
        for target in edges[old].values():
            ahead[new] |= masks[number[target] // record]
    data[0::record] = array(code, masks)
    data[1::record] = array(code, final_masks)
    data[2::record] = array(code, ahead)
    return Dawg(memoryview(data), tiles, name)


def from_codes(codes: Iterable[str], tiles: TileSet, name: str = "") -> Dawg:
    """The graph of words given as tile-code strings."""
    return build(word_bytes(codes, tiles), tiles, name)


def save(dawg: Dawg, path: Path) -> None:
    """Write atomically: a temporary file in the same folder, then rename (a
    process that has the old file mapped keeps reading the old one)."""
    header = _HEADER.pack(_MAGIC, _BYTE_ORDER, dawg.letters, dawg.data.itemsize, dawg.nodes)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".dawg-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(header)
            fh.write(dawg.data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load(path: Path, tiles: TileSet, name: str = "") -> Dawg | None:
    """Map a saved graph; None if absent, damaged, or written by a machine of
    another byte order or by another version."""
    try:
        with open(path, "rb") as fh:
            mapped = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):  # ValueError: an empty file cannot be mapped
        return None
    if len(mapped) < _HEADER.size:
        return None
    magic, order, letters, itemsize, nodes = _HEADER.unpack_from(mapped)
    if letters != tiles.size:
        return None
    code = typecode(letters)
    size = nodes * (letters + FIELDS) * itemsize
    if (magic, order, itemsize) != (_MAGIC, _BYTE_ORDER, array(code).itemsize) or not nodes \
            or len(mapped) != _HEADER.size + size:
        return None
    data = memoryview(mapped)[_HEADER.size:].cast(code)  # type: ignore[call-overload]  # typeshed wants a literal
    return Dawg(data, tiles, name, mapped)

