"""Where a word list comes from: a query, a saved search, a built-in list or a file."""

from __future__ import annotations

from pathlib import Path
from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.lexicon.rows import WordRow
from lexitrain.search.execute import rows_for_words, run_search
from lexitrain.search.lists import builtin_list
from lexitrain.search.query import Query, parse_query
from lexitrain.search.saved import load_search

MAX_BAD_SHOWN = 3


def results_from_source(
    lex: Lexicon,
    *,
    query: str | None = None,
    saved: str | None = None,
    builtin: str | None = None,
    word_file: Path | None = None,
) -> list[WordRow]:
    """Result rows (see `run_search`) from exactly one source; [] when nothing matches.

    Every source is read against LEX: a `--lexicon` inside a query only tells
    callers which lexicon to open (`parse_query(text).lexicon`).
    """
    given = [s for s in (query, saved, builtin, word_file) if s is not None]
    if len(given) != 1:
        raise LexitrainError("give exactly one word source: a query, a saved search, a built-in list or a word file")
    if word_file is not None:
        return rows_for_words(lex, read_word_file(lex, Path(word_file)))
    return run_search(lex, source_query(query=query, saved=saved, builtin=builtin))


def source_blanks(
    *, query: str | None = None, saved: str | None = None, builtin: str | None = None, word_file: Path | str | None = None
) -> int:
    """The blanks a source's search counts probability with, so a sheet shows
    and a quiz orders by the rank the player asked for (2 for a word file)."""
    return 2 if word_file is not None else source_query(query=query, saved=saved, builtin=builtin).blanks


def source_query(*, query: str | None = None, saved: str | None = None, builtin: str | None = None) -> Query:
    """The search a query, saved search or built-in list stands for."""
    if saved is not None:
        text = load_search(saved)
    elif builtin is not None:
        text = builtin_list(builtin).query
    else:
        text = query or ""
    return parse_query(text)


def read_word_file(lex: Lexicon, path: Path) -> list[str]:
    """Words of a file, one a line (blank lines and `#` comments skipped).

    Every word must be in the lexicon; the bad ones are reported as file:line.
    """
    try:
        lines = path.read_text(encoding="utf-8-sig").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise LexitrainError(f"{path}: cannot read word file ({exc})") from None
    words: list[str] = []
    bad: list[str] = []
    for number, line in enumerate(lines, start=1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        word = text.split()[0].upper()
        if word in lex:
            words.append(lex.tiles.decode(lex.tiles.encode(word)))
        else:
            bad.append(f"{path}:{number}: {word!r} is not in {lex.name}")
    if bad:
        more = f" (and {len(bad) - MAX_BAD_SHOWN} more)" if len(bad) > MAX_BAD_SHOWN else ""
        raise LexitrainError("; ".join(bad[:MAX_BAD_SHOWN]) + more)
    return words
