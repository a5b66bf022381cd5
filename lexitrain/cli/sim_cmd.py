"""`lexitrain sim`: Monte Carlo simulation of a position's best candidates (engine/simulation.py)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Optional

import typer

from lexitrain.cli.engine_input import cgp_lexicon, game_lexicon, read_position
from lexitrain.cli.options import Json, Lexicon, lexicon_given
from lexitrain.cli.output import emit_json
from lexitrain.children import usable_cores
from lexitrain.errors import LexitrainError

#: sim (`lexitrain.cli.app` adds it to the root).
commands = typer.Typer()


def sim_position(ctx: typer.Context, cgp: str | None, gcg: Path | None, turn: int | None, lexicon: str,
                 lexicon_given: bool, rack: str | None = None, infer: bool = False, last_play: str | None = None
                 ) -> tuple[Any, Any, Any, list[int], Any, Any]:
    """(lexicon, board, rack, scores, opponent rack or None, the opponent's inferred leaves or None) from
    --cgp, or from --gcg and --turn."""
    from lexitrain.tiles import Rack

    if (cgp is None) == (gcg is None):
        raise LexitrainError("give the position as --cgp CGP or as --gcg FILE --turn N (one of them)")
    if cgp is not None:
        if turn is not None:
            raise LexitrainError("--turn goes with --gcg, not with --cgp")
        lex, position = read_position(cgp, cgp_lexicon(cgp, lexicon, lexicon_given), rack)
        held = Rack.parse(lex.tiles, position.rack, in_play=True)
        opponent = position.racks[1] if len(position.racks) > 1 and position.racks[1] else ""
        if infer and opponent:
            raise LexitrainError("--infer reads the opponent's rack, which the CGP gives: leave it out of the CGP")
        if last_play is not None and not infer:
            raise LexitrainError("--last-play goes with --infer")
        return (lex, position.board, held, list(position.scores),
                Rack.parse(lex.tiles, opponent, in_play=True) if opponent else None,
                inferred_rack(lex, position.board, held, last_play) if infer else None)
    from lexitrain.engine.gcg import read_gcg
    from lexitrain.engine.replay import replay
    from lexitrain.lexicon.catalog import open_lexicon

    assert gcg is not None
    if last_play is not None:
        raise LexitrainError("--last-play goes with --cgp (with --gcg the game says what the last move was)")
    if turn is None:
        raise LexitrainError("--gcg needs --turn N (the position before that turn)")
    game = read_gcg(gcg)
    lex = open_lexicon(lexicon if lexicon_given else game_lexicon(game, None, gcg)[0])
    turns = replay(game, lex.tiles)
    if not 1 <= turn <= len(turns):
        raise LexitrainError(f"--turn: {gcg} has turns 1 to {len(turns)}")
    t = turns[turn - 1]
    text = (rack or t.rack).upper()
    if not text:
        raise LexitrainError(f"{gcg}: turn {turn} has no recorded rack (give one with --rack)")
    held = Rack.parse(lex.tiles, text, in_play=True)
    inferred = inferred_rack(lex, t.board, held, None, previous_move(game, turns, turn)) if infer else None
    return lex, t.board, held, list(t.scores), None, inferred


INFER_HELP = ("Draw the opponent's rack from what their last move says of it (`lexitrain infer`): with --gcg, the "
              "turn before --turn; with --cgp, --last-play.")
LAST_PLAY_HELP = ("With --infer and --cgp: the opponent's last move, as made on this board: a play in GCG notation "
                  "with the tiles it played through as . or in brackets (8D QUIT., 8D QUI(T)), or `exchange N`.")


def inferred_rack(lex: Any, board: Any, held: Any, last_play: str | None, before: Any = None) -> Any:
    """The opponent's leaves as the simulation draws them, read from their last move: `last_play` written on
    `board` (the position now), or `before`, (board before it, the move) from a game."""
    from lexitrain.engine.dawg import dawg_for
    from lexitrain.engine.inference import infer, load_inference_model, read_last_move
    from lexitrain.engine.leave_table import load_leaves
    from lexitrain.engine.movegen import MoveGenerator

    if before is None:
        if last_play is None:
            raise LexitrainError("--infer with --cgp needs --last-play MOVE (the opponent's last move)")
        before = read_last_move(board, last_play)
    reading = infer(before[0], before[1], held, MoveGenerator(dawg_for(lex)), load_leaves(lex.tiles),
                    load_inference_model(lex.tiles))
    return reading.inferred()


def previous_move(game: Any, turns: list[Any], turn: int) -> tuple[Any, Any]:
    """The board before the turn before `turn` of a replayed game, and that move, when it is the opponent's
    tile play (not taken back) or an exchange; a one-line error when there is none to read."""
    from lexitrain.engine.inference import LastMove

    now = turns[turn - 1]
    last = turns[turn - 2] if turn >= 2 else None
    if last is None or last.player == now.player:
        raise LexitrainError(f"--infer: turn {turn} does not follow an opponent's move")
    if last.kind == "play" and last.play is not None and not last.withdrawn:
        return last.board, LastMove(play=last.play)
    given = next((e.tiles for e in game.events if e.line == last.event_line), "")
    if last.kind == "exchange" and given:
        count = int(given) if given.isdigit() else len(given)
        return last.board, LastMove(exchanged=count)
    raise LexitrainError(f"--infer: turn {turn - 1} is not a tile play or an exchange, which is all it reads")


def run_simulation(setup: Any, iterations: int, seed: int | None, threads: int, stop: int | None) -> Any:
    """The simulation, with a progress bar on stderr when it is a terminal."""
    from lexitrain.engine.simulation import simulate

    if threads < 1:
        raise LexitrainError("--threads must be at least 1")
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "big")
    from lexitrain.cli.progress_bar import progress_bar

    with progress_bar("simulation") as progress:
        return simulate(setup, iterations, seed, threads=threads, stop=stop, progress=progress)


def pruned_early(report: Any) -> int:
    """How many candidates --stop cut short of the iterations run (a table then shows each one's own count)."""
    return sum(1 for r in report.rows if r.iterations < report.iterations)


@commands.command("sim")
def sim(
    *,
    ctx: typer.Context,
    cgp: Optional[str] = typer.Option(None, "--cgp", help="The position as a CGP line (the rack to move from it; "
                                      "an opponent's rack, when given, is held fixed)."),
    gcg: Optional[Path] = typer.Option(None, "--gcg", help="A GCG file: simulate the position before --turn."),
    turn: Optional[int] = typer.Option(None, "--turn", help="With --gcg: the turn (1 = the first)."),
    rack: Optional[str] = typer.Option(None, "--rack", help="Use this rack instead of the position's."),
    candidates: int = typer.Option(15, "--candidates", help="How many moves to simulate (the top by equity)."),
    plies: int = typer.Option(2, "--plies", help="Moves played out after each candidate."),
    iterations: int = typer.Option(500, "--iterations", help="Playouts of each candidate (at most, with --stop)."),
    stop: Optional[int] = typer.Option(None, "--stop", help="Prune the candidates the leader is ahead of at "
                                       "this confidence, 95, 98 or 99 (%), as it goes; stop when the leader alone "
                                       "is left."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Seed of the random draws: the same seed gives the "
                                       "same result, whatever --threads."),
    threads: int = typer.Option(usable_cores(), "--threads", help="Threads to play out on (default: every "
                                "core).", show_default=False),
    infer: bool = typer.Option(False, "--infer", help=INFER_HELP),
    last_play: Optional[str] = typer.Option(None, "--last-play", help=LAST_PLAY_HELP),
    lexicon: Lexicon,
    json_out: Json = False,
) -> None:
    """Simulate the best candidates: each played out over random draws, ranked by win chance, then equity (by
    equity where the win chances are all too near 100% or 0% to tell the moves apart)."""
    from lexitrain.engine.dawg import dawg_for
    from lexitrain.engine.leave_table import load_leaves
    from lexitrain.engine.movegen import MoveGenerator
    from lexitrain.engine.simulation import position_setup

    lex, board, held, scores, opponent, inferred = sim_position(ctx, cgp, gcg, turn, lexicon, lexicon_given(ctx),
                                                                rack, infer, last_play)
    setup = position_setup(lex.name, board, held, scores, MoveGenerator(dawg_for(lex)), load_leaves(lex.tiles),
                           opponent=opponent, candidates=candidates, plies=plies, inferred=inferred)
    report = run_simulation(setup, iterations, seed, threads, stop)
    tiles = board.tiles
    data = report.to_json(tiles, held)
    if inferred is not None:
        data["inferred"] = True
    if stop is not None:  # why it ended: "confidence 95" (the leader alone left), "iterations" (all run)
        data["stopped"] = report.stopped
    if json_out:
        emit_json(data)
        return
    pruned = pruned_early(report)
    iters = f" {'iters':>5}" if pruned else ""  # each row's own count where some were pruned early
    typer.echo(f"{'win %':>6} {'equity':>7} {'spread':>7} {'score':>5}{iters}  {'move':<22} leave")
    for row, c in zip(data["candidates"], report.rows):
        move = c.candidate.format(tiles) if c.candidate.play is not None else (
            f"exchange {c.candidate.tiles_text(tiles)}" if c.candidate.exchanged is not None else "pass")
        iters = f" {c.iterations:>5}" if pruned else ""
        typer.echo(f"{100 * row['win']:>6.1f} {row['equity']:>7.2f} {row['spread']:>7.2f} {row['score']:>5}"
                   f"{iters}  {move:<22} {row['leave'] or '-'}")
    how = "stopped at " + report.stopped if report.stopped.startswith("confidence") else "all run"
    drawn = "; the opponent's rack drawn from their last move's inference" if inferred is not None else ""
    if pruned:
        how += f"; {pruned} pruned early, each after the iterations shown"
    typer.echo(f"{report.iterations} iterations of {len(report.rows)} candidates, {report.plies} plies "
               f"({how}), {report.seconds:.1f} s{drawn}")
    if data["by_equity"]:  # so the order is not read as by win: the rule the simulation ranked by, said
        typer.echo("ranked by equity: the win chances are all too near 100% or 0% to tell the moves apart")
