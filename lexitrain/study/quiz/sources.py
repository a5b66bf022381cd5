"""Where quiz questions come from: the search layer's sources (an empty result refused), made into card keys."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.lexicon.rows import WordRow
from lexitrain.search.execute import facts_missing
from lexitrain.search.query import parse_query
from lexitrain.search.sources import SkipReport, results_from_source
from lexitrain.study.quiz.kinds.base import QuestionKind


def question_results(
    lex: Lexicon,
    *,
    query: str | None = None,
    saved: str | None = None,
    builtin: str | None = None,
    word_file: Path | None = None,
    conditions: Sequence[str] = (),
    skipped: SkipReport | None = None,
    most: int | None = None,
) -> list[WordRow]:
    """Search results for exactly one source, or search conditions (alone, or narrowing a query,
    saved search or built-in list); nothing to ask is an error worth saying. With `skipped`, the
    words of a word file not in LEX are left out and handed to it; a source of more than MOST words is refused
    (see `results_from_source`)."""
    results = results_from_source(lex, query=query, saved=saved, builtin=builtin, word_file=word_file,
                                  conditions=conditions, skipped=skipped, most=most)
    if not results:
        label, value = next(((label, value) for label, value in (
            ("search", query), ("saved search", saved), ("list", builtin), ("word file", word_file)) if value is not None),
            ("search", ""))

        if conditions:
            value = " ".join(part for part in (str(value or ""), parse_query(conditions).text()) if part)
        why = facts_missing(lex, parse_query(str(value))) if label == "search" else []
        raise LexitrainError(f"the {label} {str(value)!r} gives no words in {lex.name}: nothing to quiz"
                             + "".join(f"; {note}" for note in why))
    return results


def question_keys(
    kind: QuestionKind, rows: Sequence[WordRow], minimum: int = 2, by_probability: bool = True, blanks: int = 2
) -> list[str]:
    """Card keys of a kind for search results, no repeats.

    In probability order by default (shorter words first, then most probable
    alphagram, then word, ranks counted with `blanks` blanks as the source's
    search asks), else in the results' own order.
    """
    ordered = list(rows)
    if by_probability:
        ordered.sort(key=lambda r: (r["length"], r["alphagram_ranks"][blanks], r["probability_ranks"][blanks], r["word"]))
    keys = kind.keys_from_rows(ordered, minimum)
    if keys is None:
        raise LexitrainError(f"question kind {kind.name!r} cannot be made from a word list")
    return list(dict.fromkeys(keys))
