"""Win probability: the chance that the player to move wins, from the spread and the tiles unseen.

A logistic curve per band of unseen tiles (the bag and the opponent's rack,
as the player to move sees them), `P(win) = 1 / (1 + exp(-(slope * spread +
intercept)))`: the intercept is what being on move is worth, the slope how
much a point of spread still matters with that many tiles to come (steep
near the end, flat at the start). The bands' figures are learned from the
engine's own self-play (`scripts/train_win_probability.py`); between band
centres they are interpolated, so the curve moves smoothly with the tiles.
With nothing unseen the game is over and the spread decides. A draw counts
half a win. One data file per tile set in `lexicons/win/`.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lexitrain.errors import LexitrainError
from lexitrain.paths import shipped
from lexitrain.tiles import TileSet

#: the tile set whose model stands in for a set that has none of its own
FALLBACK = "english"


@dataclass(frozen=True)
class Band:
    """Positions with `low`..`high` tiles unseen, and their fitted curve."""

    low: int
    high: int
    slope: float
    intercept: float

    @property
    def centre(self) -> float:
        return (self.low + self.high) / 2


@dataclass
class WinModel:
    """Fitted bands for a tile set (`tiles`, as trained), with how they were trained."""

    tiles: str
    bands: list[Band]
    trained: dict[str, Any] = field(default_factory=dict)

    def curve(self, unseen: int) -> tuple[float, float]:
        """(slope, intercept) at this many unseen tiles, interpolated between band centres."""
        bands = self.bands
        if unseen <= bands[0].centre:
            return bands[0].slope, bands[0].intercept
        for a, b in zip(bands, bands[1:]):
            if unseen <= b.centre:
                t = (unseen - a.centre) / (b.centre - a.centre)
                return a.slope + t * (b.slope - a.slope), a.intercept + t * (b.intercept - a.intercept)
        return bands[-1].slope, bands[-1].intercept

    def win(self, spread: float, unseen: int) -> float:
        """P(the player to move wins), ahead by `spread` points with `unseen` tiles unseen (draws half)."""
        if unseen <= 0:
            return 1.0 if spread > 0 else 0.5 if spread == 0 else 0.0
        slope, intercept = self.curve(unseen)
        z = slope * spread + intercept
        if z < -60:
            return 0.0
        if z > 60:
            return 1.0
        return 1.0 / (1.0 + math.exp(-z))

    # -- the data file ---------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {"tiles": self.tiles, "trained": self.trained,
                "bands": [{"unseen": [b.low, b.high], "slope": round(b.slope, 6), "intercept": round(b.intercept, 4)}
                          for b in self.bands]}

    @staticmethod
    def from_json(data: dict[str, Any], source: str = "win model") -> WinModel:
        try:
            bands = [Band(int(b["unseen"][0]), int(b["unseen"][1]), float(b["slope"]), float(b["intercept"]))
                     for b in data["bands"]]
            tiles = str(data["tiles"])
        except (KeyError, TypeError, ValueError, IndexError):
            raise LexitrainError(f"{source}: not a win probability model") from None
        if not bands:
            raise LexitrainError(f"{source}: a win probability model needs at least one band")
        return WinModel(tiles, sorted(bands, key=lambda b: b.low), dict(data.get("trained", {})))

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")


def win_dir() -> Path:
    return shipped("lexicons") / "win"


def win_path(tiles: TileSet) -> Path:
    return win_dir() / f"{tiles.name}.json"


def load_win_model(tiles: TileSet) -> WinModel:
    """The shipped model for a tile set, else the English one (the curve depends
    on spread and tiles unseen, not on the letters); a one-line error when neither is there."""
    path = win_path(tiles)
    if not path.is_file():
        path = win_dir() / f"{FALLBACK}.json"
    if not path.is_file():
        raise LexitrainError(f"no win probability model for the {tiles.name} tiles ({path} is missing)")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise LexitrainError(f"{path}: cannot read the win probability model ({exc})") from None
    return WinModel.from_json(data, str(path))
