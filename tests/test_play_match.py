"""A game against a bot (engine/match.py): the challenge rules, the clock's overtime, the record, resuming.

Each challenge test sets both racks by hand and has the bot play what the test
says (`Scripted`), so what is asserted is the rule, not a bot's taste."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from lexitrain.engine.bots import PLAY, Bot, BotMove, level
from lexitrain.engine.clock import GameClock, overtime_penalty
from lexitrain.engine.game import Game
from lexitrain.engine.gcg import CHALLENGE_BONUS, PASS, TIME_PENALTY, WITHDRAWN, parse_gcg, write_gcg
from lexitrain.engine.match import BOT, LOST_CHALLENGE, PLAYER, Match, Settings, challenge_rule
from lexitrain.engine.play import Play
from lexitrain.engine.replay import replay
from lexitrain.engine.rules import IllegalPlay, check_play
from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from tests.engine_helpers import take_from_bag

WORDS = ["CAT", "CATS", "ACT", "ACTS", "AT", "TA", "TAE", "TEA", "TEAS", "EAT", "EATS", "ATE", "ETA", "SEA", "SET",
         "QI", "IS", "IT", "TI", "SI", "TIS", "ITS", "SIT", "QAT", "QATS", "AE", "ES", "ET"]


class Scripted(Bot):
    """The Expert (it challenges every phony, never a good word), whose moves the test writes."""

    def __init__(self, lex: Lexicon, moves: list[str]) -> None:
        super().__init__(level(4), lex)
        self.moves = moves

    def move(self, game: Game, seed: int, seconds: float | None = None) -> BotMove:
        text = self.moves.pop(0)
        if text == "pass":
            return BotMove("pass")
        return BotMove(PLAY, check_play(game.board, Play.parse(text, game.board.tiles)))


@pytest.fixture
def small(make_lexicon: Callable[..., Lexicon]) -> Lexicon:
    return make_lexicon(WORDS)


def new_match(lex: Lexicon, rule: str, bot_moves: list[str], mine: str = "CATSEQI", theirs: str = "AETTSIA",
              minutes: float = 0, now: Callable[[], float] | None = None) -> Match:
    kwargs = {"now": now} if now is not None else {}
    match = Match(lex, Settings(lex.name, 4, rule, minutes, seed=5, first=True), Scripted(lex, bot_moves), **kwargs)
    game = match.game
    for player, rack in zip(game.players, (mine, theirs)):
        game.bag.put_back(player.rack)
        take_from_bag(game.bag, list(rack))
        player.rack = list(rack)
    match.start_turn()
    return match


@pytest.mark.parametrize("rule", ["single", "double", "5pt", "10pt"])
def test_a_phony_of_the_players_is_challenged_off_under_every_rule_but_void(small: Lexicon, rule: str) -> None:
    match = new_match(small, rule, ["8G SIT"])
    match.player_line("8G TEC")  # not a word of the lexicon: allowed until challenged
    assert match.to_move == BOT
    happened = match.bot_step()
    assert happened[0].what == "challenge" and "TEC is not in small" in happened[0].text
    assert match.scores[0] == 0 and match.game.board.tile_count() != 0  # the bot then played SIT
    assert sorted(match.game.players[0].rack) == sorted("CATSEQI")  # the tiles went back to the rack
    kinds = [e.kind for e in match.events]
    assert kinds[:2] == ["play", WITHDRAWN] and match.events[1].score == -match.events[0].score
    assert match.events[1].cumulative == 0 and match.to_move == PLAYER


def test_void_refuses_a_phony_as_it_is_played(small: Lexicon) -> None:
    match = new_match(small, "void", [])
    with pytest.raises(IllegalPlay, match="TEC is not in the lexicon"):
        match.player_line("8G TEC")
    assert match.to_move == PLAYER and not match.events  # nothing happened
    match.player_line("8G CAT")
    assert not match._bot_to_judge  # nothing to challenge under void


@pytest.mark.parametrize(("rule", "bonus"), [("5pt", 5), ("10pt", 10)])
def test_a_wrong_challenge_gives_points_for_each_word(small: Lexicon, rule: str, bonus: int) -> None:
    match = new_match(small, rule, ["H7 TA"])
    match.player_line("8G CAT")
    match.bot_step()  # H7 TA down through the A of CAT: one word
    before = match.scores[1]
    happened = match.player_line("challenge")
    assert happened[0].score == bonus == match.scores[1] - before
    assert match.events[-1].kind == CHALLENGE_BONUS and match.events[-1].score == bonus
    assert match.to_move == PLAYER  # the challenger still moves
    with pytest.raises(LexitrainError, match="no play of the bot's to challenge"):
        match.player_line("challenge")


def test_the_bonus_counts_every_word_of_the_play(small: Lexicon) -> None:
    match = new_match(small, "5pt", ["9G TA"], mine="ATEQSIC")
    match.player_line("8F EAT")
    match.bot_step()  # 9G TA under AT: TA across, AT and TA down
    match.player_line("challenge")
    assert match.game.history[-2].words == 3 and match.events[-1].score == 15


def test_a_wrong_double_challenge_costs_the_turn(small: Lexicon) -> None:
    match = new_match(small, "double", ["H7 TA", "pass"])
    match.player_line("8G CAT")
    match.bot_step()
    happened = match.player_line("challenge")
    assert "you lose the turn" in happened[0].text
    assert match.events[-1].kind == PASS and LOST_CHALLENGE in match.events[-1].notes
    assert match.to_move == BOT


def test_a_wrong_single_challenge_costs_nothing(small: Lexicon) -> None:
    match = new_match(small, "single", ["H7 TA"])
    match.player_line("8G CAT")
    match.bot_step()
    events = len(match.events)
    scores = match.scores
    happened = match.player_line("challenge")
    assert "no penalty" in happened[0].text and len(match.events) == events and match.scores == scores
    assert match.to_move == PLAYER
    with pytest.raises(LexitrainError, match="challenged that play already"):
        match.player_line("challenge")


def test_the_players_challenge_takes_a_phony_of_the_bots_off(small: Lexicon) -> None:
    match = new_match(small, "double", ["H8 .ZA"], theirs="AETTSIZ")
    match.player_line("8G CAT")
    match.bot_step()
    assert match.scores[1] > 0
    happened = match.player_line("challenge")
    assert "AZA is not in small" in happened[0].text and match.scores[1] == 0
    assert match.events[-1].kind == WITHDRAWN and match.to_move == PLAYER


def test_overtime_costs_ten_points_for_each_minute_or_part_of_one() -> None:
    assert overtime_penalty(25 * 60, 25) == 0
    assert overtime_penalty(25 * 60 + 1, 25) == 10
    assert overtime_penalty(26 * 60, 25) == 10
    assert overtime_penalty(26 * 60 + 0.5, 25) == 20
    assert overtime_penalty(35 * 60, 25) == 100
    assert overtime_penalty(10_000, 0) == 0  # untimed
    moments = iter([0.0, 100.0, 100.0, 150.0])
    clock = GameClock(1, now=lambda: next(moments))
    clock.start(0)
    clock.start(1)  # the player used 100 s of 60: 40 s over, one minute started
    assert clock.penalty(0) == 10 and clock.left(0) == -40
    clock.stop()
    assert clock.used == [100.0, 50.0] and clock.penalty(1) == 0


def test_overtime_is_taken_at_the_end_and_recorded(small: Lexicon) -> None:
    now = [0.0]
    match = new_match(small, "double", ["H7 TA"] + ["pass"] * 4, minutes=1, now=lambda: now[0])
    now[0] += 95  # 35 s over: one minute started
    match.player_line("8G CAT")
    match.bot_step()
    for _ in range(2):  # 40 s a pass: 175 s in all, 115 over: two minutes started
        now[0] += 40
        match.player_line("pass")
        if match.to_move == BOT:
            match.bot_step()
    while not match.finished:
        match.player_line("pass") if match.to_move == PLAYER else match.bot_step()
    penalties = [e for e in match.events if e.kind == TIME_PENALTY]
    assert [(e.player, e.score) for e in penalties] == [("you", -20)]  # 95 + 40 + 40 = 175 s of 60: 115 over
    record = parse_gcg(write_gcg(match.record()))
    assert record.events[-1].cumulative == match.scores[0]


def test_the_record_replays_to_the_final_scores(enable: Lexicon) -> None:
    match = play_through(enable, level_=3, seed=11)
    record = parse_gcg(write_gcg(match.record()), "game.gcg")
    totals: dict[str, int] = {}
    for event in record.events:
        totals[event.player] = event.cumulative
    assert [totals["you"], totals["Club"]] == match.scores
    turns = replay(record, enable.tiles)
    assert turns and all(t.ok for t in turns if t.kind == "play")  # every recorded score is what the rules give


def top_play(match: Match) -> str:
    from lexitrain.engine.movegen import MoveGenerator
    from lexitrain.tiles import Rack

    plays = MoveGenerator(match.bot.words).plays(match.game.board, Rack.of(match.tiles, match.game.players[match.me].rack))
    return plays[0].format(match.tiles) if plays else "pass"


def play_through(lex: Lexicon, level_: int, seed: int, stop_after: int | None = None,
                 match: Match | None = None) -> Match:
    match = match or Match(lex, Settings(lex.name, level_, "double", 0, seed=seed, first=seed % 2 == 0))
    moves = 0
    while match.to_move is not None and (stop_after is None or moves < stop_after):
        if match.to_move == BOT:
            match.bot_step()
        else:
            match.player_line(top_play(match))
        moves += 1
    return match


def test_a_resumed_game_goes_on_from_the_same_bag(enable: Lexicon) -> None:
    whole = play_through(enable, level_=4, seed=21)
    half = play_through(enable, level_=4, seed=21, stop_after=9)
    assert not half.finished
    record = parse_gcg(write_gcg(half.record()))
    resumed = Match.resume(enable, half.settings, record, half.clock.used)
    assert resumed.game.bag.contents == half.game.bag.contents  # the same tiles, in the same order
    assert resumed.game.bag.rng.getstate() == half.game.bag.rng.getstate()
    assert [p.rack for p in resumed.game.players] == [p.rack for p in half.game.players]
    play_through(enable, level_=4, seed=21, match=resumed)
    assert write_gcg(resumed.record()) == write_gcg(whole.record())  # every draw, move and score as uninterrupted
    assert resumed.scores == whole.scores


def test_a_record_its_seed_does_not_draw_is_refused(enable: Lexicon) -> None:
    half = play_through(enable, level_=4, seed=21, stop_after=4)
    text = write_gcg(half.record())
    first = next(line for line in text.splitlines() if line.startswith(">"))
    nick, rest = first.split(": ", 1)
    changed = text.replace(first, f"{nick}: QQQQQQQ {rest.split(' ', 1)[1]}")
    with pytest.raises(LexitrainError, match="not the one the game's seed dealt"):
        Match.resume(enable, half.settings, parse_gcg(changed), [0, 0])


def test_the_default_challenge_rule_goes_by_the_lexicon_style() -> None:
    assert challenge_rule(None, "CSW21") == "5pt" and challenge_rule(None, "collins2019") == "5pt"
    assert challenge_rule(None, "NWL2023") == "double" and challenge_rule(None, "enable") == "double"
    assert challenge_rule("10", "NWL2023") == "10pt" and challenge_rule("void", "csw") == "void"
    with pytest.raises(LexitrainError, match="choose one of void, single, double, 5, 10"):
        challenge_rule("triple", "enable")


def test_the_beginner_never_plays_a_slur_or_an_obscenity_the_stronger_bots_know_them(enable: Lexicon) -> None:
    """The Beginner knows only common words, and no offensive one (lexicons/wordlists/offensive.txt): with FAGGOTS
    or WETBACK on its rack and an empty board it plays another word, never one of the list, while the full
    lexicon's top play is the bingo (the lexicon is not changed: the Club bot and the player may play it). Its
    bluffs are no offensive word either. The list: ENABLE words, sorted, once each."""
    from lexitrain.engine.board import Board
    from lexitrain.engine.bot_words import OFFENSIVE_WORDS, offensive_words
    from lexitrain.engine.movegen import MoveGenerator
    from lexitrain.tiles import Rack

    listed = [line for line in OFFENSIVE_WORDS.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    assert listed == sorted(set(listed)) and all(word in enable for word in listed)
    assert {"FAG", "FAGS", "WETBACK", "CUNT"} <= offensive_words() and not {"DIKE", "QUEEN", "SPADE"} & offensive_words()
    beginner = Bot(level(1), enable)
    assert beginner.vocabulary is not None and beginner.bluffing is not None
    board = Board(enable.layout, enable.tiles)
    for rack, bingo in (("FAGGOTS", "FAGGOTS"), ("WETBACK", "WETBACK")):
        tiles = Rack.parse(enable.tiles, rack)
        assert MoveGenerator(beginner.words).plays(board, tiles)[0].word(enable.tiles) == bingo
        for generator in (beginner.known, beginner.bluffing):
            words = {play.word(enable.tiles) for play in generator.plays(board, tiles)}
            assert words and not words & offensive_words(), words & offensive_words()
    club = Bot(level(3), enable)
    assert club.known.plays(board, Rack.parse(enable.tiles, "FAGGOTS"))[0].word(enable.tiles) == "FAGGOTS"
