"""Cards from a player's own games (`lexitrain study from-games`): what the games
show the player missed, turned into study.

Every turn is analysed as `gcg analyze` does, against the study lexicon: the
alphagram of each bingo that was on the rack and not played becomes an
anagram card; a turn that gave up more than `points` points against the top
score becomes a position card (the board before the turn, the player's rack);
each word of a move the lexicon lacks becomes a valid-or-phony card (a game
recorded in another lexicon is noted: its words are judged by this one). Asked
to (`sim_iterations`, `endgame_seconds`), a turn with tiles in the bag is
simulated and becomes a `best-play` card when the simulation's best play is
not a top-scoring one, and a turn with the bag empty is solved and becomes an
`endgame` card when solved exactly in the time given; their analyses are kept
with the positions (`lexitrain.study.quiz.kinds.analysed`). Asked to
(`read_rack`), each opponent's move that kept one to three tiles, read by the
player from their recorded rack, becomes a `read-rack` card: what did they
keep (the reading kept with the position, `kinds/read_rack.py`). Cards
new to the store are put in learning, due now, so the next `quiz --due` or
daily drill asks them; cards already studied keep their schedule. A file that
does not read, uses another tile set or lacks the player is skipped and named.
A game is a file's path (the command) or a file's bytes sent (`Uploaded`: the web app's upload), read alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Union

from lexitrain.engine.analysis import Analyst, Read, find_player
from lexitrain.engine.cgp import to_cgp
from lexitrain.engine.exchanges import unseen_tiles
from lexitrain.engine.gcg import Game, decode_gcg, read_gcg
from lexitrain.engine.inference import load_inference_model
from lexitrain.errors import LexitrainError
from lexitrain.lexicon.catalog import compiled_match
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.lexicon.progress import Progress, quiet
from lexitrain.study.quiz.kinds import analysed as an
from lexitrain.study.quiz.kinds import read_rack as rr
from lexitrain.study.quiz.kinds.position import read_position
from lexitrain.study.quiz.replay import set_schedule
from lexitrain.study.quiz.scheduler import LEARNING, NEW, utc_now
from lexitrain.study.store import ProgressStore, StoredPosition
from lexitrain.tiles import Rack
from lexitrain.wording import counted

#: a turn giving up more points than this against the top score makes a position card
DEFAULT_POINTS = 20
#: the kinds of card made, in the order they are reported (hooks cards come from the leak study alone)
KINDS = ("anagram", "hooks", "position", "valid-or-phony", "best-play", "endgame", "read-rack")


@dataclass(frozen=True)
class Uploaded:
    """A game file sent rather than read from disk (the web app's upload): its name, as errors name it, and bytes."""

    name: str
    data: bytes


#: a game to read: a file's path, or a file sent
GameFile = Union[Path, Uploaded]


def read_game(source: GameFile) -> Game:
    """A game read from a file, or from a file's bytes sent, alike (an error names the file and its line)."""
    return decode_gcg(source.data, source.name) if isinstance(source, Uploaded) else read_gcg(source)


def players(sources: Iterable[GameFile]) -> tuple[list[tuple[str, str]], list[str]]:
    """The players the games name (nick and full name), each once, in the order first named; and why the files that
    did not read were left out."""
    named: dict[str, tuple[str, str]] = {}
    skipped: list[str] = []
    for source in sources:
        try:
            game = read_game(source)
        except LexitrainError as exc:
            skipped.append(str(exc))
            continue
        for p in game.players:
            named.setdefault(p.nick.lower(), (p.nick, p.name))
    return list(named.values()), skipped


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
    positions: list[StoredPosition] = field(default_factory=list)  # analysed, to keep with their cards (read-rack)
    simulated: int = 0  # turns simulated (tiles in the bag)
    inferred: int = 0  # of the best-play cards, those simulated with the opponent's rack read from their last move
    endgames: int = 0  # turns with the bag empty tried with the endgame solver
    unsolved: int = 0  # of those, not solved exactly in the time given (or only a pass is best): no card

    def add(self, kind: str, key: str) -> None:
        if key not in self.keys[kind]:
            self.keys[kind].append(key)

    def said(self, lexicon: str) -> str:
        """What the games gave, in one line (the command's and the web page's): the games and turns read, each kind
        of card counted, how many are new."""
        made = ", ".join(counted(len(keys), f"{kind} card") for kind, keys in self.keys.items()) or "no cards"
        fates = [f"{self.added} new, due now" if self.added else "none new"]
        if self.known:
            fates.append(f"{self.known} {'was a card' if self.known == 1 else 'were cards'} already")
        return (f"{counted(self.games, 'game')}, {counted(self.turns, 'turn')} analysed against {lexicon}: "
                f"{made} ({'; '.join(fates)})")

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "turns": self.turns, "cards": {k: len(v) for k, v in self.keys.items()},
                "added": self.added, "already_cards": self.known, "keys": self.keys, "skipped": self.skipped,
                "notes": self.notes, "simulated": self.simulated, "inferred": self.inferred, "endgames": self.endgames,
                "endgames_unsolved": self.unsolved}


def cards_from_games(store: ProgressStore, lex: Lexicon, files: Iterable[GameFile], player: str | None = None,
                     points: int = DEFAULT_POINTS, sim_iterations: int = 0, endgame_seconds: float = 0.0,
                     progress: Progress = quiet, read_rack: bool = False) -> GameCards:
    """Analyse the games (the turns of `player` only, when given) and add their cards to the store;
    with `sim_iterations` / `endgame_seconds`, also the best-play and endgame cards (analyses kept);
    with `read_rack`, the read-rack cards (the opponent's moves `player` read)."""
    if sim_iterations < 0 or endgame_seconds < 0:
        raise LexitrainError("--sim-iterations and --endgame-time must be 0 (none) or more")
    analyst = Analyst.of_lexicon(lex)
    found, turns = read_games(lex, analyst, files, player, points, read_rack)
    analysed = [(where, cgp, read) for where, cgp, read in turns if sim_iterations or endgame_seconds]
    for number, (where, cgp, read) in enumerate(analysed, start=1):
        analyse_turn(store, lex, analyst, where, cgp, sim_iterations, endgame_seconds, found, read)
        progress("analysing turns", number, len(analysed))
    add_due_cards(store, lex, found)
    return found


def read_games(lex: Lexicon, analyst: Analyst, files: Iterable[GameFile], player: str | None = None,
               points: int = DEFAULT_POINTS, read_rack: bool = False) -> tuple[GameCards, list[tuple[str, str, Read]]]:
    """The quick cards of the games (missed bingos, costly turns, phonies; with `read_rack`, read-the-rack, its
    positions in `positions`), found without the store (`add_due_cards` keeps them); and each turn a simulation
    or the endgame solver could analyse: where it was, its position, the opponent's move before it. ANALYST: the
    lexicon's move generator and leave values (`Analyst.of_lexicon`), which the caller analyses those turns with too."""
    if points < 0:
        raise LexitrainError("--points must be 0 or more")
    found = GameCards()
    turns: list[tuple[str, str, Read]] = []
    for file in files:
        try:
            game = read_game(file)
            report = analyst.game(game, player)
        except LexitrainError as exc:
            found.skipped.append(str(exc))
            continue
        found.games += 1
        named = (game.lexicon or "").strip()
        if named and compiled_match(named) != lex.name:
            found.notes.append(f"{game.source}: recorded in {named}, its words judged by {lex.name}")
        if read_rack:
            nick = find_player(game, player) if player is not None else None
            for card in rr.cards_from_game(lex, game, nick, analyst.generator, analyst.model,
                                           load_inference_model(lex.tiles), game.source):
                found.positions.append(card)
                found.add(rr.KIND, card.cgp)
        for turn, read in zip(report.turns, report.reads):
            found.turns += 1
            for bingo in turn.missed_bingos:
                found.add("anagram", lex.tiles.alphagram(bingo["word"].upper()))
            if not turn.note and turn.points_given_up > points:
                found.add("position", turn.cgp)
            for word in turn.phonies:
                found.add("valid-or-phony", word.upper())
            if not turn.note:
                turns.append((f"{game.source}: turn {turn.turn}", turn.cgp, read))
    if not found.games:  # nothing to study: say why in one line
        raise LexitrainError(found.skipped[0] if len(found.skipped) == 1 else
                             f"none of the {len(found.skipped)} files gave a game: {found.skipped[0]} ...")
    return found, turns


def analyse_turn(store: ProgressStore, lex: Lexicon, analyst: Analyst, where: str, cgp: str, sim_iterations: int,
                 endgame_seconds: float, found: GameCards, read: Read = None) -> None:
    """Simulate a turn with tiles in the bag (the opponent's rack drawn from what their move before it, `read`,
    says of it, as `gcg analyze --sim` does), or solve one with the bag empty (the opponent's rack, the unseen
    tiles, written into the position), and keep the position and its card when it teaches something. ANALYST:
    the lexicon's move generator and leave values, made once for every turn analysed over it."""
    position = read_position(cgp, lex)
    generator = analyst.generator
    plays = generator.plays(position.board, Rack.parse(lex.tiles, position.rack, in_play=True))
    if not plays:
        return
    if an.bag_count(position):
        if not sim_iterations:
            return
        found.simulated += 1
        analysis = an.simulate_position(lex, position, generator, sim_iterations, read=read, leaves=analyst.model)
        found.inferred += bool(analysis and analysis["inferred"])
        kind = an.BEST_PLAY
    else:
        if not endgame_seconds:
            return
        found.endgames += 1
        mine = Rack.parse(lex.tiles, position.rack, in_play=True)
        position.racks = [position.rack, lex.tiles.spell(unseen_tiles(position.board, mine).names())]
        analysis = an.solve_endgame(position, generator, endgame_seconds)
        found.unsolved += analysis is None
        kind = an.ENDGAME
    if analysis is not None:
        an.store_analysed(store, lex, position, where, analysis, plays)
        found.add(kind, to_cgp(position))


def add_due_cards(store: ProgressStore, lex: Lexicon, found: GameCards) -> None:
    """Store the cards found, with the positions analysed for them, in one transaction: those new to the store go
    into learning, due now (the leak study's too); a card the store has already keeps its schedule, and a position
    it has already its analysis, as the transaction reads them (a card answered elsewhere while the games were
    analysed is counted as known, its answer kept)."""
    now = utc_now().timestamp()
    wanted = [(kind, key) for kind in KINDS for key in found.keys[kind]]
    with store.transaction():
        for position in found.positions:
            store.store_analysed_position(lex.name, position, now)
        for card_id in store.ensure_cards(lex.name, wanted, now):
            card = store.card(card_id)
            if card.state != NEW:
                found.known += 1
                continue
            card.state, card.step, card.due = LEARNING, 0, now
            set_schedule(store, card, now)
            found.added += 1
