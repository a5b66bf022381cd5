"""The exhaustive leave table: a value for every leave of 1 to 6 tiles.

As Macondo and wolges value leaves: one figure per multiset of tiles kept
(some 900,000 for the English tiles), learned by self-play
(`scripts/train_leave_table.py`, see docs/engine.md), instead of a sum of
feature weights. A leave the training games met rarely leans on the
40-feature model (`leave.py`), which also values what the table does not
hold (the seven tiles of a pass). Values are stored in hundredths of a
point, as int16, in `lexicons/leaves/<tiles>.npz`; the compiled best-move
search (`_movegen.best`) reads the same array.

Leaves are numbered by size, then by the count of each tile in set order
(blank last), fewest first; `ways[t][s]`, the number of leaves of `s`
tiles made of the tiles from `t` on, turns counts into that number and back.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Sequence

from lexitrain.engine.leave import MEMO_LIMIT, LeaveModel, LeaveValues, leaves_dir, load_leave_model
from lexitrain.errors import LexitrainError
from lexitrain.tiles import TileSet

if TYPE_CHECKING:
    import numpy as np

#: the longest leave the table holds (a rack of 7 keeps at most 6 after a play or an exchange)
LONGEST = 6


def table_path(tiles: TileSet) -> Path:
    return leaves_dir() / f"{tiles.name}.npz"


def tile_caps(tiles: TileSet) -> list[int]:
    """How many of each tile a leave can hold: the set's count (blanks last), at most LONGEST."""
    return [min(n, LONGEST) for n in (*tiles.counts, tiles.blanks)]


def leave_ways(tiles: TileSet) -> list[int]:
    """`ways[t * (LONGEST + 1) + s]`: leaves of `s` tiles made of the tiles from number `t` on."""
    caps = tile_caps(tiles)
    width = LONGEST + 1
    ways = [0] * ((len(caps) + 1) * width)
    ways[len(caps) * width] = 1
    for t in range(len(caps) - 1, -1, -1):
        for s in range(width):
            ways[t * width + s] = sum(ways[(t + 1) * width + s - v] for v in range(min(caps[t], s) + 1))
    return ways


def leave_index(ways: Sequence[int], counts: Sequence[int], blanks: int) -> int:
    """A leave's place in the table (the C twin is `_movegen._leave_index`)."""
    width = LONGEST + 1
    kept = (*counts, blanks)
    size = sum(kept)
    index = sum(ways[s] for s in range(size))
    left = size
    for t, n in enumerate(kept):
        for v in range(n):
            index += ways[(t + 1) * width + left - v]
        left -= n
    return index


def every_leave(tiles: TileSet) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every leave of 0 to LONGEST tiles as (counts, blanks), in table order."""
    caps = tile_caps(tiles)
    last = len(caps) - 1

    def fill(t: int, left: int, prefix: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        if t == last:
            if left <= caps[t]:
                yield prefix + (left,)
            return
        for v in range(min(caps[t], left) + 1):
            yield from fill(t + 1, left - v, prefix + (v,))

    for size in range(LONGEST + 1):
        for kept in fill(0, size, ()):
            yield kept[:-1], kept[-1]


@dataclass
class LeaveTable(LeaveValues):
    """Every leave's value (hundredths of a point, in table order); longer
    leaves are valued by `fallback`. `trained` says how it was made."""

    tiles: TileSet
    values: np.ndarray
    fallback: LeaveModel
    trained: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        import numpy as np

        self._memo: dict[bytes, float] = {}
        self.ways = np.array(leave_ways(self.tiles), dtype=np.int32)
        self._ways = self.ways.tolist()
        if len(self.values) != sum(self._ways[: LONGEST + 1]):
            raise LexitrainError(f"a leave table for the {self.tiles.name} tiles has {len(self.values)} entries, "
                                 f"not {sum(self._ways[: LONGEST + 1])}")

    def _value(self, counts: Sequence[int], blanks: int) -> float:
        key = bytes(counts) + bytes((blanks,))
        value = self._memo.get(key)
        if value is None:
            if sum(counts) + blanks > LONGEST:
                value = self.fallback._value(counts, blanks)
            else:
                value = int(self.values[leave_index(self._ways, counts, blanks)]) / 100
            if len(self._memo) >= MEMO_LIMIT:
                self._memo.clear()
            self._memo[key] = value
        return value

    def hundredths(self, counts: Sequence[int], blanks: int) -> int:
        """A leave's value in hundredths of a point (what the compiled search adds)."""
        return round(self._value(counts, blanks) * 100)

    @staticmethod
    def from_model(model: LeaveModel) -> LeaveTable:
        """The table the model gives: every leave valued by its features."""
        import numpy as np

        values = [round(model._value(counts, blanks) * 100) for counts, blanks in every_leave(model.tiles)]
        return LeaveTable(model.tiles, np.array(values, dtype=np.int16), model, {"from": "the 40-feature model"})

    def save(self, path: Path) -> None:
        import numpy as np

        path.parent.mkdir(parents=True, exist_ok=True)
        meta = json.dumps({"tiles": self.tiles.name, "longest": LONGEST, "trained": self.trained})
        with path.open("wb") as out:
            np.savez_compressed(out, values=self.values, meta=np.array(meta))


def load_table(path: Path, fallback: LeaveModel) -> LeaveTable:
    """A saved table for the fallback model's tiles; a one-line error when it is not one."""
    import numpy as np

    try:
        with np.load(path, allow_pickle=False) as data:
            values = data["values"]
            meta = json.loads(str(data["meta"]))
    except (OSError, ValueError, KeyError) as exc:
        raise LexitrainError(f"{path}: cannot read the leave table ({exc})") from None
    if meta.get("tiles") != fallback.tiles.name or meta.get("longest") != LONGEST or values.dtype != np.int16:
        raise LexitrainError(f"{path}: not a leave table for the {fallback.tiles.name} tiles")
    return LeaveTable(fallback.tiles, values, fallback, dict(meta.get("trained", {})))


def load_leaves(tiles: TileSet) -> LeaveValues:
    """How the engine values leaves for a tile set: the exhaustive table where
    one is shipped, else the 40-feature model."""
    model = load_leave_model(tiles)
    return load_table(table_path(tiles), model) if table_path(tiles).is_file() else model
