"""How counts read in what a player is told, the same in every layer (`1 card`, `2 cards`, `1 entry`)."""

from __future__ import annotations


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """`1 card`, `2 cards`: a count a player reads without stumbling on `1 days` (`1 entry`, `2 entries`)."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
