"""The options many commands share, declared once: `--lexicon`, `--json`, `--jsonl`, `--feedback`.

A `--lexicon` alias carries its default (`default_lexicon` is the one rule), so
no command writes a default of its own. Python lets a parameter without a
default follow defaulted ones only after `*`, so a command taking one starts
its parameters with `*` (they are passed by name anyway).
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from lexitrain.errors import LexitrainError

if TYPE_CHECKING:
    from lexitrain.lexicon.lexicon import Lexicon as LexiconData


def default_lexicon() -> str:
    """The lexicon a command uses when --lexicon is not given: the player's, set with
    `study set --lexicon` (enable before one is set). Every command, study or not,
    uses the same one, so `judge` agrees with the drill. Asking creates no progress
    database where there is none.
    """
    from lexitrain.lexicon.catalog import DEFAULT_LEXICON
    from lexitrain.study.store import ProgressStore, progress_path

    if not progress_path().exists():
        return DEFAULT_LEXICON
    with ProgressStore() as store:
        return str(store.setting("lexicon", DEFAULT_LEXICON))


def lexicon_given(ctx: typer.Context) -> bool:
    """Whether --lexicon was typed (not its default): a typed one overrides what a file names."""
    source = ctx.get_parameter_source("lexicon")
    return source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")


def file_lexicon(named: str | None, lexicon: str, given: bool, where: str, refuse: bool) -> tuple[str, str]:
    """The lexicon for a game or position read from a file (WHERE) that names NAMED
    (a GCG's `#lexicon`, a CGP's `lex`): --lexicon when typed, else the compiled one
    the file names, else LEXICON (the player's). Returns it with a note for the
    player (empty when there is nothing to say). A file naming a lexicon not compiled
    here is refused when REFUSE (the command would store cards or positions judged
    by the wrong words), else noted.
    """
    from lexitrain.lexicon.catalog import compiled_match, known_lexicons

    named = (named or "").strip()
    found = compiled_match(named) if named else None
    if given:
        other = named and (found or named).casefold() != lexicon.casefold()
        return lexicon, f"{where}: recorded in {named}, judged by {lexicon} (--lexicon)" if other else ""
    if found is not None or not named:
        return found or lexicon, ""
    if refuse:
        raise LexitrainError(
            f"{where} is recorded in {named}, which is not compiled here (lexicons here: {', '.join(known_lexicons())}): "
            f"build it with `lexitrain lexicon build FILE --name {named}`, or give --lexicon to judge it by another")
    return lexicon, f"{where}: words checked against {lexicon}: its lexicon {named} is not compiled here"


def files_lexicon(files: list[Path], lexicon: str, given: bool) -> str:
    """The one lexicon to store cards or positions from FILES in: --lexicon when typed, else
    the compiled lexicon the files name (a GCG's `#lexicon`, a CGP line's `lex`), else
    LEXICON. Refused in one line, before anything is stored, when a file names a lexicon not
    compiled here or the files name different ones. A file that does not read is left for
    the command to skip and name.
    """
    from lexitrain.engine.cgp import parse_cgp_ops
    from lexitrain.engine.gcg import read_gcg

    if given:
        return lexicon
    chosen: dict[str, str] = {}  # lexicon -> the first file (or line) that asks for it
    for path in files:
        try:
            if path.suffix.lower() == ".gcg":
                named = [(str(path), read_gcg(path).lexicon)]
            else:
                lines = path.read_text(encoding="utf-8").splitlines()
                named = [(f"{path}:{number}", parse_cgp_ops(line).get("lex")) for number, line in enumerate(lines, 1)
                         if line.strip() and not line.lstrip().startswith("#")]
        except (LexitrainError, OSError, UnicodeDecodeError):
            continue
        for where, name in named:
            chosen.setdefault(file_lexicon(name, lexicon, False, where, refuse=True)[0], where)
    if len(chosen) > 1:
        first, second = list(chosen.items())[:2]
        raise LexitrainError(f"{first[1]} is in {first[0]} but {second[1]} in {second[0]}: "
                             "import them apart, or give --lexicon to judge them all by one")
    return next(iter(chosen), lexicon)


def open_study_lexicon(name: str) -> LexiconData:
    """Open the lexicon a study command uses; when it is the study lexicon set with `study set
    --lexicon` and it is gone (removed, or its files lost), the error says how to pick another."""
    from lexitrain.lexicon.catalog import open_lexicon

    try:
        return open_lexicon(name)
    except LexitrainError as exc:
        from lexitrain.study.store import ProgressStore, progress_path

        if not progress_path().exists():
            raise
        with ProgressStore() as store:
            if store.setting("lexicon", None) != name:
                raise
        raise LexitrainError(f"{exc}; it is your study lexicon: pick another with `lexitrain study set --lexicon NAME` "
                             f"(or build it again with `lexitrain lexicon build FILE --name {name}`)") from None


# The help texts name enable, not DEFAULT_LEXICON: importing the lexicon module would slow start-up.
Lexicon = Annotated[str, typer.Option(
    "--lexicon", "-l", default_factory=default_lexicon, show_default=False,
    help="Lexicon (default: yours, set with `study set --lexicon`, else enable).",
)]
Json = Annotated[bool, typer.Option("--json", help="Print the result as JSON (one document on stdout).")]
Jsonl = Annotated[bool, typer.Option(
    "--jsonl", help="Speak JSON lines on stdin/stdout instead of the terminal quiz (see docs/study.md).",
)]
Feedback = Annotated[bool, typer.Option(
    "--feedback", help="With --jsonl: add a `feedback` object to each result line (every answer with its hooks, "
    "symbols and definition, and why a miss was missed; the terminal always shows it).",
)]
