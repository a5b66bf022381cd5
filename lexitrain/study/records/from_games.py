"""Cards from a player's own games (`lexitrain study from-games`): what the games
show the player missed, turned into study.

Every turn is analysed as `gcg analyze` does, against the study lexicon: the
alphagram of each bingo that was on the rack and not played becomes an
anagram card; a turn that gave up more than `points` points against the top
score becomes a position card (the board before the turn, the player's rack);
each word of a move the lexicon lacks becomes a valid-or-phony card (a game
recorded in another lexicon is noted: its words are judged by this one). Cards
new to the store are put in learning, due now, so the next `quiz --due` or
daily drill asks them; cards already studied keep their schedule. A file that
does not read, uses another tile set or lacks the player is skipped and named.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

from lexitrain.errors import LexitrainError

if TYPE_CHECKING:
    from lexitrain.lexicon.lexicon import Lexicon
    from lexitrain.study.store import ProgressStore

#: a turn giving up more points than this against the top score makes a position card
DEFAULT_POINTS = 20
#: the kinds of card made, in the order they are reported
KINDS = ("anagram", "position", "valid-or-phony")


@dataclass
class GameCards:
    """What a batch of games gave: the card keys by kind, how many were new, and the files skipped."""

    games: int = 0
    turns: int = 0
    keys: dict[str, list[str]] = field(default_factory=lambda: {k: [] for k in KINDS})
    added: int = 0
    known: int = 0
    skipped: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # games recorded in another lexicon than the one judging them

    def add(self, kind: str, key: str) -> None:
        if key not in self.keys[kind]:
            self.keys[kind].append(key)

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "turns": self.turns, "cards": {k: len(v) for k, v in self.keys.items()},
                "added": self.added, "already_cards": self.known, "keys": self.keys, "skipped": self.skipped,
                "notes": self.notes}


def cards_from_games(store: ProgressStore, lex: Lexicon, paths: Iterable[Path], player: str | None = None,
                     points: int = DEFAULT_POINTS) -> GameCards:
    """Analyse the games (the turns of `player` only, when given) and add their cards to the store."""
    from lexitrain.engine.analysis import Analyst
    from lexitrain.engine.dawg import dawg_for
    from lexitrain.engine.gcg import read_gcg
    from lexitrain.engine.leave_table import load_leaves
    from lexitrain.lexicon.catalog import compiled_match

    if points < 0:
        raise LexitrainError("--points must be 0 or more")
    analyst = Analyst(dawg_for(lex), load_leaves(lex.tiles), lex.tiles)
    found = GameCards()
    for path in paths:
        try:
            game = read_gcg(path)
            report = analyst.game(game, player)
        except LexitrainError as exc:
            found.skipped.append(str(exc))
            continue
        found.games += 1
        named = (game.lexicon or "").strip()
        if named and compiled_match(named) != lex.name:
            found.notes.append(f"{path}: recorded in {named}, its words judged by {lex.name}")
        for turn in report.turns:
            found.turns += 1
            for bingo in turn.missed_bingos:
                found.add("anagram", lex.tiles.alphagram(bingo["word"].upper()))
            if not turn.note and turn.points_given_up > points:
                found.add("position", turn.cgp)
            for word in turn.phonies:
                found.add("valid-or-phony", word.upper())
    if not found.games:  # nothing to study: say why in one line
        raise LexitrainError(found.skipped[0] if len(found.skipped) == 1 else
                             f"none of the {len(found.skipped)} files gave a game: {found.skipped[0]} ...")
    _add_cards(store, lex, found)
    return found


def _add_cards(store: ProgressStore, lex: Lexicon, found: GameCards) -> None:
    """Store the cards; those new to the store go into learning, due now."""
    from lexitrain.study.quiz.scheduler import LEARNING, NEW, utc_now

    now = utc_now().timestamp()
    wanted = [(kind, key) for kind in KINDS for key in found.keys[kind]]
    with store.transaction():
        for card_id in store.ensure_cards(lex.name, wanted, now):
            card = store.card(card_id)
            if card.state != NEW:
                found.known += 1
                continue
            card.state, card.step, card.due = LEARNING, 0, now
            store.save_card(card)
            found.added += 1
