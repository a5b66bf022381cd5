"""The pre-endgame (one tile in the bag): each play's value for each draw is
its score minus the opponent's exact endgame after it, proved against the
brute-force minimax of test_engine_endgame on small positions; the CLI."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from lexitrain.engine.preendgame import solve_preendgame
from lexitrain.engine.movegen import MoveGenerator
from lexitrain.engine.rules import apply_play
from lexitrain.tiles import Rack
from tests.test_engine_endgame import BOARDS, ENGLISH, POOL, brute_force, small_board, small_dawg


def _true_values(board, rack: Rack, pool: Rack, play, dawg) -> list[int]:
    """The play's value for each draw (in the solver's order), by the brute-force minimax."""
    after = board.copy()
    apply_play(after, play)
    left = list(rack.counts)
    for _, _, tile in play.placed():
        left[tile] -= 1
    values = []
    for drawn, n in enumerate(pool.counts):
        if not n:
            continue
        mine_after = list(left)
        mine_after[drawn] += 1
        theirs = list(pool.counts)
        theirs[drawn] -= 1
        racks = (Rack(ENGLISH, tuple(theirs), 0), Rack(ENGLISH, tuple(mine_after), 0))
        values.append(play.score - brute_force(after, racks, 0, dawg))
    return values


def _outcome(margin: int) -> str:
    return "win" if margin > 0 else "tie" if margin == 0 else "loss"


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(layout=st.sampled_from(BOARDS), mine=st.text(POOL, min_size=1, max_size=2),
       unseen=st.text(POOL, min_size=2, max_size=3), spread=st.integers(-30, 30),
       engine=st.sampled_from(["compiled", "python"]), decide=st.integers(0, 3))
@example(layout=BOARDS[0], mine="Q", unseen="AA", spread=0, engine="compiled", decide=0)  # no play: nothing to prove
@example(layout=BOARDS[0], mine="A", unseen="ANZ", spread=0, engine="compiled", decide=0)  # losses bounded, not exact
def test_every_proof_matches_brute_force(layout, mine: str, unseen: str, spread: int, engine: str,
                                         decide: int) -> None:
    """Whatever the solver claims is what the brute-force minimax says: each
    outcome proved, each value marked exact, each play's wins when decided (and
    at most its bound when cut), the play ranked first when proved best; the
    plays asked to be decided are never cut."""
    board = small_board(layout)
    rack, pool = Rack.parse(ENGLISH, mine), Rack.parse(ENGLISH, unseen)
    dawg = small_dawg()
    plays = MoveGenerator(dawg).plays(board, rack)
    kept = plays[:decide]
    result = solve_preendgame(board, rack, pool, MoveGenerator(dawg), spread=spread, engine=engine, decide=kept)
    assert result.candidates == len(plays) == len(result.plays)
    assert result.wins_proved and result.exact  # no time limit: everything is proved
    truth = {}
    for outcome in result.plays:
        values = _true_values(board, rack, pool, outcome.play, dawg)
        assert [d.count for d in outcome.draws] == [n for n in pool.counts if n]
        for draw, value in zip(outcome.draws, values):
            if draw.exact:
                assert draw.value == value
            if draw.result is not None:
                assert draw.result == _outcome(spread + value)
                # a bound the search proved: the value is at least that for a win, at most that for a loss
                assert value <= draw.value if draw.result == "loss" else value >= draw.value if draw.result == "win" \
                    else draw.value == value
        wins = sum(d.count * {"win": 1, "tie": 0.5, "loss": 0}[_outcome(spread + v)]
                   for d, v in zip(outcome.draws, values))
        expected = sum(d.count * v for d, v in zip(outcome.draws, values)) / pool.size
        truth[outcome.play.key()] = (wins, expected)
        assert outcome.wins_at_most >= wins
        if outcome.decided:
            assert outcome.wins == wins
        if outcome.exact:
            assert abs(outcome.expected - expected) < 1e-9
    assert all(result.plays[[o.play.key() for o in result.plays].index(p.key())].decided for p in kept)
    if not plays:
        return  # no play to make: nothing ranked, and nothing left unproved
    first = result.plays[0]
    assert truth[first.play.key()] == max(truth.values())  # most wins, then the highest expected value
    assert first.decided and first.exact


def test_cut_plays_save_searches_and_still_rank_right() -> None:
    """Across spreads, a play stops at the draw that leaves it unable to win
    more than the best found (so some plays are not decided) and the first
    play still wins as many draws as the brute force's best."""
    dawg = small_dawg()
    board = small_board(BOARDS[0])
    rack, pool = Rack.parse(ENGLISH, "AT"), Rack.parse(ENGLISH, "EST")
    plays = MoveGenerator(dawg).plays(board, rack)
    values = [_true_values(board, rack, pool, p, dawg) for p in plays]
    cut = 0
    for spread in range(-20, 21, 4):
        result = solve_preendgame(board, rack, pool, MoveGenerator(dawg), spread=spread)
        assert result.exact
        assert result.plays[0].wins == max(sum(spread + v > 0 for v in vs) + sum(spread + v == 0 for v in vs) / 2
                                           for vs in values)
        cut += sum(not o.decided for o in result.plays)
    assert cut  # some play was cut somewhere


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
    # one play, no time limit: its outcomes are proved, so it is proved to win the most
    assert out["wins_proved"] and row["decided"] and row["wins_at_most"] == row["wins"]
    assert row["wins"] == sum(o["count"] * {"win": 1, "tie": 0.5, "loss": 0}[o["result"]] for o in row["outcomes"])
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
    assert not result.exact or result.wins_proved  # proved best only where the wins are proved
    assert not result.wins_proved or result.plays[0].decided


def test_a_stopped_search_puts_the_best_proved_play_first_and_names_what_may_beat_it() -> None:
    """The issue's real position, as the solver knew it when time ran out: two plays win all eight
    draws; one's values were exact (+10.5 expected), the other's only proved wins, its values the
    bounds the proofs at the spread left (-3.75 expected; its true value was +18.0). The exact one
    is first (the best proved), and the other is named as a play that may still beat it: the answer
    is not proved best."""
    from lexitrain.engine.play import ScoredPlay
    from lexitrain.engine.preendgame import INFINITY, Draw, PlayOutcome, may_be_better, ranked

    spread = -4
    proved = PlayOutcome(ScoredPlay(7, 3, False, (0, 4), 0, 10), tuple(
        Draw(t, 1, v, True, "win", v, v) for t, v in zip("ABCDEFGH", (8, 9, 10, 10, 11, 11, 12, 13))), spread)
    bounded = PlayOutcome(ScoredPlay(3, 7, True, (19, 4), 0, 18), tuple(
        Draw(t, 1, v, False, "win", 5, INFINITY) for t, v in zip("ABCDEFGH", (5, 5, 5, 5, -12, -12, -12, -14))),
        spread)
    assert proved.expected == 10.5 and bounded.expected == -3.75 and bounded.decided and bounded.wins == 8
    assert bounded.expected_at_least == 5 and bounded.expected_at_most is None
    first, second = ranked([bounded, proved])
    assert first is proved and second is bounded
    assert may_be_better([first, second]) == (bounded,)
    # once the other's values are bounded at or below +10.5 it can no longer beat it
    capped = PlayOutcome(bounded.play, tuple(Draw(d.tile, 1, 10, False, "win", 5, 10) for d in bounded.draws), spread)
    assert may_be_better([proved, capped]) == ()
