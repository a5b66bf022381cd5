"""`lexitrain positions ...` and `lexitrain quiz position`: find the top-scoring play."""

from __future__ import annotations

from pathlib import Path
from typing import Optional, TYPE_CHECKING

import typer
from typer.main import get_command

from lexitrain.cli.options import Json, Jsonl, Lexicon, files_lexicon, lexicon_given, open_study_lexicon
from lexitrain.cli.output import counted, emit_json, warn
from lexitrain.errors import LexitrainError

if TYPE_CHECKING:
    from lexitrain.lexicon.lexicon import Lexicon as LexiconData
    from lexitrain.study.drills.positions import ImportReport
    from lexitrain.study.store import Filters, ProgressStore

#: self-play games one command makes at most: more would run for hours, surely a typo
MOST_GAMES = 10_000

positions_app = typer.Typer(name="positions", help="Positions for the position quiz: import games, generate, list.",
                            no_args_is_help=True)

MIN_SCORE = typer.Option(None, "--min-score", help="Only positions whose top play scores at least this.")
BINGO = typer.Option(False, "--bingo", help="Only positions whose top play is a bingo.")
BLANK = typer.Option(False, "--blank", help="Only positions whose top play uses a blank.")
MARGIN = typer.Option(None, "--margin", help="Only positions whose top play beats the runner-up by this much.")
LENGTH = typer.Option(None, "--length", help="Only positions whose top play makes a word of this length.")
RARER = typer.Option(None, "--rarer-than", help="Only positions whose top word's probability rank is above this.")


def _filters(min_score: int | None, bingo: bool, blank: bool, margin: int | None, length: int | None,
             rarer: int | None) -> Filters:
    from lexitrain.study.drills.positions import Filters

    return Filters(min_score, bingo, blank, margin, length, rarer)


def _open(lexicon: str) -> tuple[ProgressStore, LexiconData]:
    from lexitrain.study.store import ProgressStore

    store = ProgressStore()
    try:
        return store, open_study_lexicon(lexicon)
    except BaseException:
        store.close()
        raise


def _report(report: ImportReport, json_out: bool, what: str) -> None:
    if json_out:
        emit_json(report.to_json())
    else:
        for reason in report.skipped:
            warn(f"skipped {reason}")
        typer.echo(f"{counted(report.added, 'position')} added from {what} ({report.known} already stored)")


@positions_app.command("import")
def import_(
    *,
    ctx: typer.Context,
    files: list[Path] = typer.Argument(..., help="Recorded games (.gcg), or files of CGP lines (anything else)."),
    lexicon: Lexicon,
    json_out: Json = False,
) -> None:
    """Store the position before every turn of recorded games (with the rack the player had),
    or every CGP line of a file. A file or line that does not read is skipped and named;
    the rest are still imported (exit 1 when anything was skipped). They are stored in the
    lexicon most files name (a game's #lexicon, a CGP's lex) when it is compiled here, the
    study lexicon for a file that names none; a file in another is skipped and named,
    unless --lexicon is given to judge every file by one."""
    from lexitrain.study.drills import positions as pos

    name, files, left_out = files_lexicon(files, lexicon, lexicon_given(ctx))
    store, lex = _open(name)
    with store:
        report = pos.ImportReport(skipped=left_out)
        games = [f for f in files if f.suffix.lower() == ".gcg"]
        found = pos.from_games(lex, games, report)
        for path in files:
            if path.suffix.lower() != ".gcg":
                found += pos.from_cgp_file(lex, path, report)
        pos.store_positions(store, lex, found, report)
    _report(report, json_out, f"{len(files)} file{'s' if len(files) != 1 else ''}")
    if report.skipped:
        raise typer.Exit(1)


@positions_app.command("generate")
def generate(
    *,
    games: int = typer.Option(1, "--games", help="How many self-play games."),
    seed: int = typer.Option(1, "--seed", help="Seed: the same seed gives the same games."),
    lexicon: Lexicon,
    json_out: Json = False,
) -> None:
    """Store the position before every turn of greedy self-play games."""
    from lexitrain.study.drills import positions as pos

    if not 1 <= games <= MOST_GAMES:
        raise LexitrainError(f"--games {games}: expected 1 to {MOST_GAMES:,}")
    store, lex = _open(lexicon)
    with store:
        report = pos.ImportReport()
        pos.store_positions(store, lex, pos.from_self_play(lex, games, seed), report)
    _report(report, json_out, f"{games} self-play games (seed {seed})")


@positions_app.command("list")
def list_(
    *,
    min_score: Optional[int] = MIN_SCORE, bingo: bool = BINGO, blank: bool = BLANK, margin: Optional[int] = MARGIN,
    length: Optional[int] = LENGTH, rarer: Optional[int] = RARER,
    limit: int = typer.Option(20, "--limit", help="Show at most this many."),
    lexicon: Lexicon,
    json_out: Json = False,
) -> None:
    """Stored positions matching the filters, with their top plays."""
    from lexitrain.study.drills import positions as pos
    from lexitrain.study.quiz.scheduler import utc_now

    store, lex = _open(lexicon)
    with store:
        found = pos.select(store, lex.name, _filters(min_score, bingo, blank, margin, length, rarer),
                           utc_now().timestamp(), limit)
        stored = pos.stored_count(store, lex.name)
    if json_out:
        emit_json([p.to_json() for p in found])
        return
    for p in found:
        marks = "".join(m for m, on in (("B", p.bingo), ("?", p.blank)) if on)
        typer.echo(f"{p.id:>5} {p.top_score:>4} {p.top_play:<22} +{p.margin:<4} {marks:<2} {p.source}")
    if not stored:  # "0 shown" would not say why: positions are kept per lexicon
        typer.echo(f"no positions stored for {lex.name} yet (`lexitrain positions import GAMES.gcg` or "
                   f"`lexitrain positions generate` adds some)")
    else:
        typer.echo(f"{counted(len(found), 'position')} shown (of {stored} stored for {lex.name})")


@positions_app.command("daily")
def daily_setting(
    *,
    per_day: int = typer.Option(..., "--per-day", help="New positions a day in `lexitrain daily` (0 = none)."),
    min_score: Optional[int] = MIN_SCORE, bingo: bool = BINGO, blank: bool = BLANK, margin: Optional[int] = MARGIN,
    length: Optional[int] = LENGTH, rarer: Optional[int] = RARER,
    lexicon: Lexicon,
) -> None:
    """Put a few stored positions into the daily drill (missed ones come back like any card)."""
    from lexitrain.study.drills import positions as pos

    store, lex = _open(lexicon)
    with store:
        filters = _filters(min_score, bingo, blank, margin, length, rarer)
        pos.set_daily_plan(store, lex.name, per_day, filters)
        if per_day and not pos.stored_count(store, lex.name):
            report = pos.ImportReport()
            pos.store_positions(store, lex, pos.from_self_play(lex, 1, 1), report)
    typer.echo(f"daily drill ({lex.name}): {counted(per_day, 'new position')} a day")


@positions_app.command("quiz")
def quiz_position(
    *,
    min_score: Optional[int] = MIN_SCORE, bingo: bool = BINGO, blank: bool = BLANK, margin: Optional[int] = MARGIN,
    length: Optional[int] = LENGTH, rarer: Optional[int] = RARER,
    limit: int = typer.Option(10, "--limit", help="Ask at most this many positions."),
    daily: bool = typer.Option(False, "--daily", help="Today's position puzzle, the same for everyone."),
    day: Optional[str] = typer.Option(None, "--date", help="With --daily: YYYY-MM-DD (default today)."),
    seed: int = typer.Option(1, "--seed", help="Seed for the self-play game made when no position is stored."),
    no_schedule: bool = typer.Option(False, "--no-schedule", help="Practice only: do not touch the cards."),
    by: str = typer.Option("score", "--by", help="Judge answers by score, or by equity (score + the value of the "
                           "tiles kept; the score shown too); or ask the positions `study from-games` analysed: "
                           "sim (the best play by simulation), endgame (the first play of a best endgame)."),
    lexicon: Lexicon,
    jsonl: Jsonl = False,
) -> None:
    """The position quiz: find the top-scoring play, the top play by equity, the best play by simulation
    or the first play of a best endgame (also `lexitrain quiz position`)."""
    from lexitrain.study.drills.requests import PositionQuizRequest

    request = PositionQuizRequest(_filters(min_score, bingo, blank, margin, length, rarer), limit=limit, daily=daily,
                                  day=day, seed=seed, schedule=not no_schedule, by=by)
    store, lex = _open(lexicon)
    with store:
        session = request.start(store, lex)
        if jsonl:
            from lexitrain.cli.quiz_ui import run_jsonl

            run_jsonl(session)
        else:
            from lexitrain.cli.position_view import run_terminal

            run_terminal(session)


def run_from_quiz(args: list[str], lexicon: Optional[str], jsonl: bool, limit: Optional[int], no_schedule: bool
                  ) -> None:
    """`lexitrain quiz position ARGS`: the options `quiz` itself read are passed on."""

    forwarded = list(args) + (["--lexicon", lexicon] if lexicon else []) + (["--jsonl"] if jsonl else []) + (
        ["--limit", str(limit)] if limit is not None else []) + (["--no-schedule"] if no_schedule else [])
    command = get_command(positions_app).commands["quiz"]  # type: ignore[attr-defined]
    command.main(forwarded, prog_name="lexitrain quiz position", standalone_mode=False)
