"""Is a play legal, and what does it score.

The validator names exactly why a play is illegal; the scorer follows the
rules to the letter: each word formed scores its letters (letter premiums only
under newly placed tiles), times the word premiums under newly placed tiles;
the main word and every cross word of two or more letters add up; using all
seven rack tiles adds the layout's bingo bonus.
"""

from __future__ import annotations

from typing import Iterable, Protocol

from lexitrain.engine.board import EMPTY, Board, is_blank, letter_of, tile_points, tile_text
from lexitrain.engine.play import Placement, Play, ScoredPlay, format_position
from lexitrain.errors import LexitrainError
from lexitrain.tiles import BLANK, RACK_SIZE, Rack


class IllegalPlay(LexitrainError):
    """A play that breaks a rule; the message says which and where."""


class WordList(Protocol):
    @property
    def name(self) -> str: ...

    def has_code(self, code: str) -> bool: ...


Word = tuple[int, int, bool, tuple[int, ...], int]  # row, col, down, tiles, new-tile bitmask


def words_formed(board: Board, play: Placement) -> list[Word]:
    """The main word then each cross word (two letters or more) of a resolved play."""
    dr, dc = (1, 0) if play.down else (0, 1)
    row, col = play.row, play.col
    while board.occupied(row - dr, col - dc):
        row, col = row - dr, col - dc
    placed = {(r, c): t for r, c, t in play.placed()}
    main = _run(board, placed, row, col, dr, dc)
    words = [main] if len(main[3]) > 1 else []
    for (r, c) in placed:
        cross = _run(board, placed, *_run_start(board, r, c, dc, dr), dc, dr)
        if len(cross[3]) > 1:
            words.append(cross)
    return words


def _run_start(board: Board, row: int, col: int, dr: int, dc: int) -> tuple[int, int]:
    while board.occupied(row - dr, col - dc):
        row, col = row - dr, col - dc
    return row, col


def _run(board: Board, placed: dict[tuple[int, int], int], row: int, col: int, dr: int, dc: int) -> Word:
    """The contiguous run of old and new tiles from (row, col) onwards."""
    tiles: list[int] = []
    new = 0
    r, c = row, col
    while board.inside(r, c):
        if (r, c) in placed:
            new |= 1 << len(tiles)
            tiles.append(placed[(r, c)])
        elif board.get(r, c) != EMPTY:
            tiles.append(board.get(r, c))
        else:
            break
        r, c = r + dr, c + dc
    return (row, col, dr == 1, tuple(tiles), new)


def word_score(board: Board, word: Word) -> int:
    row, col, down, tiles, new = word
    dr, dc = (1, 0) if down else (0, 1)
    total = 0
    multiplier = 1
    for i, tile in enumerate(tiles):
        points = tile_points(board.tiles, tile)
        if new >> i & 1:
            lm, wm = board.multipliers(row + dr * i, col + dc * i)
            points *= lm
            multiplier *= wm
        total += points
    return total * multiplier


def score_play(board: Board, play: Placement) -> int:
    """Points for a resolved play (call `check_play` first for legality)."""
    score = sum(word_score(board, w) for w in words_formed(board, play))
    if play.tile_count == RACK_SIZE:
        score += board.layout.bingo_bonus
    return score


def word_text(board: Board, word: Word) -> str:
    parts = [tile_text(board.tiles, t) for t in word[3]]
    return board.tiles.spell(parts) if board.tiles.multi else "".join(parts)


def check_play(board: Board, written: Placement, rack: str | None = None,
               lexicon: WordList | None = None) -> ScoredPlay:
    """Resolve a play against the board and check every rule; returns the
    resolved play with its score. Raises IllegalPlay with the reason."""
    try:
        play = written.resolve(board)
    except LexitrainError as exc:
        raise IllegalPlay(str(exc)) from None
    squares = play.squares()
    if play.tile_count == 0:
        raise IllegalPlay(f"{play.format(board.tiles)} places no tiles")
    dr, dc = (1, 0) if play.down else (0, 1)
    (r0, c0), (r1, c1) = squares[0], squares[-1]
    for r, c in ((r0 - dr, c0 - dc), (r1 + dr, c1 + dc)):
        if board.occupied(r, c):
            raise IllegalPlay(
                f"the word continues into the tile {board.text_at(r, c)} at {format_position(r, c, False)}; "
                "write the whole word"
            )
    if rack is not None:
        _check_rack(board, play, rack)
    if board.is_empty():
        if board.layout.center not in squares:
            centre = format_position(*board.layout.center, False)
            raise IllegalPlay(f"the first play must cover the centre square {centre}")
        if play.tile_count < 2:
            raise IllegalPlay("the first play must place at least two tiles")
    elif not play.through and not any(
        board.occupied(r + ar, c + ac) for r, c, _ in play.placed() for ar, ac in ((1, 0), (-1, 0), (0, 1), (0, -1))
    ):
        raise IllegalPlay(f"{play.format(board.tiles)} does not touch any tile on the board")
    if lexicon is not None:
        bad = invalid_words(board, play, lexicon)
        if bad:
            listed = ", ".join(bad)
            raise IllegalPlay(f"{listed} {'is' if len(bad) == 1 else 'are'} not in the lexicon {lexicon.name}")
    return play.with_score(score_play(board, play))


def invalid_words(board: Board, play: Placement, lexicon: WordList) -> list[str]:
    """Words a resolved play forms that the lexicon does not have (uppercase)."""
    bad = []
    codes = board.tiles.codes
    for word in words_formed(board, play):
        if not lexicon.has_code("".join(codes[letter_of(t)] for t in word[3])):
            bad.append(word_text(board, word).upper())
    return bad


def _check_rack(board: Board, play: Play, rack: str) -> None:
    try:
        have = Rack.parse(board.tiles, rack)
    except LexitrainError as exc:
        raise IllegalPlay(str(exc)) from None
    missing = have.lacking(_tile_names(board, (t for _, _, t in play.placed())))
    if missing:
        raise IllegalPlay(missing.said(rack))


def _tile_names(board: Board, tiles: Iterable[int]) -> list[str]:
    """Placed tiles as a rack names them: the letter, or `?` for a blank."""
    letters = board.tiles.letters
    return [BLANK if is_blank(t) else letters[letter_of(t)] for t in tiles]


def same_play(board: Board, a: Placement, b: Placement) -> bool:
    """Do two resolved plays put the same tiles on the same squares? On an
    empty board the mirror image counts too (8D QUITE and H4 QUITE) when the
    premiums are symmetric: the move generator lists only the across one, a
    player may write either."""
    placed_a, placed_b = set(a.placed()), set(b.placed())
    if placed_a == placed_b:
        return True
    return board.layout.symmetric and board.is_empty() and placed_a == {(c, r, t) for r, c, t in placed_b}


def listed_play(board: Board, play: ScoredPlay, plays: Iterable[ScoredPlay]) -> ScoredPlay | None:
    """The entry of a list of plays (the move generator's) that is the same
    play as `play` (see `same_play`), or None. The same play scores the same,
    so only plays of its score are compared."""
    return next((p for p in plays if p.score == play.score and same_play(board, p, play)), None)


def apply_play(board: Board, play: Placement) -> None:
    """Put a resolved play's new tiles on the board."""
    for r, c, tile in play.placed():
        board.set(r, c, tile)


