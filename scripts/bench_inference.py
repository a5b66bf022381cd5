"""How well `lexitrain infer` reads the real games' racks: the leave the player really kept, by game set.

Every tile play of the English games in tests/data/gcg whose mover's whole
rack was recorded (seven tiles), that kept tiles with tiles in the bag, is
read as the opponent reads it: the board before the play, the play, and the
opponent's own tiles (their rack at their next turn, as far as the file
recorded it; a partly recorded rack counts what it shows). A position met
in two files (the folder holds copies of some games) is counted once. For
each, the leave really kept is looked up in the inference
(`Inference.probability`: its weight over the posterior's total) and in a
random draw of as many tiles from the same unseen tiles; printed per game
set (the repository the file came from): the mean natural log-likelihood of
the real leave and how often it is among the 10 likeliest, each with its
standard error, and the mean gain in log-likelihood (paired). Nothing here
is fitted: the model is the shipped one (fitted on self-play,
`scripts/fit_inference.py`). Exchanges whose kept tiles were recorded are
counted apart (the tiles put back are read by drawing whole racks).

With --selfplay, the held-out self-play positions are read too: the moves of
`fit_inference.py`'s games.jsonl (the simulation player against itself, each
move with the other player's whole rack) in games the fit never weighed
(--held-out-after N: the games that have no move among the file's first N,
the fit weighed the first 1,699), the reader knowing its own whole rack.
--every K reads every K-th position only (the same K-th of each set's list,
a time cap on a shared machine; the sets are read in turn, so a run stopped by
--minutes has read each alike). Printed beside the figures: the median rank
of the real leave and the median CPU time of a reading.

    nice -n 10 python scripts/bench_inference.py [--samples 4000] [--every K] [--minutes M]
        [--selfplay /tmp/infer-fit/games.jsonl --held-out-after 1699]
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from fit_inference import TOP, random_top  # noqa: E402
from lexitrain.engine.cgp import board_to_cgp, parse_cgp  # noqa: E402
from lexitrain.engine.dawg import dawg_for  # noqa: E402
from lexitrain.engine.exchanges import tiles_in_bag  # noqa: E402
from lexitrain.engine.gcg import read_gcg  # noqa: E402
from lexitrain.engine.inference import (EXHAUSTIVE, SAMPLES, ExchangeReader, LastMove,  # noqa: E402
                                        PlayReader, load_inference_model, placed_tiles)
from lexitrain.engine.leave_table import load_leaves  # noqa: E402
from lexitrain.engine.movegen import MoveGenerator  # noqa: E402
from lexitrain.engine.replay import detect_tile_set, replay  # noqa: E402
from lexitrain.errors import LexitrainError  # noqa: E402
from lexitrain.lexicon.catalog import open_lexicon  # noqa: E402
from lexitrain.tiles import RACK_SIZE, Rack  # noqa: E402

GAMES = Path(__file__).resolve().parents[1] / "tests" / "data" / "gcg"
SETS = {"liwords": "woogles (liwords)", "macondo": "Macondo", "quackle": "Quackle", "MAGPIE": "MAGPIE",
        "MAGPIE-DATA": "MAGPIE"}


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load {one:.1f} {five:.1f} {fifteen:.1f}"


def positions(lexicon: str) -> list[dict]:
    """The plays and exchanges to read, in file order, each once."""
    lex = open_lexicon(lexicon)
    out, seen = [], set()
    for path in sorted(GAMES.glob("*.gcg")):
        game = read_gcg(path)
        if detect_tile_set(game).letters != lex.tiles.letters:
            continue
        try:
            turns = replay(game, lex.tiles)
        except LexitrainError:
            continue
        events = {e.line: e for e in game.events}
        game_set = SETS.get(path.name.split("__")[1], path.name.split("__")[1])
        for i, t in enumerate(turns):
            rack = t.rack.upper()
            if len(rack) != RACK_SIZE or t.withdrawn or t.kind not in ("play", "exchange") or t.error:
                continue
            try:
                held = Rack.parse(lex.tiles, rack, in_play=True)
            except LexitrainError:
                continue
            if tiles_in_bag(t.board, [rack]) == 0:
                continue
            following = turns[i + 1] if i + 1 < len(turns) else None
            known = following.rack.upper() if following is not None and following.player != t.player else ""
            entry = {"set": game_set, "file": path.name, "turn": t.number, "board": t.board, "rack": held,
                     "known": known}
            if t.kind == "play":
                if t.play is None or t.play.tile_count >= RACK_SIZE:
                    continue
                counts = [*held.counts, held.blanks]
                kept = [n - p for n, p in zip(counts, placed_tiles(lex.tiles, t.play))]
                if min(kept) < 0:
                    continue
                entry.update(play=t.play, kept=tuple(kept))
            else:
                given = events[t.event_line].tiles.upper()
                if not given or given.isdigit():
                    continue
                try:
                    put = Rack.parse(lex.tiles, given)
                except LexitrainError:
                    continue
                kept = [n - p for n, p in zip([*held.counts, held.blanks], [*put.counts, put.blanks])]
                if min(kept) < 0:
                    continue
                entry.update(exchanged=put.size, kept=tuple(kept))
            key = (board_to_cgp(t.board), rack, str(entry.get("play") or entry.get("exchanged")))
            if key not in seen:
                seen.add(key)
                out.append(entry)
    return out


def selfplay_positions(lexicon: str, path: Path, held_out_after: int) -> list[dict]:
    """The tile plays that kept tiles with the bag not empty in the self-play games none of whose moves is among
    the file's first `held_out_after` (those the fit weighed), read knowing the other player's whole rack."""
    lex = open_lexicon(lexicon)
    rows = [json.loads(line) for line in path.open()]
    fitted = {r["game"] for r in rows[:held_out_after]}
    out = []
    for r in rows:
        if r["game"] in fitted or r["bag"] == 0 or r["move"].startswith(("exchange", "pass")):
            continue
        position = parse_cgp(r["cgp"], lex.tiles, lex.layout)
        move = LastMove.parse(r["move"], position.board)
        assert move.play is not None
        held = Rack.parse(lex.tiles, position.racks[0])
        if held.size != RACK_SIZE or move.play.tile_count >= RACK_SIZE:
            continue
        kept = tuple(n - p for n, p in zip([*held.counts, held.blanks], placed_tiles(lex.tiles, move.play)))
        out.append({"set": "self-play (held out)", "file": path.name, "turn": r["game"], "board": position.board,
                    "rack": held, "known": position.racks[1], "play": move.play, "kept": kept})
    return out


def mean_se(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / max(1, n - 1))
    return mean, sd / math.sqrt(n)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", default="enable")
    parser.add_argument("--samples", type=int, default=SAMPLES)
    parser.add_argument("--exhaustive", type=int, default=EXHAUSTIVE)
    parser.add_argument("--limit", type=int, default=0, help="read only the first N positions (0: all)")
    parser.add_argument("--every", type=int, default=1, help="read every K-th position of each set only")
    parser.add_argument("--minutes", type=float, default=0, help="stop reading after this long (0: read all)")
    parser.add_argument("--selfplay", type=Path, help="fit_inference.py's games.jsonl: read its held-out games too")
    parser.add_argument("--held-out-after", type=int, default=1699,
                        help="with --selfplay: the games with a move among the file's first N were fitted on")
    args = parser.parse_args()

    lex = open_lexicon(args.lexicon)
    generator = MoveGenerator(dawg_for(lex))
    leaves = load_leaves(lex.tiles)
    model = load_inference_model(lex.tiles)
    found = positions(args.lexicon)
    if args.selfplay:
        found += selfplay_positions(args.lexicon, args.selfplay, args.held_out_after)
    by_set: dict[str, list[dict]] = defaultdict(list)
    for f in found:
        by_set[f["set"]].append(f)
    lists = [listed[::args.every] for listed in by_set.values()]  # the sets taken in turn: a stopped run has all
    found = [f for i in range(max(map(len, lists))) for listed in lists if i < len(listed) for f in listed[i:i + 1]]
    if args.limit:
        found = found[:args.limit]
    print(f"{len(found)} positions ({sum('play' in f for f in found)} plays, "
          f"{sum('exchanged' in f for f in found)} exchanges); model: temperature {model.temperature:g}, floor "
          f"{model.floor:g} ({model.trained.get('positions', '?')} self-play positions); {load()}", flush=True)
    started, cpu = time.perf_counter(), time.process_time()
    rows: dict[str, list[tuple[float, float, bool, bool, int, float]]] = defaultdict(list)
    skipped = 0
    for n, f in enumerate(found, start=1):
        reading_cpu = time.process_time()
        known = Rack.parse(lex.tiles, f["known"]) if f["known"] else Rack.parse(lex.tiles, "")
        if "play" in f:
            reader = PlayReader(f["board"], f["play"], known, generator, leaves, model)
            if reader.size != sum(f["kept"]):
                continue
            result = reader.read(args.exhaustive, args.samples)
            mine = result.probability(f["kept"])
            chance = reader.drawn_chance(f["kept"])
            random_in_top = chance > 0 and math.log(chance) >= random_top(reader.pool, reader.size) - 1e-9
            kind = "plays"
        else:
            reader_x = ExchangeReader(f["board"], f["exchanged"], known, generator, leaves, model)
            result = reader_x.read(args.samples)
            mine = result.probability(f["kept"])
            pool = reader_x.unseen
            size = reader_x.size - reader_x.given
            chance = math.prod(math.comb(c, k) for c, k in zip(pool, f["kept"])) / math.comb(sum(pool), size)
            random_in_top = chance > 0 and math.log(chance) >= random_top(pool, size) - 1e-9
            kind = "exchanges"
        if chance == 0:  # the record contradicts itself (a leave the reader's own tiles make impossible)
            skipped += 1
            continue
        rank = 1 + sum(1 for leave, p in result.leaves if p > mine * (1 + 1e-9) and leave != f["kept"])
        log_mine = math.log(mine) if mine > 0 else -math.inf
        reading_cpu = time.process_time() - reading_cpu
        real = "self-play" if f["set"].startswith("self-play") else "real games"
        for group in (f["set"], f"all {kind}, {real}"):
            rows[group].append((log_mine, math.log(chance), rank <= TOP, random_in_top, rank, reading_cpu))
        if args.minutes and time.perf_counter() - started > 60 * args.minutes:
            print(f"stopped after {args.minutes:g} minutes: {n} of {len(found)} positions read", flush=True)
            break
        if n % 100 == 0:
            print(f"  {n} read, {time.perf_counter() - started:.0f} s; {load()}", flush=True)
    print(f"\n{'positions':<26} {'n':>5}  {'log-lik, inference':>20} {'log-lik, random':>18} {'gain':>15}  "
          f"{'top 10, inference':>18} {'top 10, random':>15} {'median rank':>11} {'median CPU':>10}")
    for group, values in sorted(rows.items(), key=lambda kv: (kv[0].startswith("all"), kv[0])):
        finite = [v for v in values if math.isfinite(v[0])]
        inf_mean, inf_se = mean_se([v[0] for v in finite])
        rnd_mean, rnd_se = mean_se([v[1] for v in values])
        gain, gain_se = mean_se([v[0] - v[1] for v in finite])
        top, rtop = mean_se([float(v[2]) for v in values]), mean_se([float(v[3]) for v in values])
        zero = len(values) - len(finite)
        print(f"{group:<26} {len(values):>5}  {inf_mean:>10.3f} +- {inf_se:.3f} {rnd_mean:>9.3f} +- {rnd_se:.3f} "
              f"{gain:>+7.3f} +- {gain_se:.3f}  {100 * top[0]:>9.1f}% +- {100 * top[1]:.1f} "
              f"{100 * rtop[0]:>7.1f}% +- {100 * rtop[1]:.1f} {statistics.median(v[4] for v in values):>11g} "
              f"{1000 * statistics.median(v[5] for v in values):>7.0f} ms" + (f"  ({zero} at probability 0)" if zero else ""))
    if skipped:
        print(f"{skipped} positions left out: the leave recorded is impossible beside the reader's recorded tiles")
    print(f"\n{time.perf_counter() - started:.0f} s wall, {time.process_time() - cpu:.0f} s CPU; {load()}")


if __name__ == "__main__":
    main()
