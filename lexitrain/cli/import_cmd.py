"""`lexitrain import zyzzyva DIR`: a Zyzzyva user folder brought over in one command."""

from __future__ import annotations

from pathlib import Path

import typer

from lexitrain.cli.options import Json
from lexitrain.cli.output import counted, emit_json, warn

import_app = typer.Typer(name="import", help="Bring over what another program holds (Zyzzyva).", no_args_is_help=True)

#: skipped items named one a line before the rest are counted (`--json` lists every one)
NAMED_SKIPS = 30


@import_app.command("zyzzyva")
def zyzzyva(
    folder: Path = typer.Argument(..., help="Zyzzyva's user folder (~/Zyzzyva unless its preferences moved it)."),
    json_out: Json = False,
) -> None:
    """Everything of a Zyzzyva user folder at once: each lexicon (lexicons/NAME.txt, with its definitions, or
    Zyzzyva's database of it) compiled, every cardbox of every quiz type and lexicon (quiz/data/LEXICON/*.db)
    as cards due when Zyzzyva had them due, saved searches (.zzs) as saved searches, saved quizzes (.zzq) as
    lists of their words; the lexicon with the most cards becomes the study lexicon. What it leaves out is
    named with the reason. A second run changes nothing."""
    from lexitrain.study.records.zyzzyva_folder import import_folder
    from lexitrain.study.store import ProgressStore

    from lexitrain.cli.progress_bar import progress_bar

    with ProgressStore() as store, progress_bar("compiling a lexicon", shown=not json_out) as progress:
        report = import_folder(store, folder, progress)
    if json_out:
        emit_json(report.to_json())
        return
    for line in report.done:
        typer.echo(line)
    for item, why in report.skipped[:NAMED_SKIPS]:
        warn(f"skipped {item}: {why}")
    if len(report.skipped) > NAMED_SKIPS:
        warn(f"skipped {len(report.skipped) - NAMED_SKIPS} more (`--json` lists every one)")
    made = [counted(len(report.compiled), "lexicon") + " compiled", counted(report.cards, "card"),
            counted(report.searches, "saved search", "saved searches"), counted(report.lists, "list")]
    nothing = not (report.compiled or report.cards or report.searches or report.lists)
    typer.echo(f"from {folder}: {', '.join(made)}; {counted(len(report.skipped), 'item')} left out"
               + (" (nothing new: it was all here already)" if nothing and report.lexicons else ""))
