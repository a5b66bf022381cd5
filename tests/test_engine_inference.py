"""Reading the opponent's rack (`engine/inference.py`, `lexitrain infer`): Bayes' rule held to a brute force
over every rack, the draws' estimate held to the exact posterior, the moves it reads, and the command."""

from __future__ import annotations

import math
from collections import defaultdict
from itertools import combinations
from pathlib import Path

import pytest

from lexitrain.engine import movegen
from lexitrain.engine.cgp import Position, board_to_cgp, to_cgp
from lexitrain.engine.dawg import dawg_for
from lexitrain.engine.equity import best_candidate, play_equity
from lexitrain.engine.exchanges import unseen_tiles
from lexitrain.engine.gcg import read_gcg
from lexitrain.engine.inference import (ExchangeReader, InferenceModel, LastMove, PlayReader, infer,
                                        load_inference_model, placed_tiles, read_last_move)
from lexitrain.engine.leave_table import load_leaves
from lexitrain.engine.movegen import MoveGenerator
from lexitrain.engine.replay import replay
from lexitrain.engine.rules import apply_play
from lexitrain.errors import LexitrainError
from lexitrain.tiles import RACK_SIZE, Rack, load_tile_set
from tests.cli_runner import run

ENGLISH = load_tile_set("english")
compiled_only = pytest.mark.skipif(movegen.compiled is None or not hasattr(movegen.compiled, "best"),
                                   reason="compiled search not built")
#: Doug vs Emely, turn 22: ?BERSTU plays 2F .ERB (keeping STU?), the opponent holding AEHIMOP; 14 tiles unseen
DOUG = "domino14__macondo__gcgio__testdata__doug_v_emely.gcg"
MODEL = InferenceModel(4.0, 0.01)


def doug_turn(lex, number: int = 22):
    turns = replay(read_gcg(Path(__file__).parent / "data" / "gcg" / DOUG), lex.tiles)
    return turns[number - 1], turns[number]


def spelled(counts) -> str:
    return "".join(ENGLISH.letters[t] if t < ENGLISH.size else "?" for t, n in enumerate(counts) for _ in range(n))


@pytest.mark.parametrize("engine", ["compiled", "python"])
def test_the_posterior_is_bayes_rule_over_every_rack_the_unseen_tiles_allow(enable, engine: str) -> None:
    """Every 7 of the 14 unseen tiles, told apart, is one equally likely rack; those holding the tiles played
    are weighed by the likelihood of the play's equity loss, worked out from the generator's full list of
    plays and `equity.best_candidate` (not the inference's chooser); each leave's share of that weight is
    its probability. The inference's every-leave reading must give the same numbers."""
    if engine == "compiled" and (movegen.compiled is None or not hasattr(movegen.compiled, "best")):
        pytest.skip("compiled search not built")
    turn, reply = doug_turn(enable)
    generator = MoveGenerator(dawg_for(enable), engine=engine)
    leaves = load_leaves(enable.tiles)
    known = Rack.parse(ENGLISH, reply.rack)
    unseen = unseen_tiles(turn.board, known)
    tiles = [t for t, n in enumerate((*unseen.counts, unseen.blanks)) for _ in range(n)]
    assert len(tiles) == 14
    played = placed_tiles(ENGLISH, turn.play)
    bag = len(tiles) - RACK_SIZE
    loss_of: dict[tuple[int, ...], float] = {}
    weight: dict[tuple[int, ...], float] = defaultdict(float)
    for chosen in combinations(range(len(tiles)), RACK_SIZE):
        counts = [0] * (ENGLISH.size + 1)
        for i in chosen:
            counts[tiles[i]] += 1
        leave = tuple(c - p for c, p in zip(counts, played))
        if min(leave) < 0:
            continue
        if leave not in loss_of:
            rack = Rack(ENGLISH, tuple(counts[:-1]), counts[-1])
            plays = generator.plays(turn.board, rack)
            best = best_candidate(leaves, rack, plays, bag).equity
            loss_of[leave] = max(0.0, best - play_equity(leaves, rack, turn.play, bag).equity)
        weight[leave] += MODEL.likelihood(loss_of[leave])
    total = sum(weight.values())
    expected = {leave: w / total for leave, w in weight.items()}

    reading = PlayReader(turn.board, turn.play, known, generator, leaves, MODEL, engine).read()
    assert reading.exhaustive and reading.covered == 1.0
    got = dict(reading.leaves)
    assert set(got) == set(expected) and len(got) > 50
    for leave, p in expected.items():
        assert got[leave] == pytest.approx(p, rel=1e-3, abs=1e-9), spelled(leave)
    assert sum(got.values()) == pytest.approx(1.0)
    assert [p for _, p in reading.leaves] == sorted(got.values(), reverse=True)
    kept = tuple(n - p for n, p in zip((*Rack.parse(ENGLISH, turn.rack).counts, 1), played))
    assert spelled(kept) == "STU?" and reading.probability(kept) == pytest.approx(expected[kept], rel=1e-3)


@compiled_only
def test_drawn_leaves_estimate_the_posterior_that_weighs_every_leave(enable) -> None:
    """A mid-game play keeping five tiles, read by every leave (some 50,000) and by 4,000 random draws: the
    draws' probability of the leave kept is near the exact one, their likeliest leaves are the exact ones'."""
    turn, reply = doug_turn(enable, 13)  # ?DINRRU plays 6D R.D, keeping INRU?
    generator = MoveGenerator(dawg_for(enable))
    leaves = load_leaves(enable.tiles)
    known = Rack.parse(ENGLISH, reply.rack)
    exact = PlayReader(turn.board, turn.play, known, generator, leaves, MODEL)
    assert exact.count() > 20000
    whole = exact.read(exhaustive=10 ** 6)
    drawn = PlayReader(turn.board, turn.play, known, generator, leaves, MODEL).read(exhaustive=0, samples=4000)
    assert whole.exhaustive and not drawn.exhaustive and 0.05 < drawn.covered < 1
    kept = tuple(n - p for n, p in zip((*Rack.parse(ENGLISH, turn.rack).counts, 1),
                                       placed_tiles(ENGLISH, turn.play)))
    assert spelled(kept) == "INRU?"
    assert drawn.probability(kept) == pytest.approx(whole.probability(kept), rel=0.15)
    exact_top = [leave for leave, _ in whole.leaves[:30]]
    assert sum(leave in exact_top for leave, _ in drawn.leaves[:10]) >= 7
    # what a simulation draws from: importance weights, near the whole posterior for each tile held
    inferred = drawn.inferred()
    assert abs(sum(1 for leave in inferred.leaves) - len(drawn.leaves)) == 0
    blank_exact = sum(p for leave, p in whole.leaves if leave[-1])
    weights = dict(drawn.drawn or [])
    blank_drawn = sum(w for leave, w in weights.items() if leave[-1]) / sum(weights.values())
    assert blank_drawn == pytest.approx(blank_exact, abs=0.05)


@compiled_only
def test_a_play_of_every_tile_keeps_nothing_and_an_exchange_keeps_its_best_leave(enable) -> None:
    turn, reply = doug_turn(enable, 13)
    generator = MoveGenerator(dawg_for(enable))
    leaves = load_leaves(enable.tiles)
    known = Rack.parse(ENGLISH, reply.rack)
    bingo = next(t for t in replay(read_gcg(Path(__file__).parent / "data" / "gcg" / DOUG), ENGLISH)
                 if t.play is not None and t.play.tile_count == RACK_SIZE)
    read = infer(bingo.board, LastMove(play=bingo.play), Rack.parse(ENGLISH, ""), generator, leaves, MODEL)
    assert read.leaves == [((0,) * 27, 1.0)] and read.to_json()["leaves"] == [{"leave": "", "probability": 1.0}]
    reader = ExchangeReader(turn.board, 3, known, generator, leaves, MODEL)
    result = reader.read(samples=300)
    assert all(sum(leave) == RACK_SIZE - 3 for leave, _ in result.leaves)
    assert sum(p for _, p in result.leaves) == pytest.approx(1.0)
    held = Rack.parse(ENGLISH, "EERST?")
    kept, _ = reader.kept((*held.counts, held.blanks))
    assert spelled(kept) == "ERS?"  # the exchange of three keeps the blank and the best of the rest
    late, late_reply = doug_turn(enable, 24)
    with pytest.raises(LexitrainError, match="^an exchange of 2 was not allowed there: 1 tile in the bag$"):
        ExchangeReader(late.board, 2, Rack.parse(ENGLISH, late_reply.rack), generator, leaves, MODEL)


def test_a_last_move_reads_as_gcg_shows_it_and_on_the_board_after_it(enable) -> None:
    turn, _ = doug_turn(enable)
    move = LastMove.parse("2F .ERB", turn.board)
    assert move.play is not None and move.play.score == turn.play.score and move.exchanged == 0
    assert LastMove.parse("exchange 3", turn.board) == LastMove(exchanged=3) == LastMove.parse("-3", turn.board)
    for bad in ("exchange 0", "exchange 8", "exchange", "2F", "2F QZX", "Z99 A"):
        with pytest.raises(LexitrainError, match="last play"):
            LastMove.parse(bad, turn.board)
    after = turn.board.copy()
    apply_play(after, turn.play)
    before, read = read_last_move(after, "2F .ERB")
    assert before.squares == turn.board.squares and read.play == move.play
    before, read = read_last_move(after, "2F (V)ERB")
    assert before.squares == turn.board.squares
    with pytest.raises(LexitrainError, match="does not hold its tiles"):
        read_last_move(after, "2F .ERS")  # no S there
    assert read_last_move(after, "exchange 2") == (after, LastMove(exchanged=2))


def test_the_shipped_model_is_fitted(enable) -> None:
    model = load_inference_model(ENGLISH)
    assert model.temperature > 0 and 0 <= model.floor < 1
    assert model.trained.get("script") == "scripts/fit_inference.py" and model.trained.get("positions", 0) >= 1000
    assert load_inference_model(load_tile_set("french")) == model  # another set reads the English fit


@compiled_only
def test_infer_json_is_the_contract(enable) -> None:
    turn, reply = doug_turn(enable)
    cgp = f"{board_to_cgp(turn.board)} / 300/320 0"
    result = run("infer", "--cgp", cgp, "--last-play", "2F .ERB", "--rack", reply.rack, "--json")
    assert result.exit_code == 0, result.stderr
    doc = result.json()
    assert {"leaves", "method", "positions"} <= set(doc)
    probabilities = [row["probability"] for row in doc["leaves"]]
    assert sum(probabilities) == pytest.approx(1.0, abs=1e-4) and probabilities == sorted(probabilities, reverse=True)
    assert all(set(row) == {"leave", "probability"} and len(row["leave"]) == 4 for row in doc["leaves"])
    assert "STU?" in {row["leave"] for row in doc["leaves"]} and doc["positions"] == len(doc["leaves"])
    # the same rack given as the CGP's second rack gives the same answer
    again = run("infer", "--cgp", cgp.replace(" / ", f" /{reply.rack} "), "--last-play", "2F .ERB", "--json")
    assert again.json() == doc
    text = run("infer", "--cgp", cgp, "--last-play", "2F .ERB", "--rack", reply.rack, "--top", "3")
    assert text.exit_code == 0 and len([line for line in text.stdout.splitlines() if "%" in line[:12]]) == 3
    assert doc["left_out"] == {"leaves": 0, "probability": 0}


@compiled_only
def test_infer_top_json_says_what_it_leaves_out(enable) -> None:
    """`--top N --json` lists N leaves and says how many it left out and their probability together, so the
    whole still sums to 1 as the contract says; the help says so too."""
    turn, reply = doug_turn(enable)
    cgp = f"{board_to_cgp(turn.board)} / 300/320 0"
    doc = run("infer", "--cgp", cgp, "--last-play", "2F .ERB", "--rack", reply.rack, "--top", "3", "--json").json()
    assert len(doc["leaves"]) == 3 and doc["left_out"]["leaves"] == doc["positions"] - 3
    listed = sum(row["probability"] for row in doc["leaves"])
    assert 0 < doc["left_out"]["probability"] < 1
    assert listed + doc["left_out"]["probability"] == pytest.approx(1.0, abs=1e-4)
    assert "left_out" in " ".join(run("infer", "--help").stdout.split())


@pytest.mark.parametrize("args, message", [
    (("--last-play", "2F .ERB", "--rack", "QQQ"), "Q tiles"),
    (("--last-play", "2F QQ"), "last play"),
    (("--last-play", "exchange 9"), "exchange N"),
    (("--last-play", "2F .ERB", "--top", "0"), "--top"),
])
def test_infer_refuses_bad_input_in_one_line(enable, args: tuple[str, ...], message: str) -> None:
    turn, _ = doug_turn(enable)
    result = run("infer", "--cgp", f"{board_to_cgp(turn.board)} / 300/320 0", *args)
    assert result.exit_code != 0 and message in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and not result.stdout


def test_infer_refuses_the_opponents_rack_in_the_cgp(enable) -> None:
    turn, _ = doug_turn(enable)
    result = run("infer", "--cgp", f"{board_to_cgp(turn.board)} {turn.rack}/ 300/320 0", "--last-play", "2F .ERB")
    assert result.exit_code == 1 and "leave it empty" in result.stderr


@compiled_only
def test_sim_infer_reads_the_turn_before_and_the_last_play(enable, real_games: Path) -> None:
    """`sim --gcg G --turn N --infer` and `sim --cgp C --infer --last-play M` on the same position give the
    same document; it differs from the plain simulation's and says it read the opponent."""
    path = str(real_games / DOUG)
    common = ("--candidates", "3", "--iterations", "30", "--seed", "4", "--threads", "1", "--json")
    by_game = run("sim", "--gcg", path, "--turn", "23", "--infer", *common)
    assert by_game.exit_code == 0, by_game.stderr
    turn = replay(read_gcg(real_games / DOUG), ENGLISH)[22]
    cgp = to_cgp(Position(turn.board, [turn.rack, ""], list(turn.scores)))
    by_cgp = run("sim", "--cgp", cgp, "--infer", "--last-play", "2F .ERB", *common)
    plain = run("sim", "--cgp", cgp, *common)
    assert by_cgp.json() == by_game.json() and by_game.json()["inferred"] is True
    assert "inferred" not in plain.json() and plain.json()["candidates"] != by_game.json()["candidates"]
    best = run("best", "--cgp", cgp, "--by", "sim", "--infer", "--last-play", "2F .ERB", "--iterations", "30",
               "--seed", "4", "--top", "3", "--json")
    assert best.exit_code == 0, best.stderr
    assert len(best.json()) == 3 and all(row["iterations"] == 30 for row in best.json())
    for args, message in ((("--infer",), "--last-play"), (("--last-play", "2F .ERB"), "goes with --infer")):
        refused = run("sim", "--cgp", cgp, *args)
        assert refused.exit_code == 1 and message in refused.stderr
    first = run("sim", "--gcg", path, "--turn", "1", "--infer")
    assert first.exit_code == 1 and "does not follow" in first.stderr


@compiled_only
def test_a_sampled_inference_says_its_leaves_are_not_every_leave(enable) -> None:
    """An opening play keeping four tiles has too many leaves to weigh every one: the terminal says the
    probabilities are among the leaves weighed and what share of the whole those hold (it once said "the
    listed leaves", which read as the five shown)."""
    empty = "15/" * 14 + "15 / 0/0 0"
    text = run("infer", "--cgp", empty, "--last-play", "8F CAT", "--top", "5")
    assert text.exit_code == 0, text.stderr
    last = text.stdout.splitlines()[-1]
    assert "not every leave: those weighed hold about" in last and "the probabilities above are among them" in last
    assert "listed leaves" not in text.stdout
