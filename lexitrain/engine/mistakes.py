"""The Mistake Index and the rating it suggests, by the method Macondo's game analyser publishes.

Each turn is judged by what its phase allows (`analysis.py`): with tiles in
the bag by the win probability a simulation gives the move made and the best
candidate; with one tile left by the pre-endgame (draws won); with the bag
empty by the exact endgame (the final spread). A turn's mistake is sized:

- by the win probability lost: under 0.25% none (noise), up to 3% small, up
  to 7% medium, more large;
- by points, where the win probability cannot tell the moves apart (the
  endgame; a pre-endgame whose plays win as many draws; a simulation where
  the best move's chance is under 0.5%, or both moves' over 99.5%): up to 7
  small, up to 15 medium, more large (15 and 30 when a simulated game is
  already decided that way); an endgame move that turns a win into a loss or
  a tie, or a tie into a loss, is large whatever the points.

A small mistake counts 0.2, a medium one 0.5, a large one 1.0; a game's
Mistake Index is their sum over the player's turns. The estimated rating
follows the mapping Macondo's analyser ships (Joey Krafchick's
methodology, published by Macondo, github.com/domino14/macondo, file
gameanalysis/analyzer.go, GPL-3.0; the figures are copied as published
data): 0 is 2300, 1.7 is 2000, 4.2 is 1650, straight lines between the
points, and 125 fewer for each point past 4.2.
"""

from __future__ import annotations

from typing import Sequence

NONE, SMALL, MEDIUM, LARGE = "", "small", "medium", "large"
POINTS = {NONE: 0.0, SMALL: 0.2, MEDIUM: 0.5, LARGE: 1.0}
#: win probability lost, in percent: below NOISE no mistake; up to SMALL_WIN small; up to MEDIUM_WIN medium
NOISE, SMALL_WIN, MEDIUM_WIN = 0.25, 3.0, 7.0
#: points lost where win probability cannot decide: up to SMALL_SPREAD small, up to MEDIUM_SPREAD medium
SMALL_SPREAD, MEDIUM_SPREAD = 7, 15
#: a simulated position this far from 0% or 100% is decided: points decide, at double the thresholds
DECIDED = 0.005
#: (Mistake Index, rating) as Macondo's analyser maps them
RATING_POINTS: tuple[tuple[float, int], ...] = (
    (0.0, 2300), (0.2, 2250), (0.5, 2200), (0.8, 2150), (1.2, 2100), (1.5, 2050), (1.7, 2000), (1.9, 1950),
    (2.3, 1900), (2.6, 1850), (2.9, 1800), (3.3, 1750), (3.8, 1700), (4.2, 1650),
)
#: rating lost per point of Mistake Index past the last point
BEYOND = 125.0
#: the phases a turn is judged in
SIMULATION, PRE_ENDGAME, ENDGAME = "simulation", "pre-endgame", "endgame"


def decided(best_win: float, made_win: float) -> bool:
    """Whether a simulated position's win probabilities are too close to 0 or 1 to tell moves apart."""
    return best_win < DECIDED or (best_win > 1 - DECIDED and made_win > 1 - DECIDED)


def by_points(points: float, doubled: bool = False) -> str:
    if points <= 0:
        return NONE
    scale = 2 if doubled else 1
    return SMALL if points <= SMALL_SPREAD * scale else MEDIUM if points <= MEDIUM_SPREAD * scale else LARGE


def by_win(win_lost: float) -> str:
    """The size of a mistake that lost WIN_LOST of the chance of winning (0..1)."""
    percent = round(100 * win_lost, 9)  # (7% is 0.07 * 100 = 7.000000000000001 in floating point)
    if percent < NOISE:
        return NONE
    return SMALL if percent <= SMALL_WIN else MEDIUM if percent <= MEDIUM_WIN else LARGE


def mistake_size(phase: str, win_lost: float, spread_lost: float, best_win: float | None = None,
                 made_win: float | None = None, blown: bool = False) -> str:
    """A turn's mistake: NONE, SMALL, MEDIUM or LARGE (see the module's docstring). SPREAD_LOST counts only
    where points decide: the endgame, or a turn whose win probabilities are tied or decided."""
    if phase == ENDGAME:
        return LARGE if blown else by_points(spread_lost)
    if spread_lost > 0:
        saturated = phase == SIMULATION and best_win is not None and made_win is not None and decided(best_win,
                                                                                                        made_win)
        return by_points(spread_lost, doubled=saturated)
    return by_win(win_lost)


def mistake_index(sizes: Sequence[str]) -> float:
    """The sum of the mistakes' points (0.2 small, 0.5 medium, 1.0 large)."""
    return round(sum(POINTS[s] for s in sizes), 2)


def estimated_rating(index: float) -> int:
    """The rating a game's Mistake Index suggests (Macondo's mapping)."""
    if index <= 0:
        return RATING_POINTS[0][1]
    last_index, last_rating = RATING_POINTS[-1]
    if index > last_index:
        return round(last_rating - BEYOND * (index - last_index))
    for (low, low_rating), (high, high_rating) in zip(RATING_POINTS, RATING_POINTS[1:]):
        if index <= high:
            return round(low_rating + (index - low) / (high - low) * (high_rating - low_rating))
    return last_rating  # pragma: no cover - the loop returns for every index up to the last point
