"""What the word kinds share: answers are words, read from a line and checked word by word.

Keys are what a player would write: an alphagram (`AEINRST`, multi-letter
tiles bracketed), a word, `LENGTH:PREFIX` for recall, `RACK:MIN` for build.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.search.judging import typed_words
from lexitrain.study.quiz.kinds.base import Check, Question
from lexitrain.tiles import BLANK

LETTER_ORDERS = ("alphabetical", "random", "vowels-first", "consonants-first")


def answer_words(answer: str) -> tuple[list[str], list[str]]:
    """Words of an answer line, uppercased, first occurrences in order, and the repeats."""
    words: list[str] = []
    repeats: list[str] = []
    for word in typed_words(answer):
        (repeats if word in words else words).append(word)
    return words, repeats


def check_words(expected: tuple[str, ...], given: list[str], repeats: Sequence[str] = ()) -> Check:
    """Right when every expected word is given and nothing else; repeats are harmless."""
    wanted = set(expected)
    right = tuple(w for w in given if w in wanted)
    wrong = tuple(w for w in given if w not in wanted)
    found = set(right)
    missing = tuple(w for w in expected if w not in found)
    return Check(not wrong and not missing, right, wrong, missing, tuple(repeats))


def check_letter_order(order: str) -> str:
    if order not in LETTER_ORDERS:
        raise LexitrainError(f"unknown letter order {order!r} (use {', '.join(LETTER_ORDERS)})")
    return order


def letter_order(lex: Lexicon, alphagram: str, order: str, rng: random.Random | None = None) -> str:
    """An alphagram's tiles shown in the chosen order (Zyzzyva's four: vowels or consonants
    first keep each group alphabetical; blanks stay last)."""
    tiles = lex.tiles
    try:
        letters = tiles.tokenize(alphagram)
    except ValueError as exc:
        raise LexitrainError(f"bad alphagram {alphagram!r}: {exc}") from None
    if check_letter_order(order) == "random":
        (rng or random.Random()).shuffle(letters)
    elif order == "vowels-first":
        letters.sort(key=lambda t: not tiles.is_vowel(t.upper()))
    elif order == "consonants-first":
        letters.sort(key=lambda t: (t == BLANK, tiles.is_vowel(t.upper())))
    return tiles.spell(letters)


def tile_codes(lex: Lexicon, text: str) -> str:
    """The lexicon's tile codes for letters a player wrote (a one-line error for letters outside its tiles)."""
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
    racks = [tile_codes(lex, alphagram.replace(BLANK, ""))]
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


class WordKind:
    """The defaults of a word kind: its questions are typed words (rendered as LETTERS,
    Question's default), checked against the answers, which also make its missed-word
    list and its sheet entry. A kind adds `build` and `keys_from_rows`, and changes what differs."""

    name: str
    description: str
    takes_minimum = False

    def keys_from_alphagrams(self, alphagrams: Sequence[str], minimum: int = 2) -> list[str] | None:
        return None

    def key_from_text(self, lex: Lexicon, text: str) -> str:
        return text.upper()

    def check(self, question: Question, answer: str) -> Check:
        return check_words(question.expected, *answer_words(answer))

    def asking_words(self, question: Question) -> tuple[str, ...] | None:
        return question.expected

    def sheet_prompt(self, question: Question) -> str:
        return f"{self.name}: {question.prompt}"

    def sheet_words(self, question: Question) -> tuple[str, ...]:
        return question.expected
