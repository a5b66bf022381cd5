"""The simulation player that reads the opponent's rack against the plain one, in self-play.

Both players are `sim_players.SimPlayer` (--candidates moves by equity,
--iterations iterations of 2 plies, the move of best win chance); one first
reads the opponent's last move (`engine.inference`, --samples leaves weighed
at most, its own rack known) and draws the opponent's rack in every playout
from that reading, the other deals it at random from the unseen tiles. Each
seed is played twice, the reading player first once and second once, on the
same bag (`--seed * 10**6 + pair`), so the luck of the draw cancels as far
as the games go alike. A draw counts half. Printed: games, the reading
player's wins and win rate, its mean spread, each with its standard error
over the pairs, the CPU time its inferences took, and the load. Every game's
result is appended to --results, so a run stopped early carries on where it
stopped when started again with the same file.

    nice -n 10 python scripts/bench_infer_player.py --pairs 500 --jobs 2 --results /tmp/infer-match.jsonl
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
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from lexitrain.engine.game import self_play  # noqa: E402
from sim_players import SimPlayer  # noqa: E402

_worker: dict[str, Any] = {}


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load {one:.1f} {five:.1f} {fifteen:.1f}"


def _start(lexicon: str, candidates: int, iterations: int, samples: int) -> None:
    _worker["reading"] = SimPlayer(lexicon, candidates, iterations, infer=True, samples=samples)
    _worker["plain"] = SimPlayer(lexicon, candidates, iterations)


def _play(task: tuple[int, int, int]) -> dict[str, Any]:
    """One game: the reading player first (`side` 0) or second (1); its final spread and its inferences' time."""
    seed, pair, side = task
    reading, plain = _worker["reading"], _worker["plain"]
    reading.inferences.clear()
    policies = (reading, plain) if side == 0 else (plain, reading)
    started = time.process_time()
    game, _ = self_play(reading.board.copy(), reading.generator, seed * 1_000_000 + pair, policies=policies,
                        list_plays=False)
    scores = [p.score for p in game.players]
    spread = scores[side] - scores[1 - side]
    return {"pair": pair, "side": side, "spread": spread, "cpu": time.process_time() - started,
            "inferences": len(reading.inferences), "inference_cpu": sum(reading.inferences)}


def report(results: list[dict[str, Any]], seconds: float) -> None:
    by_pair: dict[int, list[dict[str, Any]]] = {}
    for r in results:
        by_pair.setdefault(r["pair"], []).append(r)
    n = len(results)
    wins = sum(1.0 if r["spread"] > 0 else 0.5 if r["spread"] == 0 else 0.0 for r in results)
    pairs = [(sum(1.0 if r["spread"] > 0 else 0.5 if r["spread"] == 0 else 0.0 for r in rs) / len(rs),
              sum(r["spread"] for r in rs) / len(rs)) for rs in by_pair.values()]
    k = len(pairs)
    mean_win = sum(p for p, _ in pairs) / k
    mean_spread = sum(s for _, s in pairs) / k
    se_win = math.sqrt(sum((p - mean_win) ** 2 for p, _ in pairs) / max(1, k - 1) / k)
    se_spread = math.sqrt(sum((s - mean_spread) ** 2 for _, s in pairs) / max(1, k - 1) / k)
    naive = math.sqrt(max(1e-12, wins / n * (1 - wins / n)) / n)
    inferences = sum(r["inferences"] for r in results)
    cpu = sum(r["inference_cpu"] for r in results)
    game_cpu = sum(r["cpu"] for r in results)
    print(f"{n} games ({k} seeds): the reading player wins {wins:g}, {100 * wins / n:.1f}% +- {100 * se_win:.1f}% "
          f"(standard error over the seeds; sqrt(p(1-p)/n) {100 * naive:.1f}%); mean spread {mean_spread:+.1f} +- "
          f"{se_spread:.1f}; {inferences} inferences, {1000 * cpu / max(1, inferences):.0f} ms CPU each "
          f"({100 * cpu / max(1e-9, game_cpu):.0f}% of the games' CPU, {game_cpu / n:.1f} s CPU a game); "
          f"{seconds:.0f} s; {load()}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", default="enable")
    parser.add_argument("--pairs", type=int, default=500, help="seeds, each played twice (sides swapped)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--candidates", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=40)
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=41)
    parser.add_argument("--results", type=Path, required=True, help="a JSON-lines file of the games played")
    parser.add_argument("--minutes", type=float, default=0, help="stop after this long (0: play every game)")
    args = parser.parse_args()

    results = [json.loads(line) for line in args.results.open()] if args.results.exists() else []
    done = {(r["pair"], r["side"]) for r in results}
    tasks = [(args.seed, pair, side) for pair in range(args.pairs) for side in (0, 1) if (pair, side) not in done]
    print(f"the reading simulation player against the plain one ({args.candidates} candidates, {args.iterations} "
          f"iterations, 2 plies; inference: {args.samples} leaves at most), {2 * args.pairs} games, "
          f"{len(results)} already played; {load()}", flush=True)
    start = time.perf_counter()
    with Pool(args.jobs, _start, (args.lexicon, args.candidates, args.iterations, args.samples)) as pool, \
            args.results.open("a") as out:
        for n, result in enumerate(pool.imap_unordered(_play, tasks), start=1):
            out.write(json.dumps(result) + "\n")
            out.flush()
            results.append(result)
            if n % 50 == 0:
                report(results, time.perf_counter() - start)
            if args.minutes and time.perf_counter() - start > 60 * args.minutes:
                print(f"stopped after {args.minutes} minutes", flush=True)
                pool.terminate()
                break
    if results:
        report(results, time.perf_counter() - start)


if __name__ == "__main__":
    main()
