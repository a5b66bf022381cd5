"""Playability by self-play: how often the equity player plays each word, and what it scores.

Every word a play forms counts once (the main word and each cross word),
with the points it scored there (the bingo bonus with the main word), over
games of fast self-play (`selfplay.py`). Plays tied at the best equity and
score are drawn among with the game's seed, so a word's count is its own and
not the tie-break's (on an empty board the nine anagrams of AEINRST tie at
66: taking the first by placement counted ANESTRI ten times as often as
STEARIN). The games are cut into
chunks of consecutive seeds, and each chunk's counts depend on its seeds
alone, so the totals are the same however the chunks were run: in this
process, on every core (`multiprocessing`), or on a Dask cluster given its
scheduler's address (`dask.distributed`, the optional `dask` extra).
Everything a worker needs travels with the work (`Setup`: the word graph's
records, the tile set, the board and the leave table), so a worker on
another machine needs lexitrain installed, not the lexicon.
How steady the figures are is measured on the games themselves: the games
split into two halves (the games of even and of odd seed), and for the
most played words of each length, Spearman's rank correlation of their plays
in one half against the other (`stability`).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import asdict, dataclass
from multiprocessing import Pool
from typing import Any

from lexitrain.children import usable_cores
from lexitrain.engine.dawg import Dawg, dawg_for
from lexitrain.engine.leave import load_leave_model
from lexitrain.engine.leave_table import LeaveTable, load_leaves
from lexitrain.engine.movegen import MoveGenerator
from lexitrain.engine.selfplay import SelfPlayer
from lexitrain.errors import LexitrainError
from lexitrain.layouts import BoardLayout
from lexitrain.lexicon import playability
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.lexicon.progress import Progress, quiet
from lexitrain.tiles import TileSet

#: games per chunk of work
CHUNK = 50


#: the most played words of a length whose order `stability` compares
TOP = 1000
#: the halves' Spearman from which a length's ranks are read as meaningful
STEADY = 0.9
#: the fewest plays of the last word compared for `Steadiness.games_for` to estimate from
MEASURED = 10


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
    """What the games counted: plays and points scored per word, the plays in the games of even and
    of odd seed (two halves of disjoint games), the games and how long they took."""

    plays: Counter[str]
    points: Counter[str]
    games: int
    seconds: float
    where: str
    halves: tuple[Counter[str], Counter[str]]


@dataclass(frozen=True)
class Steadiness:
    """How alike two halves of disjoint games rank the most played words of one length: `words`
    compared (each half's top `TOP` of the length, fewer where fewer were played), Spearman's rank
    correlation of those words' plays in the half that chose them against the other (the mean of
    the two ways), how many of each half's top words are in the other's, and the plays over all
    the games of the `words`-th most played word. The words are chosen by one half, not by the
    whole count: chosen by the whole count, a word played once is played in one half only, and
    among rare words the halves would seem to disagree by construction, noise read as a negative
    correlation; chosen by one half, noise reads as 0."""

    length: int
    words: int
    spearman: float
    overlap: int
    last_plays: int

    def games_for(self, games: int, target: float = STEADY) -> int | None:
        """About how many games would bring the halves' Spearman to `target`: read as the reliability
        of half the games, r = v / (v + n), the counting noise n against the spread v of the words'
        true figures, n falls as 1 / games; None while r is too small, or the words compared too
        rarely played (the last fewer than MEASURED times), to say."""
        if self.spearman >= target:
            return games
        if self.spearman < 0.05 or self.last_plays < MEASURED:
            return None
        return round(games * ((1 - self.spearman) / self.spearman) / ((1 - target) / target))


#: plays per word in the games of even and of odd seed, and points scored per word, over some games
Tally = tuple[Counter[str], Counter[str], Counter[str]]


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


def stability(halves: tuple[Mapping[str, int], Mapping[str, int]], length: Callable[[str], int],
              top: int = TOP) -> dict[int, Steadiness]:
    """The halves' agreement on each length's top words (see `Steadiness`), by length; a length
    needs at least three words played in each half to be measured."""
    import pandas as pd

    total = Counter(halves[0])
    total.update(halves[1])
    by_length: dict[int, list[str]] = {}
    for word, n in total.items():
        if n > 0:
            by_length.setdefault(length(word), []).append(word)
    out: dict[int, Steadiness] = {}
    for size, words in sorted(by_length.items()):
        firsts = [_most_played(half, words, top) for half in halves]
        if min(len(first) for first in firsts) < 3:
            continue
        rhos = []
        for chose, other, first in ((halves[0], halves[1], firsts[0]), (halves[1], halves[0], firsts[1])):
            a = pd.Series([chose.get(w, 0) for w in first], dtype=float)
            b = pd.Series([other.get(w, 0) for w in first], dtype=float)
            rho = a.rank().corr(b.rank())
            rhos.append(0.0 if rho != rho else float(rho))  # NaN: one half's plays all equal
        compared = min(top, len(words))
        out[size] = Steadiness(size, compared, round(sum(rhos) / 2, 3), len(set(firsts[0]) & set(firsts[1])),
                               sorted(total[w] for w in words)[-compared])
    return out


def _most_played(plays: Mapping[str, int], words: list[str], top: int) -> list[str]:
    """The `top` words most played in `plays` (ties by word), of those played at all."""
    return [word for _, word in sorted((-plays.get(word, 0), word) for word in words if plays.get(word, 0) > 0)[:top]]


def play_chunk(setup: Setup, seeds: tuple[int, int]) -> Tally:
    """Plays of each word, and the points it scored, in the games of seeds [start, stop)."""
    if not _player or _player[0][0] is not setup:
        records = memoryview(setup.graph).cast(setup.typecode)  # type: ignore[call-overload]  # typeshed wants a literal
        dawg = Dawg(records, setup.tiles, setup.name)
        _player[:] = [(setup, SelfPlayer(MoveGenerator(dawg), setup.layout, setup.leaves))]
    player = _player[0][1]
    halves: tuple[Counter[str], Counter[str]] = (Counter(), Counter())
    points: Counter[str] = Counter()
    for seed in range(*seeds):
        half = halves[seed % 2]
        for word, scored in player.play(seed, words=True, draw_ties=True).words:
            half[word] += 1
            points[word] += scored
    return halves[0], halves[1], points


def count_plays(setup: Setup, games: int, seed: int = 0, jobs: int | None = None, scheduler: str | None = None,
                progress: Progress = quiet, chunk: int = CHUNK) -> Count:
    """Plays of each word over `games` self-play games: in `jobs` processes
    (default: every core; 1 plays here), or on the Dask cluster at `scheduler`."""
    if games < 1:
        raise LexitrainError(f"--games {games}: play at least one game")
    work = chunks(games, seed, chunk)
    started = time.perf_counter()
    if scheduler is not None:
        results, where = _on_dask(setup, work, scheduler), f"dask {scheduler}"
    else:
        jobs = max(1, min(jobs or usable_cores(), len(work)))
        results = _on_cores(setup, work, jobs)
        where = f"{jobs} process{'es' if jobs > 1 else ''}"
    total: Counter[str] = Counter()
    scored: Counter[str] = Counter()
    halves: tuple[Counter[str], Counter[str]] = (Counter(), Counter())
    done = 0
    for (start, stop), (even, odd, points) in results:
        for half, plays in zip(halves, (even, odd)):
            half.update(plays)
            total.update(plays)
        scored.update(points)
        done += stop - start
        progress("games", done, games)
    return Count(total, scored, games, time.perf_counter() - started, where, halves)


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
                    scheduler: str | None = None, progress: Progress = quiet) -> Count:
    """Count plays and points over `games` self-play games and store them in the compiled lexicon
    (lexicon/playability.py), replacing any figures it had."""

    setup = setup_for(lex)
    count = count_plays(setup, games, seed, jobs, scheduler, progress)
    playability.write(lex.folder, count.plays, count.points, tile_length(lex), figures_meta(lex, count, seed))
    return count


def tile_length(lex: Lexicon) -> Callable[[str], int]:
    """A word's length in the lexicon's tiles (a CH tile is one)."""
    return lambda word: len(lex.tiles.encode(word))


def figures_meta(lex: Lexicon, count: Count, seed: int) -> dict[str, Any]:
    """What a set of figures says of itself: the games and seed, the words it was counted on, the leaves."""
    leaves = load_leaves(lex.tiles)
    return {
        "games": count.games, "seed": seed, "seconds": round(count.seconds, 1), "where": count.where,
        "lexicon": lex.name, "content_hash": lex.content_hash,
        "counted": "every word each play forms (main and cross words), equity player vs itself",
        "ties": "drawn among the plays tied at the best equity and score, with the game's seed",
        "scored": "the points each word scored where it was formed, the bingo bonus with the main word",
        "leaves": (f"exhaustive table ({leaves.trained.get('games', '?')} training games)"
                   if isinstance(leaves, LeaveTable) else "the 40-feature model's values"),
        "plays": sum(count.plays.values()), "words": len(count.plays),
        "stability": {str(n): asdict(steady) for n, steady in stability(count.halves, tile_length(lex)).items()},
    }
