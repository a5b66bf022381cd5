"""Where quiz questions come from: the search layer's sources, checked for emptiness."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lexitrain.errors import LexitrainError

if TYPE_CHECKING:
    from lexitrain.lexicon.lexicon import Lexicon


def question_results(
    lex: Lexicon,
    *,
    query: str | None = None,
    saved: str | None = None,
    builtin: str | None = None,
    word_file: str | None = None,
) -> list[dict[str, Any]]:
    """Search results for exactly one source; an empty result is an error worth saying."""
    given = {"search": query, "saved search": saved, "list": builtin, "word file": word_file}
    named = [(label, value) for label, value in given.items() if value]
    if len(named) != 1:
        raise LexitrainError("give exactly one question source: a search, a saved search, a list or a word file")
    from lexitrain.search.sources import results_from_source

    results = results_from_source(lex, query=query, saved=saved, builtin=builtin,
                                  word_file=str(word_file) if word_file else None)
    if not results:
        label, value = named[0]
        raise LexitrainError(f"the {label} {value!r} gives no words in {lex.name}: nothing to quiz")
    return results
