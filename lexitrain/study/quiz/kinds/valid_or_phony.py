"""The `valid-or-phony` kind: a word shown, the player says whether the lexicon has it.

Keyed by the word shown: a phony a player put down in a game (`study
from-games`) is its own key. To be drilled on its own, the kind draws
plausible phonies from real words: the key `~WORD` of a word from a search or
a list shows either WORD itself or a string one step from it that the lexicon
lacks, either a wrong inflection (`lexicon/phonies.py`) (-S, -ED, -ING, -ER added as English adds
them, or one ending swapped for another) or one letter changed for a common
one of its kind (vowel for vowel, consonant for consonant). Which, and the
string drawn, are seeded by WORD, so a card always shows the same string and
about half the words come up as phonies; the key (and so the question line)
does not say which.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence

from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.lexicon.phonies import inflections
from lexitrain.lexicon.rows import WordRow
from lexitrain.study.quiz.kinds.base import CHOICE, Check, Question, register_kind

VALID, PHONY = "VALID", "PHONY"
#: what a player may type for each verdict
ANSWERS = {"V": VALID, "VALID": VALID, "Y": VALID, "YES": VALID, "GOOD": VALID,
           "P": PHONY, "PHONY": PHONY, "PHONEY": PHONY, "N": PHONY, "NO": PHONY, "X": PHONY}
#: the mark of a key asking a phony drawn from a word
DRAWN = "~"
#: the longest phony drawn, in tiles (a board's width)
LONGEST = 15
#: a letter change puts in only tiles the set holds this many of (no J, K, Q, X, Z in English)
COMMON = 3


def _seed(word: str) -> random.Random:
    """A generator seeded by the word alone (SHA-256: the same on every run and machine)."""
    return random.Random(int.from_bytes(hashlib.sha256(f"valid-or-phony|{word}".encode()).digest()[:8], "big"))


def letter_changes(lex: Lexicon, word: str) -> list[str]:
    """WORD with one tile changed for a common one of its kind (vowel for vowel, consonant for
    consonant): a J or a Z where none belongs gives a phony away."""
    tiles = lex.tiles
    common = [t for t, n in zip(tiles.letters, tiles.counts) if n >= COMMON]
    spelled = tiles.tokenize(word)
    out = []
    for i, tile in enumerate(spelled):
        vowel = tiles.is_vowel(tile)
        for other in common:
            if other != tile and tiles.is_vowel(other) == vowel:
                out.append(tiles.spell(spelled[:i] + [other] + spelled[i + 1:]))
    return out


def draw_phony(lex: Lexicon, word: str) -> tuple[str, str]:
    """A plausible phony made from WORD and how it was made; a one-line error when none is found."""
    rng = _seed(DRAWN + word)  # not the stream that chose to draw a phony at all
    ways = [("a wrong inflection", inflections(word)), ("one letter changed", letter_changes(lex, word))]
    if rng.random() < 0.5:
        ways.reverse()
    for how, candidates in ways:
        rng.shuffle(candidates)
        for candidate in candidates:
            if 2 <= len(lex.tiles.tokenize(candidate)) <= LONGEST and candidate not in lex:
                return candidate, how
    raise LexitrainError(f"no phony can be drawn from {word} in {lex.name}")


class ValidOrPhonyKind:
    name = "valid-or-phony"
    description = "a word shown: type v if the lexicon has it, p if it is a phony"
    takes_minimum = False

    def keys_from_rows(self, rows: Sequence[WordRow], minimum: int = 2) -> list[str] | None:
        return [DRAWN + row["word"] for row in rows]

    def keys_from_alphagrams(self, alphagrams: Sequence[str], minimum: int = 2) -> list[str] | None:
        return None

    def key_from_text(self, lex: Lexicon, text: str) -> str:
        return text.strip().upper()

    def build(self, lex: Lexicon, key: str, order: str = "alphabetical") -> Question:
        made: dict[str, object] = {}  # how a drawn phony was made: it would give the answer away before it
        shown = key
        if key.startswith(DRAWN):
            source = shown = key[len(DRAWN):]
            if _seed(source).random() >= 0.5:  # asked as a phony drawn from it
                shown, how = draw_phony(lex, source)
                made.update({"from": source, "how": how})
        try:
            length = len(lex.tiles.tokenize(shown))
        except ValueError as exc:
            raise LexitrainError(f"bad word {shown!r}: {exc}") from None
        verdict = VALID if shown in lex else PHONY
        info = {"word": shown, "length": length, "choices": ["valid", "phony"]}
        return Question(self.name, key, f"{shown}: valid or phony?", (verdict,), info, hint=CHOICE, about=(shown,),
                        withheld=made)

    def check(self, question: Question, answer: str) -> Check:
        given = answer.strip().upper()
        expected = question.expected[0]
        word = question.info["word"]
        details = {"word": word, "valid": expected == VALID,
                   "verdict": f"{word} is {'valid' if expected == VALID else 'a phony'}"
                              + (f" ({question.withheld['how']} from {question.withheld['from']})"
                                 if "from" in question.withheld else ""), **question.withheld}
        if given and given not in ANSWERS:
            return Check(False, (), (), (), details=details, refused="answer v (valid) or p (phony)")
        verdict = ANSWERS.get(given)
        correct = verdict == expected
        return Check(correct, (expected,) if correct else (), (verdict,) if verdict and not correct else (),
                     () if correct else (expected,), details=details)

    def asking_words(self, question: Question) -> tuple[str, ...] | None:
        return None  # a phony is no word a word list can hold

    def sheet_prompt(self, question: Question) -> str:
        return question.prompt

    def sheet_words(self, question: Question) -> tuple[str, ...]:
        return question.about if question.expected == (VALID,) else ()


register_kind(ValidOrPhonyKind)
