"""Train the win probability model on the engine's own self-play and write its data file.

Plays --games games by equity on both sides (the shipped leave model),
takes every position's spread, tiles unseen and final result, and fits a
logistic curve per band of unseen tiles (lexitrain/engine/win_training.py).
Games are seeded from --seed, so the same options give the same file
(whatever --jobs). The seed, games and a calibration table are written into
the file.

    python scripts/train_win_probability.py [--lexicon enable] [--games 4000] [--seed 24] [--jobs 2] [--out FILE]
"""

from __future__ import annotations

import argparse
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lexitrain.engine.board import Board  # noqa: E402
from lexitrain.engine.dawg import dawg_for  # noqa: E402
from lexitrain.engine.leave_table import load_leaves  # noqa: E402
from lexitrain.engine.movegen import MoveGenerator  # noqa: E402
from lexitrain.engine.win_probability import win_path  # noqa: E402
from lexitrain.engine.win_training import Sample, fit, play_games  # noqa: E402
from lexitrain.lexicon.catalog import open_lexicon  # noqa: E402

#: games per task handed to a worker
CHUNK = 50

_worker: dict = {}


def _start(lexicon: str) -> None:
    lex = open_lexicon(lexicon)
    _worker.update(board=Board(lex.layout, lex.tiles), generator=MoveGenerator(dawg_for(lex)),
                   model=load_leaves(lex.tiles))


def _play(task: tuple[int, range]) -> list[Sample]:
    seed, games = task
    return play_games(_worker["board"], _worker["generator"], _worker["model"], seed, games)


def calibration(model, data: list[Sample]) -> list[dict]:
    """Predicted against observed wins, by tenths of predicted probability: how well the curve fits."""
    rows: list[list[float]] = [[0.0, 0.0, 0] for _ in range(10)]
    for s in data:
        p = model.win(s.spread, s.unseen)
        row = rows[min(9, int(p * 10))]
        row[0] += p
        row[1] += s.outcome
        row[2] += 1
    return [{"predicted": round(r[0] / r[2], 3), "observed": round(r[1] / r[2], 3), "positions": int(r[2])}
            for r in rows if r[2]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", default="enable")
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--out", type=Path, help="data file (default lexicons/win/<tiles>.json)")
    args = parser.parse_args()

    lex = open_lexicon(args.lexicon)
    out = args.out or win_path(lex.tiles)
    start = time.perf_counter()
    tasks = [(args.seed, range(i, min(i + CHUNK, args.games))) for i in range(0, args.games, CHUNK)]
    with Pool(args.jobs, _start, (args.lexicon,)) as pool:
        data = [s for chunk in pool.map(_play, tasks) for s in chunk]
    played = time.perf_counter() - start
    model = fit(lex.tiles, data)
    model.trained = {"by": "scripts/train_win_probability.py", "lexicon": args.lexicon, "seed": args.seed,
                     "games": args.games, "positions": len(data), "jobs": args.jobs,
                     "seconds": round(time.perf_counter() - start), "calibration": calibration(model, data)}
    model.save(out)
    print(f"{args.games} games, {len(data)} positions, {played:.0f} s of self-play; wrote {out}")
    for row in model.trained["calibration"]:
        print(f"  predicted {row['predicted']:.3f}  observed {row['observed']:.3f}  ({row['positions']} positions)")


if __name__ == "__main__":
    main()
