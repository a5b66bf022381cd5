"""Count ENABLE's playability by self-play, measure how steady it is, and write the shipped figures.

Plays blocks of --block games (block b with seed --seed + b, engine/playability.py:
tied plays drawn among with each game's seed) on --jobs processes until --games are
played or --minutes have passed. The figures are the sum over every block;
stability is measured as `lexicon playability` measures it (engine/playability.py's
`stability`): the games split into two halves (the games of even and of odd seed),
and for each half's top 1,000 words of each length, Spearman's rank correlation of
their plays in that half against the other (the mean of the two ways), and how many
of the top 1,000 of one half are in the top 1,000 of the other. Writes
lexicons/playability/<lexicon>.tsv (its header records the games, seeds, time and
these figures), which the compiler stores into ENABLE's build, after every block,
so a run stopped loses one block at most; each word's plays in the even half go in
a fourth column, and `--resume` carries on from the file (the next block, the same
seed and block size), so the count can grow over several runs. Each block prints a
line with the halves' Spearman of the sevens and eights so far, the curve the docs
read the games needed from.

    python scripts/playability_figures.py [--lexicon enable] [--games 200000] [--minutes 50] [--block 2000]
                                          [--seed 26] [--jobs N] [--out FILE] [--resume]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lexitrain.children import usable_cores  # noqa: E402
from lexitrain.engine.playability import Count, Steadiness, count_plays, figures_meta, setup_for  # noqa: E402
from lexitrain.lexicon.catalog import open_lexicon  # noqa: E402
from lexitrain.lexicon.lexicon import Lexicon  # noqa: E402
from lexitrain.lexicon.playability import read_shipped, shipped_dir, write_shipped  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", default="enable")
    parser.add_argument("--games", type=int, default=200000, help="games in all, those resumed included")
    parser.add_argument("--minutes", type=float, default=0, help="stop after the block that passes this (0: no limit)")
    parser.add_argument("--block", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--jobs", type=int, default=usable_cores())
    parser.add_argument("--out", type=Path)
    parser.add_argument("--resume", action="store_true", help="carry on from the figures in --out")
    args = parser.parse_args()
    lex = open_lexicon(args.lexicon)
    out = args.out or shipped_dir() / f"{lex.name}.tsv"
    setup = setup_for(lex)
    halves: tuple[Counter[str], Counter[str]] = (Counter(), Counter())
    points: Counter[str] = Counter()
    blocks, seconds, load = 0, 0.0, os.getloadavg()
    if args.resume:
        meta, plays, scored, even = read_shipped(out)
        if meta.get("content_hash") != lex.content_hash or even is None or "ties" not in meta:
            sys.exit(f"{out}: not figures of these words, with tied plays drawn and their halves; "
                     "start without --resume")
        args.seed, args.block, blocks, seconds = meta["seed"], meta["block"], meta["blocks"], meta["seconds"]
        halves[0].update(even)
        halves[1].update({word: n - even.get(word, 0) for word, n in plays.items()})
        points.update(scored)
        print(f"resumed {out}: {blocks} blocks of {args.block} games (seed {args.seed})", flush=True)
    started = time.perf_counter()
    steady: dict[int, Steadiness] = {}
    while blocks * args.block < args.games:
        cpu = time.process_time() + _children_cpu()
        count = count_plays(setup, args.block, args.seed + blocks, args.jobs)
        cpu = time.process_time() + _children_cpu() - cpu
        for half, counted in zip(halves, count.halves):
            half.update(counted)
        points.update(count.points)
        seconds += count.seconds
        blocks += 1
        steady = save(out, lex, args, halves, points, blocks, seconds, load)
        print(f"block {blocks}: {blocks * args.block} games, {1000 * count.seconds / args.block:.1f} s per 1,000 "
              f"on {count.where} ({1000 * cpu / args.block:.1f} CPU s); halves' Spearman "
              + ", ".join(f"{n}s {steady[n].spearman}" for n in (5, 7, 8) if n in steady)
              + f"; load {' '.join(f'{x:.1f}' for x in os.getloadavg())}", flush=True)
        if args.minutes and time.perf_counter() - started > args.minutes * 60:
            break
    games = blocks * args.block
    if not games:
        sys.exit("no games played")
    print(f"{games} games in {seconds:.0f} s ({1000 * seconds / games:.1f} s per 1,000 on {args.jobs} processes); "
          f"load average before {' '.join(f'{x:.2f}' for x in load)}, "
          f"after {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for n, figures in steady.items():
        needed = figures.games_for(games)
        print(f"length {n}: top {figures.words} by all games; halves' Spearman {figures.spearman}, "
              f"top overlap {figures.overlap}, the last of them played {figures.last_plays} times; "
              + (f"about {needed:,} games for 0.9" if needed else "too unsteady to say the games needed"))
    print(f"wrote {out}")


def _children_cpu() -> float:
    usage = os.times()
    return usage.children_user + usage.children_system


def save(out: Path, lex: Lexicon, args: argparse.Namespace, halves: tuple[Counter[str], Counter[str]],
         points: Counter[str], blocks: int, seconds: float, load: tuple[float, float, float]) -> dict[int, Steadiness]:
    """Write the figures so far, with the even half's plays, in place of the file (never half-written);
    the stability figures written with them."""
    total = halves[0] + halves[1]
    count = Count(total, points, blocks * args.block, seconds, f"{args.jobs} processes", halves)
    meta = figures_meta(lex, count, args.seed)
    meta.update({"by": "scripts/playability_figures.py", "blocks": blocks, "block": args.block,
                 "seeds": f"{args.seed}..{args.seed + blocks - 1}", "load_average": [round(x, 1) for x in load]})
    partial = out.with_suffix(".tsv.part")
    write_shipped(partial, total, points, meta, even=halves[0])
    partial.replace(out)
    return {int(n): Steadiness(**figures) for n, figures in meta["stability"].items()}


if __name__ == "__main__":
    main()
