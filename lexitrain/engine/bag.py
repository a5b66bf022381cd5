"""The bag: every tile of a tile set, drawn at random from a seeded generator
so that games and generated positions can be reproduced."""

from __future__ import annotations

import random

from lexitrain.tiles import BLANK, TileSet


class Bag:
    """Tiles as text (`A`, `CH`, `?`), in no particular order."""

    def __init__(self, tiles: TileSet, seed: int | None = None, contents: list[str] | None = None) -> None:
        self.tiles = tiles
        self.rng = random.Random(seed)
        if contents is None:
            contents = [t for t, n in zip(tiles.letters, tiles.counts) for _ in range(n)] + [BLANK] * tiles.blanks
        self.contents = list(contents)

    def __len__(self) -> int:
        return len(self.contents)

    def draw(self, n: int) -> list[str]:
        """Up to n tiles (fewer when the bag runs out)."""
        drawn = []
        for _ in range(min(n, len(self.contents))):
            i = self.rng.randrange(len(self.contents))
            self.contents[i], self.contents[-1] = self.contents[-1], self.contents[i]
            drawn.append(self.contents.pop())
        return drawn

    def put_back(self, tiles: list[str]) -> None:
        self.contents.extend(tiles)
