"""Train the leave model on the engine's own self-play and write its data file.

Round 0 plays greedy games (top score every turn) and fits a first model
on the score of each player's next turn; every later round plays games by
equity under the model before it and fits on the equity of the next move
(see lexitrain/engine/leave_training.py). Games are seeded from --seed, so
the same options give the same file (whatever --jobs). The seed, games and
rounds are written into the file with the fit's figures.

    python scripts/train_leaves.py [--lexicon enable] [--games 6000] [--rounds 2] [--seed 15] [--jobs 2] [--out FILE]
    python scripts/train_leaves.py --show [FILE]   # the weights as the tables of docs/engine.md
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lexitrain.engine.board import Board  # noqa: E402
from lexitrain.engine.dawg import dawg_for  # noqa: E402
from lexitrain.engine.leave import LeaveModel, leave_path  # noqa: E402
from lexitrain.engine.leave_training import Fit, Sample, fit, play_round  # noqa: E402
from lexitrain.engine.movegen import MoveGenerator  # noqa: E402
from lexitrain.lexicon.catalog import open_lexicon  # noqa: E402

#: games per task handed to a worker
CHUNK = 50

_worker: dict = {}


def _start(lexicon: str) -> None:
    lex = open_lexicon(lexicon)
    _worker.update(board=Board(lex.layout, lex.tiles), generator=MoveGenerator(dawg_for(lex)))


def _play(task: tuple[int, int, range, LeaveModel | None]) -> list[Sample]:
    seed, round_, games, model = task
    return play_round(_worker["board"], _worker["generator"], seed, round_, games, model)


def show(path: Path) -> None:
    """Print a data file's weights (standard errors in brackets) as the Markdown tables of docs/engine.md."""
    data = json.loads(path.read_text(encoding="utf-8"))
    errors = data["trained"].get("standard_errors", {})
    weights = data["weights"]

    def cell(label: str, weight: float) -> str:
        return f"{weight:+.1f} ({errors[label]:.1f})" if label in errors else f"{weight:+.1f}"

    print("| tile | each copy kept | each extra copy |\n| --- | --- | --- |")
    for name, weight in weights["tile"].items():
        extra = weights["duplicate"].get(name)
        extra_cell = cell(f"duplicate:{name}", extra) if extra is not None else "(one in the set)"
        print(f"| {name} | {cell(f'tile:{name}', weight)} | {extra_cell} |")
    print("\n| feature | value |\n| --- | --- |")
    for group, entry in weights.items():
        if group not in ("tile", "duplicate"):
            for name, weight in (entry.items() if isinstance(entry, dict) else [("", entry)]):
                label = f"{group}:{name}" if name else group
                print(f"| {label} | {cell(label, weight)} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", nargs="?", const=True, metavar="FILE", help="print a data file's weights and stop")
    parser.add_argument("--lexicon", default="enable")
    parser.add_argument("--games", type=int, default=6000, help="self-play games per round")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--out", type=Path, help="data file (default lexicons/leaves/<tiles>.json)")
    args = parser.parse_args()

    lex = open_lexicon(args.lexicon)
    out = args.out or leave_path(lex.tiles)
    if args.show:
        show(out if args.show is True else Path(args.show))
        return
    start = time.perf_counter()
    model: LeaveModel | None = None
    result: Fit | None = None
    with Pool(args.jobs, _start, (args.lexicon,)) as pool:
        for round_ in range(args.rounds):
            t = time.perf_counter()
            tasks = [(args.seed, round_, range(i, min(i + CHUNK, args.games)), model)
                     for i in range(0, args.games, CHUNK)]
            data = [s for chunk in pool.map(_play, tasks) for s in chunk]
            result = fit(lex.tiles, data)
            model = result.model
            print(f"round {round_}: {args.games} games by {'score' if round_ == 0 else 'equity'}, "
                  f"{result.samples} samples, rmse {result.rmse:.1f}, r2 {result.r2:.3f}, "
                  f"fresh rack {result.intercept:.1f}, {time.perf_counter() - t:.0f} s", flush=True)
    assert result is not None and model is not None, "--rounds must be at least 1"
    model.trained = {
        "by": "scripts/train_leaves.py", "lexicon": args.lexicon, "seed": args.seed,
        "games_per_round": args.games, "rounds": args.rounds, "samples": result.samples,
        "seconds": round(time.perf_counter() - start), "jobs": args.jobs,
        "fit": {"rmse": round(result.rmse, 2), "r2": round(result.r2, 4), "fresh_rack": round(result.intercept, 2),
                "ridge": result.ridge},
        "standard_errors": {f.label: round(e, 2) for f, e in zip(model.features.features, result.errors)},
    }
    model.save(out)
    print(f"wrote {out} ({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
