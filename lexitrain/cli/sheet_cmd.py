"""`lexitrain sheet KIND ... --out FILE`: printable study sheets (PDF, HTML, CSV, Markdown)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import typer

from lexitrain.cli.options import Json, default_lexicon
from lexitrain.cli.output import emit_json, warn
from lexitrain.errors import LexitrainError

#: sheet (`lexitrain.cli.app` adds it to the root).
commands = typer.Typer()

KINDS = ("anagrams", "hooks", "twos", "stems", "new-words", "due")
DEFAULT_TITLES = {
    "anagrams": "Anagrams",
    "hooks": "Hooks",
    "twos": "Two-letter words",
    "stems": "Stems",
    "new-words": "New words",
    "due": "Due this week",
}


@commands.command("sheet")
def sheet(
    kind: str = typer.Argument(..., help=f"What to print: {', '.join(KINDS)}."),
    out: Path = typer.Option(..., "--out", "-o", help="Output file: .pdf, .html, .csv or .md."),
    query: Optional[str] = typer.Option(None, "--query", "--search", "-q", help='Search conditions, e.g. "--length 7 --probability 1-500".'),
    saved: Optional[str] = typer.Option(None, "--saved", help="A saved search by name."),
    builtin: Optional[str] = typer.Option(None, "--list", help="A built-in list by name (twos, top-sevens, ...)."),
    word_file: Optional[Path] = typer.Option(None, "--words", "--file", help="A file of words, one a line."),
    stem: list[str] = typer.Option([], "--stem", help="stems: letters of a stem, e.g. SATINE (repeatable)."),
    old: Optional[str] = typer.Option(None, "--old", help="new-words: the older lexicon to compare with."),
    lexicon: Optional[str] = typer.Option(  # its default depends on the kind: not the shared alias
        None, "--lexicon", "-l", show_default=False,
        help="Lexicon, for new-words the newer one (default enable; for due: the one set with "
             "`study set --lexicon`, else enable)."),
    days: int = typer.Option(7, "--days", help="due: cards due within this many days (overdue ones too)."),
    columns: Optional[int] = typer.Option(None, "--columns", "-c", help="Printed columns per page (default per kind)."),
    questions_only: bool = typer.Option(False, "--questions-only", help="Leave the answers out, with room to write them."),
    answer_key: bool = typer.Option(False, "--answer-key", help="Questions, then the answers on pages of their own."),
    title: Optional[str] = typer.Option(None, "--title", help="Title printed at the top of every page."),
    paper: str = typer.Option("a4", "--paper", help="Paper size for PDF: a4 or letter."),
    font_size: float = typer.Option(9.0, "--font-size", help="Font size in points for PDF."),
    json_out: Json = False,
) -> None:
    """Print a study sheet: anagrams, hooks, twos, stems, new words, or the cards due this week."""
    from lexitrain.sheets.write import check_output, write_sheet

    if kind not in KINDS:
        raise LexitrainError(f"unknown sheet kind {kind!r} (choose from {', '.join(KINDS)})")
    check_output(out)
    source: dict[str, Any] = {"query": query, "saved": saved, "builtin": builtin, "word_file": word_file}
    given = {name for name, value in source.items() if value is not None}
    made = _build(kind, source, given, stem, old, days, lexicon or default_lexicon(study=kind == "due"),
                  title or _title(kind, query, saved, builtin, word_file, days), questions_only, answer_key)
    pages = write_sheet(made, out, columns=columns, paper=paper, font_size=font_size)
    if made.skipped:
        warn(_skipped_note(made.skipped))
    groups = sum(len(s.groups) for s in made.sections)
    if json_out:
        emit_json({"kind": kind, "out": str(out), "pages": pages, "groups": groups, "lexicon": made.lexicon})
    else:
        typer.echo(f"wrote {out}" + (f" ({pages} page{'s' * (pages != 1)})" if pages else "") + f", {groups} entries")


#: Stems named in the warning about stems left out; a big word source gets a count for the rest.
NAMED_SKIPS = 10


def _skipped_note(skipped: list[str]) -> str:
    """One line naming the stems left off the sheet, so a typo in --stem does not pass unseen."""
    names = " ".join(skipped[:NAMED_SKIPS])
    more = f" and {len(skipped) - NAMED_SKIPS} more" if len(skipped) > NAMED_SKIPS else ""
    what = "1 stem that makes" if len(skipped) == 1 else f"{len(skipped)} stems that make"
    return f"left out {what} no word with one more tile: {names}{more}"


def _title(kind: str, query: str | None, saved: str | None, builtin: str | None, word_file: Path | None,
           days: int) -> str:
    """The kind's name, with the source it came from when there is one (a built-in list's own title)."""
    if kind == "due" and days != 7:
        return f"Due in the next {days} days"
    if builtin is not None:
        from lexitrain.search.lists import builtin_list

        return builtin_list(builtin).title
    about = query or saved or (word_file.name if word_file else None)
    return f"{DEFAULT_TITLES[kind]}: {about}" if about else DEFAULT_TITLES[kind]


def _build(kind: str, source: dict[str, Any], given: set[str], stem: list[str], old: str | None, days: int,
           lexicon: str, title: str, questions: bool, key: bool):  # -> Sheet
    from lexitrain.lexicon.lexicon import open_lexicon
    from lexitrain.sheets import kinds

    takes_source = kind in ("anagrams", "hooks", "stems")
    if given and not takes_source:
        raise LexitrainError(f"the {kind} sheet takes no word source (--query, --saved, --list, --words)")
    if stem and kind != "stems":
        raise LexitrainError("--stem is only for the stems sheet")
    if old is not None and kind != "new-words":
        raise LexitrainError("--old is only for the new-words sheet")
    lex = open_lexicon(lexicon)
    if kind == "new-words":
        if old is None:
            raise LexitrainError("the new-words sheet needs --old LEXICON to compare with")
        return kinds.new_words(open_lexicon(old), lex, title, questions=questions, key=key)
    if kind == "twos":
        return kinds.twos(lex, title, questions=questions, key=key)
    if kind == "due":
        return kinds.due(lex, title, days, questions=questions, key=key)
    results = _results(lex, source) if given or kind != "stems" else []
    if kind == "stems":
        letters = list(stem) + [r["alphagram"] for r in results]
        if not letters:
            raise LexitrainError("the stems sheet needs --stem LETTERS or a word source")
        return kinds.stems(lex, letters, title, questions=questions, key=key)
    if kind == "anagrams":
        from lexitrain.search.sources import source_blanks

        return kinds.anagrams(lex, results, title, questions=questions, key=key, blanks=source_blanks(**source))
    return kinds.hooks(lex, results, title, questions=questions, key=key)


def _results(lex, source: dict[str, Any]) -> list[dict[str, Any]]:
    """Rows from the search layer's sources (exactly one must be given)."""
    from lexitrain.search.sources import results_from_source

    return results_from_source(lex, **source)
