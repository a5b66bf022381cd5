"""Where quiz questions come from: the search layer's sources, with an empty result refused."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lexitrain.errors import LexitrainError

if TYPE_CHECKING:
    from lexitrain.lexicon.lexicon import Lexicon
    from lexitrain.lexicon.rows import WordRow


def question_results(
    lex: Lexicon,
    *,
    query: str | None = None,
    saved: str | None = None,
    builtin: str | None = None,
    word_file: str | None = None,
) -> list[WordRow]:
    """Search results for exactly one source; nothing to ask is an error worth saying."""
    from lexitrain.search.sources import results_from_source

    results = results_from_source(lex, query=query, saved=saved, builtin=builtin, word_file=word_file)
    if not results:
        label, value = next((label, value) for label, value in (
            ("search", query), ("saved search", saved), ("list", builtin), ("word file", word_file)) if value is not None)
        raise LexitrainError(f"the {label} {value!r} gives no words in {lex.name}: nothing to quiz")
    return results
