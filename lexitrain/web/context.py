"""What every request of one launch shares: the progress store, the lexicons, the clock, the open rounds.

The open rounds and the store's writing connection belong to the lane
(offload.py): handlers hand their work to it, so two tabs driving the app at
once take turns there, and each answer is still its own transaction (other
lexitrain processes share the file through SQLite's locks, as two terminal
quizzes do). Pages read through the readers' own connections, and the
statistics are counted again only when the store has changed.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Callable, Protocol, TypeVar

from lexitrain.errors import LexitrainError
from lexitrain.paths import data_home
from lexitrain.lexicon.catalog import open_lexicon
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.study.quiz.preferences import Preferences, load_preferences
from lexitrain.study.quiz.session import Summary
from lexitrain.study.records import stats as st
from lexitrain.study.records.stats import StatsReport
from lexitrain.study.store import ProgressStore
from lexitrain.web.edge import NotFound
from lexitrain.web.offload import READERS, Offload

#: Rounds kept open at once; opening one more finishes (and so saves) the oldest.
OPEN_LIMIT = 16
#: How long a page waits for the statistics to be counted again before it shows the last count.
STATS_WAIT = 0.06


class Finishing(Protocol):
    def finish(self) -> Summary: ...


T = TypeVar("T", bound=Finishing)


@dataclass
class Context:
    """One launch of the app."""

    store: ProgressStore
    lexicon: str  # the lexicon pages use (the `--lexicon` given, else the study lexicon)
    clock: Callable[[], float] = time.monotonic  # the rounds' clock (tests move an injected one)
    secret: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    #: the Host headers the app answers (its address and port): a page of another name that resolves
    #: here (DNS rebinding) is refused even with the cookie
    hosts: frozenset[str] = frozenset()
    launch_file: Path | None = None  # the page the browser was opened on, removed as the app stops
    #: opens another connection to the store (readers', statistics'); default: the store's file again
    open_store: Callable[[], ProgressStore] | None = None
    #: the folder of the player's uploaded lists (default: the data folder)
    home: Path | None = None
    #: whether the player is on this machine: a wall from a file by its path, the saved searches (a club
    #: member is not: the server's files are not theirs)
    on_this_machine: bool = True
    #: where the club that serves this app has its own page (a link back to it, and its log-out); None for the
    #: local app
    club_page: str | None = None
    readers: int = READERS
    _open: OrderedDict[str, Finishing] = field(default_factory=OrderedDict)
    _started: OrderedDict[str, str] = field(default_factory=OrderedDict)  # a start form's nonce -> its round
    _lexicons: dict[str, Lexicon] = field(default_factory=dict)
    _lexicons_lock: threading.Lock = field(default_factory=threading.Lock)
    _stats: dict[str, tuple[int, StatsReport]] = field(default_factory=dict)
    _stats_pending: dict[str, tuple[int, Future[StatsReport]]] = field(default_factory=dict)
    # re-entrant: a count that ends before its callback is added runs the callback at once, lock held
    _stats_lock: threading.RLock = field(default_factory=threading.RLock)
    _stats_counter: ThreadPoolExecutor = field(
        default_factory=lambda: ThreadPoolExecutor(1, thread_name_prefix="lexitrain-stats"))
    _stats_watch: ProgressStore | None = None
    _stats_count: ProgressStore | None = None

    def __post_init__(self) -> None:
        if self.open_store is None:
            path = self.store.path
            self.open_store = lambda: ProgressStore(path)
        if self.home is None:
            self.home = data_home()
        self.offload = Offload(self.open_store, self.readers)

    def another_store(self) -> ProgressStore:
        assert self.open_store is not None
        return self.open_store()

    def lists_home(self) -> Path:
        assert self.home is not None
        return self.home

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

        They are counted again only when the store has changed (SQLite's data_version, on a connection
        that never writes, moves with every other connection's commit), on a thread of their own, one
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

    def _latest_count(self, lex: Lexicon) -> tuple[tuple[int, StatsReport] | None, Future[StatsReport] | None]:
        """The last count of the lexicon's statistics, and the count under way when that one is not of the
        store as it is now (started here if none is)."""
        with self._stats_lock:
            if self._stats_watch is None:
                self._stats_watch = self.another_store()
                self._stats_count = self.another_store()
            version = self._stats_watch.data_version()
            done = self._stats.get(lex.name)
            if done is not None and done[0] == version:
                return done, None
            pending = self._stats_pending.get(lex.name)
            if pending is None or pending[0] != version:
                count_store = self._stats_count
                assert count_store is not None
                future = self._stats_counter.submit(partial(st.compute, points=True), count_store, lex.name, lex)
                pending = self._stats_pending[lex.name] = (version, future)
                future.add_done_callback(partial(self._counted, lex.name, version))
        return done, pending[1]

    def _counted(self, name: str, version: int, future: Future[StatsReport]) -> None:
        if future.exception() is None:
            with self._stats_lock:
                if name not in self._stats or self._stats[name][0] < version:
                    self._stats[name] = (version, future.result())

    def keep(self, thing: Finishing) -> str:
        """Hold a round open under a new id (the oldest is finished past OPEN_LIMIT)."""
        while len(self._open) >= OPEN_LIMIT:
            _, oldest = self._open.popitem(last=False)
            oldest.finish()
        ident = secrets.token_urlsafe(9)
        self._open[ident] = thing
        return ident

    def once(self, nonce: str, start: Callable[[], str]) -> str:
        """The round a start form made (by its nonce, NONCE): a second submit of the same form (a double
        click, a reload of the post) finds the round the first one started instead of starting another."""
        ident = self._started.get(nonce) if nonce else None
        if ident is not None and ident in self._open:
            return ident
        ident = start()
        if nonce:
            self._started[nonce] = ident
            while len(self._started) > OPEN_LIMIT * 4:
                self._started.popitem(last=False)
        return ident

    def opened(self, ident: str, kind: type[T], noun: str) -> T:
        """The open round of that id and kind; else a 404 naming it as the player knows it (NOUN)."""
        thing = self._open.get(ident)
        if not isinstance(thing, kind):
            raise NotFound(f"no open {noun} {ident!r} (it may have ended when the app restarted)")
        return thing

    def tick_all(self) -> None:
        """End every open round whose time has run out (in the lane, every few seconds): a wall left
        mid-round -- the tab closed, the machine asleep -- is decided by its clock, not by its next request."""
        for thing in list(self._open.values()):
            tick = getattr(thing, "tick", None)
            if tick is not None:
                tick()

    def finish_all(self) -> None:
        """Close every open round, saving its open questions (the server is stopping; in the lane)."""
        while self._open:
            _, thing = self._open.popitem()
            thing.finish()

    def close(self) -> None:
        """The server is stopping: every open round saved, the lane, readers and sheet process ended."""
        if self.launch_file is not None:
            self.launch_file.unlink(missing_ok=True)
        self.offload.write_now(self.finish_all)
        self.offload.close()
        self._stats_counter.shutdown(wait=True)
        for store in (self._stats_watch, self._stats_count):
            if store is not None:
                store.close()

    def page_context(self, store: ProgressStore) -> dict[str, Any]:
        """What every page template is given."""
        return {"preferences": self.preferences(store), "lexicon": self.lexicon, "club_page": self.club_page}
