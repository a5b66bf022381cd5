"""The kinds of study sheet: what goes on each, built from a lexicon and a source.

A *source* is the list of result dicts the search layer returns (only `word`
and `alphagram` are read); everything printed (hooks, ranks, every anagram of
an alphagram) is read back from the lexicon's own tables so that a sheet is
complete whatever the source carried.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from datetime import date, datetime, timedelta, timezone
from typing import Any

from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon, diff
from lexitrain.sheets.model import Column, Group, Section, Sheet, questions_only

#: Printed before/after a word that stays a word without its first/last letter.
INNER_HOOK = "•"
_SQL_CHUNK = 500  # well under SQLite's limit on bound parameters

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
STEM_HEAD = (Column("stem", 3.0, "L", bold=True), Column("count", 1.0, "R"))
STEM_ROWS = (Column("tile", 0.5, "C", bold=True), Column("words", 5.5, "L", answer=True))


def today() -> str:
    return date.today().isoformat()


# -- reading the lexicon -------------------------------------------------------
def _select_in(lex: Lexicon, table: str, column: str, values: Sequence[str]) -> Iterator[sqlite3.Row]:
    """Rows of `table` whose `column` is one of `values` (asked in chunks)."""
    for start in range(0, len(values), _SQL_CHUNK):
        chunk = values[start : start + _SQL_CHUNK]
        marks = ",".join("?" * len(chunk))
        yield from lex.db.execute(f"SELECT * FROM {table} WHERE {column} IN ({marks})", chunk)


def _rows_where(lex: Lexicon, table: str, column: str, values: Sequence[str]) -> dict[str, sqlite3.Row]:
    """Rows of `table` whose `column` is one of `values`, keyed by that column."""
    return {row[column]: row for row in _select_in(lex, table, column, values)}


def _words_of_alphagrams(lex: Lexicon, alphagrams: Sequence[str]) -> dict[str, list[sqlite3.Row]]:
    """Every word of each alphagram, in dictionary (tile) order."""
    by_alphagram: dict[str, list[sqlite3.Row]] = {a: [] for a in alphagrams}
    for row in _select_in(lex, "words", "alphagram", alphagrams):
        by_alphagram[row["alphagram"]].append(row)
    key, encode = lex.tiles.sort_key, lex.tiles.encode
    for rows in by_alphagram.values():
        rows.sort(key=lambda r: key(encode(r["word"])))
    return by_alphagram


def _unique(values: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(values))


def hook_row(word: sqlite3.Row | dict[str, Any]) -> tuple[str, ...]:
    """front hooks, word with inner-hook marks, back hooks, lexicon symbols."""
    front = INNER_HOOK if word["inner_front"] else ""
    back = INNER_HOOK if word["inner_back"] else ""
    return (word["front_hooks"], f"{front}{word['word']}{back}", word["back_hooks"], word["symbols"] or "")


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
    results: list[dict[str, Any]],
    title: str,
    *,
    questions: bool = False,
    key: bool = False,
    blanks: int = 2,
) -> Sheet:
    """Alphagrams in source order, each with its probability rank (counted
    with `blanks` blanks, as the source's search asks), answer count and
    answers with hooks."""
    alphagrams = _unique(r["alphagram"] for r in results)
    info = _rows_where(lex, "alphagrams", "alphagram", alphagrams)
    words = _words_of_alphagrams(lex, alphagrams)
    groups = [
        Group(head=(str(info[a][f"alphagram_rank{blanks}"]), a, str(len(words[a]))), rows=[hook_row(w) for w in words[a]])
        for a in alphagrams
        if a in info
    ]
    sections = [Section("", ANAGRAM_HEAD, HOOK_COLUMNS, groups)]
    return Sheet(title, lex.name, today(), _with_questions(sections, questions, key), columns=3)


def hooks(
    lex: Lexicon, results: list[dict[str, Any]], title: str, *, questions: bool = False, key: bool = False
) -> Sheet:
    """Each word of the source with its front and back hooks, like Zyzzyva's print-out."""
    words = _unique(r["word"] for r in results)
    rows = _rows_where(lex, "words", "word", words)
    groups = [Group(rows=[hook_row(rows[w])]) for w in words if w in rows]
    sections = [Section("", (), HOOK_COLUMNS, groups)]
    return Sheet(title, lex.name, today(), _with_questions(sections, questions, key), columns=3)


def twos(lex: Lexicon, title: str, *, questions: bool = False, key: bool = False) -> Sheet:
    """Every two-letter word with its hooks: one page."""
    found = lex.db.execute("SELECT * FROM words WHERE length = 2").fetchall()
    order, encode = lex.tiles.sort_key, lex.tiles.encode
    found.sort(key=lambda r: order(encode(r["word"])))
    groups = [Group(rows=[hook_row(r)]) for r in found]
    sections = [Section("", (), TWO_COLUMNS, groups)]
    return Sheet(title, lex.name, today(), _with_questions(sections, questions, key), columns=2, one_page=not key)


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
        rows = []
        for tile, tile_code in zip(tiles.letters, tiles.codes):
            made = lex.anagram_codes(tiles.alphagram_code(code + tile_code))
            if made:
                spelled = sorted(made, key=tiles.sort_key)
                rows.append((tile, " ".join(tiles.decode(c) for c in spelled)))
        if not rows:
            skipped.append(letters)
            continue
        words = sum(len(r[1].split()) for r in rows)
        groups.append(Group(head=(tiles.display_alphagram(code), str(words)), rows=rows))
    sections = [Section("", STEM_HEAD, STEM_ROWS, groups)]
    return Sheet(title, lex.name, today(), _with_questions(sections, questions, key), columns=2, skipped=skipped)


def new_words(old: Lexicon, new: Lexicon, title: str, *, questions: bool = False, key: bool = False) -> Sheet:
    """Words added going from OLD to NEW (then those removed), by length, with hooks."""
    changes = diff(old, new)
    sections = []
    for label, words, lex in (("added", changes["added"], new), ("removed", changes["removed"], old)):
        rows = _rows_where(lex, "words", "word", words)
        by_length: dict[int, list[Group]] = {}
        for word in words:
            by_length.setdefault(rows[word]["length"], []).append(Group(rows=[hook_row(rows[word])]))
        for length in sorted(by_length):
            groups = by_length[length]
            sections.append(Section(f"{length} letters {label} ({len(groups)})", (), HOOK_COLUMNS, groups))
    return Sheet(title, f"{old.name} → {new.name}", today(), _with_questions(sections, questions, key), columns=4)


def due(lex: Lexicon, title: str, days: int = 7, *, questions: bool = False, key: bool = False) -> Sheet:
    """The cards the scheduler will ask in the next DAYS days, overdue ones under today, by day (UTC)."""
    from lexitrain.study.scheduler import utc_now
    from lexitrain.study.store import ProgressStore, progress_path

    if not 1 <= days <= 36_500:
        raise LexitrainError(f"--days must be 1 to 36500, not {days}")
    now = utc_now()
    cards = []
    if progress_path().exists():  # no progress yet: nothing is due (and no database is created)
        with ProgressStore() as store:
            cards = store.due_cards(lex.name, (now + timedelta(days=days)).timestamp(), 10_000_000)
    if not cards:
        raise LexitrainError(
            f"no cards of {lex.name} are due in the next {days} days, so there is nothing to print (no file written)"
        )
    by_day: dict[date, list[Group]] = {}
    for card in cards:
        day = datetime.fromtimestamp(max(card.due, now.timestamp()), timezone.utc).date()
        by_day.setdefault(day, []).append(_due_group(lex, card.kind, card.key))
    sections = [
        Section(f"{day:%a %d %b %Y}{' (and overdue)' if day == now.date() else ''}: {len(groups)}",
                DUE_HEAD, HOOK_COLUMNS, groups)
        for day, groups in by_day.items()
    ]
    return Sheet(title, lex.name, now.date().isoformat(), _with_questions(sections, questions, key), columns=3)


def _due_group(lex: Lexicon, kind: str, card_key: str) -> Group:
    """A card as the quiz asks it (study's question kinds), its answers printed with their hooks."""
    from lexitrain.study.cards import get_kind

    question = get_kind(kind).build(lex, card_key)
    if kind == "hooks":  # the hooks of one word read best as that word's hook line
        words = [question.key]
    elif "anagrams" in question.info:  # anagram-hooks: the anagrams carry their hooks
        words = list(question.expected[: question.info["anagrams"]])
    else:
        words = list(question.expected)
    found = _rows_where(lex, "words", "word", words)
    rows = [hook_row(found[w]) if w in found else ("", w, "", "") for w in words]
    prompt = question.prompt if kind == "anagram" else f"{kind}: {question.prompt}"
    return Group(head=(prompt, str(len(question.expected))), rows=rows)
