"""`lexitrain best`, `score` and `gcg ...`: solve positions, score plays, check games."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, TypeVar

import typer

from lexitrain.children import usable_cores
from lexitrain.cli.engine_input import cgp_lexicon, game_lexicon, read_position
from lexitrain.cli.options import Json, Lexicon, lexicon_given
from lexitrain.cli.output import counted, emit_json, stdout_console, warn
from lexitrain.cli.root import click_exceptions
from lexitrain.cli.sim_cmd import INFER_HELP, LAST_PLAY_HELP, inferred_rack, pruned_early, run_simulation
from lexitrain.errors import LexitrainError

if TYPE_CHECKING:
    from lexitrain.engine.analysis import GameReport, SimOptions, TurnReport
    from lexitrain.engine.board import Board
    from lexitrain.engine.cgp import Position
    from lexitrain.engine.equity import Candidate
    from lexitrain.engine.gcg import Game
    from lexitrain.engine.simulation import Inferred
    from lexitrain.engine.play import ScoredPlay
    from lexitrain.engine.preendgame import PlayOutcome, PreEndgame
    from lexitrain.engine.replay import Turn
    from lexitrain.lexicon.lexicon import Lexicon as LexiconData
    from lexitrain.tiles import Rack, TileSet

BOTH_LEXICON_OPTIONS = "--no-lexicon and --lexicon say opposite things: give one of them"

#: best and score (`lexitrain.cli.app` adds them to the root).
commands = typer.Typer()
gcg_app = typer.Typer(name="gcg", help="Read recorded games (GCG): verify scores, show the board.", no_args_is_help=True)


def _play_json(play: ScoredPlay, tiles: TileSet) -> dict[str, Any]:
    return {"position": play.position, "word": play.word(tiles), "score": play.score, "tiles": play.tiles_text(tiles)}


def _candidate_json(candidate: Candidate, tiles: TileSet, rack: Rack) -> dict[str, Any]:
    """A `best` row with its equity and leave (the tiles kept); an exchange is position `-` with the tiles put back."""
    return {"position": candidate.position, "word": candidate.word(tiles), "score": candidate.score,
            "tiles": candidate.tiles_text(tiles), "equity": candidate.equity,
            "leave": tiles.spell(candidate.leave(rack).names())}


#: Plays `best` lists without --top or --all.
DEFAULT_TOP = 10
#: the pre-endgame's candidates listed by default: as many as `sim` simulates (every play of a rack is tried)
PREENDGAME_TOP = 15
#: What `best --by` ranks by.
ORDERS = ("score", "equity", "sim", "win")
#: What a listing of `best` lists: plays or ranked candidates.
Listed = TypeVar("Listed")


def _ranked(position: Position, tiles: TileSet, rack: Rack, plays: list[ScoredPlay], by: str, exchanges: bool
            ) -> list[Candidate]:
    """The plays as equity candidates (with exchanges and a pass if asked), in `by` order:
    by equity, or by score as the generator lists plays, then the rest by equity."""
    from lexitrain.engine.equity import PLAY, candidates, equity_order
    from lexitrain.engine.exchanges import tiles_in_bag
    from lexitrain.engine.leave_table import load_leaves

    found = candidates(load_leaves(tiles), rack, plays, tiles_in_bag(position.board, position.racks),
                       exchanges=exchanges)
    if by == "equity":
        return sorted(found, key=equity_order)
    return [c for c in found if c.kind == PLAY] + sorted((c for c in found if c.kind != PLAY), key=equity_order)


@commands.command("best")
def best(
    *,
    ctx: typer.Context,
    cgp: str = typer.Option(..., "--cgp", help="The position as a CGP line (the rack to move comes from it)."),
    top: Optional[int] = typer.Option(None, "--top", help=f"How many plays to list (default {DEFAULT_TOP})."),
    all_: bool = typer.Option(False, "--all", help="List every legal play (not with --top)."),
    rack: Optional[str] = typer.Option(None, "--rack", help="Use this rack instead of the CGP's."),
    by: str = typer.Option("score", "--by", help="Rank by score, by equity (score + the value of the tiles kept), "
                           "or by simulation: its equity (sim) or its win chance (win)."),
    exchanges: bool = typer.Option(False, "--exchanges", help="Also list every exchange the bag allows and a pass."),
    iterations: int = typer.Option(300, "--iterations", help="With --by sim or win: playouts of each candidate (at "
                                   "most, with --stop)."),
    stop: Optional[int] = typer.Option(None, "--stop", help="With --by win: prune the candidates the leader is ahead "
                                       "of at this confidence, 95, 98 or 99 (%), and stop when it alone is left."),
    seed: Optional[int] = typer.Option(None, "--seed", help="With --by sim or win: the seed of the random draws."),
    threads: Optional[int] = typer.Option(None, "--threads", help="With --by sim or win: threads to play out on "
                                          "(default: every core)."),
    infer: bool = typer.Option(False, "--infer", help="With --by sim or win: " + INFER_HELP.replace(
        "with --gcg, the turn before --turn; with --cgp, --last-play", "--last-play")),
    last_play: Optional[str] = typer.Option(None, "--last-play", help=LAST_PLAY_HELP.replace(" and --cgp", "")),
    lexicon: Lexicon,
    json_out: Json = False,
) -> None:
    """The top-scoring plays for a position, best first (or by equity)."""
    from lexitrain.engine.dawg import dawg_for
    from lexitrain.engine.movegen import MoveGenerator
    from lexitrain.tiles import Rack

    _check_listing(ctx, top, all_, by)
    lex, position = read_position(cgp, cgp_lexicon(cgp, lexicon, lexicon_given(ctx)), rack)
    rack = position.rack.upper()
    if not rack:
        raise LexitrainError("the CGP has no rack for the player to move (give one with --rack)")
    held = Rack.parse(lex.tiles, rack, in_play=True)
    limit = None if all_ else DEFAULT_TOP if top is None else top
    _check_simulation_options(by, infer, last_play, threads, stop)
    if by in ("sim", "win"):
        inferred = inferred_rack(lex, position.board, held, last_play) if infer else None
        _best_by_simulation(position, lex, held, by, limit, iterations, seed, json_out, inferred,
                            usable_cores() if threads is None else threads, stop)
        return
    plays = MoveGenerator(dawg_for(lex)).plays(position.board, held)
    tiles = position.board.tiles
    if by == "score" and not exchanges:
        _print_plays(plays[:limit], tiles, rack, json_out)
        return
    _print_ranked(_ranked(position, tiles, held, plays, by, exchanges)[:limit], tiles, held, rack, json_out)


def _check_listing(ctx: typer.Context, top: int | None, all_: bool, by: str) -> None:
    """`best`'s --top, --all and --by, refused before the position is read."""
    if top is not None and all_:  # silently preferring one would hide a typo in a script
        raise click_exceptions().UsageError("give --top N or --all, not both", ctx)
    if top is not None and top < 1:
        raise LexitrainError("--top must be at least 1")
    if by not in ORDERS:
        raise LexitrainError(f"--by {by!r}: rank by {' or '.join(ORDERS)}")


def _check_simulation_options(by: str, infer: bool, last_play: str | None, threads: int | None,
                              stop: int | None) -> None:
    """The options only a simulation reads are refused with any other --by, so none is silently ignored."""
    if (infer or last_play is not None) and by not in ("sim", "win"):
        raise LexitrainError("--infer and --last-play go with --by sim or --by win")
    if threads is not None and by not in ("sim", "win"):
        raise LexitrainError("--threads goes with --by sim or --by win")
    if stop is not None and by != "win":  # it prunes by win chance: an equity order would rank what it cut short
        raise LexitrainError("--stop goes with --by win (the simulation prunes by win chance)")
    if last_play is not None and not infer:
        raise LexitrainError("--last-play goes with --infer")


def _print_plays(plays: list[ScoredPlay], tiles: TileSet, rack: str, json_out: bool) -> None:
    """`best --by score`: the plays as the generator ranks them, score first."""
    _print_listing(plays, lambda p: _play_json(p, tiles), f"{'Score':>5}  {'Pos':<4} {'Tiles':<16} Word",
                   lambda p: f"{p.score:>5}  {p.position:<4} {p.tiles_text(tiles):<16} {p.word(tiles)}",
                   rack, json_out)


def _print_ranked(ranked: list[Candidate], tiles: TileSet, held: Rack, rack: str, json_out: bool) -> None:
    """`best --by equity` (or with --exchanges): each candidate with its equity and the tiles it keeps."""

    def line(c: Candidate) -> str:
        word = c.word(tiles) or ("(exchange)" if c.exchanged is not None else "(pass)")
        return (f"{c.equity:>7.2f} {c.score:>5}  {c.position:<4} {c.tiles_text(tiles):<16} {word:<16} "
                f"{tiles.spell(c.leave(held).names()) or '-'}")

    _print_listing(ranked, lambda c: _candidate_json(c, tiles, held),
                   f"{'Equity':>7} {'Score':>5}  {'Pos':<4} {'Tiles':<16} {'Word':<16} Leave", line, rack, json_out)


def _print_listing(items: Sequence[Listed], as_json: Callable[[Listed], dict[str, Any]], header: str,
                   as_line: Callable[[Listed], str], rack: str, json_out: bool) -> None:
    """`best`'s listing: each item as JSON, or as a line of text under HEADER (no play: one line saying so)."""
    if json_out:
        emit_json([as_json(item) for item in items])
    elif not items:
        typer.echo(f"no legal play with {rack}")
    else:
        typer.echo(header)
        for item in items:
            typer.echo(as_line(item))


def _best_by_simulation(position: Position, lex: LexiconData, held: Rack, by: str, limit: int | None, iterations: int,
                        seed: int | None, json_out: bool, inferred: Inferred | None, threads: int,
                        stop: int | None) -> None:
    """`best --by sim|win`: the simulation's candidates (at least 15, or as many as listed) by its equity or win chance."""
    from lexitrain.engine.dawg import dawg_for
    from lexitrain.engine.leave_table import load_leaves
    from lexitrain.engine.movegen import MoveGenerator
    from lexitrain.engine.simulation import DEFAULT_CANDIDATES, position_setup
    from lexitrain.tiles import Rack

    tiles = position.board.tiles
    opponent = position.racks[1] if len(position.racks) > 1 and position.racks[1] else ""
    if opponent and inferred is not None:
        raise LexitrainError("--infer reads the opponent's rack, which the CGP gives: leave it out of the CGP")
    setup = position_setup(lex.name, position.board, held, position.scores, MoveGenerator(dawg_for(lex)),
                           load_leaves(tiles), candidates=max(DEFAULT_CANDIDATES, limit or 0),
                           opponent=Rack.parse(tiles, opponent, in_play=True) if opponent else None,
                           inferred=inferred)
    report = run_simulation(setup, iterations, seed, threads, stop)
    rows = report.rows if by == "win" else sorted(report.rows, key=lambda r: (-r.equity, r.index))
    out = []
    for r in rows[:limit]:
        row = _candidate_json(r.candidate, tiles, held)
        row.update(equity=round(r.equity, 2), win=round(r.win, 4), spread=round(r.spread, 2), iterations=r.iterations)
        out.append(row)
    if json_out:
        emit_json(out)
        return
    pruned = pruned_early(report)
    iters = f" {'Iters':>5}" if pruned else ""  # each row's own count where --stop pruned some early
    typer.echo(f"{'Win':>6} {'Equity':>7} {'Score':>5}{iters}  {'Pos':<4} {'Tiles':<16} {'Word':<16} Leave")
    for row, r in zip(out, rows):
        word = row["word"] or ("(exchange)" if r.candidate.exchanged is not None else "(pass)")
        iters = f" {r.iterations:>5}" if pruned else ""
        typer.echo(f"{100 * row['win']:>5.1f}% {row['equity']:>7.2f} {row['score']:>5}{iters}  {row['position']:<4} "
                   f"{row['tiles']:<16} {word:<16} {row['leave'] or '-'}")


@commands.command("score")
def score(
    *,
    ctx: typer.Context,
    play: list[str] = typer.Argument(..., help="The play in GCG notation, e.g. 8D QUITE or H8 QUIT."),
    cgp: str = typer.Option(..., "--cgp", help="The position as a CGP line."),
    lexicon: Lexicon,
    no_lexicon: bool = typer.Option(False, "--no-lexicon", help="Score without checking words."),
    json_out: Json = False,
) -> None:
    """Score one play and say whether it is legal (exit 1 with the reason if not)."""
    from lexitrain.engine.dawg import dawg_for
    from lexitrain.engine.play import Play
    from lexitrain.engine.rules import IllegalPlay, check_play, score_play, word_text, words_formed

    if no_lexicon and lexicon_given(ctx):
        raise LexitrainError(BOTH_LEXICON_OPTIONS)
    lex, position = read_position(cgp, cgp_lexicon(cgp, lexicon, lexicon_given(ctx)))
    board = position.board
    tiles = board.tiles
    parsed = Play.parse(" ".join(play), tiles)
    result: dict[str, Any] = {"position": parsed.position, "word": parsed.word(tiles), "score": None,
              "tiles": parsed.tiles_text(tiles), "legal": False, "reason": None, "words": []}
    try:
        resolved = check_play(board, parsed, position.rack or None, None if no_lexicon else dawg_for(lex))
    except IllegalPlay as exc:
        result["reason"] = str(exc)
        try:
            unchecked = parsed.resolve(board)
            result.update(word=unchecked.word(tiles), tiles=unchecked.tiles_text(tiles))
            result["score"] = score_play(board, unchecked) if unchecked.tile_count else None
            result["words"] = [word_text(board, w) for w in words_formed(board, unchecked)]
        except LexitrainError:
            pass  # the reason above already says what is wrong
    else:
        result.update(_play_json(resolved, tiles), legal=True,
                      words=[word_text(board, w) for w in words_formed(board, resolved)])
    if json_out:
        emit_json(result)
    elif result["legal"]:
        typer.echo(f"{result['position']} {result['tiles']} scores {result['score']} ({', '.join(result['words'])})")
    else:
        typer.echo(f"illegal: {result['reason']}", err=True)
    if not result["legal"]:
        raise typer.Exit(1)


def _endgame_racks(position: Position, tiles: TileSet) -> tuple[Rack, Rack]:
    """The two racks of a position with the bag empty: the CGP's, the
    opponent's read as the unseen tiles when the CGP leaves it out. Says how
    many tiles are in the bag when there are any (the endgame needs none)."""
    from lexitrain.engine.exchanges import unseen_tiles
    from lexitrain.tiles import RACK_SIZE, Rack

    mine = Rack.parse(tiles, position.rack, "the rack to move", required=True, in_play=True)
    unseen = unseen_tiles(position.board, mine)
    given = position.racks[1] if len(position.racks) > 1 else ""
    if given:
        theirs = Rack.parse(tiles, given, "the opponent's rack", in_play=True)
        in_bag = unseen.size - theirs.size
    else:
        theirs, in_bag = unseen, max(0, unseen.size - RACK_SIZE)
    if in_bag == 1:
        raise LexitrainError("1 tile is in the bag: that is a pre-endgame (`lexitrain preendgame --cgp ...`)")
    if in_bag:
        raise LexitrainError(f"{in_bag} tiles are in the bag: the endgame needs the bag empty")
    return mine, theirs


@commands.command("endgame")
def endgame(
    *,
    ctx: typer.Context,
    cgp: str = typer.Option(..., "--cgp", help="The position as a CGP line: bag empty, the side to move's rack "
                            "first, then the opponent's (left out: the unseen tiles)."),
    seconds: Optional[float] = typer.Option(None, "--time", help="Stop after this many seconds with the best line "
                                            "found so far (marked not exact)."),
    threads: int = typer.Option(usable_cores(), "--threads", help="Threads to search on, sharing the work "
                                "(default: every core; the same exact value).", show_default=False),
    lexicon: Lexicon,
    json_out: Json = False,
) -> None:
    """Solve an endgame exactly: the line that maximises the final spread."""
    from lexitrain.engine.dawg import dawg_for
    from lexitrain.engine.endgame import Endgame, describe, solve
    from lexitrain.engine.movegen import MoveGenerator

    if seconds is not None and seconds <= 0:
        raise LexitrainError("--time must be more than 0 seconds")
    if threads < 1:
        raise LexitrainError("--threads must be at least 1")
    lex, position = read_position(cgp, cgp_lexicon(cgp, lexicon, lexicon_given(ctx)))
    tiles = position.board.tiles
    racks = _endgame_racks(position, tiles)
    problem = Endgame(position.board, racks, position.zero_turns)
    solution = solve(problem, MoveGenerator(dawg_for(lex)), seconds, threads=threads)
    spread = position.scores[0] - position.scores[1] if len(position.scores) > 1 else 0
    line = [describe(move, position.board) for move in solution.sequence]
    if json_out:
        emit_json({"play": line[0] if line else None, "sequence": line, "value": solution.value,
                   "exact": solution.exact, "spread": spread + solution.value, "depth": solution.depth,
                   "nodes": solution.nodes, "seconds": round(solution.seconds, 3)})
        return
    proof = "exact" if solution.exact else f"NOT exact: time ran out, best line to depth {solution.depth}"
    typer.echo(f"value {solution.value:+d} for the side to move ({proof}; {solution.seconds:.2f} s, "
               f"{counted(solution.nodes, 'position')})")
    for n, move in enumerate(line):
        who = "you" if n % 2 == 0 else "opponent"
        typer.echo(f"{n + 1:>3}. {who:<9} {move['position']:<4} {move['word']:<16} {move['score']:>4}")
    typer.echo(f"final spread {spread + solution.value:+d}")


@commands.command("preendgame")
def preendgame(
    *,
    ctx: typer.Context,
    cgp: str = typer.Option(..., "--cgp", help="The position as a CGP line with one or two tiles in the bag (the "
                            "side to move's rack first; the opponent's, if given, is not used: any 7 of the unseen "
                            "tiles)."),
    seconds: Optional[float] = typer.Option(None, "--time", help="Stop after this many seconds (what is proved by "
                                            "then is kept and the best proved play listed first; the rest is each "
                                            "draw's one-ply estimate, marked)."),
    candidates: Optional[int] = typer.Option(None, "--candidates", help="Try only the N top-scoring plays (and "
                                             "the pass)."),
    top: int = typer.Option(PREENDGAME_TOP, "--top", help="How many of the best candidates to list (--json lists "
                            "them all)."),
    threads: int = typer.Option(usable_cores(), "--threads", help="Processes to search on (default: every "
                                "core); the answer is the same whatever the number.", show_default=False),
    lexicon: Lexicon,
    json_out: Json = False,
) -> None:
    """One or two tiles in the bag: each play and the pass against each way the bag may fall, with the exact
    endgame after."""
    from lexitrain.engine.dawg import dawg_for
    from lexitrain.engine.movegen import MoveGenerator
    from lexitrain.engine.preendgame import solve_preendgame

    _check_preendgame_options(seconds, candidates, top, threads)
    lex, position = read_position(cgp, cgp_lexicon(cgp, lexicon, lexicon_given(ctx)))
    tiles = position.board.tiles
    mine, unseen, in_bag = _preendgame_bag(position, tiles)
    spread = position.scores[0] - position.scores[1] if len(position.scores) > 1 else 0
    result = solve_preendgame(position.board, mine, unseen, MoveGenerator(dawg_for(lex)), seconds, spread,
                              candidates, in_bag=in_bag, zero_turns=position.zero_turns, threads=threads)
    rows = [_preendgame_row(o, tiles) for o in result.plays]
    if json_out:
        emit_json({"plays": rows, "exact": result.exact, "wins_proved": result.wins_proved,
                   "may_be_better": [_outcome_json(o, tiles, False) for o in result.may_be_better],
                   "unproved": [_outcome_json(o, tiles, False) for o in result.unproved],
                   "in_bag": in_bag, "candidates": result.candidates, "seconds": round(result.seconds, 3)})
        return
    _print_preendgame(result, rows, unseen.size, in_bag, top)


def _check_preendgame_options(seconds: float | None, candidates: int | None, top: int, threads: int) -> None:
    """`preendgame`'s numbers, refused before the position is read."""
    if seconds is not None and seconds <= 0:
        raise LexitrainError("--time must be more than 0 seconds")
    if candidates is not None and candidates < 1:
        raise LexitrainError("--candidates must be at least 1")
    if top < 1:
        raise LexitrainError("--top must be at least 1")
    if threads < 1:
        raise LexitrainError("--threads must be at least 1")


def _preendgame_bag(position: Position, tiles: TileSet) -> tuple[Rack, Rack, int]:
    """The rack to move, the unseen tiles and how many of them are in the bag (1 or 2: the
    pre-endgame's; any other count is refused, with the command that solves it where there is one)."""
    from lexitrain.engine.exchanges import unseen_tiles
    from lexitrain.tiles import RACK_SIZE, Rack

    mine = Rack.parse(tiles, position.rack, "the rack to move", required=True, in_play=True)
    unseen = unseen_tiles(position.board, mine)
    in_bag = max(0, unseen.size - RACK_SIZE)
    if in_bag not in (1, 2):
        raise LexitrainError(f"{counted(in_bag, 'tile')} in the bag: the pre-endgame is for 1 or 2"
                             + (" (with none, use `lexitrain endgame`)" if in_bag == 0 else ""))
    return mine, unseen, in_bag


def _preendgame_row(outcome: PlayOutcome, tiles: TileSet) -> dict[str, Any]:
    """A candidate's `--json` row: its wins and expected value (or their proved bounds) and each draw's outcome."""
    from lexitrain.engine.preendgame import INFINITY

    return {**_outcome_json(outcome, tiles),
            "expected": round(outcome.expected, 2), "wins": outcome.wins, "wins_at_most": outcome.wins_at_most,
            "decided": outcome.decided, "draws": outcome.unseen, "exact": outcome.exact,
            "expected_at_least": _rounded(outcome.expected_at_least),
            "expected_at_most": _rounded(outcome.expected_at_most),
            "outcomes": [{"tile": d.tile, "drawn": d.mine, "count": d.count, "value": d.value, "exact": d.exact,
                          "result": d.result, "at_least": None if d.low <= -INFINITY else d.low,
                          "at_most": None if d.high >= INFINITY else d.high}
                         for d in outcome.draws]}


def _print_preendgame(result: PreEndgame, rows: list[dict[str, Any]], unseen: int, in_bag: int, top: int) -> None:
    """The pre-endgame's table: what is proved, then the best TOP candidates, those that may still be best marked."""
    ways = f"each of the {unseen} unseen tiles" if in_bag == 1 else \
        f"each of the {rows[0]['draws'] if rows else 0} ways the 2 tiles in the bag may be drawn"
    typer.echo(f"{len(rows)} of {counted(result.candidates, 'candidate')} (the plays and the pass) against "
               f"{ways} ({_proof(result)}; {result.seconds:.2f} s)")
    rivals = {id(o) for o in result.unproved}
    if rivals and id(result.plays[0]) in rivals:  # nothing proved: the first is a guess, among the others
        typer.echo(f"not proved: any of the {counted(len(rivals), 'candidate')} may be best (marked *)")
    elif rivals:
        typer.echo(f"not proved: {counted(len(rivals), 'candidate')} may still beat the first (marked *)")
    for o, row in zip(result.plays[:top], rows):
        typer.echo(_preendgame_line(row) + (" *" if id(o) in rivals else ""))
    if len(rows) > top:
        typer.echo(f"and {counted(len(rows) - top, 'candidate')} more, not listed (--top N lists more, --json all)")


def _preendgame_line(row: dict[str, Any]) -> str:
    """A candidate's line: its wins of the draws, expected value, the play, and what of it is not exact."""
    wins = f"{row['wins']:>4g}" if row["decided"] else f"<={row['wins_at_most']:g}"
    low, high = row["expected_at_least"], row["expected_at_most"]
    bounds = "" if low is None and high is None else (
        f", proved {'' if low is None else f'{low:+.2f} <= '}value{'' if high is None else f' <= {high:+.2f}'}")
    note = "" if row["exact"] else f"  (wins proved, value not exact{bounds})" if row["decided"] \
        else f"  (partly searched: about {row['wins']:g} wins by the estimate{bounds})"  # the order's second key
    return (f"{wins:>6}/{row['draws']} wins  {row['expected']:+7.2f}  {row['position']:<4} "
            f"{row['word']:<16} {row['score']:>4}{note}")


def _outcome_json(outcome: PlayOutcome, tiles: TileSet, scored: bool = True) -> dict[str, Any]:
    """A pre-endgame candidate as the JSON names it: a play, or the pass (position `-`)."""
    play = outcome.play
    found = {"position": "-", "word": "(pass)", "score": 0} if play is None else {
        "position": play.position, "word": play.word(tiles), "score": play.score}
    if not scored:
        del found["score"]
    return found


def _proof(result: PreEndgame) -> str:
    """What the pre-endgame's report proves, as its first line says it."""
    if result.exact:
        if len(result.plays) <= 1 and not any(o.play is not None and o.play.score for o in result.plays):
            return "no play: the only move is to pass"
        return "exact: the first is proved best"
    if result.wins_proved:
        return "the first is proved to win the most draws; its expected value is not proved best"
    if result.plays and result.plays[0].decided:
        return "NOT proved: time ran out; the first is the best proved so far"
    return "NOT proved: time ran out before any play was; the first is the likeliest by the estimate"


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


@gcg_app.command("verify")
def gcg_verify(
    file: Path = typer.Argument(..., help="A GCG file."),
    no_lexicon: bool = typer.Option(False, "--no-lexicon", help="Check scores only, not words."),
    lexicon: Optional[str] = typer.Option(
        None, "--lexicon", help="Lexicon to check words against (default: the game's #lexicon if compiled, else yours)."
    ),
    json_out: Json = False,
) -> None:
    """Replay a game and check every recorded score (exit 0 only if all are right)."""
    from lexitrain.engine.gcg import read_gcg
    from lexitrain.engine.replay import detect_tile_set, verify

    if no_lexicon and lexicon is not None:
        raise LexitrainError(BOTH_LEXICON_OPTIONS)
    game = read_gcg(file)
    tiles = detect_tile_set(game)
    words = None
    note = ""
    if not no_lexicon:
        from lexitrain.engine.dawg import dawg_for
        from lexitrain.lexicon.catalog import open_lexicon

        lexicon, note = game_lexicon(game, lexicon, file)
        lex = open_lexicon(lexicon)
        if lex.tiles.letters != tiles.letters:
            raise LexitrainError(f"{file}: the game uses {tiles.name} tiles, lexicon {lexicon} {lex.tiles.name} "
                                 "(use --no-lexicon or another --lexicon)")
        words = dawg_for(lex)
    report = verify(game, words, tiles)
    if json_out:
        emit_json({**report, "lexicon": None if no_lexicon else lexicon, "notes": [note] if note else []})
    else:
        for p in report["plays"]:
            mark = "ok " if p["ok"] else "BAD"
            extra = " (withdrawn)" if p.get("withdrawn") else ""
            why = f"  {p['reason']}" if p.get("reason") else ""
            typer.echo(f"{mark} {p['turn']:>3} {p['player']:<14} {p['position']:<4} {p['word']:<16} "
                       f"recorded {p['recorded']:>4} computed {p['computed'] if p['computed'] is not None else '-':>4}"
                       f"{extra}{why}")
        checked = f", {report['unknown_words']} with words not in {lexicon}" if words is not None else ""
        typer.echo(f"{counted(len(report['plays']), 'play')}: {counted(report['score_errors'], 'score error')}{checked}"
                   + (f" ({tiles.name} tiles)" if tiles.name != "english" else ""))
        if note:
            typer.echo(note)
    if not report["ok"]:
        raise typer.Exit(1)


@gcg_app.command("show")
def gcg_show(
    file: Path = typer.Argument(..., help="A GCG file."),
    turn: Optional[int] = typer.Option(None, "--turn", help="Show the position before this turn (default: the end)."),
    json_out: Json = False,
) -> None:
    """The board at a turn of a recorded game, with the rack and the move made, and the scores
    (a play that could not be placed, such as one off the board, is named in a warning)."""
    from lexitrain.engine.gcg import read_gcg
    from lexitrain.engine.replay import replay

    game = read_gcg(file)
    turns = replay(game)
    if not turns:
        raise LexitrainError(f"{file}: no turns recorded")
    if turn is not None and not 1 <= turn <= len(turns):
        raise LexitrainError(f"--turn: {file} has turns 1 to {len(turns)}")
    shown = _at_the_end(turns) if turn is None else _before_turn(turns[turn - 1])
    placed = turns if turn is None else turns[:turn - 1]
    info = shown.info
    info["scores"] = _recorded_totals(game, None if turn is None else turns[turn - 1].event_line)
    info["warnings"] = [f"turn {t.number} ({t.player}) is left off the board: "
                        + (t.error if t.error.startswith(t.notation) else f"{t.notation}: {t.error}")
                        for t in placed if t.error and not t.withdrawn]
    if json_out:
        emit_json(info)
        return
    from lexitrain.cli.board_view import render_board

    for warning in info["warnings"]:
        warn(warning)
    console = stdout_console()
    console.print(render_board(shown.board, shown.highlight))
    if info["turn"] is not None:
        console.print(f"turn {info['turn']}: {info['player']} with {info['rack'] or '?'} played {info['move']} "
                      f"for {info['score']}", highlight=False)
    totals = ", ".join(f"{nick} {total}" for nick, total in info["scores"].items())
    console.print(f"{'before this turn' if turn is not None else 'at the end'}: {totals}", highlight=False)


@dataclass
class _Shown:
    """The board `gcg show` draws, the squares it marks, and what its JSON says of the turn."""

    board: Board
    highlight: set[tuple[int, int]]
    info: dict[str, Any]


def _at_the_end(turns: list[Turn]) -> _Shown:
    """The board after the game's last move, that move's squares marked (no turn, rack or move named)."""
    from lexitrain.engine.cgp import board_to_cgp
    from lexitrain.engine.rules import apply_play

    last = turns[-1]
    board = last.board.copy()
    if last.play is not None and not last.withdrawn:
        apply_play(board, last.play)
    highlight = set(last.play.squares()) if last.play is not None and not last.withdrawn else set()
    return _Shown(board, highlight, {"turn": None, "player": None, "rack": None, "move": None,
                                     "cgp": board_to_cgp(board)})


def _before_turn(t: Turn) -> _Shown:
    """The board before turn T, with its player, rack and move; the whole position as CGP when the rack is
    known, so it can go straight to `best --cgp`."""
    from lexitrain.engine.cgp import Position, board_to_cgp, to_cgp

    move = t.notation or ("pass" if t.kind == "pass" else "exchange")
    cgp = to_cgp(Position(t.board, [t.rack.upper(), ""], list(t.scores))) if t.rack else board_to_cgp(t.board)
    return _Shown(t.board, set(), {"turn": t.number, "player": t.player, "rack": t.rack, "move": move,
                                   "score": t.recorded, "cgp": cgp})


def _recorded_totals(game: Game, until_line: int | None) -> dict[str, int]:
    """Each player's recorded total (by nick, in the file's order) after the events before
    UNTIL_LINE, or after every event (end-of-game rack bonuses included)."""
    totals = {player.nick: 0 for player in game.players}
    for event in game.events:
        if until_line is not None and event.line >= until_line:
            break
        totals[event.player] = event.cumulative
    return totals


@gcg_app.command("analyze")
def gcg_analyze(
    files: list[Path] = typer.Argument(..., help="GCG files."),
    player: Optional[str] = typer.Option(None, "--player", help="Only this player's turns (nick or name in the file)."),
    lexicon: Optional[str] = typer.Option(
        None, "--lexicon", help="Lexicon to check words against (default: the game's #lexicon if compiled, else yours)."
    ),
    report: Optional[Path] = typer.Option(None, "--report", help="Also write a printable report (.pdf or .html)."),
    sim: bool = typer.Option(False, "--sim", help="Also simulate each turn: the win probability the move lost "
                             "against the best candidate, and the costliest turns by it."),
    sim_iterations: int = typer.Option(150, "--sim-iterations", help="With --sim: playouts of each candidate "
                                       "(at most: a turn stops once its leader is clear at 95%)."),
    seed: int = typer.Option(1, "--seed", help="With --sim: the seed of the random draws."),
    threads: int = typer.Option(usable_cores(), "--threads", show_default=False,
                                help="With --sim: processes (default: every core)."),
    infer: bool = typer.Option(True, "--infer/--no-infer", help="With --sim: draw the opponent's rack from what "
                               "their move before the turn says of it (a tile play or an exchange; else at random)."),
    json_out: Json = False,
) -> None:
    """Each turn solved again: top plays by score and equity, what the move gave up, missed bingos, phonies."""
    from lexitrain.engine.analysis import SimOptions, summarise
    from lexitrain.engine.gcg import read_gcg

    if report is not None:
        from lexitrain.sheets.game_report import check_report_path

        check_report_path(report)
    if sim and (threads < 1 or sim_iterations < 1):
        raise LexitrainError("--threads and --sim-iterations must each be at least 1")
    games = [read_gcg(f) for f in files]
    def sim_options(lexicon_name: str) -> SimOptions | None:
        return SimOptions(lexicon_name, iterations=sim_iterations, seed=seed, threads=threads,
                          infer=infer) if sim else None

    reports, notes, seconds = _analyse_games(files, games, lexicon, player, sim_options)
    by_player: dict[str, list[TurnReport]] = {}
    for _, r in reports:
        for t in r.turns:
            by_player.setdefault(t.player, []).append(t)
    summary = {p: summarise(turns, sim) for p, turns in by_player.items()}
    if report is not None:
        from lexitrain.sheets.game_report import write_report

        write_report(report, [r for _, r in reports], summary)
    if sim:
        notes.extend(_unproved_note(reports))
    if json_out:
        emit_json({"games": [{**r.to_json(), "lexicon": name} for name, r in reports], "players": summary,
                   "notes": notes, **({"sim_seconds": seconds} if sim else {})})
        return
    _print_analysis(reports, summary, notes)
    if sim:
        typer.echo(_simulated_line(reports, seconds, infer))
    if report is not None:
        typer.echo(f"report written to {report}")


def _analyse_games(files: list[Path], games: list[Game], lexicon: str | None, player: str | None,
                   sim_options: Callable[[str], SimOptions | None]
                   ) -> tuple[list[tuple[str, GameReport]], list[str], float]:
    """Each game analysed against its lexicon (one analyst a lexicon, shared by its games): the reports with
    their lexicon's name, the notes on which lexicon was chosen, and the seconds the analysts simulated."""
    from lexitrain.engine.analysis import Analyst
    from lexitrain.lexicon.catalog import open_lexicon

    analysts: dict[str, Analyst] = {}
    reports: list[tuple[str, GameReport]] = []
    notes: list[str] = []
    for path, game in zip(files, games):
        name, note = game_lexicon(game, lexicon, path)
        if note and note not in notes:
            notes.append(note)
        if name not in analysts:
            analysts[name] = Analyst.of_lexicon(open_lexicon(name), sim_options(name))
        reports.append((name, analysts[name].game(game, player)))
    return reports, notes, round(sum(a.seconds for a in analysts.values()), 2)


def _unproved_note(reports: list[tuple[str, GameReport]]) -> list[str]:
    """The note that some turns near the end were judged by the best line found, when any were."""
    unproved = sum("not proved" in t.win_method for _, r in reports for t in r.turns)
    if not unproved:
        return []
    return [f"{unproved} turn{'s' if unproved != 1 else ''} near the end not proved within the "
            "solvers' time: judged by the best line found"]


def _simulated_line(reports: list[tuple[str, GameReport]], seconds: float, infer: bool) -> str:
    """How long the simulation took and, with --infer, on how many turns the opponent's rack was read."""
    if not infer:
        return f"simulated in {seconds:.1f} s"
    simulated = [t for _, r in reports for t in r.turns if t.win_method == "simulation"]
    read = sum(t.inferred for t in simulated)
    return (f"simulated in {seconds:.1f} s; the opponent's rack read from their last move on {read} of "
            f"{len(simulated)} simulated turns")


def _print_analysis(reports: list[tuple[str, GameReport]], summary: dict[str, dict[str, Any]], notes: list[str]
                    ) -> None:
    """`gcg analyze`'s terminal report: each game's turns, each game's totals where there are several, then
    every player's over all games and the notes."""
    for name, r in reports:
        typer.echo(f"{r.source} (words: {name})")
        for t in r.turns:
            typer.echo(_turn_line(t))
        if len(reports) > 1:  # each game's own totals; all games' come last
            for p in r.players:
                if any(t.player == p for t in r.turns):
                    typer.echo("  " + _summary_line(p, r.summary(p)))
    if len(reports) > 1:
        typer.echo(f"all {len(reports)} games:")
    for p, s in summary.items():
        typer.echo(_summary_line(p, s))
    for note in notes:
        typer.echo(note)


def _turn_line(t: TurnReport) -> str:
    """One analysed turn: the move, the top play by score and by equity with what the move gave up of each,
    then what stands out (the win chance lost, missed bingos, phonies, a valid play challenged off)."""
    if t.note:
        return f"  {t.turn:>3} {t.player:<12} {t.move:<20} {t.score:>4}  ({t.note})"
    top = t.top_by_score[0] if t.top_by_score else None
    best = t.top_by_equity[0]
    top_text = f"top {top['position']} {top['tiles']} {top['score']}" if top else "no play"
    best_move = f"{best['position']} {best['tiles']}" if best["kind"] == "play" else \
        f"{best['kind']} {best['tiles']}".strip()
    flags = _turn_flags(t)
    return (f"  {t.turn:>3} {t.player:<12} {t.move:<20} {t.score:>4}  {top_text} (-{t.points_given_up}); "
            f"equity best {best_move} {best['equity']:.1f} (-{t.equity_given_up:.1f})"
            + (f"; {'; '.join(flags)}" if flags else ""))


def _turn_flags(t: TurnReport) -> list[str]:
    """What stands out in an analysed turn, the win chance it lost first."""
    flags = []
    if t.win is not None and t.win_best is not None:
        flags.append(f"win {100 * t.win:.1f}% (-{100 * t.win_lost:.1f}; best "
                     f"{t.best_by_win['position']} {t.best_by_win['tiles']} {100 * t.win_best:.1f}%)")
    if t.missed_bingos:
        flags.append("missed bingo " + ", ".join(f"{b['position']} {b['word']} {b['score']}"
                                                 for b in t.missed_bingos[:3]))
    if t.phonies:
        flags.append(f"phony {', '.join(t.phonies)} ({'stood' if t.phony_stood else 'challenged off'})")
    if t.valid_challenged_off:
        flags.append("valid play challenged off")
    return flags


def _summary_line(player: str, s: dict[str, Any]) -> str:
    simulated = (f", win probability lost {100 * s['win_lost_per_turn']:.1f}% a turn on average, "
                 f"{100 * s['win_lost_most']:.1f}% at most in one (costliest: {', '.join(s['costliest_by_win']) or 'none'})"
                 ) if s.get("win_lost") else ""
    mistakes = s["mistakes"]
    index = (f"; Mistake Index {s['mistake_index']:g}{' a game' if s['games'] > 1 else ''} ({mistakes['small']} small, "
             f"{mistakes['medium']} medium, {mistakes['large']} large), estimated rating {s['estimated_rating']}"
             f"{'' if s['judged_by'].startswith('simulation') else ' (judged by equity: --sim judges by phase)'}")
    return (f"{player}: {counted(s['turns'], 'turn')}, {s['top_plays_found']} best by equity, "
            f"{s['points_given_up']} points and {s['equity_given_up']:.1f} equity given up, "
            f"{counted(s['missed_bingo_turns'], 'turn')} with a missed bingo, "
            f"{s['phonies_played']} phonies ({s['phonies_stood']} stood), {s['valid_challenged_off']} valid "
            f"plays challenged off, {s['exchanges']} exchanges, {s['passes']} passes{simulated}{index}")
