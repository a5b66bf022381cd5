"""The `recall` kind: `LENGTH:PREFIX` shown (`2:A` = the two-letter words starting with A), every such word typed."""

from __future__ import annotations

from collections.abc import Sequence

from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.lexicon.rows import WordRow
from lexitrain.study.quiz.kinds.base import Question, register_kind
from lexitrain.study.quiz.kinds.words import WordKind, tile_codes


class RecallKind(WordKind):
    name = "recall"
    description = "LENGTH:PREFIX shown: type every word of that length starting so"

    def keys_from_rows(self, rows: Sequence[WordRow], minimum: int = 2) -> list[str] | None:
        return [f"{row['length']}:{row['word'][0]}" for row in rows]

    def build(self, lex: Lexicon, key: str, order: str = "alphabetical") -> Question:
        length_text, _, prefix = key.partition(":")
        if not length_text.isdigit():
            raise LexitrainError(f"bad recall key {key!r}: expected LENGTH:PREFIX such as 2:A")
        length = int(length_text)
        tiles = lex.tiles
        codes = [c for c in lex.trie.keys(tile_codes(lex, prefix)) if len(c) == length]
        words = tuple(tiles.decode(c) for c in sorted(codes, key=tiles.sort_key))
        prompt = f"{length}-letter words starting with {prefix.upper()}" if prefix else f"{length}-letter words"
        return Question(self.name, f"{length}:{prefix.upper()}", prompt, words, {"length": length})


register_kind(RecallKind)
