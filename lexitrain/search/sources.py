"""Where a word list comes from: a query, a saved search, a built-in list, a file, or
search conditions typed straight on a command (which may also narrow the first three)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.lexicon.rows import WordRow
from lexitrain.search.execute import found_at_most, rows_for_words, run_search
from lexitrain.search.lists import builtin_list
from lexitrain.search.query import Query, described, parse_query
from lexitrain.search.saved import load_search
from lexitrain.search.word_files import word_lines

MAX_BAD_SHOWN = 3

#: Told the words of a word file that were skipped (as `file:line: 'WORD' is not in LEXICON`).
SkipReport = Callable[[list[str]], None]


@dataclass(frozen=True)
class WordFile:
    """The valid words of a file, in file order, and a line for each word left out."""

    words: list[str]
    skipped: list[str] = field(default_factory=list)


def results_from_source(
    lex: Lexicon,
    *,
    query: str | None = None,
    saved: str | None = None,
    builtin: str | None = None,
    word_file: Path | str | None = None,
    conditions: str | Sequence[str] | None = None,
    skipped: SkipReport | None = None,
    most: int | None = None,
) -> list[WordRow]:
    """Result rows (see `run_search`) from one source; [] when nothing matches; a source of more than MOST
    words (None: any) refused in one line (`check_most`; a search's told from MOST + 1 of its matches).

    `conditions` are search options typed on the command itself (`--length 7
    --probability 1-100`, as tokens or one text): alone they are the source, beside a query, saved
    search or built-in list they narrow it. With `skipped`, words of a word
    file that are not in LEX are left out and handed to it; without, they are
    an error. Every source is read against LEX: a `--lexicon` inside a query
    only tells callers which lexicon to open (`source_query(...).lexicon`).
    """
    if word_file is not None:
        if query is not None or saved is not None or builtin is not None or conditions:
            raise LexitrainError(_ONE_SOURCE + (
                " (to keep the words of a file that meet conditions, use --in-word-list FILE)" if conditions else ""))
        found = read_word_file(lex, Path(word_file), skip_invalid=skipped is not None)
        if found.skipped and skipped is not None:
            skipped(found.skipped)
        check_most(len(found.words), most, "word file")
        return rows_for_words(lex, found.words)
    searched = source_query(query=query, saved=saved, builtin=builtin, conditions=conditions)
    if most is None:
        return run_search(lex, searched)
    within = found_at_most(lex, searched, most)
    if within is None:  # told from MOST + 1 matches: a refusal reads no more (its exact count would read them all)
        raise _too_many("search" if builtin is None else "list", f"more than {most:,}", most)
    return within[1]


def check_most(count: int, most: int | None, source: str) -> None:
    """Refuse a SOURCE of COUNT words when it is more than MOST (None: any), in one line: the words a face
    makes a wall or sheet of (a club's cap: `Context.most_words`)."""
    if most is not None and count > most:
        raise _too_many(source, f"{count:,}", most)


def _too_many(source: str, count: str, most: int) -> LexitrainError:
    return LexitrainError(f"the {source} gives {count} words: a wall or sheet here holds at most {most:,} "
                          f"(narrow it, or limit it to {most:,})")


_ONE_SOURCE = "give exactly one word source: a query, a saved search, a built-in list or a word file"


def source_blanks(
    *, query: str | None = None, saved: str | None = None, builtin: str | None = None,
    word_file: Path | str | None = None, conditions: str | Sequence[str] | None = None,
) -> int:
    """The blanks a source's search counts probability with, so a sheet shows
    and a quiz orders by the rank the player asked for (2 for a word file)."""
    if word_file is not None:
        return 2
    return source_query(query=query, saved=saved, builtin=builtin, conditions=conditions).blanks


def described_source(
    *, query: str | None = None, saved: str | None = None, builtin: str | None = None,
    word_file: Path | str | None = None, conditions: str | Sequence[str] | None = None,
) -> str:
    """A source in words, for a title a player reads rather than the options typed: a built-in
    list's own title, a query's conditions in words, a saved search's or a word file's name, and
    the conditions narrowing it in brackets (alone, just those); "" when none says anything."""
    more = described(parse_query(conditions)) if conditions else ""
    if builtin is not None:
        about = builtin_list(builtin).title
    else:
        about = (described(parse_query(query)) if query else "") or saved or (Path(word_file).name if word_file else "")
    if not about:
        return more
    return f"{about} ({more})" if more else about


def source_query(
    *, query: str | None = None, saved: str | None = None, builtin: str | None = None,
    conditions: str | Sequence[str] | None = None,
) -> Query:
    """The search a query, saved search or built-in list stands for, narrowed by CONDITIONS
    (or CONDITIONS alone). Exactly one of the first three, or conditions alone."""
    given = [text for text in (query, saved, builtin) if text is not None]
    if len(given) > 1 or not (given or conditions):
        raise LexitrainError(_ONE_SOURCE)
    if saved is not None:
        found = parse_query(load_search(saved))
    elif builtin is not None:
        found = parse_query(builtin_list(builtin).query)
    else:
        found = parse_query(query or "")
    if conditions:
        found = found.narrowed(parse_query(conditions))
    return found


def read_word_file(lex: Lexicon, path: Path, skip_invalid: bool = False) -> WordFile:
    """Words of a file, one a line (blank lines and `#` comments skipped).

    Every word must be in the lexicon: the bad ones are an error naming them as
    file:line and the option that leaves them out, or with `skip_invalid` they
    are left out and listed in `skipped`.
    A file that is not text (binary, not UTF-8) is a one-line error either way.
    """
    words: list[str] = []
    bad: list[str] = []
    for number, word in word_lines(path):
        if word in lex:
            words.append(lex.tiles.decode(lex.tiles.encode(word)))
        else:
            bad.append(f"{path}:{number}: {word!r} is not in {lex.name}")
    if bad and not skip_invalid:
        more = f" (and {len(bad) - MAX_BAD_SHOWN} more)" if len(bad) > MAX_BAD_SHOWN else ""
        raise LexitrainError("; ".join(bad[:MAX_BAD_SHOWN]) + more
                             + " (--skip-invalid leaves them out and uses the rest)")
    return WordFile(words, bad)
