"""Shared pieces for the study tests: a small lexicon, an answer oracle, JSON-lines parsing."""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

import pytest

#: A small lexicon with twos, threes, sevens and eights (enough for the default plan and challenges).
WORDS = """
AA AB AD AE AG AH AI AL AM AN AR AS AT AW AX AY BA BE BI BO BY DA DE DO ED EF EH EL EM EN ER ES ET EX
FA HA HE HI HM HO ID IF IN IS IT JO KA LA LI LO MA ME MI MO MU MY NA NE NO NU OD OE OF OH OM ON OP OR
OS OW OX OY PA PE PI RE SH SI SO TA TI TO UH UM UN UP US UT WE WO XI XU YA YE YO
ABA ABS ACE ACT ADD ADO ADS AFT AGE AGO AID AIL AIM AIR ALE ARE ART ATE EAR EAT ERA ETA NET TEN RAT TAR
TEA SAT ANT TAN NAT SEA TIN NIT
RETAINS NASTIER STAINER RETINAS ANESTRI ANTSIER RATINES RETSINA STEARIN
ENTRAILS LATRINES RATLINES TRENAILS SALTIER
DELATION RELATION ORIENTAL
TOENAILS ELATIONS INSOLATE
GRANITES INGRATES RANGIEST
""".split()


def anagram_oracle(words: list[str] = WORDS) -> dict[str, set[str]]:
    """Alphagram -> words, computed by brute force from the list itself."""
    table: dict[str, set[str]] = defaultdict(set)
    for word in words:
        table["".join(sorted(word))].add(word)
    return table


def right_answer(question: dict[str, Any], oracle: dict[str, set[str]]) -> str:
    return " ".join(sorted(oracle["".join(sorted(question["prompt"]))]))


def lines(text: str) -> list[dict[str, Any]]:
    """Every stdout line must be one JSON object."""
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def of(kind: str, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r[kind] for r in records if kind in r]


@pytest.fixture
def small(make_lexicon):
    """The small lexicon, compiled as `small`."""
    return make_lexicon(WORDS, name="small")
