"""Reading the opponent's rack: how likely each leave is, given the move they just made.

Bayes' rule over the racks the opponent may have held. Their rack before the
move was a random draw of the tiles the inferring player cannot see (the bag
and that rack: the board and the inferring player's own tiles known), so a
rack's prior is its count of draws, the product over tiles of
C(unseen, held). The move is evidence: a good player rarely makes a move far
below the best their rack allowed, so a rack whose best move beats the one
made by a wide margin is unlikely. The likelihood of the move from a rack is
`max(exp(-loss / temperature), floor)`, `loss` the points of static equity
(score plus the leave's value, the engine's leave values) the move gave up
against the rack's best move (plays, exchanges and the pass); `temperature`
and `floor` are fitted on self-play (`scripts/fit_inference.py`, kept in
`lexicons/inference/`).

For a tile play the rack is the tiles played plus the leave kept: the
posterior of a leave is `prior(played + leave) * likelihood`. Every leave is
weighed when there are at most `exhaustive` of them (a play of many tiles, a
nearly empty bag); otherwise `samples` leaves are drawn at random from the
unseen tiles and weighed, and the draws also estimate the total weight of the
leaves never drawn (importance sampling), so the probability of any one leave
stays honest (`Inference.probability`). For an exchange the tiles put back are
unseen too: whole racks are drawn, weighed by how likely an exchange of that
many tiles was from each, and each keeps the leave of best value its exchange
could keep. A play of every tile keeps nothing: the empty leave, certain.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any, Iterator, Sequence

from lexitrain.engine.board import BLANK_FLAG, EMPTY, Board
from lexitrain.engine.exchanges import EXCHANGE_LIMIT, can_exchange, unseen_tiles
from lexitrain.engine.leave import LeaveValues
from lexitrain.engine.movegen import MoveGenerator
from lexitrain.engine.play import Play, ScoredPlay
from lexitrain.engine.rules import IllegalPlay, check_play
from lexitrain.engine.simulation import CompiledChooser, Inferred, PythonChooser, default_engine, leave_cents
from lexitrain.errors import LexitrainError
from lexitrain.paths import shipped
from lexitrain.tiles import RACK_SIZE, Rack, TileSet
from lexitrain.wording import counted

#: weigh every leave when there are at most this many
EXHAUSTIVE = 4000
#: leaves drawn (with repeats) when there are more
SAMPLES = 4000
#: the seed of those draws, so the same question gets the same answer
SEED = 1


@dataclass(frozen=True)
class InferenceModel:
    """How likely a move is from a rack, by the static equity it gave up there (fitted on self-play)."""

    temperature: float
    floor: float
    trained: dict[str, Any] = field(default_factory=dict)

    def likelihood(self, loss: float) -> float:
        return max(math.exp(-loss / self.temperature), self.floor)


def model_path(tiles: TileSet) -> Path:
    return shipped("lexicons") / "inference" / f"{tiles.name}.json"


def load_inference_model(tiles: TileSet) -> InferenceModel:
    """The fitted model for a tile set: its own file, else the English one (how players choose moves
    does not depend much on the letters)."""
    path = model_path(tiles)
    if not path.is_file():
        path = path.with_name("english.json")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return InferenceModel(float(data["temperature"]), float(data["floor"]), dict(data.get("trained", {})))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise LexitrainError(f"{path}: cannot read the inference model ({exc})") from None


@dataclass(frozen=True)
class LastMove:
    """The opponent's move: a tile play (scored on the board before it) or an exchange of `exchanged` tiles."""

    play: ScoredPlay | None = None
    exchanged: int = 0

    @staticmethod
    def parse(text: str, board: Board) -> LastMove:
        """`8D QUITE` (GCG notation, as `gcg show` prints it) or `exchange 3` (also `-3`); a one-line error else."""
        words = text.split()
        if words and words[0].lower() in ("exchange", "exch") or (len(words) == 1 and words[0].startswith("-")):
            count = words[1] if len(words) == 2 else words[0][1:] if len(words) == 1 else ""
            if not count.isdigit() or not 1 <= int(count) <= RACK_SIZE:
                raise LexitrainError(f"last play {text!r}: an exchange is written `exchange N`, N from 1 to "
                                     f"{RACK_SIZE}")
            return LastMove(exchanged=int(count))
        try:
            play = check_play(board, Play.parse(text, board.tiles))
        except (IllegalPlay, LexitrainError) as exc:
            raise LexitrainError(f"last play {text!r}: {exc}") from None
        return LastMove(play=play)


def read_last_move(board: Board, text: str) -> tuple[Board, LastMove]:
    """A last move written on the board after it (`sim --infer --last-play`): the board before it and the move.
    A play's tiles already on the board before it are written `.` or in brackets (`8D QUIT.`, `8D QUI(T)`);
    every other tile it names must be on the board now, and comes off."""
    words = text.split()
    if not words or words[0].lower() in ("exchange", "exch") or (len(words) == 1 and words[0].startswith("-")):
        return board, LastMove.parse(text, board)
    try:
        play = Play.parse(text, board.tiles)
    except LexitrainError as exc:
        raise LexitrainError(f"last play {text!r}: {exc}") from None
    before = board.copy()
    for r, c, t in play.placed():
        if not board.inside(r, c) or board.get(r, c) != t:
            raise LexitrainError(f"last play {text!r}: the board does not hold its tiles there (write the tiles "
                                 "that were on the board before it as . or in brackets)")
        before.set(r, c, EMPTY)
    return before, LastMove.parse(text, before)


def placed_tiles(tiles: TileSet, play: ScoredPlay) -> list[int]:
    """The tiles a play took from the rack, counted by tile (blanks last)."""
    counts = [0] * (tiles.size + 1)
    for _, _, t in play.placed():
        counts[tiles.size if t >= BLANK_FLAG else t] += 1
    return counts


@dataclass
class Inference:
    """The leaves the opponent may have kept, most likely first, with probabilities summing to 1."""

    tiles: TileSet
    leaves: list[tuple[tuple[int, ...], float]]  # counts by tile, blanks last; probability
    pool: list[int]  # the tiles the leave was drawn from (unseen, less the play's), by tile, blanks last
    size: int  # tiles kept
    method: str
    positions: int  # racks weighed
    exhaustive: bool
    covered: float  # the share of the whole posterior the listed leaves hold (1 when exhaustive)
    reader: PlayReader | None = field(default=None, repr=False)
    #: what a simulation draws the opponent's leave from: the posterior itself when every leave was
    #: weighed, else each leave drawn weighed by its importance (weight over its chance of being drawn,
    #: times its draws), which estimates the whole posterior without favouring the common leaves
    drawn: list[tuple[tuple[int, ...], float]] | None = field(default=None, repr=False)

    def inferred(self) -> Inferred:
        """The leaves as a simulation draws them (`sim --infer`)."""
        return Inferred.of(self.drawn if self.drawn is not None else self.leaves)

    def spell(self, leave: Sequence[int]) -> str:
        names = [self.tiles.letters[t] for t, n in enumerate(leave[:-1]) for _ in range(n)] + ["?"] * leave[-1]
        return self.tiles.spell(names)

    def to_json(self, top: int | None = None) -> dict[str, Any]:
        """Every leave (summing to 1), or the `top` likeliest and `left_out`: how many were not listed
        and their probability together, so what is listed plus what is left out still sums to 1."""
        shown = self.leaves if top is None else self.leaves[:top]
        rest = self.leaves[len(shown):]
        return {"leaves": [{"leave": self.spell(leave), "probability": round(p, 6)} for leave, p in shown],
                "left_out": {"leaves": len(rest), "probability": round(sum(p for _, p in rest), 6)},
                "method": self.method, "positions": self.positions, "exhaustive": self.exhaustive,
                "covered": round(self.covered, 4)}

    def probability(self, leave: Sequence[int]) -> float:
        """The posterior probability of one leave, weighed if it was not (the estimate of the total
        weight from the draws as the denominator when not every leave was weighed)."""
        key = tuple(leave)
        found = dict(self.leaves).get(key)
        if self.reader is None:
            return found or 0.0
        return self.reader.probability(key)


class PlayReader:
    """Every leave of one tile play: its prior, the equity the play gave up from played + leave, the posterior."""

    def __init__(self, board: Board, play: ScoredPlay, known: Rack, generator: MoveGenerator,
                 leaves: LeaveValues, model: InferenceModel, engine: str | None = None) -> None:
        tiles = board.tiles
        self.tiles = tiles
        self.model = model
        unseen = unseen_tiles(board, known)
        self.unseen = [*unseen.counts, unseen.blanks]
        self.played = placed_tiles(tiles, play)
        short = [tiles.letters[t] if t < tiles.size else "?" for t, (n, u) in enumerate(zip(self.played, self.unseen))
                 if n > u]
        if short:
            raise LexitrainError(f"the play uses {', '.join(short)}, which the board and your rack leave unseen "
                                 "too few of")
        self.pool = [u - p for u, p in zip(self.unseen, self.played)]
        hidden = max(0, RACK_SIZE - known.size)  # the inferring player's tiles not given: unseen to them too
        total = sum(self.unseen)
        self.size = max(sum(self.played), min(RACK_SIZE, total - hidden)) - sum(self.played)
        self.bag = max(0, total - self.size - sum(self.played) - hidden)
        cents = leave_cents(leaves, tiles)
        self.cents = cents
        chooser = PythonChooser if (engine or default_engine()) == "python" else CompiledChooser
        self.chooser = chooser(board, generator, cents)
        self.squares = list(board.squares)
        self.score = play.score
        self._loss: dict[tuple[int, ...], float] = {}
        self._weight: dict[tuple[int, ...], float] = {}
        self.total: float | None = None  # the posterior's normaliser, once read

    # -- the parts of Bayes' rule ------------------------------------------------
    def prior(self, leave: Sequence[int]) -> float:
        """Draws of the whole rack (played + leave) from the unseen tiles, unnormalised."""
        out = 1
        for u, p, n in zip(self.unseen, self.played, leave):
            if p or n:
                out *= math.comb(u, p + n)
        return float(out)

    def loss(self, leave: Sequence[int]) -> float:
        """The static equity, in points, the play gave up against the best move of played + leave."""
        key = tuple(leave)
        found = self._loss.get(key)
        if found is None:
            rack = [p + n for p, n in zip(self.played, leave)]
            best = self.chooser.choose(self.squares, rack, self.bag)
            made = 100 * self.score + self.cents.kept(key[:-1], key[-1], self.bag)
            found = self._loss[key] = max(0, 100 * best.score + best.leave - made) / 100
        return found

    def weight(self, leave: Sequence[int]) -> float:
        key = tuple(leave)
        found = self._weight.get(key)
        if found is None:
            found = self._weight[key] = self.prior(key) * self.model.likelihood(self.loss(key))
        return found

    # -- the leaves ----------------------------------------------------------------
    def count(self) -> int:
        """How many distinct leaves the unseen tiles allow."""
        ways = [1] + [0] * self.size
        for cap in self.pool:
            ways = [sum(ways[s - v] for v in range(min(cap, s) + 1)) for s in range(self.size + 1)]
        return ways[self.size]

    def every(self) -> Iterator[tuple[int, ...]]:
        pool, last = self.pool, len(self.pool) - 1

        def fill(t: int, left: int, prefix: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
            if t == last:
                if left <= pool[t]:
                    yield prefix + (left,)
                return
            for v in range(min(pool[t], left) + 1):
                yield from fill(t + 1, left - v, prefix + (v,))

        return fill(0, self.size, ())

    def draw(self, rng: random.Random, samples: int) -> list[tuple[int, ...]]:
        """Leaves drawn at random from the unseen tiles (with repeats)."""
        bag = [t for t, n in enumerate(self.pool) for _ in range(n)]
        out = []
        for _ in range(samples):
            leave = [0] * len(self.pool)
            for t in rng.sample(bag, self.size):
                leave[t] += 1
            out.append(tuple(leave))
        return out

    def drawn_chance(self, leave: Sequence[int]) -> float:
        """The chance of drawing this leave at random from the unseen tiles (what `draw` samples)."""
        out = 1
        for c, n in zip(self.pool, leave):
            if n:
                out *= math.comb(c, n)
        return out / math.comb(sum(self.pool), self.size)

    def read(self, exhaustive: int = EXHAUSTIVE, samples: int = SAMPLES, seed: int = SEED) -> Inference:
        if self.size == 0:
            return Inference(self.tiles, [((0,) * len(self.pool), 1.0)], self.pool, 0, "the play used every tile", 0,
                             True, 1.0, self)
        importance: list[tuple[tuple[int, ...], float]] | None = None
        if self.count() <= exhaustive:
            keys = list(self.every())
            weights = {k: self.weight(k) for k in keys}
            self.total = sum(weights.values())
            method, done = "every leave weighed", True
        else:
            drawn = Counter(self.draw(random.Random(seed), samples))
            weights = {k: self.weight(k) for k in drawn}
            importance = [(k, n * weights[k] / self.drawn_chance(k)) for k, n in drawn.items()]
            self.total = max(sum(w for _, w in importance) / samples, sum(weights.values()))
            method, done = f"{samples} leaves drawn at random, weighed", False
        listed = sum(weights.values())
        if listed <= 0:
            raise LexitrainError("no rack the unseen tiles allow could have made that play")
        ranked = sorted(weights.items(), key=lambda kv: (-kv[1], kv[0]))
        assert self.total is not None
        return Inference(self.tiles, [(k, w / listed) for k, w in ranked if w > 0], self.pool, self.size,
                         f"{method}: prior x likelihood of the play's equity loss (temperature "
                         f"{self.model.temperature:g}, floor {self.model.floor:g})",
                         len(weights), done, listed / self.total, self, importance)

    def probability(self, leave: tuple[int, ...]) -> float:
        """One leave's posterior probability (`read` first)."""
        if self.total is None:
            raise LexitrainError("read the play before asking a leave's probability")
        if len(leave) != len(self.pool) or sum(leave) != self.size or any(n > c for n, c in zip(leave, self.pool)):
            return 0.0
        if self.size == 0:
            return 1.0
        return self.weight(leave) / self.total


class ExchangeReader:
    """Whole racks drawn from the unseen tiles, each weighed by how likely an exchange of `given`
    tiles was from it; each keeps the leave of best value such an exchange could keep."""

    def __init__(self, board: Board, given: int, known: Rack, generator: MoveGenerator, leaves: LeaveValues,
                 model: InferenceModel, engine: str | None = None, exchange_limit: int = EXCHANGE_LIMIT) -> None:
        tiles = board.tiles
        self.tiles = tiles
        self.model = model
        unseen = unseen_tiles(board, known)
        self.unseen = [*unseen.counts, unseen.blanks]
        hidden = max(0, RACK_SIZE - known.size)
        total = sum(self.unseen)
        self.size = min(RACK_SIZE, total - hidden)
        self.bag = max(0, total - self.size - hidden)
        if not can_exchange(self.bag, exchange_limit) or given > self.size:
            raise LexitrainError(f"an exchange of {given} was not allowed there: {counted(self.bag, 'tile')} in the bag")
        self.given = given
        self.cents = leave_cents(leaves, tiles)
        chooser = PythonChooser if (engine or default_engine()) == "python" else CompiledChooser
        self.chooser = chooser(board, generator, self.cents)
        self.squares = list(board.squares)

    def kept(self, rack: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
        """The leave of best value an exchange of `given` tiles keeps from the rack, and that value in cents."""
        slots = [t for t, n in enumerate(rack) for _ in range(n)]
        best: tuple[int, tuple[int, ...]] | None = None
        for chosen in dict.fromkeys(combinations(slots, self.size - self.given)):
            leave = [0] * len(rack)
            for t in chosen:
                leave[t] += 1
            value = self.cents.kept(leave[:-1], leave[-1], self.bag)
            if best is None or value > best[0]:
                best = (value, tuple(leave))
        assert best is not None
        return best[1], best[0]

    def read(self, samples: int = SAMPLES, seed: int = SEED) -> Inference:
        rng = random.Random(seed)
        bag = [t for t, n in enumerate(self.unseen) for _ in range(n)]
        weighed: dict[tuple[int, ...], tuple[tuple[int, ...], float]] = {}
        weights: dict[tuple[int, ...], float] = {}
        for _ in range(samples):
            rack = [0] * len(self.unseen)
            for t in rng.sample(bag, self.size):
                rack[t] += 1
            key = tuple(rack)
            found = weighed.get(key)
            if found is None:
                leave, value = self.kept(key)
                best = self.chooser.choose(self.squares, rack, self.bag)
                loss = max(0, 100 * best.score + best.leave - value) / 100
                found = weighed[key] = (leave, self.model.likelihood(loss))
            weights[found[0]] = weights.get(found[0], 0.0) + found[1]
        listed = sum(weights.values())
        ranked = sorted(weights.items(), key=lambda kv: (-kv[1], kv[0]))
        return Inference(self.tiles, [(k, w / listed) for k, w in ranked], self.unseen, self.size - self.given,
                         f"{samples} racks drawn at random, each weighed by the likelihood of exchanging "
                         f"{self.given} from it (temperature {self.model.temperature:g}, floor {self.model.floor:g})",
                         len(weighed), False, 1.0)


def infer(board: Board, move: LastMove, known: Rack, generator: MoveGenerator, leaves: LeaveValues,
          model: InferenceModel, *, exhaustive: int = EXHAUSTIVE, samples: int = SAMPLES, seed: int = SEED,
          engine: str | None = None) -> Inference:
    """The leaves the opponent may have kept after `move` (made on `board`), the inferring player holding `known`."""
    if move.play is not None:
        return PlayReader(board, move.play, known, generator, leaves, model, engine).read(exhaustive, samples, seed)
    return ExchangeReader(board, move.exchanged, known, generator, leaves, model, engine).read(samples, seed)


def tile_chances(inference: Inference) -> list[dict[str, Any]]:
    """For each tile that may be kept: the chance the leave holds at least one, by the inference and
    by a random draw of as many tiles from the same unseen tiles."""
    pool, size = inference.pool, inference.size
    total = sum(pool)
    out = []
    for t, count in enumerate(pool):
        if not count or not size:
            continue
        held = sum(p for leave, p in inference.leaves if leave[t])
        random_draw = 1 - math.comb(total - count, size) / math.comb(total, size)
        name = inference.tiles.letters[t] if t < inference.tiles.size else "?"
        out.append({"tile": name, "probability": round(held, 4), "random": round(random_draw, 4)})
    return out
