"""Coverage: per length, the share of the bag's bingo draws whose words the player knows.

A draw of n tiles with no blank spells exactly one alphagram, so the draws
that make an n-letter word are split among the alphagrams, each holding its
exact combinations (the lexicon's probability with no blank).
The share known is the draws of the known alphagrams over all of them: how
often, drawing n tiles that make a word, the player knows it. A draw with a
blank is left out, as it can spell several alphagrams at once. An alphagram
is known when its anagram card is in review: learnt, and not missed since
(a miss sends it back to relearning).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.study.store import ProgressStore

REVIEW = 2  # the card state of a learnt card (fsrs.State.Review)


@dataclass(frozen=True)
class LengthCoverage:
    """How much of one length's bingo draws the player knows."""

    length: int
    alphagrams: int
    known: int  # alphagrams known
    draws: int  # draws (no blank) that make a word of this length
    known_draws: int  # of those, draws whose words the player knows

    @property
    def share(self) -> float:
        return self.known_draws / self.draws if self.draws else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"alphagrams": self.alphagrams, "known": self.known, "draws": self.draws,
                "known_draws": self.known_draws, "share": round(self.share, 4)}


def known_alphagrams(store: ProgressStore, lexicon: str) -> set[str]:
    """The alphagrams whose anagram cards are in review."""
    return set(store.keys_in_state(lexicon, "anagram", REVIEW))


def coverage(store: ProgressStore, lex: Lexicon, lengths: Iterable[int] | None = None) -> list[LengthCoverage]:
    """Coverage of each length asked (default: every length the lexicon has)."""
    known = known_alphagrams(store, lex.name)
    out = []
    for length in sorted(lengths if lengths is not None else lex.counts_by_length("alphagram")):
        draws = lex.exact_draws(length)
        mine = [draws[key] for key in known.intersection(draws)]
        out.append(LengthCoverage(length, len(draws), len(mine), sum(draws.values()), sum(mine)))
    return out
