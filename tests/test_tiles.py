import pytest
from hypothesis import given, strategies as st

from lexitrain.layouts import load_layout
from lexitrain.tiles import available_tile_sets, load_tile_set


def test_every_shipped_tile_set_loads_with_a_full_bag():
    expected = {"english": 100, "french": 102, "english_super": 200, "wordswithfriends": 104}
    for name in available_tile_sets():
        tiles = load_tile_set(name)
        assert tiles.blanks >= 2 and tiles.size >= 20
        if name in expected:
            assert sum(tiles.counts) + tiles.blanks == expected[name], name


def test_spanish_multi_letter_tiles_are_single_tiles():
    tiles = load_tile_set("spanish")
    assert tiles.tokenize("CHURRO") == ["CH", "U", "RR", "O"]
    assert tiles.tokenize("LLAMA") == ["LL", "A", "M", "A"]
    assert len(tiles.encode("CHURRO")) == 4
    assert tiles.decode(tiles.encode("churro")) == "CHURRO"
    assert tiles.alphagram("CHURRO") == "[CH]O[RR]U"
    assert tiles.tokenize("[ch]e") == ["ch", "e"]  # a blank CH
    assert tiles.points_of("ch") == 0 and tiles.points_of("CH") == 5


def test_catalan_l_middle_dot_l():
    tiles = load_tile_set("catalan")
    assert tiles.tokenize("COL·LEGI") == ["C", "O", "L·L", "E", "G", "I"]
    assert tiles.tokenize("QUE") == ["QU", "E"]


def test_unknown_character_is_named():
    tiles = load_tile_set("english")
    try:
        tiles.encode("D0G")
    except ValueError as exc:
        assert "'0'" in str(exc)
    else:
        raise AssertionError("D0G should not encode")


def test_boards_have_the_standard_premium_counts():
    board = load_layout("standard")
    flat = [p for row in board.premiums for p in row]
    assert (flat.count("TW"), flat.count("DW"), flat.count("TL"), flat.count("DL")) == (8, 17, 12, 24)
    assert board.premiums[7][7] == "DW"
    assert load_layout("super").rows == 21
    assert load_layout("wordswithfriends").bingo_bonus == 35


@given(st.lists(st.sampled_from(load_tile_set("spanish").letters), min_size=1, max_size=15))
def test_spanish_tiles_spell_and_read_back(tiles_drawn):
    tiles = load_tile_set("spanish")
    assert tiles.tokenize(tiles.spell(tiles_drawn)) == tiles_drawn
    code = tiles.encode(tiles.spell(tiles_drawn))
    assert len(code) == len(tiles_drawn)
    alphagram = tiles.display_alphagram(tiles.alphagram_code(code))
    assert tiles.tokenize(alphagram) == sorted(tiles_drawn, key=tiles.index)


def test_separate_c_and_h_are_told_apart_from_the_ch_tile():
    tiles = load_tile_set("spanish")
    assert tiles.tokenize("HACIA") == ["H", "A", "C", "I", "A"]
    assert tiles.tokenize("ACHI") == ["A", "CH", "I"]  # plain text reads greedily
    assert tiles.display_alphagram(tiles.alphagram_code(tiles.encode("[H]ACIA"))) == "[A]ACHI"
    assert tiles.tokenize("[A]ACHI") == ["A", "A", "C", "H", "I"]


def test_decomposed_unicode_reads_as_the_composed_tile() -> None:
    """Ñ typed as N + combining tilde (macOS input, some files) is the Ñ tile."""
    spanish = load_tile_set("spanish")
    assert spanish.tokenize("AN\u0303O") == ["A", "Ñ", "O"]
    assert spanish.encode("an\u0303o") == spanish.encode("AÑO")
    with pytest.raises(ValueError, match="'É' is not a tile of the english set"):
        load_tile_set("english").tokenize("AE\u0301")


def test_judge_and_anagram_accept_decomposed_letters(make_lexicon) -> None:
    from tests.cli_runner import run

    make_lexicon(["AÑO", "CHAVO"], name="es", tiles="spanish")
    assert run("judge", "AN\u0303O", "--lexicon", "es", "--json").exit_code == 0
    assert run("anagram", "OAN\u0303", "--lexicon", "es", "--json").json() == ["AÑO"]


def test_a_blank_is_not_a_letter_of_a_word() -> None:
    with pytest.raises(ValueError, match="'\\?' is a blank, not a letter"):
        load_tile_set("english").encode("Q?")


@pytest.mark.parametrize("args", [["hooks", "?"], ["search", "--starts-with", "A?"], ["search", "--ends-with", "?"]])
def test_a_blank_where_a_word_is_expected_is_a_one_line_error(make_lexicon, args: list[str]) -> None:
    from tests.cli_runner import run

    make_lexicon(["ABLE", "CABLE"], name="small")
    result = run(*args, "--lexicon", "small", "--json")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr.endswith("'?' is a blank, not a letter: a word has letters only\n")
    judged = run("judge", "AB?", "--lexicon", "small", "--json")  # a judge judges words as played: refused, not false
    assert judged.exit_code == 1 and judged.stdout == "" and judged.stderr.count("\n") == 1
    assert "? stands for any letter" in judged.stderr and "search --pattern 'AB?'" in judged.stderr



def test_a_rack_reads_tiles_blanks_and_multi_letter_tiles() -> None:
    from lexitrain.tiles import Rack

    rack = Rack.parse(load_tile_set("english"), " qu?Ite? ")  # case and surrounding spaces do not matter
    assert (rack.size, rack.blanks) == (7, 2)
    assert rack.names() == ["E", "I", "Q", "T", "U", "?", "?"]  # set order, blanks last
    spanish = load_tile_set("spanish")
    assert Rack.parse(spanish, "CHURRO").names() == Rack.parse(spanish, "[ch]u[RR]o").names() == ["CH", "O", "RR", "U"]
    assert Rack.parse(spanish, "C[H]").names() == ["C", "H"]


def test_a_rack_names_the_first_tile_it_lacks_in_the_order_asked() -> None:
    from lexitrain.tiles import Rack, Shortfall

    rack = Rack.parse(load_tile_set("english"), "ABEMSTY")
    assert rack.lacking(["M", "E", "S"]) is None
    assert rack.lacking(["Q", "I"]) == Shortfall("Q", 1, 0) and rack.lacking(["I", "Q"]) == Shortfall("I", 1, 0)
    assert rack.lacking(["E", "E"]) == Shortfall("E", 2, 1)  # one E only
    assert rack.lacking(["E", "E"]).said("ABEMSTY") == "the play needs 2 E, the rack ABEMSTY has 1"
    assert rack.lacking(["?"]).said("ABEMSTY") == "a blank is not on the rack ABEMSTY"


@pytest.mark.parametrize(("text", "options", "message"), [
    ("AB1", {}, "rack 'AB1': '1' is not a tile of the english set"),
    ("", {"required": True}, "empty rack: give some letters, e.g. AEINRST (? is a blank)"),
    ("ABCDEFGH", {"in_play": True}, "rack 'ABCDEFGH': a rack holds at most 7 tiles"),
    ("A???", {"in_play": True}, "rack 'A???': the english set has 2 blanks"),
])
def test_a_rack_that_cannot_be_read_is_a_one_line_error(text: str, options: dict, message: str) -> None:
    from lexitrain.errors import LexitrainError
    from lexitrain.tiles import Rack

    english = load_tile_set("english")
    with pytest.raises(LexitrainError) as caught:
        Rack.parse(english, text, **options)
    assert str(caught.value) == message
    assert Rack.parse(english, "ABCDEFGH").size == 8 and Rack.parse(english, "").size == 0  # no limits unless asked
