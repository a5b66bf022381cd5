"""ENABLE compiled for real: counts, probability figures and ranks by brute force."""

from __future__ import annotations

from collections import Counter
from itertools import combinations as choose
from math import comb

from tests.cli_runner import run

DESIGN_COUNTS = [96, 972, 3903, 8636, 15232, 23109, 28420, 24873, 20302, 15504, 11358, 7827, 5127, 3192]


def test_lexicon_info_reports_design_counts(enable):
    info = run("lexicon", "info", "enable", "--json").json()
    assert info["name"] == "enable"
    assert info["words"] == 168551
    assert info["by_length"] == {str(n): c for n, c in zip(range(2, 16), DESIGN_COUNTS)}


def test_design_probability_figures_are_stored(enable):
    got = {
        row["alphagram"]: [row["combinations0"], row["combinations1"], row["combinations2"]]
        for row in enable.db.execute(
            "SELECT * FROM alphagrams WHERE alphagram IN ('AEINRST', 'ADEINORT')"
        )
    }
    assert got == {"AEINRST": [839808, 2612736, 3006072], "ADEINORT": [6718464, 22581504, 26614656]}


def _brute_combinations(word: str, bag: dict[str, int], bag_blanks: int = 2) -> list[int]:
    """Count draws directly: choose which tiles the blanks stand for, multiply choices."""
    out, total = [], 0
    for k in range(3):
        for replaced in set(choose(sorted(word), k)):
            rest = Counter(word) - Counter(replaced)
            ways = comb(bag_blanks, k)
            for letter, count in rest.items():
                ways *= comb(bag[letter], count)
            total += ways
        out.append(total)
    return out


def test_ranks_of_all_sevens_agree_with_a_brute_force_recount(enable):
    tiles = enable.tiles
    bag = dict(zip(tiles.letters, tiles.counts))
    rows = [
        dict(r)
        for r in enable.db.execute(
            "SELECT w.word, w.alphagram, w.probability_rank0, w.probability_rank1, w.probability_rank2,"
            " a.alphagram_rank0, a.alphagram_rank1, a.alphagram_rank2"
            " FROM words w JOIN alphagrams a USING (alphagram) WHERE w.length = 7"
        )
    ]
    assert len(rows) == 23109
    combos = {a: _brute_combinations(a, bag) for a in {r["alphagram"] for r in rows}}
    for b in range(3):
        by_word = sorted(rows, key=lambda r: (-combos[r["alphagram"]][b], r["alphagram"], r["word"]))
        assert [r[f"probability_rank{b}"] for r in by_word] == list(range(1, len(rows) + 1))
        by_alphagram = sorted(combos, key=lambda a: (-combos[a][b], a))
        stored = {r["alphagram"]: r[f"alphagram_rank{b}"] for r in rows}
        assert [stored[a] for a in by_alphagram] == list(range(1, len(combos) + 1))
    # ties exist and were broken by alphagram, then word
    assert len({tuple(c) for c in combos.values()}) < len(combos)
