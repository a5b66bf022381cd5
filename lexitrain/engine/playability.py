"""Playability by self-play: how often the equity player plays each word, and what it scores.

Every word a play forms counts once (the main word and each cross word),
with the points it scored there (the bingo bonus with the main word), over
games of fast self-play (`selfplay.py`). The games are cut into
chunks of consecutive seeds, and each chunk's counts depend on its seeds
alone, so the totals are the same however the chunks were run: in this
process, on every core (`multiprocessing`), or on a Dask cluster given its
scheduler's address (`dask.distributed`, the optional `dask` extra).
Everything a worker needs travels with the work (`Setup`: the word graph's
records, the tile set, the board and the leave table), so a worker on
another machine needs lexitrain installed, not the lexicon.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing import Pool
from typing import Any

from lexitrain.engine.dawg import Dawg, dawg_for
from lexitrain.engine.leave import load_leave_model
from lexitrain.engine.leave_table import LeaveTable, load_leaves
from lexitrain.engine.movegen import MoveGenerator
from lexitrain.engine.selfplay import SelfPlayer
from lexitrain.errors import LexitrainError
from lexitrain.layouts import BoardLayout
from lexitrain.lexicon import playability
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.tiles import TileSet

#: games per chunk of work
CHUNK = 50

#: called after each chunk with (games played, games asked)
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Setup:
    """What a worker needs to play a lexicon's games: the graph's records as
    bytes (with their array type), the tile set, the board and the leave table."""

    name: str
    graph: bytes
    typecode: str
    tiles: TileSet
    layout: BoardLayout
    leaves: LeaveTable


@dataclass
class Count:
    """What the games counted: plays and points scored per word, the games and how long they took."""

    plays: Counter[str]
    points: Counter[str]
    games: int
    seconds: float
    where: str


#: plays and points scored per word, over some games
Tally = tuple[Counter[str], Counter[str]]


def setup_for(lex: Lexicon) -> Setup:
    """The lexicon's graph and leave table, ready to send to workers (the table's
    40-feature values when no table is shipped for its tiles)."""
    dawg = dawg_for(lex)
    leaves = load_leaves(lex.tiles)
    table = leaves if isinstance(leaves, LeaveTable) else LeaveTable.from_model(load_leave_model(lex.tiles))
    return Setup(lex.name, bytes(dawg.data), dawg.data.format, lex.tiles, lex.layout, table)


def chunks(games: int, seed: int, chunk: int = CHUNK) -> list[tuple[int, int]]:
    """The games as chunks of game seeds [start, stop): game number i has seed `seed * 10**9 + i`."""
    base = seed * 10**9
    return [(base + i, base + min(i + chunk, games)) for i in range(0, games, chunk)]


#: this process's player and the setup it was made for (a worker keeps it between chunks)
_player: list[tuple[Setup, SelfPlayer]] = []


def play_chunk(setup: Setup, seeds: tuple[int, int]) -> Tally:
    """Plays of each word, and the points it scored, in the games of seeds [start, stop)."""
    if not _player or _player[0][0] is not setup:
        records = memoryview(setup.graph).cast(setup.typecode)  # type: ignore[call-overload]  # typeshed wants a literal
        dawg = Dawg(records, setup.tiles, setup.name)
        _player[:] = [(setup, SelfPlayer(MoveGenerator(dawg), setup.layout, setup.leaves))]
    player = _player[0][1]
    plays: Counter[str] = Counter()
    points: Counter[str] = Counter()
    for seed in range(*seeds):
        for word, scored in player.play(seed, words=True).words:
            plays[word] += 1
            points[word] += scored
    return plays, points


def count_plays(setup: Setup, games: int, seed: int = 0, jobs: int | None = None, scheduler: str | None = None,
                progress: Progress | None = None, chunk: int = CHUNK) -> Count:
    """Plays of each word over `games` self-play games: in `jobs` processes
    (default: every core; 1 plays here), or on the Dask cluster at `scheduler`."""
    if games < 1:
        raise LexitrainError(f"--games {games}: play at least one game")
    work = chunks(games, seed, chunk)
    started = time.perf_counter()
    if scheduler is not None:
        results, where = _on_dask(setup, work, scheduler), f"dask {scheduler}"
    else:
        jobs = max(1, min(jobs or os.cpu_count() or 1, len(work)))
        results = _on_cores(setup, work, jobs)
        where = f"{jobs} process{'es' if jobs > 1 else ''}"
    total: Counter[str] = Counter()
    scored: Counter[str] = Counter()
    done = 0
    for (start, stop), (plays, points) in results:
        total.update(plays)
        scored.update(points)
        done += stop - start
        if progress is not None:
            progress(done, games)
    return Count(total, scored, games, time.perf_counter() - started, where)


def _on_cores(setup: Setup, work: list[tuple[int, int]], jobs: int) -> Iterator[tuple[tuple[int, int], Tally]]:
    if jobs == 1:
        for seeds in work:
            yield seeds, play_chunk(setup, seeds)
        return

    with Pool(jobs, _start_worker, (setup,)) as pool:
        yield from zip(work, pool.imap(_play_in_worker, work))


_worker_setup: list[Setup] = []


def _start_worker(setup: Setup) -> None:
    _worker_setup[:] = [setup]


def _play_in_worker(seeds: tuple[int, int]) -> Tally:
    return play_chunk(_worker_setup[0], seeds)


def _on_dask(setup: Setup, work: list[tuple[int, int]], scheduler: str) -> Iterator[tuple[tuple[int, int], Tally]]:
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise LexitrainError("--scheduler needs dask.distributed: pip install 'lexitrain[dask]'") from None
    try:
        client = Client(scheduler, timeout=10)
    except (OSError, TimeoutError, ValueError) as exc:
        raise LexitrainError(f"cannot reach the Dask scheduler at {scheduler} ({exc})") from None
    with client:
        shared = client.scatter(setup, broadcast=True)
        futures = {client.submit(play_chunk, shared, seeds, pure=False): seeds for seeds in work}
        for future in as_completed(futures):
            yield futures[future], future.result()


def count_and_store(lex: Lexicon, games: int, seed: int = 0, jobs: int | None = None,
                    scheduler: str | None = None, progress: Progress | None = None) -> Count:
    """Count plays and points over `games` self-play games and store them in the compiled lexicon
    (lexicon/playability.py), replacing any figures it had."""

    setup = setup_for(lex)
    count = count_plays(setup, games, seed, jobs, scheduler, progress)
    playability.write(lex.folder, count.plays, count.points, lambda word: len(lex.tiles.encode(word)),
                      figures_meta(lex, count, seed))
    return count


def figures_meta(lex: Lexicon, count: Count, seed: int) -> dict[str, Any]:
    """What a set of figures says of itself: the games and seed, the words it was counted on, the leaves."""
    leaves = load_leaves(lex.tiles)
    return {
        "games": count.games, "seed": seed, "seconds": round(count.seconds, 1), "where": count.where,
        "lexicon": lex.name, "content_hash": lex.content_hash,
        "counted": "every word each play forms (main and cross words), equity player vs itself",
        "scored": "the points each word scored where it was formed, the bingo bonus with the main word",
        "leaves": (f"exhaustive table ({leaves.trained.get('games', '?')} training games)"
                   if isinstance(leaves, LeaveTable) else "the 40-feature model's values"),
        "plays": sum(count.plays.values()), "words": len(count.plays),
    }
