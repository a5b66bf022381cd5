"""Every search condition against a brute-force reference over the whole ENABLE list.

The references are written here from Zyzzyva's definitions (docs/search.md),
on the shipped word list read as text: nothing of lexitrain's search, tries
or tables is used to make them. OR groups, repeated and negated conditions too.
"""

from __future__ import annotations

import re
from collections import Counter
from itertools import combinations as pairs
from functools import lru_cache
from math import comb
from pathlib import Path

import pytest

from lexitrain.paths import shipped
from lexitrain.search.execute import run_search
from lexitrain.search.query import parse_query

WORDS = (shipped("lexicons") / "wordlists" / "enable1.txt").read_text(encoding="utf-8").upper().split()
VALID = set(WORDS)
CEL = set((shipped("lexicons") / "wordlists" / "cel.txt").read_text(encoding="utf-8").upper().split())
BAG = dict(A=9, B=2, C=2, D=4, E=12, F=2, G=3, H=2, I=9, J=1, K=1, L=4, M=2, N=6, O=8, P=2, Q=1, R=6, S=4,
           T=6, U=4, V=2, W=2, X=1, Y=2, Z=1)
POINTS = dict(A=1, B=3, C=3, D=2, E=1, F=4, G=2, H=4, I=1, J=8, K=5, L=1, M=3, N=1, O=1, P=3, Q=10, R=1, S=1,
              T=1, U=1, V=4, W=4, X=8, Y=4, Z=10)
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def of_length(n: int) -> list[str]:
    return [w for w in WORDS if len(w) == n]


def found(lex, *args: str) -> list[str]:
    return sorted(r["word"] for r in run_search(lex, parse_query(list(args))))


def expect(predicate, words=WORDS) -> list[str]:
    return sorted(w for w in words if predicate(w))


@lru_cache(maxsize=None)
def alphagram(word: str) -> str:
    return "".join(sorted(word))


def combos(word: str, blanks: int) -> int:
    """DESIGN.md's formula: draws of len(word) tiles from the full bag (2 blanks) that spell it with up to BLANKS."""
    return _combos(alphagram(word), blanks)


@lru_cache(maxsize=None)
def _combos(word: str, blanks: int) -> int:
    poly = [1, 0, 0]
    for letter, n in Counter(word).items():
        f = [comb(BAG[letter], n - j) if n >= j else 0 for j in range(3)]
        poly = [poly[0] * f[0], poly[0] * f[1] + poly[1] * f[0], poly[0] * f[2] + poly[1] * f[1] + poly[2] * f[0]]
    return sum(comb(2, k) * poly[k] for k in range(blanks + 1))


@pytest.fixture(scope="module")
def sevens_ranked() -> dict[tuple[str, int], list[tuple[int, str]]]:
    """Sevens in probability order, per word and per alphagram, 0 and 2 blanks: (combinations, word)."""
    sevens = of_length(7)
    ranked = {}
    for blanks in (0, 2):
        by_word = sorted(sevens, key=lambda w: (-combos(w, blanks), alphagram(w), w))
        ranked[("word", blanks)] = [(combos(w, blanks), w) for w in by_word]
        alphagrams = sorted({alphagram(w) for w in sevens}, key=lambda a: (-combos(a, blanks), a))
        ranked[("alphagram", blanks)] = [(combos(a, blanks), a) for a in alphagrams]
    return ranked


def fits_rack(word: str, rack: str) -> bool:
    """Can RACK (letters, ? blanks) spell WORD?"""
    have = Counter(rack.replace("?", ""))
    return sum(max(0, n - have[c]) for c, n in Counter(word).items()) <= rack.count("?")


# -- spelling ------------------------------------------------------------------------------


@pytest.mark.parametrize("rack", ["AEINRST", "AEINRS?", "QU?", "EINRST??"])
def test_anagram(enable, rack):
    assert found(enable, "--anagram", rack) == expect(lambda w: len(w) == len(rack) and fits_rack(w, rack))


def test_anagram_with_choices_and_star(enable):
    vowels = set("AEIOU")
    assert found(enable, "--anagram", "Z[AEIOU][AEIOU]") == expect(
        lambda w: len(w) == 3 and "Z" in w and all(c in vowels for c in w.replace("Z", "", 1)))
    assert found(enable, "--anagram", "*JBX") == expect(lambda w: "J" in w and "B" in w and "X" in w)
    assert found(enable, "--anagram", "*QQ") == expect(lambda w: w.count("Q") >= 2)
    assert found(enable, "--length", "-7", "--anagram", "SS*[^AEIOUS]?") == expect(
        lambda w: 4 <= len(w) <= 7 and w.count("S") >= 2 and any(c not in "AEIOUS" for c in w.replace("S", "", 2)))
    def aeinrs_and_a_consonant(word: str) -> bool:
        rest = Counter(word) - Counter("AEINRS")
        return sum(rest.values()) == 1 and not set(rest) & set("AEIOU")

    assert found(enable, "--anagram", "AEINRS[^AEIOU]") == expect(aeinrs_and_a_consonant, of_length(7))


@pytest.mark.parametrize("rack", ["RETAINS", "CATS?"])
def test_subanagram(enable, rack):
    assert found(enable, "--subanagram", rack) == expect(lambda w: len(w) <= len(rack) and fits_rack(w, rack))


def test_subanagram_with_choices_and_star(enable):
    assert found(enable, "--subanagram", "LX[AU]") == expect(
        lambda w: len(w) <= 3 and any(fits_rack(w, "LX" + c) for c in "AU"))
    assert found(enable, "--subanagram", "ER[ST][ST]?") == expect(
        lambda w: len(w) <= 5 and any(fits_rack(w, "ER" + a + b + "?") for a in "ST" for b in "ST"))
    assert found(enable, "--length", "4", "--subanagram", "A*") == sorted(of_length(4))  # Zyzzyva: it fits every word


@pytest.mark.parametrize("pattern, regex", [("?A?E??S", ".A.E..S"), ("Q[^U]*", "Q[^U].*"), ("*[JX]?[^AEIOU]", ".*[JX].[^AEIOU]")])
def test_pattern(enable, pattern, regex):
    assert found(enable, "--pattern", pattern) == expect(lambda w: re.fullmatch(regex, w))


def test_regex_starts_ends_with(enable):
    assert found(enable, "--regex", "^qu.*zz") == expect(lambda w: re.search("^QU.*ZZ", w))
    assert found(enable, "--starts-with", "OVER", "--ends-with", "ING") == expect(
        lambda w: w.startswith("OVER") and w.endswith("ING"))
    assert found(enable, "--length", "4", "--not-starts-with", "A", "--ends-with", "ZZ") == expect(
        lambda w: len(w) == 4 and not w.startswith("A") and w.endswith("ZZ"))


def test_takes_prefix_and_suffix(enable):
    """Zyzzyva's help: words of VAL* that take PRE include VALENCE, not VALID."""
    vals = found(enable, "--pattern", "VAL*", "--takes-prefix", "PRE")
    assert "VALENCE" in vals and "VALID" not in vals
    assert vals == expect(lambda w: w.startswith("VAL") and "PRE" + w in VALID)
    assert found(enable, "--takes-prefix", "UN") == expect(lambda w: "UN" + w in VALID)
    assert found(enable, "--pattern", "*ING", "--not-takes-suffix", "S") == expect(
        lambda w: w.endswith("ING") and w + "S" not in VALID)
    assert found(enable, "--takes-suffix", "ABLE", "--takes-prefix", "RE") == expect(
        lambda w: w + "ABLE" in VALID and "RE" + w in VALID)


def test_hooks_by_letter_and_as_flags(enable):
    threes = of_length(3)
    assert found(enable, "--length", "3", "--front-hook", "S", "--back-hook", "Y") == expect(
        lambda w: "S" + w in VALID and w + "Y" in VALID, threes)
    assert found(enable, "--length", "3", "--front-hook", "SC") == expect(
        lambda w: "S" + w in VALID and "C" + w in VALID, threes)
    assert found(enable, "--length", "3", "--not-back-hook", "S", "--front-hook") == expect(
        lambda w: w + "S" not in VALID and any(c + w in VALID for c in ALPHABET), threes)
    assert found(enable, "--length", "4", "--inner-front", "--not-inner-back") == expect(
        lambda w: w[1:] in VALID and w[:-1] not in VALID, of_length(4))


def test_includes_excludes_repeated_and_negated(enable):
    assert found(enable, "--includes", "Q", "--excludes", "U") == expect(lambda w: "Q" in w and "U" not in w)
    assert found(enable, "--includes", "SS", "--includes", "Z", "--length", "-6") == expect(
        lambda w: w.count("S") >= 2 and "Z" in w and len(w) <= 6)
    assert found(enable, "--length", "5", "--not-includes", "EE", "--includes", "E", "--excludes", "AIOU") == expect(
        lambda w: len(w) == 5 and w.count("E") == 1 and not set("AIOU") & set(w))


def test_consists_of(enable):
    """Zyzzyva: the share of the word's letters from the set, in whole percent (rounded down)."""
    assert found(enable, "--consists-of", "AEIOU:70-100") == expect(
        lambda w: sum(c in "AEIOU" for c in w) * 100 // len(w) >= 70)
    assert found(enable, "--length", "7", "--consists-of", "AEINRST") == expect(
        lambda w: set(w) <= set("AEINRST"), of_length(7))
    assert found(enable, "--length", "6", "--consists-of", "AEIOU:0-10", "--not-consists-of", "Y:1-") == expect(
        lambda w: not set("AEIOUY") & set(w), of_length(6))


def test_counts(enable):
    fives = of_length(5)
    assert found(enable, "--length", "5", "--vowels", "4-") == expect(lambda w: sum(c in "AEIOU" for c in w) >= 4, fives)
    assert found(enable, "--length", "5", "--points", "20-22") == expect(
        lambda w: 20 <= sum(POINTS[c] for c in w) <= 22, fives)
    anagrams = Counter(alphagram(w) for w in fives)
    assert found(enable, "--length", "5", "--anagrams", "7-") == expect(lambda w: anagrams[alphagram(w)] >= 7, fives)
    assert found(enable, "--unique-letters", "1-2") == expect(lambda w: len(set(w)) <= 2)
    assert found(enable, "--length", "9", "--unique-letters", "9") == expect(lambda w: len(set(w)) == 9, of_length(9))


def test_length_repeated_is_both(enable):
    assert found(enable, "--length", "4-8", "--length", "6-10", "--starts-with", "ZY") == expect(
        lambda w: 6 <= len(w) <= 8 and w.startswith("ZY"))


# -- probability ---------------------------------------------------------------------------


@pytest.mark.parametrize("by, blanks", [("alphagram", 2), ("word", 2), ("word", 0), ("alphagram", 0)])
def test_probability_ranks(enable, sevens_ranked, by, blanks):
    ranked = sevens_ranked[(by, blanks)][99:200]
    keys = {key for _, key in ranked}
    expected = expect(lambda w: (alphagram(w) if by == "alphagram" else w) in keys, of_length(7))
    assert found(enable, "--length", "7", "--probability", "100-200", "--probability-by", by,
                 "--blanks", str(blanks)) == expected


@pytest.mark.parametrize("by", ["alphagram", "word"])
def test_probability_lax_takes_the_ties_at_both_edges(enable, sevens_ranked, by):
    ranked = sevens_ranked[(by, 2)]
    for low, high in ((7, 8), (150, 160), (23_000, 30_000)):
        top = min(high, len(ranked))
        if low > len(ranked):
            continue
        most, least = ranked[low - 1][0], ranked[top - 1][0]
        keys = {key for c, key in ranked if least <= c <= most}
        expected = expect(lambda w: (alphagram(w) if by == "alphagram" else w) in keys, of_length(7))
        got = found(enable, "--length", "7", "--probability-lax", f"{low}-{high}", "--probability-by", by)
        assert got == expected
        strict = found(enable, "--length", "7", "--probability", f"{low}-{high}", "--probability-by", by)
        assert set(strict) <= set(got)


def test_limit_by_probability_and_its_lax_form(enable):
    threes = [w for w in WORDS if len(w) == 3 and "Z" in w]
    ordered = sorted(threes, key=lambda w: (-combos(w, 2), alphagram(w), w))
    assert found(enable, "--length", "3", "--includes", "Z", "--limit-probability", "1-5") == sorted(ordered[:5])
    edge = combos(ordered[4], 2)
    lax = found(enable, "--length", "3", "--includes", "Z", "--limit-probability-lax", "1-5")
    assert lax == sorted(w for w in threes if combos(w, 2) >= edge)


# -- groups ---------------------------------------------------------------------------------


def top_stems(size: int) -> set[str]:
    """docs/search.md's ranking: a stem's draws (no blanks) times the bag's tiles that make a word with it."""
    makes: dict[str, set[str]] = {}
    for a in {alphagram(word) for word in of_length(size + 1)}:
        for i in range(len(a)):
            makes.setdefault(a[:i] + a[i + 1:], set()).add(a[i])

    def score(stem: str) -> int:
        draws = 1
        for letter in set(stem):
            draws *= comb(BAG[letter], stem.count(letter))
        return draws * sum(BAG[t] - stem.count(t) for t in makes[stem])

    return set(sorted(makes, key=lambda s: (-score(s), s))[:100])


@pytest.fixture(scope="module")
def group_reference() -> dict[str, set[str]]:
    six, seven = top_stems(6), top_stems(7)
    pool = Counter("AAADEEEEGIIILNNOORRSSTTU")
    groups: dict[str, set[str]] = {}
    def less_one(a: str) -> set[str]:  # an alphagram less one letter is still in order
        return {a[:i] + a[i + 1:] for i in range(len(a))}

    def less_two(a: str) -> set[str]:
        return {a[:i] + a[i + 1:j] + a[j + 1:] for i, j in pairs(range(len(a)), 2)}

    groups["type1-sevens"] = {w for w in of_length(7) if less_one(alphagram(w)) & six}
    groups["type1-eights"] = {w for w in of_length(8) if less_two(alphagram(w)) & six}
    groups["eights-from-seven-stems"] = {w for w in of_length(8) if less_one(alphagram(w)) & seven}
    for n, size, bar in ((7, "sevens", "HUNTERS"), (8, "eights", "NOTIFIED")):
        groups[f"type2-{size}"] = {w for w in of_length(n) if not Counter(w) - pool} - groups[f"type1-{size}"]
        groups[f"type3-{size}"] = {w for w in of_length(n) if combos(w, 2) >= combos(bar, 2)} - groups[
            f"type1-{size}"] - groups[f"type2-{size}"]
    groups["high-fives"] = {w for w in of_length(5) if all(POINTS[c] <= 5 for c in w)
                            and (POINTS[w[0]] in (4, 5) or POINTS[w[-1]] in (4, 5))}
    groups["hook-words"] = {w for w in WORDS if w[1:] in VALID or w[:-1] in VALID}
    groups["front-hooks"] = {w for w in WORDS if w[1:] in VALID}
    groups["back-hooks"] = {w for w in WORDS if w[:-1] in VALID}
    return groups


@pytest.mark.parametrize("group", [
    "type1-sevens", "type2-sevens", "type3-sevens", "type1-eights", "type2-eights", "type3-eights",
    "eights-from-seven-stems", "high-fives", "hook-words", "front-hooks", "back-hooks"])
def test_groups(enable, group_reference, group):
    assert found(enable, "--group", group) == sorted(group_reference[group])


def test_groups_hold_zyzzyvas_examples_and_negate(enable, group_reference):
    """The examples of Zyzzyva's help that ENABLE has (AZOTISED's stem TOADIES is not in our top 100)."""
    for group, word in [("type1-sevens", "AIRIEST"), ("type2-sevens", "ADAGIAL"), ("type3-sevens", "ABALONE"),
                        ("type1-eights", "SEXTARII"), ("type2-eights", "ADENOSES"), ("type3-eights", "ABOIDEAU"),
                        ("hook-words", "SHILL"), ("front-hooks", "AGAZE"), ("back-hooks", "VIGA")]:
        assert word in group_reference[group]
    assert found(enable, "--length", "7", "--not-group", "type1-sevens", "--not-group", "type2-sevens",
                 "--probability", "1-100") == expect(
        lambda w: w not in group_reference["type1-sevens"] | group_reference["type2-sevens"],
        found(enable, "--length", "7", "--probability", "1-100"))


def test_high_fives_follow_zyzzyvas_words(group_reference):
    """Zyzzyva's help: beginning or ending with F, H, K, V, W or Y, and no J, Q, X or Z."""
    assert group_reference["high-fives"] == {
        w for w in of_length(5) if (w[0] in "FHKVWY" or w[-1] in "FHKVWY") and not set("JQXZ") & set(w)}


# -- other lists, OR groups ---------------------------------------------------------------------


def test_in_lexicon_and_in_word_list(enable, tmp_path: Path):
    assert found(enable, "--length", "3", "--not-in-lexicon", "cel") == expect(lambda w: len(w) == 3 and w not in CEL)
    listed = tmp_path / "mine.txt"
    listed.write_text("# my list\nqat\nZAX oops\nnotaword\n\nQUA\n", encoding="utf-8")
    assert found(enable, "--in-word-list", str(listed)) == ["QAT", "QUA", "ZAX"]
    assert found(enable, "--length", "3", "--starts-with", "Q", "--not-in-word-list", str(listed)) == expect(
        lambda w: len(w) == 3 and w.startswith("Q") and w not in {"QAT", "QUA"})


def test_or_groups(enable):
    assert found(enable, "--length", "2", "--includes", "X", "--or", "--length", "3", "--includes", "Z",
                 "--or", "--anagram", "AEINRST") == expect(
        lambda w: (len(w) == 2 and "X" in w) or (len(w) == 3 and "Z" in w) or alphagram(w) == "AEINRST")
    # overlapping groups give each word once, and settings hold for the whole search
    rows = run_search(enable, parse_query("--starts-with QU --length 4 --or --length 4 --ends-with Z --order length"))
    assert sorted(r["word"] for r in rows) == expect(lambda w: len(w) == 4 and (w.startswith("QU") or w.endswith("Z")))


def test_part_of_speech_and_definition(make_lexicon):
    """ENABLE has no definitions: a small list with Zyzzyva's `[n -S]` tags."""
    lex = make_lexicon(["CAT a small pet [n -S]", "RUN to move fast [v RAN, RUNNING, RUNS]", "FAST quick [adj]",
                        "OFTEN many times [adv]", "GO to move [v] / a try [n]", "ZAX a tool"], name="pos")
    definitions = {"CAT": "a small pet [n -S]", "RUN": "to move fast [v RAN, RUNNING, RUNS]", "FAST": "quick [adj]",
                   "OFTEN": "many times [adv]", "GO": "to move [v] / a try [n]", "ZAX": "a tool"}
    for tag in ("n", "v", "adj", "adv"):
        expected = sorted(w for w, d in definitions.items() if f"[{tag} " in d or f"[{tag}]" in d)
        assert found(lex, "--part-of-speech", tag) == expected
    assert found(lex, "--part-of-speech", "noun") == ["CAT", "GO"]
    assert found(lex, "--not-part-of-speech", "verb") == ["CAT", "FAST", "OFTEN", "ZAX"]
    assert found(lex, "--definition", "MOVE", "--definition", "fast") == ["RUN"]
