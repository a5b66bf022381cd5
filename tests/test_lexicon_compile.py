"""The compiler on small lists, bad input, atomic replacement and the CLI."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from lexitrain.errors import LexitrainError
from lexitrain.lexicon.catalog import open_lexicon
from lexitrain.lexicon.schema import SCHEMA_VERSION
from tests.cli_runner import run

SMALL = ["CARE", "RACE", "ACRE", "SCARE", "CARES", "RACES", "ACRES", "CARET", "CRATE", "REACT", "TRACE", "AT", "CAT", "CATS", "SCAT"]


def rows(lex, sql, *args):
    return [dict(r) for r in lex.db.execute(sql, args)]


def test_compiles_words_hooks_and_anagrams(make_lexicon):
    lex = make_lexicon(SMALL)
    assert lex.word_count == len(SMALL)
    assert "CARE" in lex and "care" in lex and "ACER" not in lex
    assert lex.anagrams("ERAC") == ["ACRE", "CARE", "RACE"]
    [cat] = rows(lex, "select * from words where word = 'CAT'")
    assert (cat["front_hooks"], cat["back_hooks"]) == ("S", "S")
    assert (cat["inner_front"], cat["inner_back"]) == (1, 0)  # AT is a word, CA is not
    [care] = rows(lex, "select * from words where word = 'CARE'")
    assert (care["front_hooks"], care["back_hooks"]) == ("S", "ST")
    assert care["points"] == 6 and care["vowels"] == 2


def test_a_build_reads_its_list_once_and_records_the_hash_of_what_it_read(make_lexicon, tmp_path, monkeypatch):
    """The list is read once: its words and the manifest's `source_sha256` come from the same bytes (a second
    read to hash it could hash a file changed in between)."""
    import hashlib

    reads: list[Path] = []
    read_bytes = Path.read_bytes

    def counted(self: Path) -> bytes:
        reads.append(self)
        return read_bytes(self)

    monkeypatch.setattr(Path, "read_bytes", counted)
    lex = make_lexicon(["# a comment", *SMALL])
    source = tmp_path / "small.txt"
    assert reads.count(source) == 1
    assert lex.manifest["source_sha256"] == hashlib.sha256(read_bytes(source)).hexdigest()


def test_plain_and_zyzzyva_lines_with_bom_crlf_tabs_comments(make_lexicon, tmp_path):
    source = tmp_path / "zyz.txt"
    source.write_bytes(
        "\ufeff# a comment\r\nqi\ta Chinese life force [n QIS]\r\n\r\nQIS\r\nqi\r\nZA pizza [n ZAS]\r\n".encode()
    )
    from lexitrain.lexicon.compile import compile_lexicon

    report = compile_lexicon(source, "zyz")
    lex = open_lexicon("zyz")
    assert report.words == 3
    assert rows(lex, "select definition from words where word = 'QI'")[0]["definition"] == "a Chinese life force [n QIS]"


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_utf16_list_with_byte_order_mark_compiles(tmp_path, encoding):
    source = tmp_path / "ps.txt"  # what PowerShell's `Get-Content ... > ps.txt` writes
    source.write_bytes("\ufeffqi\ta Chinese life force\r\nZA\r\n".encode(encoding))
    result = run("lexicon", "build", str(source), "--name", "ps")
    assert result.exit_code == 0, result.stderr
    assert "compiled ps: 2 words" in result.stdout
    assert run("judge", "QI", "ZA", "--lexicon", "ps").exit_code == 0


@pytest.mark.parametrize(
    "content, message",
    [
        (b"\x00\x01\x02binary", "binary data"),
        (b"", "no words"),
        (b"# only a comment\n\n", "no words"),
        (b"CAT\nD0G\n", ":2: 'D0G'"),
        (b"CAT\n\xff\xfe\n", ":2: not UTF-8"),
    ],
)
def test_bad_input_is_one_clear_line_and_keeps_the_old_build(make_lexicon, tmp_path, content, message):
    make_lexicon(SMALL, name="mine")
    bad = tmp_path / "bad.txt"
    bad.write_bytes(content)
    result = run("lexicon", "build", str(bad), "--name", "mine")
    assert result.exit_code != 0
    assert message in result.stderr and str(bad) in result.stderr
    assert "Traceback" not in result.stderr
    assert open_lexicon("mine").anagrams("ERAC") == ["ACRE", "CARE", "RACE"]


def test_a_lexicon_keeps_its_own_tile_set(make_lexicon, tmp_path):
    """A lexicon compiled with the player's own CSV opens and plays after the CSV is gone."""
    own = tmp_path / "mytiles.csv"
    own.write_text("letter,count,points\nA,9,1\nB,2,3\nT,6,1\n?,2,0\n")
    make_lexicon(["AB", "BA", "TAB", "BAT", "ABBA"], name="abt", tiles=str(own))
    own.unlink()
    lex = open_lexicon("abt")
    assert lex.tiles.name == "mytiles" and lex.tiles.points_of("B") == 3
    assert run("anagram", "TAB", "--lexicon", "abt", "--json").json() == ["BAT", "TAB"]


@pytest.mark.parametrize("rows, message", [
    ("letter,count,points\nA,9,1\nA,2,3\n", "mine.csv:3: tile A is listed twice"),
    ("letter,count,points\nA,-9,1\n", "mine.csv:2: tile A: count -9, points 1; a count is 0 to 1000"),
    ("letter,count,points\n,9,1\n", "mine.csv:2: a tile needs a letter"),
    ("letter,count,points\nA,nine,1\n", "mine.csv:2: expected letter,count,points"),
    ("\x00\xe4\xff", "mine.csv: not a tile set (not UTF-8 text)"),
])
def test_a_bad_tile_set_is_one_line_with_its_line(tmp_path, rows, message):
    bad = tmp_path / "mine.csv"
    bad.write_bytes(rows.encode("latin-1"))
    words = tmp_path / "words.txt"
    words.write_text("AB\n")
    result = run("lexicon", "build", str(words), "--name", "x", "--tiles", str(bad))
    assert result.exit_code == 1 and message in result.stderr and result.stderr.count("\n") == 1
    not_csv = tmp_path / "mine.txt"
    not_csv.write_text("letter,count,points\nA,9,1\n")
    result = run("lexicon", "build", str(words), "--name", "x", "--tiles", str(not_csv))
    assert "a tile set file is a .csv of letter,count,points rows" in result.stderr


def test_missing_file(make_lexicon):
    result = run("lexicon", "build", "/no/such/list.txt", "--name", "x")
    assert result.exit_code == 1 and "no such file" in result.stderr


def test_unplayable_long_words_are_warned_and_skipped(tmp_path):
    source = tmp_path / "long.txt"
    source.write_text("CAT\nINCOMPREHENSIBLES\nA\n" + "AB" * 2500 + "\n")
    result = run("lexicon", "build", str(source), "--name", "long")
    assert result.exit_code == 0
    assert "INCOMPREHENSIBLES" in result.stderr and "unplayable" in result.stderr
    assert "'ABABABABABABABABABABABABABABAB...' has 5000 tiles" in result.stderr  # a runaway line, cut short
    assert max(map(len, result.stderr.splitlines())) < 200
    assert open_lexicon("long").word_count == 1


def test_skip_invalid_counts_warnings(tmp_path):
    source = tmp_path / "digits.txt"
    source.write_text("CAT\nD0G\nC4T\nDOG\n")
    result = run("lexicon", "build", str(source), "--name", "d", "--skip-invalid", "--json")
    assert result.exit_code == 0
    assert result.json()["words"] == 2 and result.json()["skipped"] == 2


def test_failed_build_leaves_no_half_written_folder(make_lexicon, home, tmp_path):
    make_lexicon(SMALL, name="mine")
    before = sorted(p.name for p in (home / "lexicons").iterdir())
    bad = tmp_path / "bad.txt"
    bad.write_text("CAT\nD0G\n")
    with pytest.raises(LexitrainError):
        from lexitrain.lexicon.compile import compile_lexicon

        compile_lexicon(bad, "mine")
    assert sorted(p.name for p in (home / "lexicons").iterdir()) == before


@pytest.mark.parametrize("writer", ["tries and graph", "words table", "alphagram table"])
def test_a_writer_failing_leaves_the_old_build_whole(make_lexicon, home, tmp_path, monkeypatch, writer):
    """The files are written by three processes: a failure in any one fails the build, leaving the old one."""
    from lexitrain.lexicon import compile as compile_module

    make_lexicon(SMALL, name="mine")
    before = sorted(p.name for p in (home / "lexicons").iterdir())

    def fail(*args, **kwargs):
        raise OSError("disk full")

    target = {"tries and graph": (compile_module.graph, "save"), "words table": (compile_module, "write_words"),
              "alphagram table": (compile_module, "write_alphagrams")}[writer]
    monkeypatch.setattr(*target, fail)
    with pytest.raises((LexitrainError, OSError), match="disk full"):
        compile_module.compile_lexicon(make_source(tmp_path, ["DOG", "GOD"]), "mine")
    assert sorted(p.name for p in (home / "lexicons").iterdir()) == before
    assert open_lexicon("mine").anagrams("ERAC") == ["ACRE", "CARE", "RACE"]


def make_source(folder, words):
    path = folder / "list.txt"
    path.write_text("\n".join(words) + "\n")
    return path


def test_rebuild_replaces_and_removes_the_old_folder(make_lexicon, home):
    make_lexicon(SMALL, name="mine")
    make_lexicon(["DOG", "GOD"], name="mine")
    lex = open_lexicon("mine")
    assert lex.word_count == 2
    folders = [p for p in (home / "lexicons").iterdir() if p.is_dir()]
    assert len(folders) == 1


def test_compare_marks_lexicon_symbols(make_lexicon):
    make_lexicon(["CAT", "DOG"], name="old")
    lex = make_lexicon(["CAT", "DOG", "QI"], name="new", compare={"old": "+"})
    symbols = {r["word"]: r["symbols"] for r in rows(lex, "select word, symbols from words")}
    assert symbols == {"CAT": "", "DOG": "", "QI": "+"}


def test_diff_list_info_remove(make_lexicon):
    make_lexicon(["CAT", "DOG", "EMU"], name="old")
    make_lexicon(["CAT", "DOG", "QI", "ZA"], name="new", compare={"old": "+"})
    assert run("lexicon", "info", "new").stdout.splitlines()[-1] == "symbols: + not in old"
    assert run("lexicon", "diff", "old", "new", "--json").json() == {"added": ["QI", "ZA"], "removed": ["EMU"]}
    listed = {r["name"]: r for r in run("lexicon", "list", "--json").json()}
    assert listed["new"]["words"] == 4 and listed["enable"]["embedded"]
    info = run("lexicon", "info", "new", "--json").json()
    assert info["words"] == 4 and info["by_length"] == {"2": 2, "3": 2}
    removed = run("lexicon", "remove", "NEW")  # names compare without case; it says the name it had
    assert (removed.exit_code, removed.stdout) == (0, "removed new\n")
    result = run("lexicon", "info", "new", "--json")
    assert result.exit_code == 1 and "unknown lexicon 'new'" in result.stderr


def test_spanish_list_with_multi_letter_tiles(make_lexicon):
    lex = make_lexicon(["CHURRO", "LLAMA", "CORRO", "CHE", "ECHO"], name="es", tiles="spanish")
    [churro] = rows(lex, "select * from words where word = 'CHURRO'")
    assert churro["length"] == 4 and churro["alphagram"] == "[CH]O[RR]U"
    [che] = rows(lex, "select * from words where word = 'CHE'")
    assert che["length"] == 2
    assert "CHURRO" in lex


def _made_by_an_older_version(home: Path, name: str) -> dict:
    import json

    manifest_path = home / "lexicons" / f"{name}.json"
    manifest = json.loads(manifest_path.read_text())
    manifest["schema"] = 0
    manifest_path.write_text(json.dumps(manifest))
    return manifest


def test_a_lexicon_from_an_older_layout_is_compiled_again_from_its_list(make_lexicon, home):
    make_lexicon(SMALL, name="other")
    make_lexicon(SMALL[:3] + ["CARE a {race=v} [n]"], name="mine", compare={"other": "+"})
    _made_by_an_older_version(home, "mine")
    result = run("define", "CARE", "--lexicon", "mine", "--json")
    assert result.exit_code == 0, result.stderr
    assert "{race=v}" not in result.stdout  # stored by this version: the link written out
    lex = open_lexicon("mine")
    assert lex.manifest["schema"] == SCHEMA_VERSION and lex.manifest["compare"] == {"other": "+"}


def test_a_lexicon_from_an_older_layout_whose_list_is_gone_asks_to_be_rebuilt(make_lexicon, home, tmp_path):
    make_lexicon(SMALL, name="other")
    make_lexicon(SMALL, name="mine", compare={"other": "+"})
    _made_by_an_older_version(home, "mine")
    (tmp_path / "mine.txt").unlink()
    result = run("anagram", "ERAC", "--lexicon", "mine")
    assert result.exit_code == 1
    assert "rebuild it: lexitrain lexicon build" in result.stderr and "--name mine" in result.stderr
    assert result.stderr.rstrip().endswith("--compare other=+")  # built as it was, symbols included


@pytest.mark.parametrize(("damaged", "args"), [
    ("words.marisa", ["judge", "ABLE"]),
    ("alphagrams.marisa", ["anagram", "ABLE"]),
    ("reversed.marisa", ["search", "--ends-with", "LE"]),
    ("words.sqlite", ["search", "--length", "4"]),
    ("alphagrams.sqlite", ["search", "--length", "4"]),
])
def test_damaged_compiled_files_are_a_one_line_error(make_lexicon, damaged: str, args: list[str]) -> None:
    lex = make_lexicon(["ABLE", "BALE", "CABLE"], name="small")
    (lex.folder / damaged).write_bytes(b"not a compiled lexicon file" * 4)
    result = run(*args, "--lexicon", "small", "--json")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.startswith("error: lexicon 'small' is damaged (")
    assert "rebuild it: lexitrain lexicon build " in result.stderr
    assert len(result.stderr.splitlines()) == 1


def _zero_bytes(path: Path) -> None:
    path.write_bytes(b"")


def _cut_short(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:8192])


@pytest.mark.parametrize(("damaged", "harm", "args", "why"), [
    ("words.sqlite", _zero_bytes, ["search", "--length", "4"], "words.sqlite has no words table"),
    ("alphagrams.sqlite", _zero_bytes, ["search", "--length", "4"], "alphagrams.sqlite has no alphagrams table"),
    ("words.sqlite", _cut_short, ["search", "--length", "4"], "database disk image is malformed"),
    ("alphagrams.marisa", lambda path: path.write_bytes((path.parent / "words.marisa").read_bytes()),
     ["anagram", "ABLE"], "alphagrams.marisa does not find the words of words.marisa"),
    ("reversed.marisa", lambda path: path.write_bytes((path.parent / "words.marisa").read_bytes()),
     ["search", "--ends-with", "LE"], "reversed.marisa does not hold the words reversed"),
])
def test_files_that_open_but_are_damaged_are_a_one_line_error(make_lexicon, damaged, harm, args, why) -> None:
    """A zero-byte .sqlite opens as an empty database, a trie of the wrong kind maps fine: both were
    a traceback, or (a words trie over alphagrams.marisa) no anagram of anything, exit 0."""
    lex = make_lexicon(["ABLE", "BALE", "CABLE", "TABLE", "BLEAT"], name="small")
    harm(lex.folder / damaged)
    result = run(*args, "--lexicon", "small", "--json")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr.startswith(f"error: lexicon 'small' is damaged ({why}); rebuild it: lexitrain lexicon build ")
    assert len(result.stderr.splitlines()) == 1


def test_a_damaged_alphagram_file_stops_the_drill_instead_of_skipping_every_question(make_lexicon) -> None:
    lex = make_lexicon(["AA", "AB", "AD", "QI", "ZA", "ABLE", "BALE"], name="small")
    assert run("study", "set", "--lexicon", "small").exit_code == 0
    (lex.folder / "alphagrams.marisa").write_bytes((lex.folder / "words.marisa").read_bytes())
    drill = run("daily", "--jsonl", input="\n" * 10)
    assert drill.exit_code == 1 and '"skipped"' not in drill.stdout
    assert drill.stderr.startswith("error: lexicon 'small' is damaged (alphagrams.marisa")


@pytest.mark.parametrize("manifest", ["[]", "{bad", "7"])
def test_a_damaged_manifest_is_one_line_saying_what_to_do(make_lexicon, home, manifest):
    make_lexicon(["ABLE", "BALE"], name="small")
    (home / "lexicons" / "small.json").write_text(manifest)
    for args in (["judge", "ABLE", "--lexicon", "small"], ["lexicon", "list"]):
        result = run(*args)
        assert result.exit_code == 1 and len(result.stderr.splitlines()) == 1
        assert "small.json: unreadable lexicon manifest" in result.stderr
        assert "delete it and build the lexicon again" in result.stderr


def test_a_manifest_missing_its_counts_is_listed_as_damaged(make_lexicon, home):
    make_lexicon(["ABLE", "BALE"], name="small")
    (home / "lexicons" / "small.json").write_text('{"name": "small"}')
    listed = run("lexicon", "list")
    assert listed.exit_code == 0 and "damaged: build it again" in listed.stdout


@pytest.mark.parametrize("name", ["enable", "cel"])
def test_a_list_cannot_replace_a_shipped_lexicon(enable, tmp_path, name):
    source = tmp_path / "mine.txt"
    source.write_text("QI\nZA\n")
    result = run("lexicon", "build", str(source), "--name", name)
    assert result.exit_code == 1 and f"'{name}' is the name of the shipped" in result.stderr
    assert f"--name my-{name}" in result.stderr
    assert open_lexicon(name).word_count > 60_000  # still the shipped list


READER = """
import sys
from lexitrain.lexicon.catalog import open_lexicon
lexicon = open_lexicon("mine")
print("open", flush=True)
sys.stdin.readline()
print(lexicon.word_count, lexicon.anagrams("ERAC"), lexicon.row("CARE") is not None, flush=True)
"""


def test_a_rebuild_leaves_the_folder_a_running_program_reads(make_lexicon, home) -> None:
    """A server keeps the lexicon it opened while the organiser builds it again: the build leaves the folder
    another process reads (before, it deleted it, and the server's next search failed: FileNotFoundError,
    500), and the next build removes it once nobody does."""
    make_lexicon(SMALL, name="mine")
    reader = subprocess.Popen([sys.executable, "-c", READER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    try:
        assert reader.stdout is not None and reader.stdout.readline() == "open\n"
        make_lexicon(["DOG", "GOD"], name="mine")  # built again while the reader has the old one open
        out, err = reader.communicate("go\n", timeout=60)
    finally:
        reader.kill()
    assert (out, err) == ("15 ['ACRE', 'CARE', 'RACE'] True\n", "")
    assert len([p for p in (home / "lexicons").iterdir() if p.is_dir()]) == 2  # its folder kept while read
    make_lexicon(["DOG", "GOD", "GODS"], name="mine")
    now = open_lexicon("mine")
    assert [p for p in (home / "lexicons").iterdir() if p.is_dir()] == [now.folder] and now.word_count == 3
