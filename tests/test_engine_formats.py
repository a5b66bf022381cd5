"""CGP and GCG read/write (round trips as property tests) and the game model."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexitrain.engine.bag import Bag
from lexitrain.engine.board import BLANK_FLAG, EMPTY, Board
from lexitrain.engine.cgp import CGPError, Position, parse_cgp, to_cgp
from lexitrain.engine.dawg import dawg_from_codes
from lexitrain.engine.game import Game, Rules, self_play
from lexitrain.engine.gcg import (
    CHALLENGE_BONUS, END_RACK, EXCHANGE, PASS, PLAY, TIME_PENALTY, WITHDRAWN, Event, GCGError, Player, Game as Record,
    parse_gcg, write_gcg,
)
from lexitrain.engine.play import Play
from lexitrain.engine.rules import IllegalPlay
from lexitrain.layouts import load_layout
from lexitrain.tiles import load_tile_set
from tests.engine_helpers import take_from_bag

ENGLISH = load_tile_set("english")
SPANISH = load_tile_set("spanish")


@st.composite
def boards(draw, tiles=ENGLISH):
    board = Board(load_layout("standard"), tiles)
    cells = draw(st.lists(st.tuples(st.integers(0, 224), st.integers(0, tiles.size - 1), st.booleans()), max_size=60))
    for square, letter, blank in cells:
        board.squares[square] = letter | (BLANK_FLAG if blank else 0)
    return board


racks = st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ?", max_size=7)


@settings(max_examples=100, deadline=None)
@given(boards(), st.lists(racks, min_size=2, max_size=2), st.lists(st.integers(0, 900), min_size=2, max_size=2),
       st.integers(0, 6))
def test_cgp_round_trip(board, racks_, scores, zeros) -> None:
    position = Position(board, racks_, scores, zeros, {"lex": "enable"})
    again = parse_cgp(to_cgp(position))
    assert again.board.squares == board.squares
    assert (again.racks, again.scores, again.zero_turns, again.ops) == (racks_, scores, zeros, {"lex": "enable"})


@settings(max_examples=50, deadline=None)
@given(boards(SPANISH))
def test_cgp_round_trip_with_multi_letter_tiles(board) -> None:
    text = to_cgp(Position(board, ["", ""], [0, 0], 0, {"ld": "spanish"}))
    assert parse_cgp(text).board.squares == board.squares


def test_cgp_example_from_the_format_notes() -> None:
    text = ("5BERGS5/4PA3U5/2QAID3R5/3BEE3F2S2/1P1ET2VIATIC2/MA1TAW3c2H2/ES3IS2E2A2/AT1FOLIA4V2/LI1L1EX1E6/"
            "1N1O1D2N2Y3/1GNU2C1JETE3/2ER2OHO2N3/2O3GOY6/1INDOW1U7/4DORR7 IKLMTZ/AEINRU? 0/0 0 lex OSPD1;")
    position = parse_cgp(text)
    assert position.board.text_at(5, 9) == "c"  # a blank
    assert position.rack == "IKLMTZ" and position.racks[1] == "AEINRU?"
    assert to_cgp(position) == text


def test_cgp_operations_bingo_bonus() -> None:
    position = parse_cgp("/".join(["15"] * 15) + " AB/ 0/0 0 bb 35; lex CSW21;")
    assert position.board.layout.bingo_bonus == 35 and position.ops["lex"] == "CSW21"
    with pytest.raises(CGPError, match="bb: 'x' is not a number"):
        parse_cgp("/".join(["15"] * 15) + " AB/ 0/0 0 bb x;")


events = st.one_of(
    st.builds(lambda r, s: Event(PLAY, "p1", r, s, 0, position="8D", tiles="QUIT."), racks, st.integers(0, 200)),
    st.builds(lambda r, s: Event(PLAY, "p2", r, s, 0, position="H8", tiles="(QU)ITe"), racks, st.integers(0, 200)),
    st.builds(lambda r: Event(WITHDRAWN, "p1", r, -10, 0), racks),
    st.builds(lambda r, t: Event(EXCHANGE, "p2", r, 0, 0, tiles=t), racks, st.sampled_from(["ABC", "4", "?"])),
    st.builds(lambda r: Event(PASS, "p1", r, 0, 0), racks),
    st.builds(lambda r: Event(CHALLENGE_BONUS, "p2", r, 5, 0), racks),
    st.builds(lambda r: Event(TIME_PENALTY, "p1", r, -10, 0), racks),
    st.builds(lambda t: Event(END_RACK, "p2", "", 8, 0, tiles=t), st.sampled_from(["AB", "Q?"])),
)


@settings(max_examples=100, deadline=None)
@given(st.lists(events, max_size=12), st.lists(st.text("abc \u00e9", min_size=1, max_size=10), max_size=3))
def test_gcg_round_trip(evs, notes) -> None:
    total = 0
    for e in evs:
        total += e.score
        e.cumulative = total
    if evs:
        evs[0].notes = [n.strip() or "x" for n in notes]
    record = Record([Player("p1", "Player One"), Player("p2", "Player Two")], evs, {"lexicon": "NWL23"})
    again = parse_gcg(write_gcg(record))
    assert [(p.nick, p.name) for p in again.players] == [("p1", "Player One"), ("p2", "Player Two")]
    assert again.lexicon == "NWL23"
    strip = lambda e: (e.kind, e.player, e.rack, e.score, e.cumulative, e.position, e.tiles, e.notes)  # noqa: E731
    assert [strip(e) for e in again.events] == [strip(e) for e in evs]


def test_gcg_multiline_notes_and_pragmas() -> None:
    text = "#character-encoding UTF-8\n#player1 a Ann\n#player2 b Bo\n#lexicon CSW21\n#rack1 ABC\n" \
           ">a: ABCDEFG 8D BAD +12 12\n#note first\nsecond line\n>b:  (time) -10 -10\n"
    game = parse_gcg(text)
    assert game.events[0].notes == ["first\nsecond line"]
    assert game.pragmas["rack1"] == "ABC" and game.lexicon == "CSW21"
    assert game.events[1].kind == TIME_PENALTY and game.events[1].rack == ""


def test_gcg_errors_name_the_line() -> None:
    with pytest.raises(GCGError, match=r"x.gcg:2: move line needs '>player: \.\.\.'"):
        parse_gcg("#player1 a A\n>: ABC 8D BAD +1 1\n", "x.gcg")
    with pytest.raises(GCGError, match=r"x.gcg:1: cannot read the move"):
        parse_gcg(">a: ABC 8D BAD EXTRA +1 1\n", "x.gcg")


# -- bag and game ----------------------------------------------------------------------
WORDS = dawg_from_codes(["QI", "QAT", "AT", "TA", "CAT", "ACT", "CATS", "SCAT", "EAT", "TEA", "ATE", "ETA"], ENGLISH, "w")


def test_bag_holds_the_tile_set_and_draws_reproducibly() -> None:
    bag = Bag(ENGLISH, seed=3)
    assert len(bag) == 100
    first = bag.draw(7)
    assert len(bag) == 93 and first == Bag(ENGLISH, seed=3).draw(7)
    bag.put_back(first)
    assert len(bag) == 100
    assert len(Bag(load_tile_set("english_super"), 1)) == 200


def new_game(rules: Rules | None = None, racks=("CATSEQI", "AEETTAR")) -> Game:
    game = Game(Board(load_layout("standard"), ENGLISH), WORDS, seed=1, rules=rules)
    for player, rack in zip(game.players, racks):
        game.bag.put_back(player.rack)
        take_from_bag(game.bag, list(rack))
        player.rack = list(rack)
    return game


def test_play_draws_and_scores() -> None:
    game = new_game()
    move = game.play(Play.parse("8G CAT", ENGLISH))
    assert move.score == 10 and game.players[0].score == 10  # (3+1+1) x 2
    assert len(game.players[0].rack) == 7 and len(game.bag) == 100 - 14 - 3
    assert game.turn == 1
    with pytest.raises(IllegalPlay, match="Q is not on the rack"):
        game.play(Play.parse("H7 Q.", ENGLISH))


def test_double_challenge_phony_comes_off_and_valid_play_costs_the_turn() -> None:
    game = new_game()
    game.play(Play.parse("8G TEC", ENGLISH))  # not a word here
    before = len(game.bag)
    move = game.challenge()
    assert move.kind == "challenged-off" and game.board.is_empty() and game.players[0].score == 0
    assert sorted(game.players[0].rack) == sorted("CATSEQI") and len(game.bag) == before + 3
    assert game.turn == 1
    game.play(Play.parse("8G TEA", ENGLISH))
    assert game.challenge().kind == "lost-challenge" and game.turn == 1  # player 1 lost the turn


@pytest.mark.parametrize(("rule", "bonus"), [("5pt", 5), ("10pt", 10)])
def test_point_penalty_challenges(rule: str, bonus: int) -> None:
    game = new_game(Rules(challenge=rule))
    game.play(Play.parse("8G CAT", ENGLISH))
    game.challenge()
    assert game.players[0].score == 10 + bonus and game.turn == 1


def test_void_rule_refuses_phonies() -> None:
    game = new_game(Rules(challenge="void"))
    with pytest.raises(IllegalPlay, match="TEC is not in the lexicon"):
        game.play(Play.parse("8G TEC", ENGLISH))


def test_exchange_needs_seven_in_the_bag_under_tournament_rules() -> None:
    game = new_game()
    in_bag = len(game.bag)
    move = game.exchange("QI")
    assert move.kind == "exchange" and len(move.drawn) == 2 and len(game.bag) == in_bag
    assert sorted(game.players[0].rack) == sorted("CATSE" + "".join(move.drawn))
    assert game.turn == 1 and game.zero_turns == 1
    with pytest.raises(IllegalPlay, match="Z is not on the rack"):
        game.exchange("Z")
    with pytest.raises(IllegalPlay, match="^exchange 'A1': '1' is not a tile of the english set$"):
        game.exchange("A1")
    game.bag.contents = game.bag.contents[:6]
    with pytest.raises(IllegalPlay, match="cannot exchange with 6 tiles"):
        game.exchange("A")
    home = new_game(Rules(exchange_limit=0))
    home.bag.contents = home.bag.contents[:2]
    home.exchange("Q")


def test_six_scoreless_turns_end_the_game() -> None:
    game = new_game()
    for _ in range(6):
        game.pass_turn()
    assert game.over
    assert game.players[0].score == -sum(ENGLISH.points_of(t) for t in "CATSEQI")


@pytest.mark.parametrize(("tournament", "out_bonus", "other"), [(True, 2 * 2, 0), (False, 2, -2)])
def test_going_out(tournament: bool, out_bonus: int, other: int) -> None:
    game = new_game(Rules(tournament=tournament), racks=("CAT", "AE"))
    game.bag.contents = []
    move = game.play(Play.parse("8G CAT", ENGLISH))
    assert game.over
    assert game.players[0].score == move.score + out_bonus and game.players[1].score == other


def test_greedy_self_play_is_reproducible(enable) -> None:
    from lexitrain.engine.dawg import dawg_for

    from lexitrain.engine.movegen import MoveGenerator

    dawg = dawg_for(enable)
    a, pos_a = self_play(Board(load_layout("standard"), ENGLISH), MoveGenerator(dawg), seed=5, max_turns=8)
    b, pos_b = self_play(Board(load_layout("standard"), ENGLISH), MoveGenerator(dawg), seed=5, max_turns=8)
    assert [p.rack for p in pos_a] == [p.rack for p in pos_b] and a.board == b.board
    assert a.board.tile_count() > 10
    assert all(m.score == m.play.score for m in a.history if m.kind == "play")
    assert sum(s != EMPTY for s in pos_a[0].board.squares) == 0
