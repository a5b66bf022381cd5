"""The options many commands share, declared once: `--lexicon`, `--json`, `--jsonl`, `--feedback`.

A `--lexicon` alias carries its default (`default_lexicon` is the one rule), so
no command writes a default of its own. Python lets a parameter without a
default follow defaulted ones only after `*`, so a command taking one starts
its parameters with `*` (they are passed by name anyway).
"""

from __future__ import annotations

from functools import partial
from typing import Annotated

import typer


def default_lexicon(study: bool) -> str:
    """The lexicon a command uses when --lexicon is not given.

    Study commands (and sheets drawn from study) use the active study lexicon,
    set with `study set --lexicon`; every other command, and study before one
    is set, uses enable. Asking creates no progress database where there is none.
    """
    from lexitrain.lexicon.lexicon import DEFAULT_LEXICON

    if not study:
        return DEFAULT_LEXICON
    from lexitrain.study.store import ProgressStore, progress_path

    if not progress_path().exists():
        return DEFAULT_LEXICON
    with ProgressStore() as store:
        return str(store.setting("lexicon", DEFAULT_LEXICON))


def open_study_lexicon(name: str):  # -> Lexicon
    """Open the lexicon a study command uses; when it is the study lexicon set with `study set
    --lexicon` and it is gone (removed, or its files lost), the error says how to pick another."""
    from lexitrain.errors import LexitrainError
    from lexitrain.lexicon.lexicon import open_lexicon

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
    "--lexicon", "-l", default_factory=partial(default_lexicon, study=False), show_default=False,
    help="Lexicon to use (default enable).",
)]
StudyLexicon = Annotated[str, typer.Option(
    "--lexicon", "-l", default_factory=partial(default_lexicon, study=True), show_default=False,
    help="Lexicon (default: the one set with `study set --lexicon`, else enable).",
)]
Json = Annotated[bool, typer.Option("--json", help="Print the result as JSON (one document on stdout).")]
Jsonl = Annotated[bool, typer.Option(
    "--jsonl", help="Speak JSON lines on stdin/stdout instead of the terminal quiz (see docs/study.md).",
)]
Feedback = Annotated[bool, typer.Option(
    "--feedback", help="With --jsonl: add a `feedback` object to each result line (every answer with its hooks, "
    "symbols and definition, and why a miss was missed; the terminal always shows it).",
)]
