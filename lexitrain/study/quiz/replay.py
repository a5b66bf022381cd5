"""A card's schedule made again from its history: the same answers give the same card on any machine.

A card's schedule is a function of its facts (`study.store.history`): its answers that were graded, in
time order, each by the way of scheduling in force when it was given, and its events in their places
(a state `set` whole, a `due` date moved, the card `forget`-ten). The facts sort by moment, then answers
before events of the same moment, then by id, so two stores with the same facts sort them alike; making
the card starts from its latest `set` or `forget` (or a new card) and folds the rest in.

An answer given now is normally the card's latest fact, and grading the card as it stands gives what
making it again would (`ProgressStore.grade_card`'s quick way, by the rule `rescheduling` hands it); an
answer that is not (a club's debt paid late, a clock behind another machine's), and every change to a
card's past (an undo, a mark, answers or events taken from another store) make the card again here
(`replay_card`). Every way a card's schedule changes goes through one of the two, so a store's cards
are always what their facts make of them, and two stores holding the same facts hold the same cards.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime, timezone
from functools import lru_cache
from typing import Any

from lexitrain.errors import LexitrainError
from lexitrain.study.quiz.scheduler import AGAIN, GOOD, NEW, Scheduling, check_rating, scheduling_for, scheduling_id
from lexitrain.study.store import CardRow, ProgressStore
from lexitrain.study.store.exchange import FactKey
from lexitrain.study.store.history import EVENT_ORDER, AnswerFact, CardEvent, before_json, schedule_of

#: A new card's schedule: never answered, nothing set.
NEW_SCHEDULE: dict[str, Any] = {"state": NEW, "step": None, "stability": None, "difficulty": None, "due": None,
                                "last_review": None, "cardbox": 0, "correct": 0, "incorrect": 0, "streak": 0}


class Rescheduling:
    """The rule an answer graded RATING reschedules its card by (`ProgressStore.grade_card`): GENERAL, the
    player's scheduling (`load_scheduling`), with the card's deck's own retention and parameters; the way of
    scheduling it names for the answer to keep, and making a card again from its history."""

    def __init__(self, store: ProgressStore, general: Scheduling, rating: int) -> None:
        self.store, self.general, self.rating = store, general, check_rating(rating)
        self._for_card: dict[int, Scheduling] = {}

    def _scheduling(self, card: CardRow) -> Scheduling:
        """The card's deck's scheduling, looked up once (`grade_card` asks for the way, then grades, in one
        transaction: the deck cannot change between)."""
        if card.id not in self._for_card:
            self._for_card[card.id] = scheduling_for(self.store, card.id, self.general)
        return self._for_card[card.id]

    def __call__(self, card: CardRow, when: datetime) -> CardRow:
        return self._scheduling(card).grade(card, self.rating, when)

    def way(self, card: CardRow) -> tuple[str, dict[str, Any]]:
        spec = self._scheduling(card).spec()
        return scheduling_id(spec), spec

    def remake(self, card_id: int) -> CardRow:
        made = replay_card(self.store, card_id)
        assert made is not None  # (an answer is no forgetting)
        return made


def rescheduling(store: ProgressStore, general: Scheduling, rating: int) -> Rescheduling:
    """The rule an answer graded RATING reschedules its card by (see `Rescheduling`)."""
    return Rescheduling(store, general, rating)


def set_schedule(store: ProgressStore, card: CardRow, at: float) -> None:
    """Give a card a schedule whole (an import, cards made from games), kept as its `set` event at `at`;
    inside the caller's transaction."""
    with store.transaction():
        later = store.latest_fact(card)
        store.add_card_event(card.lexicon, card.kind, card.key, "set", at, schedule_of(card))
        if later is None or later < at:
            store.save_card(card)
        else:
            replay_card(store, card.id)


def replay_card(store: ProgressStore, card_id: int, since: FactKey | None = None) -> CardRow | None:
    """Make a card again from its history and keep what changed (its schedule, each answer's card before
    it); inside the caller's transaction. SINCE: the earliest of its facts that changed (nothing before it
    did; None: any may have). The card, or None when its history ends with it forgotten (it is then
    forgotten here too)."""
    made = replay_cards(store, {card_id: since})
    if card_id not in made:
        store.card(card_id)  # (the one-line error of a card not there)
    return made[card_id][1]


def replay_cards(store: ProgressStore, since: dict[int, FactKey | None]) -> dict[int, tuple[CardRow, CardRow | None]]:
    """Make these cards again (card id -> SINCE, as `replay_card`'s) as `replay_card` does one, reading and writing
    them together (a few statements for a thousand cards: a sync's page); each card there as it was, and as made
    (None: forgotten)."""
    cards = store.card_rows(since)
    histories = store.card_histories(since)
    ways = _ways(store, [a for answers, _ in histories.values() for a in answers])
    made: dict[int, tuple[CardRow, CardRow | None]] = {}
    changed, rewritten = [], []
    for card in cards:
        answers, events = histories[card.id]
        state, befores, forgotten = made_again(card, answers, events, ways, since[card.id])
        made[card.id] = (card, None if forgotten else state)
        if forgotten:
            continue
        if schedule_of(state) != schedule_of(card):
            changed.append(state)
        kept = {a.id: a for a in answers}
        rewritten += [(before, answer_id) for before, answer_id in befores if kept[answer_id].before != before_json(before)
                      or kept[answer_id].was_new != (before.state == NEW)]
    forgotten_ids = [card_id for card_id, (_, state) in made.items() if state is None]
    if forgotten_ids:
        store.drop_cards(forgotten_ids)
    if changed:
        store.save_cards(changed)
    if rewritten:
        store.rewrite_befores(rewritten)
    return made


def made_again(card: CardRow, answers: list[AnswerFact], events: list[CardEvent], ways: dict[str, Scheduling],
               since: FactKey | None = None) -> tuple[CardRow, list[tuple[CardRow, int]], bool]:
    """What a card's facts make of it: the card (its id, names and when it was added are CARD's), the card
    before each answer folded in (with the answer's id), and whether the history ends with the card
    forgotten (nothing after its latest `forget`). SINCE: as `replay_card`'s."""
    facts: list[tuple[float, int, str, AnswerFact | CardEvent]] = sorted(
        [(a.at, 0, a.uid, a) for a in answers] + [(e.at, EVENT_ORDER[e.what], e.uid, e) for e in events],
        key=lambda fact: fact[:3])
    first, state = _starting_point(card, facts, since)
    forgotten = False
    befores: list[tuple[CardRow, int]] = []
    for *_, fact in facts[first:]:
        if isinstance(fact, CardEvent):
            if fact.what == "due":
                if fact.body["last_review"] == state.last_review:
                    state = replace(state, due=fact.body["due"])
                continue
            state = replace(card, **{**NEW_SCHEDULE, **(fact.body if fact.what == "set" else {})})
            forgotten = fact.what == "forget"
            continue
        forgotten = False
        befores.append((state, fact.id))
        if fact.scheduling is not None:
            rating = fact.rating if fact.rating is not None else (GOOD if fact.correct else AGAIN)
            state = ways[fact.scheduling].grade(state, rating, _moment(fact.at))
    return state, befores, forgotten


def _starting_point(card: CardRow, facts: list[tuple[float, int, str, AnswerFact | CardEvent]],
                    since: FactKey | None) -> tuple[int, CardRow]:
    """Where making a card again starts, and the card there: at its latest `set` or `forget` (a new card
    when it has none); or, when only the facts from SINCE on changed, at its last answer before them
    (since that reset), from the card that answer kept as it was before it: what every fact before made
    of it (a card's answers keep that, written as each is kept or made again). A few answers folded in,
    not the card's whole history."""
    new = replace(card, **NEW_SCHEDULE)
    reset = max((i for i, (*_, fact) in enumerate(facts) if _resets(fact)), default=-1)
    if since is not None:
        earlier = [i for i, fact in enumerate(facts) if fact[:3] < since]
        last_reset = max((i for i in earlier if _resets(facts[i][3])), default=-1)
        for i in reversed(earlier):
            fact = facts[i][3]
            if i <= last_reset:
                break
            if isinstance(fact, AnswerFact) and fact.before is not None:
                kept = json.loads(fact.before)
                return i, replace(card, **{name: kept[name] for name in NEW_SCHEDULE})
    return max(reset, 0), new


def _resets(fact: AnswerFact | CardEvent) -> bool:
    """Whether a fact sets the card whole (its state set, or the card forgotten)."""
    return isinstance(fact, CardEvent) and fact.what != "due"


def _ways(store: ProgressStore, answers: list[AnswerFact]) -> dict[str, Scheduling]:
    """The ways of scheduling these answers were graded by; a damaged store (an answer naming one not
    kept) is a one-line error."""
    wanted = {a.scheduling for a in answers if a.scheduling is not None}
    specs = store.scheduling_specs(wanted)
    missing = wanted - set(specs)
    if missing:
        raise LexitrainError(f"{store.path}: answers name a way of scheduling that is not kept ({min(missing)}); "
                             "the progress database is damaged")
    return {sid: _scheduling(json.dumps(spec, sort_keys=True)) for sid, spec in specs.items()}


@lru_cache(maxsize=64)
def _scheduling(spec: str) -> Scheduling:
    return Scheduling.from_spec(json.loads(spec))


def _moment(at: float) -> datetime:
    return datetime.fromtimestamp(at, timezone.utc)
