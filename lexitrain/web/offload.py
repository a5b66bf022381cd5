"""Blocking work kept off the event loop, so no request waits on another's slow one.

Three places to run it:

- the lane: one thread that holds the open rounds and writes the progress store, in the
  order the requests came (a guess waits only for other answers, each a few milliseconds,
  and every answer is still its own transaction);
- the readers: threads that read the store through connections of their own (pages,
  statistics); SQLite's WAL lets them read while the lane writes;
- the sheet process: a PDF can take 40 s of CPU, so it is made in a process of its own,
  holding neither the loop nor the interpreter lock the lane needs.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import tempfile
import threading
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from typing import Callable, TypeVar

from lexitrain.children import end_with_parent
from lexitrain.lexicon.catalog import open_lexicon
from lexitrain.sheets.request import SheetRequest, build_sheet
from lexitrain.sheets.write import write_sheet
from lexitrain.study.store import ProgressStore

T = TypeVar("T")
#: Threads that read the store at once (the machine's cores, at least 2).
READERS = 2


class Offload:
    """The lane, the readers and the sheet process of one launch, over one progress store."""

    def __init__(self, open_store: Callable[[], ProgressStore], readers: int = READERS) -> None:
        """`open_store` opens another connection to the launch's store (a reader's own)."""
        self._open_store = open_store
        self._lane = ThreadPoolExecutor(1, thread_name_prefix="lexitrain-lane")
        self._readers = ThreadPoolExecutor(readers, thread_name_prefix="lexitrain-read")
        self._sheets: ProcessPoolExecutor | None = None
        self._local = threading.local()
        self._stores: list[ProgressStore] = []
        self._lock = threading.Lock()

    async def write(self, work: Callable[[], T]) -> T:
        """Run in the lane: anything that touches the open rounds or writes the store."""
        return await _run(self._lane, work)

    def write_now(self, work: Callable[[], T]) -> T:
        """Run in the lane and wait (outside the event loop: the server stopping)."""
        return self._lane.submit(work).result()

    async def read(self, work: Callable[[ProgressStore], T]) -> T:
        """Run on a reader thread, with that thread's own connection to the store."""
        return await _run(self._readers, lambda: work(self._reader()))

    async def sheet(self, request: SheetRequest, lexicon: str) -> bytes:
        """A PDF sheet made in the sheet process (started on first use)."""
        with self._lock:
            if self._sheets is None:
                self._sheets = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                                   initializer=end_with_parent, initargs=(os.getpid(),))
        return await _run_in_process(self._sheets, request, lexicon)

    def close(self) -> None:
        self._lane.shutdown(wait=True)
        self._readers.shutdown(wait=True)
        if self._sheets is not None:  # a sheet still being made is abandoned: its process is ended, not waited for
            for process in list((self._sheets._processes or {}).values()):
                process.terminate()
            self._sheets.shutdown(wait=False, cancel_futures=True)
        for store in self._stores:
            store.close()

    def _reader(self) -> ProgressStore:
        store: ProgressStore | None = getattr(self._local, "store", None)
        if store is None:
            store = self._open_store()
            self._local.store = store
            with self._lock:
                self._stores.append(store)
        return store


async def _run(executor: Executor, work: Callable[[], T]) -> T:
    return await asyncio.get_running_loop().run_in_executor(executor, work)


async def _run_in_process(executor: ProcessPoolExecutor, request: SheetRequest, lexicon: str) -> bytes:
    return await asyncio.get_running_loop().run_in_executor(executor, render_sheet, request, lexicon)


def render_sheet(request: SheetRequest, lexicon: str) -> bytes:
    """Build and write a sheet as PDF bytes (run in the sheet process)."""

    sheet = build_sheet(request, open_lexicon(lexicon))
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "sheet.pdf"
        write_sheet(sheet, out)
        return out.read_bytes()
