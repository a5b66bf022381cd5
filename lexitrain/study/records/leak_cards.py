"""The week's study from a leak profile: the costliest kinds of leak turned into cards, due now.

For the top kinds of a profile (`leaks.py`), their costliest leaks become
cards the way `study from-games` makes them (`from_games.py`: cards new to
the store go into learning, due now, so the next daily drill asks them;
cards already studied keep their schedule):

- missed bingos: an anagram card of each bingo's alphagram;
- hooks and front extensions missed: a hooks card of each word hooked;
- phonies played or not challenged: a valid-or-phony card of each phony;
  valid words challenged: one of each word of the play challenged;
- lower-scoring plays: a position card (the top-scoring play);
- bad leaves kept, missed exchanges and pre-endgame errors: a best-play card,
  the position simulated once as it is made (the opponent's rack drawn from
  what their move before it says of it, as `study from-games` draws it);
  endgame errors: an endgame card,
  solved once (one that cannot be solved exactly in its time makes none);
- overtime: no card (a clock is practised by playing), said so.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lexitrain.engine.analysis import Analyst, Read, reads_by_turn
from lexitrain.lexicon.catalog import open_lexicon
from lexitrain.lexicon.progress import Progress, quiet
from lexitrain.study.records.from_games import GameCards, add_due_cards, analyse_turn
from lexitrain.study.records.leaks import (ENDGAME, HOOKS, LEAVE, MISSED_BINGO, MISSED_EXCHANGE, OVERTIME,
                                           PHONY_MISSED, PHONY_PLAYED, PRE_ENDGAME, SCORING, TITLES, VALID_CHALLENGED,
                                           LeakProfile)
from lexitrain.study.store import ProgressStore

#: the kinds of leak studied, costliest first, and the leaks of each made into cards
TOP_KINDS = 3
PER_KIND = 8
#: how the positions of best-play and endgame cards are analysed when the cards are made
SIM_ITERATIONS = 100
ENDGAME_SECONDS = 10.0
WORD_CARDS = {MISSED_BINGO: "anagram", HOOKS: "hooks", PHONY_PLAYED: "valid-or-phony",
              PHONY_MISSED: "valid-or-phony", VALID_CHALLENGED: "valid-or-phony"}
POSITION_CARDS = {SCORING: "position"}
ANALYSED_CARDS = (LEAVE, MISSED_EXCHANGE, PRE_ENDGAME, ENDGAME)


@dataclass
class LeakStudy:
    """What the study made: per kind studied, its cards by kind of card; the cards new to the store."""

    kinds: list[dict[str, Any]] = field(default_factory=list)
    added: int = 0
    already_cards: int = 0
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"kinds": self.kinds, "added": self.added, "already_cards": self.already_cards, "notes": self.notes}


def leak_study(store: ProgressStore, profile: LeakProfile, kinds: int = TOP_KINDS, per_kind: int = PER_KIND,
               sim_iterations: int = SIM_ITERATIONS, endgame_seconds: float = ENDGAME_SECONDS,
               progress: Progress = quiet) -> LeakStudy:
    """Cards for the profile's `kinds` costliest kinds of leak (each kind's `per_kind` costliest leaks)."""
    study = LeakStudy()
    by_kind = profile.by_kind()
    found: dict[str, GameCards] = {}  # by lexicon
    analysts: dict[str, Analyst] = {}  # by lexicon: its move generator and leave values, made once
    reads: dict[str, dict[int, Read]] = {}  # by game: each turn's opponent's move before it, read once
    records = {game.name: game.record for game in profile.games}
    chosen = profile.ranked_kinds()[:kinds]
    for number, kind in enumerate(chosen, start=1):
        leaks = sorted(by_kind[kind], key=lambda x: (-x.win, -x.points))[:per_kind]
        before = {name: {k: len(v) for k, v in cards.keys.items()} for name, cards in found.items()}
        for leak in leaks:
            lex = open_lexicon(leak.lexicon)
            cards = found.setdefault(lex.name, GameCards())
            where = f"{leak.game}: turn {leak.turn}"
            if kind in WORD_CARDS:
                for word in leak.words:
                    key = lex.tiles.alphagram(word) if kind == MISSED_BINGO else word.upper()
                    cards.add(WORD_CARDS[kind], key)
            elif kind in POSITION_CARDS and leak.cgp:
                cards.add(POSITION_CARDS[kind], leak.cgp)
            elif kind in ANALYSED_CARDS and leak.cgp:
                if lex.name not in analysts:
                    analysts[lex.name] = Analyst.of_lexicon(lex)
                if leak.game not in reads:  # (their rack drawn from it, as `study from-games` and `gcg analyze --sim` do)
                    reads[leak.game] = reads_by_turn(records[leak.game], lex.tiles)
                analyse_turn(store, lex, analysts[lex.name], where, leak.cgp, sim_iterations, endgame_seconds, cards,
                             reads[leak.game].get(leak.turn) if leak.turn is not None else None)
        study.kinds.append({"kind": kind, "title": TITLES[kind], "leaks": len(leaks),
                            "cards": _cards_made_since(found, before)})
        if kind == OVERTIME:
            study.notes.append("overtime makes no cards: play with a clock (lexitrain play --clock 25) to practise it")
        progress("making the study", number, len(chosen))
    for name, cards in found.items():
        add_due_cards(store, open_lexicon(name), cards)
        study.added += cards.added
        study.already_cards += cards.known
    return study


def _cards_made_since(found: dict[str, GameCards], before: dict[str, dict[str, int]]) -> dict[str, int]:
    """How many cards of each kind the lexicons' cards gained since BEFORE (each lexicon's count by kind)."""
    made: dict[str, int] = {}
    for name, cards in found.items():
        for card_kind, keys in cards.keys.items():
            grown = len(keys) - before.get(name, {}).get(card_kind, 0)
            if grown:
                made[card_kind] = made.get(card_kind, 0) + grown
    return made
