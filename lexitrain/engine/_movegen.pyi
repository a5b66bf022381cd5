"""Types of the compiled search (lexitrain/engine/_movegen.pyx)."""

import random
from typing import Any, Callable, Sequence

from lexitrain.engine.movegen import Shape, Turn
from lexitrain.engine.simulation import Rules

LIMITS: dict[str, int]

class WordMap:
    """Which multisets of tiles make a word (see _movegen.pyx)."""
    def __init__(self, setting: Setting, bits: int = ..., blank_bits: int = ...) -> None: ...
    def made(self, tiles: Sequence[int], blanks: int = ...) -> bool: ...

class Setting:
    """What every search of one game shares: the word graph, the board's shape and premiums, the tiles' points."""
    def __init__(self, graph: memoryview, letters: int, shape: Shape,
                 premiums: tuple[tuple[list[int], list[int]], tuple[list[int], list[int]]], points: list[int],
                 cls: type) -> None: ...

class TableLeaves:
    """The exhaustive leave table as the search reads it; a longer leave's value asked of `longer`, and a bound on
    it (per tile by its count, and the rest: LeaveFeatures.bound)."""
    def __init__(self, values: Any, ways: Any, longest: int, longer: LeaveTable,
                 bound: tuple[list[list[int]], int]) -> None: ...

class LeaveTable:
    """Leave values in hundredths, remembered in C; a leave not seen before is asked of `value(counts, blanks)`."""
    def __init__(self, value: Callable[[tuple[int, ...], int], int], points: list[int], size: int = ...) -> None: ...

def find(setting: Setting, squares: list[int], counts: tuple[int, ...], blanks: int) -> list[Any]: ...

def find_flat(setting: Setting, squares: list[int], counts: tuple[int, ...], blanks: int) -> Any: ...

def best(setting: Setting, squares: list[int], counts: tuple[int, ...], blanks: int, leaves: TableLeaves,
         turn: Turn) -> tuple[int, int, int, int, Any]: ...

def best_valued(setting: Setting, squares: list[int], counts: list[int], leaves: LeaveTable, bag: int,
                exchange: bool) -> tuple[int, Any, tuple[int, ...] | None, int, int]: ...

class SelfPlay:
    """Whole games of the equity player in C, drawn as engine/bag.py draws (see _movegen.pyx)."""
    def __init__(self, setting: Setting, contents: list[int]) -> None: ...
    def play(self, first: TableLeaves, second: TableLeaves, seed: int, ties: random.Random | None,
             max_turns: int, exchange_limit: int, max_zero_turns: int
             ) -> tuple[list[tuple[int, int, int, int, int, int, Any]], list[int]]: ...

class LiveBoard:
    """A board kept ready for move generation while tiles come and go (see _movegen.pyx)."""
    def __init__(self, setting: Setting, squares: list[int]) -> None: ...
    def set(self, k: int, t: int) -> None: ...
    def find_flat(self, counts: tuple[int, ...], blanks: int) -> Any: ...
    def best_single(self, letter: int) -> int: ...
    def api(self) -> Any: ...

class Playout:
    """One thread's compiled playouts of a simulation's candidates; `run` releases the GIL (see _movegen.pyx)."""
    def __init__(self, setting: Setting, table: TableLeaves | None, cache: LeaveTable,
                 candidates: list[tuple[list[int], list[int], list[int], int, int, bool]], opponent: list[int] | None,
                 rules: Rules, bands: list[tuple[float, float, float]]) -> None: ...
    def run(self, order: list[int], active: Sequence[int]) -> list[tuple[int, int, float]]: ...
