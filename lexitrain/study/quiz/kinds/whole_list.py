"""The `whole-list` kind: a list named, every word of it typed (all the twos, a search's words).

Keyed by the source the words come from, `list:NAME`, `search:QUERY`,
`saved:NAME` or `file:PATH`, so the card asks the list as it is when asked;
the result's `missing` names the words not recalled. `quiz SOURCE --whole`
asks it.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.lexicon.rows import WordRow
from lexitrain.study.quiz.kinds.base import Question, register_kind
from lexitrain.study.quiz.kinds.words import WordKind
from lexitrain.study.quiz.sources import question_results

SOURCES = ("list", "search", "saved", "file")  # key prefixes: --list, --search, --saved, --file


def source_key(lex: Lexicon, *, query: str | None = None, saved: str | None = None, builtin: str | None = None,
               word_file: Path | None = None) -> str:
    """The key of one source's whole list (refused when the source gives no words)."""
    question_results(lex, query=query, saved=saved, builtin=builtin, word_file=word_file)
    given = {"list": builtin, "search": query, "saved": saved, "file": word_file and str(word_file.resolve())}
    prefix, value = next((p, v) for p, v in given.items() if v is not None)
    return f"{prefix}:{value}"


class WholeListKind(WordKind):
    name = "whole-list"
    description = "a list named (list:twos, search:..., saved:..., file:...): type every word of it"

    def keys_from_rows(self, rows: Sequence[WordRow], minimum: int = 2) -> list[str] | None:
        raise LexitrainError("a whole list is one question: ask it with `quiz --list NAME --whole` "
                             "(or --search, --saved, --file)")

    def build(self, lex: Lexicon, key: str, order: str = "alphabetical") -> Question:
        prefix, _, value = key.partition(":")
        if prefix not in SOURCES or not value:
            raise LexitrainError(f"bad whole-list key {key!r}: expected list:NAME, search:QUERY, saved:NAME or file:PATH")
        rows = question_results(lex, builtin=value if prefix == "list" else None,
                                query=value if prefix == "search" else None,
                                saved=value if prefix == "saved" else None,
                                word_file=Path(value) if prefix == "file" else None)
        tiles = lex.tiles
        ordered = sorted(rows, key=lambda row: (row["length"], tiles.sort_key(tiles.encode(row["word"]))))
        words = list(dict.fromkeys(row["word"] for row in ordered))
        return Question(self.name, key, f"every word of {prefix} {value}", tuple(words), {"words": len(words)})

    def sheet_prompt(self, question: Question) -> str:
        return question.prompt


register_kind(WholeListKind)
