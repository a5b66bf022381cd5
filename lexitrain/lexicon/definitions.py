"""Definitions as a player reads them: Zyzzyva's links written out.

Zyzzyva's definition files link one word to another's definition:
`<cat=n>` (as in CATS `<cat=n> [n]`) stands for "CAT, " and CAT's definition as
a noun; `{dewy=adj}` (as in DEWILY `in a {dewy=adj} manner [adv]`) is the word
as written, its definition in brackets after it. A link whose word has no
definition of that part of speech is the word alone: `<cat=n>` is CAT and
`{cat=n}` is cat. This follows Zyzzyva's own rules (CreateDatabaseThread.cpp,
replaceDefinitionLinks and getSubDefinition): a definition is one or more
senses split by " / ", each rendered apart; a `{}` link anywhere makes every
later link of that sense follow the `{}` style; `{}` links are followed at
most MAX_LINK_DEPTH deep, and never back to a word already written out.
"""

from __future__ import annotations

import re
from collections.abc import Callable

#: Zyzzyva's MAX_DEFINITION_LINKS.
MAX_LINK_DEPTH = 3
SENSES = " / "

_FOLLOW = re.compile(r"\{(\w+)=(\w+)\}")
_REPLACE = re.compile(r"<(\w+)=(\w+)>")
_PART_OF_SPEECH = re.compile(r"\[(\w+)")

#: The stored definition of a word (uppercase), "" when it has none.
Lookup = Callable[[str], str]


def all_written_out(words: list[str], definitions: list[str]) -> list[str]:
    """The definitions of WORDS (as read, in the same order) with their links written out: the
    compiler stores them so, as Zyzzyva does, so that every search, sheet, quiz and page reads,
    and `--definition` finds, what a player reads. A list with no link (most) is returned as it is."""
    if not any("=" in text for text in definitions):
        return definitions
    stored = dict(zip(words, definitions))
    return [written_out(text, lambda linked: stored.get(linked, ""), word) for word, text in zip(words, definitions)]


def written_out(definition: str, lookup: Lookup, word: str = "") -> str:
    """DEFINITION (of WORD, which a link never leads back to) with every link written out."""
    if "=" not in definition:  # no link: the common case costs nothing
        return definition
    return SENSES.join(_sense(sense, lookup, MAX_LINK_DEPTH, {word.upper()}, False)
                       for sense in definition.split(SENSES))


def _sense(text: str, lookup: Lookup, depth: int, done: set[str], follow: bool) -> str:
    """One sense with its links written out, first to last, as Zyzzyva does; where Zyzzyva
    leaves the later links of a sense raw after one it cannot follow, they are written out too."""
    while True:
        match = _FOLLOW.search(text)
        if match is not None:
            follow = True
        else:
            match = _REPLACE.search(text)
            if match is None:
                return text
        linked, part = match.group(1), match.group(2)
        upper = linked.upper()
        replacement = linked if follow else upper
        sub = "" if depth == 0 or upper in done else sub_definition(lookup(upper), part)
        if sub:
            replacement = (f"{linked} ({sub})" if match.re is _FOLLOW else sub) if follow else f"{upper}, {sub}"
            done.add(upper)
            if follow:  # Zyzzyva counts only the links followed in the {} style
                depth -= 1
        text = text[: match.start()] + replacement + text[match.end():]


def sub_definition(definition: str, part: str) -> str:
    """The first sense of DEFINITION tagged with part of speech PART (`[n`), without its tag."""
    for sense in definition.split(SENSES):
        tag = _PART_OF_SPEECH.search(sense)
        if tag is not None and tag.start() > 0 and tag.group(1) == part:
            text = " ".join(sense[: sense.index("[")].split())
            if text:
                return text
    return ""
