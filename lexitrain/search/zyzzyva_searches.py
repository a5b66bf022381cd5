"""Zyzzyva's saved searches (`.zzs`) and saved quizzes (`.zzq`), read as lexitrain searches.

Both are XML as Zyzzyva writes them (its SearchSpec.cpp, SearchCondition.cpp and QuizSpec.cpp):
a search is `<zyzzyva-search><conditions><and>` (or `<or>`) holding one `<condition type="..."/>`
each, with `string`, `min`, `max`, `int` (blanks), `bool` (lax) and `negated` as the type takes them,
the older spellings Zyzzyva still reads included (`Must Include`, `Exact Length`, ...). A quiz is
`<zyzzyva-quiz type= method= lexicon=>` with a `<question-source type="search">` holding a search
(or the cardbox's questions, or random letters). Each condition becomes the lexitrain condition of
Zyzzyva's meaning (the table of docs/search.md); a search with one that has none here is not
carried over, and says which. An In Word List condition holds its words inline: they are handed to
the caller, which keeps them as a word file.
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from lexitrain.errors import LexitrainError
from lexitrain.lexicon.catalog import compiled_match
from lexitrain.search.groups import ZYZZYVA_NAMES
from lexitrain.search.query import OR, Query, parse_query

#: the largest saved search or quiz file read (Zyzzyva's are a few hundred bytes; an inline word list more)
MAX_BYTES = 1 << 20
#: conditions on a text, by Zyzzyva's type: (lexitrain option, option when negated)
_TEXTS = {
    "Pattern Match": ("pattern", "not-pattern"), "Anagram Match": ("anagram", "not-anagram"),
    "Subanagram Match": ("subanagram", "not-subanagram"), "Takes Prefix": ("takes-prefix", "not-takes-prefix"),
    "Takes Suffix": ("takes-suffix", "not-takes-suffix"), "Includes Letters": ("includes", "excludes"),
    "Must Include": ("includes", "excludes"), "Part of Speech": ("part-of-speech", "not-part-of-speech"),
    "Definition": ("definition", "not-definition"),
}
#: conditions on a count, by Zyzzyva's type
_COUNTS = {"Length": "length", "Number of Anagrams": "anagrams", "Number of Vowels": "vowels",
           "Number of Unique Letters": "unique-letters", "Point Value": "points"}
#: older types Zyzzyva reads as another (SearchCondition::fromDomElement)
_OLD_NEGATED = {"Does Not Take Prefix": "Takes Prefix", "Does Not Take Suffix": "Takes Suffix",
                "Must Exclude": "Includes Letters", "Must Not Be in Word List": "In Word List"}
_OLD_NUMBERS = {"Exact Length": ("length", "exact"), "Minimum Length": ("length", "min"),
                "Maximum Length": ("length", "max"), "Exact Anagrams": ("anagrams", "exact"),
                "Minimum Anagrams": ("anagrams", "min"), "Maximum Anagrams": ("anagrams", "max")}


class NotCarried(LexitrainError):
    """A Zyzzyva search or quiz lexitrain cannot carry over as it means, and why."""


@dataclass(frozen=True)
class SavedQuiz:
    """A Zyzzyva saved quiz: its quiz type, the lexicon it names, and the search its questions come from."""

    quiz_type: str
    lexicon: str
    query: Query


def read_search(path: Path, word_file: Callable[[list[str]], Path]) -> Query:
    """A `.zzs` file as a lexitrain search; `word_file` keeps an In Word List condition's words."""
    return search_query(_root(path, "zyzzyva-search"), word_file)


def read_quiz(path: Path, word_file: Callable[[list[str]], Path]) -> SavedQuiz:
    """A `.zzq` file: its type, lexicon and search (a quiz of the cardbox's questions or of random letters
    has no search: not carried)."""
    root = _root(path, "zyzzyva-quiz")
    source = root.find("question-source")
    kind = source.get("type", "") if source is not None else ""
    if kind == "cardbox-ready":
        raise NotCarried("a quiz of the questions the cardbox has ready: the cardbox itself comes over as cards")
    if kind == "random-letters":
        raise NotCarried("a quiz of random letters: it holds no words to keep")
    search = source.find("zyzzyva-search") if source is not None else None
    if kind != "search" or search is None:
        raise NotCarried(f"its question source {kind or '(none)'} is not a search")
    return SavedQuiz(root.get("type", ""), root.get("lexicon", ""), search_query(search, word_file))


def _root(path: Path, tag: str) -> ElementTree.Element:
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise NotCarried(f"cannot read it ({exc.strerror or exc})") from None
    if len(data) > MAX_BYTES:
        raise NotCarried(f"larger than {MAX_BYTES >> 10} KB: not a file Zyzzyva writes")
    try:
        root = ElementTree.fromstring(data)
    except ElementTree.ParseError as exc:
        raise NotCarried(f"not Zyzzyva's XML ({exc})") from None
    if root.tag != tag:
        raise NotCarried(f"its XML is a <{root.tag}>, not a <{tag}>")
    return root


def search_query(root: ElementTree.Element, word_file: Callable[[list[str]], Path]) -> Query:
    """A `<zyzzyva-search>` element as a lexitrain search, its conditions joined as Zyzzyva joins them."""
    joined = root.find("conditions/and")
    either = joined is None
    if either:
        joined = root.find("conditions/or")
    if joined is None or not len(joined):
        raise NotCarried("it holds no conditions")
    reader = _Reader(word_file)
    groups = [reader.condition(element) for element in joined if element.tag == "condition"]
    groups = [tokens for tokens in groups if tokens]
    if not groups:
        raise NotCarried("it holds no condition lexitrain tests")
    tokens: list[str] = []
    for i, group in enumerate(groups):  # <and>: one group of every condition; <or>: a group each
        tokens += ([OR] if either and i else []) + group
    try:
        return parse_query(tokens + reader.settings())
    except LexitrainError as exc:
        raise NotCarried(f"its conditions do not read here ({exc})") from None


#: the condition types that ask whether a word belongs to something (a group, a lexicon, a list of words)
_MEMBERSHIPS = ("Belongs to Group", "Must Belong to", "In Lexicon", "In Word List", "Must Be in Word List")
#: the condition types that ask for a range of probability or playability order
_ORDERS = ("Probability Order", "Limit by Probability Order", "Playability Order")


class _Reader:
    """Zyzzyva's conditions one by one, the settings they need (blanks, per-word ranks) gathered once."""

    def __init__(self, word_file: Callable[[list[str]], Path]) -> None:
        self.word_file = word_file
        self.blanks: set[int] = set()

    def settings(self) -> list[str]:
        if len(self.blanks) > 1:
            raise NotCarried("its probability conditions count different numbers of blanks")
        return ["--probability-by", "word", "--blanks", str(self.blanks.pop())] if self.blanks else []

    def condition(self, element: ElementTree.Element) -> list[str]:
        """The lexitrain tokens of one condition ([] for one Zyzzyva itself never tests)."""
        kind = element.get("type", "")
        text = element.get("string", "")
        negated = element.get("negated", "0") not in ("0", "false", "")
        if kind in _OLD_NEGATED:
            kind, negated = _OLD_NEGATED[kind], True
        if kind in _TEXTS:
            if not text:
                raise NotCarried(f"its {kind} condition has no text")
            return [f"--{_TEXTS[kind][negated]}", text]
        if kind in _COUNTS:
            return [f"--{_COUNTS[kind]}", self._range(element, kind)]
        if kind in _OLD_NUMBERS:
            name, how = _OLD_NUMBERS[kind]
            number = self._whole(element, "number", kind)
            return [f"--{name}", {"exact": str(number), "min": f"{number}-", "max": f"-{number}"}[how]]
        if kind in ("Consists of", "Must Consist of"):  # an older file gives `percent` (to 100)
            low = self._whole(element, "percent" if element.get("percent") else "min", kind)
            high = 100 if element.get("percent") else self._whole(element, "max", kind)
            return ["--consists-of", f"{text}:{low}-{high}"]
        if kind in _MEMBERSHIPS:
            return self._membership(kind, text, negated)
        if kind in _ORDERS:
            return self._order(element, kind)
        if kind == "Probability":  # an old type Zyzzyva reads but never tests: nothing to carry
            return []
        if kind == "Limit by Playability Order":
            raise NotCarried("its Limit by Playability Order has no lexitrain condition (--playability N-M keeps "
                             "the most played words of each length)")
        raise NotCarried(f"its condition type {kind!r} is not one Zyzzyva writes")

    def _membership(self, kind: str, text: str, negated: bool) -> list[str]:
        """A word's membership: of a built-in group, a lexicon compiled here, or a list of words (written to a
        word file)."""
        prefix = "--not-" if negated else "--"
        if kind in ("Belongs to Group", "Must Belong to"):
            if text not in ZYZZYVA_NAMES:
                raise NotCarried(f"its group {text!r} is not one lexitrain has")
            return [f"{prefix}group", ZYZZYVA_NAMES[text]]
        if kind == "In Lexicon":
            found = compiled_match(text)
            if found is None:
                raise NotCarried(f"its In Lexicon condition names {text}, which is not compiled here")
            return [f"{prefix}in-lexicon", found]
        words = text.split()
        if not words:
            raise NotCarried("its In Word List condition holds no words")
        return [f"{prefix}in-word-list", str(self.word_file(words))]

    def _order(self, element: ElementTree.Element, kind: str) -> list[str]:
        """A range of probability or playability order; a probability's blanks are gathered for the settings."""
        if kind == "Playability Order":
            return ["--playability", self._range(element, kind)]
        self.blanks.add(self._whole(element, "int", kind) if element.get("int") else 2)  # (Zyzzyva's default)
        lax = "-lax" if element.get("bool") == "true" else ""
        name = "probability" if kind == "Probability Order" else "limit-probability"
        return [f"--{name}{lax}", self._range(element, kind)]

    @staticmethod
    def _whole(element: ElementTree.Element, name: str, kind: str) -> int:
        try:
            return int(element.get(name) or "")
        except ValueError:
            raise NotCarried(f"its {kind} condition's {name} is not a number") from None

    def _range(self, element: ElementTree.Element, kind: str) -> str:
        low, high = self._whole(element, "min", kind), self._whole(element, "max", kind)
        if low < 0 or high < low:
            raise NotCarried(f"its {kind} condition's range {low}-{high} is empty")
        return str(low) if low == high else f"{low}-{high}"
