"""The simulation player against the equity player in self-play: wins with their standard error.

Each game is seeded (`--seed` and its number); the simulation player moves
first in even games and second in odd ones, so first-move advantage cancels.
On its turns it simulates its top --candidates moves by equity (--iterations
iterations of --plies plies, in the same process) and makes the one with the
best win chance (`--by equity`: the best simulated equity); the equity
player makes the move of best equity (exchanges and the pass included). A
draw counts half. The figures printed: games, the simulation player's wins,
its win rate with the standard error sqrt(p(1-p)/n), and its mean spread with
its standard error; the load average goes with them.

    python scripts/bench_sim_player.py [--games 2000] [--jobs 2] [--candidates 5] [--iterations 40] [--minutes M]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_sim import load  # noqa: E402  (the same load line as the simulation's benchmark)
from lexitrain.engine.board import Board  # noqa: E402
from lexitrain.engine.dawg import dawg_for  # noqa: E402
from lexitrain.engine.game import Game, Move, Policy, self_play  # noqa: E402
from lexitrain.engine.leave_table import load_leaves  # noqa: E402
from lexitrain.engine.movegen import MoveGenerator  # noqa: E402
from lexitrain.engine.play import ScoredPlay  # noqa: E402
from lexitrain.engine.simulation import Playouts, position_setup, simulate  # noqa: E402
from lexitrain.engine.win_probability import load_win_model  # noqa: E402
from lexitrain.engine.win_training import fast_equity_player  # noqa: E402
from lexitrain.lexicon.catalog import open_lexicon  # noqa: E402
from lexitrain.tiles import Rack  # noqa: E402

_worker: dict = {}


def _start(lexicon: str, candidates: int, iterations: int, plies: int, by: str) -> None:
    lex = open_lexicon(lexicon)
    words = dawg_for(lex)
    board = Board(lex.layout, lex.tiles)
    generator = MoveGenerator(words)
    model = load_leaves(lex.tiles)
    win = load_win_model(lex.tiles)
    equity = fast_equity_player(board, generator, model)

    def simulating(game: Game, plays: list[ScoredPlay]) -> Move:
        tiles = game.board.tiles
        rack = Rack.of(tiles, game.current.rack)
        me, them = game.players[game.turn], game.players[1 - game.turn]
        setup = position_setup(lexicon, game.board, rack, [me.score, them.score], generator, model,
                               candidates=candidates, plies=plies)
        if len(setup.candidates) == 1 or len(game.bag) == 0:
            return equity(game, plays)
        report = simulate(setup, iterations, seed=len(game.history), playouts=Playouts(setup, words, model, win))
        rows = report.rows if by == "win" else sorted(report.rows, key=lambda r: (-r.equity, r.index))
        best = rows[0].candidate
        if best.play is not None:
            return game.play(best.play)
        if best.exchanged is not None:
            return game.exchange(tiles.spell(best.exchanged.names()))
        return game.pass_turn()

    _worker.update(board=board, generator=generator, equity=equity, simulating=simulating)


def _play(task: tuple[int, int]) -> tuple[int, int]:
    """(game number, the simulation player's final spread)."""
    seed, number = task
    sim_first = number % 2 == 0
    policies: tuple[Policy, Policy] = ((_worker["simulating"], _worker["equity"]) if sim_first
                                       else (_worker["equity"], _worker["simulating"]))
    game, _ = self_play(_worker["board"].copy(), _worker["generator"], seed * 1_000_000 + number,
                        policies=policies, list_plays=False)
    scores = [p.score for p in game.players]
    return number, (scores[0] - scores[1]) if sim_first else (scores[1] - scores[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", default="enable")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--candidates", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=40)
    parser.add_argument("--plies", type=int, default=2)
    parser.add_argument("--by", choices=("win", "equity"), default="win")
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--minutes", type=float, default=0, help="stop after this long (0: play every game)")
    args = parser.parse_args()

    print(f"simulation player ({args.candidates} candidates, {args.iterations} iterations, {args.plies} plies, "
          f"by {args.by}) against the equity player, {args.games} games; {load()}", flush=True)
    start = time.perf_counter()
    spreads: list[int] = []
    tasks = [(args.seed, n) for n in range(args.games)]
    with Pool(args.jobs, _start, (args.lexicon, args.candidates, args.iterations, args.plies, args.by)) as pool:
        for _, spread in pool.imap_unordered(_play, tasks, chunksize=4):
            spreads.append(spread)
            if len(spreads) % 100 == 0:
                report(spreads, time.perf_counter() - start)
            if args.minutes and time.perf_counter() - start > 60 * args.minutes:
                print(f"stopped after {args.minutes} minutes", flush=True)
                pool.terminate()
                break
    report(spreads, time.perf_counter() - start)
    print(load())


def report(spreads: list[int], seconds: float) -> None:
    n = len(spreads)
    wins = sum(1.0 if s > 0 else 0.5 if s == 0 else 0.0 for s in spreads)
    p = wins / n
    mean = sum(spreads) / n
    sd = math.sqrt(sum((s - mean) ** 2 for s in spreads) / max(1, n - 1))
    print(f"{n} games: simulation player {wins:g} wins, {100 * p:.1f}% +- {100 * math.sqrt(p * (1 - p) / n):.1f}% "
          f"(standard error); mean spread {mean:+.1f} +- {sd / math.sqrt(n):.1f}; {seconds:.0f} s", flush=True)


if __name__ == "__main__":
    main()
