"""Property tests: however a list is formatted, the same words come out."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings, strategies as st

from lexitrain.errors import LexitrainError
from lexitrain.lexicon.wordlist import read_wordlist
from lexitrain.tiles import load_tile_set

ENGLISH = load_tile_set("english")
SPANISH = load_tile_set("spanish")

words = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=2, max_size=15)
definitions = st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), max_size=30)


@st.composite
def formatted_list(draw):
    entries = draw(st.lists(st.tuples(words, definitions), min_size=1, max_size=30))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    lines = []
    for word, definition in entries:
        if draw(st.booleans()):
            lines.append("# " + definition)
        if draw(st.booleans()):
            lines.append("")
        shown = word.lower() if draw(st.booleans()) else word
        separator = draw(st.sampled_from([" ", "\t", "  "]))
        lines.append(f"{shown}{separator}{definition}" if definition.strip() else shown)
    text = newline.join(lines) + newline
    if draw(st.booleans()):
        text = "\ufeff" + text
    return entries, text


@settings(max_examples=60, deadline=None)
@given(formatted_list())
def test_formatting_never_changes_the_words(case):
    entries, text = case
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "list.txt"
        path.write_bytes(text.encode("utf-8"))
        result = read_wordlist(path, ENGLISH, 15)
    assert set(result.definitions) == {w for w, _ in entries}
    senses: dict[str, list[str]] = {}  # a word listed twice keeps each sense not yet read
    for word, definition in entries:
        known = senses.setdefault(word, [])
        if definition.strip() and definition.strip() not in " / ".join(known).split(" / "):
            known.append(definition.strip())
    for word, kept in senses.items():
        assert result.definitions[word] == " / ".join(kept)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.sampled_from(SPANISH.letters), min_size=2, max_size=8), min_size=1, max_size=10))
def test_spanish_words_keep_their_tile_count(tile_lists):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "es.txt"
        path.write_text("\n".join(SPANISH.spell(t) for t in tile_lists) + "\n", encoding="utf-8")
        result = read_wordlist(path, SPANISH, 15)
    assert {len(code) for code in result.definitions} <= {len(t) for t in tile_lists}
    assert {SPANISH.encode(SPANISH.spell(t)) for t in tile_lists} == set(result.definitions)



def _outcome(path: Path) -> tuple:
    """What reading a list gives: its words and definitions in order, and its warnings or
    its error without the file name and line number."""
    try:
        got = read_wordlist(path, ENGLISH, 15)
    except LexitrainError as exc:
        return "error", str(exc).split(": ", 1)[1]
    return list(got.definitions.items()), [w.split(": ", 1)[1] for w in got.warnings]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcxyz", min_size=2, max_size=15), max_size=30),
       st.lists(st.sampled_from(["Q", "ABCDEFGHIJKLMNOP", "D0G", "ÉTÉ"]), max_size=2),
       st.sampled_from(["\n", "\r\n", "\r"]), st.booleans())
def test_a_plain_list_reads_as_the_same_list_read_line_by_line(words, odd_words, newline, blank_lines):
    """Plain lists take a quicker road (the whole text at once): it must end where the
    line-by-line reading of the same list, which a comment line forces, does, odd
    words (too short, too long, not made of tiles) and an empty list included."""
    text = (newline * 2 if blank_lines else newline).join(words + odd_words) + newline
    with tempfile.TemporaryDirectory() as folder:
        plain, commented = Path(folder) / "plain.txt", Path(folder) / "commented.txt"
        plain.write_bytes(text.encode("utf-8"))
        commented.write_bytes(("# a comment" + newline + text).encode("utf-8"))
        assert _outcome(plain) == _outcome(commented)


def test_a_word_listed_twice_is_counted_and_keeps_every_sense(tmp_path):
    """Two lines for one word (a merged NWL file) lose nothing: senses joined, repeats counted."""
    path = tmp_path / "list.txt"
    path.write_text("CAT a feline [n]\ncat to vomit [v]\nCAT a feline [n]\nDOG\nDOG a canine [n]\nEMU\n")
    read = read_wordlist(path, ENGLISH, 15)
    assert {ENGLISH.decode(code): text for code, text in read.definitions.items()} == {
        "CAT": "a feline [n] / to vomit [v]", "DOG": "a canine [n]", "EMU": ""}
    assert read.duplicates == 3
    plain = tmp_path / "plain.txt"
    plain.write_text("CAT\nDOG\ncat\n")
    assert read_wordlist(plain, ENGLISH, 15).duplicates == 1
