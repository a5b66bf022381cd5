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
(`study set --daily-order points`); `stats` adds up the points per game the
player's known words cover.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lexitrain.errors import LexitrainError
from lexitrain.study.quiz.kinds.base import QuestionKind, new_kind
from lexitrain.study.quiz.scheduler import Scheduling
from lexitrain.study.store import CardRow, ProgressStore

if TYPE_CHECKING:
    from lexitrain.lexicon.lexicon import Lexicon

#: how long an answer is taken to need before the player has given any of its kind
DEFAULT_SECONDS = 15.0
#: the daily drill's orders: due reviews most overdue first and new cards in the plan's order,
#: or both by the points studying them gains per minute
DAILY_ORDERS = ("due", "points")
DAILY_ORDER_SETTING = "daily_order"
#: how far back `stats` shows the points covered, week by week
GROWTH_WEEKS = 8

#: (lexicon content, kind, key) -> the words the card teaches: a question is built once per process
_taught: dict[tuple[str, str, str], tuple[str, ...]] = {}


def check_daily_order(order: str) -> str:
    if order not in DAILY_ORDERS:
        raise LexitrainError(f"--daily-order {order!r}: use {' or '.join(DAILY_ORDERS)}")
    return order


class Stakes:
    """The worth of a lexicon's cards for one player: their words' points, the player's pace and memory."""

    def __init__(self, store: ProgressStore, lex: Lexicon, scheduling: Scheduling) -> None:
        self.store = store
        self.lex = lex
        self.points = lex.points_per_game()  # a one-line error when the lexicon has no points figures
        self.recall = scheduling.forgetting_curve()
        self.kind_seconds = store.seconds_per_kind(lex.name)
        self._kinds: dict[str, QuestionKind] = {}

    def words(self, kind: str, key: str) -> tuple[str, ...]:
        """The words a card teaches (none when its question cannot be asked in this lexicon)."""
        cached = (self.lex.content_hash, kind, key)
        if cached not in _taught:
            if kind not in self._kinds:
                self._kinds[kind] = new_kind(kind)
            try:
                _taught[cached] = self._kinds[kind].build(self.lex, key).words_shown
            except LexitrainError:
                _taught[cached] = ()
        return _taught[cached]

    def worth(self, kind: str, key: str) -> float:
        """The points per game a card's words hold."""
        return sum(self.points.get(word, 0.0) for word in self.words(kind, key))

    def per_minute(self, cards: Sequence[CardRow], now: float) -> list[float]:
        """The points per game studying each card now gains, per minute of study."""
        seconds = self.store.seconds_per_card([card.id for card in cards])
        return [self.worth(card.kind, card.key) * (1 - self.recall(card.stability, card.last_review, now))
                / (seconds.get(card.id) or self.kind_seconds.get(card.kind) or DEFAULT_SECONDS) * 60
                for card in cards]

    def best(self, cards: Sequence[CardRow], now: float) -> list[CardRow]:
        """The card (in a list of one, or none) whose study gains the most per minute now; ties in the
        order given (the most overdue first, or the plan's)."""
        if not cards:
            return []
        gains = self.per_minute(cards, now)
        return [cards[max(range(len(cards)), key=lambda i: (gains[i], -i))]]


@dataclass(frozen=True)
class Covered:
    """The points per game the player's known words hold, now and week by week before."""

    lexicon_points: float  # every word's points per game added up: what a game holds in all
    now: float
    weeks: list[tuple[float, float]]  # (when, points covered then), oldest first, ending now

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
    changes only by an answer."""
    stakes = Stakes(store, lex, scheduling)
    cards = store.studied_cards(lex.name)
    moments = [now - 7 * 86400 * back for back in range(weeks, -1, -1)]
    history: dict[int, list[tuple[float, int, float | None, float | None]]] = {}
    for card_id, at, state, stability, last_review in store.states_since(lex.name, moments[0]):
        history.setdefault(card_id, []).append((at, state, stability, last_review))
    totals = []
    for moment in moments:
        recalled: dict[str, float] = {}
        for card in cards:
            if card.added > moment:
                continue
            chance = _chance_at(stakes, card, history.get(card.id, []), moment)
            if chance:
                for word in stakes.words(card.kind, card.key):
                    recalled[word] = max(recalled.get(word, 0.0), chance)
        totals.append(float(sum(stakes.points.get(word, 0.0) * chance for word, chance in recalled.items())))
    return Covered(sum(stakes.points.values()), totals[-1], list(zip(moments, totals)))


def _chance_at(stakes: Stakes, card: CardRow, answers: list[tuple[float, int, float | None, float | None]],
               moment: float) -> float:
    """The chance the player recalled a card's words at `moment` (0 while it was new)."""
    later = bisect_right(answers, moment, key=lambda answer: answer[0])
    if later < len(answers):
        _, state, stability, last_review = answers[later]
    else:
        state, stability, last_review = card.state, card.stability, card.last_review
    return 0.0 if state == 0 else stakes.recall(stability, last_review, moment)

