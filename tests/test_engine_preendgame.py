"""The pre-endgame (one tile in the bag): each play's value for each draw is
its score minus the opponent's exact endgame after it, proved against the
brute-force minimax of test_engine_endgame on small positions; the CLI."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lexitrain.engine.preendgame import solve_preendgame
from lexitrain.engine.movegen import MoveGenerator
from lexitrain.engine.rules import apply_play
from lexitrain.tiles import Rack
from tests.test_engine_endgame import BOARDS, ENGLISH, POOL, brute_force, small_board, small_dawg


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(layout=st.sampled_from(BOARDS), mine=st.text(POOL, min_size=1, max_size=2),
       unseen=st.text(POOL, min_size=2, max_size=3), spread=st.integers(-30, 30))
def test_each_draw_matches_brute_force(layout, mine: str, unseen: str, spread: int) -> None:
    board = small_board(layout)
    rack, pool = Rack.parse(ENGLISH, mine), Rack.parse(ENGLISH, unseen)
    dawg = small_dawg()
    result = solve_preendgame(board, rack, pool, MoveGenerator(dawg), spread=spread)
    plays = MoveGenerator(dawg).plays(board, rack)
    assert result.exact and result.candidates == len(plays) == len(result.plays)
    for outcome in result.plays:
        after = board.copy()
        apply_play(after, outcome.play)
        left = list(rack.counts)
        for _, _, tile in outcome.play.placed():
            left[tile] -= 1
        assert sum(d.count for d in outcome.draws) == pool.size
        for draw in outcome.draws:
            drawn = ENGLISH.index(draw.tile)
            mine_after = list(left)
            mine_after[drawn] += 1
            theirs = list(pool.counts)
            theirs[drawn] -= 1
            racks = (Rack(ENGLISH, tuple(theirs), 0), Rack(ENGLISH, tuple(mine_after), 0))
            assert draw.value == outcome.play.score - brute_force(after, racks, 0, dawg)
        wins = sum(d.count * (1 if spread + d.value > 0 else 0.5 if spread + d.value == 0 else 0)
                   for d in outcome.draws)
        assert outcome.wins == wins
    ranked = [(-o.wins, -o.expected) for o in result.plays]
    assert ranked == sorted(ranked)


def test_cli_lists_each_play_with_its_wins(enable) -> None:
    from lexitrain.engine.cgp import Position, to_cgp
    from lexitrain.engine.exchanges import unseen_tiles
    from tests.cli_runner import run
    from tests.test_engine_endgame import GAMES
    from lexitrain.engine.gcg import read_gcg
    from lexitrain.engine.replay import replay

    turn = next(t for t in replay(read_gcg(sorted(GAMES.glob("*.gcg"))[0]), enable.tiles)
                if t.rack and unseen_tiles(t.board, Rack.parse(enable.tiles, t.rack)).size == 8)
    cgp = to_cgp(Position(turn.board, [turn.rack.upper(), ""], [350, 340], 0, {"lex": "enable"}))
    result = run("preendgame", "--cgp", cgp, "--candidates", "1", "--json")
    assert result.exit_code == 0, result.stderr
    out = result.json()
    assert out["candidates"] == 1 and len(out["plays"]) == 1
    row = out["plays"][0]
    assert row["draws"] == 8 and sum(o["count"] for o in row["outcomes"]) == 8
    assert 0 <= row["wins"] <= 8
    assert abs(row["expected"] - sum(o["value"] * o["count"] for o in row["outcomes"]) / 8) < 0.01
    refused = run("endgame", "--cgp", cgp)
    assert refused.exit_code != 0 and "pre-endgame" in refused.stderr


def test_out_of_time_every_play_has_a_value_for_every_draw(enable) -> None:
    """Cut short, the pre-endgame still values each candidate against each draw
    (from the deepest ply it reached), instead of leaving the later plays out."""
    from lexitrain.engine.dawg import dawg_for
    from lexitrain.engine.exchanges import unseen_tiles
    from lexitrain.engine.gcg import read_gcg
    from lexitrain.engine.replay import replay
    from tests.test_engine_endgame import GAMES

    turn = next(t for t in replay(read_gcg(sorted(GAMES.glob("*.gcg"))[0]), enable.tiles)
                if t.rack and unseen_tiles(t.board, Rack.parse(enable.tiles, t.rack)).size == 8)
    rack = Rack.parse(enable.tiles, turn.rack)
    unseen = unseen_tiles(turn.board, rack)
    result = solve_preendgame(turn.board, rack, unseen, MoveGenerator(dawg_for(enable)), seconds=1.5, candidates=6)
    assert result.candidates == 6 and len(result.plays) == 6
    assert all(o.unseen == 8 for o in result.plays)
    assert result.exact == all(o.exact for o in result.plays)  # exact only where every endgame was proved
