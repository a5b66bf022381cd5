"""The search query model and its command-line syntax.

A `Query` is a set of conditions that must all hold (AND); most of them can
be negated (`--not-pattern ...`). `parse_query` reads the same condition
syntax as `lexitrain search`, so saved searches, built-in lists, quizzes and
sheets all speak one language (see docs/search.md).
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field

from lexitrain.errors import LexitrainError
from lexitrain.lexicon.rows import RankPer

Range = tuple[int, int]
ORDERS = ("alphabetical", "probability", "alphagram", "length", "random")
PROBABILITY_BY = ("alphagram", "word")
UNBOUNDED = 10**9


@dataclass
class Query:
    """Conditions on words, all of which must hold, then order and limits.

    Text conditions hold tiles as typed (`?` is a blank in anagram/subanagram;
    `?`, `*`, `[ABC]`, `[^ABC]` in patterns). Ranges are inclusive. The names
    in `negated` are conditions that must NOT hold. Hook flags are tri-state:
    None = no condition, True = must take/be one, False = must not.
    """

    length: Range | None = None
    anagram: str | None = None
    subanagram: str | None = None
    pattern: str | None = None
    regex: str | None = None
    prefix: str | None = None
    suffix: str | None = None
    includes: str | None = None
    excludes: str | None = None
    probability: Range | None = None
    probability_by: RankPer = "alphagram"
    blanks: int = 2
    anagrams: Range | None = None
    vowels: Range | None = None
    points: Range | None = None
    front_hook: bool | None = None
    back_hook: bool | None = None
    inner_front: bool | None = None
    inner_back: bool | None = None
    in_lexicon: str | None = None
    symbol: str | None = None
    definition: str | None = None
    negated: frozenset[str] = field(default_factory=frozenset)
    lexicon: str | None = None
    order: str = "alphabetical"
    seed: int | None = None
    limit: int | None = None
    limit_probability: Range | None = None

    def is_negated(self, name: str) -> bool:
        return name in self.negated


#: option name -> (Query field, kind). Kinds: text, range, flag, int, choice.
_CONDITIONS: dict[str, tuple[str, str]] = {
    "--length": ("length", "range"),
    "--anagram": ("anagram", "text"),
    "--subanagram": ("subanagram", "text"),
    "--build": ("subanagram", "text"),
    "--pattern": ("pattern", "text"),
    "--regex": ("regex", "text"),
    "--prefix": ("prefix", "text"),
    "--suffix": ("suffix", "text"),
    "--includes": ("includes", "text"),
    "--excludes": ("excludes", "text"),
    "--probability": ("probability", "range"),
    "--anagrams": ("anagrams", "range"),
    "--vowels": ("vowels", "range"),
    "--points": ("points", "range"),
    "--front-hook": ("front_hook", "flag"),
    "--back-hook": ("back_hook", "flag"),
    "--inner-front": ("inner_front", "flag"),
    "--inner-back": ("inner_back", "flag"),
    "--in-lexicon": ("in_lexicon", "text"),
    "--symbol": ("symbol", "text"),
    "--definition": ("definition", "text"),
}
#: Settings, not conditions: never negated.
_SETTINGS: dict[str, tuple[str, str]] = {
    "--probability-by": ("probability_by", "choice"),
    "--blanks": ("blanks", "int"),
    "--lexicon": ("lexicon", "text"),
    "--order": ("order", "choice"),
    "--seed": ("seed", "int"),
    "--limit": ("limit", "int"),
    "--limit-probability": ("limit_probability", "range"),
}
_CHOICES = {"order": ORDERS, "probability_by": PROBABILITY_BY}


def parse_range(text: str, option: str = "range") -> Range:
    """`7`, `7-8`, `20-` (20 or more) or `-5` (up to 5), inclusive."""
    low, dash, high = text.strip().partition("-")
    try:
        lo = int(low) if low else 0
        hi = (int(high) if high else UNBOUNDED) if dash else lo
    except ValueError:
        raise LexitrainError(f"{option} {text!r}: expected a number or a range like 7-8") from None
    if lo < 0 or hi < lo:
        raise LexitrainError(f"{option} {text!r}: the range is empty or negative")
    return min(lo, UNBOUNDED), min(hi, UNBOUNDED)  # beyond any count, and within SQLite's integers


def parse_query(args: str | list[str]) -> Query:
    """Read `lexitrain search` conditions (a string is split like a shell)."""
    if isinstance(args, str):
        try:
            tokens = shlex.split(args)
        except ValueError as exc:
            raise LexitrainError(f"search conditions {args!r}: {exc}") from None
    else:
        tokens = list(args)
    values: dict[str, object] = {}
    negated: set[str] = set()
    i = 0
    while i < len(tokens):
        token = tokens[i]
        option, eq, inline = token.partition("=") if token.startswith("--") else (token, "", "")
        negate = option.startswith("--not-") and f"--{option[6:]}" in _CONDITIONS
        spec = _CONDITIONS.get(f"--{option[6:]}" if negate else option) or _SETTINGS.get(option)
        if spec is None:
            raise LexitrainError(f"unknown search condition {token!r} (see `lexitrain search --help`)")
        name, kind = spec
        if name in values:
            raise LexitrainError(f"{option}: a condition on {name.replace('_', ' ')} is given twice")
        if kind == "flag":
            if eq:
                raise LexitrainError(f"{option} takes no value")
            values[name] = not negate
            i += 1
            continue
        if eq:
            raw = inline
            i += 1
        elif i + 1 < len(tokens):
            raw = tokens[i + 1]
            i += 2
        else:
            raise LexitrainError(f"{option} needs a value")
        values[name] = _convert(option, name, kind, raw)
        if negate:
            negated.add(name)
    query = Query(**values, negated=frozenset(negated))  # type: ignore[arg-type]
    _check(query)
    return query


def _convert(option: str, name: str, kind: str, raw: str) -> object:
    if kind == "range":
        return parse_range(raw, option)
    if kind == "int":
        try:
            return int(raw)
        except ValueError:
            raise LexitrainError(f"{option} {raw!r}: expected a whole number") from None
    if kind == "choice":
        choice = raw.lower()
        if choice not in _CHOICES[name]:
            raise LexitrainError(f"{option} {raw!r}: expected one of {', '.join(_CHOICES[name])}")
        return choice
    if not raw.strip():
        raise LexitrainError(f"{option} needs a non-empty value")
    return raw.strip()


def _check(query: Query) -> None:
    """Conditions that are wrong whatever the lexicon."""
    if query.blanks not in (0, 1, 2):
        raise LexitrainError(f"--blanks {query.blanks}: probability is counted with 0, 1 or 2 blanks")
    if query.limit is not None and query.limit < 1:
        raise LexitrainError(f"--limit {query.limit}: expected 1 or more")
    if query.probability is not None and query.probability[0] < 1:
        raise LexitrainError("--probability: ranks start at 1")
    if query.limit_probability is not None and query.limit_probability[0] < 1:
        raise LexitrainError("--limit-probability: positions start at 1")
