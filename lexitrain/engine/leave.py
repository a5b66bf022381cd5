"""The leave model: what the tiles kept after a play are worth to the turns after it.

A small linear model of our own, learned from the engine's self-play
(`scripts/train_leaves.py`, see docs/engine.md): a value per tile kept, a
cost per extra copy of a tile, bins for too many vowels or consonants, Q
without a U, and a few letter groups that make words together (ER, ES, ED,
ING). The value of a leave is the sum of its features' weights; keeping
nothing is worth 0. One data file per tile set in `lexicons/leaves/`.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Sequence

from lexitrain.engine.board import BLANK_FLAG
from lexitrain.engine.play import Placement
from lexitrain.errors import LexitrainError
from lexitrain.paths import shipped
from lexitrain.tiles import BLANK, Rack, TileSet

#: vowels minus consonants kept (or the other way round) from which a leave counts as unbalanced; the last bin is "this many or more"
BALANCE_BINS = (2, 3, 4)
#: letter groups that make words together, kept only when the tile set has all their letters
SYNERGIES = ("ER", "ES", "ED", "ING")
#: leaves whose value a model remembers before it starts again (the same leaves come back turn after turn)
MEMO_LIMIT = 200_000


def leaves_dir() -> Path:
    return shipped("lexicons") / "leaves"


@dataclass(frozen=True)
class Feature:
    """One column of the model: `group` (tile, duplicate, triple, vowels,
    consonants, q_without_u, synergy) and its `name` within the group."""

    group: str
    name: str

    @property
    def label(self) -> str:
        return f"{self.group}:{self.name}" if self.name else self.group


def feature_list(tiles: TileSet) -> list[Feature]:
    """The model's features for a tile set, in a fixed order (the weights' order)."""
    names = [*tiles.letters, BLANK]
    counts = [*tiles.counts, tiles.blanks]
    out = [Feature("tile", n) for n in names]
    out += [Feature("duplicate", n) for n, c in zip(names, counts) if c >= 2]
    out.append(Feature("triple", ""))
    out += [Feature("vowels", f"+{b}") for b in BALANCE_BINS]
    out += [Feature("consonants", f"+{b}") for b in BALANCE_BINS]
    if "Q" in tiles.letters and "U" in tiles.letters:
        out.append(Feature("q_without_u", ""))
    out += [Feature("synergy", s) for s in SYNERGIES if all(ch in tiles.letters for ch in s)]
    return out


class LeaveFeatures:
    """Turns a leave (counts per tile, blanks) into its nonzero features, as
    (column, value) pairs; the same code serves fitting and valuing."""

    def __init__(self, tiles: TileSet) -> None:
        self.tiles = tiles
        self.features = feature_list(tiles)
        column = {f.label: i for i, f in enumerate(self.features)}
        letters = tiles.letters
        self._tile = [column[f"tile:{n}"] for n in letters]
        self._blank = column[f"tile:{BLANK}"]
        self._duplicate = [column.get(f"duplicate:{n}", -1) for n in letters]
        self._duplicate_blank = column.get(f"duplicate:{BLANK}", -1)
        self._triple = column["triple"]
        self._vowel = [tiles.is_vowel(n) for n in letters]
        self._vowels = [column[f"vowels:+{b}"] for b in BALANCE_BINS]
        self._consonants = [column[f"consonants:+{b}"] for b in BALANCE_BINS]
        self._q = letters.index("Q") if "q_without_u" in column else -1
        self._u = letters.index("U") if "q_without_u" in column else -1
        self._q_without_u = column.get("q_without_u", -1)
        self._synergies = [(column[f"synergy:{s}"], [letters.index(ch) for ch in s])
                           for s in SYNERGIES if f"synergy:{s}" in column]

    def of(self, counts: Sequence[int], blanks: int) -> list[tuple[int, float]]:
        """A tile the set holds once has no duplicate column: more copies of it (never drawn, but a
        fitting's or a property test's leave) count as the tile and the triple only."""
        out: list[tuple[int, float]] = []
        vowels = consonants = 0
        for i, n in enumerate(counts):
            if not n:
                continue
            out.append((self._tile[i], n))
            if n >= 2:
                if self._duplicate[i] >= 0:
                    out.append((self._duplicate[i], n - 1))
                if n >= 3:
                    out.append((self._triple, n - 2))
            if self._vowel[i]:
                vowels += n
            else:
                consonants += n
        if blanks:
            out.append((self._blank, blanks))
            if blanks >= 2 and self._duplicate_blank >= 0:
                out.append((self._duplicate_blank, blanks - 1))
        excess = vowels - consonants
        if excess >= BALANCE_BINS[0]:
            out.append((self._vowels[_bin(excess)], 1))
        elif -excess >= BALANCE_BINS[0]:
            out.append((self._consonants[_bin(-excess)], 1))
        if self._q >= 0 and counts[self._q] and not counts[self._u]:
            out.append((self._q_without_u, 1))
        for column, letters in self._synergies:
            if all(counts[i] for i in letters):
                out.append((column, 1))
        return out

    def bound(self, weights: Sequence[float], most: int) -> tuple[list[list[int]], int]:
        """An upper bound on a leave's value under `weights`, in hundredths, as a sum: per tile (the letters,
        then the blank) by how many of it are kept (0 to `most`), the weights of the features `of` counts
        for that tile alone (tile, duplicate, triple); and `rest`, the most the features of several tiles
        add (one balance bin, Q without a U, the synergies: those whose weight adds), with a hundredth for
        the rounding. The compiled playouts ask a whole rack's value (the pass's) only where this bound
        could beat the best move."""
        def own(n: int, tile: int, duplicate: int, triple: int) -> int:
            points = weights[tile] * n
            if n >= 2 and duplicate >= 0:
                points += weights[duplicate] * (n - 1)
            if n >= 3 and triple >= 0:
                points += weights[triple] * (n - 2)
            return math.ceil(100 * points + 1e-6)

        by_tile = [[own(n, tile, duplicate, self._triple) for n in range(most + 1)]
                   for tile, duplicate in zip(self._tile, self._duplicate)]
        by_tile.append([own(n, self._blank, self._duplicate_blank, -1) for n in range(most + 1)])
        rest = max(0.0, *(weights[c] for c in self._vowels + self._consonants))
        rest += max(0.0, weights[self._q_without_u]) if self._q_without_u >= 0 else 0.0
        rest += sum(max(0.0, weights[c]) for c, _ in self._synergies)
        return by_tile, math.ceil(100 * rest + 1e-6) + 1


def _bin(excess: int) -> int:
    return min(excess, BALANCE_BINS[-1]) - BALANCE_BINS[0]


class LeaveValues:
    """What keeping tiles is worth, in points: the 40-feature model here, or
    the exhaustive table of `leave_table.py`. Subclasses value one leave
    (`_value`); valuing every play of a rack is shared."""

    def value(self, leave: Rack) -> float:
        """What keeping these tiles is worth, in points (rounded to 0.01)."""
        return self._value(leave.counts, leave.blanks)

    def _value(self, counts: Sequence[int], blanks: int) -> float:
        raise NotImplementedError

    def play_values(self, rack: Rack, plays: Sequence[Placement]) -> list[float]:
        """The value of the leave of each play (the rack less the tiles it
        puts down), in the order given; one pass, leaves shared between plays
        that use the same tiles are worked out once."""
        base = rack.counts
        blanks = rack.blanks
        by_used: dict[tuple[int, ...], float] = {}
        out: list[float] = []
        for play in plays:
            letters = play.letters
            through = play.through
            used = tuple(sorted(letters if not through else
                                [t for i, t in enumerate(letters) if not through >> i & 1]))
            value = by_used.get(used)
            if value is None:
                counts = list(base)
                left = blanks
                for t in used:
                    if t >= BLANK_FLAG:
                        left -= 1
                    else:
                        counts[t] -= 1
                value = by_used[used] = self._value(counts, left)
            out.append(value)
        return out


@dataclass
class LeaveModel(LeaveValues):
    """Fitted weights for a tile set, with how they were trained (`trained`)."""

    tiles: TileSet
    weights: list[float]
    trained: dict[str, Any] = field(default_factory=dict)
    _memo: dict[bytes, float] = field(default_factory=dict, repr=False, compare=False)

    @cached_property
    def features(self) -> LeaveFeatures:
        return LeaveFeatures(self.tiles)

    def _value(self, counts: Sequence[int], blanks: int) -> float:
        key = bytes(counts) + bytes((blanks,))
        value = self._memo.get(key)
        if value is None:
            weights = self.weights
            value = round(sum(weights[i] * x for i, x in self.features.of(counts, blanks)), 2)
            if len(self._memo) >= MEMO_LIMIT:
                self._memo.clear()
            self._memo[key] = value
        return value

    # -- the data file ---------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        groups: dict[str, Any] = {}
        for feature, weight in zip(self.features.features, self.weights):
            if feature.name:
                groups.setdefault(feature.group, {})[feature.name] = round(weight, 2)
            else:
                groups[feature.group] = round(weight, 2)
        return {"tiles": self.tiles.name, "trained": self.trained, "weights": groups}

    @staticmethod
    def from_json(data: dict[str, Any], tiles: TileSet, source: str = "leave model") -> LeaveModel:
        groups = data.get("weights")
        if data.get("tiles") != tiles.name or not isinstance(groups, dict):
            raise LexitrainError(f"{source}: not a leave model for the {tiles.name} tiles")
        weights = []
        for feature in feature_list(tiles):
            entry = groups.get(feature.group)
            weight = entry.get(feature.name) if isinstance(entry, dict) else entry
            if not isinstance(weight, (int, float)):
                raise LexitrainError(f"{source}: no weight for {feature.label}")
            weights.append(float(weight))
        return LeaveModel(tiles, weights, dict(data.get("trained", {})))

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")


def leave_after(rack: Rack, play: Placement) -> Rack:
    """The tiles a play keeps from the rack (a blank played is a `?` taken off it)."""
    counts = list(rack.counts)
    blanks = rack.blanks
    for _, _, tile in play.placed():
        if tile >= BLANK_FLAG:
            blanks -= 1
        else:
            counts[tile] -= 1
    return Rack(rack.tiles, tuple(counts), blanks)


def leave_path(tiles: TileSet) -> Path:
    return leaves_dir() / f"{tiles.name}.json"


def load_leave_model(tiles: TileSet) -> LeaveModel:
    """The shipped 40-feature leave model for a tile set; a one-line error when there is none."""
    path = leave_path(tiles)
    if not path.is_file():
        known = ", ".join(sorted(p.stem for p in leaves_dir().glob("*.json"))) or "none"
        raise LexitrainError(f"no leave model for the {tiles.name} tiles (have: {known})")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise LexitrainError(f"{path}: cannot read the leave model ({exc})") from None
    return LeaveModel.from_json(data, tiles, str(path))
