"""Zyzzyva's "Belongs to Group" sets, made the way Zyzzyva makes them.

Definitions from Zyzzyva's help (data/help/search.html, "Belongs to Group")
and its code (WordEngine::isSetMember):
- Type I sevens: sevens holding one of the top 100 six-tile bingo stems
  (the seven minus one tile is a stem); Type I eights: eights holding one
  (the eight minus two tiles); eights from seven-letter stems: eights holding
  one of the top 100 seven-tile stems.
- Type II: all of the word's tiles come from AAADEEEEGIIILNNOORRSSTTU, and it
  is not Type I.
- Type III: at least the combinations (2 blanks) of HUNTERS (sevens) or
  NOTIFIED (eights), and neither Type I nor Type II.
- High fives: five tiles, none worth more than 5 points, a 4- or 5-point tile
  first or last (no J, Q, X, Z; F H K V W Y at an end, in English).
- Hook words, front hooks, back hooks: the word less its first or last tile,
  its first, its last tile is a word; those are row conditions (`row_group`).

Zyzzyva reads its top stems from lists shipped for NWL and CSW (made with
Mike Baron's method, Complete Wordbook for Game Players, 2004). lexitrain
has no such list for every lexicon, so it ranks the stems of the lexicon in
use: a stem's draws from the bag (no blanks) times the tiles left in the bag
that make a word with it, most first, ties by stem. Tile points and counts
come from the lexicon's tile set.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable

from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.lexicon.rows import AnyOf, Condition, Hook
from lexitrain.search import corpus

#: Zyzzyva's groups (Belongs to Group): the name Zyzzyva writes, and lexitrain's spelling of it.
ZYZZYVA_NAMES = {
    "Type I Sevens": "type1-sevens", "Type II Sevens": "type2-sevens", "Type III Sevens": "type3-sevens",
    "Type I Eights": "type1-eights", "Type II Eights": "type2-eights", "Type III Eights": "type3-eights",
    "Eights From Seven-Letter Stems": "eights-from-seven-stems", "High Fives": "high-fives",
    "Hook Words": "hook-words", "Front Hooks": "front-hooks", "Back Hooks": "back-hooks",
}
GROUPS = tuple(ZYZZYVA_NAMES.values())
TOP_STEMS = 100
TYPE_TWO_POOL = "AAADEEEEGIIILNNOORRSSTTU"
TYPE_THREE_BAR = {7: "HUNTERS", 8: "NOTIFIED"}
_ROW_GROUPS: dict[str, Condition] = {
    "hook-words": AnyOf((Hook("inner_front"), Hook("inner_back"))),
    "front-hooks": Hook("inner_front"),
    "back-hooks": Hook("inner_back"),
}
_CACHE: dict[tuple[tuple[int, ...], str], frozenset[str]] = {}
_STEMS: dict[tuple[tuple[int, ...], int], list[str]] = {}


def check_group(name: str) -> str:
    if name not in GROUPS:
        raise LexitrainError(f"--group {name!r}: expected one of {', '.join(GROUPS)}")
    return name


def row_group(name: str) -> Condition | None:
    """The group as a condition on stored facts, for the groups that are one."""
    return _ROW_GROUPS.get(name)


def group_codes(lex: Lexicon, name: str) -> frozenset[str]:
    """Codes of the words in a group that is not a row condition (worked out once per build)."""
    key = (corpus.build_identity(lex), name)
    found = _CACHE.get(key)
    if found is None:
        found = _CACHE[key] = frozenset(_make(lex, name))
    return found


def _make(lex: Lexicon, name: str) -> Iterable[str]:
    if name == "high-fives":
        return _high_fives(lex)
    kind, _, size = name.partition("-")
    length = 7 if size == "sevens" else 8
    if kind == "type1":
        return _holding_stems(lex, top_stems(lex, 6), length - 6)
    if name == "eights-from-seven-stems":
        return _holding_stems(lex, top_stems(lex, 7), 1)
    type_one = group_codes(lex, f"type1-{size}")
    if kind == "type2":
        return _from_pool(lex, length) - type_one
    return _at_least(lex, length, TYPE_THREE_BAR[length]) - type_one - group_codes(lex, f"type2-{size}")


def top_stems(lex: Lexicon, size: int) -> list[str]:
    """The TOP_STEMS best stems of SIZE tiles (alphagram codes), best first (see the module's text).
    Worked out once per build and kept in its folder."""
    key = (corpus.build_identity(lex), size)
    found = _STEMS.get(key)
    if found is None:
        path = lex.folder / f"search-stems{size}.txt"
        found = _STEMS[key] = corpus.cached_lines(path, lambda: _rank_stems(lex, size))
    return found


def _rank_stems(lex: Lexicon, size: int) -> list[str]:
    import numpy as np

    from lexitrain.lexicon.probability import combinations, tile_counts

    tiles = lex.tiles
    makes: dict[str, str] = defaultdict(str)  # stem -> the tiles that make a word with it
    for alphagram in {tiles.alphagram_code(code) for code in corpus.codes_of_length(lex, size + 1)}:
        previous = ""
        for i, tile in enumerate(alphagram):
            if tile != previous:
                makes[alphagram[:i] + alphagram[i + 1:]] += tile
                previous = tile
    if not makes:
        return []
    stems = list(makes)
    held = tile_counts(stems, tiles)
    making = tile_counts([makes[stem] for stem in stems], tiles)
    left = ((np.array(tiles.counts) - held) * making).sum(axis=1)
    score = combinations(stems, tiles, held)[:, 0] * left
    bar = np.sort(score)[-min(TOP_STEMS, len(stems))]  # the best, and any tied with the last of them
    best = np.flatnonzero(score >= bar).tolist()
    best.sort(key=lambda i: (-int(score[i]), tiles.sort_key(stems[i])))
    return [stems[i] for i in best[:TOP_STEMS]]


def _holding_stems(lex: Lexicon, stems: list[str], more: int) -> set[str]:
    """Words made of one of the stems and MORE tiles (one or two)."""
    tiles = lex.tiles
    codes = tiles.codes
    extra = [c for c in codes] if more == 1 else [a + b for i, a in enumerate(codes) for b in codes[i:]]
    found: set[str] = set()
    for stem in stems:
        for tiles_added in extra:
            found.update(lex.anagram_codes(tiles.alphagram_code(stem + tiles_added)))
    return found


def _from_pool(lex: Lexicon, length: int) -> set[str]:
    """Words of LENGTH whose tiles all come from the Type II pool."""
    tiles = lex.tiles
    pool = Counter(tiles.encode(letter) for letter in TYPE_TWO_POOL if letter in tiles.letters)
    if not pool:
        return set()
    candidates = corpus.scan(lex, f"[{_escape(''.join(pool))}]{{{length}}}")  # then count each tile
    return {code for code in candidates if not Counter(code) - pool}


def _at_least(lex: Lexicon, length: int, bar_word: str) -> set[str]:
    """Words of LENGTH with at least the combinations (2 blanks) of BAR_WORD."""
    from lexitrain.lexicon.probability import combinations  # numpy: only for the Type III groups

    tiles = lex.tiles
    try:
        bar_code = tiles.alphagram_code(tiles.encode(bar_word))
    except ValueError:
        raise LexitrainError(f"Type III {length}s are measured against {bar_word}, "
                             f"which the {tiles.name} tiles cannot spell") from None
    codes = corpus.codes_of_length(lex, length)
    alphagrams = sorted({tiles.alphagram_code(code) for code in codes})
    combos = combinations([bar_code, *alphagrams], tiles)[:, 2].tolist()
    enough = {a for a, c in zip(alphagrams, combos[1:]) if c >= combos[0]}
    return {code for code in codes if tiles.alphagram_code(code) in enough}


def _high_fives(lex: Lexicon) -> list[str]:
    tiles = lex.tiles
    worth = dict(zip(tiles.codes, tiles.points))
    low = "".join(c for c, p in worth.items() if p <= 5)
    end = "".join(c for c, p in worth.items() if p in (4, 5))
    if not end:
        return []
    low_class, end_class = f"[{_escape(low)}]", f"[{_escape(end)}]"
    return corpus.scan(lex, f"{end_class}{low_class}{{4}}|{low_class}{{4}}{end_class}")


def _escape(codes: str) -> str:
    return "".join("\\" + c if c in "\\]^-[" else c for c in codes)
