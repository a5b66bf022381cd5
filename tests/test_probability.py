"""Combinations and ranks against DESIGN.md and a brute-force recount."""

from itertools import combinations as choose
from math import comb

from lexitrain.lexicon.probability import combinations
from lexitrain.tiles import load_tile_set


def test_design_figures():
    tiles = load_tile_set("english")
    got = combinations(["AEINRST", "ADEINORT", "IQ", "ZZZ"], tiles).tolist()
    assert got == [
        [839808, 2612736, 3006072],
        [6718464, 22581504, 26614656],
        [9, 29, 30],
        [0, 0, 1],
    ]


def _brute(word: str, tiles, blanks: int) -> int:
    """Count distinct draws by enumerating which letters the blanks replace."""
    from collections import Counter

    need = Counter(word)
    total = 0
    for k in range(blanks + 1):
        seen = set()
        for replaced in choose(sorted(word), k):
            key = tuple(replaced)
            if key in seen:
                continue
            seen.add(key)
            rest = need - Counter(replaced)
            ways = 1
            for letter, count in rest.items():
                ways *= comb(tiles.counts[tiles.index(letter)], count)
            total += comb(tiles.blanks, k) * ways
    return total


def test_agrees_with_brute_force_on_assorted_words():
    tiles = load_tile_set("english")
    words = ["QUIZ", "EEEE", "JAZZY", "AA", "SATIRE", "MUUMUU", "XYST", "ZZZ", "FEZZES"]
    got = combinations(["".join(sorted(w)) for w in words], tiles).tolist()
    for word, row in zip(words, got):
        assert row == [_brute(word, tiles, b) for b in range(3)], word


def test_spanish_probabilities_count_tiles_not_characters():
    tiles = load_tile_set("spanish")
    code = tiles.alphagram_code(tiles.encode("CHURRO"))
    [row] = combinations([code], tiles).tolist()
    ch, rr = tiles.counts[tiles.index("CH")], tiles.counts[tiles.index("RR")]
    u, o = tiles.counts[tiles.index("U")], tiles.counts[tiles.index("O")]
    assert row[0] == ch * u * rr * o
