"""Types of the compiled search (lexitrain/engine/_movegen.pyx)."""

LIMITS: dict[str, int]

from typing import TypeVar

P = TypeVar("P")

def find(graph: memoryview, letters: int, squares: list[int], rows: int, cols: int,
         across: tuple[list[int], list[int]], down: tuple[list[int], list[int]], points: list[int],
         counts: tuple[int, ...], blanks: int, bingo: int, rack_size: int,
         centre: int, cls: type[P]) -> list[P]: ...

def best(graph: memoryview, letters: int, squares: list[int], rows: int, cols: int,
         across: tuple[list[int], list[int]], down: tuple[list[int], list[int]], points: list[int],
         counts: tuple[int, ...], blanks: int, bingo: int, rack_size: int,
         centre: int, cls: type[P], table: object, ways: object, longest: int,
         whole_value: int, bag_empty: bool, may_exchange: bool) -> tuple[int, int, int, int, P | None]: ...
