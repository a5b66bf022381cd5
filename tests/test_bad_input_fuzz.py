"""Hostile text into every parser a player's input reaches: a result or one clear line, never a crash.

Each parser is fed text built from the characters that matter to it (digits,
slashes, brackets, signs, blanks, letters from other alphabets) and must either
read it or raise the one user-facing error with a one-line message.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lexitrain.engine.cgp import parse_cgp
from lexitrain.engine.gcg import parse_gcg
from lexitrain.engine.play import parse_position, parse_tiles
from lexitrain.errors import LexitrainError
from lexitrain.lexicon.wordlist import read_wordlist
from lexitrain.search.query import parse_query
from lexitrain.tiles import Rack, load_tile_set

ENGLISH = load_tile_set("english")
SPANISH = load_tile_set("spanish")
EMPTY_ROW = "15"
HOSTILE = st.sampled_from(["", " ", "/", "?", "*", "[", "]", "(", ")", ".", ";", "-", "+", "0", "1", "7", "15",
                           "99999999999999999999", "A", "Q", "z", "Ä", "ñ", "\t", "\u00a0", "lex", "NWL", "\"", "CH"])
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def one_line(exc: LexitrainError) -> None:
    message = str(exc)
    assert message and "\n" not in message and "Traceback" not in message


@st.composite
def cgp_lines(draw) -> str:
    """A CGP line that is nearly right: rows, racks, scores and ops each possibly damaged."""
    rows = [draw(st.one_of(st.just(EMPTY_ROW), st.lists(HOSTILE, max_size=5).map("".join)))
            for _ in range(draw(st.integers(0, 17)))]
    racks = draw(st.lists(HOSTILE, max_size=4).map("".join)) + "/" + draw(st.lists(HOSTILE, max_size=3).map("".join))
    scores = draw(st.sampled_from(["0/0", "-5/3", "x/0", "1/2/3", "", "99999999999999999999/0", "1e5/0"]))
    zeros = draw(st.sampled_from(["0", "6", "-1", "x", ""]))
    ops = draw(st.lists(st.sampled_from(["lex NWL20;", "lex;", "ld english;", "ld nope;", "bdn nope;", "bogus 1;",
                                         "tmr x;", ";", "\"q;", "lex"]), max_size=3))
    return " ".join(["/".join(rows), racks, scores, zeros, *ops])


@FUZZ
@given(cgp_lines())
def test_cgp_reads_or_says_why(line):
    try:
        parse_cgp(line)
    except LexitrainError as exc:
        one_line(exc)


@FUZZ
@given(st.lists(st.one_of(
    st.lists(HOSTILE, max_size=8).map("".join),
    st.sampled_from([">a: AEINRST 8D RETAINS +66 66", ">a: AEINRST 8D RETAINS +66", ">b: ?? -?? +0 66",
                     ">a: AEI - +0 0", ">a: (AEI) +6 72", ">b: --  -66 0", ">a: AEINRST 99Z A +1 1",
                     "#player1 a A", "#player2 b B", "#player1", "#note x", "#lexicon", ">: X", ">a:", "#rack1 AEI"]),
), max_size=12).map("\n".join))
def test_gcg_reads_or_names_the_line(text):
    try:
        parse_gcg(text, "g.gcg")
    except LexitrainError as exc:
        one_line(exc)
        assert str(exc).startswith("g.gcg")


@FUZZ
@given(st.lists(HOSTILE, max_size=10).map("".join), st.sampled_from([ENGLISH, SPANISH]), st.booleans())
def test_racks_plays_and_positions_read_or_say_why(text, tiles, in_play):
    for read in (lambda: Rack.parse(tiles, text, in_play=in_play), lambda: parse_tiles(text, tiles),
                 lambda: parse_position(text)):
        try:
            read()
        except LexitrainError as exc:
            one_line(exc)


OPTIONS = ["--length", "--anagram", "--pattern", "--regex", "--probability", "--consists-of", "--points",
           "--group", "--part-of-speech", "--order", "--limit", "--not-length", "--or", "--front-hook", "--bogus",
           "--takes-prefix", "--vowels", "--symbol", "--limit-probability"]


@FUZZ
@given(st.lists(st.one_of(st.sampled_from(OPTIONS), st.lists(HOSTILE, max_size=4).map("".join)), max_size=6))
def test_search_conditions_read_or_say_why(tokens):
    try:
        parse_query(tokens)
    except LexitrainError as exc:
        one_line(exc)


@FUZZ
@given(st.lists(st.one_of(st.lists(HOSTILE, max_size=4).map("".join),
                          st.sampled_from(["CAT", "cat a feline", "# note", "DOG\r", "\ufeffBIRD"])), max_size=8),
       st.booleans())
def test_word_lists_read_or_name_the_line(tmp_path_factory, lines, skip_invalid):
    path: Path = tmp_path_factory.mktemp("lists") / "list.txt"
    path.write_text("\n".join(lines), encoding="utf-8")
    try:
        read_wordlist(path, ENGLISH, 15, skip_invalid)
    except LexitrainError as exc:
        one_line(exc)
        assert str(exc).startswith(str(path))
