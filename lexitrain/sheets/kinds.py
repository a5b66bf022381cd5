"""The kinds of study sheet: what goes on each, built from a lexicon and a source.

A *source* is a list of the search layer's result rows (only `word` and
`alphagram` are read); everything printed (hooks, ranks, every anagram of an
alphagram) is asked of the search layer again, so that a sheet is complete
whatever the source carried. The due sheet is handed its questions (the
caller asks the study layer), so sheets never reads study progress itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, timezone

from lexitrain.engine.board import Board, column_name
from lexitrain.engine.cgp import parse_cgp
from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon, diff
from lexitrain.lexicon.rows import WordRow
from lexitrain.search import hooks as word_hooks
from lexitrain.search.execute import anagram_rows, dictionary_key, rows_for_words, run_search
from lexitrain.search.query import parse_query
from lexitrain.sheets.model import Column, Group, Section, Sheet, questions_only

#: Printed before/after a word that stays a word without its first/last letter.
INNER_HOOK = "•"

#: Shares of the spare room (pdf.py sizes each field to its widest text first):
#: the word field stays tight so the hooks sit right beside the word.
HOOK_COLUMNS = (
    Column("front_hooks", 1.2, "R", answer=True),
    Column("word", 0.3, "C", bold=True),
    Column("back_hooks", 1.2, "L", answer=True),
    Column("symbols", 0.5, "L"),
)
TWO_COLUMNS = (
    Column("front_hooks", 3.0, "R", answer=True),
    Column("word", 1.0, "C", bold=True),
    Column("back_hooks", 3.0, "L", answer=True),
    Column("symbols", 0.4, "L"),
)
ANAGRAM_HEAD = (
    Column("rank", 0.9, "R"),
    Column("alphagram", 3.2, "L", bold=True),
    Column("answers", 0.6, "R"),
)
DUE_HEAD = (Column("question", 3.0, "L", bold=True), Column("answers", 0.6, "R"))
#: a position card: the question and its top play (left out on a question sheet), its board below
POSITION_HEAD = (Column("question", 3.0, "L", bold=True), Column("top play", 2.0, "R", answer=True))
#: how an empty premium square is printed on a board (a tile: its letter, a blank's lowercase)
PREMIUM_MARKS = {"": "·", "DL": "2L", "TL": "3L", "QL": "4L", "DW": "2W", "TW": "3W", "QW": "4W"}
#: `--definitions`: each word's definition after its symbols, wrapped at spaces.
DEFINITION = Column("definition", 3.0, "L", prose=True)
STEM_HEAD = (Column("stem", 3.0, "L", bold=True), Column("count", 1.0, "R"))
STEM_ROWS = (Column("tile", 0.5, "C", bold=True), Column("words", 5.5, "L", answer=True))


@dataclass(frozen=True)
class DueQuestion:
    """A study card as the due sheet prints it, handed over by the caller."""

    due: float  # when the scheduler asks it (POSIX seconds); overdue ones print under today
    prompt: str  # as printed, e.g. "AEINRST" or "hooks: CARE"
    answers: int  # how many answers the question expects
    words: tuple[str, ...]  # the words printed with their hooks (a hooks card: its one word); a position's top plays
    cgp: str = ""  # a position card's position: its board is printed under it


def today() -> str:
    return date.today().isoformat()


def _unique(values: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(values))


def hook_row(word: WordRow, definition: bool = False) -> tuple[str, ...]:
    """front hooks, word with inner-hook marks, back hooks, lexicon symbols (and, when asked,
    the word's definition, stored with its links written out)."""
    front = INNER_HOOK if word["inner_front"] else ""
    back = INNER_HOOK if word["inner_back"] else ""
    row = (word["front_hooks"], f"{front}{word['word']}{back}", word["back_hooks"], word["symbols"])
    return (*row, word["definition"]) if definition else row


def _word_columns(columns: tuple[Column, ...], definitions: bool) -> tuple[Column, ...]:
    return (*columns, DEFINITION) if definitions else columns


def _check_defined(lex: Lexicon, sections: list[Section], definitions: bool) -> None:
    """`--definitions` on words that have none (a list of bare words) would print an empty column. Only the rows
    under a definition column count: a position's board, whose last column holds tiles and premium marks, is no
    definition."""
    defined = (row[-1] for section in sections if section.row_columns[-1:] == (DEFINITION,)
               for group in section.groups for row in group.rows)
    if definitions and not any(defined):
        raise LexitrainError(f"no word on this sheet has a definition in {lex.name}, so --definitions has "
                             "nothing to print (a lexicon built from `WORD definition` lines has them)")


def _with_questions(sheet_sections: list[Section], questions: bool, key: bool) -> list[Section]:
    """The full sections, or question-only ones (plus the answer key after them)."""
    if not questions and not key:
        return sheet_sections
    asked = [questions_only(s, _titled(s.title, "questions")) for s in sheet_sections]
    if not key:
        return asked
    first, *rest = sheet_sections
    return asked + [replace(first, title=_titled(first.title, "answer key"), new_page=True), *rest]


def _titled(title: str, part: str) -> str:
    return f"{title}: {part}" if title else part.capitalize()


# -- the kinds -----------------------------------------------------------------
def anagrams(
    lex: Lexicon,
    results: Sequence[WordRow],
    title: str,
    *,
    questions: bool = False,
    key: bool = False,
    blanks: int = 2,
    definitions: bool = False,
) -> Sheet:
    """Alphagrams in source order, each with its probability rank (counted
    with `blanks` blanks, as the source's search asks), answer count and
    answers with hooks."""
    words = anagram_rows(lex, _unique(r["alphagram"] for r in results))
    groups = [
        Group(head=(str(rows[0]["alphagram_ranks"][blanks]), alphagram, str(len(rows))),
              rows=[hook_row(w, definitions) for w in rows])
        for alphagram, rows in words.items()
        if rows
    ]
    sections = [Section("", ANAGRAM_HEAD, _word_columns(HOOK_COLUMNS, definitions), groups)]
    _check_defined(lex, sections, definitions)
    return Sheet(title, lex.name, today(), _with_questions(sections, questions, key), columns=2 if definitions else 3)


def hooks(
    lex: Lexicon, results: Sequence[WordRow], title: str, *, questions: bool = False, key: bool = False,
    definitions: bool = False,
) -> Sheet:
    """Each word of the source with its front and back hooks, like Zyzzyva's print-out."""
    groups = [Group(rows=[hook_row(row, definitions)]) for row in rows_for_words(lex, (r["word"] for r in results))]
    sections = [Section("", (), _word_columns(HOOK_COLUMNS, definitions), groups)]
    _check_defined(lex, sections, definitions)
    return Sheet(title, lex.name, today(), _with_questions(sections, questions, key), columns=2 if definitions else 3)


def twos(lex: Lexicon, title: str, *, questions: bool = False, key: bool = False, definitions: bool = False) -> Sheet:
    """Every two-letter word with its hooks: one page (with definitions, as many as they need)."""
    found = sorted(run_search(lex, parse_query("--length 2")), key=dictionary_key(lex))
    groups = [Group(rows=[hook_row(r, definitions)]) for r in found]
    sections = [Section("", (), _word_columns(TWO_COLUMNS, definitions), groups)]
    _check_defined(lex, sections, definitions)
    return Sheet(title, lex.name, today(), _with_questions(sections, questions, key), columns=2,
                 one_page=not key and not definitions)


def stems(
    lex: Lexicon, stem_letters: list[str], title: str, *, questions: bool = False, key: bool = False
) -> Sheet:
    """Each stem with the tiles that make a word one longer, and the words each makes.

    A stem that makes no word is left out (named in `Sheet.skipped`, as first
    typed) rather than printed as an empty entry.
    """
    tiles = lex.tiles
    groups = []
    skipped: list[str] = []
    typed: dict[str, str] = {}  # alphagram code -> the stem as first given
    for letters in stem_letters:
        code = lex.encode(letters)
        if code is None:
            raise LexitrainError(f"stem {letters!r} has a character that is not in the {tiles.name} tile set")
        typed.setdefault(tiles.alphagram_code(code), letters.upper())
    for code, letters in typed.items():
        rows: list[tuple[str, ...]] = [
            (tiles.decode(tile), " ".join(tiles.decode(c) for c in made))
            for tile, made in word_hooks.stems(lex, code).items()
        ]
        if not rows:
            skipped.append(letters)
            continue
        words = sum(len(r[1].split()) for r in rows)
        groups.append(Group(head=(tiles.display_alphagram(code), str(words)), rows=rows))
    sections = [Section("", STEM_HEAD, STEM_ROWS, groups)]
    return Sheet(title, lex.name, today(), _with_questions(sections, questions, key), columns=2, skipped=skipped)


def new_words(
    old: Lexicon, new: Lexicon, title: str, *, questions: bool = False, key: bool = False, definitions: bool = False
) -> Sheet:
    """Words added going from OLD to NEW (then those removed), by length, with hooks
    (and definitions, each from the lexicon that has the word)."""
    changes = diff(old, new)
    sections = []
    for label, words, lex in (("added", changes["added"], new), ("removed", changes["removed"], old)):
        by_length: dict[int, list[Group]] = {}
        for row in rows_for_words(lex, words):
            by_length.setdefault(row["length"], []).append(Group(rows=[hook_row(row, definitions)]))
        for length in sorted(by_length):
            groups = by_length[length]
            sections.append(Section(f"{length} letters {label} ({len(groups)})", (),
                                    _word_columns(HOOK_COLUMNS, definitions), groups))
    _check_defined(new, sections, definitions)
    return Sheet(title, f"{old.name} → {new.name}", today(), _with_questions(sections, questions, key),
                 columns=2 if definitions else 4)


def due(
    lex: Lexicon,
    due_questions: Sequence[DueQuestion],
    title: str,
    now: datetime,
    days: int,
    *,
    questions: bool = False,
    key: bool = False,
    definitions: bool = False,
) -> Sheet:
    """The cards the scheduler will ask in the next DAYS days (handed over by
    the caller, soonest first), overdue ones under today, by day (UTC)."""
    if not due_questions:
        raise LexitrainError(
            f"no cards of {lex.name} are due in the next {days} days, so there is nothing to print (no file written)"
        )
    by_day: dict[date, list[Group]] = {}
    boards_by_day: dict[tuple[date, int], list[Group]] = {}  # position cards, by day and board width
    for question in due_questions:
        day = datetime.fromtimestamp(max(question.due, now.timestamp()), timezone.utc).date()
        if question.cgp:
            board = parse_cgp(question.cgp, lex.tiles, lex.layout).board
            boards_by_day.setdefault((day, board.cols), []).append(_position_group(question, board))
        else:
            by_day.setdefault(day, []).append(_due_group(lex, question, definitions))
    sections = []
    for day in sorted({*by_day, *(d for d, _ in boards_by_day)}):
        named = f"{day:%a %d %b %Y}{' and overdue' if day == now.date() else ''}"
        if day in by_day:
            sections.append(Section(f"{named} ({len(by_day[day])})", DUE_HEAD, _word_columns(HOOK_COLUMNS, definitions),
                                    by_day[day]))
        for (on, cols), groups in boards_by_day.items():
            if on == day:
                sections.append(Section(f"{named}: positions ({len(groups)})", POSITION_HEAD, _board_columns(cols),
                                        groups))
    _check_defined(lex, sections, definitions)
    return Sheet(title, lex.name, now.date().isoformat(), _with_questions(sections, questions, key),
                 columns=2 if definitions else 3)


def _board_columns(cols: int) -> tuple[Column, ...]:
    return (Column("row", 0.8, "R"), *(Column(column_name(c), 1.0, "C", bold=True) for c in range(cols)))


def _position_group(question: DueQuestion, board: Board) -> Group:
    """A position card: its question and top play, then its board (column letters, row numbers,
    tiles, and the premium squares still empty), kept on a question sheet."""
    letters = ("", *(column_name(c) for c in range(board.cols)))
    rows = [(str(r + 1), *(board.text_at(r, c) or PREMIUM_MARKS.get(board.premium(r, c), "·") for c in range(board.cols)))
            for r in range(board.rows)]
    return Group(head=(question.prompt, " or ".join(question.words[:2])), rows=[letters, *rows], asked_rows=True)


def _due_group(lex: Lexicon, question: DueQuestion, definitions: bool) -> Group:
    """A question with its answers printed with their hooks (a word the lexicon lacks, bare)."""
    found = {row["word"]: row for row in rows_for_words(lex, question.words)}
    bare = ("",) * (len(HOOK_COLUMNS) + definitions - 2)
    rows = [hook_row(found[w], definitions) if w in found else ("", w, *bare)
            for w in question.words]
    return Group(head=(question.prompt, str(question.answers)), rows=rows)
