"""The `read-rack` kind: "what did your opponent keep?", after the move they just made.

The board is shown as it stands after the opponent's move (the move marked),
with your rack and the scores; the answer is the tiles you think they kept
(`EIR`, `?` a blank), as many as they kept. It is judged against the rack the
game recorded, where it recorded the opponent's whole rack (right: exactly
the leave they kept), and against the engine's inference from the move
(`engine/inference.py`: how likely each leave was, given the board, the move
and your rack); where the game did not record it, an answer among the
inference's five likeliest leaves is right. Either way the verdict says how
likely the inference found your leave and theirs, and lists its likeliest.

The key is your position as a CGP line with the opponent's move as its `lm`
op (`lm 8D.QUITE;`, `lm ex.4;`), so it is never a best-play card's key.
The reading is made once, when the card is made from a game (`read_card`,
`lexitrain study from-games --read-rack`), and kept with the position (the
positions table's analysis, as the analysed kinds keep theirs), so a card asks
the same question with the same answer every time. Only moves that kept one
to three tiles with tiles left in the bag make cards: a leave of more tiles is
not one a player can name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lexitrain.engine.board import Board
from lexitrain.engine.cgp import Position
from lexitrain.engine.exchanges import unseen_tiles
from lexitrain.engine.gcg import EXCHANGE, PLAY, Game
from lexitrain.engine.inference import Inference, InferenceModel, LastMove, infer, placed_tiles, tile_chances
from lexitrain.engine.leave import LeaveValues
from lexitrain.engine.movegen import MoveGenerator
from lexitrain.engine.play import Play
from lexitrain.engine.replay import Turn, replay
from lexitrain.engine.rules import apply_play
from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.study.quiz.kinds.analysed import KeptAnalysisKind, analysed_position
from lexitrain.study.quiz.kinds.base import BOARD, Check, Question, register_kind
from lexitrain.study.quiz.kinds.position import read_position
from lexitrain.study.store import StoredPosition
from lexitrain.tiles import RACK_SIZE, Rack, TileSet

KIND = "read-rack"
BY = "inference"
#: the leaves a card can ask for: this many tiles kept at most
MOST_KEPT = 3
#: without a recorded rack, an answer among this many likeliest is right
LIKELIEST = 5
#: the likeliest leaves the verdict lists
SHOWN = 8
#: leaves less likely than this are not kept with the card (the verdict says "under 0.01%")
SMALLEST = 1e-4


def last_move_op(move: LastMove, tiles: TileSet) -> str:
    """The move as the CGP `lm` op writes it: `8D.QUITE` (tiles played through written as the letters they
    are), `ex.4` for an exchange of four."""
    return f"{move.play.position}.{move.play.word(tiles)}" if move.play is not None else f"ex.{move.exchanged}"


def spell(tiles: TileSet, counts: tuple[int, ...] | list[int]) -> str:
    return tiles.spell([tiles.letters[t] if t < tiles.size else "?" for t, n in enumerate(counts) for _ in range(n)])


def read_card(lex: Lexicon, generator: MoveGenerator, leaves: LeaveValues, model: InferenceModel, before: Board,
              move: LastMove, move_score: int, mine: Rack, scores: tuple[int, int], real: Rack | None,
              source: str) -> StoredPosition | None:
    """A read-rack card for the opponent's `move` on `before` (you holding `mine`, `scores` yours then theirs
    after it; `real` the leave they kept when the game recorded it): its position with the reading, as the store
    keeps it (its cgp the card's key), made apart from the store. None when the move is no question (it kept no
    tile or more than MOST_KEPT, or the bag was empty)."""
    tiles = lex.tiles
    reading = infer(before, move, mine, generator, leaves, model)
    if not 1 <= reading.size <= MOST_KEPT or reading.size == sum(reading.pool):
        return None
    after = before.copy()
    if move.play is not None:
        apply_play(after, move.play)
    plays = generator.plays(after, mine)
    if not plays:
        return None
    position = Position(after, [tiles.spell(mine.names()), ""], list(scores), ops={"lm": last_move_op(move, tiles)})
    return analysed_position(lex, position, source, analysis(reading, move, move_score, real), plays)


def cards_from_game(lex: Lexicon, game: Game, nick: str | None, generator: MoveGenerator, leaves: LeaveValues,
                    model: InferenceModel, source: str) -> list[StoredPosition]:
    """The read-rack cards of a recorded game (their positions with their readings, to be stored): each move (a
    tile play or an exchange) followed by a turn of the other player whose whole rack was recorded (that player
    reads the move; only `nick`'s turns when given)."""
    tiles = lex.tiles
    turns = replay(game, tiles)
    events = {e.line: e for e in game.events}
    cards = []
    for t, reader in zip(turns, turns[1:]):
        if reader.player == t.player or (nick is not None and reader.player != nick) or t.withdrawn:
            continue
        try:
            mine = Rack.parse(tiles, reader.rack, in_play=True, required=True)
            held = Rack.parse(tiles, t.rack, in_play=True)
        except LexitrainError:
            continue
        if mine.size < min(RACK_SIZE, unseen_tiles(t.board, held).size):
            continue  # the reader's rack is only partly recorded
        read = _move_read(t, events[t.event_line].tiles, tiles)
        if read is None:
            continue
        move, used = read
        real = _kept(held, used) if held.size == RACK_SIZE and used is not None else None
        try:
            card = read_card(lex, generator, leaves, model, t.board, move, t.recorded, mine,
                             (reader.scores[0], reader.scores[1]), real, f"{source}: turn {t.number}")
        except LexitrainError:
            continue  # a move the tiles on the board and the reader's rack leave impossible (a misrecorded game)
        if card is not None:
            cards.append(card)
    return cards


def _move_read(t: Turn, exchanged: str, tiles: TileSet) -> tuple[LastMove, list[int] | None] | None:
    """The move a reader reads and the tiles it used, by tile (a blank last; None where only how many were put
    back is recorded); None for a move there is nothing to read in (a pass, an exchange not recorded)."""
    if t.kind == PLAY and t.play is not None:
        return LastMove(play=t.play), placed_tiles(tiles, t.play)
    if t.kind != EXCHANGE or not exchanged:
        return None
    if exchanged.isdigit():
        return LastMove(exchanged=int(exchanged)), None
    try:
        put = Rack.parse(tiles, exchanged.upper())
    except LexitrainError:
        return None
    return LastMove(exchanged=put.size), [*put.counts, put.blanks]


def _kept(held: Rack, used: list[int]) -> Rack | None:
    """The tiles a full rack kept after the move used USED (None where the record says it used tiles the rack
    did not hold)."""
    left = [n - u for n, u in zip((*held.counts, held.blanks), used)]
    return Rack(held.tiles, tuple(left[:-1]), left[-1]) if min(left) >= 0 else None


def analysis(reading: Inference, move: LastMove, move_score: int, real: Rack | None) -> dict[str, Any]:
    """What a card keeps of its reading: the likeliest leaves (those above SMALLEST), each tile's chance, and
    the leave really kept with its probability and rank when the game recorded it."""
    tiles = reading.tiles
    kept = [(spell(tiles, leave), round(p, 6)) for leave, p in reading.leaves if p >= SMALLEST]
    data: dict[str, Any] = {"by": BY, "kept": reading.size, "score": move_score,
                            "move": move.play.format(tiles) if move.play is not None else f"exchange {move.exchanged}",
                            "leaves": kept, "tiles": tile_chances(reading), "method": reading.method,
                            "real": None}
    if real is not None:
        counts = (*real.counts, real.blanks)
        probability = dict(reading.leaves).get(counts, 0.0)
        data.update(real=spell(tiles, counts), real_probability=round(probability, 6),
                    real_rank=1 + sum(1 for _, p in reading.leaves if p > probability))
    data["best"] = [data["real"]] if data["real"] is not None else [leave for leave, _ in kept[:LIKELIEST]]
    return data


@dataclass
class Asked:
    """A card as asked: its reading, the board after the move, and the tiles the opponent's leave came from."""

    analysis: dict[str, Any]
    tiles: TileSet
    unseen: Rack


class ReadRackKind(KeptAnalysisKind[Asked]):
    """Each session's instance reads the readings through the session's store (`use_store`)."""

    name = KIND
    description = "a board after your opponent's move and your rack: type the tiles they kept, e.g. EIR"

    def build(self, lex: Lexicon, key: str, order: str = "alphabetical") -> Question:
        data = self.kept_analysis(lex, key, BY)
        position = read_position(key, lex)
        board = position.board
        move = str(data["move"])
        highlight: list[list[int]] = []
        if not move.startswith("exchange"):
            at, _, word = position.ops.get("lm", "").partition(".")
            highlight = [[r, c] for r, c in Play.parse(f"{at} {word}", board.tiles).squares()]
        kept = int(data["kept"])
        did = (f"played {move} for {data['score']}" if not move.startswith("exchange")
               else f"exchanged {move.split()[1]} tiles")
        note = f"Your opponent {did}, keeping {kept} tile{'s' if kept != 1 else ''}."
        info = {"cgp": key, "rack": position.rack, "lexicon": lex.name, "by": BY, "kept": kept,
                "asks": "What did your opponent keep?", "note": note, "highlight": highlight,
                "answer_help": f"the {kept} tile{'s' if kept != 1 else ''} they kept (? for a blank)"}
        prompt = "\n".join(board.rows_text() + [note, f"rack {position.rack}: what did they keep?"])
        question = Question(self.name, key, prompt, tuple(str(b) for b in data["best"]), info, hint=BOARD)
        unseen = unseen_tiles(board, Rack.parse(board.tiles, position.rack))
        self._asked.keep(question, Asked(data, board.tiles, unseen))
        return question

    def check(self, question: Question, answer: str) -> Check:
        asked = self.asked(question)
        data, tiles = asked.analysis, asked.tiles
        kept = int(data["kept"])
        text = answer.strip().replace(" ", "").upper()
        try:
            given = Rack.parse(tiles, text, "the leave")
            if given.size != kept:
                raise LexitrainError(f"they kept {kept} tile{'s' if kept != 1 else ''}: name {kept}")
            short = asked.unseen.lacking(given.names())
        except LexitrainError as exc:
            if not text:  # no answer: missed, judged like any other
                return self._verdict(question, asked, "", False)
            return Check(False, (), (text,), question.expected, refused=str(exc))
        if short is not None:
            return Check(False, (), (text,), question.expected,
                         refused=f"they cannot hold {short.wanted} {short.name}: {short.held} unseen")
        leave = spell(tiles, (*given.counts, given.blanks))
        real = data.get("real")
        correct = leave == real if real is not None else leave in question.expected
        return self._verdict(question, asked, leave, correct)

    def _verdict(self, question: Question, asked: Asked, leave: str, correct: bool) -> Check:
        data = asked.analysis
        probabilities = {str(k): float(p) for k, p in data["leaves"]}
        ranked = sorted(probabilities.values(), reverse=True)

        def said(name: str) -> str:
            p = probabilities.get(name)
            if p is None:
                return f"{name} under {100 * SMALLEST:.2g}%"
            rank = 1 + sum(1 for q in ranked if q > p)
            return f"{name} {100 * p:.1f}% (rank {rank})"

        real = data.get("real")
        lines = []
        if real is not None:
            right = _common(leave, real)
            lines.append(f"They kept {real}" + (f"; you said {leave}: {right} of {len(real)} tiles right"
                                                if leave and leave != real else ""))
        elif leave:
            lines.append(f"The game did not record their rack: {'one of' if correct else 'not one of'} the "
                         f"inference's {LIKELIEST} likeliest")
        else:  # no answer (or the answer asked for): what would have been right
            lines.append(f"The game did not record their rack: the inference's {LIKELIEST} likeliest are "
                         + ", ".join(question.expected))
        reading = [said(leave)] if leave else []
        if real is not None and real != leave:
            reading.append(said(real))
        if reading:
            lines.append("The inference gives " + ", ".join(reading))
        top = [[name, f"{100 * p:.1f}%"] for name, p in list(probabilities.items())[:SHOWN]]
        details: dict[str, Any] = {"by": BY, "leave": leave, "real": real, "verdict": lines,
                                   "table": {"columns": ["leave", "inference"], "rows": top},
                                   "probability": probabilities.get(leave), "kept": data["kept"]}
        given = (leave,) if leave else ()
        return Check(correct, given if correct else (), () if correct else given,
                     () if correct else question.expected, details=details)

    def asking_words(self, question: Question) -> tuple[str, ...] | None:
        return None

    def sheet_prompt(self, question: Question) -> str:
        return f"{self.name}: {question.info['note']} You hold {question.info['rack']}; on {question.key.split()[0]}"

    def sheet_words(self, question: Question) -> tuple[str, ...]:
        return question.expected


def _common(a: str, b: str) -> int:
    """How many tiles two leaves share (as multisets)."""
    rest = list(b)
    count = 0
    for ch in a:
        if ch in rest:
            rest.remove(ch)
            count += 1
    return count


register_kind(ReadRackKind)
