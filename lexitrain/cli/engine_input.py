"""What the engine commands (`best`, `score`, `gcg`, `sim`) read: a CGP position for a lexicon, the lexicon
a CGP or a game names."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from lexitrain.cli.options import default_lexicon, file_lexicon
from lexitrain.errors import LexitrainError

if TYPE_CHECKING:
    from lexitrain.engine.cgp import Position
    from lexitrain.engine.gcg import Game
    from lexitrain.lexicon.lexicon import Lexicon


def cgp_lexicon(cgp: str, lexicon_name: str, given: bool) -> str:
    """The lexicon to solve a CGP with: `--lexicon` when typed, else the CGP's
    `lex NAME;` op (a one-line error when NAME is not compiled), else the player's."""
    from lexitrain.engine.cgp import parse_cgp_ops

    return file_lexicon(parse_cgp_ops(cgp).get("lex"), lexicon_name, given, "the CGP", refuse=True)[0]


def read_position(cgp: str, lexicon_name: str, rack: str | None = None) -> tuple[Lexicon, Position]:
    """The CGP read for the lexicon's tiles; `rack` replaces the rack to move.
    Refuses more of a tile than the set has (board and racks together)."""
    from lexitrain.engine.cgp import check_tile_counts, parse_cgp
    from lexitrain.lexicon.catalog import open_lexicon

    lexicon = open_lexicon(lexicon_name)
    position = parse_cgp(cgp, lexicon.tiles, lexicon.layout)
    if position.board.tiles.letters != lexicon.tiles.letters:
        raise LexitrainError(
            f"the CGP uses the {position.board.tiles.name} tiles but lexicon {lexicon_name} uses {lexicon.tiles.name}")
    if rack is not None:
        position.racks = [rack.upper(), *position.racks[1:]]
    check_tile_counts(position)
    return lexicon, position


def game_lexicon(game: Game, lexicon: str | None, where: Path) -> tuple[str, str]:
    """The lexicon to check a game's words against: --lexicon, else the file's
    #lexicon when compiled, else the player's; and a note saying so when the
    file names one that is not compiled (empty otherwise)."""
    return file_lexicon(game.lexicon, lexicon or default_lexicon(), lexicon is not None, str(where), refuse=False)
