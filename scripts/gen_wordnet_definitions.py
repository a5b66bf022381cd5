"""Write the definitions of the free lexicons (ENABLE, CEL): the short words our own, the rest from WordNet.

Run where WordNet's database files are (Debian's `wordnet-base` puts WordNet 3.0 in
/usr/share/wordnet); the output is committed in lexicons/definitions/, so installing
lexitrain never needs WordNet:

    python scripts/gen_wordnet_definitions.py [--wordnet /usr/share/wordnet] [--out DIR]

Each line is Zyzzyva's `WORD gloss [pos]`, one short gloss per part of speech joined by
" / ". The two- and three-letter words, the ones a player studies first, are defined in
their word-game sense in lexicons/definitions/short_words.txt, written for lexitrain
(WordNet lacks half the twos and reads many as units and abbreviations: HM a hectometre
where the game means the interjection). Every other word WordNet lists gets the first gloss
of each of its parts of speech; an inflection links to its base as Zyzzyva writes links
(CATS `<cat=n> [n]`); an -ING or -ED word with a sense of its own links to its verb too
(TYPING `... [n] / <type=v> [v]`); an agent noun reads as one (HINDERER `one that hinders
[n]`), an -ER word being read as a comparative only where the list has its superlative
too; a derived word with a regular affix links to its base in the `{base=pos}` style (REDO
`to {do=v} again [v]`, written out "to do (to engage in) again") where the base's first
sense is the one it reads (the base has one sense, or the first holds most of WordNet's
tagged uses); else that sense is left out and the base named alone (WINNINGLY `in a
winning manner`, not "having won"). A sense WordNet marks as offensive (an ethnic slur, disparaging,
obscene), or whose gloss says it is one (`OFFENSIVE_MARKERS`), is skipped where the word
has another; a word with no other sense is labelled as dictionaries label it.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORDLISTS = ROOT / "lexicons" / "wordlists"
OUT = ROOT / "lexicons" / "definitions"
#: the short words' definitions, written for lexitrain (the project's own, under its licence)
SHORT_WORDS = OUT / "short_words.txt"
LISTS = {"enable": "enable1.txt", "cel": "cel.txt"}

#: WordNet's file suffix of each part of speech, and the tag Zyzzyva writes for it.
PARTS = {"noun": "n", "verb": "v", "adj": "adj", "adv": "adv"}
#: The usage domains (noun synsets, found by their words) that mark a sense as offensive, and
#: the label a dictionary puts before a word that has no other sense.
OFFENSIVE = {"ethnic_slur": "ethnic slur", "derogation": "disparaging", "vulgarism": "vulgar"}
#: What a gloss says of a sense that is an offensive use of the word, where WordNet gives it no
#: usage domain (PUSS "obscene terms for female genitals", SHRIMP "disparaging terms for small
#: people", BUNGHOLE "vulgar slang for anus"); tests/test_lexicon_wordnet.py reads every shipped
#: line's first sense with these.
OFFENSIVE_MARKERS = re.compile(
    r"\((?:offensive|ethnic slur|vulgar|disparaging)\)"
    r"|\b(?:obscene|vulgar|disparaging|derogatory|offensive|insulting|contemptuous|abusive)"
    r" (?:terms?|names?|words?|slang|expressions?)\b"
    r"|\bterms? of (?:abuse|address for people who are stupid)", re.IGNORECASE)
#: A derived word reads its base's first sense only where the base has one sense, or where
#: WordNet's tagged uses of it in that part of speech are at least FIT_USES and its first sense
#: holds at least FIT_SHARE of them; else it names the base without a sense.
FIT_SHARE = 0.75
FIT_USES = 5
#: The longest gloss kept whole; a longer one is cut at its last clause that fits.
LONGEST = 90

HEADER = """\
# Definitions of the {name} words. The two- and three-letter words ({short} here) are lexitrain's own,
# written for the project in their word-game sense (short_words.txt beside this file, under
# lexitrain's MIT licence); the others are from Princeton WordNet 3.0 (WordNet 3.0 Copyright 2006
# by Princeton University; licence in LICENSE-WordNet-3.0.txt beside this file). Written by
# scripts/gen_wordnet_definitions.py: one short gloss per part of speech, inflections linked to
# their base (<cat=n>), regular derivations to theirs ({{do=v}}).
# {defined} of {words} words defined ({share:.1%}).
"""


@dataclass
class Sense:
    """One WordNet synset as a word's sense: its gloss and, if any, its offensive label."""

    gloss: str
    label: str | None
    proper: bool  # the word is capitalised in this synset (a name: MAY the month)

    @property
    def offensive(self) -> bool:
        return self.label is not None or OFFENSIVE_MARKERS.search(self.gloss) is not None


@dataclass
class WordNet:
    """The parts of WordNet the glosses need: each lemma's senses by part of speech, in
    WordNet's order (most frequent first), and the irregular inflections."""

    senses: dict[str, dict[str, list[Sense]]] = field(default_factory=dict)  # part -> lemma -> senses
    tagged: dict[str, dict[str, int]] = field(default_factory=dict)  # part -> lemma -> tagged sense count
    exceptions: dict[str, dict[str, list[str]]] = field(default_factory=dict)  # part -> form -> bases
    uses: dict[tuple[str, str], dict[int, int]] = field(default_factory=dict)  # (part, lemma) -> sense number -> uses

    @classmethod
    def read(cls, folder: Path) -> WordNet:
        wordnet = cls()
        domains = _offensive_domains(folder / "data.noun")
        wordnet.uses = _tagged_uses(folder)
        for suffix, part in PARTS.items():
            synsets = dict(_synsets(folder / f"data.{suffix}", domains))
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
                 for s in [next((s for s in self.senses[part].get(lemma, []) if not s.proper and not s.offensive), None)]
                 if s is not None}
        if clean:
            return dict(sorted(clean.items(), key=lambda item: -self.tagged[item[0]].get(lemma, 0)))
        labelled = {part: s for part in PARTS.values()
                    for s in [next((s for s in self.senses[part].get(lemma, []) if not s.proper), None)]
                    if s is not None}
        return labelled

    def first_sense_fits(self, lemma: str, part: str) -> bool:
        """Does LEMMA's first sense as PART stand for the word, for a derivation to read it? It
        has one sense, or its first holds at least FIT_SHARE of at least FIT_USES tagged uses."""
        senses = self.senses[part].get(lemma, [])
        if len(senses) <= 1:
            return True
        uses = self.uses.get((part, lemma), {})
        total = sum(uses.values())
        return total >= FIT_USES and uses.get(1, 0) >= FIT_SHARE * total


#: the part of speech of each synset type in a sense key (lemma%type:...), satellites as adjectives
_SENSE_KEY_PARTS = {"1": "n", "2": "v", "3": "adj", "4": "adv", "5": "adj"}


def _tagged_uses(folder: Path) -> dict[tuple[str, str], dict[int, int]]:
    """How often each sense of each lemma is tagged in WordNet's semantic concordance, by sense
    number: cntlist.rev (`key number count`, Debian's wordnet-base) or index.sense
    (`key offset number count`, where a WordNet ships that instead)."""
    uses: dict[tuple[str, str], dict[int, int]] = {}
    path, number_at = (folder / "cntlist.rev", 1) if (folder / "cntlist.rev").is_file() else (folder / "index.sense", 2)
    if not path.is_file():
        return uses  # no counts: a base of several senses is never read by its first
    for line in _lines(path):
        fields = line.split()
        lemma, _, key = fields[0].partition("%")
        part = _SENSE_KEY_PARTS[key[0]]
        counted = uses.setdefault((part, lemma), {})
        counted[int(fields[number_at])] = counted.get(int(fields[number_at]), 0) + int(fields[number_at + 1])
    return uses


def _offensive_domains(path: Path) -> dict[str, str]:
    """The offsets of the usage-domain synsets in OFFENSIVE, with their labels, in OFFENSIVE's
    order (the offsets differ between WordNet versions; their words name them)."""
    found: dict[str, str] = {}
    for line in _lines(path):
        fields = line.split(" | ")[0].split()
        words = fields[4:4 + 2 * int(fields[3], 16):2]
        for word in words:
            if word in OFFENSIVE:
                found[word] = fields[0]
    return {found[word]: label for word, label in OFFENSIVE.items() if word in found}


def _lines(path: Path) -> Iterator[str]:
    with path.open(encoding="latin-1") as file:
        for line in file:
            if not line.startswith("  "):  # the licence at the head of each file
                yield line.rstrip("\n")


def _synsets(path: Path, offensive: dict[str, str]) -> Iterator[tuple[str, tuple[list[str], str, str | None]]]:
    """Each synset's offset, its word forms as written, its gloss and its offensive label (from
    its usage domains among `offensive`)."""
    for line in _lines(path):
        data, _, gloss = line.partition(" | ")
        fields = data.split()
        count = int(fields[3], 16)
        words = [re.sub(r"\(.*\)$", "", w) for w in fields[4:4 + 2 * count:2]]
        at = 4 + 2 * count
        pointers = int(fields[at])
        domains = {fields[at + 2 + 4 * p] for p in range(pointers) if fields[at + 1 + 4 * p] == ";u"}
        label = next((name for offset, name in offensive.items() if offset in domains), None)  # the first found wins
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


def bases(word: str, part: str, wordnet: WordNet, in_list: set[str] | None = None,
          endings: tuple[str, ...] = ()) -> Iterator[str]:
    """The base forms WORD may inflect, as part of speech PART (irregular ones first); only by
    the rules of `endings` where given. Given the list, an -ER word is a comparative only where
    its superlative is a word too (HINDERER is no comparative of HINDER: there is no HINDEREST)."""
    if not endings:
        yield from wordnet.exceptions[part].get(word, [])
    for ending, replacement in RULES[part]:
        if endings and ending not in endings:
            continue
        if part == "adj" and ending.endswith("er") and in_list is not None and word[:-2] + "est" not in in_list:
            continue
        if word.endswith(ending) and len(word) > len(ending) + 1:
            stem = word[: -len(ending)]
            yield stem + replacement
            if (part != "n" and ending in ("ed", "ing", "er", "est") and not replacement and len(stem) > 2
                    and stem[-1] == stem[-2] and stem[-1] not in "aeious"):
                yield stem[:-1]  # stopped, bigger, controlled: the doubled consonant (after the stem itself: called)


def inflection_links(word: str, wordnet: WordNet, defined: dict[str, dict[str, Sense]],
                     in_list: set[str]) -> list[str]:
    """`<base=pos> [pos]` for each part of speech in which WORD inflects a defined base; an -ER
    word that is a noun (its plural is a word) also reads as the agent of its verb."""
    links = []
    for part in ("n", "v", "adj"):
        for base in bases(word, part, wordnet, in_list):
            if base != word and part in defined.get(base, {}):
                links.append(_link(base, part, in_list, defined))
                break
    if links and word + "s" in in_list:
        links += [line for line in agent_noun(word, defined, in_list) if line not in links]
    return links


def verb_links(word: str, wordnet: WordNet, defined: dict[str, dict[str, Sense]], in_list: set[str]) -> list[str]:
    """For an -ING or -ED word WordNet defines as something else (TYPING a noun, PARKED an
    adjective), the link to the verb it is also a form of (`<type=v> [v]`), if any."""
    if not word.endswith(("ing", "ed")) or "v" in defined.get(word, {}):
        return []
    for base in bases(word, "v", wordnet, endings=("ing", "ed", "ied")):  # tried: try
        if base != word and base in in_list and "v" in defined.get(base, {}):
            return [_link(base, "v", in_list, defined)]
    return []


def _link(base: str, part: str, in_list: set[str], defined: dict[str, dict[str, Sense]]) -> str:
    """A link Zyzzyva writes out when compiled; where the base is not a word of the list, the
    same text already written out."""
    if base in in_list:
        return f"<{base}={part}> [{part}]"
    return f"{base.upper()}, {defined[base][part].gloss} [{part}]"


# --- derivations with a regular affix ------------------------------------------------------------

#: (prefix, part of the base, part of the word, how the word reads, base in {}, {a} its article).
PREFIXES = [
    ("re", "v", "v", "to {} again"),
    ("un", "adj", "adj", "not {}"),
    ("un", "v", "v", "to reverse the action of {}"),
    ("out", "v", "v", "to {} better or longer than"),
    ("over", "v", "v", "to {} too much"),
    ("over", "adj", "adj", "excessively {}"),
    ("non", "adj", "adj", "not {}"),
    ("non", "n", "n", "something that is not {a} {}"),
    ("pre", "v", "v", "to {} beforehand"),
    ("mis", "v", "v", "to {} wrongly"),
    ("under", "v", "v", "to {} too little"),
]
#: (suffix, part of the base, part of the word, how the word reads).
SUFFIXES = [
    ("ness", "adj", "n", "the state of being {}"),
    ("ly", "adj", "adv", "in {a} {} manner"),
    ("less", "n", "adj", "without {a} {}"),
    ("er", "v", "n", "one that {}"),  # the verb as "one that atones" reads it, not a link
]


def article(word: str) -> str:
    """"a" or "an" before WORD as it is said: an odd, an unkind, an hour; a union, a use, a euro, a one."""
    said_with_a_vowel = (word[:1] in "aeiou" and not re.match(r"u(bi|ni[^nm]|s|ti|vu)|eu|ewe|one(?!ir)|once", word)
                         or word.startswith(("hour", "honest", "honor", "honour", "heir")))
    return "an" if said_with_a_vowel else "a"


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


def derivation(word: str, defined: dict[str, dict[str, Sense]], in_list: set[str],
               fits: Callable[[str, str], bool] = lambda base, part: True) -> list[str]:
    """`how it reads {base=pos} [pos]` for the first regular affix whose base is a defined word
    of the list. The link reads the base's first sense; where that sense does not `fit` the
    base (WINNING "having won" for WINNINGLY), the base is named without it ("in a winning
    manner"), as an agent noun names its verb ("one that atones"): right whatever the sense."""
    found: dict[str, str] = {}

    def base_as_read(base: str, part: str) -> str:
        return f"{{{base}={part}}}" if fits(base, part) else base

    for prefix, base_part, part, reads in PREFIXES:
        base = word[len(prefix):]
        if word.startswith(prefix) and len(base) >= 3 and base in in_list and base_part in defined.get(base, {}):
            found.setdefault(part, reads.format(base_as_read(base, base_part), a=article(base)) + f" [{part}]")
    for suffix, base_part, part, reads in SUFFIXES:
        if not word.endswith(suffix) or len(word) - len(suffix) < 3:
            continue
        for base in _suffix_bases(word, suffix):
            if base in in_list and base_part in defined.get(base, {}):
                shown = third_person(base) if suffix == "er" else base_as_read(base, base_part)
                found.setdefault(part, reads.format(shown, a=article(base)) + f" [{part}]")
                break
    return list(found.values())


def agent_noun(word: str, defined: dict[str, dict[str, Sense]], in_list: set[str]) -> list[str]:
    """`one that hinders [n]` for an -ER word of a defined verb of the list."""
    return [line for line in derivation(word, defined, in_list) if line.startswith("one that ")]


# --- the whole list ----------------------------------------------------------------------------


def read_short_words(path: Path = SHORT_WORDS) -> dict[str, str]:
    """Our own definitions of the short words: `WORD definition` lines, # comments."""
    out: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            word, _, definition = line.partition(" ")
            out[word.lower()] = definition.strip()
    return out


def _senses_of(definition: str) -> dict[str, Sense]:
    """A written definition's first sense of each part of speech, links left out (for words that
    inflect it: AAHED `<aah=v>`)."""
    senses: dict[str, Sense] = {}
    for sense in definition.split(" / "):
        gloss, _, tag = sense.rpartition(" [")
        if "=" not in gloss:
            senses.setdefault(tag.rstrip("]"), Sense(gloss, None, False))
    return senses


def define_all(words: Iterable[str], wordnet: WordNet, own: dict[str, str] | None = None) -> dict[str, str]:
    """Every word of the list that can be defined, with its line's definition: our own short
    words and WordNet's own words (with the verb an -ING or -ED word is also a form of), then
    their inflections, then derivations, then the derivations' inflections."""
    in_list = {w.lower() for w in words}
    defined: dict[str, dict[str, Sense]] = {}
    out: dict[str, str] = {}
    for word, definition in (own or {}).items():
        if word in in_list:
            defined[word] = _senses_of(definition)
            out[word] = definition
    for word in in_list - out.keys():
        glosses = wordnet.glosses(word)
        if glosses:
            defined[word] = glosses
            out[word] = " / ".join(written(sense, part) for part, sense in glosses.items())
    lemmas = dict(defined)
    for word in sorted(out.keys() - (own or {}).keys()):
        links = verb_links(word, wordnet, lemmas, in_list)
        if all(sense.offensive for sense in defined[word].values()):  # only an offensive sense: the verb first
            out[word] = " / ".join(links + [out[word]])
        else:
            out[word] = " / ".join([out[word]] + links)
    for word in sorted(in_list - out.keys()):
        links = inflection_links(word, wordnet, lemmas, in_list)
        if links:
            out[word] = " / ".join(links)
    derived: dict[str, dict[str, Sense]] = {}
    for word in sorted(in_list - out.keys()):
        lines = derivation(word, lemmas, in_list, wordnet.first_sense_fits)
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
    parser.add_argument("--out", type=Path, default=OUT, help="where to write (default: the shipped files)")
    args = parser.parse_args()
    wordnet = WordNet.read(args.wordnet)
    own = read_short_words()
    args.out.mkdir(exist_ok=True)
    for name, file in LISTS.items():
        words = (WORDLISTS / file).read_text().split()
        definitions = define_all(words, wordnet, own)
        lines = [f"{word.upper()} {definitions[word.lower()]}" for word in words if word.lower() in definitions]
        short = sum(1 for word in words if word.lower() in own)
        head = HEADER.format(name=name.upper(), short=short, defined=len(lines), words=len(words),
                             share=len(lines) / len(words))
        (args.out / f"wordnet_{name}.txt").write_text(head + "\n".join(lines) + "\n", encoding="utf-8")
        print(f"{name}: {len(lines)} of {len(words)} words defined ({len(lines) / len(words):.1%})")


if __name__ == "__main__":
    main()
