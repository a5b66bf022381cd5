"""The `position` kind: "what is the top-scoring play here?"

The key is the position as one CGP line (the player to move first). Building
the question solves it with the move generator; checking an answer reads it
in GCG notation (`8D QUITE`, `H8 QUITE`, blanks lowercase, `.` or the
letters for tiles played through), checks it against the rules and the
lexicon (saying why when it is illegal), scores it and ranks it among every
legal play. Any play tying the top score earns full credit; on an empty
board a play written down is the same play as its across mirror image.
Positions are not made from word lists; they come from the stored positions
(`lexitrain.study.positions`). A missed play is not a word, so no missed-word
list is written for it.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lexitrain.engine.board import Board
from lexitrain.engine.play import Play, ScoredPlay
from lexitrain.engine.rules import check_play, listed_play
from lexitrain.errors import LexitrainError
from lexitrain.study.kinds.base import BOARD, Check, Question, register_kind
from lexitrain.study.positions import KIND, read_position, solve

if TYPE_CHECKING:
    from lexitrain.engine.dawg import Dawg
    from lexitrain.engine.movegen import MoveGenerator
    from lexitrain.lexicon.lexicon import Lexicon
    from lexitrain.lexicon.rows import WordRow

TOP_SHOWN = 5


@dataclass
class Solved:
    """A position with every legal play for its rack, best first."""

    board: Board
    rack: str
    plays: list[ScoredPlay]
    words: Dawg

    @property
    def top_score(self) -> int:
        return self.plays[0].score if self.plays else 0

    def top(self, n: int = TOP_SHOWN) -> list[dict[str, Any]]:
        tiles = self.board.tiles
        return [{"position": p.position, "word": p.word(tiles), "score": p.score, "tiles": p.tiles_text(tiles)}
                for p in self.plays[:n]]

    def best(self) -> tuple[str, ...]:
        """Every play tying the top score, in GCG notation."""
        tiles = self.board.tiles
        return tuple(p.format(tiles) for p in self.plays if p.score == self.top_score)


def solve_position(lex: Lexicon, cgp: str, generator: MoveGenerator) -> Solved:
    position = read_position(cgp, lex)
    plays = solve(position.board, position.rack, generator)
    if not plays:
        raise LexitrainError(f"the rack {position.rack} has no legal play here")
    return Solved(position.board, position.rack, plays, generator.dawg)


def judge(solved: Solved, answer: str) -> dict[str, Any]:
    """An answer's verdict: legal or why not, its score, its rank (1 = top,
    ties share a rank) among `plays` legal plays, and the top plays."""
    tiles = solved.board.tiles
    verdict: dict[str, Any] = {"play": answer.strip(), "legal": False, "score": None, "rank": None,
                               "plays": len(solved.plays), "reason": None, "top_score": solved.top_score,
                               "top": solved.top()}
    try:
        if not answer.strip():
            raise LexitrainError("no play given (write one like 8D QUITE)")
        play = check_play(solved.board, Play.parse(answer, tiles), solved.rack, solved.words)
    except LexitrainError as exc:
        verdict["reason"] = str(exc)
        return verdict
    listed = listed_play(solved.board, play, solved.plays)
    verdict.update(play=play.format(tiles), legal=True, score=play.score,
                   rank=1 + sum(1 for p in solved.plays if p.score > play.score))
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

    def __init__(self, cache_size: int = 32) -> None:
        self._solved: OrderedDict[str, Solved] = OrderedDict()
        self._cache_size = cache_size
        self._generator: MoveGenerator | None = None

    def _generator_for(self, lex: Lexicon) -> MoveGenerator:
        """One move generator, kept while the questions come from one lexicon's graph (its memo carries over)."""
        from lexitrain.engine.dawg import dawg_for
        from lexitrain.engine.movegen import MoveGenerator

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
        solved = solve_position(lex, key, self._generator_for(lex))
        question = Question(self.name, key, _prompt(solved), solved.best(),
                            {"cgp": key, "rack": solved.rack, "lexicon": lex.name}, hint=BOARD)
        self._solved[question.id] = solved
        self._solved.move_to_end(question.id)
        while len(self._solved) > self._cache_size:
            self._solved.popitem(last=False)
        return question

    def solved(self, question: Question) -> Solved:
        try:
            return self._solved[question.id]
        except KeyError:
            raise LexitrainError(f"position question {question.key!r} was not built in this session") from None

    def check(self, question: Question, answer: str) -> Check:
        verdict = judge(self.solved(question), answer)
        correct = verdict["legal"] and verdict["score"] == verdict["top_score"]
        given = (verdict["play"],) if verdict["play"] else ()
        return Check(correct, given if correct else (), () if correct else given,
                     () if correct else question.expected, details=verdict)

    def asking_words(self, question: Question) -> tuple[str, ...] | None:
        return None

    def sheet_prompt(self, question: Question) -> str:
        return f"{self.name}: {question.prompt}"

    def sheet_words(self, question: Question) -> tuple[str, ...]:
        return question.expected


def _prompt(solved: Solved) -> str:
    """The position as plain text (for front ends that show only the prompt)."""
    rows = solved.board.rows_text()
    return "\n".join(rows + [f"rack {solved.rack}: what is the top-scoring play?"])


register_kind(PositionKind)
