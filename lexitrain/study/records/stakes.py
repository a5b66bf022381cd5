"""Points at stake: what a card is worth studying, in points per game and per minute.

A word holds the points a game of self-play scored with it, per game (the
lexicon's figures, `Lexicon.points_per_game`): what a player who knows it
scores with it, and one who does not leaves on the board. A card teaches the
words its question shows after the answer (an anagram card its anagrams, a
hooks card its hook words) and is worth their points. Studying it now gains
those points times the chance the player would miss it now (1 - FSRS's
retrievability; a new card is missed for sure), over the minutes an answer
to it takes (its own answers' mean, else the player's mean for its kind, else
DEFAULT_SECONDS). The daily drill ranks cards so when the player asks
(`study set --daily-order points-per-game`); `stats` adds up the points per game the
player's known words cover.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from typing import Any

from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.study.quiz.kinds.anagram import AnagramKind
from lexitrain.study.quiz.kinds.base import QuestionKind, new_kind
from lexitrain.study.quiz.scheduler import Scheduling
from lexitrain.study.store import CardRow, ProgressStore
from lexitrain.tiles import BLANK

#: how long an answer is taken to need before the player has given any of its kind
DEFAULT_SECONDS = 15.0
#: the daily drill's orders: due reviews most overdue first and new cards in the plan's order,
#: or both by the points studying them gains per minute
DAILY_ORDERS = ("due", "points-per-game")
POINTS_FIRST = DAILY_ORDERS[1]
#: the spelling of points first before it said what it counts (kept in older settings, still typed)
_OLD_POINTS_FIRST = "points"
DAILY_ORDER_SETTING = "daily_order"
#: how far back `stats` shows the points covered, week by week
GROWTH_WEEKS = 8
ANAGRAM = AnagramKind.name
#: how long the daily drill keeps its ranking of the cards before ranking them again (cards fall due
#: and recall fades meanwhile), in seconds: ranking 100,000 cards takes seconds, a pick milliseconds
RANK_SECONDS = 300.0
#: how many of the ranking's best cards a pick checks at once against the store
CHECK = 64

#: (lexicon content, kind, key) -> the words holding points the card teaches: a question is built once
#: per process
_taught: dict[tuple[str, str, str], tuple[str, ...]] = {}


def check_daily_order(order: str) -> str:
    """ORDER as stored: one of DAILY_ORDERS (`points`, the older spelling, read as points per game)."""
    order = POINTS_FIRST if order == _OLD_POINTS_FIRST else order
    if order not in DAILY_ORDERS:
        raise LexitrainError(f"--daily-order {order!r}: use {' or '.join(DAILY_ORDERS)}")
    return order


def is_daily_order(value: object) -> bool:
    """VALUE names a daily order as a setting may hold it: today's spelling or the older `points`
    (a backup made before keeps it)."""
    return value in DAILY_ORDERS or value == _OLD_POINTS_FIRST


def daily_order(store: ProgressStore) -> str:
    """The daily drill's order the player chose (due unless they asked for points per game first)."""
    order = str(store.setting(DAILY_ORDER_SETTING, DAILY_ORDERS[0]))
    return POINTS_FIRST if order == _OLD_POINTS_FIRST else order


class Stakes:
    """The worth of a lexicon's cards for one player: their words' points, the player's pace and memory."""

    def __init__(self, store: ProgressStore, lex: Lexicon, scheduling: Scheduling) -> None:
        self.store = store
        self.lex = lex
        self.points = lex.points_per_game()  # a one-line error when the lexicon has no points figures
        self.recall = scheduling.forgetting_curve()
        self._kinds: dict[str, QuestionKind] = {}
        self._worth: dict[tuple[str, str], float] = {}
        self._ranked: dict[str, tuple[float, list[int]]] = {}  # pool -> (when ranked, card ids best first)

    @cached_property
    def kind_seconds(self) -> dict[str, float]:
        """The player's mean answer time per kind (read when a card is first ranked, not for `covered`)."""
        return self.store.seconds_per_kind(self.lex.name)

    @cached_property
    def _played(self) -> dict[str, list[str]]:
        return self.lex.played_by_alphagram()

    def scoring_words(self, kind: str, key: str) -> Sequence[str]:
        """The words a card teaches that hold points (none when its question cannot be asked in this
        lexicon). An anagram card's with no blank are read from the lexicon's words played per
        alphagram: the same words, without building 100,000 questions."""
        if kind == ANAGRAM and BLANK not in key:
            return self._played.get(key, ())
        cached = (self.lex.content_hash, kind, key)
        if cached not in _taught:
            if kind not in self._kinds:
                self._kinds[kind] = new_kind(kind)
            try:
                shown = self._kinds[kind].build(self.lex, key).words_shown
            except LexitrainError:
                shown = ()
            _taught[cached] = tuple(word for word in shown if word in self.points)
        return _taught[cached]

    def worth(self, kind: str, key: str) -> float:
        """The points per game a card's words hold."""
        if (kind, key) not in self._worth:
            self._worth[kind, key] = sum(self.points[word] for word in self.scoring_words(kind, key))
        return self._worth[kind, key]

    def per_minute(self, cards: Sequence[CardRow], now: float) -> list[float]:
        """The points per game studying each card now gains, per minute of study."""
        seconds = self.store.seconds_per_card([card.id for card in cards])
        return [self.worth(card.kind, card.key) * (1 - self.recall(card.stability, card.last_review, now))
                / (seconds.get(card.id) or self.kind_seconds.get(card.kind) or DEFAULT_SECONDS) * 60
                for card in cards]

    def rank(self, pool: str, cards: Sequence[CardRow], now: float) -> None:
        """Rank a pool of cards ("due" or "new") by the points per minute studying each gains now,
        best first; ties the most overdue first, then in the order given (a new card's plan order)."""
        gains = self.per_minute(cards, now)
        order = sorted(range(len(cards)), key=lambda i: (-gains[i], cards[i].due or 0.0, i))
        self._ranked[pool] = (now, [cards[i].id for i in order])

    def stale(self, pool: str, now: float) -> bool:
        """Whether a pool needs ranking again: never ranked, or ranked over RANK_SECONDS ago."""
        done = self._ranked.get(pool)
        return done is None or not 0 <= now - done[0] <= RANK_SECONDS

    def first(self, pool: str, eligible: Callable[[list[int]], list[CardRow]]) -> list[CardRow]:
        """The best-ranked card of a pool (in a list of one, or none) that `eligible` still finds
        among the ids it is given: the store's answer now, CHECK ids at a time, so a card answered,
        leased or suspended since the ranking is passed over."""
        ranked = self._ranked.get(pool, (0.0, []))[1]
        for start in range(0, len(ranked), CHECK):
            batch = ranked[start:start + CHECK]
            found = {card.id: card for card in eligible(batch)}
            for ident in batch:
                if ident in found:
                    return [found[ident]]
        return []


@dataclass(frozen=True)
class Covered:
    """The points per game the player's known words hold, now and week by week before."""

    lexicon_points: float  # every word's points per game added up: what a game holds in all
    now: float
    weeks: list[tuple[float, float]]  # (when, points covered then), oldest first, ending now

    def dated_weeks(self) -> list[tuple[str, float]]:
        """The weeks as (the player's calendar date, ISO, points covered then), as every face shows them."""
        return [(datetime.fromtimestamp(at).date().isoformat(), points) for at, points in self.weeks]

    @property
    def share(self) -> float:
        return self.now / self.lexicon_points if self.lexicon_points else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"points_per_game": round(self.lexicon_points, 2), "covered": round(self.now, 2),
                "share": round(self.share, 4), "weeks": [{"at": at, "covered": round(points, 2)}
                                                         for at, points in self.weeks]}


def covered(store: ProgressStore, lex: Lexicon, scheduling: Scheduling, now: float,
            weeks: int = GROWTH_WEEKS) -> Covered:
    """The points per game the player's words cover: each word's points times the chance the player
    recalls it (the best of the cards teaching it), now and at the end of each of the weeks before.

    A card's state at a past moment is the state its first answer after that moment found it in (an
    answer records the card before it), or the card as it is now when none came after: a card
    changes only by an answer. A card last reviewed after the moment with no answer since (a
    schedule imported from Zyzzyva or a backup) is counted from its review on. Reckoned on arrays:
    at 100,000 cards it takes a fraction of a second."""
    import numpy as np

    stakes = Stakes(store, lex, scheduling)
    cards = store.studied_cards(lex.name)
    row_of = {card.id: row for row, card in enumerate(cards)}
    word_ids: dict[str, int] = {}
    pair_card: list[int] = []
    pair_word: list[int] = []
    for row, card in enumerate(cards):
        for word in stakes.scoring_words(card.kind, card.key):
            pair_card.append(row)
            pair_word.append(word_ids.setdefault(word, len(word_ids)))
    points = np.array([stakes.points.get(word, 0.0) for word in word_ids], dtype=float)
    cards_of, words_of = np.array(pair_card, dtype=np.int64), np.array(pair_word, dtype=np.int64)

    def column(values: list[float | None]) -> np.ndarray:
        return np.array([np.nan if v is None else v for v in values], dtype=float)

    state_now = np.array([card.state for card in cards], dtype=np.int64)
    stability_now = column([card.stability for card in cards])
    last_now = column([card.last_review for card in cards])
    moments = [now - 7 * 86400 * back for back in range(weeks, -1, -1)]
    history = [row for row in store.states_since(lex.name, moments[0]) if row[0] in row_of]  # by card, then time
    answered = np.array([row_of[row[0]] for row in history], dtype=np.int64)
    answered_at = column([row[1] for row in history])
    state_before = np.array([row[2] for row in history], dtype=np.int64)
    stability_before, last_before = column([row[3] for row in history]), column([row[4] for row in history])
    totals = []
    for moment in moments:
        state, stability, last = state_now.copy(), stability_now.copy(), last_now.copy()
        later = np.flatnonzero(answered_at > moment)
        rows, first = np.unique(answered[later], return_index=True)  # each card's first answer after the moment
        state[rows], stability[rows], last[rows] = (state_before[later[first]], stability_before[later[first]],
                                                    last_before[later[first]])
        chance = np.where((state != 0) & (last <= moment), stakes.recall.many(stability, last, moment), 0.0)
        best = np.zeros(len(word_ids))
        np.maximum.at(best, words_of, chance[cards_of])
        totals.append(float(points @ best))
    return Covered(sum(stakes.points.values()), totals[-1], list(zip(moments, totals)))
