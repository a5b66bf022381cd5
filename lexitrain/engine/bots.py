"""Bots of graded strength: who they are, how each chooses its move and when it challenges.

The ladder runs from a beginner to the simulation player (`LEVELS`, weakest
first), each level a `Level`: the words it knows (the common words up to a
length, `bot_words.py`, or the whole lexicon), how it chooses (`greedy`: the
top score; `equity`: score plus the leave model's value of the tiles kept,
exchanges and the pass included, `equity.py`; `simulation`: its top
candidates by equity played out, the best chance of winning taken, with the
exact endgame when the bag is empty and the pre-endgame with one tile in
it), how often it misses its best move, how often it puts down a phony when
one outscores its best valid play, and how it meets a play of the player's:
it challenges a phony as often as `catch` says, and a valid word it does
not know as often as `doubt` says.

A bot is handed the game and the seconds it may think (its clock's share)
and returns its move without making it: `match.py` makes it. Its chance
events come from a generator seeded by the game's seed and the number of
moves made, so a game resumed from its file goes on as it would have.
The figures `lexitrain bots` shows (mean score, wins against the equity
player, with their standard errors and game counts) are measured by
`scripts/bench_bots.py` and shipped in `lexicons/bots/ladder.json`.
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass
from typing import Any

from lexitrain.engine.bot_words import BotWords, bot_words
from lexitrain.engine.dawg import Dawg, dawg_for
from lexitrain.engine.endgame import Endgame, solve
from lexitrain.engine.exchanges import can_exchange, unseen_tiles
from lexitrain.engine.game import Game
from lexitrain.engine.leave import LeaveValues
from lexitrain.engine.leave_table import load_leaves
from lexitrain.engine.movegen import MoveGenerator
from lexitrain.engine.play import ScoredPlay
from lexitrain.engine.preendgame import solve_preendgame
from lexitrain.engine.rules import invalid_words, words_formed, word_text
from lexitrain.engine.simulation import EXCHANGE as CHOSEN_EXCHANGE, PLAY as CHOSEN_PLAY
from lexitrain.engine.simulation import (CompiledChooser, Playouts, PythonChooser, default_engine, leave_cents,
                                         position_setup, simulate)
from lexitrain.engine.win_probability import WinModel, load_win_model
from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.paths import shipped
from lexitrain.tiles import Rack

PLAY, EXCHANGE, PASS = "play", "exchange", "pass"
GREEDY, EQUITY, SIMULATION = "greedy", "equity", "simulation"
#: the measured figures of the ladder (scripts/bench_bots.py writes it)
FIGURES = shipped("lexicons") / "bots" / "ladder.json"
#: the most a bot thinks about one move, whatever its clock allows
MOST_SECONDS = 8.0
#: a bot that misses its best move takes one of this many next ones instead
MISS_RANGE = 5


@dataclass(frozen=True)
class Simulating:
    """How a simulating level plays out its candidates (at most: its clock may allow fewer iterations)."""

    candidates: int = 10
    iterations: int = 120
    plies: int = 2
    endgame_seconds: float = 3.0
    preendgame_seconds: float = 4.0


@dataclass(frozen=True)
class Level:
    """One rung of the ladder."""

    level: int
    name: str
    description: str
    choose: str  # GREEDY, EQUITY or SIMULATION
    longest: int | None = None  # the longest common word it knows; None: the whole lexicon
    miss: float = 0.0  # the chance a turn misses its best move
    phony: float = 0.0  # the chance a turn plays a phony that outscores its best valid play
    catch: float = 1.0  # the chance it challenges a phony of the player's
    doubt: float = 0.0  # the chance it challenges a valid word it does not know
    sim: Simulating | None = None


LEVELS: tuple[Level, ...] = (
    Level(1, "Beginner", "knows only the common words (no QI, no ZA, never a slur), plays for points and often misses the best "
          "one; bluffs now and then, catches less than half of your phonies and sometimes challenges a good word "
          "it does not know", GREEDY, longest=15, miss=0.2, phony=0.1, catch=0.4, doubt=0.2),
    Level(2, "Casual", "knows every word but sees the top score only about two turns in three; never bluffs, "
          "catches most phonies", GREEDY, miss=0.35, catch=0.7),
    Level(3, "Club", "knows every word and takes the top score nearly every turn, whatever it keeps; catches "
          "nearly every phony", GREEDY, miss=0.1, catch=0.9),
    Level(4, "Expert", "the equity player: score plus the value of the tiles kept, exchanges when they pay; "
          "challenges every phony", EQUITY),
    Level(5, "Champion", "the simulation player: its ten best candidates played out over random draws, the best "
          "chance of winning taken; the exact endgame and the pre-endgame at the end; challenges every phony",
          SIMULATION, sim=Simulating()),
)


def level(number: int) -> Level:
    """The level asked for, or a one-line error naming them."""
    for rung in LEVELS:
        if rung.level == number:
            return rung
    raise LexitrainError(f"--bot {number}: choose a level from {LEVELS[0].level} (weakest) to {LEVELS[-1].level} "
                         f"({', '.join(f'{r.level} {r.name}' for r in LEVELS)})")


def ladder() -> list[dict[str, Any]]:
    """The levels as `lexitrain bots --json` lists them, weakest first, with their measured figures."""
    measured: dict[str, Any] = {}
    if FIGURES.is_file():
        measured = json.loads(FIGURES.read_text(encoding="utf-8"))
    out = []
    for rung in LEVELS:
        figures = measured.get("levels", {}).get(str(rung.level), {})
        out.append({"level": rung.level, "name": rung.name, "description": rung.description,
                    "mean_score": figures.get("mean_score"), "win_vs_equity": figures.get("win_vs_equity"),
                    "games": figures.get("games"), "mean_score_se": figures.get("mean_score_se"),
                    "win_vs_equity_se": figures.get("win_vs_equity_se")})
    return out


@dataclass(frozen=True)
class BotMove:
    """A move a bot chose (not made yet): a play, the tiles of an exchange, or a pass; and how it chose."""

    kind: str
    play: ScoredPlay | None = None
    tiles: str = ""  # an exchange's tiles put back
    how: str = ""


class Bot:
    """A level playing in one lexicon: it keeps its graphs, its move generators and what it learnt of its speed."""

    def __init__(self, rung: Level, lex: Lexicon, leaves: LeaveValues | None = None,
                 win: WinModel | None = None) -> None:
        self.rung = rung
        self.lex = lex
        self.words: Dawg = dawg_for(lex)
        self.full = MoveGenerator(self.words)
        self.vocabulary: BotWords | None = None
        if rung.longest is not None:
            self.vocabulary = bot_words(lex, rung.longest, rung.phony > 0)
        self.known = MoveGenerator(self.vocabulary.known) if self.vocabulary else self.full
        self.bluffing = (MoveGenerator(self.vocabulary.with_phonies)
                         if self.vocabulary and self.vocabulary.with_phonies is not None else None)
        self.leaves = leaves if leaves is not None else load_leaves(lex.tiles)
        self.win = win if win is not None else load_win_model(lex.tiles)
        self._chooser: CompiledChooser | PythonChooser | None = None
        self.rate = 0.0  # simulation iterations a second, as last measured

    @property
    def name(self) -> str:
        return self.rung.name

    # -- its move ----------------------------------------------------------------
    def move(self, game: Game, seed: int, seconds: float | None = None) -> BotMove:
        """The move it makes in GAME, thinking for about SECONDS at most (and never past MOST_SECONDS); None:
        no clock, its level's whole simulation whatever the time (the same move on any machine)."""
        rng = chance(seed, len(game.history), "move")
        budget = None if seconds is None else max(0.2, min(MOST_SECONDS, seconds))
        choose = self.rung.choose
        if choose == GREEDY:
            return self._greedy(game, rng)
        if choose == EQUITY:
            return self._equity(game)
        return self._simulating(game, seed, budget)

    def _greedy(self, game: Game, rng: random.Random) -> BotMove:
        tiles = game.board.tiles
        rack = Rack.of(tiles, game.current.rack)
        bluff = self.bluffing is not None and game.rules.challenge != "void" and rng.random() < self.rung.phony
        plays = (self.bluffing if bluff and self.bluffing is not None else self.known).plays(game.board, rack)
        if plays:
            pick = 0
            if len(plays) > 1 and rng.random() < self.rung.miss:
                pick = rng.randint(1, min(MISS_RANGE, len(plays) - 1))
            phony = bool(invalid_words(game.board, plays[pick], self.words))
            return BotMove(PLAY, plays[pick], how="a bluff" if phony else "the top score" if not pick else "a miss")
        if can_exchange(len(game.bag), game.rules.exchange_limit):
            return BotMove(EXCHANGE, tiles=game.rack_text(), how="no play: all seven back")
        return BotMove(PASS, how="no play")

    def _equity(self, game: Game) -> BotMove:
        tiles = game.board.tiles
        rack = Rack.of(tiles, game.current.rack)
        if self._chooser is None:
            engine = CompiledChooser if default_engine() == "compiled" else PythonChooser
            self._chooser = engine(game.board, self.full, leave_cents(self.leaves, tiles), game.rules.exchange_limit)
        choice = self._chooser.choose(list(game.board.squares), [*rack.counts, rack.blanks], len(game.bag))
        if choice.kind == CHOSEN_PLAY:
            assert choice.play is not None
            return BotMove(PLAY, choice.play, how="best equity")
        if choice.kind == CHOSEN_EXCHANGE:
            assert choice.given is not None
            given = Rack(tiles, tuple(choice.given[:-1]), choice.given[-1])
            return BotMove(EXCHANGE, tiles=tiles.spell(given.names()), how="best equity")
        return BotMove(PASS, how="best equity")

    def _simulating(self, game: Game, seed: int, budget: float | None) -> BotMove:
        sim = self.rung.sim
        assert sim is not None
        tiles = game.board.tiles
        rack = Rack.of(tiles, game.current.rack)
        unseen = unseen_tiles(game.board, rack)
        me, them = game.players[game.turn], game.players[1 - game.turn]
        if not len(game.bag):  # the opponent's rack is known: the exact endgame
            found = solve(Endgame(game.board, (rack, unseen), game.zero_turns), self.full,
                          sim.endgame_seconds if budget is None else min(sim.endgame_seconds, budget))
            if found.play is None:
                return BotMove(PASS, how="endgame")
            return BotMove(PLAY, found.play, how="endgame" + ("" if found.exact else " (best found in time)"))
        if len(game.bag) == 1:
            plays = self.full.plays(game.board, rack)
            if plays:
                seconds = sim.preendgame_seconds if budget is None else min(sim.preendgame_seconds, budget)
                result = solve_preendgame(game.board, rack, unseen, self.full, seconds,
                                          me.score - them.score, candidates=sim.candidates * 2)
                if result.plays:
                    best = result.plays[0].play
                    return BotMove(PASS, how="pre-endgame") if best is None else BotMove(PLAY, best, how="pre-endgame")
        setup = position_setup(self.lex.name, game.board, rack, [me.score, them.score], self.full, self.leaves,
                               candidates=sim.candidates, plies=sim.plies)
        first = setup.candidates[0]
        if len(setup.candidates) == 1:
            return self._candidate(first, tiles, "the only move")
        iterations = sim.iterations
        if self.rate and budget is not None:
            iterations = max(16, min(iterations, int(self.rate * budget)))
        started = time.perf_counter()
        report = simulate(setup, iterations, seed=seed * 1000 + len(game.history), stop=99,
                          playouts=Playouts(setup, self.words, self.leaves, self.win))
        spent = time.perf_counter() - started
        if spent > 0:
            self.rate = report.iterations / spent
        return self._candidate(report.rows[0].candidate, tiles, f"simulation, {report.iterations} iterations")

    @staticmethod
    def _candidate(candidate: Any, tiles: Any, how: str) -> BotMove:
        if candidate.play is not None:
            return BotMove(PLAY, candidate.play, how=how)
        if candidate.exchanged is not None:
            return BotMove(EXCHANGE, tiles=tiles.spell(candidate.exchanged.names()), how=how)
        return BotMove(PASS, how=how)

    # -- its challenges ----------------------------------------------------------
    def challenges(self, game: Game, seed: int) -> bool:
        """Whether it challenges the play just made against it: a phony as often as it catches one, a valid
        word it does not know as often as it doubts one. Never under the void rule (nothing to challenge)."""
        last = game.history[-1] if game.history else None
        if last is None or last.kind != PLAY or last.play is None or game.rules.challenge == "void":
            return False
        rng = chance(seed, len(game.history), "challenge")
        if last.phony:
            return rng.random() < self.rung.catch
        if self.vocabulary is None or not self.rung.doubt:
            return False
        board = game.board.copy()
        for r, c, _ in last.play.placed():  # the words as they were formed, read off the board before the play
            board.set(r, c, -1)
        unknown = [w for w in words_formed(board, last.play)
                   if not self.vocabulary.known.has_code(game.board.tiles.encode(word_text(board, w).upper()))]
        return bool(unknown) and rng.random() < self.rung.doubt


def chance(seed: int, moves: int, purpose: str) -> random.Random:
    """The generator of one chance event of a game (by its seed, the moves made so far and what it decides)."""
    return random.Random(f"bot/{seed}/{moves}/{purpose}")
