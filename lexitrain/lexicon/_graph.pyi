"""Types of the compiled graph builder (lexitrain/lexicon/_graph.pyx)."""

LIMITS: dict[str, int]

def build(words: list[bytes], letters: int) -> bytearray: ...
