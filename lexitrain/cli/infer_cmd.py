"""`lexitrain infer`: the leaves the opponent may have kept after their last move (engine/inference.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import typer

from lexitrain.cli.engine_input import cgp_lexicon, read_position
from lexitrain.cli.options import Json, Lexicon, lexicon_given
from lexitrain.cli.output import emit_json
from lexitrain.errors import LexitrainError

if TYPE_CHECKING:
    from lexitrain.engine.cgp import Position
    from lexitrain.engine.inference import Inference
    from lexitrain.tiles import Rack, TileSet

#: infer (`lexitrain.cli.app` adds it to the root).
commands = typer.Typer()

#: leaves the terminal lists without --top
SHOWN = 20


@commands.command("infer")
def infer(
    *,
    ctx: typer.Context,
    cgp: str = typer.Option(..., "--cgp", help="The position before the opponent's move, as a CGP line with the "
                            "rack field empty (the opponent's rack is what is inferred)."),
    last_play: str = typer.Option(..., "--last-play", help="The opponent's move: a play in GCG notation as `gcg show` "
                                  "prints it (8D QUITE, H8 QUIT.) or `exchange N`."),
    rack: Optional[str] = typer.Option(None, "--rack", help="Your own tiles (not in the opponent's rack); also "
                                       "read from the CGP's second rack."),
    top: Optional[int] = typer.Option(None, "--top", help=f"List only the N likeliest leaves; the rest are counted "
                                      f"with their probability together (`left_out` in --json). Without it the "
                                      f"terminal lists {SHOWN}, --json every leave, which sum to 1."),
    samples: Optional[int] = typer.Option(None, "--samples", help="Leaves weighed when there are too many to weigh "
                                          "every one (default 4000)."),
    seed: int = typer.Option(1, "--seed", help="Seed of those draws: the same seed gives the same answer."),
    lexicon: Lexicon,
    json_out: Json = False,
) -> None:
    """How likely each leave is that the opponent kept after their last move, given the board and your rack."""
    from lexitrain.engine.cgp import check_tile_counts
    from lexitrain.engine.dawg import dawg_for
    from lexitrain.engine.inference import (EXHAUSTIVE, SAMPLES, LastMove, infer as read_rack, load_inference_model,
                                            tile_chances)
    from lexitrain.engine.leave_table import load_leaves
    from lexitrain.engine.movegen import MoveGenerator

    if top is not None and top < 1:
        raise LexitrainError("--top must be at least 1")
    if samples is not None and samples < 1:
        raise LexitrainError("--samples must be at least 1")
    lex, position = read_position(cgp, cgp_lexicon(cgp, lexicon, lexicon_given(ctx)))
    tiles = lex.tiles
    mine = _own_rack(position, tiles, rack)
    position.racks = ["", tiles.spell(mine.names())]
    check_tile_counts(position)
    move = LastMove.parse(last_play, position.board)
    leaves = load_leaves(tiles)
    result = read_rack(position.board, move, mine, MoveGenerator(dawg_for(lex)), leaves, load_inference_model(tiles),
                       exhaustive=EXHAUSTIVE if samples is None else min(EXHAUSTIVE, samples),
                       samples=SAMPLES if samples is None else samples, seed=seed)
    if json_out:
        data = result.to_json(top)
        data["tiles"] = tile_chances(result)
        emit_json(data)
        return
    _print_leaves(result, top or SHOWN)


def _own_rack(position: Position, tiles: TileSet, rack: str | None) -> Rack:
    """The asker's own tiles, from --rack or the CGP's second rack (the first is the opponent's, left empty
    for infer to work out); the two given and different is refused rather than one silently preferred."""
    from lexitrain.tiles import Rack

    if position.rack:
        raise LexitrainError("the CGP's rack field is the opponent's rack, which infer works out: leave it empty "
                             "(put your own tiles in --rack)")
    written = position.racks[1] if len(position.racks) > 1 else ""
    if rack is not None and written and Rack.parse(tiles, rack).counts != Rack.parse(tiles, written).counts:
        raise LexitrainError(f"--rack {rack.upper()} and the CGP's second rack {written} differ: give one of them")
    return Rack.parse(tiles, rack if rack is not None else written, "--rack", in_play=True)


def _print_leaves(result: Inference, shown_at_most: int) -> None:
    """The likeliest leaves with their probabilities, the tiles held more or less often than a random draw
    would, and how the answer was reached (every leave weighed, or a sample)."""
    from lexitrain.engine.inference import tile_chances

    shown = result.leaves[:shown_at_most]
    typer.echo(f"{'probability':>11}  leave")
    for leave, p in shown:
        typer.echo(f"{100 * p:>10.2f}%  {result.spell(leave) or '-'}")
    more = len(result.leaves) - len(shown)
    if more > 0:
        typer.echo(f"{'':>11}  ... {more} more leaves, {100 * sum(p for _, p in result.leaves[len(shown):]):.1f}% "
                   "together")
    held = [c for c in tile_chances(result) if abs(c["probability"] - c["random"]) >= 0.02]
    if held:
        typer.echo("holds at least one, against a random draw: " + ", ".join(
            f"{c['tile']} {100 * c['probability']:.0f}% ({100 * c['random']:.0f}%)" for c in held))
    typer.echo(f"{result.method}; {result.positions} racks weighed"
               + ("" if result.exhaustive else f" (not every leave: those weighed hold about {100 * result.covered:.0f}% of the whole; "
                                               "the probabilities above are among them)"))
