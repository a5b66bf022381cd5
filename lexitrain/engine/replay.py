"""Replay a recorded game move by move: the board before each turn, the
play read off it, and the score the rules give (to check the recorded one)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lexitrain.engine.board import EMPTY, Board
from lexitrain.engine.gcg import EXCHANGE, PASS, PLAY, WITHDRAWN, Event, Game
from lexitrain.engine.play import Play, ScoredPlay
from lexitrain.engine.rules import IllegalPlay, WordList, apply_play, check_play, invalid_words
from lexitrain.errors import LexitrainError
from lexitrain.layouts import BoardLayout, load_layout
from lexitrain.tiles import TileSet, available_tile_sets, load_tile_set


@dataclass
class Turn:
    """One turn of a replayed game (tile play, exchange or pass)."""

    number: int
    player: str
    kind: str
    rack: str
    board: Board  # as it stood before this turn
    event_line: int
    recorded: int
    play: ScoredPlay | None = None  # resolved, with the computed score
    error: str = ""  # why the play could not be scored, or words not in the lexicon
    withdrawn: bool = False
    notation: str = ""
    #: the mover's and the opponent's totals before this turn, as recorded
    scores: tuple[int, int] = (0, 0)

    @property
    def computed(self) -> int | None:
        return self.play.score if self.play is not None else None

    @property
    def ok(self) -> bool:
        return self.play is not None and self.play.score == self.recorded and not self.error


def detect_tile_set(game: Game) -> TileSet:
    """The tile set a game uses: from `#tile-set` / `#tile-distribution` when
    they name a shipped set, else the first shipped set (English first) that
    has every letter written in the file."""
    for pragma in ("tile-distribution", "tile-set", "letter-distribution"):
        named = game.pragmas.get(pragma, "").split()[:1]
        if named and named[0].lower() in available_tile_sets():
            return load_tile_set(named[0].lower())
    text = "".join(e.rack + e.tiles for e in game.events)
    letters = {ch.upper() for ch in text if ch.isalpha()}
    names = ["english"] + [n for n in available_tile_sets() if n != "english"]
    for name in names:
        tiles = load_tile_set(name)
        if all(_in_set(tiles, ch) for ch in letters):
            return tiles
    raise LexitrainError(f"{game.source}: no shipped tile set has all of the letters {''.join(sorted(letters))}")


def _in_set(tiles: TileSet, ch: str) -> bool:
    return ch in tiles.letters or any(ch in multi for multi in tiles.multi)


def replay(game: Game, tiles: TileSet | None = None, layout: BoardLayout | None = None,
           lexicon: WordList | None = None) -> list[Turn]:
    """Every turn of the game in order. Plays that cannot be placed get an
    `error` and leave the board unchanged; withdrawn plays are taken back."""
    tiles = tiles or detect_tile_set(game)
    board = Board(layout or load_layout("standard"), tiles)
    turns: list[Turn] = []
    number = 0
    totals: dict[str, int] = {}  # each player's recorded total so far
    nicks = [p.nick for p in game.players]
    opponent = {nick: next((other for other in nicks if other != nick), "") for nick in nicks}
    for event in game.events:
        scores = (totals.get(event.player, 0), totals.get(opponent.get(event.player, ""), 0))
        totals[event.player] = event.cumulative
        if event.kind == WITHDRAWN:
            _withdraw_last_play(turns, event.player, board)
            continue
        if event.kind not in (PLAY, EXCHANGE, PASS):
            continue
        number += 1
        turn = Turn(number, event.player, event.kind, event.rack, board.copy(), event.line, event.score, scores=scores)
        turns.append(turn)
        if event.kind == PLAY:
            _place_play(turn, event, board, f"{game.source}:{event.line}", lexicon)
    if lexicon is not None:
        for turn in turns:
            if turn.withdrawn and turn.error.endswith(f"not in {lexicon.name}"):
                turn.error = ""  # a phony taken back is no recording error
    return turns


def _withdraw_last_play(turns: list[Turn], player: str, board: Board) -> None:
    """A play challenged off: PLAYER's last tile play still standing is marked withdrawn and its tiles
    taken off the board."""
    for turn in reversed(turns):
        if turn.kind == PLAY and turn.player == player and not turn.withdrawn:
            turn.withdrawn = True
            if turn.play is not None:
                for r, c, _ in turn.play.placed():
                    board.set(r, c, EMPTY)
            return


def _place_play(turn: Turn, event: Event, board: Board, where: str, lexicon: WordList | None) -> None:
    """A recorded tile play put on the board; one that cannot be placed gets an `error` and leaves the board
    as it was (a notation that cannot be read is refused, naming WHERE), and words not in LEXICON are noted."""
    turn.notation = f"{event.position} {event.tiles}"
    try:
        parsed = Play.from_notation(event.position, event.tiles, board.tiles)
        turn.play = check_play(board, parsed)
    except IllegalPlay as exc:
        turn.error = str(exc)
        return
    except LexitrainError as exc:
        raise LexitrainError(f"{where}: {exc}") from None
    if lexicon is not None:
        bad = invalid_words(board, turn.play, lexicon)
        if bad:
            turn.error = f"{', '.join(bad)} not in {lexicon.name}"
    apply_play(board, turn.play)


def verify(game: Game, lexicon: WordList | None = None, tiles: TileSet | None = None) -> dict[str, Any]:
    """The `gcg verify` report: every tile play, recorded vs computed score, and the
    plays counted apart: `score_errors` (a score that is not the recorded one, or
    none could be computed) and `unknown_words` (the score right, a word unknown)."""
    turns = replay(game, tiles, lexicon=lexicon)
    tileset = turns[0].board.tiles if turns else (tiles or detect_tile_set(game))
    plays = []
    for turn in turns:
        if turn.kind != PLAY:
            continue
        entry: dict[str, Any] = {
            "turn": turn.number,
            "player": turn.player,
            "position": turn.play.position if turn.play else turn.notation.split()[0],
            "word": turn.play.word(tileset) if turn.play else turn.notation.split()[1],
            "recorded": turn.recorded,
            "computed": turn.computed,
            "ok": turn.ok,
        }
        if turn.withdrawn:
            entry["withdrawn"] = True
        if turn.error:
            entry["reason"] = turn.error
        plays.append(entry)
    scores = sum(p["computed"] is None or p["computed"] != p["recorded"] for p in plays)
    unknown = sum(p["computed"] is not None and p["computed"] == p["recorded"] and not p["ok"] for p in plays)
    return {"ok": all(p["ok"] for p in plays), "plays": plays, "score_errors": scores, "unknown_words": unknown}


