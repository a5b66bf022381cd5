"""Fit the rack inference's likelihood on self-play, and compare the ways of reading a rack.

Three steps, each kept in --data so a later run starts where one stopped:

1. `games.jsonl`: self-play games of the simulation player against itself
   (`sim_players.SimPlayer`: --candidates moves by equity, --iterations
   iterations of 2 plies, the best win chance), every move written down with
   the position before it and the other player's rack. Seeds `--seed * 10**6 + n`.
2. `weighed.jsonl`: for every tile play that kept tiles with the bag not
   empty, the leaves the inference weighs (every leave when there are at most
   --exhaustive, else --samples drawn at random from the unseen tiles, the
   other player's rack known) with each one's prior, its chance of being
   drawn and the static equity the play gave up from played + leave; and the
   same for the leave really kept. The losses do not depend on the
   likelihood's parameters, so every model below is judged on the same numbers.
3. The fit: the mean log-likelihood of the leave really kept, and how often it is
   among the 10 most likely, for a random draw from the unseen tiles, the
   prior alone, MAGPIE's equity margin (a leave whose play is within M points
   of its best keeps its prior, the others almost nothing) and the softmax-like
   `max(exp(-loss / T), floor)` over a grid; the best by log-likelihood is
   written with `--write` to lexicons/inference/english.json.

    nice -n 10 python scripts/fit_inference.py --games 150 --data /tmp/infer-fit [--jobs 1] [--write]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from lexitrain.engine.board import Board  # noqa: E402
from lexitrain.engine.cgp import parse_cgp  # noqa: E402
from lexitrain.engine.dawg import dawg_for  # noqa: E402
from lexitrain.engine.game import self_play  # noqa: E402
from lexitrain.engine.inference import (EXHAUSTIVE, SAMPLES, InferenceModel, LastMove, PlayReader,  # noqa: E402
                                        model_path, placed_tiles)
from lexitrain.engine.leave_table import load_leaves  # noqa: E402
from lexitrain.engine.movegen import MoveGenerator  # noqa: E402
from lexitrain.lexicon.catalog import open_lexicon  # noqa: E402
from lexitrain.tiles import Rack  # noqa: E402
from sim_players import SimPlayer, recorded  # noqa: E402

TOP = 10
_worker: dict[str, Any] = {}


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load {one:.1f} {five:.1f} {fifteen:.1f}"


# -- 1. games -------------------------------------------------------------------------
def _start_games(lexicon: str, candidates: int, iterations: int) -> None:
    _worker["player"] = SimPlayer(lexicon, candidates, iterations)


def _game(task: tuple[int, int]) -> list[dict[str, Any]]:
    seed, number = task
    player = _worker["player"]
    log: list[dict[str, Any]] = []
    policy = recorded(player, log)
    self_play(player.board.copy(), player.generator, seed * 1_000_000 + number, policies=(policy, policy),
              list_plays=False)
    for row in log:
        row["game"] = number
    return log


# -- 2. weighing ----------------------------------------------------------------------
def _start_weighing(lexicon: str) -> None:
    lex = open_lexicon(lexicon)
    _worker.update(lex=lex, generator=MoveGenerator(dawg_for(lex)), leaves=load_leaves(lex.tiles))


def weigh(row: dict[str, Any], lex: Any, generator: MoveGenerator, leaves: Any, exhaustive: int, samples: int
          ) -> dict[str, Any] | None:
    """A recorded play's leaves weighed (see the module's docstring), or None when it keeps nothing to read."""
    import random

    if row["move"].startswith(("exchange", "pass")) or row["bag"] == 0:
        return None
    position = parse_cgp(row["cgp"], lex.tiles, lex.layout)
    board: Board = position.board
    move = LastMove.parse(row["move"], board)
    assert move.play is not None
    mine = Rack.parse(lex.tiles, position.racks[0])
    rack = [*mine.counts, mine.blanks]
    kept = tuple(n - p for n, p in zip(rack, placed_tiles(lex.tiles, move.play)))
    if not sum(kept) or sum(rack) < 7:
        return None
    known = Rack.parse(lex.tiles, position.racks[1])
    reader = PlayReader(board, move.play, known, generator, leaves, InferenceModel(1.0, 0.0))
    if reader.size != sum(kept):
        return None

    def entry(leave: tuple[int, ...], count: int) -> list[float]:
        return [math.log(reader.prior(leave)), reader.loss(leave), count, math.log(reader.drawn_chance(leave))]

    if reader.count() <= exhaustive:
        rows = [entry(k, 1) for k in reader.every()]
        done = True
    else:
        drawn: dict[tuple[int, ...], int] = {}
        for k in reader.draw(random.Random(1), samples):
            drawn[k] = drawn.get(k, 0) + 1
        rows = [entry(k, n) for k, n in drawn.items()]
        done = False
    real = entry(kept, 0)
    return {"game": row["game"], "exhaustive": done, "samples": samples, "leaves": rows, "real": real,
            "random_top": random_top(reader.pool, reader.size), "size": reader.size}


def random_top(pool: list[int], size: int, top: int = TOP) -> float:
    """The log chance of the TOP-th likeliest leave drawn at random from the pool (k best by a small DP)."""
    best: list[list[float]] = [[0.0]] + [[] for _ in range(size)]  # by leave size: the top log-chances so far
    for cap in pool:
        new: list[list[float]] = [[] for _ in range(size + 1)]
        for s in range(size + 1):
            for v in range(min(cap, s) + 1):
                add = math.log(math.comb(cap, v))
                new[s].extend(x + add for x in best[s - v])
            new[s] = sorted(new[s], reverse=True)[:top]
        best = new
    values = best[size]
    return values[min(top, len(values)) - 1] - math.log(math.comb(sum(pool), size))


def _weigh(task: tuple[dict[str, Any], int, int]) -> dict[str, Any] | None:
    row, exhaustive, samples = task
    return weigh(row, _worker["lex"], _worker["generator"], _worker["leaves"], exhaustive, samples)


# -- 3. the fit -----------------------------------------------------------------------
Likelihood = Callable[[Any], Any]  # losses (numpy array) -> likelihoods


def arrays(weighed: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each position's leaves as numpy arrays (made once: every model is judged on them)."""
    import numpy as np

    out = []
    for w in weighed:
        rows = np.array(w["leaves"])
        out.append({**w, "prior": rows[:, 0], "loss": rows[:, 1], "count": rows[:, 2], "chance": rows[:, 3]})
    return out


def judge(weighed: list[dict[str, Any]], likelihood: Likelihood | None, pool_prior: bool = False
          ) -> tuple[list[float], list[bool]]:
    """Each position's log-probability of the leave really kept, and whether it is among the TOP likeliest;
    `likelihood` None: a leave drawn at random from the unseen tiles. The prior is the whole rack's draws
    (Bayes' rule: `PlayReader.prior`), or with `pool_prior` the leave's chance drawn from the unseen tiles
    less the tiles played (what a sampler drawing leaves from them would give, as MAGPIE's and Macondo's do)."""
    import numpy as np

    logs, tops = [], []
    for w in weighed:
        real = w["real"]
        if likelihood is None:
            logs.append(real[3])
            tops.append(real[3] >= w["random_top"] - 1e-9)
            continue
        prior, loss, count, chance = w["prior"], w["loss"], w["count"], w["chance"]
        mine_prior = real[3] if pool_prior else real[0]
        if pool_prior:
            prior = chance
        shift = prior.max()
        lik = likelihood(loss)
        weight = np.exp(prior - shift) * lik
        listed = float(weight.sum())
        total = listed
        if not w["exhaustive"]:  # the draws' estimate of the whole, in the same units as `weight`
            total = max(listed, float((count * np.exp(prior - shift - chance) * lik).sum()) / w["samples"])
        mine = math.exp(mine_prior - shift) * float(likelihood(np.array([real[1]]))[0])
        logs.append(math.log(mine / total) if mine > 0 else -math.inf)
        same = np.isclose(loss, real[1]) & np.isclose(chance, real[3]) & np.isclose(w["prior"], real[0])
        tops.append(int(((weight > mine * (1 + 1e-9)) & ~same).sum()) < TOP)
    return logs, tops


def summary(logs: list[float], tops: list[bool], base: list[float] | None = None) -> str:
    n = len(logs)
    finite = [x for x in logs if math.isfinite(x)]
    zero = n - len(finite)
    mean = sum(finite) / max(1, len(finite))
    sd = math.sqrt(sum((x - mean) ** 2 for x in finite) / max(1, len(finite) - 1))
    top = sum(tops) / n
    text = (f"mean log-likelihood {mean:7.3f} +- {sd / math.sqrt(max(1, len(finite))):.3f}"
            f"{f' ({zero} of {n} at probability 0, left out)' if zero else ''}; "
            f"among the top {TOP}: {100 * top:5.1f}% +- {100 * math.sqrt(top * (1 - top) / n):.1f}%")
    if base is not None and not zero:
        gains = [a - b for a, b in zip(logs, base)]
        g = sum(gains) / n
        gsd = math.sqrt(sum((x - g) ** 2 for x in gains) / max(1, n - 1))
        text += f"; gain over random {g:+.3f} +- {gsd / math.sqrt(n):.3f}"
    return text


def softmax(temperature: float, floor: float) -> Likelihood:
    import numpy as np

    def likelihood(loss: Any) -> Any:
        return np.maximum(np.exp(-loss / temperature), floor)

    likelihood.__doc__ = f"exp(-loss/{temperature:g}) floor {floor:g}"
    return likelihood


def margin(points: float, floor: float) -> Likelihood:
    import numpy as np

    def likelihood(loss: Any) -> Any:
        return np.where(loss <= points + 1e-9, 1.0, floor)

    likelihood.__doc__ = f"margin {points:g} floor {floor:g}"
    return likelihood


def fit(weighed: list[dict[str, Any]], out: Any = print) -> tuple[float, float, bool, float]:
    """The grid's best (temperature, floor, pool prior) by mean log-likelihood, and that mean; the comparison
    printed: a random draw, the prior alone, MAGPIE's margin and the grid, each with both priors."""
    weighed = arrays(weighed)
    base, base_tops = judge(weighed, None)
    out(f"{len(weighed)} positions ({sum(w['exhaustive'] for w in weighed)} with every leave weighed)")
    out(f"  random draw from the unseen tiles: {summary(base, base_tops)}")
    best = (0.0, 0.0, False, -math.inf)
    best_logs: dict[bool, list[float]] = {}
    for pool in (False, True):
        name = "pool prior" if pool else "Bayes prior"
        logs, tops = judge(weighed, lambda loss: loss * 0 + 1.0, pool)
        out(f"  {name}, no likelihood: {summary(logs, tops, base)}")
        for points in (0.0, 2.0, 5.0, 10.0):
            for floor in (0.0, 1e-3, 1e-2):
                logs, tops = judge(weighed, margin(points, floor), pool)
                out(f"  {name}, equity margin {points:4g}, floor {floor:<6g}: {summary(logs, tops, base)}")
        mine = (0.0, 0.0, -math.inf)
        for temperature in (1.0, 2.0, 2.5, 3.0, 3.5, 4.0, 5.0, 6.0, 8.0, 12.0):
            for floor in (0.0, 1e-4, 1e-3, 3e-3, 1e-2, 3e-2):
                logs, tops = judge(weighed, softmax(temperature, floor), pool)
                finite = all(math.isfinite(x) for x in logs)
                mean = sum(logs) / len(logs) if finite else -math.inf
                if floor in (0.0, 1e-2) or mean >= mine[2]:
                    out(f"  {name}, exp(-loss/{temperature:<4g}), floor {floor:<6g}: {summary(logs, tops, base)}")
                if mean > mine[2]:
                    mine, best_logs[pool] = (temperature, floor, mean), logs
        if mine[2] > best[3]:
            best = (mine[0], mine[1], pool, mine[2])
    gains = [a - b for a, b in zip(best_logs[True], best_logs[False])]
    g = sum(gains) / len(gains)
    sd = math.sqrt(sum((x - g) ** 2 for x in gains) / max(1, len(gains) - 1))
    out(f"  the pool prior's best against Bayes' best: {g:+.4f} +- {sd / math.sqrt(len(gains)):.4f} a position (paired)")
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", default="enable")
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--seed", type=int, default=37)
    parser.add_argument("--candidates", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=40)
    parser.add_argument("--exhaustive", type=int, default=EXHAUSTIVE)
    parser.add_argument("--samples", type=int, default=SAMPLES)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--data", type=Path, required=True, help="folder for games.jsonl and weighed.jsonl")
    parser.add_argument("--write", action="store_true", help="write the best model to lexicons/inference/")
    parser.add_argument("--fit-only", action="store_true", help="fit on what is weighed so far: play and weigh nothing")
    args = parser.parse_args()
    args.data.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    cpu = time.process_time()

    games_file = args.data / "games.jsonl"
    rows = [json.loads(line) for line in games_file.open()] if games_file.exists() else []
    played = {r["game"] for r in rows}
    todo = [] if args.fit_only else [(args.seed, n) for n in range(args.games) if n not in played]
    if todo:
        print(f"playing {len(todo)} games of the simulation player against itself ({args.candidates} candidates, "
              f"{args.iterations} iterations); {load()}", flush=True)
        with Pool(args.jobs, _start_games, (args.lexicon, args.candidates, args.iterations)) as pool, \
                games_file.open("a") as out:
            for n, log in enumerate(pool.imap_unordered(_game, todo), start=1):
                for row in log:
                    out.write(json.dumps(row) + "\n")
                out.flush()
                rows.extend(log)
                if n % 10 == 0:
                    print(f"  {n} games, {time.perf_counter() - started:.0f} s; {load()}", flush=True)
    rows = [r for r in rows if r["game"] < args.games]

    weighed_file = args.data / "weighed.jsonl"
    weighed = [json.loads(line) for line in weighed_file.open()] if weighed_file.exists() else []
    done = {(w["game"], w.get("index")) for w in weighed}
    tasks = [(dict(r, index=i), args.exhaustive, args.samples) for i, r in enumerate(rows)
             if (r["game"], i) not in done and not args.fit_only]
    if tasks:
        print(f"weighing the leaves of {len(tasks)} moves; {load()}", flush=True)
        with Pool(args.jobs, _start_weighing, (args.lexicon,)) as pool, weighed_file.open("a") as out:
            for n, (task, result) in enumerate(zip(tasks, pool.imap(_weigh, tasks, chunksize=4)), start=1):
                record = result or {"game": task[0]["game"], "skipped": True}
                record["index"] = task[0]["index"]
                out.write(json.dumps(record) + "\n")
                weighed.append(record)
                if n % 200 == 0:
                    out.flush()
                    print(f"  {n} moves, {time.perf_counter() - started:.0f} s; {load()}", flush=True)
    weighed = [w for w in weighed if not w.get("skipped") and w["game"] < args.games]

    temperature, floor, pool, mean = fit(weighed)
    print(f"best: temperature {temperature:g}, floor {floor:g}, {'pool' if pool else 'Bayes'} prior: "
          f"mean log-likelihood {mean:.3f}; "
          f"{time.perf_counter() - started:.0f} s wall, {time.process_time() - cpu:.0f} s CPU here; {load()}")
    if args.write:
        lex = open_lexicon(args.lexicon)
        path = model_path(lex.tiles)
        path.parent.mkdir(parents=True, exist_ok=True)
        trained = {"script": "scripts/fit_inference.py", "games": args.games, "seed": args.seed,
                   "positions": len(weighed), "player": f"simulation player against itself ({args.candidates} "
                   f"candidates, {args.iterations} iterations, 2 plies)", "lexicon": args.lexicon,
                   "mean_log_likelihood": round(mean, 4)}
        if pool:
            raise SystemExit("the pool prior fitted best: PlayReader.prior must change to it before this is written")
        path.write_text(json.dumps({"temperature": temperature, "floor": floor, "trained": trained}, indent=1)
                        + "\n", encoding="utf-8")
        print(f"written to {path}")


if __name__ == "__main__":
    main()
