"""What every request of one launch shares: the progress store, the lexicons, the clock, the statistics.

Handlers hand their work to the lane or the readers (offload.py), each given a store for the work: the
local app's threads keep connections of their own, a club's members borrow one from the pool per piece
of work. Open rounds are rows of the store (`study.drills.open_rounds`), not this launch's: any process
answers their next request, a restart finds them, and the rounds' clock is wall-clock seconds, the same
in every process. The statistics are counted again only when the store has changed.
"""

from __future__ import annotations

import secrets
import threading
import time
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import date
from functools import partial
from pathlib import Path
from typing import Any, Callable

from lexitrain.paths import data_home
from lexitrain.lexicon.catalog import open_lexicon
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.study.drills import open_rounds
from lexitrain.study.quiz.preferences import Preferences, load_preferences
from lexitrain.study.records import stats as st
from lexitrain.study.records.stats import StatsReport
from lexitrain.study.store import ProgressStore
from lexitrain.web import word_lists
from lexitrain.web.offload import READERS, Lend, Offload, ThreadStores

#: How long a page waits for the statistics to be counted again before it shows the last count.
STATS_WAIT = 0.06


@dataclass
class Context:
    """One launch of the app (a club: one member's app)."""

    store: ProgressStore | None  # the launch's store (the local app: the player's file; a club's member: None)
    lexicon: str  # the lexicon pages use (the `--lexicon` given, else the study lexicon)
    clock: Callable[[], float] = time.time  # the rounds' clock: wall-clock seconds (tests move an injected one)
    secret: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    #: the Host headers the app answers (its address and port): a page of another name that resolves
    #: here (DNS rebinding) is refused even with the cookie
    hosts: frozenset[str] = frozenset()
    launch_file: Path | None = None  # the page the browser was opened on, removed as the app stops
    #: opens another connection to the store (each thread's own); default: the store's file again
    open_store: Callable[[], ProgressStore] | None = None
    #: lends the store a piece of work uses (a club: a pooled connection); default: each thread's own connection
    lend: Lend | None = None
    #: threads shared with other members' apps (a club's); default: a lane and readers of its own
    shared: Executor | None = None
    #: what moves whenever the store changes (default: SQLite's data_version on a connection that never writes)
    changes: Callable[[], int] | None = None
    #: the folder of the player's uploaded lists before they were kept in the store (default: the data folder)
    home: Path | None = None
    #: whether the player is on this machine: a wall from a file by its path, the saved searches (a club
    #: member is not: the server's files are not theirs)
    on_this_machine: bool = True
    #: where the club that serves this app has its own page (a link back to it, and its log-out); None for the
    #: local app
    club_page: str | None = None
    readers: int = READERS
    #: (a club's) refuses a daily challenge (lexicon, kind, day) the player may not see yet: today's ranked set
    #: before their ranked attempt at it is over
    challenge_gate: Callable[[str, str, date], None] | None = None
    _lexicons: dict[str, Lexicon] = field(default_factory=dict)
    _lexicons_lock: threading.Lock = field(default_factory=threading.Lock)
    _stats: dict[str, tuple[int, StatsReport]] = field(default_factory=dict)
    _stats_pending: dict[str, tuple[int, Future[StatsReport]]] = field(default_factory=dict)
    # re-entrant: a count that ends before its callback is added runs the callback at once, lock held
    _stats_lock: threading.RLock = field(default_factory=threading.RLock)
    _stats_counter: ThreadPoolExecutor = field(
        default_factory=lambda: ThreadPoolExecutor(1, thread_name_prefix="lexitrain-stats"))
    _stats_watch: ProgressStore | None = None
    _threads: ThreadStores | None = None

    def __post_init__(self) -> None:
        if self.open_store is None and self.store is not None:
            path = self.store.path
            self.open_store = lambda: ProgressStore(path)
        if self.lend is None:
            assert self.open_store is not None, "a launch needs its store, or a way to open or lend it"
            self._threads = ThreadStores(self.open_store)
            self.lend = self._threads.lend
        self.offload = Offload(self.lend, self.readers, self.shared)
        with self.lend() as store:
            word_lists.adopt_list_files(store, self.home or data_home())

    def lex(self, name: str | None = None) -> Lexicon:
        """An open lexicon (kept for the launch); an unknown one is the lexicon layer's one-line error."""
        name = name or self.lexicon
        with self._lexicons_lock:
            if name not in self._lexicons:
                self._lexicons[name] = open_lexicon(name)
            return self._lexicons[name]

    def preferences(self, store: ProgressStore) -> Preferences:
        return load_preferences(store)

    def stats(self, lexicon: str | None = None, wait: float | None = STATS_WAIT) -> tuple[StatsReport, bool]:
        """The statistics of a lexicon (with its coverage and, where it has the figures, the points per
        game the player's words cover) and whether they hold every answer given.

        They are counted again only when the store has changed (`changes`), on a thread of their own, one
        count at a time, which the requests arriving meanwhile share. A page waits WAIT seconds for a
        new count (None: as long as it takes) and is otherwise given the last one, marked not fresh:
        at 100,000 cards a count takes a few hundred milliseconds (1.5-2.5 s with the points), and a
        page never hangs on it once one count is done (`count_stats_ahead`). Call it off the event loop."""
        done, pending = self._latest_count(self.lex(lexicon))
        if pending is None:
            assert done is not None
            return done[1], True
        try:
            return pending.result(timeout=None if done is None else wait), True
        except TimeoutError:
            assert done is not None
            return done[1], False

    def count_stats_ahead(self, lexicon: str | None = None) -> None:
        """Start counting a lexicon's statistics now and return at once: a launch does it for its lexicon,
        so the first Stats page finds them counted instead of waiting for the whole count."""
        self._latest_count(self.lex(lexicon))

    def store_version(self) -> int:
        """A value that moves whenever the store changes (`changes`): a cache of anything read from the store
        is used again while it stays. Cheap (no thread hop); callable from the event loop."""
        with self._stats_lock:
            return self._version()

    def _version(self) -> int:
        """A value that moves whenever the store changes."""
        if self.changes is not None:
            return self.changes()
        if self._stats_watch is None:
            assert self.open_store is not None
            self._stats_watch = self.open_store()
        return self._stats_watch.data_version()

    def _latest_count(self, lex: Lexicon) -> tuple[tuple[int, StatsReport] | None, Future[StatsReport] | None]:
        """The last count of the lexicon's statistics, and the count under way when that one is not of the
        store as it is now (started here if none is)."""
        with self._stats_lock:
            version = self._version()
            done = self._stats.get(lex.name)
            if done is not None and done[0] == version:
                return done, None
            pending = self._stats_pending.get(lex.name)
            if pending is None or pending[0] != version:
                future = self._stats_counter.submit(self._count, lex)
                pending = self._stats_pending[lex.name] = (version, future)
                future.add_done_callback(partial(self._counted, lex.name, version))
        return done, pending[1]

    def _count(self, lex: Lexicon) -> StatsReport:
        assert self.lend is not None
        with self.lend() as store:
            return st.compute(store, lex.name, lex, points=True)

    def _counted(self, name: str, version: int, future: Future[StatsReport]) -> None:
        if future.exception() is None:
            with self._stats_lock:
                if name not in self._stats or self._stats[name][0] < version:
                    self._stats[name] = (version, future.result())

    def tick(self, store: ProgressStore) -> None:
        """End every open round whose time has run out (every few seconds, in the lane)."""
        open_rounds.tick(store, self.lex, self.clock)

    def close(self) -> None:
        """The server is stopping (or a club's member's app is let go): its threads and connections ended. Its
        open rounds are rows of the store: they stay open, to be carried on."""
        if self.launch_file is not None:
            self.launch_file.unlink(missing_ok=True)
        self.offload.close()
        self._stats_counter.shutdown(wait=True)
        if self._stats_watch is not None:
            self._stats_watch.close()
        if self._threads is not None:
            self._threads.close()

    def page_context(self, store: ProgressStore) -> dict[str, Any]:
        """What every page template is given."""
        return {"preferences": self.preferences(store), "lexicon": self.lexicon, "club_page": self.club_page,
                "on_this_machine": self.on_this_machine}
