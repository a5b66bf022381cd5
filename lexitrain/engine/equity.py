"""Equity: a move's score plus the value of the tiles it keeps.

`equity = score + leave value` (the bingo bonus is already in the score).
The candidates are the tile plays, every distinct exchange when the bag
allows one, and a pass. While the bag holds tiles the leave is valued by the
leave model; with the bag empty nothing is drawn, so the tiles kept are a
debt instead: minus twice their points, what the opponent gains by going
out next. Equal equities are ordered by score, then plays before exchanges
before the pass, then by placement (row, column, direction, tiles) or
exchange (fewest tiles, in tile-set order), so the order never depends on
how the generator happened to find the plays.

That last order is no preference: it would have self-play put down the
alphabetically first anagram every time (ANESTRI for each of the nine bingos
of AEINRST on an empty board). Given a ticket, a number drawn for the turn,
the best move is instead drawn among the plays tied at its equity and score:
the one numbered `ticket` modulo their count, in that order (`tie_draws`
gives a game's tickets from its seed; the compiled search draws the same).
"""

from __future__ import annotations

import random
from typing import NamedTuple, Sequence

from lexitrain.engine.board import BLANK_FLAG
from lexitrain.engine.exchanges import EXCHANGE_LIMIT, can_exchange, distinct_exchanges, exchange_order, kept_after
from lexitrain.engine.game import Game, Move
from lexitrain.engine.leave import LeaveValues, leave_after
from lexitrain.engine.play import ScoredPlay
from lexitrain.tiles import Rack, TileSet

PLAY, EXCHANGE, PASS = "play", "exchange", "pass"
#: the kinds in their tie-break order; the compiled search's number of each (`movegen.PLAY`...) is its place here
KINDS = (PLAY, EXCHANGE, PASS)
_KIND_ORDER = {kind: place for place, kind in enumerate(KINDS)}


class Candidate(NamedTuple):
    """A move the player to move could make: a tile play, an exchange (the
    tiles put back in `exchanged`) or a pass, with its equity."""

    equity: float
    score: int
    leave_value: float
    kind: str
    play: ScoredPlay | None = None
    exchanged: Rack | None = None

    def leave(self, rack: Rack) -> Rack:
        """The tiles this move keeps from `rack`."""
        if self.play is not None:
            return leave_after(rack, self.play)
        if self.exchanged is not None:
            return kept_after(rack, self.exchanged)
        return rack

    @property
    def position(self) -> str:
        """GCG notation's first part: `8D` for a play, `-` for an exchange or a pass."""
        return self.play.position if self.play is not None else "-"

    def word(self, tiles: TileSet) -> str:
        return self.play.word(tiles) if self.play is not None else ""

    def tiles_text(self, tiles: TileSet) -> str:
        """The play's tiles (`.` for board tiles), or the tiles exchanged (`-ABC` reads as position + tiles)."""
        if self.play is not None:
            return self.play.tiles_text(tiles)
        return tiles.spell(self.exchanged.names()) if self.exchanged is not None else ""

    def format(self, tiles: TileSet) -> str:
        """GCG notation: `8D QUIT.`, `-ABC`, `-`."""
        if self.play is not None:
            return self.play.format(tiles)
        return "-" + self.tiles_text(tiles)


def kept_points(rack: Rack) -> int:
    points = rack.tiles.points
    return sum(n * p for n, p in zip(rack.counts, points))


def leave_value(model: LeaveValues, leave: Rack, bag: int) -> float:
    """What the tiles kept are worth: the model's value while the bag holds tiles, else minus twice their points."""
    return model.value(leave) if bag > 0 else -2.0 * kept_points(leave)


def play_leave_values(model: LeaveValues, rack: Rack, plays: Sequence[ScoredPlay], bag: int) -> list[float]:
    """The leave value of each play: the model's while the bag holds tiles, else minus twice the points kept."""
    if bag > 0:
        return model.play_values(rack, plays)
    on_rack = kept_points(rack)
    points = rack.tiles.points
    return [-2.0 * (on_rack - sum(points[t] for _, _, t in p.placed() if t < BLANK_FLAG)) for p in plays]


def candidates(model: LeaveValues, rack: Rack, plays: Sequence[ScoredPlay], bag: int, *,
               exchanges: bool = True, exchange_limit: int = EXCHANGE_LIMIT) -> list[Candidate]:
    """Every candidate, unordered: the plays given, then (with `exchanges`)
    each distinct exchange if `bag` tiles allow one, and a pass."""
    out = [Candidate(round(p.score + v, 2), p.score, v, PLAY, p)
           for p, v in zip(plays, play_leave_values(model, rack, plays, bag))]
    if not exchanges:
        return out
    if rack.size and can_exchange(bag, exchange_limit):
        for given in distinct_exchanges(rack):
            value = leave_value(model, kept_after(rack, given), bag)
            out.append(Candidate(value, 0, value, EXCHANGE, None, given))
    value = leave_value(model, rack, bag)
    out.append(Candidate(value, 0, value, PASS))
    return out


def play_equity(model: LeaveValues, rack: Rack, play: ScoredPlay, bag: int) -> Candidate:
    """One play as a candidate (its equity and leave value): to judge an answer or a move made."""
    return candidates(model, rack, [play], bag, exchanges=False)[0]


def equity_order(candidate: Candidate) -> tuple:
    """Sort key: best equity first, then the tie-breaks in the module's docstring."""
    kind = _KIND_ORDER[candidate.kind]
    if candidate.play is not None:
        detail: tuple = candidate.play.key()
    elif candidate.exchanged is not None:
        detail = exchange_order(candidate.exchanged)
    else:
        detail = ()
    return (-candidate.equity, -candidate.score, kind, detail)


def rank_by_equity(model: LeaveValues, rack: Rack, plays: Sequence[ScoredPlay], bag: int, *,
                   exchanges: bool = True, exchange_limit: int = EXCHANGE_LIMIT) -> list[Candidate]:
    """The candidates (see `candidates`), best equity first, in a fixed order."""
    return sorted(candidates(model, rack, plays, bag, exchanges=exchanges, exchange_limit=exchange_limit),
                  key=equity_order)


def best_candidate(model: LeaveValues, rack: Rack, plays: Sequence[ScoredPlay], bag: int, *,
                   exchange_limit: int = EXCHANGE_LIMIT, ticket: int | None = None) -> Candidate:
    """The first of `rank_by_equity` (exchanges and the pass included), without ranking every play;
    given a `ticket`, a play drawn among those tied with it (see the module's docstring)."""
    values = play_leave_values(model, rack, plays, bag)
    equities = [round(p.score + v, 2) for p, v in zip(plays, values)]
    top = max(equities, default=None)
    tied = [Candidate(e, p.score, v, PLAY, p) for p, v, e in zip(plays, values, equities) if e == top]
    others = candidates(model, rack, (), bag, exchange_limit=exchange_limit)
    best = min(tied + others, key=equity_order)
    if ticket is None or best.kind != PLAY:
        return best
    drawn = sorted((c for c in tied if c.score == best.score), key=equity_order)
    return drawn[ticket % len(drawn)]


def tie_draws(seed: int) -> random.Random:
    """The tickets of game `seed`, one a turn (`getrandbits(32)`), apart from its bag's draws."""
    return random.Random(f"ties of game {seed}")


class EquityPlayer:
    """A self-play policy (see `engine.game.self_play`): makes the move of best equity; given
    `ties` (`tie_draws`), draws among tied plays with a ticket a turn."""

    def __init__(self, model: LeaveValues, ties: random.Random | None = None) -> None:
        self.model = model
        self.ties = ties

    def __call__(self, game: Game, plays: list[ScoredPlay]) -> Move:
        tiles = game.board.tiles
        rack = Rack.of(tiles, game.current.rack)
        ticket = None if self.ties is None else self.ties.getrandbits(32)
        best = best_candidate(self.model, rack, plays, len(game.bag), exchange_limit=game.rules.exchange_limit,
                              ticket=ticket)
        if best.play is not None:
            return game.play(best.play)
        if best.exchanged is not None:
            return game.exchange(tiles.spell(best.exchanged.names()))
        return game.pass_turn()
