"""Board, play notation, validator reasons and the scorer."""

from __future__ import annotations

import pytest

from lexitrain.engine.board import Board, column_index, column_name
from lexitrain.engine.dawg import dawg_from_codes
from lexitrain.engine.play import NotationError, Play, ScoredPlay
from lexitrain.engine.rules import (
    IllegalPlay,
    apply_play,
    check_play,
    listed_play,
    same_play,
    word_score,
    word_text,
    words_formed,
)
from lexitrain.layouts import BoardLayout, load_layout
from lexitrain.tiles import load_tile_set
from tests.engine_helpers import play_from_tiles, transposed, transposed_board

EXAMPLE_WORDS = ["QUITE", "MESQUITE", "INFANCY", "RECOUNTS", "QI", "UN", "IF", "TA", "EN"]


@pytest.fixture
def english():
    return load_tile_set("english")


@pytest.fixture
def board(english) -> Board:
    return Board(load_layout("standard"), english)


@pytest.fixture
def words(english):
    return dawg_from_codes(EXAMPLE_WORDS, english, "example")


def play(board: Board, text: str, rack: str | None = None, lexicon=None) -> ScoredPlay:
    result = check_play(board, Play.parse(text, board.tiles), rack, lexicon)
    apply_play(board, result)
    return result


def test_worked_example_scores(board: Board, words) -> None:
    assert play(board, "8D QUITE", "EIQTUXY", words).score == 48
    assert play(board, "8A MES(QUITE)", "ABEMSTY", words).score == 57
    assert play(board, "9D INFaNCY", "?CFINNY", words).score == 88
    assert play(board, "E4 RECO..TS", "CEORSTU", words).score == 40
    assert board.rows_text()[8] == "...INFaNCY....."


def test_infancy_forms_five_cross_words(board: Board, words) -> None:
    play(board, "8D QUITE")
    play(board, "8A MES.....")
    infancy = check_play(board, Play.parse("9D INFaNCY", board.tiles), None, words)
    formed = [word_text(board, w) for w in words_formed(board, infancy)]
    assert formed == ["INFaNCY", "QI", "UN", "IF", "Ta", "EN"]


def test_enable_lacks_qi(enable) -> None:
    """ENABLE has every worked-example word except QI: INFaNCY is illegal there."""
    assert [w for w in EXAMPLE_WORDS if w not in enable] == ["QI"]


def test_notation_forms_read_the_same(board: Board) -> None:
    play(board, "8D QUITE")
    a = Play.parse("8A MES.....", board.tiles).resolve(board)
    b = Play.parse("8A MES(QUITE)", board.tiles).resolve(board)
    c = Play.parse("8A MESQUITE", board.tiles).resolve(board)
    assert a == b == c
    assert a.format(board.tiles) == "8A MES....."
    assert a.word(board.tiles) == "MESQUITE"
    down = Play.parse("H8 QUITE", board.tiles)
    assert (down.row, down.col, down.down) == (7, 7, True)
    assert down.format(board.tiles) == "H8 QUITE"


def test_columns_beyond_z() -> None:
    assert [column_name(i) for i in (0, 14, 25, 26, 27)] == ["A", "O", "Z", "AA", "AB"]
    assert column_index("ab") == 27


@pytest.mark.parametrize(
    ("setup", "text", "rack", "reason"),
    [
        ([], "8L QUITE", None, "runs off the board at 8P"),
        ([], "8A QUITE", None, "first play must cover the centre square 8H"),
        ([], "8H Q", None, "at least two tiles"),
        (["8D QUITE"], "3A QUITE", None, "does not touch any tile"),
        (["8D QUITE"], "8D QUITE", None, "places no tiles"),
        (["8D QUITE"], "8I S", None, "continues into the tile E at 8H"),
        (["8D QUITE"], "D6 ..Q", None, "no tile on the board at 6D"),
        (["8D QUITE"], "D8 X", None, "square 8D holds Q, not X"),
        ([], "8D QUITE", "QUITZZZ", "E is not on the rack"),
        ([], "8D QUITe", "QUITEZZ", "a blank is not on the rack"),
        ([], "8D QUITE", "QUITE1", "rack 'QUITE1': '1' is not a tile of the english set"),
        ([], "8D QUIT", "AAAAAAA", "Q is not on the rack AAAAAAA"),  # the first tile missing, in play order
        ([], "8D MEMMEZ", "KEMMEZN", "the play needs 3 M, the rack KEMMEZN has 2"),  # some held: how many
        ([], "8D MeeMEZ", "KEMMEZ?", "the play needs 2 blanks, the rack KEMMEZ? has 1"),
        (["8D QUITE"], "9D IF", None, "UF is not in the lexicon example"),
    ],
)
def test_validator_says_why(board: Board, words, setup, text, rack, reason) -> None:
    for s in setup:
        play(board, s)
    with pytest.raises(IllegalPlay) as info:
        check_play(board, Play.parse(text, board.tiles), rack, words)
    assert reason in str(info.value)


def test_tiles_placed_on_squares(board: Board) -> None:
    play(board, "8D QUITE")
    t = board.tiles.index
    with pytest.raises(IllegalPlay, match="not in one line"):
        play_from_tiles(board, [(8, 3, t("I")), (9, 4, t("N"))])
    with pytest.raises(IllegalPlay, match="gap at 9E"):
        play_from_tiles(board, [(8, 3, t("I")), (8, 6, t("N"))])
    with pytest.raises(IllegalPlay, match="already holds Q"):
        play_from_tiles(board, [(7, 3, t("A"))])
    single = play_from_tiles(board, [(8, 3, t("I"))])  # only a down word: QI
    assert single.format(board.tiles) == "D8 .I"
    through = play_from_tiles(board, [(7, 0, t("M")), (7, 1, t("E")), (7, 2, t("S"))])
    assert through.format(board.tiles) == "8A MES....."


def test_bad_notation(english) -> None:
    for text, message in [("8D", "expected a position and tiles"), ("88 QUITE", "bad position"),
                          ("8D QU1TE", "'1' is not a tile"), ("8D (QU", "unclosed")]:
        with pytest.raises(NotationError, match=message):
            Play.parse(text, english)


def test_scoring_rules_premiums_under_new_tiles_only(board: Board) -> None:
    assert play(board, "8G AT").score == 4  # (A1 + T1) x 2 on the centre DW
    assert play(board, "G7 CAT").score == 9  # C3 x2 (DL G7) + A1 (old, G8) + T1 x2 (DL G9)
    assert play(board, "H8 .O").score == 4  # TO: the centre DW is used up -> 2; cross word TO on row 9 -> 2


def test_different_word_premiums_multiply(english) -> None:
    layout = BoardLayout("tiny", 5, 5, (("DW", "", "TW", "", ""),) + (("",) * 5,) * 4)
    board = Board(layout, english)
    board.set(1, 1, english.index("A"))
    result = check_play(board, Play.parse("1A CAT", english))
    # CAT: (C3 + A1 + T1) x 2 x 3 = 30; cross word AA down column B: 2
    assert result.score == 32


def test_bingo_bonus_from_the_layout(english) -> None:
    standard = Board(load_layout("standard"), english)
    assert check_play(standard, Play.parse("8B RETAINS", english)).score == (1 + 1 + 2 + 1 + 1 + 1 + 1) * 2 + 50
    wwf_tiles = load_tile_set("wordswithfriends")
    wwf = Board(load_layout("wordswithfriends"), wwf_tiles)
    p = check_play(wwf, Play.parse("8B RETAINS", wwf_tiles))
    assert p.score == sum(word_score(wwf, w) for w in words_formed(wwf, p)) + 35


def test_transpose_board_and_play(board: Board) -> None:
    play(board, "8D QUITE")
    t = transposed_board(board)
    assert t.text_at(3, 7) == "Q" and t.text_at(7, 7) == "E"
    p = Play.parse("8A MES.....", board.tiles).resolve(board)
    assert check_play(t, transposed(p)).score == check_play(board, p).score
    assert transposed_board(t) == board


def test_same_play_accepts_the_mirror_on_an_empty_board(board: Board) -> None:
    across = Play.parse("8D QUITE", board.tiles).resolve(board)
    down = Play.parse("H4 QUITE", board.tiles).resolve(board)  # the mirror image on the diagonal
    assert same_play(board, across, down)
    apply_play(board, check_play(board, across))
    mes = Play.parse("8A MES.....", board.tiles).resolve(board)
    assert same_play(board, mes, Play.parse("8A MESQUITE", board.tiles).resolve(board))
    assert not same_play(board, mes, Play.parse("A8 MES", board.tiles).resolve(board))


def test_a_play_is_scored_only_by_the_rules(board: Board) -> None:
    written = Play.parse("8D QUITE", board.tiles)
    assert not hasattr(written, "score")  # a play as written has no score to read by mistake
    scored = check_play(board, written)
    assert isinstance(scored, ScoredPlay) and scored.score == 48
    assert scored.key() == written.resolve(board).key() and scored.format(board.tiles) == "8D QUITE"


def test_the_listed_play_for_an_answer_written_another_way(board: Board) -> None:
    """The position checker's rule is `same_play`: the mirror image on an empty
    board, the same tiles written with `.` or their letters once tiles are down."""
    listed = [check_play(board, Play.parse(text, board.tiles)) for text in ("8D QUITE", "8E QUITE", "8H QUITE")]
    answer = check_play(board, Play.parse("H4 QUITE", board.tiles))  # the mirror of 8D QUITE
    assert listed_play(board, answer, listed) == listed[0]
    assert listed_play(board, check_play(board, Play.parse("H8 QUITE", board.tiles)), listed) == listed[2]
    assert listed_play(board, check_play(board, Play.parse("H6 QUITE", board.tiles)), listed) is None  # 8F is not listed
    apply_play(board, listed[0])
    written = check_play(board, Play.parse("8A MESQUITE", board.tiles))
    assert listed_play(board, written, [check_play(board, Play.parse("8A MES.....", board.tiles))]) is not None


def test_no_mirror_image_on_a_board_whose_premiums_are_not_symmetric(english) -> None:
    standard = load_layout("standard")
    premiums = tuple(tuple("TW" if (r, c) == (7, 3) else p for c, p in enumerate(row)) for r, row in enumerate(standard.premiums))
    board = Board(BoardLayout("lopsided", 15, 15, premiums), english)
    across = check_play(board, Play.parse("8D QUITE", english))
    down = check_play(board, Play.parse("H4 QUITE", english))
    assert across.score != down.score and not same_play(board, across, down)
    assert same_play(Board(standard, english), across, down)

