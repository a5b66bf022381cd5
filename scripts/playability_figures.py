"""Count ENABLE's playability by self-play, measure how steady it is, and write the shipped figures.

Plays blocks of --block games (block b with seed --seed + b, engine/playability.py)
on --jobs processes until --games are played or --minutes have passed, then:
the figures are the sum over every block; stability is measured by splitting
the blocks in two halves (even and odd blocks, disjoint games) and comparing
the top 1,000 sevens of the whole count between them: Spearman's rank
correlation of their plays in one half against the other, and how many of
the top 1,000 of one half are in the top 1,000 of the other. Writes
lexicons/playability/<lexicon>.tsv (its header records the games, seeds,
time and these figures), which the compiler stores into ENABLE's build.

    python scripts/playability_figures.py [--lexicon enable] [--games 200000] [--minutes 50] [--block 2000]
                                          [--seed 26] [--jobs N] [--out FILE]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lexitrain.engine.playability import count_plays, figures_meta, setup_for  # noqa: E402
from lexitrain.lexicon.catalog import open_lexicon  # noqa: E402
from lexitrain.lexicon.playability import shipped_dir, write_shipped  # noqa: E402

TOP = 1000


def stability(halves: tuple[Counter[str], Counter[str]], total: Counter[str], length: int) -> dict[str, float]:
    """How alike the two halves rank the top words of one length (by the whole count)."""
    import pandas as pd

    words = [w for w, _ in sorted(((w, n) for w, n in total.items() if len(w) == length),
                                  key=lambda item: (-item[1], item[0]))[:TOP]]
    a = pd.Series([halves[0][w] for w in words])
    b = pd.Series([halves[1][w] for w in words])
    spearman = float(a.rank().corr(b.rank()))

    def top(counter: Counter[str]) -> set[str]:
        return {w for w, _ in sorted(((w, n) for w, n in counter.items() if len(w) == length),
                                     key=lambda item: (-item[1], item[0]))[:TOP]}

    return {"words": len(words), "spearman_top": round(spearman, 3),
            "top_overlap": len(top(halves[0]) & top(halves[1])),
            "plays_of_the_last": total[words[-1]] if words else 0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", default="enable")
    parser.add_argument("--games", type=int, default=200000)
    parser.add_argument("--minutes", type=float, default=0, help="stop after the block that passes this (0: no limit)")
    parser.add_argument("--block", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    lex = open_lexicon(args.lexicon)
    setup = setup_for(lex)
    halves: tuple[Counter[str], Counter[str]] = (Counter(), Counter())
    points: Counter[str] = Counter()
    started = time.perf_counter()
    load = os.getloadavg()
    blocks = 0
    seconds = 0.0
    while blocks * args.block < args.games:
        count = count_plays(setup, args.block, args.seed + blocks, args.jobs)
        halves[blocks % 2].update(count.plays)
        points.update(count.points)
        seconds += count.seconds
        blocks += 1
        print(f"block {blocks}: {blocks * args.block} games, {1000 * count.seconds / args.block:.1f} s per 1,000 "
              f"on {count.where}", flush=True)
        if args.minutes and time.perf_counter() - started > args.minutes * 60:
            break
    total = halves[0] + halves[1]
    games = blocks * args.block
    steady = {str(n): stability(halves, total, n) for n in (2, 5, 7, 8)}
    print(f"{games} games in {seconds:.0f} s ({1000 * seconds / games:.1f} s per 1,000 on {args.jobs} processes); "
          f"load average before {' '.join(f'{x:.2f}' for x in load)}, "
          f"after {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for n, figures in steady.items():
        print(f"length {n}: top {figures['words']} by all games; halves' Spearman {figures['spearman_top']}, "
              f"top-{TOP} overlap {figures['top_overlap']}, the last of them played {figures['plays_of_the_last']} times")
    from lexitrain.engine.playability import Count

    meta = figures_meta(lex, Count(total, points, games, seconds, f"{args.jobs} processes"), args.seed)
    meta.update({"by": "scripts/playability_figures.py", "blocks": blocks, "block": args.block,
                 "seeds": f"{args.seed}..{args.seed + blocks - 1}", "stability": steady,
                 "load_average": [round(x, 1) for x in load]})
    out = args.out or shipped_dir() / f"{lex.name}.tsv"
    write_shipped(out, total, points, meta)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
