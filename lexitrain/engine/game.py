"""A game in progress: racks, bag, scores, turns, challenges and the end.

Rules follow the tournament defaults (exchange needs 7+ tiles in the bag,
going out earns twice the opponent's rack, six scoreless turns end the game)
with home options (exchange any time; out player +sum, others -own). A play
with words not in the lexicon stands until challenged, as over the board:
`challenge()` takes it back, or penalises the challenger by the rule chosen.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Sequence

from lexitrain.engine.bag import Bag
from lexitrain.engine.board import Board, tile_text
from lexitrain.engine.dawg import Dawg
from lexitrain.engine.exchanges import can_exchange
from lexitrain.engine.movegen import MoveGenerator
from lexitrain.engine.play import Placement, ScoredPlay
from lexitrain.engine.rules import IllegalPlay, apply_play, check_play, invalid_words, words_formed
from lexitrain.errors import LexitrainError
from lexitrain.tiles import BLANK, RACK_SIZE, Rack

CHALLENGE_RULES = ("double", "single", "5pt", "10pt", "void")


@dataclass
class Rules:
    #: double: a failed challenge loses the turn; single: free; 5pt/10pt: a bonus to the player for each word
    #: of the play challenged (WESPA's rule); void: phonies are refused, nothing is challenged
    challenge: str = "double"
    tournament: bool = True  # going out: +2x opponents' racks; else home: +sum, each other -own
    exchange_limit: int = 7  # tiles needed in the bag to exchange (0 = any time)
    max_zero_turns: int = 6

    def __post_init__(self) -> None:
        if self.challenge not in CHALLENGE_RULES:
            raise LexitrainError(f"unknown challenge rule {self.challenge!r} (known: {', '.join(CHALLENGE_RULES)})")


@dataclass
class Player:
    name: str
    rack: list[str] = field(default_factory=list)
    score: int = 0


@dataclass
class Move:
    """What happened on a turn, with what is needed to take it back."""

    player: int
    kind: str  # play, exchange, pass, challenged-off, lost-challenge
    score: int = 0
    play: ScoredPlay | None = None
    rack_before: list[str] = field(default_factory=list)
    drawn: list[str] = field(default_factory=list)
    phony: list[str] = field(default_factory=list)  # words not in the lexicon
    exchanged: list[str] = field(default_factory=list)  # tiles put back by an exchange
    words: int = 0  # words a tile play formed (what a 5- or 10-point challenge penalty counts)
    zero_turns_before: int = 0  # scoreless turns in a row before it, restored when a phony comes off


class Game:
    def __init__(self, board: Board, lexicon: Dawg, names: tuple[str, ...] = ("Player 1", "Player 2"),
                 seed: int | None = None, rules: Rules | None = None) -> None:
        self.board = board
        self.lexicon = lexicon
        self.rules = rules or Rules()
        self.bag = Bag(board.tiles, seed)
        self.players = [Player(n) for n in names]
        for p in self.players:
            p.rack = self.bag.draw(RACK_SIZE)
        self.turn = 0
        self.zero_turns = 0
        self.history: list[Move] = []
        self.over = False
        self.end_adjustments: list[int] = [0] * len(names)

    @property
    def current(self) -> Player:
        return self.players[self.turn]

    def rack_text(self, player: int | None = None) -> str:
        """The rack as text that reads back to the same tiles (L L is not the LL tile)."""
        return self.board.tiles.spell(self.players[self.turn if player is None else player].rack)

    # -- moves -------------------------------------------------------------------
    def play(self, play: Placement) -> Move:
        """Make a tile play for the player to move. Raises IllegalPlay when a
        rule is broken; words outside the lexicon are refused only under the
        `void` rule (otherwise they stand until challenged)."""
        self._check_not_over()
        player = self.current
        resolved = check_play(self.board, play, self.rack_text(),
                              self.lexicon if self.rules.challenge == "void" else None)
        phony = invalid_words(self.board, resolved, self.lexicon)
        words = len(words_formed(self.board, resolved))
        rack_before = list(player.rack)
        for _, _, tile in resolved.placed():
            text = tile_text(self.board.tiles, tile)
            player.rack.remove(BLANK if text != text.upper() else text)
        apply_play(self.board, resolved)
        move = Move(self.turn, "play", resolved.score, resolved, rack_before, self.bag.draw(RACK_SIZE - len(player.rack)),
                    phony, words=words, zero_turns_before=self.zero_turns)
        player.rack.extend(move.drawn)
        player.score += move.score
        self.zero_turns = 0 if move.score else self.zero_turns + 1
        self._finish_move(move)
        if not player.rack and not len(self.bag):
            self._end(out=move.player)
        return move

    def exchange(self, tiles: str) -> Move:
        self._check_not_over()
        if not can_exchange(len(self.bag), self.rules.exchange_limit):
            raise IllegalPlay(f"cannot exchange with {len(self.bag)} tiles in the bag")
        player = self.current
        try:
            wanted = Rack.parse(self.board.tiles, tiles, "exchange")
        except LexitrainError as exc:
            raise IllegalPlay(str(exc)) from None
        missing = Rack.of(self.board.tiles, player.rack).lacking(wanted.names())
        if missing:
            raise IllegalPlay(missing.said(self.rack_text(), "the exchange"))
        if not wanted.size:
            raise IllegalPlay("exchange at least one tile")
        # the tiles go back in their order on the rack, so a seeded game replays the same
        need = Counter(wanted.names())
        given: list[str] = []
        kept: list[str] = []
        for t in player.rack:
            if need[t]:
                need[t] -= 1
                given.append(t)
            else:
                kept.append(t)
        drawn = self.bag.draw(len(given))
        self.bag.put_back(given)
        move = Move(self.turn, "exchange", 0, None, list(player.rack), drawn, exchanged=given)
        player.rack = kept + drawn
        self.zero_turns += 1
        self._finish_move(move)
        return move

    def pass_turn(self) -> Move:
        self._check_not_over()
        move = Move(self.turn, "pass", 0, None, list(self.current.rack))
        self.zero_turns += 1
        self._finish_move(move)
        return move

    def challenge(self) -> Move:
        """The player to move challenges the previous play. A phony comes off
        the board (its tiles go back to that player's rack); a valid play is
        upheld and the challenger pays by the challenge rule."""
        last = self.history[-1] if self.history else None
        if last is None or last.kind != "play":
            raise IllegalPlay("there is no play to challenge")
        if last.phony:
            self._take_back(last)
            move = Move(last.player, "challenged-off", -last.score, last.play)
            self.history.append(move)
            self.zero_turns = last.zero_turns_before + 1
            self._check_zero_turns()
            return move
        self._check_not_over()
        rule = self.rules.challenge
        if rule in ("5pt", "10pt"):
            bonus = (5 if rule == "5pt" else 10) * last.words
            self.players[last.player].score += bonus
            move = Move(last.player, "challenge-bonus", bonus)
            self.history.append(move)
            return move
        if rule == "double":
            move = Move(self.turn, "lost-challenge", 0, None, list(self.current.rack))
            self.zero_turns += 1
            self._finish_move(move)
            return move
        return Move(self.turn, "challenge-upheld", 0)

    # -- internals ---------------------------------------------------------------
    def _finish_move(self, move: Move) -> None:
        self.history.append(move)
        self.turn = (self.turn + 1) % len(self.players)
        self._check_zero_turns()

    def _check_zero_turns(self) -> None:
        if not self.over and self.zero_turns >= self.rules.max_zero_turns:
            self._end(out=None)

    def _take_back(self, move: Move) -> None:
        if self.over:
            for p, adj in zip(self.players, self.end_adjustments):
                p.score -= adj
            self.end_adjustments = [0] * len(self.players)
            self.over = False
        player = self.players[move.player]
        assert move.play is not None  # only plays are taken back
        for r, c, _ in move.play.placed():
            self.board.set(r, c, -1)
        self.bag.put_back(move.drawn)
        player.rack = list(move.rack_before)
        player.score -= move.score

    def _rack_value(self, player: Player) -> int:
        return sum(self.board.tiles.points_of(t) for t in player.rack)

    def _end(self, out: int | None) -> None:
        """Going out: tournament +2x the others' racks, home +sum and -own for
        the others; six scoreless turns: everyone loses their own rack."""
        adj = [0] * len(self.players)
        for i, p in enumerate(self.players):
            if out is None or i != out:
                value = self._rack_value(p)
                if out is None or not self.rules.tournament:
                    adj[i] -= value
                if out is not None:
                    adj[out] += value * (2 if self.rules.tournament else 1)
        for p, a in zip(self.players, adj):
            p.score += a
        self.end_adjustments = adj
        self.over = True

    def _check_not_over(self) -> None:
        if self.over:
            raise IllegalPlay("the game is over")


@dataclass
class Snapshot:
    """A position met in self-play: the board and the rack to move."""

    board: Board
    rack: str
    scores: list[int]
    bag: int


#: picks and makes the move of the player to move, given the generator's plays for their rack (best score first)
Policy = Callable[[Game, list[ScoredPlay]], Move]


def greedy(game: Game, plays: list[ScoredPlay]) -> Move:
    """Top score every turn; exchange all when there is no play, else pass."""
    if plays:
        return game.play(plays[0])
    if can_exchange(len(game.bag), game.rules.exchange_limit):
        return game.exchange(game.rack_text())
    return game.pass_turn()


def self_play(board: Board, generator: MoveGenerator, seed: int, max_turns: int = 60,
              policies: Sequence[Policy] = (greedy,), list_plays: bool = True) -> tuple[Game, list[Snapshot]]:
    """Self-play over the generator's word graph, player i moving by
    `policies[i % len(policies)]` (greedy by default): the positions before
    each turn, reproducible from the seed. Without `list_plays` the policies
    are handed no plays (one that finds its own move need not wait for them)."""
    game = Game(board, generator.dawg, seed=seed)
    positions: list[Snapshot] = []
    for _ in range(max_turns):
        if game.over:
            break
        positions.append(Snapshot(game.board.copy(), game.rack_text(), [p.score for p in game.players], len(game.bag)))
        plays = generator.plays(game.board, Rack.of(game.board.tiles, game.current.rack)) if list_plays else []
        policies[game.turn % len(policies)](game, plays)
    return game, positions
