"""Types of the compiled search (lexitrain/engine/_movegen.pyx)."""

LIMITS: dict[str, int]

from typing import Any, TypeVar

P = TypeVar("P")

def find(graph: memoryview, letters: int, squares: list[int], rows: int, cols: int,
         across: tuple[list[int], list[int]], down: tuple[list[int], list[int]], points: list[int],
         counts: tuple[int, ...], blanks: int, bingo: int, rack_size: int,
         centre: int, cls: type[P]) -> list[P]: ...

def best(graph: memoryview, letters: int, squares: list[int], rows: int, cols: int,
         across: tuple[list[int], list[int]], down: tuple[list[int], list[int]], points: list[int],
         counts: tuple[int, ...], blanks: int, bingo: int, rack_size: int,
         centre: int, cls: type[P], table: object, ways: object, longest: int,
         whole_value: int, bag_empty: bool, may_exchange: bool, ticket: int = ...) -> tuple[int, int, int, int, P | None]: ...

from typing import Callable

class LeaveTable:
    """Leave values in hundredths, remembered in C; a leave not seen before is asked of `value(counts, blanks)`."""
    def __init__(self, value: Callable[[tuple[int, ...], int], int], points: list[int], size: int = ...) -> None: ...

def best_valued(graph: memoryview, letters: int, squares: list[int], rows: int, cols: int,
                across: tuple[list[int], list[int]], down: tuple[list[int], list[int]], points: list[int],
                counts: list[int], bingo: int, rack_size: int, centre: int, cls: type[P], leaves: LeaveTable,
                bag: int, exchange: bool) -> tuple[int, P | None, tuple[int, ...] | None, int, int]: ...

def find_flat(graph: memoryview, letters: int, squares: list[int], rows: int, cols: int,
              across: tuple[list[int], list[int]], down: tuple[list[int], list[int]], points: list[int],
              counts: tuple[int, ...], blanks: int, bingo: int, rack_size: int, centre: int) -> Any: ...

class LiveBoard:
    """A board kept ready for move generation while tiles come and go (see _movegen.pyx)."""
    def __init__(self, graph: memoryview, letters: int, squares: list[int], rows: int, cols: int,
                 across: tuple[list[int], list[int]], down: tuple[list[int], list[int]], points: list[int],
                 bingo: int, rack_size: int, centre: int) -> None: ...
    def set(self, k: int, t: int) -> None: ...
    def find_flat(self, counts: tuple[int, ...], blanks: int) -> Any: ...
