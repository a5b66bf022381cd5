"""Equity as a user sees it: the leave model, exchanges and passes as candidates, `best --by equity`,
and equity play beating score play."""

from __future__ import annotations

import json
import random

import pytest

from lexitrain.engine import movegen
from lexitrain.engine.board import Board
from lexitrain.engine.cgp import parse_cgp
from lexitrain.engine.dawg import dawg_for
from lexitrain.engine.equity import EquityPlayer, best_candidate, rank_by_equity
from lexitrain.engine.exchanges import distinct_exchanges, tiles_in_bag
from lexitrain.engine.game import greedy, self_play
from lexitrain.engine.leave import LeaveFeatures, LeaveModel, leave_after, leave_path, load_leave_model
from lexitrain.engine.leave_table import load_leaves
from lexitrain.engine.leave_training import Sample, fit, samples
from lexitrain.engine.movegen import MoveGenerator
from lexitrain.errors import LexitrainError
from lexitrain.tiles import BLANK, Rack, load_tile_set
from tests.cli_runner import run
from tests.test_engine_cli import AFTER_QUITE, EMPTY, assert_clean_error

ENGLISH = load_tile_set("english")
MID_GAME = ("W14/ET3V9/BE2JO9/1I1ZAX9/LI2V10/AD2E10/T1GALE9/I2WINDY7/N3N1EAU6/ODONATES7/15/15/15/15/15 "
            "AELLNST/ 122/221 0")
CONTRACT = {"position", "word", "score", "tiles"}


def rack(text: str) -> Rack:
    return Rack.parse(ENGLISH, text)


def model() -> LeaveModel:
    return load_leave_model(ENGLISH)


def board_with_unseen(unseen: int, mover: str = "AEINRST", opponent: str = "") -> str:
    """A CGP whose board holds every tile but the racks given and `unseen` more (the bag, and the
    opponent's rack when not given), in reading order from the top left: the board need not make words."""
    pool = [t for t, n in zip(ENGLISH.letters, ENGLISH.counts) for _ in range(n)] + [BLANK] * ENGLISH.blanks
    for t in mover + opponent:
        pool.remove(t)
    on_board = ["e" if t == BLANK else t for t in pool[: len(pool) - unseen]]
    rows = []
    for r in range(15):
        row = on_board[r * 15:(r + 1) * 15]
        rows.append("".join(row) + (str(15 - len(row)) if len(row) < 15 else ""))
    return f"{'/'.join(rows)} {mover}/{opponent} 0/0 0"


# -- exchanges and the bag ---------------------------------------------------------

def test_every_distinct_exchange_once_fewest_tiles_first() -> None:
    found = distinct_exchanges(rack("AABCDE?"))
    assert len(found) == 3 * 2 ** 5 - 1  # 0-2 As, each other tile in or out, not nothing
    assert len({(r.counts, r.blanks) for r in found}) == len(found)
    assert [r.size for r in found] == sorted(r.size for r in found)
    assert [r.names() for r in found[:3]] == [["A"], ["B"], ["C"]]
    assert found[-1].names() == rack("AABCDE?").names()


@pytest.mark.parametrize(("unseen", "opponent", "bag"), [(86 + 7, "", 86), (14, "", 7), (13, "", 6), (5, "", 0),
                                                         (7, "ABC", 7), (6, "ABC", 6)])
def test_the_bag_is_the_unseen_tiles_less_the_opponents_rack(unseen: int, opponent: str, bag: int) -> None:
    position = parse_cgp(board_with_unseen(unseen, opponent=opponent))
    assert tiles_in_bag(position.board, position.racks) == bag


@pytest.mark.parametrize(("unseen", "exchanges"), [(14, 127), (13, 0)])
def test_best_lists_exchanges_only_with_seven_in_the_bag(enable, unseen: int, exchanges: int) -> None:
    rows = run("best", "--cgp", board_with_unseen(unseen), "--exchanges", "--all", "--json").json()
    swaps = [r for r in rows if r["position"] == "-" and r["tiles"]]
    passes = [r for r in rows if r["position"] == "-" and not r["tiles"]]
    assert len(swaps) == exchanges
    assert len({r["tiles"] for r in swaps}) == exchanges
    assert passes == [{"position": "-", "word": "", "score": 0, "tiles": "", "equity": passes[0]["equity"],
                       "leave": "AEINRST"}]
    for r in swaps:
        assert sorted(r["tiles"] + r["leave"]) == sorted("AEINRST") and r["score"] == 0


# -- the leave model ---------------------------------------------------------------

def test_the_shipped_model_records_its_training_and_says_what_it_learned() -> None:
    data = json.loads(leave_path(ENGLISH).read_text(encoding="utf-8"))
    trained = data["trained"]
    assert trained["lexicon"] == "enable" and trained["seed"] >= 0 and trained["games_per_round"] >= 1000
    m = model()
    assert len(m.weights) == len(LeaveFeatures(ENGLISH).features)
    tile = data["weights"]["tile"]
    assert max(tile, key=tile.get) == BLANK and tile["S"] > 0  # the blank is worth most, then S is a keeper
    assert m.value(rack("Q")) < 0 < m.value(rack("?"))
    assert m.value(rack("QU")) > m.value(rack("Q")) + m.value(rack("U"))  # Q without U costs extra
    assert m.value(rack("III")) < 3 * m.value(rack("I"))  # duplicates cost
    for group in ("vowels", "consonants"):  # the more unbalanced, the worse
        assert 0 > data["weights"][group]["+2"] > data["weights"][group]["+4"]
    assert m.value(rack("")) == 0


def test_a_leave_is_the_rack_less_the_tiles_played(enable) -> None:
    position = parse_cgp(f"{AFTER_QUITE} ABEMST?/ 0/0 0")
    plays = MoveGenerator(dawg_for(enable)).plays(position.board, rack("ABEMST?"))
    mesquite = next(p for p in plays if p.format(ENGLISH) == "8A MES.....")
    assert leave_after(rack("ABEMST?"), mesquite).names() == ["A", "B", "T", BLANK]
    blank_play = next(p for p in plays if any(t >= 128 for _, _, t in p.placed()))
    assert leave_after(rack("ABEMST?"), blank_play).blanks == 0
    m = model()
    assert m.play_values(rack("ABEMST?"), plays) == [m.value(leave_after(rack("ABEMST?"), p)) for p in plays]


def test_a_model_file_must_name_every_weight(tmp_path) -> None:
    data = model().to_json()
    assert LeaveModel.from_json(data, ENGLISH).weights == model().weights
    del data["weights"]["synergy"]["ER"]
    with pytest.raises(LexitrainError, match="no weight for synergy:ER"):
        LeaveModel.from_json(data, ENGLISH, "leaves.json")
    with pytest.raises(LexitrainError, match="not a leave model for the french tiles"):
        LeaveModel.from_json(model().to_json(), load_tile_set("french"))


def test_a_tile_the_set_holds_once_has_no_duplicate_feature() -> None:
    """More copies of a one-copy tile than the set holds (a property test's leave) count the tile and the
    triple only: the last column (synergy:ING) was once taken as J's duplicate and valued JJJ by ING's weight."""
    features = LeaveFeatures(ENGLISH)
    weights = [0.0] * len(features.features)
    weights[-1] = 1.0
    assert features.features[-1].label == "synergy:ING"
    j = ENGLISH.letters.index("J")
    counts = [0] * 26
    counts[j] = 3
    assert LeaveModel(ENGLISH, weights)._value(counts, 0) == 0.0
    assert {features.features[c].label for c, _ in features.of(counts, 0)} == {"tile:J", "triple", "consonants:+3"}


def test_least_squares_finds_the_weights_that_made_the_data() -> None:
    """Targets made from known weights (plus noise) give those weights back."""
    features = LeaveFeatures(ENGLISH)
    rng = random.Random(5)
    truth = [rng.uniform(-5, 5) for _ in features.features]
    bag = [t for t, n in zip(ENGLISH.letters, ENGLISH.counts) for _ in range(n)] + [BLANK] * 2
    data = []
    for _ in range(6000):
        kept = Rack.of(ENGLISH, rng.sample(bag, rng.randint(0, 6)))
        value = sum(truth[i] * x for i, x in features.of(kept.counts, kept.blanks))
        data.append(Sample(kept.counts, kept.blanks, 30 + value + rng.gauss(0, 2)))
    result = fit(ENGLISH, data, ridge=0.0)
    assert abs(result.intercept - 30) < 0.5
    column = {f.label: i for i, f in enumerate(features.features)}
    for label in ("tile:E", "tile:S", "tile:?", "vowels:+2", "duplicate:E"):
        assert abs(result.model.weights[column[label]] - truth[column[label]]) < 0.6, label


def test_training_samples_pair_a_leave_with_the_next_turn(enable) -> None:
    game, positions = self_play(Board(enable.layout, enable.tiles), MoveGenerator(dawg_for(enable)), seed=4)
    found = samples(game, positions, None)
    assert len(found) > 10
    moves = game.history
    usable = [i for i, m in enumerate(moves[:-2]) if positions[i].bag and m.kind != "pass"]
    assert [s.target for s in found] == [float(moves[i + 2].score) for i in usable]
    for s, i in zip(found, usable):  # the tiles kept and those drawn make the next rack
        kept = Rack(ENGLISH, s.counts, s.blanks).names()
        assert sorted(kept + moves[i].drawn) == sorted(Rack.parse(ENGLISH, positions[i + 2].rack).names())


# -- equity ------------------------------------------------------------------------

def test_equity_is_score_plus_leave_and_its_order_is_fixed(enable) -> None:
    position = parse_cgp(MID_GAME)
    held = rack("AELLNST")
    plays = MoveGenerator(dawg_for(enable)).plays(position.board, held)
    m = model()
    ranked = rank_by_equity(m, held, plays, 50)
    assert [c.equity for c in ranked] == sorted((c.equity for c in ranked), reverse=True)
    for c in ranked:
        assert c.equity == round(c.score + m.value(c.leave(held)), 2)
    assert rank_by_equity(m, held, plays[::-1], 50) == ranked  # the generator's order does not matter
    assert best_candidate(m, held, plays, 50) == ranked[0]
    assert sum(c.kind == "exchange" for c in ranked) == len(distinct_exchanges(held))


def test_with_the_bag_empty_kept_tiles_count_twice_against() -> None:
    assert rank_by_equity(model(), rack("QZ"), [], 0)[0].equity == -2 * (10 + 10)


def test_best_by_equity_adds_equity_and_leave_only_when_asked(enable) -> None:
    by_score = run("best", "--cgp", MID_GAME, "--json").json()
    assert all(set(r) == CONTRACT for r in by_score)
    rows = run("best", "--cgp", MID_GAME, "--by", "equity", "--all", "--json").json()
    assert all(set(r) == CONTRACT | {"equity", "leave"} for r in rows)
    assert len(rows) == len(run("best", "--cgp", MID_GAME, "--all", "--json").json())
    assert [r["equity"] for r in rows] == sorted((r["equity"] for r in rows), reverse=True)
    m = load_leaves(ENGLISH)  # what the engine values leaves by: the exhaustive table
    for r in rows[:50]:
        assert r["equity"] == round(r["score"] + m.value(rack(r["leave"])), 2)
    assert run("best", "--cgp", MID_GAME, "--by", "equity", "--all", "--json").json() == rows
    text = run("best", "--cgp", MID_GAME, "--by", "equity", "--top", "3").stdout.splitlines()
    assert text[0].split() == ["Equity", "Score", "Pos", "Tiles", "Word", "Leave"]  # a header names the columns
    assert len(text) == 4 and text[1].split()[:4] == [f"{rows[0]['equity']:.2f}", str(rows[0]["score"]),
                                                      rows[0]["position"], rows[0]["tiles"]]
    assert text[1].split()[-1] == (rows[0]["leave"] or "-")
    by_score = run("best", "--cgp", MID_GAME, "--top", "2").stdout.splitlines()
    assert by_score[0].split() == ["Score", "Pos", "Tiles", "Word"] and len(by_score) == 3


def test_best_by_score_with_exchanges_keeps_the_plays_in_score_order(enable) -> None:
    plays = run("best", "--cgp", f"{EMPTY} QUITE?R/ 0/0 0", "--all", "--json").json()
    rows = run("best", "--cgp", f"{EMPTY} QUITE?R/ 0/0 0", "--exchanges", "--all", "--json").json()
    assert [{k: r[k] for k in CONTRACT} for r in rows[: len(plays)]] == plays
    rest = rows[len(plays):]
    assert len(rest) == 127 + 1 and sum(r["tiles"] == "" for r in rest) == 1  # every exchange, and a pass
    assert [r["equity"] for r in rest] == sorted((r["equity"] for r in rest), reverse=True)


def test_best_by_equity_bad_input_is_one_line(enable, make_lexicon) -> None:
    assert_clean_error(run("best", "--cgp", MID_GAME, "--by", "points"), "--by 'points'", "score or equity")
    make_lexicon(["DE", "LA", "LE", "UN"], name="petit", tiles="french")
    assert_clean_error(run("best", "--cgp", f"{EMPTY} DEALNU?/ 0/0 0", "--lexicon", "petit", "--by", "equity"),
                       "no leave model for the french tiles (have: english)")


def test_equity_self_play_is_reproducible(enable) -> None:
    generator = MoveGenerator(dawg_for(enable))
    policy = EquityPlayer(model())
    games = [self_play(Board(enable.layout, enable.tiles), generator, 9, policies=(policy,))[0] for _ in range(2)]
    assert [(m.kind, m.score, m.exchanged) for m in games[0].history] == \
        [(m.kind, m.score, m.exchanged) for m in games[1].history]


@pytest.mark.skipif(movegen.compiled is None, reason="compiled search not built")
def test_both_searches_play_the_same_equity_games(enable) -> None:
    """Equity against score, seeds 1 and 8 (two exchanges): the same moves and scores from either search."""
    dawg = dawg_for(enable)
    equity = EquityPlayer(model())
    for seed in (1, 8):
        histories = []
        for engine in ("python", "compiled"):
            game, _ = self_play(Board(enable.layout, enable.tiles), MoveGenerator(dawg, engine=engine), seed,
                                policies=(equity, greedy))
            histories.append([(m.kind, m.score, m.exchanged, m.play) for m in game.history])
        assert histories[0] == histories[1]
        assert sum(kind == "exchange" for kind, *_ in histories[0]) == (2 if seed == 8 else 0)


def test_equity_play_beats_score_play(enable) -> None:
    """The acceptance figure (scripts/bench_equity.py, 1,000 games) in small: 200 fixed seeds."""
    generator = MoveGenerator(dawg_for(enable))
    equity = EquityPlayer(model())
    margins = []
    for seed in range(1, 201):
        first = seed % 2 == 1
        game, _ = self_play(Board(enable.layout, enable.tiles), generator, seed,
                            policies=(equity, greedy) if first else (greedy, equity))
        a, b = (p.score for p in game.players)
        margins.append(a - b if first else b - a)
    wins = sum(m > 0 for m in margins) + sum(m == 0 for m in margins) / 2
    assert wins / len(margins) > 0.55 and sum(margins) > 0, (wins, sum(margins) / len(margins))
