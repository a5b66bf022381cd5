"""The options many commands share, declared once: `--lexicon`, `--json`, `--jsonl`, `--feedback`.

A `--lexicon` alias carries its default (`default_lexicon` is the one rule), so
no command writes a default of its own. Python lets a parameter without a
default follow defaulted ones only after `*`, so a command taking one starts
its parameters with `*` (they are passed by name anyway).
"""

from __future__ import annotations

from collections import Counter
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


def files_lexicon(files: list[Path], lexicon: str, given: bool) -> tuple[str, list[Path], list[str]]:
    """The one lexicon to store cards or positions from FILES in, the files to read, and why the
    others are left out. With --lexicon typed, that one and every file. Else the lexicon most of
    the files ask for: the compiled one a GCG's `#lexicon` or a CGP line's `lex` names, LEXICON
    (the player's) for a file that names none; a file asking for another, or naming a lexicon
    not compiled here, is left out with the reason, and the others are still read. Refused in
    one line when every file is left out. A file that does not read is left for the command
    to skip and name.
    """
    from lexitrain.lexicon.catalog import compiled_match, known_lexicons

    if given:
        return lexicon, list(files), []
    known = known_lexicons()  # (read once: a file of positions names a lexicon on each of its lines)
    matches: dict[str, str | None] = {"": lexicon}
    asked: dict[Path, list[tuple[str, str, str | None]]] = {}  # file -> (where, named, compiled match) of each
    for path in files:
        try:
            lines = _lexicons_named(path)
            for _, named in lines:
                if named not in matches:
                    matches[named] = compiled_match(named, known)
            asked[path] = [(where, named, matches[named]) for where, named in lines]
        except (LexitrainError, OSError, UnicodeDecodeError):
            continue
    votes = Counter(match for wanted in asked.values() for _, _, match in wanted if match is not None)
    chosen = votes.most_common(1)[0][0] if votes else lexicon  # (a tie goes to the file first given)
    kept, left_out = [], []
    for path in files:
        odd = next(((where, named, match) for where, named, match in asked.get(path, []) if match != chosen), None)
        if odd is None:
            kept.append(path)
        elif odd[2] is None:  # not compiled here: file_lexicon's refusal says what to do
            try:
                file_lexicon(odd[1], lexicon, False, odd[0], refuse=True)
            except LexitrainError as exc:
                left_out.append(str(exc))
        else:
            left_out.append(f"{odd[0]} is in {odd[2]}, the others in {chosen}: import it apart, "
                            "or give --lexicon to judge them all by one")
    if not kept:
        raise LexitrainError(left_out[0])
    return chosen, kept, left_out


def _lexicons_named(path: Path) -> list[tuple[str, str]]:
    """(where, lexicon named or "") of a recorded game, or of each CGP line of any other file."""
    from lexitrain.engine.cgp import parse_cgp_ops
    from lexitrain.engine.gcg import read_gcg

    if path.suffix.lower() == ".gcg":
        return [(str(path), (read_gcg(path).lexicon or "").strip())]
    lines = path.read_text(encoding="utf-8").splitlines()
    return [(f"{path}:{number}", (parse_cgp_ops(line).get("lex") or "").strip())
            for number, line in enumerate(lines, 1) if line.strip() and not line.lstrip().startswith("#")]


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
