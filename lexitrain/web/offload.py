"""Blocking work kept off the event loop, so no request waits on another's slow one.

Five places to run it:

- the lane: one thread that writes the progress store (an open round's every request does: the
  round is a row of the store), in the order the requests came (a guess waits only for other
  answers, each a few milliseconds, and every answer is still its own transaction);
- the readers: threads that read the store (pages, statistics); SQLite's WAL lets them read
  while the lane writes;
- aside: a thread for long work that mostly waits elsewhere (the local app's Sync, on the network),
  holding neither the lane nor a reader meanwhile;
  both are given a store for the work: the local app's threads each keep a connection of their
  own (`ThreadStores`); a club's members share threads and borrow a pooled connection per piece
  of work, so no member holds one between requests;
- the sheet process: a PDF can take 40 s of CPU, so it is made in a process of its own,
  holding neither the loop nor the interpreter lock the lane needs;
- the count process (the local app's): the statistics, 1-2 s of CPU a count at 100,000 cards,
  counted again as the player answers, likewise, at a lower priority than the requests.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import AbstractContextManager, contextmanager
from functools import cache
from pathlib import Path
from typing import Callable, TypeVar

from lexitrain.children import end_with_parent
from lexitrain.lexicon.catalog import open_lexicon
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.sheets.request import SheetRequest, build_sheet
from lexitrain.sheets.write import write_sheet
from lexitrain.study.records import stats as st
from lexitrain.study.records.stats import StatsReport
from lexitrain.study.store import ProgressStore

T = TypeVar("T")
#: How much lower the count process's priority is than the app's (nice(2)'s increment).
COUNT_NICENESS = 5
#: Threads that read the store at once (the machine's cores, at least 2).
READERS = 2
#: Where a request's store comes from: a block holding a connection to it (`with lend() as store:`).
Lend = Callable[[], AbstractContextManager[ProgressStore]]


class ThreadStores:
    """Each thread's own connection to one progress store, opened on first use and kept until `close` (the local
    app's lane, readers and statistics: one player, a few threads)."""

    def __init__(self, open_store: Callable[[], ProgressStore]) -> None:
        self._open_store = open_store
        self._local = threading.local()
        self._stores: list[ProgressStore] = []
        self._lock = threading.Lock()

    @contextmanager
    def lend(self) -> Iterator[ProgressStore]:
        store: ProgressStore | None = getattr(self._local, "store", None)
        if store is None:
            store = self._open_store()
            self._local.store = store
            with self._lock:
                self._stores.append(store)
        yield store

    def close(self) -> None:
        with self._lock:
            stores, self._stores = self._stores, []
        for store in stores:
            store.close()


class Offload:
    """Where a launch's blocking work runs: the lane and the readers (threads of its own, or threads a club's
    members share), each with a store lent for the work, and the sheet process."""

    def __init__(self, lend: Lend, readers: int = READERS, shared: Executor | None = None) -> None:
        """LEND: the store a piece of work is given; SHARED: threads to run on instead of a lane and READERS of
        its own (a club's members: each request's store is lent from the pool, and the store's own write lock
        makes a member's writes take turns)."""
        self.lend = lend
        self._own = shared is None
        self._lane: Executor = shared or ThreadPoolExecutor(1, thread_name_prefix="lexitrain-lane")
        self._readers: Executor = shared or ThreadPoolExecutor(readers, thread_name_prefix="lexitrain-read")
        self._sheets: ProcessPoolExecutor | None = None
        self._counts: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    async def write(self, work: Callable[[ProgressStore], T]) -> T:
        """Run in the lane: anything that writes the store (an open round's every request does)."""
        return await _run(self._lane, lambda: self._lent(work))

    def write_now(self, work: Callable[[ProgressStore], T]) -> T:
        """Run in the lane and wait (outside the event loop)."""
        return self._lane.submit(self._lent, work).result()

    async def read(self, work: Callable[[ProgressStore], T]) -> T:
        """Run on a reader thread, with a store of its own."""
        return await _run(self._readers, lambda: self._lent(work))

    async def aside(self, work: Callable[[ProgressStore], T]) -> T:
        """Run on a thread of neither the lane nor the readers, with a store lent: long work that mostly waits on
        something else (a sync, on the network) and writes only in the store's own transactions, which take turns
        with the lane's by the store's write lock (as `lexitrain sync` in a terminal does beside the app)."""
        return await asyncio.to_thread(self._lent, work)

    def _lent(self, work: Callable[[ProgressStore], T]) -> T:
        with self.lend() as store:
            return work(store)

    async def sheet(self, request: SheetRequest, lexicon: str) -> bytes:
        """A PDF sheet made in the sheet process (started on first use)."""
        with self._lock:
            self._sheets = self._sheets or _process_apart(end_with_parent)
        return await _run_in_process(self._sheets, request, lexicon)

    def count_apart(self, path: Path, lexicon: str) -> tuple[StatsReport, float]:
        """The statistics (with the points covered) of the store at PATH, counted in the count process (started on
        first use, at a lower priority), and the CPU seconds the count took there; wait for them (outside the
        event loop)."""
        with self._lock:
            self._counts = self._counts or _process_apart(_start_counting)
        return self._counts.submit(count_stats, path, lexicon).result()

    def close(self) -> None:
        if self._own:
            self._lane.shutdown(wait=True)
            self._readers.shutdown(wait=True)
        for apart in (self._sheets, self._counts):  # work still under way there is abandoned: the process ended
            if apart is not None:
                for process in list((apart._processes or {}).values()):
                    process.terminate()
                apart.shutdown(wait=False, cancel_futures=True)


async def _run(executor: Executor, work: Callable[[], T]) -> T:
    return await asyncio.get_running_loop().run_in_executor(executor, work)


async def _run_in_process(executor: ProcessPoolExecutor, request: SheetRequest, lexicon: str) -> bytes:
    return await asyncio.get_running_loop().run_in_executor(executor, render_sheet, request, lexicon)


def _process_apart(start: Callable[[int], None]) -> ProcessPoolExecutor:
    """A process of its own (spawned: no lock a thread of the app held is copied into it), begun by START, which is
    given the app's process id (to end with it: `end_with_parent`)."""
    return ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"), initializer=start,
                               initargs=(os.getpid(),))


@cache
def _opened(lexicon: str) -> Lexicon:
    """A lexicon opened once in the process apart that uses it (the sheet's, the count's), kept while it runs."""
    return open_lexicon(lexicon)


def _start_counting(parent: int) -> None:
    """The count process's start: it ends with the app, and gives way to the app's requests."""
    end_with_parent(parent)
    os.nice(COUNT_NICENESS)


def count_stats(path: Path, lexicon: str) -> tuple[StatsReport, float]:
    """Count the statistics of the store at PATH (run in the count process; the lexicon kept open there)."""
    with ProgressStore(path) as store:
        return timed_count(store, _opened(lexicon))


def timed_count(store: ProgressStore, lex: Lexicon) -> tuple[StatsReport, float]:
    """The statistics of LEX (with the points covered) and the CPU seconds this thread took to count them (how
    long the next count waits for its turn: `Context.stats`)."""
    began = time.thread_time()
    report = st.compute(store, lex.name, lex, points=True)
    return report, time.thread_time() - began


def render_sheet(request: SheetRequest, lexicon: str) -> bytes:
    """Build and write a sheet as PDF bytes (run in the sheet process)."""

    sheet = build_sheet(request, _opened(lexicon))
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "sheet.pdf"
        write_sheet(sheet, out)
        return out.read_bytes()
