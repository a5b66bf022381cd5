"""Types of the compiled search (lexitrain/engine/_movegen.pyx)."""

LIMITS: dict[str, int]

def find(graph: memoryview, letters: int, squares: list[int], rows: int, cols: int,
         across: tuple[list[int], list[int]], down: tuple[list[int], list[int]], points: list[int],
         counts: tuple[int, ...], blanks: int, bingo: int, rack_size: int,
         centre: int) -> list[tuple[int, int, bool, tuple[int, ...], int, int]]: ...
