"""Grading a right typed answer by its speed, against the player's own answer times.

For each kind, the player's latest right answers (up to SAMPLE of them, in
any session) set two cuts: their first and third quartile. A right answer at
or under the first is Easy, at or over the third Hard, in between Good; a
wrong or late one stays Again. With fewer than MINIMUM past right answers of
a kind there is nothing to compare with, and a right answer is Good. The cuts
are read once per kind per session, so a session's own answers do not move
them as it goes.
"""

from __future__ import annotations

import statistics

from lexitrain.study.quiz.scheduler import EASY, GOOD, HARD
from lexitrain.study.store import ProgressStore

SAMPLE = 200
MINIMUM = 12


class SpeedGrades:
    """The grade of a right answer from its seconds, per kind (a session's `grader`)."""

    def __init__(self, store: ProgressStore) -> None:
        self.store = store
        self._cuts: dict[str, tuple[float, float] | None] = {}

    def cuts(self, kind: str) -> tuple[float, float] | None:
        """(fast, slow) in seconds: the quartiles of the player's right answers of a kind."""
        if kind not in self._cuts:
            times = self.store.answer_times(kind, SAMPLE)
            if len(times) < MINIMUM:
                self._cuts[kind] = None
            else:
                quartiles = statistics.quantiles(times, n=4)
                self._cuts[kind] = (quartiles[0] / 1000, quartiles[2] / 1000)
        return self._cuts[kind]

    def __call__(self, kind: str, seconds: float) -> int:
        cuts = self.cuts(kind)
        if cuts is None:
            return GOOD
        fast, slow = cuts
        return EASY if seconds <= fast else HARD if seconds >= slow else GOOD
