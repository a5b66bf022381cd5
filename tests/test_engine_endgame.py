"""The endgame solver against a brute-force minimax (no pruning, no table,
no ordering) on small endgames, both searches (pure Python and compiled),
and on endgames of the real games; the line it gives plays out to its value."""

from __future__ import annotations

import threading
import time
from functools import lru_cache
from pathlib import Path
from typing import cast

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from lexitrain.engine import endgame as endgame_module
from lexitrain.engine import engines
from lexitrain.engine.board import BLANK_FLAG, EMPTY, Board
from lexitrain.engine.dawg import Dawg, dawg_for, dawg_from_codes
from lexitrain.engine.endgame import MAX_ZERO_TURNS, Endgame, Move, Searcher, Solution, solve
from lexitrain.engine.movegen import MoveGenerator
from lexitrain.engine.rules import apply_play
from lexitrain.layouts import load_layout
from lexitrain.tiles import Rack, load_tile_set
from tests.engine_helpers import recorded_endgames

ENGLISH = load_tile_set("english")
WORDS = sorted(set("""
AE AI AN AR AS AT EN ER ES ET IN IS IT NA NE RE SI TA TI OE ON OR OS TO SO NO
AIN AIR AIS AIT ANE ANI ANT ARE ARS ART ATE EAR EAT ERA ERN ERS ETA NAE NET NIT RAN RAS RAT RES RET RIA
RIN SAE SAT SEA SEI SEN SER SET SIN SIR SIT SNA TAE TAN TAR TAS TEA TEN TIE TIN TIS ZOA ZA QI QAT
ANES ANTE ANTI ARES ARTS EARN EARS EAST EATS ERAS ERNS ETAS NEAR NEST NETS NITE NITS RAIN RANI RANT
RATE RATS REIN RENT REST RETS RIAS RINE RISE SAIN SANE SATE SEAR SEAT SENT SIRE SITE SNIT STAR STIR
TARE TARS TEAR TEAS TENS TIER TIES TINE TINS TIRE TRES ZEST ZERO ROTE TONE NOTE
""".split()))
#: the tiles the small endgames' racks are drawn from (a blank at most once a rack: see `racks`)
POOL = "AEINORSTZQ"
GAMES = Path(__file__).parent / "data" / "gcg"
ENGINES = [
    "python",
    pytest.param("compiled", marks=pytest.mark.skipif(engines.compiled_movegen is None,
                                                      reason="compiled endgame search not built")),
]


@lru_cache(maxsize=1)
def small_dawg() -> Dawg:
    return dawg_from_codes([ENGLISH.encode(w) for w in WORDS], ENGLISH, "small")


def small_board(words: list[tuple[str, int, int, bool]]) -> Board:
    board = Board(load_layout("standard"), ENGLISH)
    for word, row, col, down in words:
        for i, ch in enumerate(word):
            board.set(row + i if down else row, col if down else col + i, ENGLISH.index(ch))
    return board


def points(rack: tuple[int, ...]) -> int:
    return sum(ENGLISH.points[i] * n for i, n in enumerate(rack[:-1]))


def brute_force(board: Board, racks: tuple[Rack, Rack], zero: int, dawg: Dawg) -> int:
    """The side to move's best final margin from here, by trying every play and
    pass at every turn to the end of the game (memoised on the whole state)."""
    generator = MoveGenerator(dawg)  # its plays are proved against a brute force of their own
    memo: dict[tuple, int] = {}

    def value(squares: tuple[int, ...], mine: tuple[int, ...], theirs: tuple[int, ...], zero: int) -> int:
        key = (squares, mine, theirs, zero)
        if key in memo:
            return memo[key]
        here = Board(board.layout, board.tiles, list(squares))
        rack = Rack(ENGLISH, mine[:-1], mine[-1])
        # the pass
        best = points(theirs) - points(mine) if zero + 1 >= MAX_ZERO_TURNS else -value(squares, theirs, mine, zero + 1)
        for play in generator.plays(here, rack):
            left = list(mine)
            for _, _, tile in play.placed():
                left[-1 if tile >= BLANK_FLAG else tile] -= 1
            if sum(left) == 0:
                got = play.score + 2 * points(theirs)
            else:
                after = here.copy()
                apply_play(after, play)
                got = play.score - value(tuple(after.squares), theirs, tuple(left), 0 if play.score else zero + 1)
            best = max(best, got)
        memo[key] = best
        return best

    def slots(r: Rack) -> tuple[int, ...]:
        return (*r.counts, r.blanks)

    return value(tuple(board.squares), slots(racks[0]), slots(racks[1]), zero)


def played_out(endgame: Endgame, sequence: tuple[Move, ...]) -> tuple[int, bool]:
    """The margin the side to move gains by playing the line, and whether it ends the game."""
    board = endgame.board.copy()
    racks = [[*r.counts, r.blanks] for r in endgame.racks]
    margin, player, zero = 0, 0, endgame.zero_turns
    for move in sequence:
        sign = 1 if player == 0 else -1
        if move is None:
            zero += 1
            if zero >= MAX_ZERO_TURNS:
                return margin + sign * (points(tuple(racks[1 - player])) - points(tuple(racks[player]))), True
        else:
            for _, _, tile in move.placed():
                racks[player][-1 if tile >= BLANK_FLAG else tile] -= 1
            apply_play(board, move)
            margin += sign * move.score
            if sum(racks[player]) == 0:
                return margin + sign * 2 * points(tuple(racks[1 - player])), True
            zero = 0 if move.score else zero + 1
        player = 1 - player
    return margin, False


def check(solution: Solution, endgame: Endgame, expected: int) -> None:
    assert solution.exact
    assert solution.value == expected
    margin, over = played_out(endgame, solution.sequence)
    assert over, "the line runs to the end of the game"
    assert margin == expected


BOARDS = [
    [("RATES", 7, 5, False)],
    [("TONE", 7, 7, False), ("ZERO", 4, 8, True)],
    [("STAIR", 7, 3, False), ("RAIN", 7, 7, True), ("SEAT", 10, 4, False)],
]


@pytest.mark.parametrize("engine, threads", [("python", 1)] + [
    pytest.param("compiled", n, marks=pytest.mark.skipif(engines.compiled_movegen is None,
                                                         reason="compiled endgame search not built"))
    for n in (1, 2)])
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(layout=st.sampled_from(BOARDS), mine=st.text(POOL, min_size=1, max_size=3),
       theirs=st.text(POOL, min_size=1, max_size=3), zero=st.integers(0, MAX_ZERO_TURNS - 1),
       blank=st.sampled_from(["", "", "", "mine", "theirs"]))
def test_small_endgames_match_brute_force(engine: str, threads: int, layout, mine: str, theirs: str, zero: int,
                                          blank: str) -> None:
    board = small_board(layout)
    if blank == "mine":  # a blank multiplies the plays by 26: with one other tile
        mine = mine[:1] + "?"
    elif blank == "theirs":
        theirs = theirs[:1] + "?"
    racks = (Rack.parse(ENGLISH, mine), Rack.parse(ENGLISH, theirs))
    endgame = Endgame(board, racks, zero)
    dawg = small_dawg()
    expected = brute_force(board, racks, zero, dawg)
    check(solve(endgame, MoveGenerator(dawg), engine=engine, threads=threads), endgame, expected)


def recorded(enable, name: str) -> Endgame:
    """The real endgame of the game file whose name holds `name`."""
    [(board, mine, theirs)] = [(b, m, t) for game, b, m, t, _ in recorded_endgames(GAMES, enable.tiles)
                               if name in game]
    return Endgame(board, (mine, theirs))


def real_endgames(tiles, limit: int) -> list[tuple[Board, Rack, Rack]]:
    """The first position of each real game with the bag empty (the opponent holding the unseen tiles)."""
    return [(board, mine, unseen) for _, board, mine, unseen, _ in recorded_endgames(GAMES, tiles)[:limit]]


def first_tiles(rack: Rack, n: int) -> Rack:
    """The rack cut to its first n tiles (blanks last), to keep the brute force small."""
    names = rack.names()[:n]
    return Rack.of(rack.tiles, names)


@pytest.mark.parametrize("engine", ENGINES)
def test_real_boards_with_two_tiles_a_side_match_brute_force(enable, engine: str) -> None:
    dawg = dawg_for(enable)
    for board, mine, theirs in real_endgames(enable.tiles, 3):
        endgame = Endgame(board, (first_tiles(mine, 2), first_tiles(theirs, 2)))
        expected = brute_force(board, endgame.racks, 0, dawg)
        check(solve(endgame, MoveGenerator(dawg), engine=engine), endgame, expected)


def test_both_searches_agree_on_real_endgames(enable) -> None:
    """Four tiles against three on real boards, where the brute force would take too long."""
    if engines.compiled_movegen is None:
        pytest.skip("compiled endgame search not built")
    dawg = dawg_for(enable)
    for board, mine, theirs in real_endgames(enable.tiles, 4):
        endgame = Endgame(board, (first_tiles(mine, 4), first_tiles(theirs, 3)))
        python = solve(endgame, MoveGenerator(dawg), engine="python")
        compiled = solve(endgame, MoveGenerator(dawg), engine="compiled")
        assert python.exact and compiled.exact
        assert python.value == compiled.value
        assert played_out(endgame, compiled.sequence) == (compiled.value, True)
        assert played_out(endgame, python.sequence) == (python.value, True)


def test_going_out_at_once_wins_the_bonus() -> None:
    """One tile against the Q: the side to move goes out at once (ZA is
    there to make) and takes twice the Q; the line is that one play."""
    board = small_board(BOARDS[1])
    endgame = Endgame(board, (Rack.parse(ENGLISH, "A"), Rack.parse(ENGLISH, "Q")))
    solution = solve(endgame, MoveGenerator(small_dawg()), engine="python")
    assert solution.exact and solution.play is not None
    assert solution.sequence == (solution.play,)
    assert solution.value == solution.play.score + 2 * 10


def test_stuck_side_passes_and_six_zero_turns_end_it() -> None:
    """Neither Q nor the V can go anywhere: both pass until six scoreless
    turns end the game, each losing their own tiles: 4 (V) - 10 (Q) = -6."""
    board = small_board([("TONE", 7, 7, False)])
    endgame = Endgame(board, (Rack.parse(ENGLISH, "Q"), Rack.parse(ENGLISH, "V")), zero_turns=2)
    solution = solve(endgame, MoveGenerator(small_dawg()), engine="python")
    assert solution.exact
    assert solution.value == 4 - 10
    assert all(move is None for move in solution.sequence)
    assert len(solution.sequence) == MAX_ZERO_TURNS - 2


def test_out_of_time_says_so(enable) -> None:
    """No time at all for an endgame that needs millions of positions (noah_vs_peter: the clock is
    read every 1,024 positions, which a small endgame's whole proof can take)."""
    solution = solve(recorded(enable, "noah_vs_pete"), MoveGenerator(dawg_for(enable)), seconds=0.0)
    assert not solution.exact
    assert solution.play is not None


def test_cli_solves_a_real_endgame(enable) -> None:
    """`lexitrain endgame --json`: the contract's keys, a line that plays out
    to the value, the final spread; the opponent's rack read as the unseen tiles."""
    from lexitrain.engine.cgp import Position, to_cgp
    from tests.cli_runner import run

    board, mine, theirs = real_endgames(enable.tiles, 1)[0]
    cgp = to_cgp(Position(board, ["".join(mine.names()), ""], [300, 310], 0, {"lex": "enable"}))
    result = run("endgame", "--cgp", cgp, "--json")
    assert result.exit_code == 0, result.stderr
    out = result.json()
    assert out["exact"] is True
    assert out["play"] == out["sequence"][0]
    assert set(out["play"]) >= {"position", "word", "score"}
    assert out["spread"] == -10 + out["value"]
    expected = solve(Endgame(board, (mine, theirs)), MoveGenerator(dawg_for(enable)))
    assert out["value"] == expected.value
    text = run("endgame", "--cgp", cgp)
    assert f"value {expected.value:+d} for the side to move (exact" in text.stdout
    assert f"final spread {-10 + expected.value:+d}" in text.stdout


def test_cli_refuses_a_bag_that_is_not_empty(enable) -> None:
    from lexitrain.engine.cgp import Position, to_cgp
    from tests.cli_runner import run

    board, mine, theirs = real_endgames(enable.tiles, 1)[0]
    short = "".join(first_tiles(theirs, theirs.size - 1).names())
    cgp = to_cgp(Position(board, ["".join(mine.names()), short], [0, 0], 0, {"lex": "enable"}))
    result = run("endgame", "--cgp", cgp)
    assert result.exit_code != 0
    assert "1 tile is in the bag" in result.stderr
    assert "Traceback" not in result.stderr
    assert run("endgame", "--cgp", cgp, "--time", "0").exit_code != 0


def test_threat_bound_cuts_and_keeps_the_value(enable) -> None:
    """The compiled search proves plays worse without searching them where the
    opponent may go out whatever they do (`threatened`); on real boards with
    three tiles against two its value is still the brute force's, and both
    ways of proving (the deepening and the search straight to the end) agree."""
    if engines.compiled_movegen is None:
        pytest.skip("compiled endgame search not built")
    dawg = dawg_for(enable)
    threatened = 0
    for board, mine, theirs in real_endgames(enable.tiles, 3):
        endgame = Endgame(board, (first_tiles(mine, 3), first_tiles(theirs, 2)))
        expected = brute_force(board, endgame.racks, 0, dawg)
        search = endgame_module.new_search(endgame, MoveGenerator(dawg), None, "compiled")
        assert endgame_module.prove(search)[0] == expected
        threatened += search.threatened
        direct = endgame_module.new_search(endgame, MoveGenerator(dawg), None, "compiled")
        assert direct.root(endgame_module.PROOF_DEPTH, -endgame_module.INFINITY, endgame_module.INFINITY) == (
            expected, True)
    assert threatened > 0


COMPILED_ONLY = pytest.mark.skipif(engines.compiled_movegen is None, reason="compiled endgame search not built")


@COMPILED_ONLY
def test_two_threads_match_brute_force_and_one_thread(enable) -> None:
    """Two threads sharing out the plays (and one table) prove the brute force's
    value on real boards with two tiles a side, and two and three one thread's
    value on real boards with four tiles against three; every line they give
    plays out to its value (it may differ among plays of equal value)."""
    dawg = dawg_for(enable)
    for board, mine, theirs in real_endgames(enable.tiles, 3):
        endgame = Endgame(board, (first_tiles(mine, 2), first_tiles(theirs, 2)))
        expected = brute_force(board, endgame.racks, 0, dawg)
        check(solve(endgame, MoveGenerator(dawg), threads=2), endgame, expected)
    for board, mine, theirs in real_endgames(enable.tiles, 4):
        endgame = Endgame(board, (first_tiles(mine, 4), first_tiles(theirs, 3)))
        one = solve(endgame, MoveGenerator(dawg), threads=1)
        check(solve(endgame, MoveGenerator(dawg), threads=2), endgame, one.value)
        check(solve(endgame, MoveGenerator(dawg), threads=3), endgame, one.value)


@COMPILED_ONLY
def test_two_threads_prove_a_real_seven_tile_endgame_whose_direct_search_proves_it(enable) -> None:
    """utf8_dos (7 tiles against 6, +21) is proved by a search straight to the end, under a node
    limit each thread's search is given a share of: with a time limit or not, two threads give
    one thread's exact value and a line that plays out to it (the first thread's search kept its
    share after the proof, and reading the line back stopped at once: +29, not proved)."""
    dawg = dawg_for(enable)
    endgame = recorded(enable, "utf8_dos")
    one = solve(endgame, MoveGenerator(dawg), threads=1)
    assert one.exact and one.value == 21
    for seconds in (None, 120.0):
        check(solve(endgame, MoveGenerator(dawg), seconds, threads=2), endgame, one.value)


@COMPILED_ONLY
@pytest.mark.parametrize("threads", [1, 2])
def test_the_line_after_a_proof_is_read_off_the_table(enable, threads: int) -> None:
    """After a proof, the line is read back from the table: each move's bound is there, so
    reading it visits few positions (utf8_dos, +21: 3 on one thread; on two, some 900 of the
    proof's 70,000, where the null windows left one side of a move's value to prove again;
    16,327 before, when every play of each position was searched again, not only those up to
    the first right one) and it plays out to the value."""
    endgame = recorded(enable, "utf8_dos")
    search = endgame_module.on_threads(
        endgame_module.new_search(endgame, MoveGenerator(dawg_for(enable)), None, "compiled"), endgame, threads)
    value, depth = endgame_module.prove(search)
    assert value == 21
    proved = search.nodes
    line = endgame_module.best_line(search, value, depth, 0, exact=True)
    assert played_out(endgame, tuple(line)) == (21, True)
    assert search.nodes - proved <= proved // 50


@COMPILED_ONLY
def test_two_threads_share_out_a_line_the_table_does_not_hold(enable) -> None:
    """Where the table does not hold a line's values (here none: nothing proved yet), each of its
    moves is searched to the end again, by both threads (`SplitSearch.after`, as `root`: the first
    thread's alone before), and the line plays out to the value (utf8_dos, +21)."""
    endgame = recorded(enable, "utf8_dos")
    split = endgame_module.SplitSearch(
        endgame_module.new_search(endgame, MoveGenerator(dawg_for(enable)), None, "compiled"), endgame, 2)
    line = endgame_module.best_line(split, 21, endgame_module.PROOF_DEPTH, 0, exact=True)
    assert all(s.nodes > 0 for s in split.searches)
    assert split.made == []
    assert played_out(endgame, tuple(line)) == (21, True)


@COMPILED_ONLY
def test_threads_share_out_a_root_and_keep_its_value(enable) -> None:
    """Two threads sharing out the plays of the first plies (`SplitSearch`) give one
    thread's value within any window (outside it, a bound on the right side of it, as
    one thread's), the second thread searching its share each time (it takes the
    second play first); a thread stopped by the positions allowed stops the other, and
    the search goes on afterwards from the same root to the same value."""
    dawg = dawg_for(enable)
    proof, infinity = endgame_module.PROOF_DEPTH, endgame_module.INFINITY
    for board, mine, theirs in real_endgames(enable.tiles, 4):
        endgame = Endgame(board, (first_tiles(mine, 4), first_tiles(theirs, 3)))
        one = endgame_module.new_search(endgame, MoveGenerator(dawg), None, "compiled")
        value = one.root(proof, -infinity, infinity)[0]
        for low, high in [(-infinity, infinity), (value - 4, value + 4), (value + 1, value + 9),
                          (value - 9, value - 1)]:
            split = endgame_module.SplitSearch(
                endgame_module.new_search(endgame, MoveGenerator(dawg), None, "compiled"), endgame, 2)
            found, exact = split.root(proof, low, high)
            assert exact
            assert found == value if low < value < high else value <= found <= low if value <= low \
                else high <= found <= value
            assert split.searches[1].nodes > 0 or high <= value  # a first play at beta or above: no share
        split = endgame_module.SplitSearch(
            endgame_module.new_search(endgame, MoveGenerator(dawg), None, "compiled"), endgame, 2)
        split.node_limit = 30
        with pytest.raises(endgame_module.OutOfNodes):
            split.root(proof, -infinity, infinity)
        split.node_limit = 0
        assert split.root(proof, -infinity, infinity) == (value, True)


@COMPILED_ONLY
def test_two_threads_count_every_threads_positions(enable, monkeypatch) -> None:
    """A solution on two threads counts the positions both searched (the first thread's alone before)."""
    made: list[endgame_module.SplitSearch] = []

    class Recorded(endgame_module.SplitSearch):
        def __init__(self, search: object, endgame: Endgame, threads: int) -> None:
            super().__init__(search, endgame, threads)
            made.append(self)

    monkeypatch.setattr(endgame_module, "SplitSearch", Recorded)
    dawg = dawg_for(enable)
    board, mine, theirs = real_endgames(enable.tiles, 4)[3]
    solution = solve(Endgame(board, (first_tiles(mine, 4), first_tiles(theirs, 3))), MoveGenerator(dawg), threads=2)
    [split] = made
    first, second = split.searches
    assert second.nodes > 0
    assert solution.nodes == first.nodes + second.nodes


@COMPILED_ONLY
def test_a_thread_with_no_play_left_joins_the_play_still_searched(enable) -> None:
    """Shared out among two threads, a single play (boys2's second at six plies, 0.1 s of one
    thread) is searched by both: the second, with no play of its own, joins the first's (their
    searches put off the positions the other is in, splitting its tree), and the value is one
    thread's in every window. A search told to stop alone (`halt_search`) stops, and runs again after."""
    dawg = dawg_for(enable)
    endgame = recorded(enable, "boys2")
    infinity = endgame_module.INFINITY
    one = endgame_module.new_search(endgame, MoveGenerator(dawg), None, "compiled")
    value = one.after_index(0, 1, 6, -infinity, infinity, 0)
    for low, high in [(-infinity, infinity), (value - 4, value + 4), (value + 1, value + 9), (value - 9, value - 1)]:
        split = endgame_module.SplitSearch(
            endgame_module.new_search(endgame, MoveGenerator(dawg), None, "compiled"), endgame, 2)
        found, index = split.share_out([1], 0, 6, low, high, 0, [], -infinity, 1)
        assert index == 1
        assert found == value if low < value < high else found <= low if value <= low else found >= high
        assert all(s.nodes > 0 for s in split.searches)
    one.halt_search(True)
    with pytest.raises(endgame_module.Superseded):
        one.after_index(0, 1, 6, -infinity, infinity, 0)
    one.halt_search(False)
    assert one.after_index(0, 1, 6, -infinity, infinity, 0) == value


class ScriptedSearch:
    """A thread's search for `SplitSearch.share_out` whose plays take what the test says: play 1
    counts more than LONG_PLAY positions at once and comes out at 10 once another thread has
    joined it (a play that proves its position); any other play fails low at once, but only after
    play 1 has begun (so the thread searching it is seen to be in a long play)."""

    def __init__(self, calls: list[int], long_begun, joined) -> None:
        self.nodes = 0
        self.calls = calls
        self.long_begun = long_begun
        self.joined = joined
        self.halted = threading.Event()

    def after_index(self, player: int, index: int, depth: int, alpha: int, beta: int, zero: int) -> int:
        self.calls.append(index)
        if index != 1:
            assert self.long_begun.wait(5)
            self.nodes += 10
            return alpha
        if self.long_begun.is_set():  # joining the thread searching it: stopped once that one finishes
            self.joined.set()
            assert self.halted.wait(5)
            raise endgame_module.Superseded()
        self.nodes += endgame_module.LONG_PLAY + 1
        self.long_begun.set()
        self.joined.wait(5)
        return 10  # the share-out's beta

    def halt_search(self, stop: bool) -> None:
        if stop:
            self.halted.set()
        else:
            self.halted.clear()

    def stop_partners(self, stop: bool) -> None:
        pass


def test_a_free_thread_joins_a_long_play_before_taking_another() -> None:
    """A thread free while another's play has searched more positions than every play finished
    there (and LONG_PLAY) joins that play rather than take the next: such a play is most likely
    the one at beta (its proof is of every reply), and any play searched beside it wasted. So
    some_isc_game's pass at 59-60, where the loser's 18th play proves it (16.6 million positions
    of one thread) and the second thread searched the two after it (18.6 million) until then."""
    calls: list[int] = []
    long_begun, joined = threading.Event(), threading.Event()
    split = endgame_module.SplitSearch.__new__(endgame_module.SplitSearch)
    split.searches = [ScriptedSearch(calls, long_begun, joined) for _ in range(2)]
    split.main = split.searches[0]
    found = split.share_out([1, 2, 3, 4], 0, 9, 0, 10, 0, [], -endgame_module.INFINITY, 0)
    assert found == (10, 1)
    assert sorted(calls) == [1, 1, 2]  # plays 3 and 4 never searched: the cut came first


@COMPILED_ONLY
def test_two_threads_search_a_pass_after_the_other_plays(enable) -> None:
    """Down the first plies, a position's pass is searched after its other plays, by every thread
    sharing out the plays after it (`SplitSearch.passed`), not shared out beside them (the second
    thread of some_isc_game's proof at 59-60 took it last, 18.6 million positions of one thread's
    69.2, and the first joined it: 36.9 million between them); the value is one thread's."""
    dawg = dawg_for(enable)
    proof, infinity = endgame_module.PROOF_DEPTH, endgame_module.INFINITY
    for board, mine, theirs in real_endgames(enable.tiles, 4):
        endgame = Endgame(board, (first_tiles(mine, 4), first_tiles(theirs, 3)))
        value = endgame_module.new_search(endgame, MoveGenerator(dawg), None, "compiled").root(
            proof, -infinity, infinity)[0]
        split = endgame_module.SplitSearch(
            endgame_module.new_search(endgame, MoveGenerator(dawg), None, "compiled"), endgame, 2)
        passing = len(split.plays(0))
        shared: list[int] = []

        class Recorded:
            def __init__(self, search: object) -> None:
                self.search = search

            def __getattr__(self, name: str) -> object:
                return getattr(self.search, name)

            def after_index(self, player: int, index: int, depth: int, alpha: int, beta: int, zero: int) -> int:
                if player == 0 and depth == proof:
                    shared.append(index)
                return cast(int, self.search.after_index(player, index, depth, alpha, beta, zero))

        split.searches = [Recorded(s) for s in split.searches]
        assert split.root(proof, -infinity, infinity) == (value, True)
        assert passing not in shared
        assert sorted(set(shared)) == list(range(1, passing))  # every other play but the first (the first thread's alone)


@COMPILED_ONLY
def test_the_compiled_search_lets_go_of_the_gil(enable) -> None:
    """While one thread searches (a whole real endgame, stopped by its deadline
    after a second), another runs Python code: the search holds no GIL, so threads
    can share the work."""
    board, mine, theirs = real_endgames(enable.tiles, 3)[2]  # 7 against 7: not proved in a second
    endgame = Endgame(board, (mine, theirs))
    search = endgame_module.new_search(endgame, MoveGenerator(dawg_for(enable)), None, "compiled")
    search.plays(0)  # the first generation, before the clock starts
    search.reset(endgame, time.monotonic() + 1.0)
    outcome: list[str] = []

    def run() -> None:
        try:
            search.root(endgame_module.PROOF_DEPTH, -endgame_module.INFINITY, endgame_module.INFINITY)
            outcome.append("proved")
        except endgame_module.OutOfTime:
            outcome.append("out of time")

    thread = threading.Thread(target=run)
    thread.start()
    turns = 0
    while thread.is_alive():
        turns += 1
        time.sleep(0.001)
    thread.join()
    assert outcome == ["out of time"]
    assert turns > 20  # some 900 with the GIL free on a quiet machine; 0-2 were it held for the whole search


def test_cli_threads(enable) -> None:
    """`endgame --threads 2` gives one thread's value; --threads 0 is one clear line."""
    from lexitrain.engine.cgp import Position, to_cgp
    from tests.cli_runner import run

    board, mine, theirs = real_endgames(enable.tiles, 1)[0]
    cgp = to_cgp(Position(board, ["".join(mine.names()), ""], [300, 310], 0, {"lex": "enable"}))
    one, two = (run("endgame", "--cgp", cgp, "--json", "--threads", n) for n in ("1", "2"))
    assert one.exit_code == 0 and two.exit_code == 0, one.stderr + two.stderr
    assert one.json()["value"] == two.json()["value"] and two.json()["exact"] is True
    bad = run("endgame", "--cgp", cgp, "--threads", "0")
    assert bad.exit_code != 0 and "--threads must be at least 1" in bad.stderr and "Traceback" not in bad.stderr


def compiled_search_and_value(layout: list[tuple[str, int, int, bool]], mine: str, theirs: str,
                              zero: int) -> tuple[Searcher, int]:
    """The compiled search of a small board's endgame (MINE to move against THEIRS, ZERO scoreless turns
    so far), and the brute force's value of it: what a bound of the search is held to."""
    board = small_board(layout)
    racks = (Rack.parse(ENGLISH, mine), Rack.parse(ENGLISH, theirs))
    dawg = small_dawg()
    expected = brute_force(board, racks, zero, dawg)
    return endgame_module.new_search(Endgame(board, racks, zero), MoveGenerator(dawg), None, "compiled"), expected


@COMPILED_ONLY
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(layout=st.sampled_from(BOARDS), mine=st.text(POOL, min_size=1, max_size=2),
       theirs=st.text(POOL, min_size=1, max_size=3), zero=st.integers(0, MAX_ZERO_TURNS - 1),
       blank=st.booleans())
# two tiles whose plays one after the other score more than either alone or both at once now
@example(layout=BOARDS[1], mine="ER", theirs="Z", zero=0, blank=False)
@example(layout=BOARDS[1], mine="SE", theirs="E", zero=0, blank=False)
@example(layout=BOARDS[2], mine="N", theirs="Q", zero=0, blank=True)
# against a Q that cannot be played: the second tile's best play is on a square beside the first
# tile played, scoring more than any of its plays here off that tile's square and those beside it
@example(layout=BOARDS[1], mine="ES", theirs="Q", zero=0, blank=False)
@example(layout=BOARDS[2], mine="ST", theirs="Q", zero=0, blank=False)
@example(layout=BOARDS[2], mine="ET", theirs="Q", zero=0, blank=False)
def test_the_bound_of_a_side_alone_holds(layout, mine: str, theirs: str, zero: int, blank: bool) -> None:
    """The compiled search refutes a position of a side with one or two tiles (or no play) by
    what its plays alone could get if the opponent passed to the end (`Search.bound`; two tiles:
    each one-tile play, then the other tile's best on the board after it): never below the brute
    force's value, and equal to it where one tile can go out."""
    if blank:
        mine = mine[:1] + "?"
    search, expected = compiled_search_and_value(layout, mine, theirs, zero)
    bound = search.bound()
    assert bound is not None and bound >= expected
    if len(mine) == 1 and search.plays(0):
        assert bound == expected


@COMPILED_ONLY
@pytest.mark.parametrize("layout, mine, first", [(BOARDS[1], "AO", 55), (BOARDS[2], "TQ", 54),
                                                 (BOARDS[0], "ZZ", 62)])
def test_two_tiles_against_a_stuck_q_are_bounded_by_their_value(layout, mine: str, first: int) -> None:
    """Two tiles against a Q with no play: the opponent can only pass, so the side's plays alone
    are its game, and the two-tile bound is its value (one tile, then the other's best play on the
    board after it); the bound by each tile's best play here said `first`, above it (both tiles'
    best plays on one square, or a Z's twice)."""
    search, expected = compiled_search_and_value(layout, mine, "Q", 0)
    assert search.bound() == expected < first


@COMPILED_ONLY
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(layout=st.sampled_from(BOARDS), mine=st.text(POOL, min_size=3, max_size=3),
       theirs=st.text(POOL, min_size=1, max_size=2), zero=st.integers(0, MAX_ZERO_TURNS - 1),
       blank=st.booleans())
# after the first play, a tile left scores more on a square beside it than any play of this
# board: QI hooked onto the I just played, one tile (N) beside the other two
@example(layout=BOARDS[0], mine="QIN", theirs="QS", zero=0, blank=False)
@example(layout=BOARDS[1], mine="RAZ", theirs="TQ", zero=0, blank=False)
@example(layout=BOARDS[0], mine="NET", theirs="Q", zero=0, blank=False)
def test_the_bound_of_a_side_of_three_tiles_holds(layout, mine: str, theirs: str, zero: int,
                                                   blank: bool) -> None:
    """The compiled search refutes a position of a side with three tiles by what its plays
    alone could get (`Search.bound`: its first play here, then the one- or two-tile bound of
    the board after it, read off this board's plays and, on the squares beside the first
    play's tiles, plays scored and checked one by one): never below the brute force's value.
    The examples are positions where a bound from this board's plays alone would be below it."""
    if blank:
        mine, theirs = mine[:2] + "?", theirs[:1]  # a blank's brute force against two tiles takes a minute
    search, expected = compiled_search_and_value(layout, mine, theirs, zero)
    bound = search.bound()
    assert bound is not None and bound >= expected


def solo_brute_force(board: Board, rack: tuple[int, ...], theirs: int, generator: MoveGenerator,
                     memo: dict[tuple, int]) -> int:
    """The most a side holding `rack` (counts, then blanks) gets from here if its opponent, holding
    `theirs` points, passes to the end: every way of playing its tiles, stopping anywhere (memoised)."""
    key = (tuple(board.squares), rack)
    if key not in memo:
        best = theirs - points(rack)
        for play in generator.plays(board, Rack(ENGLISH, rack[:-1], rack[-1])):
            left = list(rack)
            for _, _, tile in play.placed():
                left[-1 if tile >= BLANK_FLAG else tile] -= 1
            if sum(left) == 0:
                best = max(best, play.score + 2 * theirs)
            else:
                after = board.copy()
                apply_play(after, play)
                best = max(best, play.score + solo_brute_force(after, tuple(left), theirs, generator, memo))
        memo[key] = best
    return memo[key]


@COMPILED_ONLY
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(layout=st.sampled_from(BOARDS), mine=st.text(POOL, min_size=4, max_size=4),
       theirs=st.text(POOL, min_size=1, max_size=2), blank=st.booleans())
# two of the tiles left played together beside the tile just played, and one of them beside it and
# the other beside that one, score more than what this board's plays and the squares beside the tile
# played alone say (I on RATES' S, then SE down through it)
@example(layout=BOARDS[0], mine="QSIE", theirs="I", blank=False)
# the tiles left played away from the tile just played score more than each one's and each pair's best
# plays here (their own plays in turn): their three-tile bound on this board counts them
@example(layout=BOARDS[2], mine="TREN", theirs="A", blank=False)
def test_the_bound_of_the_three_tiles_a_play_of_one_leaves_holds(layout, mine: str, theirs: str,
                                                                   blank: bool) -> None:
    """For each play of one tile of four, the bound of the three tiles it leaves (`Search.left`: the plays
    linked to the tile played scored square by square from it, seeds of this board's linked by a later
    play, the others read off this board's plays) is never below what those tiles get on the board
    after it if the opponent passes to the end (a brute force of every way of playing them). The
    examples fail with the pairs linked to the tile played left out, or the squares beside a tile
    linked before, or the three tiles' bound on this board."""
    if blank:
        mine = mine[:3] + "?"
    board = small_board(layout)
    racks = (Rack.parse(ENGLISH, mine), Rack.parse(ENGLISH, theirs))
    generator = MoveGenerator(small_dawg())
    search = endgame_module.new_search(Endgame(board, racks), generator, None, "compiled")
    rack = (*racks[0].counts, racks[0].blanks)
    memo: dict[tuple, int] = {}
    singles = [play for play in search.plays(0) if len(list(play.placed())) == 1]
    for play in singles:
        after = board.copy()
        apply_play(after, play)
        left = list(rack)
        for _, _, tile in play.placed():
            left[-1 if tile >= BLANK_FLAG else tile] -= 1
        assert search.left(play) >= solo_brute_force(after, tuple(left), points((*racks[1].counts, racks[1].blanks)),
                                                     generator, memo)


def compiled_proof(layout: list[tuple[str, int, int, bool]], mine: str, theirs: str,
                   zero: int) -> tuple[Searcher, int, int]:
    """The compiled search of a small board's endgame after its proof, the value it proved and the brute
    force's."""
    search, expected = compiled_search_and_value(layout, mine, theirs, zero)
    return search, endgame_module.prove(search)[0], expected


@COMPILED_ONLY
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(layout=st.sampled_from(BOARDS), mine=st.text(POOL, min_size=2, max_size=4),
       theirs=st.text(POOL, min_size=1, max_size=2), zero=st.integers(0, MAX_ZERO_TURNS - 1),
       blank=st.booleans())
# the tiles a play leaves score more on a square beside it than any play of this board does: read
# off this board's plays alone, the search refutes the play that gets the value (8 for 27, 32 for 33)
@example(layout=BOARDS[1], mine="QE?", theirs="I", zero=3, blank=False)
@example(layout=BOARDS[0], mine="ERS", theirs="Z", zero=1, blank=False)
def test_plays_refuted_by_what_they_leave_the_side_alone_keep_the_value(layout, mine: str, theirs: str,
                                                                         zero: int, blank: bool) -> None:
    """The compiled search refutes a play of a side of two to four tiles, leaving it one or two, by
    its score and what those tiles alone could get on the board after it (`rest_cuts`: the reply is
    not searched); the value it proves is still the brute force's."""
    if blank:
        mine, theirs = mine[:2] + "?", theirs[:1]  # a blank's brute force against two tiles takes a minute
    _, value, expected = compiled_proof(layout, mine, theirs, zero)
    assert value == expected


@COMPILED_ONLY
def test_a_play_refuted_by_what_it_leaves_is_not_searched() -> None:
    """ERS against Z: plays of the side to move are refuted by what they leave it alone, their replies
    not searched (`rest_cuts`), and the value is the brute force's."""
    search, value, expected = compiled_proof(BOARDS[0], "ERS", "Z", 1)
    assert value == expected and search.rest_cuts > 0


@COMPILED_ONLY
def test_a_play_of_five_tiles_leaving_two_is_refuted_by_what_it_leaves() -> None:
    """ERSTN against Z, two plies from the root: the root's plays of three or four tiles are refuted by
    what they leave the side of five alone (`rest_cuts`; the plies below value their plays without
    a loop), in the window of the brute force's value."""
    search, expected = compiled_search_and_value(BOARDS[0], "ERSTN", "Z", 0)
    search.root(2, expected, expected + 1)
    assert search.rest_cuts > 0
    assert endgame_module.prove(search)[0] == expected


@COMPILED_ONLY
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(layout=st.sampled_from(BOARDS), tiles=st.text("AEINORSTZ", min_size=1, max_size=4),
       stuck_first=st.booleans(), zero=st.integers(0, MAX_ZERO_TURNS - 1))
@example(layout=BOARDS[0], tiles="ERST", stuck_first=False, zero=0)
@example(layout=BOARDS[2], tiles="AET", stuck_first=True, zero=4)
def test_a_side_holding_a_stuck_q_keeps_the_value(layout, tiles: str, stuck_first: bool, zero: int) -> None:
    """One side holds a Q alone (on these boards mostly with no play, so it can only pass), the other
    one to four tiles, either to move: the compiled proof's value is the brute force's (the stuck side's
    plays are not looked for, and the other side's solo bound just found above its alpha is not read
    again after the pass)."""
    mine, theirs = ("Q", tiles) if stuck_first else (tiles[:3], "Q")  # four tiles against a Q to move: slow
    _, value, expected = compiled_proof(layout, mine, theirs, zero)
    assert value == expected


@COMPILED_ONLY
def test_a_side_whose_one_tile_has_no_play_only_passes() -> None:
    """A Q with no play on the board, against an E that goes out: the side with the Q can only pass,
    so its plays are not looked for; the one move generation is the E's (for its going out)."""
    search, expected = compiled_search_and_value(BOARDS[0], "Q", "E", 0)
    assert search.root(endgame_module.PROOF_DEPTH, -endgame_module.INFINITY, endgame_module.INFINITY) == (expected,
                                                                                                      True)
    assert search.generated == 1


@COMPILED_ONLY
def test_the_bound_of_a_side_alone_holds_on_real_boards(enable) -> None:
    """`Search.bound` on real boards with one to three tiles against two: never below the
    brute force's value; and the search that refutes positions by it, and proves them good
    enough by `Search.waiting`, proves that value."""
    dawg = dawg_for(enable)
    cut = waited = 0
    for board, mine, theirs in real_endgames(enable.tiles, 4):
        for size in (1, 2, 3):
            endgame = Endgame(board, (first_tiles(mine, size), first_tiles(theirs, 2)))
            expected = brute_force(board, endgame.racks, 0, dawg)
            search = endgame_module.new_search(endgame, MoveGenerator(dawg), None, "compiled")
            bound = search.bound()
            assert bound is not None and bound >= expected
            assert endgame_module.prove(search)[0] == expected
            cut += search.solo_cuts
            waited += search.waiting_cuts
    assert cut > 0 and waited > 0


@COMPILED_ONLY
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(layout=st.sampled_from(BOARDS), mine=st.text(POOL, min_size=1, max_size=3),
       theirs=st.text(POOL, min_size=1, max_size=2), zero=st.integers(0, MAX_ZERO_TURNS - 1),
       blank=st.booleans())
# the opponent's two tiles score more one after the other than going out with both now
@example(layout=BOARDS[1], mine="Z", theirs="ER", zero=0, blank=False)
@example(layout=BOARDS[1], mine="Z", theirs="SE", zero=4, blank=False)
# the pass ends the game
@example(layout=BOARDS[0], mine="Q", theirs="RS", zero=MAX_ZERO_TURNS - 1, blank=False)
def test_the_waiting_bound_holds(layout, mine: str, theirs: str, zero: int, blank: bool) -> None:
    """The compiled search proves a position good enough, before finding its plays, by what
    the side to move gets at least by passing while the opponent holds one or two tiles
    (`Search.waiting`): never above the brute force's value."""
    if blank:
        theirs = theirs[:1] + "?"
    search, expected = compiled_search_and_value(layout, mine, theirs, zero)
    bound = search.waiting()
    assert bound is not None and bound <= expected


@COMPILED_ONLY
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(layout=st.sampled_from(BOARDS), mine=st.text(POOL, min_size=1, max_size=2),
       theirs=st.text(POOL, min_size=3, max_size=3), zero=st.integers(0, MAX_ZERO_TURNS - 1))
@example(layout=BOARDS[0], mine="QS", theirs="QIN", zero=0)
@example(layout=BOARDS[1], mine="TQ", theirs="RAZ", zero=0)
def test_the_waiting_bound_holds_against_three_tiles(layout, mine: str, theirs: str, zero: int) -> None:
    """`Search.waiting` where the opponent holds three tiles (its `triple_bound`): never above
    the brute force's value."""
    search, expected = compiled_search_and_value(layout, mine, theirs, zero)
    bound = search.waiting()
    assert bound is not None and bound <= expected


@COMPILED_ONLY
def test_the_waiting_bound_counts_the_opponents_two_plays() -> None:
    """Z against ER: the opponent, left alone, plays one tile and then the other for more than
    going out with both at once; the bound counts that (-29, the value), where the best going
    out now alone would claim -27, above the value."""
    board = small_board(BOARDS[1])
    racks = (Rack.parse(ENGLISH, "Z"), Rack.parse(ENGLISH, "ER"))
    endgame = Endgame(board, racks, 0)
    dawg = small_dawg()
    expected = brute_force(board, racks, 0, dawg)
    generator = MoveGenerator(dawg)
    going_out = max(p.score for p in generator.plays(board, racks[1]) if p.tile_count == 2)
    assert -(going_out + 2 * points((*racks[0].counts, racks[0].blanks))) > expected
    search = endgame_module.new_search(endgame, generator, None, "compiled")
    assert search.waiting() == expected == -29
    assert endgame_module.prove(search)[0] == expected


@COMPILED_ONLY
def test_a_line_proved_through_another_threads_value_runs_to_the_end() -> None:
    """A depth can be proved exact by reading a later position's value that
    another thread proved to the end: here a partner, at one ply, reads the
    value after the only move (a pass) from the table the first search shares. The line
    read back then still runs to the end of the game, not only as deep as the
    proof's depth (with two threads `solve` gave the pass alone, now and then,
    on this very position)."""
    board = small_board([("TONE", 7, 7, False), ("ZERO", 4, 8, True)])
    racks = (Rack.parse(ENGLISH, "Z"), Rack.parse(ENGLISH, "N"))
    endgame = Endgame(board, racks, 4)
    expected = brute_force(board, racks, 4, small_dawg())
    first = endgame_module.new_search(endgame, MoveGenerator(small_dawg()), None, "compiled")
    assert first.root(endgame_module.PROOF_DEPTH, -endgame_module.INFINITY, endgame_module.INFINITY) == (
        expected, True)
    partner = first.partner(endgame)
    value, depth = endgame_module.prove(partner)
    assert (value, depth) == (expected, 1)  # exact at one ply, by the first search's proof
    line = endgame_module.best_line(partner, value, depth, 4, exact=True)
    assert len(line) == 2
    check(Solution(tuple(line), value, True, len(line), 0, 0.0), endgame, expected)


class Deepening:
    """A stand-in search for `prove`: each depth of its deepening costs 100,000 positions, proves
    nothing and says `guess`; the value is 7, and each null window straight to the end needs
    125,000 positions (the shape of boys1, 7 against 6: the deepening's depths grow while the
    direct search would prove the value in a fraction)."""

    DEPTH_NODES = 100_000
    WINDOW_NEEDS = 125_000
    VALUE = 7

    def __init__(self, guess: int = VALUE) -> None:
        self.guess = guess
        self.nodes = 0
        self.node_limit = 0
        self.allowed: list[int] = []
        self.windows: list[tuple[int, int]] = []

    def root(self, depth: int, alpha: int, beta: int) -> tuple[int, bool]:
        if depth < endgame_module.PROOF_DEPTH:
            self.nodes += self.DEPTH_NODES
            return self.guess, False
        allowed = self.node_limit - self.nodes
        self.allowed.append(allowed)
        self.windows.append((alpha, beta))
        if allowed < self.WINDOW_NEEDS:
            self.nodes = self.node_limit
            raise endgame_module.OutOfNodes()
        self.nodes += self.WINDOW_NEEDS
        return self.VALUE, True


def test_the_direct_search_gets_as_many_positions_as_the_proof_so_far() -> None:
    """`prove` lets each search straight to the end visit as many positions as the whole proof
    has searched so far, so a deepening that grows cannot starve it: here it proves the value
    after two depths, in 550,000 positions (with DIRECT_NODES doubling alone, after five depths and
    1,050,000)."""
    search = Deepening()
    assert endgame_module.prove(cast(Searcher, search)) == (7, endgame_module.PROOF_DEPTH)
    assert search.allowed == [100_000, 300_000, 175_000]
    assert search.nodes == 550_000


def test_the_search_straight_to_the_end_is_null_windows_from_the_deepenings_value() -> None:
    """`prove`'s direct search asks one point at a time, from the deepening's value (here 5, the
    value 7): above 4.5 (yes: at least 7), then above 7.5 (no: 7), never the whole window, where
    the first line's plays would be proved exact values."""
    search = Deepening(guess=5)
    assert endgame_module.prove(cast(Searcher, search)) == (7, endgame_module.PROOF_DEPTH)
    assert search.windows == [(4, 5), (4, 5), (7, 8)]  # the first stopped at its 100,000 positions


def test_null_windows_answer_within_the_window_asked() -> None:
    """Asked within (alpha, beta), the null windows stop once the value is proved outside it,
    with a bound (fail-soft), as the whole window's search does."""
    below = Deepening(guess=7)
    below.node_limit = 10**9
    assert endgame_module.null_windows(cast(Searcher, below), 7, 10, 20) == 7
    assert below.windows == [(10, 11)]
    above = Deepening(guess=7)
    above.node_limit = 10**9
    assert endgame_module.null_windows(cast(Searcher, above), 7, 0, 3) == 7
    assert above.windows == [(2, 3)]
