"""The words a weaker bot knows, and the phonies it may put down.

A beginner does not know QI or ZA: its vocabulary is the lexicon's common
words (those also in the shipped list of common English words, SCOWL size
50 and under, `lexicons/wordlists/enable1_common.txt`), up to a length. A
lexicon that shares too few words with that list (another language) uses
its most probable words instead: the top third of each length's alphagrams
by probability. Either way it never knows a slur or an obscenity (the shipped
`lexicons/wordlists/offensive.txt`): a club puts beginners and juniors in front
of this bot, and the lexicon itself is left as its editors made it (the
stronger bots know every word). A bot that may bluff also knows plausible phonies made from
its words (`lexicon/phonies.py`: wrong inflections the lexicon lacks), in a
second graph; which plays of it are phonies the real lexicon says. The
graphs are built once per process and lexicon (a few hundredths of a second).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from lexitrain.engine.dawg import Dawg, dawg_from_codes
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.lexicon.phonies import inflections
from lexitrain.paths import shipped

COMMON_WORDS = shipped("lexicons") / "wordlists" / "enable1_common.txt"
#: slurs and obscenities, with their inflections: no weaker bot plays one
OFFENSIVE_WORDS = shipped("lexicons") / "wordlists" / "offensive.txt"
#: fewer common words than this in a lexicon: its probable words stand in for them
LEAST_COMMON = 5000
#: the share of each length's alphagrams, by probability, that stands in for the common words
PROBABLE_SHARE = 3


@dataclass(frozen=True)
class BotWords:
    """A vocabulary as graphs the move generator searches: the words known, and (for a bot that
    bluffs) the words known with the phonies made from them."""

    known: Dawg
    with_phonies: Dawg | None
    size: int  # words known


def _words_of(path: Path) -> tuple[str, ...]:
    """A shipped list's words, upper case (`#` starts a comment line)."""
    return tuple(word for word in (line.strip().upper() for line in path.read_text(encoding="utf-8").splitlines())
                 if word and not word.startswith("#"))


@lru_cache(maxsize=1)
def _common_list() -> tuple[str, ...]:
    return _words_of(COMMON_WORDS)


@lru_cache(maxsize=1)
def offensive_words() -> frozenset[str]:
    return frozenset(_words_of(OFFENSIVE_WORDS))


def known_codes(lex: Lexicon, longest: int) -> list[str]:
    """The codes of the lexicon's words a bot of this reach knows: common ones (else probable ones) of at
    most `longest` tiles, none of them offensive."""
    codes = [code for code in (lex.encode(w) for w in _common_list()) if code is not None and lex.has_code(code)]
    if len(codes) < LEAST_COMMON:
        codes = []
        for length in range(2, 16):
            ranked = lex.alphagrams_by_rank(length)
            for alphagram in ranked[: -(-len(ranked) // PROBABLE_SHARE)]:
                codes += [c for c in (lex.encode(w) for w in lex.anagrams(alphagram)) if c is not None]
    shunned = {code for code in (lex.encode(w) for w in offensive_words()) if code is not None}
    return sorted({c for c in codes if 2 <= len(c) <= longest and c not in shunned})


def phony_codes(lex: Lexicon, codes: list[str]) -> list[str]:
    """Plausible phonies made from known words: their wrong inflections the lexicon lacks (none offensive: a
    list that dropped a slur does not get it back as a bluff)."""
    tiles = lex.tiles
    out = set()
    shunned = offensive_words()
    for code in codes:
        for made in inflections(tiles.decode(code)):
            phony = lex.encode(made)
            if phony is not None and len(phony) <= 15 and not lex.has_code(phony) and made.upper() not in shunned:
                out.add(phony)
    return sorted(out)


_BUILT: dict[tuple[str, str, int, bool], BotWords] = {}


def bot_words(lex: Lexicon, longest: int, phonies: bool) -> BotWords:
    """The graphs of a vocabulary (built once per process, lexicon and reach)."""
    key = (lex.name, lex.content_hash, longest, phonies)
    found = _BUILT.get(key)
    if found is None:
        codes = known_codes(lex, longest)
        known = dawg_from_codes(codes, lex.tiles, f"{lex.name} (common words)")
        bluffs = dawg_from_codes(sorted(set(codes) | set(phony_codes(lex, codes))), lex.tiles,
                                 f"{lex.name} (common words and phonies)") if phonies else None
        found = _BUILT[key] = BotWords(known, bluffs, len(codes))
    return found
