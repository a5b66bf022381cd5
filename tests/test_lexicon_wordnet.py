"""WordNet definitions for the free lexicons: the generator on a small WordNet of our own, and
what a player reads from the shipped files (coverage, inflections, offensive senses)."""

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
from lexitrain.lexicon.lexicon import Lexicon
from tests.cli_runner import run

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "gen_wordnet_definitions.py"
SHIPPED = ROOT / "lexicons" / "definitions"
WORDNET = Path("/usr/share/wordnet")
SLUR = "06718862"  # WordNet's "ethnic slur" usage domain


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
    ]
    verbs = [
        _synset("00000011", "v", ["cat"], "beat with a whip"),
        _synset("00000012", "v", ["seal"], "close with a seal"),
        _synset("00000013", "v", ["atone"], "make amends for"),
    ]
    adjs = [_synset("00000021", "a", ["kind"], "having a friendly nature")]
    (folder / "data.noun").write_text("\n".join(nouns) + "\n")
    (folder / "data.verb").write_text("\n".join(verbs) + "\n")
    (folder / "data.adj").write_text("\n".join(adjs) + "\n")
    (folder / "data.adv").write_text("")
    (folder / "index.noun").write_text("\n".join([
        _index("blorp", "n", ["00000005"], 0), _index("cat", "n", ["00000001"], 5),
        _index("goose", "n", ["00000002"], 1), _index("may", "n", ["00000006"], 0),
        _index("zork", "n", ["00000003", "00000004"], 0)]) + "\n")
    (folder / "index.verb").write_text("\n".join([
        _index("atone", "v", ["00000013"], 1), _index("cat", "v", ["00000011"], 1),
        _index("seal", "v", ["00000012"], 9)]) + "\n")
    (folder / "index.adj").write_text(_index("kind", "a", ["00000021"], 1) + "\n")
    (folder / "index.adv").write_text("")
    (folder / "noun.exc").write_text("geese goose\n")
    for part in ("verb", "adj", "adv"):
        (folder / f"{part}.exc").write_text("")
    return folder


def test_the_generator_writes_zyzzyvas_lines_from_wordnet(small_wordnet: Path) -> None:
    gen = _generator()
    words = ["CAT", "CATS", "GOOSE", "GEESE", "SEAL", "RESEAL", "KIND", "UNKIND", "KINDNESS", "ATONE", "ATONER",
             "ATONERS", "ZORK", "BLORP", "MAY", "QI"]
    defined = gen.define_all(words, gen.WordNet.read(small_wordnet))
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
def test_enable_has_a_definition_for_most_words_a_player_studies(enable: Lexicon) -> None:
    assert _defined_share(enable) >= 0.65
    assert _defined_share(enable, "length = 7 AND probability_rank2 <= 1000") >= 0.65
    assert _defined_share(enable, "length = 8") >= 0.65
    shown = _definitions("CATS", "AARDWOLVES", "OUTJUMPED")
    assert shown["CATS"].startswith("CAT, ") and "[n]" in shown["CATS"] and "[v]" in shown["CATS"]
    assert shown["AARDWOLVES"].startswith("AARDWOLF, ")
    assert shown["OUTJUMPED"].startswith("OUTJUMP, to jump (")
    cel = open_lexicon("cel")
    assert _defined_share(cel) >= 0.65
    rows = json.loads(run("search", "--length", "8", "--definition", "hyena", "--json").stdout)
    assert "AARDWOLF" in [r["word"] for r in rows]  # a --definition search finds what a player reads


def test_no_ethnic_slur_is_the_first_sense_of_a_word_that_has_another() -> None:
    for path in SHIPPED.glob("wordnet_*.txt"):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("#"):
                continue
            word, _, definition = line.partition(" ")
            senses = definition.split(" / ")
            if "ethnic slur" in senses[0] or "offensive term" in senses[0]:
                assert len(senses) == 1, f"{path.name}: {word} shows a slur first: {definition}"
    chink = next(line for line in (SHIPPED / "wordnet_enable.txt").read_text().splitlines()
                 if line.startswith("CHINK "))
    assert "slur" not in chink and "offensive" not in chink


def test_the_shipped_files_carry_their_credit_and_licence() -> None:
    for name, entry in EMBEDDED.items():
        text = (SHIPPED / entry["definitions"]).read_text(encoding="utf-8")
        assert text.startswith("# Definitions of the") and "Princeton WordNet 3.0" in text.splitlines()[0]
        assert "LICENSE-WordNet-3.0.txt" in text[:600]
    assert "WordNet 3.0 Copyright 2006 by Princeton University" in (SHIPPED / "LICENSE-WordNet-3.0.txt").read_text()


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
    subprocess.run([sys.executable, str(copy / "scripts" / SCRIPT.name), "--wordnet", str(WORDNET)],
                   check=True, capture_output=True)
    for path in SHIPPED.glob("wordnet_*.txt"):
        assert (copy / "lexicons" / "definitions" / path.name).read_text() == path.read_text(), path.name
