"""A game against a bot as a player plays it: the rules chosen, both clocks, the challenges, the record.

`Match` holds a `game.Game` (board, bag, racks, scores, the rules), a
`clock.GameClock` and a `bots.Bot`, and keeps the game's GCG events as they
happen: every rack, play, exchange and pass, a phony taken off (`--`), a
challenge lost under the double rule (a pass noted `#unsuccessful-challenge`,
as Macondo writes it), a challenge bonus, and at the end the rack points and
the time penalties. A face reads a line of the player's (`player_line`: a
play in GCG notation, `exchange ABC`, `pass` or `challenge`) and lets the
bot move (`bot_step`); each says what happened (`Happened`).

The challenge rules (`RULES`): void (a phony is refused as it is played),
single (a challenge costs nothing), double (a wrong challenge loses the
turn), 5 and 10 (a wrong challenge gives the player challenged 5 or 10 points
for each word of the play). The default goes by the lexicon's style, as the
federations play: 5 points for a CSW-style lexicon (Collins, SOWPODS), double
for the rest (NWL, TWL, ENABLE, ...). The bot may challenge a play of the
player's before it moves; the player may challenge the bot's last play on
their turn. A bot never bluffs a play that goes out, so the game ends when
the bot goes out; when the player goes out the bot may still challenge.

A match is saved as its GCG record and its `Settings` (seed, level, rules,
clock); `resume` plays the record's moves again through the same `Game`
from the same seed, so the bag is the same bag and the game goes on as it
would have. A record whose racks differ from the seed's draws is refused.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from lexitrain.engine.board import Board
from lexitrain.engine.bots import EXCHANGE, PASS, PLAY, Bot, level
from lexitrain.engine.cgp import Position, to_cgp
from lexitrain.engine.clock import DEFAULT_MINUTES, GameClock, check_minutes
from lexitrain.engine.dawg import dawg_for
from lexitrain.engine.exchanges import unseen_tiles
from lexitrain.engine.game import Game, Move, Rules
from lexitrain.engine.gcg import (CHALLENGE_BONUS, END_RACK, EXCHANGE as GCG_EXCHANGE, PASS as GCG_PASS,
                                  PLAY as GCG_PLAY, TIME_PENALTY, WITHDRAWN, Event, Game as Record, Player)
from lexitrain.engine.play import Play, letter_case
from lexitrain.engine.rules import IllegalPlay
from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.tiles import Rack

#: the challenge rules as a player names them, and as `game.Rules` does
RULES = {"void": "void", "single": "single", "double": "double", "5": "5pt", "10": "10pt"}
#: a lexicon named like one of these plays the 5-point rule (WESPA's); any other the double rule (NASPA's)
CSW_STYLE = ("csw", "collins", "sowpods", "cd")
#: the note Macondo writes after the pass a lost double challenge records
LOST_CHALLENGE = "#unsuccessful-challenge"
PLAYER, BOT = "player", "bot"


def challenge_rule(asked: str | None, lexicon: str) -> str:
    """The rule (as `Rules` names it) for `--challenge` ASKED, or the lexicon style's default."""
    if asked is None:
        return "5pt" if lexicon.lower().startswith(CSW_STYLE) else "double"
    if asked not in RULES:
        raise LexitrainError(f"--challenge {asked}: choose one of {', '.join(RULES)}")
    return RULES[asked]


def rule_name(rule: str) -> str:
    """A rule as the player names it (`5pt` is `5`)."""
    return next(name for name, value in RULES.items() if value == rule)


@dataclass
class Settings:
    """What a match was started with (saved beside its record)."""

    lexicon: str
    level: int
    challenge: str  # as Rules names it
    minutes: float = DEFAULT_MINUTES
    seed: int = 0
    hide_unseen: bool = False
    first: bool = True  # the player moves first
    player: str = "you"

    def __post_init__(self) -> None:
        level(self.level)
        check_minutes(self.minutes)
        if self.challenge not in RULES.values():
            raise LexitrainError(f"unknown challenge rule {self.challenge!r}")

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @staticmethod
    def from_json(data: dict[str, Any]) -> Settings:
        fields = {k: data[k] for k in ("lexicon", "level", "challenge", "minutes", "seed", "hide_unseen", "first",
                                       "player") if k in data}
        return Settings(**fields)


@dataclass(frozen=True)
class Happened:
    """One thing that happened: who did it (PLAYER or BOT), what (play, exchange, pass, challenge,
    withdrawn, bonus, end), the move as GCG writes it and its points, and one line saying it."""

    who: str
    what: str
    move: str
    score: int
    text: str
    details: dict[str, Any] = field(default_factory=dict)


class Match:
    """One game of the player against a bot."""

    def __init__(self, lex: Lexicon, settings: Settings, bot: Bot | None = None,
                 now: Callable[[], float] = time.time) -> None:
        self.lex = lex
        self.settings = settings
        self.bot = bot if bot is not None else Bot(level(settings.level), lex)
        self.me = 0 if settings.first else 1
        self.them = 1 - self.me
        self.nicks = [""] * 2
        self.nicks[self.me], self.nicks[self.them] = settings.player, self.bot.name
        board = Board(lex.layout, lex.tiles)
        self.game = Game(board, dawg_for(lex), tuple(self.nicks), seed=settings.seed,
                         rules=Rules(challenge=settings.challenge))
        self.clock = GameClock(settings.minutes, now=now)
        self.events: list[Event] = []
        self.finished = False
        self._bot_to_judge = False  # the player's play waits for the bot's challenge (it may end the game)
        self._challenged = -1  # the history length when the player last challenged (one challenge a play)

    # -- what faces read -----------------------------------------------------------
    @property
    def tiles(self) -> Any:
        return self.game.board.tiles

    @property
    def scores(self) -> list[int]:
        """[the player's, the bot's]"""
        return [self.game.players[self.me].score, self.game.players[self.them].score]

    @property
    def to_move(self) -> str | None:
        """PLAYER or BOT, or None when the game is finished."""
        if self.finished:
            return None
        if self._bot_to_judge:
            return BOT
        return PLAYER if self.game.turn == self.me else BOT

    @property
    def turn_number(self) -> int:
        """The number of this turn, counted as `gcg analyze` counts them (plays, exchanges, passes)."""
        return 1 + sum(e.kind in (GCG_PLAY, GCG_EXCHANGE, GCG_PASS) for e in self.events)

    def rack(self) -> str:
        return self.game.rack_text(self.me)

    def unseen(self) -> str:
        """The tiles the player cannot see (the bag and the bot's rack), in tile order, blanks last."""
        mine = Rack.of(self.tiles, self.game.players[self.me].rack)
        return self.tiles.spell(unseen_tiles(self.game.board, mine).names())

    def bag(self) -> int:
        return len(self.game.bag)

    def cgp(self) -> str:
        """The position as the player sees it (their rack only), the player's score first."""
        position = Position(self.game.board.copy(), [self.rack(), ""], self.scores, self.game.zero_turns,
                            {"lex": self.lex.name})
        return to_cgp(position)

    def clock_seconds(self) -> list[int]:
        """[the player's, the bot's] seconds left (negative in overtime); untimed: the seconds used."""
        return [round(self.clock.left(self.me)), round(self.clock.left(self.them))]

    def turn_json(self) -> dict[str, Any]:
        """The player's turn as `play --jsonl` prints it: exactly these keys (`unseen` only when shown)."""
        data: dict[str, Any] = {"turn": self.turn_number, "cgp": self.cgp(), "rack": self.rack(),
                                "scores": self.scores, "clock": self.clock_seconds()}
        if not self.settings.hide_unseen:
            data["unseen"] = self.unseen()
        return data

    def last_play_squares(self) -> set[tuple[int, int]]:
        """The squares of the last tile play still on the board (a face marks them)."""
        for move in reversed(self.game.history):
            if move.kind == "challenged-off":
                return set()
            if move.kind == "play" and move.play is not None:
                return {(r, c) for r, c, _ in move.play.placed()}
        return set()

    def can_challenge(self) -> bool:
        """Whether the player may challenge now: the bot's play is the last move, not challenged yet, and the
        rule has challenges."""
        game = self.game
        last = game.history[-1] if game.history else None
        return (self.to_move == PLAYER and game.rules.challenge != "void" and last is not None
                and last.kind == "play" and last.player == self.them and self._challenged != len(game.history))

    def winner(self) -> str:
        mine, theirs = self.scores
        return self.settings.player if mine > theirs else self.bot.name if theirs > mine else "draw"

    # -- the player ----------------------------------------------------------------
    def start_turn(self) -> None:
        """The clock of the side to move runs (at the start, and after a resume)."""
        if self.to_move is not None:
            self.clock.start(self.me if self.to_move == PLAYER else self.them)

    def player_line(self, line: str) -> list[Happened]:
        """The player's line: a play (`8D RETAINS`, `H8 cat` with a blank), `exchange ABC`, `pass` or
        `challenge`. A line that cannot be made raises LexitrainError (IllegalPlay) with the reason,
        nothing changed."""
        if self.to_move != PLAYER:
            raise LexitrainError("it is not your turn" if not self.finished else "the game is over")
        text = " ".join(line.split())
        word = text.lower()
        game = self.game
        if not text:
            raise IllegalPlay("type a play (8D RETAINS), exchange ABC, pass or challenge")
        if word == "challenge":
            return self._player_challenges()
        if word in ("pass", "-"):
            return self._after_player(self._made(PLAYER, game.pass_turn()))
        if word.startswith("exchange ") or (text.startswith("-") and len(text) > 1):
            tiles = text.split(None, 1)[1] if word.startswith("exchange ") else text[1:]
            return self._after_player(self._made(PLAYER, game.exchange(tiles.replace(" ", "").upper())))
        if word == "exchange":
            raise IllegalPlay("say which tiles to exchange: exchange ABC")
        play = Play.parse(letter_case(text, self.rack()), self.tiles)
        happened = self._made(PLAYER, game.play(play))
        self._bot_to_judge = game.rules.challenge != "void"
        return self._after_player(happened)

    def _after_player(self, happened: list[Happened]) -> list[Happened]:
        """After the player's line: the game finished if it is over and no challenge of the bot's waits,
        else the clock of the side to move runs."""
        if self.game.over and not self._bot_to_judge:
            self._finish()
        else:
            self.start_turn()
        return happened

    def _player_challenges(self) -> list[Happened]:
        game = self.game
        last = game.history[-1] if game.history else None
        if game.rules.challenge == "void":
            raise IllegalPlay("under the void rule there is nothing to challenge: phonies are refused as played")
        if last is None or last.kind != "play" or last.player != self.them:
            raise IllegalPlay("there is no play of the bot's to challenge")
        if self._challenged == len(game.history):
            raise IllegalPlay("you have challenged that play already")
        self._challenged = len(game.history)
        return self._after_player(self._made(PLAYER, game.challenge()))

    # -- the bot -------------------------------------------------------------------
    def bot_step(self) -> list[Happened]:
        """The bot's turn: first its challenge of the play the player just made (if it makes one), then its
        move, unless a lost challenge cost it the turn or the game is over."""
        if self.to_move != BOT:
            raise LexitrainError("it is not the bot's turn")
        self.clock.start(self.them)
        happened: list[Happened] = []
        seed = self.settings.seed
        if self._bot_to_judge:
            self._bot_to_judge = False
            if self.bot.challenges(self.game, seed):
                happened += self._made(BOT, self.game.challenge())
        if self.game.over:
            self._finish()
            return happened
        if self.game.turn == self.them:
            left = self.clock.left(self.them) if self.clock.timed else None
            unseen = unseen_tiles(self.game.board, Rack.of(self.tiles, self.game.current.rack)).size
            chosen = self.bot.move(self.game, seed, None if left is None else budget(left, unseen))
            if chosen.kind == PLAY:
                assert chosen.play is not None
                move = self.game.play(chosen.play)
            elif chosen.kind == EXCHANGE:
                move = self.game.exchange(chosen.tiles)
            else:
                move = self.game.pass_turn()
            happened += self._made(BOT, move, how=chosen.how)
            if self.game.over:
                self._finish()
        if not self.finished:
            self.start_turn()
        return happened

    # -- recording -----------------------------------------------------------------
    def _cumulative(self, player: int) -> int:
        """A player's total as the move line writes it (the end's rack points come in their own lines)."""
        adjustment = self.game.end_adjustments[player] if self.game.over else 0
        return self.game.players[player].score - adjustment

    def _made(self, who: str, move: Move, how: str = "") -> list[Happened]:
        """Record a move of the game as its GCG event and say what happened."""
        tiles = self.tiles
        nick = self.nicks[move.player]
        cumulative = self._cumulative(move.player)
        rack = tiles.spell(move.rack_before)
        kind = move.kind
        if kind == "play":
            assert move.play is not None
            notation = move.play.format(tiles)
            self.events.append(Event(GCG_PLAY, nick, rack, move.score, cumulative,
                                     position=move.play.position, tiles=move.play.tiles_text(tiles)))
            word = move.play.word(tiles)
            return [Happened(who, "play", notation, move.score, f"{notation} ({word}) for {move.score}",
                             {"how": how} if how else {})]
        if kind == "exchange":
            given = tiles.spell(move.exchanged)
            self.events.append(Event(GCG_EXCHANGE, nick, rack, 0, cumulative, tiles=given))
            shown = f"exchange {given}" if who == PLAYER else f"exchange {len(move.exchanged)}"
            return [Happened(who, "exchange", shown, 0, f"exchanged {len(move.exchanged)} tiles")]
        if kind == "pass":
            self.events.append(Event(GCG_PASS, nick, rack, 0, cumulative))
            return [Happened(who, "pass", "pass", 0, "passed")]
        if kind == "lost-challenge":
            self.events.append(Event(GCG_PASS, nick, rack, 0, cumulative, notes=[LOST_CHALLENGE]))
            loser = "you lose" if who == PLAYER else "the bot loses"
            return [Happened(who, "challenge", "challenge", 0, f"the play is good: {loser} the turn")]
        if kind == "challenged-off":
            assert move.play is not None
            played = self.game.history[-2]  # the phony play itself, then its withdrawal
            self.events.append(Event(WITHDRAWN, nick, tiles.spell(played.rack_before), -played.score, cumulative))
            words = ", ".join(played.phony)
            whose = "your" if move.player == self.me else "the bot's"
            return [Happened(who, "challenge", "challenge", -played.score,
                             f"{words} {'is' if len(played.phony) == 1 else 'are'} not in {self.lex.name}: "
                             f"{whose} {played.play.format(tiles) if played.play else ''} comes off",
                             {"withdrawn": played.play.format(tiles) if played.play else "", "phony": played.phony})]
        if kind == "challenge-bonus":
            held = self.game.rack_text(move.player)
            self.events.append(Event(CHALLENGE_BONUS, nick, held, move.score, cumulative))
            gets = "you get" if move.player == self.me else "the bot gets"
            return [Happened(who, "challenge", "challenge", move.score,
                             f"the play is good: {gets} {move.score} points")]
        if kind == "challenge-upheld":
            return [Happened(who, "challenge", "challenge", 0, "the play is good (no penalty: single challenge)")]
        raise LexitrainError(f"unknown move {kind!r}")  # pragma: no cover - every kind of Game's is above

    def _finish(self) -> None:
        """The game is over: the rack points, then each player's overtime penalty, as their own lines."""
        self.clock.stop()
        game = self.game
        tiles = self.tiles
        adjustments = game.end_adjustments
        out = next((i for i, a in enumerate(adjustments) if a > 0), None)
        if out is not None:
            other = 1 - out
            self.events.append(Event(END_RACK, self.nicks[out], "", adjustments[out],
                                     self._cumulative(out) + adjustments[out], tiles=game.rack_text(other)))
        else:
            for i in range(2):
                if adjustments[i]:
                    held = game.rack_text(i)
                    self.events.append(Event(END_RACK, self.nicks[i], held, adjustments[i],
                                             self._cumulative(i) + adjustments[i], tiles=held))
        for i in range(2):
            penalty = self.clock.penalty(i)
            if penalty:
                game.players[i].score -= penalty
                self.events.append(Event(TIME_PENALTY, self.nicks[i], game.rack_text(i), -penalty,
                                         game.players[i].score))
        self.finished = True

    def record(self) -> Record:
        """The game as a GCG record: players, lexicon, a title and description in words, every event."""
        rung = self.bot.rung
        pragmas = {"title": f"{self.settings.player} v {rung.name} (lexitrain level {rung.level})",
                   "description": f"lexitrain play: {rule_name(self.settings.challenge)} challenge, "
                                  + (f"{self.settings.minutes:g} minutes each" if self.settings.minutes
                                     else "untimed"),
                   "lexicon": self.lex.name}
        players = [Player(self.nicks[0], self._full_name(0)), Player(self.nicks[1], self._full_name(1))]
        return Record(players, list(self.events), pragmas)

    def _full_name(self, seat: int) -> str:
        return "You" if seat == self.me and self.settings.player == "you" else (
            self.settings.player if seat == self.me else f"lexitrain {self.bot.name}")

    # -- resuming ------------------------------------------------------------------
    @staticmethod
    def resume(lex: Lexicon, settings: Settings, record: Record, used: list[float], bot: Bot | None = None,
               now: Callable[[], float] = time.time) -> Match:
        """The match a saved record and its settings stand for, its moves made again from the same seed
        (so the bag holds what it held), its clock as saved. A record its seed does not draw is refused."""
        match = Match(lex, settings, bot, now)
        game = match.game
        tiles = match.tiles
        for event in record.events:
            where = f"{record.source}:{event.line}" if record.source else f"move line {event.line}"
            if event.kind in (END_RACK, TIME_PENALTY):
                break
            seat = match.nicks.index(event.player) if event.player in match.nicks else -1
            if seat < 0:
                raise LexitrainError(f"{where}: {event.player!r} is not a player of this game")
            if event.kind in (GCG_PLAY, GCG_EXCHANGE, GCG_PASS) and sorted(tiles.tokenize(event.rack)) != \
                    sorted(tiles.tokenize(game.rack_text(seat))):
                raise LexitrainError(f"{where}: the rack {event.rack} is not the one the game's seed dealt "
                                     f"({game.rack_text(seat)}): the file was changed, it cannot be resumed")
            who = PLAYER if seat == match.me else BOT
            match._bot_to_judge = False
            try:
                if event.kind == GCG_PLAY:
                    match._made(who, game.play(Play.from_notation(event.position, event.tiles, tiles)))
                    match._bot_to_judge = seat == match.me
                elif event.kind == GCG_EXCHANGE:
                    match._made(who, game.exchange(event.tiles))
                elif event.kind == GCG_PASS and LOST_CHALLENGE not in event.notes:
                    match._made(who, game.pass_turn())
                elif event.kind in (GCG_PASS, WITHDRAWN, CHALLENGE_BONUS):  # a challenge and what it did
                    match._challenged = len(game.history)
                    match._made(who, game.challenge())
            except LexitrainError as exc:
                raise LexitrainError(f"{where}: {exc}") from None
        match.clock.used = [float(s) for s in used]
        if any(e.kind in (END_RACK, TIME_PENALTY) for e in record.events) or (game.over and not match._bot_to_judge):
            match._finish()
        return match


def bot_line(match: Match, bot: Bot, seed: int) -> str:
    """The line a bot sitting in the player's chair types (self-play, benchmarks, a weak player's games for a
    leak profile): `challenge` when it challenges the play just made against it, else its move."""
    if match.can_challenge() and bot.challenges(match.game, seed):
        return "challenge"
    chosen = bot.move(match.game, seed)
    if chosen.kind == PLAY:
        assert chosen.play is not None
        return chosen.play.format(match.tiles)
    return f"exchange {chosen.tiles}" if chosen.kind == EXCHANGE else "pass"


def budget(left: float, unseen: int) -> float:
    """The seconds a bot may think about one move: its time left shared over the moves it may still make
    (about one for every eight unseen tiles, at least two), none in overtime but a moment."""
    if left <= 0:
        return 0.2
    return left / max(2.0, unseen / 8)
