"""The search query model and its command-line syntax.

A `Query` is groups of conditions joined by OR; within a group every
condition must hold (AND), and any condition may be given more than once or
turned round with `--not-`. Settings (order, limits, how probability is
counted, the lexicon) apply to the whole query. `parse_query` reads the same
syntax as `lexitrain search`, so saved searches, built-in lists, quizzes and
sheets all speak one language (see docs/search.md): `--or` starts a group.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from lexitrain.errors import LexitrainError
from lexitrain.lexicon.rows import RankPer, definition_words
from lexitrain.search.groups import check_group

Range = tuple[int, int]
ORDERS = ("alphabetical", "probability", "alphagram", "length", "random", "playability", "points-per-game")
#: older spellings of a choice, still read: `--order points` was the points per game, which `--points` is not
CHOICE_ALIASES = {"order": {"points": "points-per-game"}}
PROBABILITY_BY = ("alphagram", "word")
UNBOUNDED = 10**9
OR = "--or"

#: Zyzzyva's parts of speech (its help, "Part of Speech") by the tag in a definition, and their names.
PARTS_OF_SPEECH = {
    "adj": "adjective", "adv": "adverb", "conj": "conjunction", "definite_article": "definite article",
    "indefinite_article": "indefinite article", "interj": "interjection", "n": "noun",
    "prep": "preposition", "pron": "pronoun", "v": "verb",
}

#: condition option -> kind of value. Kinds: range, text, tiles (letters without wildcards),
#: flag, hooks (a flag with optional tiles), file, group, pos (part of speech), consists.
CONDITIONS: dict[str, str] = {
    "length": "range",
    "anagram": "text",
    "subanagram": "text",
    "pattern": "text",
    "regex": "text",
    "starts-with": "tiles",
    "ends-with": "tiles",
    "takes-prefix": "tiles",
    "takes-suffix": "tiles",
    "includes": "tiles",
    "excludes": "tiles",
    "consists-of": "consists",
    "probability": "range",
    "probability-lax": "range",
    "playability": "range",
    "anagrams": "range",
    "vowels": "range",
    "unique-letters": "range",
    "points": "range",
    "front-hook": "hooks",
    "back-hook": "hooks",
    "inner-front": "flag",
    "inner-back": "flag",
    "group": "group",
    "in-lexicon": "text",
    "in-word-list": "file",
    "symbol": "text",
    "definition": "words",
    "part-of-speech": "pos",
}
ALIASES = {"build": "subanagram"}
#: the short options the other commands take too
SHORT = {"-l": "--lexicon"}
#: Settings, not conditions: never negated, one value for the whole query.
SETTINGS: dict[str, str] = {
    "probability-by": "choice",
    "blanks": "int",
    "lexicon": "text",
    "order": "choice",
    "seed": "int",
    "limit": "int",
    "limit-probability": "range",
    "limit-probability-lax": "range",
}
_CHOICES = {"order": ORDERS, "probability-by": PROBABILITY_BY}
#: Spellings that meant something else before Zyzzyva's Takes Prefix / Takes Suffix came:
#: old name -> (its meaning now, Zyzzyva's condition of that name, where the letters go).
RENAMED = {"prefix": ("starts-with", "takes-prefix", "in front"), "suffix": ("ends-with", "takes-suffix", "behind")}


@dataclass(frozen=True)
class Condition:
    """One condition: its option name (`length`, `takes-prefix`, ...), its value
    (a range, a text, True for a flag, (tiles, range) for consists-of) and whether it is turned round."""

    name: str
    value: Any
    negate: bool = False


Group = tuple[Condition, ...]


@dataclass(frozen=True)
class Query:
    """Groups of conditions joined by OR (a word meeting every condition of any
    group is found), then the settings. `given` names the settings typed, so a
    narrowing search overrides only those."""

    groups: tuple[Group, ...] = ()
    probability_by: RankPer = "alphagram"
    blanks: int = 2
    lexicon: str | None = None
    order: str = "alphabetical"
    seed: int | None = None
    limit: int | None = None
    limit_probability: Range | None = None
    limit_lax: bool = False  # the limit keeps the ties at its edges (Zyzzyva's lax)
    given: frozenset[str] = field(default_factory=frozenset)

    @property
    def has_conditions(self) -> bool:
        return any(self.groups)

    def narrowed(self, more: Query) -> Query:
        """Both queries at once: every group of this one AND every group of MORE
        (so OR groups multiply out); MORE's settings win where it gives them."""
        if not self.groups:
            groups = more.groups
        elif not more.groups:
            groups = self.groups
        else:
            groups = tuple(a + b for a in self.groups for b in more.groups)
        settings = {_attribute(name): getattr(more, _attribute(name)) for name in more.given}
        if "limit-probability" in more.given:  # either spelling
            settings["limit_lax"] = more.limit_lax
        return replace(self, groups=groups, given=self.given | more.given, **settings)

    def text(self) -> str:
        """The query in `lexitrain search` syntax (parse_query reads it back to the same query)."""
        parts: list[str] = []
        for i, group in enumerate(self.groups):
            if i:
                parts.append(OR)
            for condition in group:
                parts += _condition_text(condition)
        default = Query()
        for name in SETTINGS:
            attribute = _attribute(name)
            if attribute == "limit_probability":
                if self.limit_probability is not None and name.endswith("-lax") == self.limit_lax:
                    parts += [f"--{name}", range_text(self.limit_probability)]
            elif name in self.given or getattr(self, attribute) != getattr(default, attribute):
                parts += [f"--{name}", str(getattr(self, attribute))]
        return shlex.join(parts)


def described(query: Query) -> str:
    """The conditions in words, for a title a player reads (`7-letter words, probability
    1-20`); groups joined by `or`. Settings (order, limits) are left out."""
    return " or ".join(", ".join(_condition_words(c) for c in group) for group in query.groups)


def described_search(query: Query) -> str:
    """The conditions in words, then the order and limit where the search sets them
    (`words of 7 to 8 letters, by probability, at most 100`), for a search's results."""
    parts = [described(query)] if query.has_conditions else []
    if query.order != Query().order:
        parts.append(f"by {query.order.replace('-', ' ')}")
    if query.limit is not None:
        parts.append(f"at most {query.limit}")
    return ", ".join(parts)


#: how each condition reads in a title: a phrase with {} for its value
_PHRASES = {
    "anagram": "anagrams of {}", "subanagram": "built from {}", "pattern": "pattern {}", "regex": "matching /{}/",
    "starts-with": "starting with {}", "ends-with": "ending with {}", "takes-prefix": "taking the prefix {}",
    "takes-suffix": "taking the suffix {}", "includes": "with {}", "excludes": "without {}",
    "probability": "probability {}", "probability-lax": "probability {} (lax)", "playability": "playability {}",
    "anagrams": "{} anagrams",
    "vowels": "{} vowels", "unique-letters": "{} different letters", "points": "{} points",
    "group": "{}", "in-lexicon": "in {}", "in-word-list": "in {}", "symbol": "marked {}",
    "definition": "defined as “{}”", "part-of-speech": "{}", "consists-of": "{} of {}",
    "front-hook": "front hooks {}", "back-hook": "back hooks {}",
}
_FLAGS = {"front-hook": "with front hooks", "back-hook": "with back hooks",
          "inner-front": "a word without its first letter", "inner-back": "a word without its last letter"}


def _condition_words(condition: Condition) -> str:
    name, value = condition.name, condition.value
    if condition.negate and name in ("includes", "excludes"):  # "without Q", not "not with Q"
        return _condition_words(Condition("excludes" if name == "includes" else "includes", value))
    if name == "length":
        text = f"{value[0]}-letter words" if value[0] == value[1] else f"words of {_count(value)} letters"
    elif value is True:
        text = _FLAGS[name]
    elif name == "consists-of":
        tiles, share = value
        text = f"only {tiles}" if share == (100, 100) else _PHRASES[name].format(f"{range_text(share)}%", tiles)
    elif name == "part-of-speech":
        text = PARTS_OF_SPEECH.get(value, value) + "s"
    elif name.startswith(("probability", "playability")):
        text = _PHRASES[name].format(range_text(value))
    elif isinstance(value, tuple):
        text = _PHRASES[name].format(_count(value))
    else:
        text = _PHRASES.get(name, name.replace("-", " ") + " {}").format(
            Path(value).name if name == "in-word-list" else value)
    return f"not {text}" if condition.negate else text


def _attribute(setting: str) -> str:
    return "limit_probability" if setting == "limit-probability-lax" else setting.replace("-", "_")


def _condition_text(condition: Condition) -> list[str]:
    option = f"--{'not-' if condition.negate else ''}{condition.name}"
    kind = CONDITIONS[condition.name]
    value = condition.value
    if value is True:
        return [option]
    if kind == "range":
        return [option, range_text(value)]
    if kind == "consists":
        tiles, share = value
        return [option, f"{tiles}:{range_text(share)}"]
    if kind == "hooks":  # the value is optional: `=` keeps it with its option
        return [f"{option}={value}"]
    return [option, str(value)]


def _count(bounds: Range) -> str:
    """A range as a count reads: `7`, `7 to 8`, `10 or more`, `up to 5`."""
    low, high = bounds
    if high == UNBOUNDED:
        return f"{low} or more"
    return str(low) if low == high else f"up to {high}" if low == 0 else f"{low} to {high}"


def range_text(bounds: Range) -> str:
    low, high = bounds
    return str(low) if low == high else f"{low}-{'' if high == UNBOUNDED else high}"


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


def split_conditions(args: str | Sequence[str]) -> list[str]:
    """Tokens of a condition text (split like a shell) or of a list already split."""
    if not isinstance(args, str):
        return list(args)
    try:
        return shlex.split(args)
    except ValueError as exc:
        raise LexitrainError(f"search conditions {args!r}: {exc}") from None


def check_search_given(text: str | None) -> None:
    """A `--search` given empty is refused: no condition at all would be every word of the lexicon."""
    if text is not None and not text.strip():
        raise LexitrainError("--search '': give at least one condition, e.g. --search \"--length 7\"")


def parse_query(args: str | Sequence[str]) -> Query:
    """Read `lexitrain search` conditions (a string is split like a shell)."""
    tokens = split_conditions(args)
    groups: list[list[Condition]] = [[]]
    settings: dict[str, Any] = {}
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token == OR:
            if not groups[-1]:
                raise LexitrainError("--or joins two groups of conditions: give conditions before and after it")
            groups.append([])
            i += 1
            continue
        option, eq, inline = token.partition("=") if token.startswith("--") else (token, "", "")
        name, negate = _option_name(option, token)
        kind = CONDITIONS.get(name) or SETTINGS[name]
        raw, i = _option_value(tokens, i, option, kind, inline if eq else None)
        if name in SETTINGS:
            _add_setting(settings, option, name, kind, raw or "")
            continue
        groups[-1].append(Condition(name, True if raw is None else _value(option, kind, raw), negate))
    if not groups[-1] and len(groups) > 1:
        raise LexitrainError("--or joins two groups of conditions: give conditions before and after it")
    given = frozenset(n for n in SETTINGS if _attribute(n) in settings and not n.endswith("-lax"))
    query = Query(groups=tuple(tuple(g) for g in groups if g), given=given, **settings)
    _check(query)
    return query


def _option_value(tokens: list[str], i: int, option: str, kind: str, inline: str | None) -> tuple[str | None, int]:
    """The value of the option at token I (None for a flag, and for `--hooks` with none after it: any hook),
    given after `=` (INLINE) or as the next token; and the token after it."""
    takes_value = kind not in ("flag", "hooks") or (
        kind == "hooks" and (inline is not None or (i + 1 < len(tokens) and not tokens[i + 1].startswith("-"))))
    if kind == "flag" and inline is not None:
        raise LexitrainError(f"{option} takes no value")
    if not takes_value:
        return None, i + 1
    if inline is not None:
        return inline, i + 1
    if i + 1 < len(tokens):
        return tokens[i + 1], i + 2
    raise LexitrainError(f"{option} needs a value")


def _add_setting(settings: dict[str, Any], option: str, name: str, kind: str, raw: str) -> None:
    """A setting (an order, a limit, ...) kept by its attribute's name; one given twice is refused."""
    if _attribute(name) in settings:
        raise LexitrainError(f"{option}: the setting {_attribute(name).replace('_', ' ')} is given twice")
    settings[_attribute(name)] = _setting(option, name, kind, raw)
    if name.startswith("limit-probability"):
        settings["limit_lax"] = name == "limit-probability-lax"


def _option_name(option: str, token: str) -> tuple[str, bool]:
    """The condition or setting an option names, and whether it is negated."""
    option = SHORT.get(option, option)
    bare = option[2:] if option.startswith("--") else None
    negate = bare is not None and bare.startswith("not-")
    name = bare[4:] if bare is not None and negate else bare
    name = ALIASES.get(name or "", name)
    if name in RENAMED:
        now, takes, where = RENAMED[name]
        raise LexitrainError(
            f"--{name} is gone: --{now} S finds words that {now.replace('s-', ' ')} S; --{takes} S finds "
            f"words that make another word with S {where} (Zyzzyva's {takes.replace('-', ' ').title()})")
    if name in CONDITIONS or (name in SETTINGS and not negate):
        return name, negate
    raise LexitrainError(f"unknown search condition {token!r} (see `lexitrain search --help`)")


def _value(option: str, kind: str, raw: str) -> Any:
    if kind == "range":
        return parse_range(raw, option)
    text = raw.strip()
    if not text:
        raise LexitrainError(f"{option} needs a non-empty value")
    if kind == "group":
        return check_group(text.lower())
    if kind == "pos":
        return part_of_speech(text, option)
    if kind == "words" and not definition_words(text):
        raise LexitrainError(f"{option} {raw!r}: give a word to look for in the definitions, e.g. {option} fish")
    if kind == "file":
        return str(Path(text).expanduser().absolute())
    if kind == "consists":
        tiles, colon, share = text.partition(":")
        if not tiles:
            raise LexitrainError(f"{option} {raw!r}: give the letters, e.g. AEIOU:70-100 (a share in percent)")
        bounds = parse_range(share, option) if colon else (100, 100)
        if bounds[1] != UNBOUNDED and bounds[1] > 100:
            raise LexitrainError(f"{option} {raw!r}: the share is a percentage, 0 to 100")
        return tiles, (bounds[0], min(bounds[1], 100))
    return text


def part_of_speech(text: str, option: str = "--part-of-speech") -> str:
    """Zyzzyva's tag for a part of speech given by tag or name (`n`, `noun`)."""
    wanted = text.strip().lower().replace(" ", "_")
    for tag, name in PARTS_OF_SPEECH.items():
        if wanted in (tag, name.replace(" ", "_")):
            return tag
    known = ", ".join(f"{tag} ({name})" for tag, name in PARTS_OF_SPEECH.items())
    raise LexitrainError(f"{option} {text!r}: expected one of {known}")


def _setting(option: str, name: str, kind: str, raw: str) -> Any:
    if kind == "range":
        return parse_range(raw, option)
    if kind == "int":
        try:
            return int(raw)
        except ValueError:
            raise LexitrainError(f"{option} {raw!r}: expected a whole number") from None
    if kind == "choice":
        choice = raw.lower()
        choice = CHOICE_ALIASES.get(name, {}).get(choice, choice)
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
    for group in query.groups:
        for condition in group:
            if condition.name.startswith(("probability", "playability")) and condition.value[0] < 1:
                raise LexitrainError(f"--{condition.name}: ranks start at 1")
    if query.limit_probability is not None and query.limit_probability[0] < 1:
        raise LexitrainError("--limit-probability: positions start at 1")


def migrate_renamed(text: str) -> str:
    """A condition text written before the renaming, with the meaning it had
    (`--prefix S` was `--starts-with S`), for saved searches kept from then."""
    old = {f"--{no}{name}": f"--{no}{new}" for name, (new, _, _) in RENAMED.items() for no in ("", "not-")}
    tokens = split_conditions(text)
    changed = False
    for i, token in enumerate(tokens):
        option, eq, value = token.partition("=")
        if token.startswith("--") and option in old:
            tokens[i] = old[option] + eq + value
            changed = True
    return shlex.join(tokens) if changed else text
