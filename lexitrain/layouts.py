"""Board layouts: the grid size and where the premium squares are."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from lexitrain.errors import LexitrainError
from lexitrain.paths import shipped

#: premium name -> (letter multiplier, word multiplier)
PREMIUMS: dict[str, tuple[int, int]] = {
    "": (1, 1),
    "DL": (2, 1),
    "TL": (3, 1),
    "QL": (4, 1),
    "DW": (1, 2),
    "TW": (1, 3),
    "QW": (1, 4),
}

_FILES = {
    "standard": "standard_15x15.csv",
    "super": "super_21x21.csv",
    "wordswithfriends": "wordswithfriends_15x15.csv",
}


@dataclass(frozen=True)
class BoardLayout:
    """A rectangular board; `premiums[row][col]` is a key of PREMIUMS."""

    name: str
    rows: int
    cols: int
    premiums: tuple[tuple[str, ...], ...]
    bingo_bonus: int = 50

    @property
    def center(self) -> tuple[int, int]:
        return self.rows // 2, self.cols // 2

    @cached_property
    def symmetric(self) -> bool:
        """Does mirroring the board on its main diagonal keep every premium?"""
        return self.rows == self.cols and all(
            self.premiums[r][c] == self.premiums[c][r] for r in range(self.rows) for c in range(r))

    @property
    def longest_word(self) -> int:
        return max(self.rows, self.cols)


def available_layouts() -> list[str]:
    return sorted(_FILES)


def load_layout(name: str) -> BoardLayout:
    """Load a shipped layout by name (`standard`, `super`, `wordswithfriends`)."""
    if name not in _FILES:
        raise LexitrainError(f"unknown board {name!r} (known: {', '.join(available_layouts())})")
    path = shipped("lexicons") / "boards" / _FILES[name]
    bonus = 35 if name == "wordswithfriends" else 50
    return read_layout_csv(path, name, bonus)


def read_layout_csv(path: Path, name: str, bingo_bonus: int = 50) -> BoardLayout:
    """Parse `coord,row,col,premium` rows (1-based); size from the file name."""
    size = path.stem.rsplit("_", 1)[-1]
    rows, cols = (int(x) for x in size.split("x"))
    grid = [[""] * cols for _ in range(rows)]
    with path.open(encoding="utf-8", newline="") as fh:
        for lineno, row in enumerate(csv.DictReader(fh), start=2):
            premium = row["premium"].strip().upper()
            if premium not in PREMIUMS:
                raise LexitrainError(f"{path}:{lineno}: unknown premium {premium!r}")
            grid[int(row["row"]) - 1][int(row["col"]) - 1] = premium
    return BoardLayout(name, rows, cols, tuple(tuple(r) for r in grid), bingo_bonus)
