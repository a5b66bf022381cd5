"""Train the exhaustive leave table on fast self-play and write its data file.

It starts from the 40-feature model's values for every leave (the shipped
lexicons/leaves/<tiles>.json), then each round plays --games equity-player
games by the table so far (the compiled search, engine/selfplay.py) and moves
every leave towards the mean equity of the next move after keeping it
(engine/leave_training.py: refit_table). Games are seeded from --seed, so the
same options give the same file whatever --jobs; --minutes stops early
after a round (the file says how many rounds and games it took). The file is
written after every round, so an interrupted run leaves its last table.

    python scripts/train_leave_table.py [--lexicon enable] [--games 20000] [--rounds 8] [--seed 24]
                                        [--jobs 2] [--minutes 60] [--start FILE] [--out FILE]
"""

from __future__ import annotations

import argparse
import sys
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lexitrain.children import usable_cores  # noqa: E402
from lexitrain.engine.dawg import dawg_for  # noqa: E402
from lexitrain.engine.leave import load_leave_model  # noqa: E402
from lexitrain.engine.leave_table import LeaveTable, load_table, table_path  # noqa: E402
from lexitrain.engine.leave_training import TABLE_SHRINK, game_seed, refit_table, table_samples  # noqa: E402
from lexitrain.engine.movegen import MoveGenerator  # noqa: E402
from lexitrain.engine.selfplay import SelfPlayer  # noqa: E402
from lexitrain.lexicon.catalog import open_lexicon  # noqa: E402

#: games per task handed to a worker
CHUNK = 250

_worker: dict = {}


def _start(lexicon: str) -> None:
    lex = open_lexicon(lexicon)
    _worker.update(lex=lex, generator=MoveGenerator(dawg_for(lex)), model=load_leave_model(lex.tiles))


def _play(task: tuple[int, int, range, np.ndarray]) -> tuple[list[int], list[int], int]:
    seed, round_, games, values = task
    lex = _worker["lex"]
    player = SelfPlayer(_worker["generator"], lex.layout, LeaveTable(lex.tiles, values, _worker["model"]))
    leaves: list[int] = []
    targets: list[int] = []
    spread = 0
    for number in games:
        record = player.play(game_seed(seed, round_, number))
        found = table_samples(record)
        leaves += found[0]
        targets += found[1]
        spread += abs(record.scores[0] - record.scores[1])
    return leaves, targets, spread


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", default="enable")
    parser.add_argument("--games", type=int, default=20000, help="self-play games per round")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--jobs", type=int, default=usable_cores(), help="worker processes")
    parser.add_argument("--minutes", type=float, default=0, help="stop after the round that passes this (0: no limit)")
    parser.add_argument("--start", type=Path, help="a table to start from (default: the model's values)")
    parser.add_argument("--out", type=Path, help="data file (default lexicons/leaves/<tiles>.npz)")
    args = parser.parse_args()

    lex = open_lexicon(args.lexicon)
    out = args.out or table_path(lex.tiles)
    model = load_leave_model(lex.tiles)
    table = load_table(args.start, model) if args.start else LeaveTable.from_model(model)
    history = list(table.trained.get("rounds_done", [])) if args.start else []
    start = time.perf_counter()
    with Pool(args.jobs, _start, (args.lexicon,)) as pool:
        for round_ in range(len(history), len(history) + args.rounds):
            t = time.perf_counter()
            tasks = [(args.seed, round_, range(i, min(i + CHUNK, args.games)), table.values)
                     for i in range(0, args.games, CHUNK)]
            leaves: list[int] = []
            targets: list[int] = []
            for found in pool.imap(_play, tasks):
                leaves += found[0]
                targets += found[1]
            values, figures = refit_table(table.values, np.array(leaves, dtype=np.int64),
                                          np.array(targets, dtype=np.float64))
            seconds = time.perf_counter() - t
            history.append({"round": round_, "games": args.games, "seconds": round(seconds),
                            **{k: round(v, 3) for k, v in figures.items()}})
            table = LeaveTable(lex.tiles, values, model, {
                "by": "scripts/train_leave_table.py", "lexicon": args.lexicon, "seed": args.seed,
                "games": sum(h["games"] for h in history), "rounds": len(history), "shrink": TABLE_SHRINK,
                "start": "the 40-feature model (lexicons/leaves/%s.json)" % lex.tiles.name,
                "rounds_done": history})
            table.save(out)
            print(f"round {round_}: {args.games} games, {figures['samples']:.0f} samples, "
                  f"{figures['leaves_seen']:.0f} leaves seen, mean change {figures['mean_change']:.2f}, "
                  f"fresh rack {figures['fresh_rack']:.1f}, {args.games / seconds:.0f} games/s; wrote {out}",
                  flush=True)
            if args.minutes and time.perf_counter() - start > args.minutes * 60:
                break
    print(f"{table.trained['games']} games in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
