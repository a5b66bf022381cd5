"""Cards one by one: naming them, looking one up, suspending, deleting, counting, leeches.

A card is named as `kind:key` (`anagram:AEINRST`) or by its text alone with
a kind (default anagram), the text read the way that kind reads it (the
letters of an anagram card in any order: `RETAINS` names `anagram:AEINRST`).

Leitner boxes for counting are defined by a card's current interval (from its
last review to its due date) against Zyzzyva's schedule (LEITNER_DAYS): box
b holds the intervals from LEITNER_DAYS[b] days up to LEITNER_DAYS[b + 1],
box 0 also the intervals under a day (learning steps), box 10 everything from
480 days. A card scheduled in Leitner mode is so in the box it is stored in;
an FSRS card lands in the box whose wait matches its interval. New cards
are in no box.

A leech is a card answered wrong `leech` times or more (the setting, 8 by
default, as in Anki).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from typing import Any

from lexitrain.errors import LexitrainError
from lexitrain.lexicon import store as lexicon_store
from lexitrain.lexicon.catalog import DEFAULT_LEXICON, EMBEDDED
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.study.quiz.kinds.base import kind_names, new_kind
from lexitrain.study.quiz.scheduler import LEITNER_DAYS, NEW, Scheduling, to_datetime, utc_now
from lexitrain.study.quiz.session import card_json
from lexitrain.study.store import CardRow, ProgressStore, ReviewRow
from lexitrain.wording import counted

DAY = 86400.0
DEFAULT_LEECH = 8
STATE_NAMES = {0: "new", 1: "learning", 2: "review", 3: "relearning"}
RATING_NAMES = {1: "again", 2: "hard", 3: "good", 4: "easy"}


def card_ref(lex: Lexicon, text: str, kind: str | None = None) -> tuple[str, str]:
    """(kind, key) of a card named `kind:key`, or by its text in `kind` (default anagram)."""

    name, sep, rest = text.partition(":")
    if sep and kind is None:
        new_kind(name)  # (a KIND:KEY whose kind is none is an error naming the kinds)
    if sep and name in kind_names():
        if kind is not None and kind != name:
            raise LexitrainError(f"{text}: names a {name} card, not {kind}")
        kind, text = name, rest
    if not text.strip():
        raise LexitrainError("name a card: KIND:KEY (anagram:AEINRST) or its letters")
    chosen = new_kind(kind or "anagram")
    try:
        return chosen.name, chosen.key_from_text(lex, text.strip())
    except ValueError as exc:  # e.g. a character that is no tile of the lexicon's set
        raise LexitrainError(f"{text.strip()!r} names no {chosen.name} card in {lex.name}: {exc}") from None


def find_cards(store: ProgressStore, lex: Lexicon, texts: list[str], kind: str | None = None) -> list[CardRow]:
    """The stored cards these names stand for; one that is no card is an error naming it."""
    if not texts:
        raise LexitrainError("name at least one card (KIND:KEY or its letters)")
    cards = []
    for text in texts:
        card_kind, key = card_ref(lex, text, kind)
        card = store.find_card(lex.name, card_kind, key)
        if card is None:
            raise LexitrainError(f"no card {card_kind}:{key} in {lex.name} (a card is made when first answered)")
        cards.append(card)
    return cards


def interval_box(interval_seconds: float) -> int:
    """The Leitner box of a card whose current interval is this long (see the module's note)."""
    return max(0, bisect_right(LEITNER_DAYS, interval_seconds / DAY + 1e-9) - 1)


def leech_threshold(store: ProgressStore) -> int:
    return int(store.setting("leech", DEFAULT_LEECH))


def check_leech_threshold(failures: int) -> int:
    if failures < 1:
        raise LexitrainError(f"leech threshold {failures}: expected 1 or more failed answers")
    return failures


def leeches(store: ProgressStore, lexicon: str, failures: int | None = None) -> list[CardRow]:
    """Cards failed `failures` times or more (default: the leech setting), most failed first."""
    return store.failed_cards(lexicon, check_leech_threshold(leech_threshold(store) if failures is None else failures))


@dataclass
class CardReport:
    """Everything about one card: its schedule now and every answer it was given."""

    card: CardRow
    deck: str | None
    suspended: bool
    leech: bool
    retrievability: float
    reviews: list[ReviewRow]

    def to_json(self) -> dict[str, Any]:
        card = self.card
        last = to_datetime(card.last_review)
        return {
            "id": f"{card.kind}:{card.key}", "lexicon": card.lexicon, "kind": card.kind, "key": card.key,
            **card_json(card), "last_review": last.isoformat() if last else None,
            "retrievability": round(self.retrievability, 4),
            "leitner_box": None if card.state == NEW else card_box(card),
            "correct": card.correct, "incorrect": card.incorrect,
            "deck": self.deck, "suspended": self.suspended, "leech": self.leech,
            "reviews": [review_json(r) for r in self.reviews],
        }


def card_box(card: CardRow) -> int:
    """The Leitner box of a card's interval; a card never reviewed here (a Zyzzyva question
    imported unanswered) has no interval yet, so the box it was given."""
    if card.last_review is None:
        return card.cardbox
    return interval_box((card.due or 0) - card.last_review)


def review_json(review: ReviewRow) -> dict[str, Any]:
    at = to_datetime(review.at)
    before = review.before
    return {
        "at": at.isoformat() if at else None, "mode": review.mode, "correct": review.correct,
        "rating": RATING_NAMES.get(review.rating or 0), "given": review.given,
        "seconds": None if review.ms is None else review.ms / 1000,
        "state_before": STATE_NAMES[before.state] if before else None,
        "stability_before": before.stability if before else None,
        "difficulty_before": before.difficulty if before else None,
    }


def look_up(store: ProgressStore, lex: Lexicon, text: str, kind: str | None = None) -> CardReport:
    """One card's report (retrievability at the current time)."""
    card = find_cards(store, lex, [text], kind)[0]
    deck, suspended = store.card_place(card.id)
    return CardReport(card, deck, suspended, card.incorrect >= leech_threshold(store),
                      Scheduling().retrievability(card, utc_now()), store.card_reviews(card.id))


def counts(store: ProgressStore, lexicon: str) -> dict[str, Any]:
    """Cards per state (suspended ones counted apart too), per Leitner box, and the leeches."""
    by_state = dict.fromkeys(STATE_NAMES.values(), 0)
    suspended = 0
    for state, is_suspended, n in store.state_counts(lexicon):
        by_state[STATE_NAMES[state]] += n
        suspended += n if is_suspended else 0
    boxes = [0] * len(LEITNER_DAYS)
    for interval in store.review_intervals(lexicon):
        boxes[interval_box(interval)] += 1
    return {"lexicon": lexicon, "cards": sum(by_state.values()), "by_state": by_state, "suspended": suspended,
            "by_box": {str(box): n for box, n in enumerate(boxes)},
            "box_days": list(LEITNER_DAYS), "leeches": len(leeches(store, lexicon))}


@dataclass(frozen=True)
class LexiconRemoved:
    """A compiled lexicon removed: its name as compiled, the cards it held (kept), and whether it was the study
    lexicon (the default is now)."""

    name: str
    cards: int
    studied: bool


def lexicon_cards(store: ProgressStore, lexicon: str) -> int:
    """How many cards a lexicon holds, suspended ones included (what removing it would leave without words)."""
    return sum(n for _, _, n in store.state_counts(lexicon))


def remove_lexicon(store: ProgressStore | None, name: str, force: bool = False) -> LexiconRemoved:
    """Delete compiled lexicon NAME (compared without case), minding the player's progress in one transaction: a
    lexicon of their own that holds cards is refused unless `force` (the cards are kept, and come back when it is
    compiled again), and removing the study lexicon makes the default the study lexicon, so every command still
    has one; no other process writes between the cards counted and the lexicon gone. An embedded lexicon comes
    back on next use, so its cards do not hold it. `store`: None where the player has no progress yet."""
    if lexicon_store.read_manifest(name) is None:
        raise LexitrainError(f"no compiled lexicon named {name!r}")
    stored = lexicon_store.stored_name(name)
    if store is None or stored.casefold() in EMBEDDED:
        return LexiconRemoved(lexicon_store.remove(stored), 0, False)
    with store.transaction():
        cards = lexicon_cards(store, stored)
        studied = str(store.setting("lexicon", "")).casefold() == stored.casefold()
        if cards and not force:
            mine = " and is your study lexicon" if studied else ""
            raise LexitrainError(f"lexicon {stored} holds {counted(cards, 'card')}{mine}: removing it leaves them "
                                 f"without their words; give --force to remove it all the same (the cards are kept, "
                                 f"and come back when you compile {stored} again)")
        if studied:
            store.set_setting("lexicon", DEFAULT_LEXICON)
        return LexiconRemoved(lexicon_store.remove(stored), cards, studied)
