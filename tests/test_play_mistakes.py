"""The Mistake Index and the estimated rating (engine/mistakes.py, gcg analyze), and the leak profile.

A game's players are made to play the analyser's k-th best move by equity
every turn: k = 1 is a game where every move was the best, so its Mistake
Index is 0; the larger k, the more win probability thrown away, and the index
grows with it."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from lexitrain.engine.analysis import Analyst, TurnReport, summarise
from lexitrain.engine.board import Board
from lexitrain.engine.dawg import dawg_for
from lexitrain.engine.equity import rank_by_equity
from lexitrain.engine.game import Game, Move, self_play
from lexitrain.engine.gcg import EXCHANGE, PASS, PLAY, Event, Game as Record, Player, parse_gcg, write_gcg
from lexitrain.engine.leave_table import load_leaves
from lexitrain.engine.mistakes import LARGE, MEDIUM, NONE, SMALL, estimated_rating, mistake_index, mistake_size
from lexitrain.engine.movegen import MoveGenerator
from lexitrain.engine.play import ScoredPlay
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.tiles import Rack
from tests.cli_runner import run


def test_mistakes_are_sized_as_macondo_sizes_them() -> None:
    assert mistake_size("simulation", 0.002, 0) == NONE  # under 0.25%: noise
    assert mistake_size("simulation", 0.03, 0) == SMALL and mistake_size("simulation", 0.031, 0) == MEDIUM
    assert mistake_size("simulation", 0.07, 0) == MEDIUM and mistake_size("simulation", 0.0701, 0) == LARGE
    assert mistake_size("endgame", 0, 7) == SMALL and mistake_size("endgame", 0, 8) == MEDIUM
    assert mistake_size("endgame", 0, 16) == LARGE and mistake_size("endgame", 0, 0) == NONE
    assert mistake_size("endgame", 0, 1, blown=True) == LARGE  # a won endgame lost, by a point
    assert mistake_size("simulation", 0, 20, best_win=0.001, made_win=0.0) == MEDIUM  # decided: thresholds doubled
    assert mistake_size("pre-endgame", 0, 20) == LARGE
    assert mistake_index([SMALL, MEDIUM, LARGE, NONE, SMALL]) == 1.9


def test_the_rating_follows_macondos_mapping() -> None:
    assert estimated_rating(0) == 2300 and estimated_rating(1.7) == 2000 and estimated_rating(4.2) == 1650
    assert estimated_rating(0.1) == 2275  # halfway from 0 (2300) to 0.2 (2250)
    assert estimated_rating(5.2) == 1525  # 125 a point past 4.2
    ratings = [estimated_rating(x / 10) for x in range(80)]
    assert ratings == sorted(ratings, reverse=True)


def kth_best(k: int, model: object) -> object:
    """A policy making the k-th best move by equity (exchanges and the pass included), the best when fewer."""

    def move(game: Game, plays: list[ScoredPlay]) -> Move:
        rack = Rack.of(game.board.tiles, game.current.rack)
        ranked = rank_by_equity(model, rack, plays, len(game.bag))  # type: ignore[arg-type]
        chosen = ranked[min(k, len(ranked)) - 1]
        if chosen.play is not None:
            return game.play(chosen.play)
        if chosen.exchanged is not None:
            return game.exchange(game.board.tiles.spell(chosen.exchanged.names()))
        return game.pass_turn()

    return move


def record_of(game: Game, tiles: object) -> Record:
    """A self-play game as a GCG record (every rack, play, exchange and pass)."""
    names = [p.name.replace(" ", "") for p in game.players]
    totals = [0, 0]
    events = []
    for move in game.history:
        totals[move.player] += move.score
        rack = tiles.spell(move.rack_before)  # type: ignore[attr-defined]
        if move.kind == "play" and move.play is not None:
            events.append(Event(PLAY, names[move.player], rack, move.score, totals[move.player],
                                position=move.play.position, tiles=move.play.tiles_text(tiles)))  # type: ignore[arg-type]
        elif move.kind == "exchange":
            events.append(Event(EXCHANGE, names[move.player], rack, 0, totals[move.player],
                                tiles=tiles.spell(move.exchanged)))  # type: ignore[attr-defined]
        else:
            events.append(Event(PASS, names[move.player], rack, 0, totals[move.player]))
    return parse_gcg(write_gcg(Record([Player(n, n) for n in names], events, {"lexicon": "enable"})), "selfplay.gcg")


def analysed_index(enable: Lexicon, k: int, seed: int) -> tuple[float, float]:
    """The Mistake Index and win probability lost of a player making the k-th best move against the best."""
    model = load_leaves(enable.tiles)
    generator = MoveGenerator(dawg_for(enable))
    game, _ = self_play(Board(enable.layout, enable.tiles), generator, seed,
                        policies=(kth_best(k, model), kth_best(1, model)))
    report = Analyst(dawg_for(enable), model, enable.tiles).game(record_of(game, enable.tiles), "Player1")
    summary = report.summary("Player1")
    return summary["mistake_index"], summary["win_lost"]


def test_the_mistake_index_is_zero_when_every_move_was_the_best_and_grows_with_what_was_thrown_away(
        enable: Lexicon) -> None:
    for seed in (3, 4):
        best, lost = analysed_index(enable, 1, seed)
        assert best == 0 and lost == 0
    indexes = []
    for k in (2, 6, 20):
        index, lost = zip(*(analysed_index(enable, k, seed) for seed in (3, 4)))
        indexes.append((sum(index) / 2, sum(lost) / 2))
    assert indexes[0][0] > 0 and all(w > 0 for _, w in indexes)
    assert [i for i, _ in indexes] == sorted(i for i, _ in indexes) and indexes[-1][0] > indexes[0][0] + 1


def test_one_move_sized_by_the_win_probability_it_threw_away(enable: Lexicon) -> None:
    """Every move of the game the best but the last, that one the n-th best: the game's index is that move's
    mistake, 0 for the best, and never smaller for a move that threw more away."""
    model = load_leaves(enable.tiles)
    words = dawg_for(enable)
    generator = MoveGenerator(words)
    seen = []
    for choice in (1, 2, 3, 5, 9, 17, 33, 65):
        game = Game(Board(enable.layout, enable.tiles), words, ("Player 1", "Player 2"), seed=9)
        for turn in range(11):  # the 11th move is Player 1's sixth
            rack = Rack.of(enable.tiles, game.current.rack)
            plays = generator.plays(game.board, rack)
            kth_best(choice if turn == 10 else 1, model)(game, plays)
        report = Analyst(words, model, enable.tiles).game(record_of(game, enable.tiles), "Player1")
        summary = report.summary("Player1")
        last = report.turns[-1]
        assert summary["mistake_index"] == mistake_index([last.mistake])  # the earlier moves were the best
        seen.append((last.win_lost, summary["mistake_index"]))
    assert seen[0] == (0, 0)
    ordered = sorted(seen)
    assert [index for _, index in ordered] == sorted(index for _, index in ordered)
    assert ordered[-1][1] >= 0.5 and len({index for _, index in seen}) >= 3


def test_gcg_analyze_gives_each_player_an_index_and_a_rating(enable: Lexicon, real_games: Path) -> None:
    path = next(p for p in real_games.glob("*doug_v_emely.gcg"))
    result = run("gcg", "analyze", str(path), "--json")
    assert result.exit_code == 0, result.stderr
    players = result.json()["players"]
    for summary in players.values():
        assert summary["mistake_index"] >= 0 and 1000 < summary["estimated_rating"] <= 2300
        small, medium, large = (summary["mistakes"][s] for s in ("small", "medium", "large"))
        assert summary["mistake_index"] == pytest.approx(0.2 * small + 0.5 * medium + 1.0 * large)
        assert summary["estimated_rating"] == estimated_rating(summary["mistake_index"])


def test_a_leak_profile_adds_up_and_makes_the_weeks_study(enable: Lexicon) -> None:
    """Games of a deliberately weak player (the Beginner in the player's chair) against the Club bot: every
    leak has one kind, the kinds add up to the total, and the study makes due cards of the top kinds."""
    from lexitrain.engine.bots import Bot, level
    from lexitrain.engine.match import BOT, Settings, bot_line
    from lexitrain.study.drills.play import PlayedGame
    from lexitrain.study.quiz.scheduler import utc_now
    from lexitrain.study.records.leak_cards import leak_study
    from lexitrain.study.records.leaks import KINDS, Analysts, leak_profile, saved_analyses
    from lexitrain.study.store import ProgressStore

    weak = Bot(level(1), enable)
    with ProgressStore() as store:
        for number in range(3):
            game = PlayedGame.start(store, enable, Settings("enable", 3, "double", 0, 40 + number, first=number != 1))
            while not game.finished:
                game.bot_step() if game.to_move == BOT else game.player_line(bot_line(game.match, weak, 41 + number))
        games = saved_analyses(Analysts(sim=False))
        assert len(games) == 3 and all(g.player == "you" for g in games)
        profile = leak_profile(games)
        data = profile.to_json()
        assert data["games"] == 3 and {k["kind"] for k in data["kinds"]} == set(KINDS)
        assert sum(k["win_per_game"] for k in data["kinds"]) == pytest.approx(data["total"]["win_per_game"], abs=0.06)
        turns = sum(len(g.judged_turns()) for g in games)  # a weak player's cost a turn: a mean, never past 100%
        assert data["total"]["turns"] == turns > 3 * 10
        assert data["total"]["win_per_turn"] == pytest.approx(100 * math.fsum(x.win for x in profile.leaks) / turns,
                                                              abs=0.006)
        assert 0 < data["total"]["win_per_turn"] <= 100
        assert sum(k["points_per_game"] for k in data["kinds"]) == pytest.approx(data["total"]["points_per_game"],
                                                                                 abs=0.6)
        assert sum(k["count"] for k in data["kinds"]) == data["total"]["leaks"] == len(profile.leaks) > 5
        assert all(x.win >= 0 and x.points >= 0 for x in profile.leaks)
        again = leak_profile(saved_analyses(Analysts(sim=False)))  # the analyses kept are read back the same
        assert again.to_json()["total"] == data["total"]
        study = leak_study(store, profile, kinds=2, sim_iterations=16, endgame_seconds=1)
        assert study.added > 0 and len(study.kinds) == 2
        assert [k["kind"] for k in study.kinds] == profile.ranked_kinds()[:2]
        due = store.conn.execute("SELECT count(*) FROM cards WHERE lexicon = 'enable' AND due <= ?",
                                 (utc_now().timestamp(),)).fetchone()[0]
        assert due >= study.added


def test_the_weeks_best_play_cards_draw_the_opponents_rack_from_their_move_before(enable: Lexicon,
                                                                                   real_games: Path) -> None:
    """A leave kept badly after the opponent's tile play: the leak study's best-play card is simulated with the
    opponent's rack drawn from what that play says of it, as `study from-games` and `gcg analyze --sim` draw it."""
    import json

    from lexitrain.engine.gcg import read_gcg
    from lexitrain.study.records.leak_cards import leak_study
    from lexitrain.study.records.leaks import LEAVE, AnalysedGame, Leak, LeakProfile
    from lexitrain.study.store import ProgressStore
    from tests.test_engine_analysis import DOUG

    record = read_gcg(real_games / DOUG)
    report = Analyst.of_lexicon(enable).game(record, "doug")
    turn = next(t for t, read in zip(report.turns, report.reads)
                if read is not None and read[1].play is not None and t.turn > 10 and not t.note)
    game = AnalysedGame("doug v emely", "doug", "enable", "2026-01-02", "equity", report.to_json(), record)
    leak = Leak(LEAVE, game.name, turn.turn, 0.05, 6.0, cgp=turn.cgp, lexicon="enable")
    with ProgressStore() as store:
        study = leak_study(store, LeakProfile("doug", [game], [leak]), kinds=1, sim_iterations=16)
        analyses = [json.loads(a) for (a,) in store.conn.execute("SELECT analysis FROM positions")]
    assert study.added == 1 and [a["inferred"] for a in analyses] == [True]


def test_the_summary_reads_the_win_probability_lost_as_a_mean_a_turn_and_the_most_in_one() -> None:
    """Twenty turns losing 6% each (one 25%) add up to 139%: no chance of anything. A player reads the mean a
    turn and the most one turn lost, each a probability; a turn that could not be solved counts in neither."""
    turns = [TurnReport("g", n, "you", "AEINRST", PLAY, "8D RETAINS", 70, "", win_lost=0.25 if n == 3 else 0.06)
             for n in range(1, 21)]
    turns.append(TurnReport("g", 21, "you", "", PLAY, "8D QI", 11, "", win_lost=0.9, note="rack not recorded"))
    summary = summarise(turns)
    assert summary["win_lost"] == pytest.approx(1.39)  # (the sum, kept in the JSON as it was)
    assert summary["win_lost_per_turn"] == pytest.approx(1.39 / 20) and summary["win_lost_most"] == 0.25
    assert summarise([])["win_lost_per_turn"] == summarise([])["win_lost_most"] == 0.0
