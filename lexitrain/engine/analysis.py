"""What a recorded game shows about each player's choices: the analysis behind `gcg analyze`.

Every turn whose rack was recorded is solved again: the top plays by score
and by equity (exchanges and the pass among the candidates, the bag worked
out from the board as for a CGP), the points and the equity the move gave
up against the best, the bingos that were on the rack and not played, the
words of the move that the lexicon does not have (a phony, and whether it
stood or was challenged off), and valid plays that were withdrawn anyway.
The lexicon is the one the caller checked words against: `lexicon` in the
report says which, and whether it is the game's own `#lexicon`.

With simulation (`SimOptions`, `gcg analyze --sim`) each solved turn is also
simulated: the top candidates by equity and the move made, and the win
probability the move lost against the best of them (`win_lost`). Near the
end the solvers judge instead (`win_method` says which): with the bag empty
the exact endgame, the move made against the best line (a win, a draw or a
loss); with one tile in the bag the pre-endgame, the play made and the top
candidates by score against every draw. Each has a time limit, so a game is
still analysed in well under a minute; an answer not proved in that time is
the best found, and `win_method` says so.

Every solved turn is also sized as a mistake and the player's Mistake Index
and estimated rating are summed up from them, by the method Macondo's
analyser publishes (`mistakes.py`). With `--sim` each turn is judged as that
method asks, by phase: the simulation while more than one tile is in the bag
(with `late_plies` plies once seven or fewer are), the pre-endgame with one,
the exact endgame with none. Without it the judge is static: each move's
equity (score plus the leave's value) read as a chance of winning through the
win probability model (`win_probability.py`), the opponent to move with the
tiles unseen; `judged_by` in the summary says which judged.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Sequence

from lexitrain.engine.board import BLANK_FLAG, Board
from lexitrain.engine.cgp import Position, to_cgp
from lexitrain.engine.dawg import Dawg, dawg_for
from lexitrain.engine.endgame import Endgame, rack_value, solve
from lexitrain.engine.equity import PLAY, Candidate, leave_value, play_equity, rank_by_equity
from lexitrain.engine.exchanges import kept_after, tiles_in_bag, unseen_tiles
from lexitrain.engine.gcg import EXCHANGE, PASS, Game
from lexitrain.engine.inference import LastMove, infer, load_inference_model
from lexitrain.engine.leave import LeaveValues, leave_after
from lexitrain.engine.leave_table import load_leaves
from lexitrain.engine.mistakes import (ENDGAME, NONE, PRE_ENDGAME, SIMULATION, decided, estimated_rating,
                                       mistake_index, mistake_size)
from lexitrain.engine.movegen import MoveGenerator
from lexitrain.engine.play import ScoredPlay
from lexitrain.engine.preendgame import solve_preendgame
from lexitrain.engine.replay import Turn, detect_tile_set, replay
from lexitrain.engine.rules import apply_play, invalid_words
from lexitrain.engine.simulation import SimReport, SimSetup, position_setup, simulate_many
from lexitrain.engine.win_probability import WinModel, load_win_model
from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.tiles import RACK_SIZE, Rack, TileSet

#: plays listed per turn, by score and by equity
TOP = 5
#: the opponent's move before a turn as the inference reads it, with the board before it (None: none to read)
Read = tuple[Board, LastMove] | None
#: turns per game a report draws as a board (those that gave up the most equity)
COSTLIEST = 3
#: leaves the inference weighs at most for each simulated turn (every leave when there are no more)
INFER_SAMPLES = 1000
#: how a turn with one tile in the bag is judged when the move made is not a play (the pre-endgame tries plays)
SIMULATED_TO_THE_END = "simulation (to the end of the game)"
#: the judges of a summary's Mistake Index
BY_SIMULATION, BY_EQUITY = "simulation, pre-endgame and endgame", "equity through the win probability model"
#: a simulated equity lost counts as points only above this (Macondo's: half a point)
EQUITY_NOISE = 0.5


@dataclass(frozen=True)
class SimOptions:
    """How `gcg analyze --sim` simulates each turn."""

    lexicon: str
    candidates: int = 8
    iterations: int = 150
    plies: int = 2
    late_plies: int = 4  # plies once the bag holds seven tiles or fewer (the early pre-endgame)
    seed: int = 1
    threads: int = 1
    stop: int | None = 95
    infer: bool = True  # the opponent's rack drawn from what their last move says of it, where it is a play or exchange
    endgame_seconds: float = 2.0  # each endgame solved (the best line, then the move made)
    preendgame_seconds: float = 6.0  # each pre-endgame


@dataclass
class TurnReport:
    """One turn of the chosen player, solved again."""

    game: str
    turn: int
    player: str
    rack: str
    kind: str  # play, exchange, pass
    move: str  # GCG notation: `8D QUITE`, `-ABC`, `-`
    score: int  # as recorded
    cgp: str  # the position before the turn, the mover's rack first
    computed: int | None = None
    equity: float | None = None
    top_by_score: list[dict[str, Any]] = field(default_factory=list)
    top_by_equity: list[dict[str, Any]] = field(default_factory=list)
    points_given_up: int = 0
    equity_given_up: float = 0.0
    missed_bingos: list[dict[str, Any]] = field(default_factory=list)  # best placement of each bingo word
    phonies: list[str] = field(default_factory=list)  # words of the move not in the lexicon
    withdrawn: bool = False
    note: str = ""  # why a turn could not be solved (its rack was not recorded)
    win: float | None = None  # with --sim: the move's chance of winning, by simulation
    win_best: float | None = None  # the best candidate's
    win_lost: float = 0.0  # what the move lost against it
    best_by_win: dict[str, Any] = field(default_factory=dict)
    win_method: str = ""  # simulation, or how turns near the end were judged
    bag: int = 0  # tiles in the bag before the turn
    phase: str = ""  # what judged the mistake: simulation, pre-endgame or endgame (mistakes.py)
    spread_lost: float = 0.0  # points lost where points decide (the endgame; tied or decided win chances)
    points_lost: float = 0.0  # points the move gave up against the best, by its judge (equity, simulated equity,
    #                           the endgame's spread, the pre-endgame's expected spread)
    mistake: str = NONE  # small, medium, large, or "" (none)
    inferred: bool = False  # simulated with the opponent's rack read from their last move (`engine/inference.py`)

    @property
    def phony_stood(self) -> bool:
        return bool(self.phonies) and not self.withdrawn

    @property
    def valid_challenged_off(self) -> bool:
        return self.kind == PLAY and self.withdrawn and not self.phonies and not self.note

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data.update(phony_stood=self.phony_stood, valid_challenged_off=self.valid_challenged_off)
        return data


@dataclass
class GameReport:
    source: str
    players: list[str]
    turns: list[TurnReport]

    simulated: bool = False
    #: for each turn, the opponent's move before it as the inference reads it (`read_opponent`; None: none)
    reads: list[Read] = field(default_factory=list, repr=False)

    def summary(self, player: str | None = None) -> dict[str, Any]:
        return summarise([t for t in self.turns if player is None or t.player == player], self.simulated)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.source, "players": self.players,
                "summary": {p: self.summary(p) for p in self.players if any(t.player == p for t in self.turns)},
                "turns": [t.to_json() for t in self.turns]}


def summarise(turns: Sequence[TurnReport], simulated: bool = False) -> dict[str, Any]:
    """The totals of a player's turns (one game or many): the Mistake Index is per game (the mean over
    several), and the estimated rating is the one that index suggests."""
    solved = [t for t in turns if not t.note]
    games = sorted({t.game for t in turns})
    per_game = [mistake_index([t.mistake for t in solved if t.game == g]) for g in games]
    index = round(sum(per_game) / len(per_game), 2) if per_game else 0.0
    return {
        "turns": len(turns), "solved": len(solved),
        "plays": sum(t.kind == PLAY for t in turns), "exchanges": sum(t.kind == EXCHANGE for t in turns),
        "passes": sum(t.kind == PASS for t in turns),
        "points_given_up": sum(t.points_given_up for t in solved),
        "equity_given_up": round(sum(t.equity_given_up for t in solved), 2),
        "top_plays_found": sum(t.equity_given_up <= 0 for t in solved),
        "missed_bingo_turns": sum(bool(t.missed_bingos) for t in solved),
        "phonies_played": sum(bool(t.phonies) for t in turns), "phonies_stood": sum(t.phony_stood for t in turns),
        "valid_challenged_off": sum(t.valid_challenged_off for t in turns),
        "costliest": [f"{t.game} turn {t.turn}" for t in costliest(solved)],
        "win_lost": round(sum(t.win_lost for t in solved), 4),
        **win_lost_figures([t.win_lost for t in solved]),
        "costliest_by_win": [f"{t.game} turn {t.turn}" for t in costliest_by_win(solved)],
        "games": len(games),
        "mistakes": {size: sum(t.mistake == size for t in solved) for size in ("small", "medium", "large")},
        "mistake_index": index, "mistake_index_by_game": dict(zip(games, per_game)),
        "estimated_rating": estimated_rating(index),
        "judged_by": BY_SIMULATION if simulated else BY_EQUITY,
    }


def win_lost_figures(losses: Sequence[float]) -> dict[str, float]:
    """The win probability a player's solved turns lost, as a player reads it: the mean a turn and the most one
    turn lost, each 0..1. (Their sum, `win_lost`, is no chance of anything: twenty turns of 5% add up past 100%.)"""
    return {"win_lost_per_turn": round(math.fsum(losses) / len(losses), 4) if losses else 0.0,
            "win_lost_most": round(max(losses, default=0.0), 4)}


def costliest(turns: Sequence[TurnReport], n: int = COSTLIEST) -> list[TurnReport]:
    """The turns that gave up the most equity (at least something), worst first."""
    return sorted((t for t in turns if t.equity_given_up > 0 and not t.note),
                  key=lambda t: (-t.equity_given_up, t.game, t.turn))[:n]


def costliest_by_win(turns: Sequence[TurnReport], n: int = COSTLIEST) -> list[TurnReport]:
    """The turns that lost the most win probability (at least a tenth of a percent), worst first."""
    return sorted((t for t in turns if t.win_lost >= 0.001 and not t.note),
                  key=lambda t: (-t.win_lost, t.game, t.turn))[:n]


class Analyst:
    """Solves the turns of games over one lexicon (its graph `words`), keeping one move generator."""

    def __init__(self, words: Dawg, model: LeaveValues, tiles: TileSet, sim: SimOptions | None = None) -> None:
        self.words = words
        self.model = model
        self.tiles = tiles
        self.generator = MoveGenerator(words)
        self.sim = sim
        self.win: WinModel = load_win_model(tiles)
        self.seconds = 0.0  # spent simulating

    @classmethod
    def of_lexicon(cls, lex: Lexicon, sim: SimOptions | None = None) -> Analyst:
        """The analyst of a compiled lexicon: its graph and its tile set's leave values."""
        return cls(dawg_for(lex), load_leaves(lex.tiles), lex.tiles, sim)

    def game(self, game: Game, player: str | None = None) -> GameReport:
        """The report on one game: every turn, or those of `player` (a nick or a name in the file)."""
        tiles = detect_tile_set(game)
        if tiles.letters != self.tiles.letters:
            raise LexitrainError(f"{game.source}: the game uses {tiles.name} tiles, lexicon {self.words.name} "
                                 f"uses {self.tiles.name}")
        nick = find_player(game, player) if player is not None else None
        events = {e.line: e for e in game.events}
        reports = []
        turns = []
        reads: list[Read] = []
        for turn, read in _turns_read(game, self.tiles):
            if nick is None or turn.player == nick:
                reports.append(self.turn(game.source, turn, events[turn.event_line].tiles))
                turns.append(turn)
                reads.append(read)
        if self.sim is not None:
            self.simulate(reports, turns, [events[t.event_line].tiles for t in turns], reads)
        return GameReport(game.source, [p.nick for p in game.players], reports, self.sim is not None, reads)

    def simulate(self, reports: list[TurnReport], turns: list[Turn], exchanged: list[str],
                 reads: list[Read]) -> None:
        """Each solved turn simulated (the top candidates and the move made); its win probability lost.
        Where the opponent's move before it was a tile play or an exchange (`reads`), their rack is drawn
        from what that move says of it (`SimOptions.infer`)."""
        assert self.sim is not None
        started = time.perf_counter()
        options = self.sim
        jobs: list[tuple[TurnReport, int, SimSetup]] = []
        for report, turn, given, read in zip(reports, turns, exchanged, reads):
            if report.note:
                continue
            rack = Rack.parse(self.tiles, report.rack)
            if tiles_in_bag(turn.board, [report.rack]) <= 1 and self.solve_end(report, turn, rack):
                continue
            jobs.append(self._sim_job(report, turn, rack, given, read))
        results = simulate_many([j[2] for j in jobs], options.iterations, options.seed, threads=options.threads,
                                stop=options.stop)
        for (report, index, setup), result in zip(jobs, results):
            self._judge_by_simulation(report, index, setup, result)
        self.seconds += time.perf_counter() - started

    def _sim_job(self, report: TurnReport, turn: Turn, rack: Rack, exchanged: str, read: Read
                 ) -> tuple[TurnReport, int, SimSetup]:
        """A turn's simulation: its top candidates with the move made among them (added where it is not), more
        plies once the bag is low, the opponent's rack read from their move where asked; with the move made's
        index among the candidates."""
        assert self.sim is not None
        options = self.sim
        bag = tiles_in_bag(turn.board, [report.rack])
        setup = position_setup(options.lexicon, turn.board, rack, turn.scores, self.generator, self.model,
                               candidates=options.candidates,
                               plies=options.plies if bag > RACK_SIZE else max(options.plies, options.late_plies))
        made = self._made(turn, rack, exchanged, bag)
        listed = [i for i, c in enumerate(setup.candidates) if _same_move(c, made)]
        if not listed:
            setup = replace(setup, candidates=(*setup.candidates, made))
        inferred = read_opponent(setup, read, rack, self.generator, self.model) if options.infer else None
        if inferred is not None:
            setup, report.inferred = inferred, True
        return report, listed[0] if listed else len(setup.candidates) - 1, setup

    def _judge_by_simulation(self, report: TurnReport, index: int, setup: SimSetup, result: SimReport) -> None:
        """The turn judged by its simulation: the win chance the move made (candidate INDEX) lost against the
        best, the points it lost where the win chances are level or decided, and the mistake's size."""
        best = result.rows[0]
        mine = next(r for r in result.rows if r.index == index)
        report.win, report.win_best = round(mine.win, 4), round(best.win, 4)
        report.win_lost = round(max(0.0, best.win - mine.win), 4)
        report.best_by_win = {**_candidate_json(best.candidate, self.tiles, setup.rack),
                              "win": round(best.win, 4), "sim_equity": round(best.equity, 2)}
        bag = tiles_in_bag(setup.board, [report.rack])
        report.win_method = SIMULATED_TO_THE_END if bag <= 1 else "simulation"
        report.phase = SIMULATION
        lost = best.equity - mine.equity
        report.points_lost = round(max(0.0, lost), 2)
        tied = best.index == mine.index or abs(best.win - mine.win) < 1e-9
        report.spread_lost = round(lost) if lost > EQUITY_NOISE and (tied or decided(best.win, mine.win)) else 0
        report.mistake = NONE if best.index == index else mistake_size(SIMULATION, report.win_lost,
                                                                       report.spread_lost, best.win, mine.win)

    def solve_end(self, report: TurnReport, turn: Turn, rack: Rack) -> bool:
        """Judge a turn with one tile or none in the bag by the solvers; False
        when they do not apply (the pre-endgame tries plays, not a pass)."""
        assert self.sim is not None
        unseen = unseen_tiles(turn.board, rack)
        made_play = turn.play if turn.kind == PLAY and not turn.withdrawn else None
        if unseen.size == 0:
            return False
        if unseen.size <= RACK_SIZE:  # the bag is empty: the endgame
            self._judge_endgame(report, turn, rack, unseen, made_play)
        elif not self._judge_preendgame(report, turn, rack, unseen, made_play):
            return False
        return True

    def _judge_endgame(self, report: TurnReport, turn: Turn, rack: Rack, unseen: Rack,
                       made_play: ScoredPlay | None) -> None:
        """The bag empty: the best line's final spread against the move made's, each solved within the
        endgame's seconds (a pass, or a play taken back, gives the opponent the endgame a scoreless turn on)."""
        assert self.sim is not None
        board = turn.board
        spread = turn.scores[0] - turn.scores[1]
        seconds = self.sim.endgame_seconds
        best = solve(Endgame(board, (rack, unseen)), self.generator, seconds)
        if made_play is None:
            after_made = solve(Endgame(board, (unseen, rack), 1), self.generator, seconds)
            made_value, made_exact = -after_made.value, after_made.exact
        else:
            left = leave_after(rack, made_play)
            if not left.size:  # went out
                made_value, made_exact = made_play.score + 2 * rack_value(self.tiles.points, unseen.counts), True
            else:
                after = board.copy()
                apply_play(after, made_play)
                rest = solve(Endgame(after, (unseen, left), 0 if made_play.score else 1), self.generator, seconds)
                made_value, made_exact = made_play.score - rest.value, rest.exact
        best_value, best_move = best.value, best.play
        if made_value > best_value:  # the best line was not proved in time, and the move made beats it
            best_value, best_move = made_value, made_play
        report.win, report.win_best = _outcome(spread + made_value), _outcome(spread + best_value)
        report.win_lost = round(max(0.0, report.win_best - report.win), 4)
        report.best_by_win = {**_move_json(best_move, self.tiles), "win": report.win_best, "value": best_value}
        exact = best.exact and made_exact
        report.win_method = "endgame" if exact else f"endgame (best found in {seconds:g} s, not proved)"
        report.phase = ENDGAME
        report.spread_lost = report.points_lost = max(0, best_value - made_value)
        report.mistake = mistake_size(ENDGAME, 0.0, report.spread_lost, blown=report.win < report.win_best)

    def _judge_preendgame(self, report: TurnReport, turn: Turn, rack: Rack, unseen: Rack,
                          made_play: ScoredPlay | None) -> bool:
        """One tile in the bag: the play made against the top plays by score, each over every draw; False where
        the pre-endgame does not apply (a pass or exchange, not one tile in the bag, the play not solved)."""
        assert self.sim is not None
        if made_play is None or unseen.size != RACK_SIZE + 1:
            return False
        board = turn.board
        plays = self.generator.plays(board, rack)[:self.sim.candidates]
        if all(p.key() != made_play.key() for p in plays):
            plays.append(made_play)
        result = solve_preendgame(board, rack, unseen, self.generator, self.sim.preendgame_seconds,
                                  turn.scores[0] - turn.scores[1], plays=plays, decide=[made_play])
        made = next((o for o in result.plays if o.play is not None and o.play.key() == made_play.key()), None)
        if made is None or not result.plays:
            return False
        top = result.plays[0]
        report.win = round(made.wins / made.unseen, 4)
        report.win_best = round(top.wins / top.unseen, 4)
        report.best_by_win = {**_move_json(top.play, self.tiles), "win": report.win_best,
                              "expected": round(top.expected, 2)}
        report.win_method = ("pre-endgame" if result.wins_proved and made.decided else
                             f"pre-endgame (best found in {self.sim.preendgame_seconds:g} s, not proved)")
        report.phase = PRE_ENDGAME
        report.points_lost = round(max(0.0, top.expected - made.expected), 2)
        report.win_lost = round(max(0.0, report.win_best - report.win), 4)
        tied = abs(top.wins / top.unseen - made.wins / made.unseen) < 1e-6
        report.spread_lost = round(max(0.0, top.expected - made.expected), 1) if tied else 0.0
        report.mistake = mistake_size(PRE_ENDGAME, report.win_lost, report.spread_lost)
        return True

    def judge_statically(self, report: TurnReport, turn: Turn, rack: Rack, top_equity: float) -> None:
        """Without simulation: each move's equity read as a chance of winning (the opponent to move, ahead
        by the spread the equity leaves them, with the tiles unseen), the best candidate's against the move
        made's; the phase by the tiles in the bag, the endgame sized by the equity lost in points."""
        assert report.equity is not None
        spread = turn.scores[0] - turn.scores[1]
        unseen = unseen_tiles(turn.board, rack).size
        made = 1 - self.win.win(-(spread + report.equity), unseen)
        best = 1 - self.win.win(-(spread + top_equity), unseen)
        report.win, report.win_best = round(made, 4), round(best, 4)
        report.win_lost = round(max(0.0, best - made), 4)
        report.best_by_win = {**report.top_by_equity[0], "win": report.win_best}
        report.win_method = "equity"
        report.points_lost = report.equity_given_up
        report.phase = ENDGAME if not report.bag else PRE_ENDGAME if report.bag == 1 else SIMULATION
        if report.phase == ENDGAME or decided(best, made):
            report.spread_lost = report.equity_given_up if report.equity_given_up > EQUITY_NOISE else 0.0
        report.mistake = mistake_size(report.phase, report.win_lost, report.spread_lost, best, made)

    def _made(self, turn: Turn, rack: Rack, exchanged: str, bag: int) -> Candidate:
        """The move made as a candidate (a play taken back or unplaceable kept the rack, as a pass)."""
        if turn.kind == PLAY and turn.play is not None and not turn.withdrawn:
            return play_equity(self.model, rack, turn.play, bag)
        if turn.kind == EXCHANGE:
            given = _exchanged(self.tiles, exchanged)
            if given is not None and _holds(rack, given) and given.size:
                value = leave_value(self.model, kept_after(rack, given), bag)
                return Candidate(value, 0, value, EXCHANGE, None, given)
        value = leave_value(self.model, rack, bag)
        return Candidate(value, 0, value, PASS)

    def _made_score_and_equity(self, turn: Turn, rack: Rack, exchanged: str, bag: int) -> tuple[int, float]:
        """What the move made scored and its equity: a play's, or the value of the tiles kept (a play taken
        back, or unplaceable, scored nothing and kept the whole rack; an exchange kept what it did not put back)."""
        if turn.kind == PLAY and turn.play is not None and not turn.withdrawn:
            return turn.play.score, play_equity(self.model, rack, turn.play, bag).equity
        kept = rack
        if turn.kind == EXCHANGE:
            given = _exchanged(self.tiles, exchanged)
            kept = kept_after(rack, given) if given is not None and _holds(rack, given) else rack
        return 0, leave_value(self.model, kept, bag)

    def turn(self, source: str, turn: Turn, exchanged: str) -> TurnReport:
        """One turn solved again: the top plays by score and equity, what the move made gave up of each, the
        phonies it played and the bingos it missed (judged by equity alone when there is no simulation)."""
        tiles = self.tiles
        board = turn.board
        rack_text = turn.rack.upper()
        move = turn.notation or ("-" + exchanged if turn.kind == EXCHANGE and exchanged else "-")
        cgp = to_cgp(Position(board.copy(), [rack_text, ""], list(turn.scores)))
        report = TurnReport(Path(source).name, turn.number, turn.player, rack_text, turn.kind, move, turn.recorded,
                            cgp, turn.computed, withdrawn=turn.withdrawn)
        if turn.play is not None:
            report.phonies = invalid_words(board, turn.play, self.words)
        try:
            rack = Rack.parse(tiles, rack_text, in_play=True, required=True)
        except LexitrainError:
            report.note = "rack not recorded" if not rack_text else f"rack {rack_text} cannot be read"
            return report
        if turn.play is not None and not _holds(rack, _placed(tiles, turn.play)):
            report.note = f"the play's tiles are not all on the recorded rack {rack_text}"
            return report
        plays = self.generator.plays(board, rack)
        bag = tiles_in_bag(board, [rack_text])
        ranked = rank_by_equity(self.model, rack, plays, bag)
        report.top_by_score = [_play_json(p, tiles) for p in plays[:TOP]]
        report.top_by_equity = [_candidate_json(c, tiles, rack) for c in ranked[:TOP]]
        top_score = plays[0].score if plays else 0
        top_equity = ranked[0].equity
        scored, report.equity = self._made_score_and_equity(turn, rack, exchanged, bag)
        report.points_given_up = max(0, top_score - scored)  # a phony that stood may outscore every valid play
        report.equity_given_up = round(max(0.0, top_equity - report.equity), 2)
        report.bag = bag
        if self.sim is None:
            self.judge_statically(report, turn, rack, top_equity)
        played_bingo = turn.play is not None and turn.play.tile_count == RACK_SIZE and not turn.withdrawn
        if not played_bingo:
            report.missed_bingos = missed_bingos(plays, tiles)
        return report


def read_opponent(setup: SimSetup, read: Read, rack: Rack, generator: MoveGenerator,
                  leaves: LeaveValues) -> SimSetup | None:
    """`setup` drawing the opponent's rack from what their last move says of it (`read`: the board before
    it and the move), as `gcg analyze --sim` and `study from-games --sim-iterations` simulate a turn; None
    where there is no move to read, or one the board and RACK leave impossible (a misrecorded game): the
    simulation then draws a random rack."""
    if read is None:
        return None
    board, move = read
    try:
        reading = infer(board, move, rack, generator, leaves, load_inference_model(board.tiles),
                        samples=INFER_SAMPLES, exhaustive=INFER_SAMPLES)
    except LexitrainError:
        return None
    return replace(setup, inferred=reading.inferred())


def reads_by_turn(game: Game, tiles: TileSet) -> dict[int, Read]:
    """Each turn's number -> the opponent's move before it as the inference reads it (None: none to read), as
    `Analyst.game` reads them: for a caller simulating a few turns of a game on their own (the leak study)."""
    return {turn.number: read for turn, read in _turns_read(game, tiles)}


def _turns_read(game: Game, tiles: TileSet) -> Iterator[tuple[Turn, Read]]:
    """Each turn of the game replayed, with the opponent's move before it as the inference reads it."""
    events = {e.line: e for e in game.events}
    last = None
    for turn in replay(game, tiles):
        yield turn, (_last_move(last, turn, events[last.event_line].tiles) if last is not None else None)
        last = turn


def _last_move(last: Turn, turn: Turn, given: str) -> Read:
    """The opponent's move before `turn` as the inference reads it (a tile play not taken back, or an
    exchange of a known count), with the board before it; None when there is none to read."""
    if last.player == turn.player:
        return None
    if last.kind == PLAY and last.play is not None and not last.withdrawn:
        return last.board, LastMove(play=last.play)
    if last.kind == EXCHANGE and given:
        return last.board, LastMove(exchanged=int(given) if given.isdigit() else len(given))
    return None


def _outcome(final_spread: int) -> float:
    """A game's result for the side whose final spread it is: won, drawn or lost."""
    return 1.0 if final_spread > 0 else 0.5 if final_spread == 0 else 0.0


def _same_move(a: Candidate, b: Candidate) -> bool:
    if a.kind != b.kind:
        return False
    if a.play is not None and b.play is not None:
        return a.play.key() == b.play.key()
    if a.exchanged is not None and b.exchanged is not None:
        return (a.exchanged.counts, a.exchanged.blanks) == (b.exchanged.counts, b.exchanged.blanks)
    return True


def missed_bingos(plays: Sequence[ScoredPlay], tiles: TileSet) -> list[dict[str, Any]]:
    """Each bingo word in the move list, at its best-scoring placement, best first."""
    best: dict[str, ScoredPlay] = {}
    for p in plays:  # best first, so the first placement of a word is its best
        if p.tile_count == RACK_SIZE:
            best.setdefault(p.word(tiles).upper(), p)
    return [_play_json(p, tiles) for p in best.values()]


def find_player(game: Game, name: str) -> str:
    """The nick of the player a name means (nick or full name, any case); a one-line error when none."""
    for p in game.players:
        if name.lower() in (p.nick.lower(), p.name.lower()):
            return p.nick
    names = ", ".join(p.nick for p in game.players) or "none"
    raise LexitrainError(f"{game.source}: no player {name!r} (players: {names})")


def _exchanged(tiles: TileSet, text: str) -> Rack | None:
    """The tiles an exchange put back, when the file wrote them (not only a count)."""
    if not text or text.isdigit():
        return None
    try:
        return Rack.parse(tiles, text.upper())
    except LexitrainError:
        return None


def _placed(tiles: TileSet, play: ScoredPlay) -> Rack:
    """The tiles a play takes from the rack."""
    counts = [0] * len(tiles.letters)
    blanks = 0
    for _, _, tile in play.placed():
        if tile >= BLANK_FLAG:
            blanks += 1
        else:
            counts[tile] += 1
    return Rack(tiles, tuple(counts), blanks)


def _holds(rack: Rack, given: Rack) -> bool:
    return all(m <= n for n, m in zip(rack.counts, given.counts)) and given.blanks <= rack.blanks


def _play_json(play: ScoredPlay, tiles: TileSet) -> dict[str, Any]:
    return {"position": play.position, "word": play.word(tiles), "score": play.score, "tiles": play.tiles_text(tiles)}


def _move_json(move: ScoredPlay | None, tiles: TileSet) -> dict[str, Any]:
    """A solver's move (None: a pass) as the report lists plays."""
    if move is None:
        return {"kind": PASS, "position": "-", "word": "", "score": 0, "tiles": ""}
    return {"kind": PLAY, **_play_json(move, tiles)}


def _candidate_json(c: Candidate, tiles: TileSet, rack: Rack) -> dict[str, Any]:
    return {"kind": c.kind, "position": c.position, "word": c.word(tiles), "score": c.score,
            "tiles": c.tiles_text(tiles), "equity": c.equity, "leave": tiles.spell(c.leave(rack).names())}

