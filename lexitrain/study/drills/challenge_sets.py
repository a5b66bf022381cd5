"""The daily challenges' kinds and their question sets, as Aerolith has them.

A set is fixed by the date, the kind and the words of the lexicon: the seed is
SHA-256 of the lexicon's content hash (its tile set and words, not the name it
was compiled under), the kind and the date, so two players holding the same
list get the same questions on any machine. Draws come from SHA-256 of the
seed and a counter (never Python's salted `hash()` or `random`, whose
algorithms may change between versions), and alphagrams are picked by their
probability rank (unique 1..N per length). The personal toughies are the
exception: they are the player's own most missed alphagrams.

Kinds, round times and sizes follow Aerolith (its daily challenge names):
Today's 2s .. 15s (50 alphagrams), Blank Bingos (25 sevens and 25 eights,
two of each with two blanks, at most 5 answers each), Bingo Marathon (50
sevens and 50 eights), Word Builder 3-6 / 4-7 / 5-8 (one rack; its count of
words in a band), the week's and all-time toughies (here: this player's).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import TypeVar

from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.study.quiz.kinds.base import new_kind
from lexitrain.study.quiz.kinds.words import anagram_words
from lexitrain.study.quiz.session import Item
from lexitrain.study.store import ProgressStore
from lexitrain.tiles import BLANK

T = TypeVar("T")

SIZE = 50  # alphagrams in a Today's-N challenge
BLANK_SIZE = 25  # blank bingos of each length
TWO_BLANKS = 2  # of those, how many have two blanks
BLANK_ANSWERS = 5  # most answers a blank bingo may have
TOUGHIES = 50  # most missed alphagrams asked
TRIES = 200  # draws allowed per question wanted before a small lexicon is taken at what it has


class Draws:
    """An endless stream of 64-bit numbers fixed by a seed."""

    def __init__(self, seed: str) -> None:
        self._numbers = self._stream(seed)

    @staticmethod
    def _stream(seed: str) -> Iterator[int]:
        counter = 0
        while True:
            digest = hashlib.sha256(f"{seed}|{counter}".encode()).digest()
            for start in range(0, 32, 8):
                yield int.from_bytes(digest[start : start + 8], "big")
            counter += 1

    def below(self, n: int) -> int:
        """A number in 0..n-1 (the bias of 2**64 % n is far below anything a player sees)."""
        return next(self._numbers) % n

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """The items in a seeded order (Fisher-Yates)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


@dataclass
class SetMaker:
    """What picking a set needs: the lexicon, the date, the seeded draws and (for the personal kinds) the store."""

    lex: Lexicon
    day: date
    draws: Draws
    store: ProgressStore | None

    def ranked(self, length: int, count: int) -> list[str]:
        """`count` distinct alphagrams of a length (all it has, if fewer), drawn by probability rank."""
        size = self.lex.counts_by_length("alphagram").get(length, 0)
        chosen: dict[int, None] = {}
        while len(chosen) < min(count, size):
            chosen.setdefault(self.draws.below(size) + 1)
        return [self.alphagram(length, rank) for rank in chosen]

    def alphagram(self, length: int, rank: int) -> str:
        [alphagram] = self.lex.alphagrams_by_rank(length, (rank, rank))
        return alphagram


@dataclass(frozen=True)
class ChallengeKind:
    """One kind of daily challenge: its name, Aerolith's title for it, the round time, how its set is picked."""

    name: str
    title: str
    seconds: int
    pick: Callable[[SetMaker], list[Item]]
    personal: bool = False  # the set is this player's own (their missed alphagrams), not everyone's


def _anagrams(keys: Sequence[str]) -> list[Item]:
    return [Item("anagram", key) for key in keys]


def _lengths(counts: dict[int, int]) -> Callable[[SetMaker], list[Item]]:
    """So many alphagrams of each length, drawn by rank."""
    return lambda maker: _anagrams([key for length, count in counts.items() for key in maker.ranked(length, count)])


def _blank_bingos(maker: SetMaker) -> list[Item]:
    """Per length 7 and 8: sevens and eights with a tile (or two) made blank, each with 1 to 5 answers."""

    lex, draws = maker.lex, maker.draws
    keys: list[str] = []
    for length in (7, 8):
        size = lex.counts_by_length("alphagram").get(length, 0)
        found: dict[str, None] = {}
        for blanks in [2] * TWO_BLANKS + [1] * (BLANK_SIZE - TWO_BLANKS):
            for _ in range(TRIES if size else 0):
                tiles = lex.tiles.tokenize(maker.alphagram(length, draws.below(size) + 1))
                for _ in range(blanks):
                    del tiles[draws.below(len(tiles))]
                key = lex.tiles.spell(tiles) + BLANK * blanks
                if key not in found and 1 <= len(anagram_words(lex, key)) <= BLANK_ANSWERS:
                    found[key] = None
                    break
        keys += found
    return _anagrams(draws.shuffled(keys))


#: Word Builder: (shortest word, rack size) -> the band of answer counts (Aerolith's mean bounds)
#: and the share of racks that must be a word themselves (Aerolith's 80 / 50 / 30 %).
BUILDERS: dict[tuple[int, int], tuple[tuple[int, int], int]] = {
    (3, 6): ((10, 30), 80),
    (4, 7): ((15, 50), 50),
    (5, 8): ((20, 75), 30),
}


def _builder(shortest: int, size: int) -> Callable[[SetMaker], list[Item]]:
    """One rack whose words of `shortest`..`size` letters number within the band."""
    (low, high), word_share = BUILDERS[(shortest, size)]

    def pick(maker: SetMaker) -> list[Item]:
        lex, draws, tiles = maker.lex, maker.draws, maker.lex.tiles
        build = new_kind("build")
        bag = [code for code, count in zip(tiles.codes, tiles.counts) for _ in range(count)]
        alphagrams = lex.counts_by_length("alphagram").get(size, 0)
        for _ in range(TRIES * 5):
            if draws.below(100) < word_share and alphagrams:  # a rack that is itself a word
                rack = maker.alphagram(size, draws.below(alphagrams) + 1)
            else:  # any draw from the bag (no blanks)
                rack = tiles.display_alphagram(tiles.alphagram_code("".join(draws.shuffled(bag)[:size])))
            try:
                answers = len(build.build(lex, f"{rack}:{shortest}").expected)
            except LexitrainError:  # the rack makes no word at all
                continue
            if low <= answers <= high:
                return [Item("build", f"{rack}:{shortest}")]
        raise LexitrainError(f"{lex.name} has no {size}-tile rack making {low}-{high} words of {shortest}+ letters")

    return pick


def _toughies(days: int | None) -> Callable[[SetMaker], list[Item]]:
    """The player's most missed alphagrams in the `days` up to the date (None: ever)."""

    def pick(maker: SetMaker) -> list[Item]:
        if maker.store is None:
            raise LexitrainError("the toughies are the player's own: they need the progress store")
        end = datetime.combine(maker.day + timedelta(days=1), time()).astimezone()  # local midnight after the day
        since = 0.0 if days is None else (end - timedelta(days=days)).timestamp()
        keys = maker.store.most_missed(maker.lex.name, "anagram", since, end.timestamp(), TOUGHIES)
        if not keys:
            when = "ever" if days is None else f"in the {days} days up to {maker.day}"
            raise LexitrainError(f"no alphagram missed {when} in {maker.lex.name}: no toughies yet")
        return _anagrams(keys)

    return pick


#: Aerolith's round time (seconds) for Today's N.
TODAY_SECONDS = {2: 90, 3: 120, 4: 180, 5: 210, 6: 240, 7: 270, 8: 270, 9: 300, 10: 330, 11: 330, 12: 330,
                 13: 360, 14: 360, 15: 360}
LENGTH_NAMES = {2: "twos", 3: "threes", 4: "fours", 5: "fives", 6: "sixes", 7: "sevens", 8: "eights", 9: "nines",
                10: "tens", 11: "elevens", 12: "twelves", 13: "thirteens", 14: "fourteens", 15: "fifteens"}

_ALL = [
    *(ChallengeKind(LENGTH_NAMES[n], f"Today's {n}s", seconds, _lengths({n: SIZE}))
      for n, seconds in TODAY_SECONDS.items()),
    ChallengeKind("twos-to-fifteens", "2s to 15s", 600,
                  _lengths({**{n: 4 for n in range(2, 10)}, **{n: 3 for n in range(10, 16)}})),
    ChallengeKind("blank-bingos", "Blank Bingos", 540, _blank_bingos),
    ChallengeKind("bingo-marathon", "Bingo Marathon", 480, _lengths({7: SIZE, 8: SIZE})),
    *(ChallengeKind(f"builder-{shortest}-{size}", f"Word Builder ({shortest}-{size})", seconds,
                    _builder(shortest, size))
      for (shortest, size), seconds in (((3, 6), 210), ((4, 7), 270), ((5, 8), 300))),
    ChallengeKind("week-toughies", "Week's Bingo Toughies (yours)", 300, _toughies(7), personal=True),
    ChallengeKind("all-time-toughies", "All-time Bingo Toughies (yours)", 300, _toughies(None), personal=True),
]
KINDS: dict[str, ChallengeKind] = {kind.name: kind for kind in _ALL}


def check_kind(kind: str) -> ChallengeKind:
    try:
        return KINDS[kind]
    except KeyError:
        raise LexitrainError(f"unknown challenge kind {kind!r} (known: {', '.join(KINDS)})") from None


def challenge_items(lex: Lexicon, day: date, kind: str, store: ProgressStore | None = None) -> list[Item]:
    """The day's questions of a kind, in order (the store is needed by the personal kinds only)."""
    spec = check_kind(kind)
    draws = Draws(f"lexitrain-challenge|{lex.content_hash}|{kind}|{day.isoformat()}")
    items = spec.pick(SetMaker(lex, day, draws, store))
    if not items:
        raise LexitrainError(f"{lex.name} has no words of the lengths the {kind} challenge asks")
    return items


def challenge_keys(lex: Lexicon, day: date, kind: str, store: ProgressStore | None = None) -> list[str]:
    """The day's question keys (alphagrams, `?` for a blank; RACK:MIN for a word builder), in order."""
    return [item.key for item in challenge_items(lex, day, kind, store)]


def set_hash(items: Sequence[Item]) -> str:
    """A short digest naming a set of questions (their ids in order)."""
    text = "".join(f"{item.kind}:{item.key}\n" for item in items)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
