"""Write the definitions of the free lexicons (ENABLE, CEL) from Princeton WordNet 3.0.

Run where WordNet's database files are (Debian's `wordnet-base` puts them in
/usr/share/wordnet); the output is committed in lexicons/definitions/, so installing
lexitrain never needs WordNet:

    python scripts/gen_wordnet_definitions.py [--wordnet /usr/share/wordnet]

Each line is Zyzzyva's `WORD gloss [pos]`, one short gloss per part of speech joined by
" / ". A word WordNet lists gets the first gloss of each of its parts of speech; an
inflection links to its base as Zyzzyva writes links (CATS `<cat=n> [n]`), a derived word
with a regular affix to its base in the `{base=pos}` style (REDO `to {do=v} again [v]`).
A sense WordNet marks as offensive (an ethnic slur, disparaging, obscene) is skipped
where the word has another; a word with no other sense is labelled as dictionaries label it.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORDLISTS = ROOT / "lexicons" / "wordlists"
OUT = ROOT / "lexicons" / "definitions"
LISTS = {"enable": "enable1.txt", "cel": "cel.txt"}

#: WordNet's file suffix of each part of speech, and the tag Zyzzyva writes for it.
PARTS = {"noun": "n", "verb": "v", "adj": "adj", "adv": "adv"}
#: The usage domains (noun synsets) that mark a sense as offensive, and the label a
#: dictionary puts before a word that has no other sense.
OFFENSIVE = {"06718862": "ethnic slur", "06717170": "disparaging", "07124340": "vulgar"}
#: The longest gloss kept whole; a longer one is cut at its last clause that fits.
LONGEST = 90

HEADER = """\
# Definitions of the {name} words, from Princeton WordNet 3.0
# (WordNet 3.0 Copyright 2006 by Princeton University; licence in LICENSE-WordNet-3.0.txt beside
# this file). Written by scripts/gen_wordnet_definitions.py: one short gloss per part of speech,
# inflections linked to their base (<cat=n>), regular derivations to theirs ({{do=v}}).
# {defined} of {words} words defined ({share:.1%}).
"""


@dataclass
class Sense:
    """One WordNet synset as a word's sense: its gloss and, if any, its offensive label."""

    gloss: str
    label: str | None
    proper: bool  # the word is capitalised in this synset (a name: MAY the month)


@dataclass
class WordNet:
    """The parts of WordNet the glosses need: each lemma's senses by part of speech, in
    WordNet's order (most frequent first), and the irregular inflections."""

    senses: dict[str, dict[str, list[Sense]]] = field(default_factory=dict)  # part -> lemma -> senses
    tagged: dict[str, dict[str, int]] = field(default_factory=dict)  # part -> lemma -> tagged sense count
    exceptions: dict[str, dict[str, list[str]]] = field(default_factory=dict)  # part -> form -> bases

    @classmethod
    def read(cls, folder: Path) -> WordNet:
        wordnet = cls()
        for suffix, part in PARTS.items():
            synsets = dict(_synsets(folder / f"data.{suffix}"))
            by_lemma: dict[str, list[Sense]] = {}
            tagged: dict[str, int] = {}
            for line in _lines(folder / f"index.{suffix}"):
                fields = line.split()
                lemma, count = fields[0], int(fields[2])
                if "_" in lemma or not lemma.isalpha():
                    continue
                offsets = fields[-count:]
                tagged[lemma] = int(fields[-count - 1])
                by_lemma[lemma] = [_sense_of(synsets[o], lemma) for o in offsets]
            wordnet.senses[part] = by_lemma
            wordnet.tagged[part] = tagged
            exceptions: dict[str, list[str]] = {}
            for line in _lines(folder / f"{suffix}.exc"):
                form, *bases = line.split()
                exceptions[form] = bases
            wordnet.exceptions[part] = exceptions
        return wordnet

    def glosses(self, lemma: str) -> dict[str, Sense]:
        """The first sense a player should read for each part of speech LEMMA has: names and
        offensive senses passed over where another sense (of any part) is clean."""
        clean = {part: s for part in PARTS.values()
                 for s in [next((s for s in self.senses[part].get(lemma, []) if not s.proper and not s.label), None)]
                 if s is not None}
        if clean:
            return dict(sorted(clean.items(), key=lambda item: -self.tagged[item[0]].get(lemma, 0)))
        labelled = {part: s for part in PARTS.values()
                    for s in [next((s for s in self.senses[part].get(lemma, []) if not s.proper), None)]
                    if s is not None}
        return labelled


def _lines(path: Path) -> Iterator[str]:
    with path.open(encoding="latin-1") as file:
        for line in file:
            if not line.startswith("  "):  # the licence at the head of each file
                yield line.rstrip("\n")


def _synsets(path: Path) -> Iterator[tuple[str, tuple[list[str], str, str | None]]]:
    """Each synset's offset, its word forms as written, its gloss and its offensive label."""
    for line in _lines(path):
        data, _, gloss = line.partition(" | ")
        fields = data.split()
        count = int(fields[3], 16)
        words = [re.sub(r"\(.*\)$", "", w) for w in fields[4:4 + 2 * count:2]]
        at = 4 + 2 * count
        pointers = int(fields[at])
        domains = {fields[at + 2 + 4 * p] for p in range(pointers) if fields[at + 1 + 4 * p] == ";u"}
        label = next((name for offset, name in OFFENSIVE.items() if offset in domains), None)  # the first named wins
        yield fields[0], (words, gloss, label)


def _sense_of(synset: tuple[list[str], str, str | None], lemma: str) -> Sense:
    words, gloss, label = synset
    written = next((w for w in words if w.lower() == lemma), lemma)
    return Sense(short_gloss(gloss), label, written != written.lower())


def short_gloss(gloss: str) -> str:
    """A gloss without its examples, cut to its first clauses when it runs long."""
    text = gloss.strip()
    quote = text.find('"')
    if quote >= 0:
        text = text[:quote]
    text = text.strip().rstrip(";:,").strip()
    if len(text) > LONGEST:
        clauses = text.split("; ")
        kept = clauses[0]
        for clause in clauses[1:]:
            if len(kept) + 2 + len(clause) > LONGEST:
                break
            kept += "; " + clause
        text = kept
    text = text.replace("`", "'").replace("[", "(").replace("]", ")").replace("<", "(").replace(">", ")")
    return text.replace("{", "(").replace("}", ")").replace(" / ", "/")


def written(sense: Sense, part: str) -> str:
    """A sense as a definition line writes it: a verb reads "to ...", as in Zyzzyva's lists; a
    label that the gloss does not already give stands first."""
    gloss = sense.gloss
    if part == "v" and not gloss.startswith("to "):
        gloss = "to " + gloss
    if sense.label and sense.label not in gloss and "offensive" not in gloss:
        gloss = f"({sense.label}) {gloss}"
    return f"{gloss} [{part}]"


# --- inflections: WordNet's own detachment rules (morphy), by part of speech -------------------

_NOUN_RULES = [("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"),
               ("men", "man"), ("ies", "y")]
_VERB_RULES = [("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"),
               ("ing", ""), ("ied", "y")]
_ADJ_RULES = [("er", ""), ("est", ""), ("er", "e"), ("est", "e"), ("ier", "y"), ("iest", "y")]
RULES = {"n": _NOUN_RULES, "v": _VERB_RULES, "adj": _ADJ_RULES}


def bases(word: str, part: str, wordnet: WordNet) -> Iterator[str]:
    """The base forms WORD may inflect, as part of speech PART (irregular ones first)."""
    yield from wordnet.exceptions[part].get(word, [])
    for ending, replacement in RULES[part]:
        if word.endswith(ending) and len(word) > len(ending) + 1:
            stem = word[: -len(ending)]
            yield stem + replacement
            if part != "n" and not replacement and len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] not in "aeiouls":
                yield stem[:-1]  # stopped, bigger: the doubled consonant


def inflection_links(word: str, wordnet: WordNet, defined: dict[str, dict[str, Sense]],
                     in_list: set[str]) -> list[str]:
    """`<base=pos> [pos]` for each part of speech in which WORD inflects a defined base."""
    links = []
    for part in ("n", "v", "adj"):
        for base in bases(word, part, wordnet):
            if base != word and part in defined.get(base, {}):
                links.append(_link(base, part, in_list, defined))
                break
    return links


def _link(base: str, part: str, in_list: set[str], defined: dict[str, dict[str, Sense]]) -> str:
    """A link Zyzzyva writes out when compiled; where the base is not a word of the list, the
    same text already written out."""
    if base in in_list:
        return f"<{base}={part}> [{part}]"
    return f"{base.upper()}, {defined[base][part].gloss} [{part}]"


# --- derivations with a regular affix ------------------------------------------------------------

#: (prefix, part of the base, part of the word, how the word reads, base in {}).
PREFIXES = [
    ("re", "v", "v", "to {} again"),
    ("un", "adj", "adj", "not {}"),
    ("un", "v", "v", "to reverse the action of {}"),
    ("out", "v", "v", "to {} better or longer than"),
    ("over", "v", "v", "to {} too much"),
    ("over", "adj", "adj", "excessively {}"),
    ("non", "adj", "adj", "not {}"),
    ("non", "n", "n", "something that is not a {}"),
    ("pre", "v", "v", "to {} beforehand"),
    ("mis", "v", "v", "to {} wrongly"),
    ("under", "v", "v", "to {} too little"),
]
#: (suffix, part of the base, part of the word, how the word reads).
SUFFIXES = [
    ("ness", "adj", "n", "the state of being {}"),
    ("ly", "adj", "adv", "in a {} manner"),
    ("less", "n", "adj", "without a {}"),
    ("er", "v", "n", "one that {}"),  # the verb as "one that atones" reads it, not a link
]


def _suffix_bases(word: str, suffix: str) -> Iterator[str]:
    stem = word[: -len(suffix)]
    yield stem
    if stem.endswith("i"):
        yield stem[:-1] + "y"  # happiness, happily
    if suffix == "er":
        yield stem + "e"  # baker
        if len(stem) > 2 and stem[-1] == stem[-2]:
            yield stem[:-1]  # runner
    if suffix == "ly" and stem.endswith("al"):
        yield stem[:-2]  # basically
    if suffix == "ly":
        yield stem + "le"  # gently


def third_person(verb: str) -> str:
    """ATONE -> atones, CARRY -> carries, WASH -> washes."""
    if verb.endswith("y") and verb[-2:-1] not in ("a", "e", "o", "u"):
        return verb[:-1] + "ies"
    if verb.endswith(("s", "x", "z", "ch", "sh")):
        return verb + "es"
    return verb + "s"


def derivation(word: str, defined: dict[str, dict[str, Sense]], in_list: set[str]) -> list[str]:
    """`how it reads {base=pos} [pos]` for the first regular affix whose base is a defined word
    of the list."""
    found: dict[str, str] = {}
    for prefix, base_part, part, reads in PREFIXES:
        base = word[len(prefix):]
        if word.startswith(prefix) and len(base) >= 3 and base in in_list and base_part in defined.get(base, {}):
            found.setdefault(part, reads.format(f"{{{base}={base_part}}}") + f" [{part}]")
    for suffix, base_part, part, reads in SUFFIXES:
        if not word.endswith(suffix) or len(word) - len(suffix) < 3:
            continue
        for base in _suffix_bases(word, suffix):
            if base in in_list and base_part in defined.get(base, {}):
                shown = third_person(base) if suffix == "er" else f"{{{base}={base_part}}}"
                found.setdefault(part, reads.format(shown) + f" [{part}]")
                break
    return list(found.values())


# --- the whole list ----------------------------------------------------------------------------


def define_all(words: Iterable[str], wordnet: WordNet) -> dict[str, str]:
    """Every word of the list that can be defined, with its line's definition: WordNet's own
    words, then their inflections, then derivations, then the derivations' inflections."""
    in_list = {w.lower() for w in words}
    defined: dict[str, dict[str, Sense]] = {}
    out: dict[str, str] = {}
    for word in in_list:
        glosses = wordnet.glosses(word)
        if glosses:
            defined[word] = glosses
            out[word] = " / ".join(written(sense, part) for part, sense in glosses.items())
    lemmas = dict(defined)
    for word in sorted(in_list - out.keys()):
        links = inflection_links(word, wordnet, lemmas, in_list)
        if links:
            out[word] = " / ".join(links)
    derived: dict[str, dict[str, Sense]] = {}
    for word in sorted(in_list - out.keys()):
        lines = derivation(word, lemmas, in_list)
        if lines:
            out[word] = " / ".join(lines)
            derived[word] = {line.rsplit("[", 1)[1].rstrip("]"): Sense(line, None, False) for line in lines}
    for word in sorted(in_list - out.keys()):
        links = inflection_links(word, wordnet, derived, in_list)
        if links:
            out[word] = " / ".join(links)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wordnet", type=Path, default=Path("/usr/share/wordnet"))
    args = parser.parse_args()
    wordnet = WordNet.read(args.wordnet)
    OUT.mkdir(exist_ok=True)
    for name, file in LISTS.items():
        words = (WORDLISTS / file).read_text().split()
        definitions = define_all(words, wordnet)
        lines = [f"{word.upper()} {definitions[word.lower()]}" for word in words if word.lower() in definitions]
        head = HEADER.format(name=name.upper() if name == "cel" else name.upper(), defined=len(lines),
                             words=len(words), share=len(lines) / len(words))
        (OUT / f"wordnet_{name}.txt").write_text(head + "\n".join(lines) + "\n", encoding="utf-8")
        print(f"{name}: {len(lines)} of {len(words)} words defined ({len(lines) / len(words):.1%})")


if __name__ == "__main__":
    main()
