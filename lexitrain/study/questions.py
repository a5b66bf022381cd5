"""The word question kinds: anagrams, anagrams with hooks, hooks, recall, build.

Keys are what a player would write: an alphagram (`AEINRST`, multi-letter
tiles bracketed), a word, `LENGTH:PREFIX` for recall (`2:A` = the two-letter
words starting with A), `RACK:MIN` for build (`AEINRST:6`). Two- and
three-letter words are studied as anagram questions on their alphagrams (the
built-in twos/threes lists) or as recall by first letter.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import TYPE_CHECKING, Any, Iterable

from lexitrain.errors import LexitrainError
from lexitrain.tiles import BLANK
from lexitrain.study.cards import Check, Question, answer_words, check_words, register_kind

if TYPE_CHECKING:
    from lexitrain.lexicon.lexicon import Lexicon
    from lexitrain.lexicon.rows import WordRow

LETTER_ORDERS = ("alphabetical", "random", "vowels-first")


def letter_order(lex: Lexicon, alphagram: str, order: str, rng: random.Random | None = None) -> str:
    """An alphagram's tiles shown in the chosen order."""
    tiles = lex.tiles
    try:
        letters = tiles.tokenize(alphagram)
    except ValueError as exc:
        raise LexitrainError(f"bad alphagram {alphagram!r}: {exc}") from None
    if order == "random":
        (rng or random.Random()).shuffle(letters)
    elif order == "vowels-first":
        letters.sort(key=lambda t: not tiles.is_vowel(t.upper()))
    elif order != "alphabetical":
        raise LexitrainError(f"unknown letter order {order!r} (use {', '.join(LETTER_ORDERS)})")
    return tiles.spell(letters)


def _code(lex: Lexicon, text: str) -> str:
    code = lex.encode(text)
    if code is None:
        raise LexitrainError(f"{text!r} has letters outside the {lex.tiles.name} tile set")
    return code


def anagram_words(lex: Lexicon, alphagram: str) -> list[str]:
    """Words spelled by exactly these tiles (`?` = a blank), in dictionary order."""
    tiles = lex.tiles
    blanks = alphagram.count(BLANK)
    if blanks > 2:
        raise LexitrainError(f"{alphagram}: at most two blanks")
    racks = [_code(lex, alphagram.replace(BLANK, ""))]
    for _ in range(blanks):
        racks = [rack + code for rack in racks for code in tiles.codes]
    found: set[str] = set()
    for rack in racks:
        found.update(lex.anagram_codes(tiles.alphagram_code(rack)))
    return [tiles.decode(c) for c in sorted(found, key=tiles.sort_key)]


def hook_words(lex: Lexicon, word: str) -> list[str]:
    """Front-hook words then back-hook words of a word (empty if not a word)."""
    row = lex.row(word)
    if row is None:
        return []
    front = [tile + word for tile in lex.tiles.tokenize(row["front_hooks"])]
    back = [word + tile for tile in lex.tiles.tokenize(row["back_hooks"])]
    return front + back


class AnagramKind:
    name = "anagram"
    description = "alphagram shown: type every anagram"

    def build(self, lex: Lexicon, key: str, order: str = "alphabetical") -> Question:
        words = anagram_words(lex, key)
        if not words:
            raise LexitrainError(f"{key} has no anagrams in {lex.name}")
        return Question(self.name, key, letter_order(lex, key, order), tuple(words),
                        {"length": len(lex.tiles.tokenize(key))})

    def check(self, question: Question, answer: str) -> Check:
        return check_words(question.expected, *answer_words(answer))


class AnagramHooksKind(AnagramKind):
    name = "anagram-hooks"
    description = "alphagram shown: type every anagram and every word its hooks make"

    def build(self, lex: Lexicon, key: str, order: str = "alphabetical") -> Question:
        base = super().build(lex, key, order)
        words = list(base.expected)
        for word in base.expected:
            words += hook_words(lex, word)
        return Question(self.name, key, base.prompt, tuple(words), {**base.info, "anagrams": len(base.expected)})


class HooksKind:
    name = "hooks"
    description = "word shown: type its hook words (SCARE CARED) or the hooks as S- -D"

    def build(self, lex: Lexicon, key: str, order: str = "alphabetical") -> Question:
        word = key.upper()
        if word not in lex:
            raise LexitrainError(f"{key} is not a word in {lex.name}")
        return Question(self.name, word, word, tuple(hook_words(lex, word)), {"length": len(word)})

    def check(self, question: Question, answer: str) -> Check:
        words, repeats = answer_words(answer)
        spelled: list[str] = []
        for token in words:
            if token.endswith("-") and len(token) > 1:
                token = token[:-1] + question.key
            elif token.startswith("-") and len(token) > 1:
                token = question.key + token[1:]
            (repeats.append(token) if token in spelled else spelled.append(token))
        return check_words(question.expected, spelled, repeats)


class RecallKind(AnagramKind):
    name = "recall"
    description = "LENGTH:PREFIX shown: type every word of that length starting so"

    def build(self, lex: Lexicon, key: str, order: str = "alphabetical") -> Question:
        length_text, _, prefix = key.partition(":")
        if not length_text.isdigit():
            raise LexitrainError(f"bad recall key {key!r}: expected LENGTH:PREFIX such as 2:A")
        length = int(length_text)
        tiles = lex.tiles
        codes = [c for c in lex.trie.keys(_code(lex, prefix)) if len(c) == length]
        words = tuple(tiles.decode(c) for c in sorted(codes, key=tiles.sort_key))
        prompt = f"{length}-letter words starting with {prefix.upper()}" if prefix else f"{length}-letter words"
        return Question(self.name, f"{length}:{prefix.upper()}", prompt, words, {"length": length})


class BuildKind(AnagramKind):
    name = "build"
    description = "RACK:MIN shown: type every word of MIN or more letters the rack makes"

    def build(self, lex: Lexicon, key: str, order: str = "alphabetical") -> Question:
        rack, _, min_text = key.partition(":")
        minimum = int(min_text) if min_text.isdigit() else 2
        tiles = lex.tiles
        code = tiles.alphagram_code(_code(lex, rack))
        found: set[str] = set()
        for size in range(max(minimum, 2), len(code) + 1):
            for subset in set(combinations(code, size)):
                found.update(lex.anagram_codes("".join(subset)))
        if not found:
            raise LexitrainError(f"{rack} makes no words of {minimum}+ letters in {lex.name}")
        words = sorted(found, key=lambda c: (-len(c), tiles.sort_key(c)))
        prompt = f"{letter_order(lex, tiles.display_alphagram(code), order)} ({minimum}+)"
        return Question(self.name, f"{tiles.display_alphagram(code)}:{minimum}", prompt,
                        tuple(tiles.decode(c) for c in words), {"length": len(code), "minimum": minimum})


for _kind in (AnagramKind(), AnagramHooksKind(), HooksKind(), RecallKind(), BuildKind()):
    register_kind(_kind)

WORD_KINDS = ("anagram", "anagram-hooks", "hooks", "recall", "build")


def keys_from_results(
    results: Iterable[WordRow], kind: str, build_minimum: int = 2, by_probability: bool = True, blanks: int = 2
) -> list[str]:
    """Card keys for a kind from search results, no repeats.

    In probability order by default (shorter words first, then most probable
    alphagram, then word, ranks counted with `blanks` blanks as the source's
    search asks), else in the results' own order.
    """
    rows = list(results)
    if by_probability:
        rows.sort(key=lambda r: (r["length"], r["alphagram_ranks"][blanks], r["probability_ranks"][blanks], r["word"]))
    keys: dict[str, None] = {}
    for row in rows:
        word = row["word"]
        if kind in ("anagram", "anagram-hooks"):
            keys[row["alphagram"]] = None
        elif kind == "hooks":
            keys[word] = None
        elif kind == "recall":
            keys[f"{row['length']}:{word[0]}"] = None
        elif kind == "build":
            keys[f"{row['alphagram']}:{build_minimum}"] = None
        else:
            raise LexitrainError(f"question kind {kind!r} cannot be made from a word list")
    return list(keys)
