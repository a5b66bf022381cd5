"""Definitions for the free lexicons: the generator on a small WordNet of our own, and what a
player reads from the shipped files (the short words in their game sense, coverage, inflections,
agent nouns and participles, offensive senses)."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from lexitrain.lexicon import store
from lexitrain.lexicon.catalog import EMBEDDED, open_lexicon
from lexitrain.lexicon.definitions import SENSES, written_out
from lexitrain.lexicon.lexicon import Lexicon
from tests.cli_runner import run

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "gen_wordnet_definitions.py"
SHIPPED = ROOT / "lexicons" / "definitions"
WORDNET = Path("/usr/share/wordnet")
SLUR = "06718862"  # WordNet's "ethnic slur" usage domain
#: What a gloss says of a sense that is an offensive use of the word (as dictionaries label one):
#: a first sense saying any of these is shown only for a word that has nothing else to show.
MARKERS = ("(offensive)", "(ethnic slur)", "(vulgar)", "(disparaging)", "obscene term", "obscene word",
           "vulgar slang", "vulgar term", "vulgar expression", "disparaging term", "derogatory term",
           "offensive term", "offensive name", "offensive word", "term of abuse", "terms of abuse",
           "insulting term", "contemptuous term", "uncomplimentary term")


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_wordnet_definitions", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _synset(offset: str, part: str, words: list[str], gloss: str, usage: str | None = None) -> str:
    pointers = [f";u {usage} n 0000"] if usage else []
    listed = " ".join(f"{w} 0" for w in words)
    return f"{offset} 05 {part} {len(words):02x} {listed} {len(pointers):03d} {' '.join(pointers)} | {gloss}  "


def _index(lemma: str, part: str, offsets: list[str], tagged: int) -> str:
    return f"{lemma} {part} {len(offsets)} 0 {len(offsets)} {tagged} {' '.join(offsets)}  "


@pytest.fixture
def small_wordnet(tmp_path: Path) -> Path:
    """A WordNet of a few synsets, in WordNet 3.0's own file format."""
    folder = tmp_path / "wordnet"
    folder.mkdir()
    nouns = [
        _synset("00000001", "n", ["cat", "true_cat"], 'a small feline; "the cat purred"'),
        _synset("00000002", "n", ["goose"], "a web-footed bird"),
        _synset("00000003", "n", ["zork"], "(ethnic slur) an offensive name for a Zorkish person", SLUR),
        _synset("00000004", "n", ["zork"], "a kind of cheese"),
        _synset("00000005", "n", ["blorp"], "a term of abuse for a Blorpian", SLUR),
        _synset("00000006", "n", ["May"], "the month after April"),
        _synset(SLUR, "n", ["ethnic_slur"], "a slur on someone's race or language"),
        _synset("00000007", "n", ["puss"], "obscene terms for female genitals"),  # no usage domain: its words say
        _synset("00000008", "n", ["puss", "kitty"], "informal terms for a cat"),
        _synset("00000009", "n", ["typing"], "writing done with a typewriter"),
        _synset("00000010", "n", ["union"], "the act of joining together"),
        _synset("00000017", "n", ["arm"], "a limb of the body"),
    ]
    verbs = [
        _synset("00000011", "v", ["cat"], "beat with a whip"),
        _synset("00000012", "v", ["seal"], "close with a seal"),
        _synset("00000013", "v", ["atone"], "make amends for"),
        _synset("00000014", "v", ["type"], "write by means of a keyboard"),
        _synset("00000015", "v", ["hinder"], "be a hindrance or obstacle to"),
        _synset("00000016", "v", ["fast"], "abstain from certain foods"),
        _synset("00000018", "v", ["try"], "make an effort"),
        _synset("00000019", "v", ["control"], "exercise authority over"),
    ]
    adjs = [_synset("00000021", "a", ["kind"], "having a friendly nature"),
            _synset("00000022", "a", ["hinder"], "located at or near the back of an animal"),
            _synset("00000023", "a", ["winning"], "having won"),
            _synset("00000024", "a", ["winning"], "very attractive; capturing interest"),
            _synset("00000025", "a", ["fast"], "acting or moving quickly"),
            _synset("00000026", "a", ["odd"], "not divisible by two"),
            _synset("00000027", "a", ["tried"], "tested and proved useful"),
            _synset("00000028", "a", ["controlled"], "kept within bounds")]
    (folder / "data.noun").write_text("\n".join(nouns) + "\n")
    (folder / "data.verb").write_text("\n".join(verbs) + "\n")
    (folder / "data.adj").write_text("\n".join(adjs) + "\n")
    (folder / "data.adv").write_text("")
    (folder / "index.noun").write_text("\n".join([
        _index("blorp", "n", ["00000005"], 0), _index("cat", "n", ["00000001"], 5),
        _index("goose", "n", ["00000002"], 1), _index("may", "n", ["00000006"], 0),
        _index("puss", "n", ["00000007", "00000008"], 1), _index("typing", "n", ["00000009"], 1),
        _index("union", "n", ["00000010"], 1), _index("arm", "n", ["00000017"], 1),
        _index("zork", "n", ["00000003", "00000004"], 0)]) + "\n")
    (folder / "index.verb").write_text("\n".join([
        _index("atone", "v", ["00000013"], 1), _index("cat", "v", ["00000011"], 1),
        _index("fast", "v", ["00000016"], 1), _index("hinder", "v", ["00000015"], 2), _index("seal", "v", ["00000012"], 9),
        _index("type", "v", ["00000014"], 3), _index("try", "v", ["00000018"], 3),
        _index("control", "v", ["00000019"], 3)]) + "\n")
    (folder / "index.adj").write_text("\n".join([
        _index("fast", "a", ["00000025"], 4), _index("hinder", "a", ["00000022"], 1),
        _index("kind", "a", ["00000021"], 1), _index("odd", "a", ["00000026"], 1),
        _index("tried", "a", ["00000027"], 1), _index("controlled", "a", ["00000028"], 1),
        _index("winning", "a", ["00000023", "00000024"], 2)]) + "\n")
    # WordNet's tagged uses by sense: WINNING's first sense holds 3 of 5, too few to read WINNINGLY by
    (folder / "cntlist.rev").write_text("winning%5:00:01:successful:00 1 3\nwinning%5:00:02:attractive:00 2 2\n")
    (folder / "index.adv").write_text("")
    (folder / "noun.exc").write_text("geese goose\n")
    for part in ("verb", "adj", "adv"):
        (folder / f"{part}.exc").write_text("")
    return folder


def test_the_generator_writes_zyzzyvas_lines_from_wordnet(small_wordnet: Path) -> None:
    gen = _generator()
    words = ["CAT", "CATS", "GOOSE", "GEESE", "SEAL", "RESEAL", "KIND", "UNKIND", "KINDNESS", "ATONE", "ATONER",
             "ATONERS", "ZORK", "BLORP", "MAY", "QI", "HM", "PUSS"]
    defined = gen.define_all(words, gen.WordNet.read(small_wordnet), {"hm": "used to express consideration [interj]"})
    # the more often tagged part of speech first; a verb reads "to ..."; examples dropped
    assert defined["cat"] == "a small feline [n] / to beat with a whip [v]"
    assert defined["cats"] == "<cat=n> [n] / <cat=v> [v]"
    assert defined["geese"] == "<goose=n> [n]"  # WordNet's irregular forms
    assert defined["reseal"] == "to {seal=v} again [v]"
    assert defined["unkind"] == "not {kind=adj} [adj]"
    assert defined["kindness"] == "the state of being {kind=adj} [n]"
    assert defined["atoner"] == "one that atones [n]"
    assert defined["atoners"] == "<atoner=n> [n]"  # an inflection of a derived word
    # an ethnic slur is never the sense shown where the word has another; alone, it is labelled
    assert defined["zork"] == "a kind of cheese [n]"
    assert defined["blorp"] == "(ethnic slur) a term of abuse for a Blorpian [n]"
    # a name (WordNet capitalises it) is no definition of the common word; nor is a guess
    assert "may" not in defined and "qi" not in defined
    # our own short words stand instead of WordNet's; an obscene sense that WordNet gives no usage domain
    # is known by its gloss and passed over
    assert defined["hm"] == "used to express consideration [interj]"
    assert defined["puss"] == "informal terms for a cat [n]"


def test_agent_nouns_participles_and_derivations_read_the_right_sense(small_wordnet: Path) -> None:
    gen = _generator()
    words = ["HINDER", "HINDERER", "HINDERERS", "TYPE", "TYPING", "TYPINGS", "WINNING", "WINNINGLY", "FAST",
             "FASTER", "FASTERS", "FASTEST", "KIND", "KINDLY"]
    defined = gen.define_all(words, gen.WordNet.read(small_wordnet))
    # no HINDEREST: HINDERER is the one that hinders, not "more hinder"; FASTER is both
    assert defined["hinderer"] == "one that hinders [n]"
    assert defined["hinderers"] == "<hinderer=n> [n]"
    assert defined["faster"] == "<fast=adj> [adj] / one that fasts [n]"
    # a word with a sense of its own is a form of its verb too
    assert defined["typing"] == "writing done with a typewriter [n] / <type=v> [v]"
    more = gen.define_all(["TRY", "TRIED", "CONTROL", "CONTROLLED"], gen.WordNet.read(small_wordnet))
    assert more["tried"] == "tested and proved useful [adj] / <try=v> [v]"  # (-IED and a doubled L: no verb
    assert more["controlled"] == "kept within bounds [adj] / <control=v> [v]"  # before)
    wordnet = gen.WordNet.read(small_wordnet)  # no consonant is doubled before -S: STEPPES is no form of STEP
    assert "step" not in gen.bases("steppes", "v", wordnet) and "stepp" in gen.bases("stepped", "v", wordnet)
    # WINNING's first sense ("having won") holds too few of its uses to stand for it: named alone
    assert defined["winningly"] == "in a winning manner [adv]"
    assert defined["kindly"] == "in a {kind=adj} manner [adv]"  # one sense: read by it
    more = gen.define_all(["ODD", "ODDLY", "ARM", "ARMLESS", "UNION", "NONUNION"], gen.WordNet.read(small_wordnet))
    assert more["oddly"] == "in an {odd=adj} manner [adv]"  # (it read "in a odd manner")
    assert more["armless"] == "without an {arm=n} [adj]"
    assert more["nonunion"] == "something that is not a {union=n} [n]"  # a u said as "you"
    assert [gen.article(w) for w in ("unkind", "unit", "use", "euro", "hour", "one", "oneiric", "eel")] == [
        "an", "a", "a", "a", "an", "a", "an", "an"]

def test_a_compiled_list_reads_the_links_written_out(small_wordnet: Path, tmp_path: Path) -> None:
    gen = _generator()
    words = ["CAT", "CATS", "SEAL", "RESEAL"]
    defined = gen.define_all(words, gen.WordNet.read(small_wordnet))
    source = tmp_path / "list.txt"
    source.write_text("\n".join(words) + "\n")
    definitions = tmp_path / "defs.txt"
    definitions.write_text("# a comment\n" + "".join(f"{w} {defined[w.lower()]}\n" for w in words))
    result = run("lexicon", "build", str(source), "--name", "mine", "--definitions", str(definitions), "--json")
    assert result.exit_code == 0, result.output
    shown = _definitions("CATS", "RESEAL", "--lexicon", "mine")
    assert shown["CATS"] == "CAT, a small feline [n] / CAT, to beat with a whip [v]"
    assert shown["RESEAL"] == "to seal (to close with a seal) again [v]"


def test_a_lists_own_definition_wins_over_the_definitions_file(tmp_path: Path) -> None:
    source = tmp_path / "list.txt"
    source.write_text("CAT my own words [n]\nDOG\nEMU\n")
    definitions = tmp_path / "defs.txt"
    definitions.write_text("CAT a feline [n]\nDOG a canine [n]\nYAK not in the list [n]\n")
    assert run("lexicon", "build", str(source), "--name", "mine", "--definitions", str(definitions)).exit_code == 0
    shown = _definitions("CAT", "DOG", "EMU", "--lexicon", "mine")
    assert shown == {"CAT": "my own words [n]", "DOG": "a canine [n]", "EMU": ""}
    assert run("judge", "YAK", "--lexicon", "mine").exit_code == 1  # the file defines, the list decides


def _definitions(*args: str) -> dict[str, str]:
    """What `define --json` says of each word."""
    return {word: entry["definition"] for word, entry in json.loads(run("define", *args, "--json").stdout).items()}


def _defined_share(lex: Lexicon, where: str = "1") -> float:
    total, defined = lex.db.execute(
        f"SELECT count(*), sum(definition != '') FROM words WHERE {where}").fetchone()
    return defined / total


@pytest.mark.slow
def test_define_gives_every_enable_two_and_three_its_game_sense(enable: Lexicon) -> None:
    shorts = [row[0] for row in enable.db.execute("SELECT word FROM words WHERE length <= 3 ORDER BY word")]
    assert len(shorts) == 96 + 972
    shown = _definitions(*shorts)
    assert [word for word in shorts if not shown[word]] == []
    assert shown["HM"].startswith("used to express thoughtful consideration")
    assert shown["MI"] == "the third note of the scale [n]" and shown["XI"].startswith("the fourteenth letter")
    assert shown["AAS"] == "AA, rough, clinkery lava [n]"  # a link to another short word, written out
    longer = _definitions("HINDERER", "TYPING", "WINNINGLY")
    assert longer["HINDERER"] == "one that hinders [n]"
    assert longer["TYPING"] == "writing done with a typewriter [n] / TYPE, to write by means of a keyboard with types [v]"
    assert longer["WINNINGLY"] == "in a winning manner [adv]"


@pytest.mark.slow
def test_enable_has_a_definition_for_most_words_a_player_studies(enable: Lexicon) -> None:
    assert _defined_share(enable) >= 0.65
    assert _defined_share(enable, "length = 7 AND probability_rank2 <= 1000") >= 0.65
    assert _defined_share(enable, "length = 8") >= 0.65
    shown = _definitions("CATS", "AARDWOLVES", "OUTJUMPED")
    assert shown["CATS"].startswith("CAT, ") and "[n]" in shown["CATS"] and "[v]" in shown["CATS"]
    assert shown["AARDWOLVES"].startswith("AARDWOLF, ")
    assert shown["OUTJUMPED"] == "OUTJUMP, to jump better or longer than [v]"  # JUMP has many senses: named alone
    cel = open_lexicon("cel")
    assert _defined_share(cel) >= 0.65
    rows = json.loads(run("search", "--length", "8", "--definition", "hyena", "--json").stdout)
    assert "AARDWOLF" in [r["word"] for r in rows]  # a --definition search finds what a player reads


def _shipped_lines() -> dict[str, dict[str, str]]:
    """Each shipped definitions file's lines, word -> definition."""
    files = {}
    for path in sorted(SHIPPED.glob("wordnet_*.txt")):
        lines = (line.partition(" ") for line in path.read_text(encoding="utf-8").splitlines()
                 if not line.startswith("#"))
        files[path.name] = {word: definition for word, _, definition in lines}
    return files


def _offensive(sense: str) -> bool:
    return any(marker in sense.lower() for marker in MARKERS)


def test_no_offensive_sense_is_the_first_of_a_word_that_has_another() -> None:
    for name, lines in _shipped_lines().items():
        for word, definition in lines.items():
            senses = definition.split(" / ")
            if _offensive(senses[0]):
                assert all(_offensive(sense) for sense in senses), f"{name}: {word} shows an offensive sense first"
    enable = _shipped_lines()["wordnet_enable.txt"]
    for word in ("PUSS", "PUSSY", "SHRIMP", "PEEWEE", "BUNGHOLE", "CHINK", "COP", "ASS", "CUM"):
        first = enable[word].split(" / ")[0]
        assert not _offensive(first) and "obscene" not in first and "slur" not in first, (word, enable[word])
    assert not _offensive(enable["FAG"]) and _offensive(enable["WOP"])  # only a slur: labelled as one


def test_the_short_words_read_in_their_word_game_sense() -> None:
    """Every two and three of ENABLE and CEL is our own definition, in the sense the game means."""
    own = (SHIPPED / "short_words.txt").read_text(encoding="utf-8")
    written = dict(line.split(" ", 1) for line in own.splitlines() if line and not line.startswith("#"))
    for name, lines in _shipped_lines().items():
        words = (ROOT / "lexicons" / "wordlists" / ("enable1.txt" if "enable" in name else "cel.txt")).read_text()
        for word in {w.upper() for w in words.split() if len(w) <= 3}:
            assert lines.get(word) == written[word], (name, word)
    enable = _shipped_lines()["wordnet_enable.txt"]
    assert enable["HM"].startswith("used to express thoughtful consideration") and "[interj]" in enable["HM"]
    assert enable["MM"].startswith("used to express assent") and "metre" not in enable["MM"]
    assert enable["MI"] == "the third note of the scale [n]"
    assert enable["IN"].startswith("to harvest") and "inch" not in enable["IN"] and "foot" not in enable["IN"]
    assert enable["XI"] == "the fourteenth letter of the Greek alphabet [n]"  # no Roman eleven
    assert enable["LI"].startswith("a Chinese unit of distance") and "fifty" not in enable["LI"]
    for name, lines in _shipped_lines().items():  # as `define` writes them out: a gloss, not a word alone
        for word in {w for w in lines if len(w) <= 3}:
            shown = written_out(lines[word], lambda linked: lines.get(linked, ""), word)
            bare = [sense for sense in shown.split(SENSES) if sense.split(" [")[0].strip().isupper()]
            assert not bare, (name, word, shown)  # (TAS read "TA [n]", ZOA "ZOON [n]": links to nothing)
    assert enable["HINDERER"] == "one that hinders [n]"
    assert enable["TYPING"].endswith("<type=v> [v]") and enable["PARKED"].endswith("<park=v> [v]")
    assert "having won" not in enable["WINNINGLY"]


def test_the_shipped_files_carry_their_credit_and_licence() -> None:
    for name, entry in EMBEDDED.items():
        text = (SHIPPED / entry["definitions"]).read_text(encoding="utf-8")
        head = text[:800]
        assert text.startswith("# Definitions of the") and "lexitrain's own" in head and "short_words.txt" in head
        assert "Princeton WordNet 3.0" in head and "LICENSE-WordNet-3.0.txt" in head
        assert "lexitrain" in entry["credit"] and "WordNet 3.0" in entry["credit"]
    assert "WordNet 3.0 Copyright 2006 by Princeton University" in (SHIPPED / "LICENSE-WordNet-3.0.txt").read_text()
    own = (SHIPPED / "short_words.txt").read_text(encoding="utf-8")
    assert "Written for lexitrain" in own[:400] and "MIT licence" in own[:400]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "short_words.txt" in readme and "the project's own" in readme


def test_a_copy_compiled_before_the_definitions_is_compiled_again(compiled_home: Path, home: Path) -> None:
    shutil.copytree(compiled_home / "lexicons", home / "lexicons", dirs_exist_ok=True)
    manifest = store.read_manifest("cel")
    assert manifest is not None
    path = home / "lexicons" / "cel.json"
    path.write_text(json.dumps({**manifest, "revision": "none"}))
    cel = open_lexicon("cel")
    assert cel.manifest["revision"] == EMBEDDED["cel"]["revision"]
    assert _defined_share(cel) >= 0.65


@pytest.mark.skipif(not (WORDNET / "data.noun").is_file(), reason="WordNet 3.0 (Debian's wordnet-base) not here")
def test_the_shipped_definitions_are_what_the_generator_writes(tmp_path: Path) -> None:
    copy = tmp_path / "checkout"
    (copy / "scripts").mkdir(parents=True)
    shutil.copy(SCRIPT, copy / "scripts")
    shutil.copytree(ROOT / "lexicons" / "wordlists", copy / "lexicons" / "wordlists")
    (copy / "lexicons" / "definitions").mkdir()
    shutil.copy(SHIPPED / "short_words.txt", copy / "lexicons" / "definitions")
    subprocess.run([sys.executable, str(copy / "scripts" / SCRIPT.name), "--wordnet", str(WORDNET)],
                   check=True, capture_output=True)
    for path in SHIPPED.glob("wordnet_*.txt"):
        assert (copy / "lexicons" / "definitions" / path.name).read_text() == path.read_text(), path.name
