"""The `tile-tracking` kind: a position of a game, and the player names every tile they cannot see.

Keyed by the position as the player saw it (one CGP line: the board and their
own rack), so the answer is in the key: the tile set less the board less the
rack, which is the bag and the opponent's rack together. `lexitrain play
--hide-unseen` asks it at a few moments of a game (and always before the bag
empties). An answer is tiles as typed (`AEEIRST?`, spaces and case ignored,
`?` a blank) and is scored tile by tile: each tile named that is unseen is
right (as many times as it is unseen), each one more is wrong, each unseen one
not named is missing; the score is the tiles right over the unseen ones and
the wrong ones together, so naming every tile of the set scores no better than
tracking. A line shaped like a move (a square such as 8D, `pass`, `exchange ABC`,
`challenge`, a `.` or `-`) is refused, never scored: it was typed for the turn
that waits behind the question. It is practice, not a card: no search or list
makes its keys.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from lexitrain.engine.cgp import parse_cgp
from lexitrain.engine.exchanges import unseen_tiles
from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.lexicon.rows import WordRow
from lexitrain.study.quiz.kinds.base import LETTERS, Check, Question, register_kind
from lexitrain.tiles import Rack, TileSet


def tracked(names: Sequence[str], unseen: Sequence[str]) -> tuple[list[str], list[str], list[str]]:
    """Tiles named against the tiles unseen: (right, wrong, missing), each in the order of its source."""
    left = Counter(unseen)
    right, wrong = [], []
    for name in names:
        if left[name] > 0:
            left[name] -= 1
            right.append(name)
        else:
            wrong.append(name)
    named = Counter(right)
    missing = []
    for name in unseen:
        if named[name] > 0:
            named[name] -= 1
        else:
            missing.append(name)
    return right, wrong, missing


#: the first words of a player's lines that are moves or commands, never tiles
MOVE_WORDS = frozenset({"pass", "exchange", "challenge", "swap", "quit", "help"})


def move_shaped(answer: str) -> bool:
    """Whether an answer line is a move (or a command) rather than tiles: a square's digits, a word of
    MOVE_WORDS first, a `.` for a tile on the board or a `-` (an exchange, a pass)."""
    words = answer.split()
    return bool(words) and (words[0].lower() in MOVE_WORDS or any(c.isdigit() or c in ".-" for c in answer))


class TileTrackingKind:
    name = "tile-tracking"
    description = "a position of one of your games: name every tile you cannot see (the bag and the opponent's rack)"
    takes_minimum = False

    def __init__(self) -> None:
        self._tiles: dict[str, TileSet] = {}  # the tile set of each question built (its answer is read in it)

    def keys_from_rows(self, rows: Sequence[WordRow], minimum: int = 2) -> list[str] | None:
        return None

    def keys_from_alphagrams(self, alphagrams: Sequence[str], minimum: int = 2) -> list[str] | None:
        return None

    def key_from_text(self, lex: Lexicon, text: str) -> str:
        return text.strip()

    def build(self, lex: Lexicon, key: str, order: str = "alphabetical") -> Question:
        position = parse_cgp(key, lex.tiles, lex.layout)
        rack = Rack.parse(lex.tiles, position.rack, in_play=True)
        self._tiles[key] = lex.tiles
        unseen = unseen_tiles(position.board, rack)
        expected = lex.tiles.spell(unseen.names())
        return Question(self.name, key, f"Which {unseen.size} tiles can you not see?", (expected,),
                        {"cgp": key, "rack": position.rack, "count": unseen.size}, hint=LETTERS)

    def check(self, question: Question, answer: str) -> Check:
        if move_shaped(answer):
            return Check(False, (), (), (), refused=(
                f"{' '.join(answer.split())!r} is a move: first name the {question.info['count']} tiles you cannot "
                "see (the bag and your opponent's rack, e.g. AEEINRST?), then make your move"))
        tiles_text = "".join(answer.split())
        rack = question.info["rack"]
        expected = question.expected[0]
        try:
            named = self._names(question, tiles_text)
        except LexitrainError as exc:
            return Check(False, (), (), (), refused=str(exc))
        unseen = self._names(question, expected)
        right, wrong, missing = tracked(named, unseen)
        total = len(unseen)
        score = len(right) / (total + len(wrong)) if total + len(wrong) else 1.0
        details = {"unseen": expected, "rack": rack, "tiles": total, "tiles_right": len(right),
                   "tiles_wrong": len(wrong), "tiles_missing": len(missing), "score": round(score, 4)}
        return Check(not wrong and not missing, tuple(right), tuple(wrong), tuple(missing), details=details)

    def _names(self, question: Question, text: str) -> list[str]:
        """Tiles as typed, by name (`?` a blank), in the set of the question."""
        tiles = self._tiles[question.key]
        try:
            return Rack.of(tiles, tiles.tokenize(text)).names()
        except ValueError as exc:
            raise LexitrainError(f"tiles {text!r}: {exc}") from None

    def asking_words(self, question: Question) -> tuple[str, ...] | None:
        return None

    def sheet_prompt(self, question: Question) -> str:
        return question.prompt

    def sheet_words(self, question: Question) -> tuple[str, ...]:
        return ()


register_kind(TileTrackingKind)
