"""The `position` kind: "what is the top-scoring play here?"

The key is the position as one CGP line (the player to move first). Building
the question solves it with the move generator; checking an answer reads it
in GCG notation (`8D QUITE`, `H8 QUITE`, blanks lowercase, `.` or the
letters for tiles played through), checks it against the rules and the
lexicon, scores it and ranks it among every legal play. An illegal play (a
typo, off the board, a phony, tiles not on the rack) is refused with its
reason rather than judged, so the player is asked the same position again;
an empty answer is a pass, judged as missed. Lowercase letters mean blanks
only when the rack holds that many: on a rack without a blank, `8d quite`
is 8D QUITE.
Any play tying the top score earns full credit; on an empty
board a play written down is the same play as its across mirror image.
Made with `by="equity"` (`quiz position --by equity`), the kind ranks the
tile plays by equity instead (score + the leave model's value of the tiles
kept, `lexitrain.engine.equity`) and judges answers by it, the score shown too.
Positions are not made from word lists; they come from the stored positions
(`lexitrain.study.drills.positions`). A missed play is not a word, so no missed-word
list is written for it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from lexitrain.engine.board import Board, is_blank
from lexitrain.engine.cgp import Position, check_tile_counts, parse_cgp, to_cgp
from lexitrain.engine.dawg import Dawg, dawg_for
from lexitrain.engine.equity import play_equity, rank_by_equity
from lexitrain.engine.exchanges import tiles_in_bag
from lexitrain.engine.leave_table import load_leaves
from lexitrain.engine.movegen import MoveGenerator
from lexitrain.engine.play import Play, ScoredPlay, letter_case
from lexitrain.engine.rules import RACK_SIZE, check_play, listed_play
from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.lexicon.rows import WordRow
from lexitrain.study.quiz.kinds.base import BOARD, Check, Question, Recent, register_kind
from lexitrain.study.store import StoredPosition
from lexitrain.tiles import Rack

KIND = "position"
TOP_SHOWN = 5
#: what the quiz ranks plays by (`--by`)
SCORE, EQUITY = "score", "equity"
ORDERS = (SCORE, EQUITY)


def check_order(by: str) -> str:
    if by not in ORDERS:
        raise LexitrainError(f"--by {by!r}: rank by {' or '.join(ORDERS)}")
    return by


@dataclass
class Solved:
    """A position with every legal play for its rack, best first: by score, or
    (with `equities`, one per play) by equity."""

    board: Board
    rack: str
    plays: list[ScoredPlay]
    words: Dawg
    equities: list[float] = field(default_factory=list)
    equity_of: Callable[[ScoredPlay], float] | None = None  # a legal play's equity, when judged by equity

    @property
    def by(self) -> str:
        return EQUITY if self.equity_of is not None else SCORE

    @property
    def top_score(self) -> int:
        return max((p.score for p in self.plays), default=0)

    @property
    def top_value(self) -> float:
        """The best score, or the best equity when judged by equity."""
        return self.equities[0] if self.equities else self.top_score

    def values(self) -> list[float]:
        return self.equities or [p.score for p in self.plays]

    def top(self, n: int = TOP_SHOWN) -> list[dict[str, Any]]:
        tiles = self.board.tiles
        rows = [{"position": p.position, "word": p.word(tiles), "score": p.score, "tiles": p.tiles_text(tiles)}
                for p in self.plays[:n]]
        for row, equity in zip(rows, self.equities):
            row["equity"] = equity
        return rows

    def best(self) -> tuple[str, ...]:
        """Every play tying the top score (or equity), in GCG notation."""
        tiles = self.board.tiles
        return tuple(p.format(tiles) for p, v in zip(self.plays, self.values()) if v == self.top_value)


def solve(board: Board, rack: str, generator: MoveGenerator) -> list[ScoredPlay]:
    """Every legal play for the rack, best first (the engine's move generator)."""
    return generator.plays(board, Rack.parse(board.tiles, rack, in_play=True))


def new_generator(lex: Lexicon) -> MoveGenerator:
    """A move generator for the lexicon, to keep while solving a batch of positions."""
    return MoveGenerator(dawg_for(lex))


def read_position(cgp: str, lex: Lexicon) -> Position:
    """A quiz position from a CGP line: the lexicon's tiles, possible tile counts, a rack to move."""
    position = parse_cgp(cgp, lex.tiles, lex.layout)
    if position.board.tiles.letters != lex.tiles.letters:
        raise LexitrainError(f"the CGP uses {position.board.tiles.name} tiles, lexicon {lex.name} uses {lex.tiles.name}")
    check_tile_counts(position)
    if not position.rack:
        raise LexitrainError("the player to move has an empty rack")
    return position


def describe(position: Position, source: str, lex: Lexicon, plays: list[ScoredPlay]) -> StoredPosition:
    """The facts about a solved position's top play."""
    tiles = position.board.tiles
    top = plays[0]
    word = top.word(tiles)
    runner_up = plays[1].score if len(plays) > 1 else 0
    row = lex.row(word.upper())
    return StoredPosition(
        to_cgp(position), source, top.score, top.format(tiles), word, len(top.letters),
        top.tile_count == RACK_SIZE, any(is_blank(t) for _, _, t in top.placed()),
        top.score - runner_up, row["probability_rank"] if row else None, len(plays))


def solve_position(lex: Lexicon, cgp: str, generator: MoveGenerator, by: str = SCORE) -> Solved:
    position = read_position(cgp, lex)
    plays = solve(position.board, position.rack, generator)
    if not plays:
        raise LexitrainError(f"the rack {position.rack} has no legal play here")
    if by == SCORE:
        return Solved(position.board, position.rack, plays, generator.dawg)

    model = load_leaves(lex.tiles)
    held = Rack.parse(lex.tiles, position.rack, in_play=True)
    bag = tiles_in_bag(position.board, position.racks)
    ranked = rank_by_equity(model, held, plays, bag, exchanges=False)
    return Solved(position.board, position.rack, [c.play for c in ranked if c.play is not None], generator.dawg,
                  [c.equity for c in ranked], lambda play: play_equity(model, held, play, bag).equity)


def judge(solved: Solved, answer: str) -> dict[str, Any]:
    """An answer's verdict: legal or why not, its score, its rank (1 = top,
    ties share a rank) among `plays` legal plays, and the top plays; judged
    by equity, its equity and the top equity too, and the rank by equity."""
    tiles = solved.board.tiles
    verdict: dict[str, Any] = {"play": answer.strip(), "legal": False, "score": None, "rank": None,
                               "plays": len(solved.plays), "reason": None, "top_score": solved.top_score,
                               "top": solved.top()}
    if solved.equity_of is not None:
        verdict.update(by=EQUITY, equity=None, top_equity=solved.top_value)
    try:
        if not answer.strip():
            raise LexitrainError("no play given (write one like 8D QUITE)")
        play = check_play(solved.board, Play.parse(letter_case(answer, solved.rack), tiles), solved.rack,
                          solved.words)
    except LexitrainError as exc:
        verdict["reason"] = str(exc)
        return verdict
    listed = listed_play(solved.board, play, solved.plays)
    verdict.update(play=play.format(tiles), legal=True, score=play.score,
                   rank=1 + sum(1 for p in solved.plays if p.score > play.score))
    if solved.equity_of is not None:
        equity = solved.equity_of(play)
        verdict.update(equity=equity, rank=1 + sum(1 for v in solved.equities if v > equity))
    if listed is not None and listed.key() != play.key():
        verdict["same_as"] = listed.format(tiles)
    return verdict


class PositionKind:
    """Keyed by the position's CGP line. Each session's instance keeps its own move generator
    (whose memo carries over from one position to the next) and the positions it solved (the
    last `cache_size`), so checking an answer does not solve its position again."""

    name = KIND
    description = "a board and a rack shown: type the top-scoring play, e.g. 8D QUITE"
    takes_minimum = False

    def __init__(self, cache_size: int = 32, by: str = SCORE) -> None:
        self.by = check_order(by)
        self._solved: Recent[Solved] = Recent(cache_size)
        self._generator: MoveGenerator | None = None

    def _generator_for(self, lex: Lexicon) -> MoveGenerator:
        """One move generator, kept while the questions come from one lexicon's graph (its memo carries over)."""
        dawg = dawg_for(lex)
        if self._generator is None or self._generator.dawg is not dawg:
            self._generator = MoveGenerator(dawg)
        return self._generator

    def keys_from_rows(self, rows: Sequence[WordRow], minimum: int = 2) -> list[str] | None:
        return None

    def keys_from_alphagrams(self, alphagrams: Sequence[str], minimum: int = 2) -> list[str] | None:
        return None

    def key_from_text(self, lex: Lexicon, text: str) -> str:
        return text

    def build(self, lex: Lexicon, key: str, order: str = "alphabetical") -> Question:
        solved = solve_position(lex, key, self._generator_for(lex), self.by)
        info: dict[str, Any] = {"cgp": key, "rack": solved.rack, "lexicon": lex.name}
        if self.by == EQUITY:
            info["by"] = EQUITY
        question = Question(self.name, key, _prompt(solved), solved.best(), info, hint=BOARD)
        self._solved.keep(question, solved)
        return question

    def solved(self, question: Question) -> Solved:
        return self._solved.of(question)

    def check(self, question: Question, answer: str) -> Check:
        verdict = judge(self.solved(question), answer)
        refused = verdict["reason"] if answer.strip() and not verdict["legal"] else None  # a pass is judged
        correct = verdict["legal"] and (verdict["equity"] == verdict["top_equity"] if self.by == EQUITY
                                        else verdict["score"] == verdict["top_score"])
        given = (verdict["play"],) if verdict["play"] else ()
        return Check(correct, given if correct else (), () if correct else given,
                     () if correct else question.expected, details=verdict, refused=refused)

    def asking_words(self, question: Question) -> tuple[str, ...] | None:
        return None

    def sheet_prompt(self, question: Question) -> str:
        """One line: the rack and what is asked (the due sheet prints the board under it, from `info["cgp"]`)."""
        asked = "top play by equity" if question.info.get("by") == EQUITY else "top-scoring play"
        return f"{self.name}: {question.info['rack']}, {asked}"

    def sheet_words(self, question: Question) -> tuple[str, ...]:
        return question.expected


def _prompt(solved: Solved) -> str:
    """The position as plain text (for front ends that show only the prompt)."""
    rows = solved.board.rows_text()
    asked = "the top play by equity" if solved.by == EQUITY else "the top-scoring play"
    return "\n".join(rows + [f"rack {solved.rack}: what is {asked}?"])


register_kind(PositionKind)
