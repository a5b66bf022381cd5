"""Does the leave model earn its place, and what does it cost?

Games: greedy self-play with fixed seeds (1..N), one player by equity
(score + leave value, exchanges considered), the other by score; the
equity player moves first in odd-numbered games. Prints the equity
player's wins, the win rate (a tie counts half) and the mean margin.
Speed: the leave value of every play of the real-game positions in
tests/data/gcg (ENABLE), with the model's memo of leaves cold and warm.

    python scripts/bench_equity.py [--games 1000] [--jobs 2] [--lexicon enable] [--no-speed] [--no-games]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lexitrain.engine.board import Board  # noqa: E402
from lexitrain.engine.dawg import dawg_for  # noqa: E402
from lexitrain.engine.equity import EquityPlayer, rank_by_equity  # noqa: E402
from lexitrain.engine.game import greedy, self_play  # noqa: E402
from lexitrain.engine.leave import LeaveModel  # noqa: E402
from lexitrain.engine.leave_table import load_leaves  # noqa: E402
from lexitrain.engine.movegen import MoveGenerator  # noqa: E402
from lexitrain.lexicon.catalog import open_lexicon  # noqa: E402
from lexitrain.tiles import Rack, TileSet  # noqa: E402

GAMES = Path(__file__).resolve().parents[1] / "tests" / "data" / "gcg"
CHUNK = 25

_worker: dict = {}


def leave_model(tiles: TileSet, leaves: Path | None) -> LeaveModel:
    """The shipped model, or the one in `leaves`."""
    if leaves is None:
        return load_leaves(tiles)
    return LeaveModel.from_json(json.loads(leaves.read_text(encoding="utf-8")), tiles, str(leaves))


def _start(lexicon: str, leaves: Path | None) -> None:
    lex = open_lexicon(lexicon)
    _worker.update(board=Board(lex.layout, lex.tiles), generator=MoveGenerator(dawg_for(lex)),
                   model=leave_model(lex.tiles, leaves))


def margin(seed: int, board: Board, generator: MoveGenerator, model: LeaveModel) -> int:
    """Equity player's final score minus the score player's, in the game of this seed."""
    equity = EquityPlayer(model)
    first = seed % 2 == 1
    game, _ = self_play(board.copy(), generator, seed, policies=(equity, greedy) if first else (greedy, equity))
    scores = [p.score for p in game.players]
    return scores[0] - scores[1] if first else scores[1] - scores[0]


def _margins(seeds: range) -> list[int]:
    return [margin(s, _worker["board"], _worker["generator"], _worker["model"]) for s in seeds]


def games(args: argparse.Namespace) -> None:
    t = time.perf_counter()
    tasks = [range(i, min(i + CHUNK, args.games + 1)) for i in range(1, args.games + 1, CHUNK)]
    with Pool(args.jobs, _start, (args.lexicon, args.leaves)) as pool:
        margins = [m for chunk in pool.map(_margins, tasks) for m in chunk]
    wins = sum(m > 0 for m in margins)
    ties = sum(m == 0 for m in margins)
    mean = statistics.mean(margins)
    error = statistics.stdev(margins) / len(margins) ** 0.5
    print(f"{len(margins)} games ({args.lexicon}, seeds 1..{args.games}): equity wins {wins}, ties {ties}, "
          f"loses {len(margins) - wins - ties}; win rate {(wins + ties / 2) / len(margins):.1%}; "
          f"mean margin {mean:+.1f} points (standard error {error:.1f}); {time.perf_counter() - t:.0f} s")


def speed(args: argparse.Namespace) -> None:
    from lexitrain.engine.gcg import read_gcg
    from lexitrain.engine.replay import replay

    lex = open_lexicon("enable")
    tiles = lex.tiles
    generator = MoveGenerator(dawg_for(lex))
    positions = []
    for path in sorted(GAMES.glob("*.gcg")):
        try:
            turns = replay(read_gcg(path), tiles)
        except Exception:  # noqa: BLE001 - a game in another alphabet (the Polish one)
            continue
        for turn in turns:
            text = turn.rack.upper()
            if text and all(ch == "?" or ch in tiles.letters for ch in text):
                rack = Rack.parse(tiles, text)
                positions.append((rack, generator.plays(turn.board, rack)))
    plays = sum(len(p) for _, p in positions)
    model = leave_model(tiles, args.leaves)
    for label in ("cold", "warm"):  # the second pass finds every leave in the memo the first one filled
        per_position = []
        start = time.process_time()
        for rack, found in positions:
            t = time.process_time()
            model.play_values(rack, found)
            per_position.append((time.process_time() - t) / max(1, len(found)))
        total = time.process_time() - start
        print(f"leave value per play ({label} memo): {total / plays * 1e6:.2f} us over {plays:,} plays of "
              f"{len(positions):,} positions; median position {statistics.median(per_position) * 1e6:.2f} us")
    t = time.process_time()
    for rack, found in positions:
        rank_by_equity(model, rack, found, 50)
    print(f"rank by equity with exchanges and a pass (warm): {(time.process_time() - t) / plays * 1e6:.2f} us per play")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--lexicon", default="enable")
    parser.add_argument("--leaves", type=Path, help="a leave data file other than the shipped one")
    parser.add_argument("--no-speed", action="store_true")
    parser.add_argument("--no-games", action="store_true")
    args = parser.parse_args()
    if not args.no_speed:
        speed(args)
    if not args.no_games:
        games(args)


if __name__ == "__main__":
    main()
