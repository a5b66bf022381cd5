"""What the analysed position kinds share: an analysis made once, when the card is made, and kept with the position.

`best-play` ("find the best play", judged by a Monte Carlo simulation) and
`endgame` ("win the endgame", judged by the exact endgame solver) ask
positions whose answer takes seconds to minutes of engine time. So the
analysis is made when the card is made (`study from-games`), stored with the
position (the `analysis` column of the positions table, JSON), and read back
when the card is asked: asking is instant, and a card asks the same question
with the same answer every time (the simulation runs on a fixed seed).

- A simulation (`simulate_position`) is kept only when its best move is a tile
  play scoring less than the top score: where the static answer is wrong.
- An endgame (`solve_endgame`, the bag empty) is kept only when it was solved
  exactly, and every first move's exact value with it (a play that goes out,
  a pass, and each other play by solving the endgame it leaves), all within
  the time given; any first play of the best value is right. An endgame whose
  only best first move is a pass is not kept (the quiz reads a play).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from lexitrain.engine.analysis import Read, read_opponent
from lexitrain.engine.board import Board
from lexitrain.engine.cgp import Position
from lexitrain.engine.dawg import Dawg, dawg_for
from lexitrain.engine.endgame import MAX_ZERO_TURNS, Endgame, describe as move_json, rack_value, solve
from lexitrain.engine.equity import Candidate
from lexitrain.engine.exchanges import unseen_tiles
from lexitrain.engine.leave import leave_after
from lexitrain.engine.leave_table import LeaveValues, load_leaves
from lexitrain.engine.movegen import MoveGenerator
from lexitrain.engine.play import Play, ScoredPlay, letter_case
from lexitrain.engine.rules import apply_play, check_play, listed_play
from lexitrain.engine.simulation import position_setup, simulate
from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.study.quiz.kinds.base import BOARD, Check, Question, Recent
from lexitrain.study.quiz.kinds.position import describe, read_position
from lexitrain.study.quiz.scheduler import utc_now
from lexitrain.study.store import ProgressStore, StoredPosition
from lexitrain.tiles import RACK_SIZE, Rack, TileSet

#: the kinds, and the `by` their analyses carry
BEST_PLAY, ENDGAME = "best-play", "endgame"
SIM, SOLVER = "sim", "endgame"
KIND_BY = {SIM: BEST_PLAY, SOLVER: ENDGAME}
#: the `study from-games` option that makes each
MADE_BY = {SIM: "--sim-iterations 300", SOLVER: "--endgame-time 30"}
#: the simulation a card is made with: the sim command's candidates and plies, a fixed seed
SIM_CANDIDATES = 15
SIM_PLIES = 2
SIM_SEED = 1


def bag_count(position: Position) -> int:
    """Tiles in the bag for the player to move, the opponent holding a full rack of the rest."""
    unseen = unseen_tiles(position.board, Rack.parse(position.board.tiles, position.rack, in_play=True)).size
    return max(0, unseen - RACK_SIZE)


def _move_text(candidate: Candidate, tiles: TileSet) -> str:
    """A simulated move as the table names it: the play in GCG notation, `exchange ABC` or `pass`."""
    if candidate.play is not None:
        return candidate.play.format(tiles)
    if candidate.exchanged is not None:
        return f"exchange {candidate.tiles_text(tiles)}"
    return "pass"


def simulate_position(lex: Lexicon, position: Position, generator: MoveGenerator, iterations: int,
                      seed: int = SIM_SEED, threads: int = 1,
                      read: Read = None, leaves: LeaveValues | None = None) -> dict[str, Any] | None:
    """The simulation's table for a position with tiles in the bag (best first), or None when its
    best move is not a tile play scoring less than the top score (no lesson beyond the static one).
    With `read` (the opponent's last move and the board before it), the opponent's rack is drawn from
    what that move says of it where it can be read, as `gcg analyze --sim` does (`inferred` says so). LEAVES:
    the lexicon's leave values where the caller holds them (loading them takes longer than a small simulation)."""
    if iterations < 1:
        raise LexitrainError("simulation iterations must be at least 1")
    tiles = lex.tiles
    rack = Rack.parse(tiles, position.rack, in_play=True)
    plays = generator.plays(position.board, rack)
    if not plays:
        return None
    leaves = leaves if leaves is not None else load_leaves(tiles)
    setup = position_setup(lex.name, position.board, rack, position.scores, generator, leaves,
                           candidates=SIM_CANDIDATES, plies=SIM_PLIES)
    inferred = read_opponent(setup, read, rack, generator, leaves)
    report = simulate(inferred or setup, iterations, seed, threads=threads)
    top_score = max(p.score for p in plays)
    best = report.rows[0].candidate
    if best.play is None or best.score >= top_score:
        return None
    rows = report.to_json(tiles, rack)["candidates"]
    for row, sim_row in zip(rows, report.rows):
        row["play"] = _move_text(sim_row.candidate, tiles)
    return {"by": SIM, "iterations": report.iterations, "plies": report.plies, "seed": seed,
            "inferred": inferred is not None, "top_score": top_score, "best": [rows[0]["play"]], "candidates": rows}


def solve_endgame(position: Position, generator: MoveGenerator, seconds: float
                  ) -> dict[str, Any] | None:
    """Every first move's exact value in an endgame (the bag empty: the opponent holds the position's
    second rack, or else the unseen tiles) and the best line, or None when that is not all proved within `seconds` (or only a pass is best)."""
    if seconds <= 0:
        raise LexitrainError("the endgame's time must be above 0 seconds")
    started = time.monotonic()

    def left() -> float | None:
        remaining = seconds - (time.monotonic() - started)
        return remaining if remaining > 0 else None

    board, tiles = position.board, position.board.tiles
    mine = Rack.parse(tiles, position.rack, in_play=True)
    given = position.racks[1] if len(position.racks) > 1 else ""
    theirs = Rack.parse(tiles, given, in_play=True) if given else unseen_tiles(board, mine)
    if theirs.size > RACK_SIZE or not theirs.size or not mine.size:
        return None
    zero = position.zero_turns
    points = tiles.points
    root = solve(Endgame(board, (mine, theirs), zero), generator, seconds)
    if not root.exact:
        return None
    values: list[dict[str, Any]] = []
    for play in generator.plays(board, mine):
        kept = leave_after(mine, play)
        if not kept.size:  # out: the game ends with twice the opponent's rack
            value = play.score + 2 * rack_value(points, theirs.counts)
        elif (zero + 1 if not play.score else 0) >= MAX_ZERO_TURNS:
            value = play.score - rack_value(points, kept.counts) + rack_value(points, theirs.counts)
        else:
            budget = left()
            if budget is None:
                return None
            after = board.copy()
            apply_play(after, play)
            reply = solve(Endgame(after, (theirs, kept), 0 if play.score else zero + 1), generator, budget)
            if not reply.exact:
                return None
            value = play.score - reply.value
        values.append({"play": play.format(tiles), "word": play.word(tiles), "score": play.score, "value": value})
    values.sort(key=lambda row: -row["value"])
    best = [row["play"] for row in values if row["value"] == root.value]
    if not best:  # only a pass reaches the best value: no play to name
        return None
    spread = position.scores[0] - position.scores[1] if len(position.scores) > 1 else 0
    return {"by": SOLVER, "value": root.value, "spread": spread, "best": best,
            "sequence": [move_json(move, board) for move in root.sequence], "values": values,
            "seconds": round(time.monotonic() - started, 3)}


def read_analysis(text: str | None, by: str, cgp: str) -> dict[str, Any]:
    """A stored analysis, checked as far as asking needs (a backup may carry anything)."""
    if text is None:
        raise LexitrainError(f"no {by} analysis is stored for this position (`study from-games` makes them)")
    try:
        data = json.loads(text)
    except ValueError:
        raise LexitrainError(f"the stored analysis of {cgp!r} is not JSON") from None
    if not isinstance(data, dict) or data.get("by") != by or not isinstance(data.get("best"), list) \
            or not data["best"]:
        raise LexitrainError(f"the stored analysis of {cgp!r} is not a {by} analysis")
    return data


@dataclass
class Asked:
    """A position as asked: its board and rack, every legal play (to check an answer), its analysis."""

    board: Board
    rack: str
    plays: list[ScoredPlay]
    words: Dawg
    analysis: dict[str, Any]


#: what a kind works out for a question from its kept analysis
Asking = TypeVar("Asking")


class KeptAnalysisKind(Generic[Asking]):
    """A position kind asked from an analysis kept with its position (made once, when the card was made): each
    session's instance reads it through the session's store (`use_store`) and keeps what it worked out for its
    last positions asked (`Recent`). The analysed kinds below and `read_rack`'s stand on it."""

    name = ""
    takes_minimum = False

    def __init__(self, cache_size: int = 32) -> None:
        self._asked: Recent[Asking] = Recent(cache_size)
        self._store: ProgressStore | None = None

    def use_store(self, store: ProgressStore) -> None:
        """Where the analyses are read from (the session's progress store)."""
        self._store = store

    def keys_from_rows(self, rows: Any, minimum: int = 2) -> list[str] | None:
        return None

    def keys_from_alphagrams(self, alphagrams: Any, minimum: int = 2) -> list[str] | None:
        return None

    def key_from_text(self, lex: Lexicon, text: str) -> str:
        return text

    def kept_analysis(self, lex: Lexicon, key: str, by: str) -> dict[str, Any]:
        """The analysis (`by` SIM, SOLVER or an inference) kept with the position KEY."""
        if self._store is None:
            raise LexitrainError(f"a {self.name} question needs the progress store its analysis is kept in")
        return read_analysis(self._store.position_analysis(lex.name, key), by, key)

    def asked(self, question: Question) -> Asking:
        return self._asked.of(question)


class AnalysedKind(KeptAnalysisKind[Asked]):
    """A position kind judged by its stored analysis (`by`: SIM or SOLVER), its last positions asked kept."""

    description = ""
    by = ""
    asked_what = ""

    def __init__(self, cache_size: int = 32) -> None:
        super().__init__(cache_size)
        self._generator: MoveGenerator | None = None

    def build(self, lex: Lexicon, key: str, order: str = "alphabetical") -> Question:
        analysis = self.kept_analysis(lex, key, self.by)
        position = read_position(key, lex)
        dawg = dawg_for(lex)
        if self._generator is None or self._generator.dawg is not dawg:
            self._generator = MoveGenerator(dawg)
        plays = self._generator.plays(position.board, Rack.parse(lex.tiles, position.rack, in_play=True))
        asked = Asked(position.board, position.rack, plays, dawg, analysis)
        theirs = position.racks[1] if len(position.racks) > 1 else ""
        held = [f"the opponent holds {theirs}"] if theirs else []
        prompt = "\n".join(position.board.rows_text() + held + [f"rack {position.rack}: {self.asked_what}?"])
        question = Question(self.name, key, prompt, tuple(analysis["best"]),
                            {"cgp": key, "rack": position.rack, "lexicon": lex.name, "by": self.by}, hint=BOARD)
        self._asked.keep(question, asked)
        return question

    def check(self, question: Question, answer: str) -> Check:
        """A legal play is judged against the analysis (an illegal one refused, an empty line a pass, missed)."""
        asked = self.asked(question)
        tiles = asked.board.tiles
        verdict: dict[str, Any] = {"play": answer.strip(), "legal": False, "score": None, "reason": None,
                                   "top_score": max(p.score for p in asked.plays), **self.table(asked.analysis)}
        try:
            if not answer.strip():
                raise LexitrainError("no play given (write one like 8D QUITE)")
            play = check_play(asked.board, Play.parse(letter_case(answer, asked.rack), tiles), asked.rack,
                              asked.words)
        except LexitrainError as exc:
            verdict["reason"] = str(exc)
            given = (verdict["play"],) if verdict["play"] else ()
            refused = str(exc) if answer.strip() else None
            return Check(False, (), given, question.expected, details=verdict, refused=refused)
        listed = listed_play(asked.board, play, asked.plays) or play
        text = listed.format(tiles)
        verdict.update(play=play.format(tiles), legal=True, score=play.score, **self.placed(asked.analysis, text))
        if text != play.format(tiles):
            verdict["same_as"] = text
        correct = text in question.expected
        return Check(correct, (text,) if correct else (), () if correct else (text,),
                     () if correct else question.expected, details=verdict)

    def table(self, analysis: dict[str, Any]) -> dict[str, Any]:
        """What the verdict shows of the analysis whatever the answer."""
        raise NotImplementedError

    def placed(self, analysis: dict[str, Any], play: str) -> dict[str, Any]:
        """Where a legal play stands in the analysis."""
        raise NotImplementedError

    def asking_words(self, question: Question) -> tuple[str, ...] | None:
        return None

    def sheet_prompt(self, question: Question) -> str:
        return f"{self.name}: {question.info['rack']}, {self.asked_what}, on {question.key.split()[0]}"

    def sheet_words(self, question: Question) -> tuple[str, ...]:
        return question.expected


def store_analysed(store: ProgressStore, lex: Lexicon, position: Position, source: str, analysis: dict[str, Any],
                   plays: list[ScoredPlay]) -> None:
    """Keep a position with its analysis (one stored before without an analysis gets it)."""
    store.store_analysed_position(lex.name, analysed_position(lex, position, source, analysis, plays),
                                  utc_now().timestamp())


def analysed_position(lex: Lexicon, position: Position, source: str, analysis: dict[str, Any],
                      plays: list[ScoredPlay]) -> StoredPosition:
    """A position with its analysis as the store keeps it (made apart from the store: an upload's analysis holds no
    connection, and its positions are kept with its cards in one transaction)."""
    stored = describe(position, source, lex, plays)
    stored.analysis = json.dumps(analysis, separators=(",", ":"))
    return stored
