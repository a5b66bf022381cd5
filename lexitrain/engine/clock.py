"""A game clock: each player's time, and what going over it costs (NASPA's rule).

Each player has the same allowance (`minutes`, 0: untimed). A player's time
runs only on their own turn; the clock is told when a turn starts and ends
(`start`, `stop`), reading the time from a function a test can move. Past
the allowance a player is in overtime: NASPA takes 10 points for each minute
or part of a minute over, counted when the game ends (`penalty`). Nothing here
ends a game on time: a player in overtime plays on and pays.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Callable

from lexitrain.errors import LexitrainError

#: the allowance per player when none is asked for (a tournament game)
DEFAULT_MINUTES = 25.0
#: what each started minute of overtime costs
POINTS_PER_MINUTE = 10
#: the longest allowance taken (a day); more is a typo
MAX_MINUTES = 1440.0


def check_minutes(minutes: float) -> float:
    """The allowance asked for, or a one-line error (0 is untimed)."""
    if not 0 <= minutes <= MAX_MINUTES or math.isnan(minutes):
        raise LexitrainError(f"--clock {minutes:g}: give minutes per player from 0 (untimed) to {MAX_MINUTES:g}")
    return minutes


def overtime_penalty(used: float, minutes: float) -> int:
    """Points lost for using `used` seconds of an allowance of `minutes` (0: untimed, nothing lost)."""
    if not minutes:
        return 0
    over = used - minutes * 60
    return POINTS_PER_MINUTE * math.ceil(over / 60) if over > 0 else 0


@dataclass
class GameClock:
    """Both players' time: seconds used so far, and whose time runs now (None: stopped)."""

    minutes: float = DEFAULT_MINUTES
    used: list[float] = field(default_factory=lambda: [0.0, 0.0])
    now: Callable[[], float] = time.time
    running: int | None = None
    since: float = 0.0  # when the running player's time started

    @property
    def timed(self) -> bool:
        return self.minutes > 0

    def start(self, player: int) -> None:
        """The player's turn starts: their time runs (anyone else's stops first)."""
        self.stop()
        self.running, self.since = player, self.now()

    def stop(self) -> None:
        """Nobody's time runs (a turn ended, or the game is put away to resume later)."""
        if self.running is not None:
            self.used[self.running] += max(0.0, self.now() - self.since)
            self.running = None

    def spent(self, player: int) -> float:
        """Seconds the player has used, their running turn included."""
        extra = max(0.0, self.now() - self.since) if self.running == player else 0.0
        return self.used[player] + extra

    def left(self, player: int) -> float:
        """Seconds left of the allowance (negative in overtime; the seconds used when untimed)."""
        return self.minutes * 60 - self.spent(player) if self.timed else self.spent(player)

    def penalty(self, player: int) -> int:
        return overtime_penalty(self.spent(player), self.minutes)
