"""A sheet request: what a face (the CLI, later the web app) asks to print, checked, and the sheet it makes.

A face parses its options into a `SheetRequest`, whose checks give the
one-line reasons a request is refused, opens the lexicon and (for the due
sheet, which draws from study) hands over the due questions; `build_sheet`
does the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

from lexitrain.errors import LexitrainError
from lexitrain.lexicon.catalog import open_lexicon
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.search.query import check_search_given
from lexitrain.search.sources import described_source, results_from_source, source_blanks
from lexitrain.sheets import DEFAULT_DAYS, KINDS, kinds
from lexitrain.sheets.kinds import DueQuestion
from lexitrain.sheets.model import Sheet

DEFAULT_TITLES = {
    "anagrams": "Anagrams",
    "hooks": "Hooks",
    "twos": "Two-letter words",
    "stems": "Stems",
    "new-words": "New words",
    "due": "Due this week",
}
#: Kinds printed from a word source (a query, saved search, built-in list or word file).
TAKES_SOURCE = ("anagrams", "hooks", "stems")
MAX_DAYS = 36_500


@dataclass(frozen=True)
class SheetRequest:
    """One sheet to print: its kind, at most one word source, and the kind's own options.

    `conditions` are search options typed on the command: alone they are the
    source, beside a query, saved search or built-in list they narrow it.
    `skip_invalid` leaves out the words of a word file that are not in the lexicon.
    """

    kind: str
    query: str | None = None
    saved: str | None = None
    builtin: str | None = None
    word_file: Path | None = None
    stems: tuple[str, ...] = ()
    old: str | None = None  # new-words: the older lexicon
    days: int = DEFAULT_DAYS  # due: cards due within this many days
    title: str | None = None  # None: the kind's name and its source
    questions: bool = False  # leave the answers out
    key: bool = False  # questions, then the answers on pages of their own
    conditions: tuple[str, ...] = ()
    skip_invalid: bool = False
    definitions: bool = False  # each word's definition beside it (not for stems)
    most_words: int | None = None  # a source of more words is refused (a club's cap, `Context.most_words`); None: any

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise LexitrainError(f"unknown sheet kind {self.kind!r} (choose from {', '.join(KINDS)})")
        if self.has_source and self.kind not in TAKES_SOURCE:
            raise LexitrainError(f"the {self.kind} sheet takes no word source "
                                 "(--query, --saved, --list, --words, search conditions)")
        if self.stems and self.kind != "stems":
            raise LexitrainError("--stem is only for the stems sheet")
        if self.old is not None and self.kind != "new-words":
            raise LexitrainError("--old is only for the new-words sheet")
        if self.kind == "new-words" and self.old is None:
            raise LexitrainError("the new-words sheet needs --old LEXICON to compare with")
        if self.definitions and self.kind == "stems":
            raise LexitrainError("--definitions is not for the stems sheet (it prints each tile's words on one line)")
        if self.skip_invalid and self.word_file is None:
            raise LexitrainError("--skip-invalid goes with --words FILE")
        if not self.conditions:  # with conditions beside it, an empty --search narrows nothing
            check_search_given(self.query)
        if self.kind == "due" and not 1 <= self.days <= MAX_DAYS:
            raise LexitrainError(f"--days must be 1 to {MAX_DAYS}, not {self.days}")

    @property
    def has_source(self) -> bool:
        return bool(self.conditions) or any(
            value is not None for value in (self.query, self.saved, self.builtin, self.word_file))

    @property
    def draws_from_study(self) -> bool:
        """The sheet prints study progress (the due cards), read from the progress database."""
        return self.kind == "due"

    def due_by(self, now: datetime) -> float:
        """The end of the due sheet's window (POSIX seconds): cards due before it are printed."""
        return (now + timedelta(days=self.days)).timestamp()

    def printed_title(self) -> str:
        """The title asked for, else the kind's name with the source it came from
        (a built-in list's own title; search conditions in words, not as typed)."""
        if self.title:
            return self.title
        if self.kind == "due" and self.days != DEFAULT_DAYS:
            return "Due in the next day" if self.days == 1 else f"Due in the next {self.days} days"
        about = described_source(query=self.query, saved=self.saved, builtin=self.builtin,
                                 word_file=self.word_file, conditions=self.conditions)
        if self.builtin is not None:
            return about
        return f"{DEFAULT_TITLES[self.kind]}: {about}" if about else DEFAULT_TITLES[self.kind]


def build_sheet(
    request: SheetRequest,
    lex: Lexicon,
    due_questions: Sequence[DueQuestion] = (),
    now: datetime | None = None,
    skipped: Callable[[list[str]], None] | None = None,
) -> Sheet:
    """The sheet REQUEST asks for, from LEX (for new-words, the newer lexicon).

    The due sheet prints `due_questions` (the caller asks the study layer for
    them, soonest first), its days counted from `now` (default: the clock).
    With `skip_invalid`, the words of a word file left out are handed to `skipped`.
    """
    title = request.printed_title()
    options = {"questions": request.questions, "key": request.key}
    words = {**options, "definitions": request.definitions}  # the kinds that print words one a line
    if request.kind == "new-words":
        assert request.old is not None  # checked by the request
        return kinds.new_words(open_lexicon(request.old), lex, title, **words)
    if request.kind == "twos":
        return kinds.twos(lex, title, **words)
    if request.kind == "due":
        return kinds.due(lex, due_questions, title, now or datetime.now(timezone.utc), request.days, **words)

    source = {"query": request.query, "saved": request.saved, "builtin": request.builtin}
    conditions = request.conditions
    word_file = request.word_file
    stems_only = request.kind == "stems" and not request.has_source
    report = (skipped or _ignore) if request.skip_invalid else None
    results = [] if stems_only else results_from_source(lex, **source, word_file=word_file, conditions=conditions,
                                                            skipped=report, most=request.most_words)
    if request.kind == "stems":
        letters = list(request.stems) + [r["alphagram"] for r in results]
        if not letters:
            raise LexitrainError("the stems sheet needs --stem LETTERS or a word source")
        return kinds.stems(lex, letters, title, **options)
    if request.kind == "anagrams":
        blanks = source_blanks(**source, word_file=word_file, conditions=conditions)  # the ranks shown count the blanks the search asks
        return kinds.anagrams(lex, results, title, blanks=blanks, **words)
    return kinds.hooks(lex, results, title, **words)


def _ignore(lines: list[str]) -> None:
    """No one to tell: the skipped words go unreported."""
