"""`lexitrain lexicon ...`: compile word lists and manage compiled lexicons."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Optional

import typer

from lexitrain.cli.options import Json
from lexitrain.cli.output import counted, emit_json, warn
from lexitrain.errors import LexitrainError

lexicon_app = typer.Typer(name="lexicon", help="Compile word lists and manage compiled lexicons.", no_args_is_help=True)

MAX_WARNINGS_SHOWN = 10


def _parse_compare(values: list[str]) -> dict[str, str]:
    """`cel` or `cel=+`: words not in that lexicon get the symbol (default #)."""
    compare: dict[str, str] = {}
    for value in values:
        other, _, symbol = value.partition("=")
        compare[other] = symbol or "#"
    return compare


@lexicon_app.command("build")
def build(
    file: Path = typer.Argument(..., help="Word list: one word a line, or `WORD definition` lines."),
    name: str = typer.Option(..., "--name", help="Name to compile it under (e.g. nwl2023, csw24)."),
    tiles: str = typer.Option("english", "--tiles", help="Tile set name or CSV file."),
    board: str = typer.Option("standard", "--board", help="Board layout: standard, super, wordswithfriends."),
    compare: list[str] = typer.Option(
        [], "--compare", help="Mark words missing from another lexicon: NAME or NAME=SYMBOL (default #). Repeatable."
    ),
    skip_invalid: bool = typer.Option(False, "--skip-invalid", help="Skip words with characters outside the tile set."),
    definitions: Optional[Path] = typer.Option(
        None, "--definitions", help="Define the words the list leaves undefined from a file of `WORD definition` "
        "lines (e.g. the shipped lexicons/definitions/wordnet_enable.txt)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
    json_out: Json = False,
) -> None:
    """Compile a word list into a lexicon (tries, probability tables, hooks)."""
    from lexitrain.lexicon import store
    from lexitrain.lexicon.catalog import EMBEDDED, build_lexicon

    if name.casefold() in EMBEDDED:  # the shipped list is the default of every command and of the daily challenge
        raise LexitrainError(f"{name!r} is the name of the shipped {name.upper()} list; "
                             f"compile yours under another name (e.g. --name my-{name.casefold()})")
    store.check_build_name(name)  # before the list is read: a clash of names is quick to say

    from lexitrain.cli.progress_bar import progress_bar

    with progress_bar(f"compiling {name}", shown=not quiet and not json_out) as progress:
        report = build_lexicon(file, name, tiles, board, _parse_compare(compare), skip_invalid, progress, definitions)
    for message in report.warnings[:MAX_WARNINGS_SHOWN]:
        warn(message)
    if len(report.warnings) > MAX_WARNINGS_SHOWN:
        warn(f"... and {len(report.warnings) - MAX_WARNINGS_SHOWN} more words skipped")
    if json_out:
        emit_json({
            "name": report.name, "words": report.words, "by_length": report.by_length,
            "skipped": len(report.warnings), "duplicates": report.duplicates, "seconds": round(report.seconds, 3),
            "bytes": report.bytes_on_disk,
        })
    else:
        typer.echo(
            f"compiled {report.name}: {report.words:,} words in {report.seconds:.1f} s "
            f"({report.bytes_on_disk / 1e6:.1f} MB)"
            + (f", {len(report.warnings)} skipped" if report.warnings else "")
            + (f", {report.duplicates:,} repeated lines kept once" if report.duplicates else "")
        )


@lexicon_app.command("list")
def list_(json_out: Json = False) -> None:
    """List compiled lexicons (and the embedded ones, compiled on first use)."""
    from lexitrain.lexicon import store
    from lexitrain.lexicon.catalog import EMBEDDED, known_lexicons

    rows = []
    for name in known_lexicons():
        manifest = store.read_manifest(name)
        rows.append({
            "name": name,
            "compiled": manifest is not None,
            "words": manifest.get("words") if manifest else None,
            "tiles": manifest.get("tiles", "?") if manifest else "english",
            "embedded": name in EMBEDDED,
        })
    if json_out:
        emit_json(rows)
        return
    for row in rows:
        status = ("not compiled yet" if not row["compiled"] else f"{row['words']:,} words"
                  if isinstance(row["words"], int) else "damaged: build it again")
        typer.echo(f"{row['name']:<16} {row['tiles']:<10} {status}" + ("  (embedded)" if row["embedded"] else ""))


@lexicon_app.command("info")
def info(name: str = typer.Argument("enable"), json_out: Json = False) -> None:
    """Word counts by length, tile set, source and size of a lexicon."""
    from lexitrain.lexicon.catalog import open_lexicon

    lex = open_lexicon(name)
    m = lex.manifest
    name = lex.name
    data = {
        "name": name, "words": m["words"], "by_length": m["by_length"], "tiles": m["tiles"],
        "board": m["board"], "source": m["source"], "built": m["built"], "bytes": m.get("bytes"),
        "compare": m.get("compare", {}),
    }
    if json_out:
        emit_json(data)
        return
    typer.echo(f"{name}: {data['words']:,} words, tiles {data['tiles']}, board {data['board']}")
    typer.echo(f"source {data['source']}, built {data['built']}")
    typer.echo("by length: " + "  ".join(f"{k}:{v}" for k, v in data["by_length"].items()))
    if data["compare"]:  # what the symbols beside its words mean
        typer.echo("symbols: " + ", ".join(f"{symbol} not in {other}" for other, symbol in data["compare"].items()))


@lexicon_app.command("diff")
def diff(
    old: str = typer.Argument(..., help="The older lexicon."),
    new: str = typer.Argument(..., help="The newer lexicon."),
    json_out: Json = False,
) -> None:
    """Words added and removed between two lexicons (the new-words list), by length."""

    from lexitrain.lexicon.catalog import open_lexicon

    from lexitrain.lexicon.lexicon import diff as diff_lexicons

    old_lex, new_lex = open_lexicon(old), open_lexicon(new)
    result = diff_lexicons(old_lex, new_lex)
    if json_out:
        emit_json(result)
        return
    width = max(40, shutil.get_terminal_size((100, 24)).columns)
    added, removed = result["added"], result["removed"]
    lines = [f"{old_lex.name} -> {new_lex.name}: {len(added):,} added, {len(removed):,} removed"]
    for what, words in (("added", added), ("removed", removed)):
        if words:
            lines += ["", f"{what} ({len(words):,})"]
            lines += _by_length(new_lex.tiles.encode, words, width)
    sys.stdout.write("\n".join(lines) + "\n")


def _by_length(encode: Callable[[str], str], words: list[str], width: int) -> list[str]:
    """One block a length, `  7 (123)  WORD WORD ...`, wrapped under its first word."""
    by_length: dict[int, list[str]] = {}
    for word in words:
        by_length.setdefault(len(encode(word)), []).append(word)
    lines: list[str] = []
    for length in sorted(by_length):
        group = by_length[length]
        head = f"{length:>3} ({len(group):,})"
        indent = " " * (len(head) + 2)
        line = head + " "
        for word in group:
            if len(line) + 1 + len(word) > width and line.strip() != head:
                lines.append(line)
                line = indent[:-1]
            line += " " + word
        lines.append(line)
    return lines


@lexicon_app.command("playability")
def playability(
    name: str = typer.Argument(..., help="The lexicon to count playability for."),
    games: int = typer.Option(..., "--games", help="Self-play games to play (the more, the steadier the ranks)."),
    seed: int = typer.Option(0, "--seed", help="The same seed and games give the same figures, however run."),
    jobs: Optional[int] = typer.Option(None, "--jobs", help="Processes to play on (default: every core)."),
    scheduler: Optional[str] = typer.Option(
        None, "--scheduler", help="Play on the Dask cluster of this scheduler (tcp://host:8786; needs lexitrain[dask])."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
    json_out: Json = False,
) -> None:
    """Count how often the equity player plays each word in self-play and store it in the lexicon
    (for `search --order playability` and `--playability 1-500`); say how steady the ranks are."""
    from lexitrain.engine.playability import STEADY, count_and_store, stability, tile_length
    from lexitrain.lexicon.catalog import open_lexicon

    if games < 1:
        raise LexitrainError(f"--games {games}: play at least one game")
    if jobs is not None and jobs < 1:
        raise LexitrainError(f"--jobs {jobs}: expected 1 or more")
    lex = open_lexicon(name)
    from lexitrain.cli.progress_bar import progress_bar

    with progress_bar(f"self-play for {lex.name}", shown=not quiet and not json_out) as progress:
        count = count_and_store(lex, games, seed, jobs, scheduler, progress)
    per_thousand = 1000 * count.seconds / count.games
    steady = stability(count.halves, tile_length(lex))
    if json_out:
        emit_json({"lexicon": lex.name, "games": count.games, "seed": seed, "seconds": round(count.seconds, 2),
                   "where": count.where, "plays": sum(count.plays.values()), "words": len(count.plays),
                   "seconds_per_1000_games": round(per_thousand, 2),
                   "stability": {str(n): {"words": figures.words, "spearman": figures.spearman,
                                          "top_overlap": figures.overlap,
                                          f"games_for_{STEADY}": figures.games_for(count.games)}
                                 for n, figures in steady.items()}})
        return
    typer.echo(f"{lex.name}: {count.games:,} games on {count.where} in {count.seconds:.1f} s "
               f"({per_thousand:.1f} s per 1,000), {sum(count.plays.values()):,} words played, "
               f"{len(count.plays):,} different; stored")
    typer.echo(f"How steady the ranks are: the games split in two halves, Spearman's correlation of the "
               f"most played words' ranks in one half against the other (1 the same order, 0 noise; "
               f"{STEADY} or more reads as meaningful):")
    for n, figures in steady.items():
        needed = figures.games_for(count.games)
        verdict = ("steady" if figures.spearman >= STEADY else
                   f"about {needed:,} games for {STEADY}" if needed else "too few plays yet to estimate")
        typer.echo(f"  {n:>2} letters: {figures.spearman:6.3f} over the top {figures.words:,} ({verdict})")


@lexicon_app.command("remove")
def remove(
    name: str = typer.Argument(...),
    force: bool = typer.Option(False, "--force", help="Remove a lexicon that holds cards all the same (they are "
                               "kept, and come back when it is compiled again)."),
) -> None:
    """Delete a compiled lexicon (an embedded one recompiles on next use). A lexicon of your own
    that holds cards is kept unless --force; removing the study lexicon makes enable the study
    lexicon, so every command still has one."""
    from lexitrain.lexicon.catalog import DEFAULT_LEXICON
    from lexitrain.study.records.cards import remove_lexicon
    from lexitrain.study.store import ProgressStore, progress_path

    if progress_path().exists():
        with ProgressStore() as progress:
            removed = remove_lexicon(progress, name, force)
    else:
        removed = remove_lexicon(None, name, force)
    typer.echo(f"removed {removed.name}")
    if removed.studied:
        kept = (f"; its {counted(removed.cards, 'card')} {'is' if removed.cards == 1 else 'are'} kept for when you "
                "compile it again" if removed.cards else "")
        typer.echo(f"your study lexicon is now {DEFAULT_LEXICON} (`lexitrain study set --lexicon NAME` picks "
                   f"another){kept}")
