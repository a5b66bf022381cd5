"""The bots' ladder measured: each level against the equity player, its mean score and its wins, with standard errors.

Every game is a real `lexitrain play` game (`engine/match.py`, the double
challenge rule of an NWL-style lexicon, untimed so that a seed gives the
same game on any machine but for the time-limited endgame solving): the
level under test sits in the player's chair and the Expert (level 4, the
equity player) is the bot, the level moving first in even games and second
in odd ones. Each side challenges as its level does; a phony challenged off
costs its player the turn. Per level: games, the mean final score with its
standard error (sd / sqrt(n)), the win rate against the equity player with
sqrt(p(1-p)/n) (a draw half a win), the mean spread. Then each step up the
ladder is checked: a step holds when both figures rise by more than two
standard errors of the difference (sqrt(se1^2 + se2^2)). The load average
is printed beside the figures; `--write` stores them where `lexitrain bots`
reads them (lexicons/bots/ladder.json).

    nice -n 10 python scripts/bench_bots.py [--games 200] [--games-at 4=600,5=600] [--levels 1,2,3,4,5]
        [--jobs 2] [--minutes M] [--write]

With `--minutes` the run stops dispatching games after M minutes and reports the games played (the
cheap levels' games are dealt first, the simulation player's last, so a capped run on a busy machine
still measures the whole ladder below it in full).

The two top levels play more games by default: the simulation player is only a few points and per cent
better than the equity player, and their step needs the smaller standard errors to show.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lexitrain.engine.bots import FIGURES, LEVELS, Bot, level  # noqa: E402
from lexitrain.engine.match import BOT, Match, Settings, bot_line  # noqa: E402
from lexitrain.lexicon.catalog import open_lexicon  # noqa: E402

#: the level every other is measured against: the equity player
EQUITY_LEVEL = 4
_worker: dict = {}


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def _start(lexicon: str) -> None:
    lex = open_lexicon(lexicon)
    _worker["lex"] = lex
    _worker["bots"] = {r.level: Bot(r, lex) for r in LEVELS}
    _worker["opponent"] = Bot(level(EQUITY_LEVEL), lex)


def play_one(task: tuple[int, int, int]) -> tuple[int, int, int, int, float]:
    """(level, game, the level's score, the equity player's score, seconds) of one game."""
    rung, number, seed = task
    lex = _worker["lex"]
    me: Bot = _worker["bots"][rung]
    started = time.process_time()
    match = Match(lex, Settings(lex.name, EQUITY_LEVEL, "double", 0, seed, first=number % 2 == 0,
                                player=me.name), _worker["opponent"])
    while match.to_move is not None:
        if match.to_move == BOT:
            match.bot_step()
        else:
            match.player_line(bot_line(match, me, seed + 1))
    mine, theirs = match.scores
    return rung, number, mine, theirs, time.process_time() - started


def summary(results: list[tuple[int, int]]) -> dict[str, float]:
    n = len(results)
    scores = [m for m, _ in results]
    mean = sum(scores) / n
    sd = math.sqrt(sum((s - mean) ** 2 for s in scores) / max(1, n - 1))
    wins = sum(1.0 if m > t else 0.5 if m == t else 0.0 for m, t in results) / n
    spread = sum(m - t for m, t in results) / n
    return {"games": n, "mean_score": round(mean, 1), "mean_score_se": round(sd / math.sqrt(n), 1),
            "win_vs_equity": round(wins, 4), "win_vs_equity_se": round(math.sqrt(wins * (1 - wins) / n), 4),
            "mean_spread": round(spread, 1)}


def steps(figures: dict[int, dict[str, float]]) -> list[str]:
    """Each step up the ladder, and whether both figures rise by more than two standard errors."""
    lines = []
    ranked = sorted(figures)
    for low, high in zip(ranked, ranked[1:]):
        a, b = figures[low], figures[high]
        verdicts = []
        for name, se in (("mean_score", "mean_score_se"), ("win_vs_equity", "win_vs_equity_se")):
            gap = b[name] - a[name]
            two = 2 * math.sqrt(a[se] ** 2 + b[se] ** 2)
            verdicts.append(f"{name} {gap:+.3g} vs 2 se {two:.3g}: {'holds' if gap > two else 'FAILS'}")
        lines.append(f"level {low} -> {high}: " + "; ".join(verdicts))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", default="enable")
    parser.add_argument("--games", type=int, default=200, help="games per level")
    parser.add_argument("--games-at", default="4=600,5=600", help="games at the levels named (LEVEL=GAMES,...)")
    parser.add_argument("--levels", default=",".join(str(r.level) for r in LEVELS))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=36)
    parser.add_argument("--minutes", type=float, default=None, help="stop after this many minutes of wall time")
    parser.add_argument("--write", action="store_true", help=f"store the figures in {FIGURES}")
    args = parser.parse_args()
    levels = [int(x) for x in args.levels.split(",")]
    counts = {r: args.games for r in levels}
    for item in filter(None, args.games_at.split(",")):
        at, _, n = item.partition("=")
        if int(at) in counts:
            counts[int(at)] = int(n)
    print(f"bots against the equity player (level {EQUITY_LEVEL}), games a level {counts}, "
          f"{args.jobs} processes; {load()}", flush=True)
    tasks = [(rung, n, args.seed * 1_000_000 + rung * 10_000 + n) for n in range(max(counts.values()))
             for rung in levels if n < counts[rung]]
    tasks.sort(key=lambda task: level(task[0]).sim is not None)  # the simulation player's (slow) games last
    results: dict[int, list[tuple[int, int]]] = {r: [] for r in levels}
    cpu: dict[int, float] = {r: 0.0 for r in levels}
    started = time.perf_counter()
    with Pool(args.jobs, _start, (args.lexicon,)) as pool:
        for done, (rung, _, mine, theirs, seconds) in enumerate(pool.imap_unordered(play_one, tasks, chunksize=2), 1):
            results[rung].append((mine, theirs))
            cpu[rung] += seconds
            if done % 100 == 0:
                print(f"  {done}/{len(tasks)} games, {time.perf_counter() - started:.0f} s; {load()}", flush=True)
            if args.minutes is not None and time.perf_counter() - started > 60 * args.minutes:
                print(f"  stopped at {args.minutes:g} minutes: {done} of {len(tasks)} games played", flush=True)
                pool.terminate()
                break
    levels = [r for r in levels if results[r]]
    figures = {r: summary(results[r]) for r in levels}
    for r in levels:
        f = figures[r]
        print(f"level {r} {level(r).name:<9} {f['games']} games: mean score {f['mean_score']} +- "
              f"{f['mean_score_se']}, wins vs equity {100 * f['win_vs_equity']:.1f}% +- "
              f"{100 * f['win_vs_equity_se']:.1f}%, mean spread {f['mean_spread']:+}; "
              f"{cpu[r] / len(results[r]):.2f} s CPU a game")
    for line in steps(figures):
        print(line)
    print(f"{time.perf_counter() - started:.0f} s wall; {load()}")
    if args.write:
        FIGURES.parent.mkdir(parents=True, exist_ok=True)
        data = {"lexicon": args.lexicon, "opponent": f"level {EQUITY_LEVEL} (the equity player)",
                "measured": datetime.date.today().isoformat(), "seed": args.seed, "load": load(),
                "levels": {str(r): figures[r] for r in levels}}
        FIGURES.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        print(f"written to {FIGURES}")


if __name__ == "__main__":
    main()
