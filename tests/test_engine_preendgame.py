"""The pre-endgame (one tile in the bag): each play's value for each draw is
its score minus the opponent's exact endgame after it, proved against the
brute-force minimax of test_engine_endgame on small positions; the CLI."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from lexitrain.engine.leave import leave_after
from lexitrain.engine.preendgame import INFINITY, solve_preendgame
from lexitrain.engine.movegen import MoveGenerator
from lexitrain.engine.rules import apply_play
from lexitrain.tiles import Rack
from tests.test_engine_endgame import BOARDS, ENGLISH, POOL, brute_force, small_board, small_dawg


def _true_values(board, rack: Rack, pool: Rack, play, dawg) -> list[int]:
    """The play's value for each draw (one tile in the bag, in the solver's order), by the brute-force minimax."""
    return [low for _, _, low, _ in _truth(board, rack, pool, 1, play, dawg)]


def _points(rack: Rack) -> int:
    return sum(ENGLISH.points[i] * n for i, n in enumerate(rack.counts))


def _take(rack: Rack, tiles, n: int = 1) -> Rack:
    counts = list(rack.counts)
    for t in tiles:
        counts[t] += n
    return Rack(ENGLISH, tuple(counts), rack.blanks)


def _truth(board, rack: Rack, pool: Rack, in_bag: int, move, dawg) -> list[tuple[str, int, float, float]]:
    """Each draw of a candidate (a play or None, the pass): its label, weight and the bounds its value is
    claimed within, by the brute-force minimax alone: an endgame where the move empties the bag; else the
    opponent's best reply emptying it (the upper bound), and the lower bound the side to move's top-scoring
    play gives if the opponent passes back (unbounded where some reply leaves a tile in the bag)."""
    generator = MoveGenerator(dawg)
    held = [(t, n) for t, n in enumerate(pool.counts) if n]
    orders = [((t,), n) for t, n in held] if in_bag == 1 else [
        ((a, b), n * (m - (a == b))) for a, n in held for b, m in held if n * (m - (a == b))]
    unordered: dict[tuple, int] = {}
    for order, n in orders:
        unordered[tuple(sorted(order))] = unordered.get(tuple(sorted(order)), 0) + n
    text = lambda tiles: "".join(ENGLISH.letters[t] for t in tiles)  # noqa: E731

    def endgame_after(after, mover: Rack, other: Rack, zero: int) -> int:
        return brute_force(after, (mover, other), zero, dawg) if zero < 6 else _points(other) - _points(mover)

    def reply(here, mine: Rack, theirs: Rack, bag, zero: int, score: int) -> tuple[float, float]:
        replies = generator.plays(here, theirs)
        emptying = [q for q in replies if q.tile_count >= len(bag)]
        values = []
        for q in emptying:
            after = here.copy()
            apply_play(after, q)
            values.append(score - q.score + endgame_after(after, mine, _take(leave_after(theirs, q), bag),
                                                          0 if q.score else zero + 1))
        best = min(values, default=float("inf"))
        if zero + 1 >= 6:
            fallback = score + _points(theirs) - _points(mine)
        else:
            top = max(generator.plays(here, mine), key=lambda p: p.score, default=None)
            if top is None or top.tile_count < len(bag):
                fallback = float("-inf")
            else:
                after = here.copy()
                apply_play(after, top)
                fallback = score + top.score - endgame_after(after, theirs, _take(leave_after(mine, top), bag),
                                                             0 if top.score else zero + 2)
        low = min(best, fallback) if len(emptying) == len(replies) else float("-inf")
        return low, best

    out = []
    if move is None:
        for bag, n in unordered.items():
            low, high = reply(board, rack, _take(pool, bag, -1), bag, 1, 0)
            out.append((text(bag), n, low, high))
        return out
    after = board.copy()
    apply_play(after, move)
    left = leave_after(rack, move)
    zero = 0 if move.score else 1
    if move.tile_count >= in_bag:
        for bag, n in unordered.items():
            value = move.score - endgame_after(after, _take(pool, bag, -1), _take(left, bag), zero)
            out.append((text(bag), n, value, value))
        return out
    for order, n in orders:
        low, high = reply(after, _take(left, order[:1]), _take(pool, order, -1), order[1:], zero, move.score)
        out.append((text(order), n, low, high))
    return out


def _outcome(margin: int) -> str:
    return "win" if margin > 0 else "tie" if margin == 0 else "loss"


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(layout=st.sampled_from(BOARDS), mine=st.text(POOL, min_size=1, max_size=2),
       unseen=st.text(POOL, min_size=2, max_size=3), spread=st.integers(-30, 30),
       engine=st.sampled_from(["compiled", "python"]), decide=st.integers(0, 3), in_bag=st.sampled_from([1, 2]))
@example(layout=BOARDS[0], mine="Q", unseen="AA", spread=0, engine="compiled", decide=0, in_bag=1)  # only the pass
@example(layout=BOARDS[0], mine="A", unseen="ANZ", spread=0, engine="compiled", decide=0, in_bag=1)  # bounded losses
@example(layout=BOARDS[0], mine="AT", unseen="EST", spread=0, engine="python", decide=0, in_bag=2)  # 2 in the bag
def test_every_proof_matches_brute_force(layout, mine: str, unseen: str, spread: int, engine: str,
                                         decide: int, in_bag: int) -> None:
    """Whatever the solver claims is what the brute-force minimax says, for every play and the pass, with
    one or two tiles in the bag: each outcome proved, each value marked exact, each bound, each
    candidate's wins when decided (and at most its bound when cut), the candidate ranked first when proved
    best; the plays asked to be decided are never cut."""
    board = small_board(layout)
    rack, pool = Rack.parse(ENGLISH, mine), Rack.parse(ENGLISH, unseen)
    in_bag = min(in_bag, pool.size - 1)  # the opponent holds a tile at least
    dawg = small_dawg()
    plays = MoveGenerator(dawg).plays(board, rack)
    kept = plays[:decide]
    result = solve_preendgame(board, rack, pool, MoveGenerator(dawg), spread=spread, engine=engine, decide=kept,
                              in_bag=in_bag)
    assert result.candidates == len(plays) + 1 == len(result.plays)  # every play and the pass
    truth = {}
    closable = True
    for outcome in result.plays:
        claimed = {label: (n, low, high) for label, n, low, high
                   in _truth(board, rack, pool, in_bag, outcome.play, dawg)}
        assert sorted(d.tile for d in outcome.draws) == sorted(claimed)
        for draw in outcome.draws:
            n, low, high = claimed[draw.tile]
            closable &= low == high
            assert draw.count == n
            proved_low = float("-inf") if draw.low <= -INFINITY else draw.low
            proved_high = float("inf") if draw.high >= INFINITY else draw.high
            assert proved_low <= low and proved_high >= high  # never more than is true
            if draw.exact:
                assert draw.value == low == high
            if draw.result is not None:  # proved: every value the bounds allow has that outcome
                assert {_outcome(spread + low), _outcome(spread + high)} == {draw.result}
        wins_at_most = sum(n * (1 if spread + high > 0 else 0.5 if spread + high == 0 else 0)
                           for n, _, high in claimed.values())
        expected_at_most = sum(n * high for n, _, high in claimed.values()) / outcome.unseen
        truth[outcome.play.key() if outcome.play else None] = (wins_at_most, expected_at_most)
        assert outcome.wins_at_most >= wins_at_most
        if outcome.decided:
            assert outcome.wins == wins_at_most
        if outcome.exact:
            assert abs(outcome.expected - expected_at_most) < 1e-9
        if outcome.play in kept:  # never cut: every draw proved where its bounds allow
            assert all(d.result is not None for d in outcome.draws
                       if _outcome(spread + claimed[d.tile][1]) == _outcome(spread + claimed[d.tile][2]))
    keys = [o.play.key() if o.play else None for o in result.plays]
    if closable:  # every value can be proved: no time limit, so everything is
        assert result.wins_proved and result.exact and not result.unproved
    if result.exact:  # proved best: no candidate's true value can beat it
        first = result.plays[0]
        assert truth[keys[0]] == (first.wins, first.expected)
        assert all(t <= truth[keys[0]] for t in truth.values())


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
        result = solve_preendgame(board, rack, pool, MoveGenerator(dawg), spread=spread, plays=plays)
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
    result = run("preendgame", "--cgp", cgp, "--candidates", "1", "--time", "20", "--json")
    assert result.exit_code == 0, result.stderr
    out = result.json()
    assert out["candidates"] == 2 and len(out["plays"]) == 2 and out["in_bag"] == 1  # the top play and the pass
    passing = next(r for r in out["plays"] if r["word"] == "(pass)")
    assert passing["position"] == "-" and passing["score"] == 0 and passing["draws"] == 8
    row = next(r for r in out["plays"] if r is not passing)
    assert row["draws"] == 8 and sum(o["count"] for o in row["outcomes"]) == 8
    assert 0 <= row["wins"] <= row["wins_at_most"] <= 8
    assert abs(row["expected"] - sum(o["value"] * o["count"] for o in row["outcomes"]) / 8) < 0.01
    if row["decided"]:
        assert row["wins"] == sum(o["count"] * {"win": 1, "tie": 0.5, "loss": 0}[o["result"]]
                                  for o in row["outcomes"])
    first = out["plays"][0]
    if out["wins_proved"]:  # the first's outcomes are proved, and the other is proved to win no more
        assert first["decided"] and all(r["wins_at_most"] <= first["wins"] for r in out["plays"])
    else:  # time ran out: what may beat the first is named
        assert out["unproved"]
    refused = run("endgame", "--cgp", cgp)
    assert refused.exit_code != 0 and "pre-endgame" in refused.stderr


def test_without_candidates_the_terminal_lists_the_best_and_counts_the_rest(enable) -> None:
    """Every play of a real rack tried (no --candidates): the terminal lists the best 15 and says in one line how
    many it left out, --top N lists N; --json still carries every candidate."""
    from lexitrain.engine.cgp import Position, to_cgp
    from lexitrain.engine.exchanges import unseen_tiles
    from lexitrain.engine.gcg import read_gcg
    from lexitrain.engine.replay import replay
    from tests.cli_runner import run
    from tests.test_engine_endgame import GAMES

    turn = next(t for t in replay(read_gcg(sorted(GAMES.glob("*.gcg"))[0]), enable.tiles)
                if t.rack and unseen_tiles(t.board, Rack.parse(enable.tiles, t.rack)).size == 8)
    cgp = to_cgp(Position(turn.board, [turn.rack.upper(), ""], [350, 340], 0, {"lex": "enable"}))
    out = run("preendgame", "--cgp", cgp, "--time", "1.5", "--threads", "1", "--json").json()
    assert out["candidates"] > 1000 and len(out["plays"]) > 20  # (every play valued by then: its rows)
    for top, listed in ((None, 15), ("3", 3)):
        text = run("preendgame", "--cgp", cgp, "--time", "1.5", "--threads", "1", *(["--top", top] if top else []))
        assert text.exit_code == 0, text.stderr
        lines = text.stdout.splitlines()
        valued = int(lines[0].split(" of ")[0])  # "N of M candidates ...": the rows of this run
        assert len([line for line in lines if " wins " in line]) == listed, text.stdout
        assert lines[-1] == f"and {valued - listed} candidates more, not listed (--top N lists more, --json all)"


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
    assert result.candidates == 7 and len(result.plays) == 7  # and the pass
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


def test_the_unproved_plays_are_listed_by_the_most_wins_their_proofs_leave_them() -> None:
    """A report read as a player reads it: after the best proved, the plays cut or not finished are listed
    by their bound (`<=8/8` above `<=3/8`), even where the estimate of the one cut early was higher. Where
    not one play is proved, the first is still the one estimated to win most (a bot plays the first)."""
    from lexitrain.engine.play import ScoredPlay
    from lexitrain.engine.preendgame import Draw, PlayOutcome, ranked

    spread = 0

    def outcome(column: int, values: tuple[int, ...], results: tuple[str | None, ...]) -> PlayOutcome:
        return PlayOutcome(ScoredPlay(7, column, True, (0,), 0, 10), tuple(
            Draw(t, 1, v, False, r, -50 if r is None else (1 if r == "win" else -50), 50 if r is None else
                 (50 if r == "win" else -1)) for t, v, r in zip("ABCDEFGH", values, results)), spread)

    best = outcome(0, (5,) * 4 + (-5,) * 4, ("win",) * 4 + ("loss",) * 4)
    cut_early = outcome(1, (5,) * 8, ("win", "win", "loss", "loss", "loss", "loss", "loss", None))
    unsearched = outcome(2, (5, 5, 5, -5, -5, -5, -5, -5), (None,) * 8)
    assert best.decided and best.wins == 4
    assert (cut_early.wins, cut_early.wins_at_most) == (3, 3) and (unsearched.wins, unsearched.wins_at_most) == (3, 8)
    assert ranked([cut_early, unsearched, best]) == [best, unsearched, cut_early]
    likeliest = outcome(3, (5,) * 7 + (-5,), ("loss",) + (None,) * 7)
    assert (likeliest.wins, likeliest.wins_at_most) == (6, 7)
    assert ranked([cut_early, unsearched, likeliest]) == [likeliest, unsearched, cut_early]


def _facts(result) -> list:
    """What a report says, its times aside."""
    return [(o.play, o.draws) for o in result.plays] + [result.exact, result.wins_proved, result.candidates,
                                                        [o.play for o in result.unproved]]


def test_two_processes_give_the_same_report() -> None:
    """The searches shared among processes (each with its own table) prove the same things in the same
    order: the report is the one a single process gives, with one or two tiles in the bag."""
    dawg = small_dawg()
    board = small_board(BOARDS[0])
    rack, pool = Rack.parse(ENGLISH, "AT"), Rack.parse(ENGLISH, "EST")
    cut = 0
    for in_bag, spread in ((1, 0), (1, -8), (1, 8), (2, 4)):
        one = solve_preendgame(board, rack, pool, MoveGenerator(dawg), spread=spread, in_bag=in_bag)
        two = solve_preendgame(board, rack, pool, MoveGenerator(dawg), spread=spread, in_bag=in_bag, threads=2)
        assert _facts(one) == _facts(two)
        cut += sum(not o.decided for o in one.plays)
    assert cut  # some candidate was cut: what was searched depended on the order of the results


def test_cli_two_in_the_bag_and_bad_positions(enable) -> None:
    """Two tiles in the bag: every play and the pass against the 72 orders the bag may be drawn in, a one-tile
    play drawing the first; --time keeps what is proved and names what is not. A bad position is one line."""
    from lexitrain.engine.cgp import Position, to_cgp
    from tests.cli_runner import run
    from tests.engine_helpers import recorded_endgames
    from tests.test_engine_endgame import GAMES

    _, board, rack, _, _ = next(p for p in recorded_endgames(GAMES, enable.tiles, 2) if p[3].size == 9)
    letters = "".join(enable.tiles.letters[i] * n for i, n in enumerate(rack.counts)) + "?" * rack.blanks
    cgp = to_cgp(Position(board, [letters, ""], [300, 310], 0, {"lex": "enable"}))
    result = run("preendgame", "--cgp", cgp, "--candidates", "3", "--time", "3", "--threads", "1", "--json")
    assert result.exit_code == 0, result.stderr
    out = result.json()
    assert out["in_bag"] == 2 and out["candidates"] == 4
    assert any(r["word"] == "(pass)" for r in out["plays"])
    for row in out["plays"]:
        assert row["draws"] == 72 and sum(o["count"] for o in row["outcomes"]) == 72
        for o in row["outcomes"]:
            assert len(o["tile"]) == 2 and o["drawn"] in ("", o["tile"][:1], o["tile"])
    names = {(r["position"], r["word"]) for r in out["plays"]}
    assert {(u["position"], u["word"]) for u in out["unproved"]} <= names
    if not out["plays"][0]["decided"]:  # nothing proved in time: every candidate is unproved
        assert len(out["unproved"]) == len(out["plays"])
    text = run("preendgame", "--cgp", cgp, "--candidates", "1", "--time", "1", "--threads", "1")
    assert text.exit_code == 0 and "ways the 2 tiles in the bag may be drawn" in text.stdout
    assert "(pass)" in text.stdout
    for bad, says in (("not a position", ""), ("15/" * 14 + "15 ABC/ 0/0 0 lex enable;", "in the bag"),
                      (cgp, "--threads")):
        refused = run("preendgame", "--cgp", bad, *(["--threads", "0"] if says == "--threads" else []))
        assert refused.exit_code != 0 and says in refused.stderr
        assert len(refused.stderr.strip().splitlines()) == 1 and "Traceback" not in refused.stderr


def test_a_stopped_report_shows_why_the_unproved_plays_are_in_their_order(enable) -> None:
    """Time out before any play is proved on a real game's pre-endgame: every row is `<=8/8`, so the order (the
    bound, then the estimated wins, then the value) was hidden, values running up and down with no reason shown;
    each unproved row now names its estimated wins, and where nothing is proved the first is not said to be
    beaten by itself ("N candidates may still beat the first" counted the first among them)."""
    import re

    from lexitrain.engine.cgp import Position, to_cgp
    from tests.cli_runner import run
    from tests.engine_helpers import recorded_endgames
    from tests.test_engine_endgame import GAMES

    _, board, rack, _, _ = next(p for p in recorded_endgames(GAMES, enable.tiles, 1) if p[0].endswith("issue_476.gcg"))
    letters = "".join(enable.tiles.letters[i] * n for i, n in enumerate(rack.counts)) + "?" * rack.blanks
    cgp = to_cgp(Position(board, [letters, ""], [300, 254], 0, {"lex": "enable"}))
    text = run("preendgame", "--cgp", cgp, "--candidates", "5", "--time", "0.01", "--threads", "1")
    assert text.exit_code == 0, text.stderr
    rows = [line for line in text.stdout.splitlines() if " wins " in line]
    unproved = [re.search(r"<=(\S+)/8 wins .*about (\S+) wins by the estimate", line) for line in rows
                if line.lstrip().startswith("<=")]
    assert unproved and None not in unproved, text.stdout
    if rows[0].lstrip().startswith("<="):  # nothing proved in the time
        assert f"not proved: any of the {len(rows)} candidates may be best (marked *)" in text.stdout
        assert "may still beat the first" not in text.stdout
        keys = [(float(m.group(1)), float(m.group(2))) for m in unproved]
        assert keys[1:] == sorted(keys[1:], reverse=True)  # after the best guess, by the bound then the estimate


def test_the_clock_is_read_while_the_replies_are_valued() -> None:
    """After the pass (or a one-tile play with two in the bag) the one-ply estimate builds the opponent's
    replies in Python, with no search to read the clock: it reads the clock itself. A 2-in-the-bag run
    once went 6.5 s past --time 30 valuing one-tile plays' replies. With the time spent before the pass
    is reached, the pass is left out, not valued past the limit."""
    dawg = small_dawg()
    board = small_board(BOARDS[0])
    rack, pool = Rack.parse(ENGLISH, "AT"), Rack.parse(ENGLISH, "EST")
    result = solve_preendgame(board, rack, pool, MoveGenerator(dawg), seconds=1e-9, plays=[None], in_bag=2)
    assert result.candidates == 1 and result.plays == () and not result.exact


def test_each_draw_on_a_real_position_is_the_endgame_solved_alone(enable) -> None:
    """On a real one-in-the-bag position (r19_ruth, +218), each of the three top-scoring plays against
    each draw: every value the pre-endgame marks exact is the play's score less the opponent's value of
    the endgame after it solved alone by `endgame.solve`, every bound and outcome it claims holds of that
    value, and the play it proves best has the most wins and then the highest mean of those values."""
    from lexitrain.engine.dawg import dawg_for
    from lexitrain.engine.endgame import Endgame, solve
    from tests.engine_helpers import recorded_endgames
    from tests.test_engine_endgame import GAMES

    name, board, rack, unseen, spread = next(p for p in recorded_endgames(GAMES, enable.tiles, 1)
                                             if "r19_ruth" in p[0])
    generator = MoveGenerator(dawg_for(enable))
    plays = generator.plays(board, rack)[:3]
    result = solve_preendgame(board, rack, unseen, generator, spread=spread, plays=plays)
    assert result.exact and result.wins_proved and len(result.plays) == 3
    truth = {}
    for outcome in result.plays:
        after = board.copy()
        apply_play(after, outcome.play)
        left = leave_after(rack, outcome.play)
        values = []
        for draw in outcome.draws:
            tile = Rack.parse(enable.tiles, draw.tile)
            theirs = Rack(enable.tiles, tuple(a - b for a, b in zip(unseen.counts, tile.counts)),
                          unseen.blanks - tile.blanks)
            mine = Rack(enable.tiles, tuple(a + b for a, b in zip(left.counts, tile.counts)), left.blanks + tile.blanks)
            value = outcome.play.score - solve(Endgame(after, (theirs, mine)), generator).value
            values.append((value, draw.count))
            assert draw.low <= value <= draw.high
            if draw.exact:
                assert draw.value == value
            if draw.result is not None:
                assert draw.result == _outcome(spread + value)
        wins = sum(n * {"win": 1, "tie": 0.5, "loss": 0}[_outcome(spread + v)] for v, n in values)
        truth[outcome.play] = (wins, sum(v * n for v, n in values) / outcome.unseen)
    first = result.plays[0]
    assert first.exact and truth[first.play] == (first.wins, first.expected) == max(truth.values())
