"""`lexitrain sheet KIND ... --out FILE`: printable study sheets (PDF, HTML, CSV, Markdown)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer

from lexitrain.cli.options import Json, default_lexicon
from lexitrain.cli.output import counted, emit_json, warn, warn_skipped
from lexitrain.cli.search_cmd import TAKES_CONDITIONS
from lexitrain.sheets import DEFAULT_DAYS, KINDS

#: sheet (`lexitrain.cli.app` adds it to the root).
commands = typer.Typer()

if TYPE_CHECKING:
    from lexitrain.lexicon.lexicon import Lexicon
    from lexitrain.sheets.kinds import DueQuestion
    from lexitrain.sheets.model import Sheet
    from lexitrain.sheets.request import SheetRequest
    from lexitrain.study.store import CardRow, ProgressStore

#: Every due card is printed (the store asks for a limit).
MAX_DUE_CARDS = 10_000_000


@commands.command("sheet", context_settings=TAKES_CONDITIONS)  # search conditions may follow the kind
def sheet(
    ctx: typer.Context,
    kind: str = typer.Argument(..., help=f"What to print: {', '.join(KINDS)}."),
    out: Path = typer.Option(..., "--out", "-o", help="Output file: .pdf, .html, .csv or .md."),
    query: Optional[str] = typer.Option(None, "--query", "--search", "-q", help='Search conditions, e.g. "--length 7 --probability 1-500".'),
    saved: Optional[str] = typer.Option(None, "--saved", "--load", help="A saved search by name."),
    builtin: Optional[str] = typer.Option(None, "--list", help="A built-in list by name (twos, top-sevens, ...)."),
    word_file: Optional[Path] = typer.Option(None, "--words", "--file", help="A file of words, one a line."),
    skip_invalid: bool = typer.Option(False, "--skip-invalid", help="--words: leave out (and list) the words "
                                      "that are not in the lexicon instead of refusing the file."),
    stem: list[str] = typer.Option([], "--stem", help="stems: letters of a stem, e.g. SATINE (repeatable)."),
    old: Optional[str] = typer.Option(None, "--old", help="new-words: the older lexicon to compare with."),
    lexicon: Optional[str] = typer.Option(  # None: the player's, read once the request is checked
        None, "--lexicon", "-l", show_default=False,
        help="Lexicon, for new-words the newer one (default: yours, set with `study set --lexicon`, else enable)."),
    days: int = typer.Option(DEFAULT_DAYS, "--days", help="due: cards due within this many days (overdue ones too)."),
    columns: Optional[int] = typer.Option(None, "--columns", "-c", help="Printed columns per page (default per kind)."),
    questions_only: bool = typer.Option(False, "--questions-only", help="Leave the answers out, with room to write them."),
    answer_key: bool = typer.Option(False, "--answer-key", help="Questions, then the answers on pages of their own."),
    definitions: bool = typer.Option(False, "--definitions", "-d", help="Print each word's definition beside it "
                                     "(a lexicon built with definitions; not for stems). Default columns: 2."),
    title: Optional[str] = typer.Option(None, "--title", help="Title printed at the top of every page."),
    paper: str = typer.Option("a4", "--paper", help="Paper size for PDF: a4 or letter."),
    font_size: float = typer.Option(9.0, "--font-size", help="Font size in points for PDF."),
    json_out: Json = False,
) -> None:
    """Print a study sheet: anagrams, hooks, twos, stems, new words, or the cards due this week.

    Search conditions may follow the kind, as for `lexitrain search` (`sheet anagrams
    --length 7 --probability 1-100 --out top.pdf`); beside --query, --saved or --list they narrow it.
    """
    from lexitrain.sheets.request import SheetRequest
    from lexitrain.sheets.write import check_output, write_sheet

    request = SheetRequest(kind, query, saved, builtin, word_file, tuple(stem), old, days, title,
                           questions_only, answer_key, conditions=tuple(ctx.args), skip_invalid=skip_invalid,
                           definitions=definitions)
    check_output(out)
    made = _build(request, lexicon)
    pages = write_sheet(made, out, columns=columns, paper=paper, font_size=font_size)
    if made.skipped:
        warn(_skipped_note(made.skipped))
    groups = made.entries
    if json_out:
        emit_json({"kind": kind, "out": str(out), "pages": pages, "groups": groups, "lexicon": made.lexicon})
    else:
        typer.echo(f"wrote {out}" + (f" ({counted(pages, 'page')})" if pages else "")
                   + f", {counted(groups, 'entry', 'entries')}")


#: Stems named in the warning about stems left out; a big word source gets a count for the rest.
NAMED_SKIPS = 10


def _skipped_note(skipped: list[str]) -> str:
    """One line naming the stems left off the sheet, so a typo in --stem does not pass unseen."""
    names = " ".join(skipped[:NAMED_SKIPS])
    more = f" and {len(skipped) - NAMED_SKIPS} more" if len(skipped) > NAMED_SKIPS else ""
    what = "1 stem that makes" if len(skipped) == 1 else f"{len(skipped)} stems that make"
    return f"left out {what} no word with one more tile: {names}{more}"


def _build(request: SheetRequest, lexicon: str | None) -> Sheet:
    """The sheet, from LEXICON or the player's (the one set with `study set --lexicon`)."""
    from lexitrain.lexicon.catalog import open_lexicon
    from lexitrain.sheets.request import build_sheet

    lex = open_lexicon(lexicon or default_lexicon())
    if not request.draws_from_study:
        return build_sheet(request, lex, skipped=warn_skipped)
    from lexitrain.study.quiz.scheduler import utc_now
    from lexitrain.study.store import ProgressStore, progress_path

    now = utc_now()
    if not progress_path().exists():  # no progress yet: nothing is due (and no database is created)
        return build_sheet(request, lex, [], now)
    with ProgressStore() as store:
        cards = store.due_cards(lex.name, request.due_by(now), MAX_DUE_CARDS)
        questions = [_due_question(lex, card, store) for card in cards]
    return build_sheet(request, lex, questions, now)


def _due_question(lex: Lexicon, card: CardRow, store: ProgressStore) -> DueQuestion:
    """A due card as its quiz asks it (a position analysed or a rack read when the card was made read from
    STORE), with what its kind prints on a sheet."""
    from lexitrain.sheets.kinds import DueQuestion
    from lexitrain.study.quiz.kinds.base import BOARD, bind_store, new_kind

    kind = bind_store(new_kind(card.kind), store)
    question = kind.build(lex, card.key)
    return DueQuestion(card.due or 0.0, kind.sheet_prompt(question), len(question.expected), kind.sheet_words(question),
                       question.info["cgp"] if question.hint == BOARD else "")
