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
from typing import TYPE_CHECKING, Any, Callable, TypeVar, cast

from lexitrain.errors import LexitrainError
from lexitrain.paths import data_home
from lexitrain.lexicon.catalog import open_lexicon
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.study.drills import open_rounds
from lexitrain.study.drills.challenge import parse_day
from lexitrain.study.quiz.preferences import Preferences, load_preferences
from lexitrain.study.records import stats as st
from lexitrain.study.quiz.scheduler import utc_now
from lexitrain.study.records.stats import StatsReport, SyncStatus, sync_status
from lexitrain.study.store import ProgressStore
from lexitrain.web import word_lists
from lexitrain.web.offload import READERS, Lend, Offload, ThreadStores, timed_count

if TYPE_CHECKING:
    import pandas as pd

T = TypeVar("T")
#: What `Context._kept_now` gives when nothing is kept of the store as it is now.
_STALE = object()

#: How long a page waits for the statistics to be counted again before it shows the last count.
STATS_WAIT = 0.06
#: The share of the time the statistics are counted while the store keeps changing: after a count, the next
#: one waits (1 / COUNT_SHARE - 1) times the CPU time it took.
COUNT_SHARE = 0.25


@dataclass(eq=False)
class _Count:
    """A count of the statistics under way: the store's version it counts, noted as it begins (None before)."""
    version: int | None = None
    future: Future[StatsReport] = field(default_factory=Future)


@dataclass
class Context:
    """One launch of the app (a club: one member's app)."""

    store: ProgressStore | None  # the launch's store (the local app: the player's file; a club's member: None)
    lexicon: str  # the lexicon pages use (the `--lexicon` given, else the study lexicon; `follow_lexicon`)
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
    #: the player's own folder (default: the data folder): their games against the bots, and their uploaded
    #: lists before they were kept in the store
    home: Path | None = None
    #: whether the player is on this machine: a wall from a file by its path, the saved searches (a club
    #: member is not: the server's files are not theirs)
    on_this_machine: bool = True
    #: where the club that serves this app has its own page (a link back to it, and its log-out); None for the
    #: local app
    club_page: str | None = None
    readers: int = READERS
    #: (the local app's) count the statistics in a process of their own (`Offload.count_apart`), not on a thread
    #: of this one, whose interpreter every request needs (a club's members' are counted on its threads)
    count_apart: bool = False
    #: (a club's) refuses a daily challenge (lexicon, kind, day) the player may not see yet: today's ranked set
    #: before their ranked attempt at it is over
    challenge_gate: Callable[[str, str, date], None] | None = None
    #: (a club's) the day by the club's clock, whose challenges are today's there and so in its members' /study (the
    #: ranked set it gates is the club's day's); None: the player's own day
    club_day: Callable[[], date] | None = None
    #: (a club's) the most words a wall or sheet from a search, a list or an upload may be made of (more: refused in one
    #: line, counted before the rows are built); None: any (the local app's one player on their own machine)
    most_words: int | None = None
    #: the player's lexicon setting and its change's number as last seen (`follow_lexicon`): a launch's `--lexicon`
    #: holds until it is set again
    lexicon_setting: tuple[Any, int | None] | None = None
    #: held while the player's uploaded games are analysed (`web.games`): one upload at a time
    games_busy: threading.Lock = field(default_factory=threading.Lock)
    _lexicons: dict[str, Lexicon] = field(default_factory=dict)
    _lexicons_lock: threading.Lock = field(default_factory=threading.Lock)
    _stats: dict[str, tuple[int, StatsReport]] = field(default_factory=dict)
    _stats_pending: dict[str, _Count] = field(default_factory=dict)  # the count under way, per lexicon
    _stats_turn: dict[str, float] = field(default_factory=dict)  # when the next count may begin (time.monotonic)
    _stats_closing: threading.Event = field(default_factory=threading.Event)
    # re-entrant: a count that ends before its callback is added runs the callback at once, lock held
    _stats_lock: threading.RLock = field(default_factory=threading.RLock)
    _stats_counter: ThreadPoolExecutor = field(
        default_factory=lambda: ThreadPoolExecutor(1, thread_name_prefix="lexitrain-stats"))
    _stats_watch: ProgressStore | None = None
    #: what every view or request asks, read once per change of the store (`_per_change`, `read_per_change`): name ->
    #: (stamp, value)
    _kept: dict[str, tuple[tuple[object, ...], Any]] = field(default_factory=dict)
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
            if self.store is not None:  # (the local app: its launch's lexicon, a --lexicon given, holds till this moves)
                self.lexicon_setting = store.setting_change("lexicon")

    def lex(self, name: str | None = None) -> Lexicon:
        """An open lexicon (kept for the launch); an unknown one is the lexicon layer's one-line error."""
        name = name or self.lexicon
        with self._lexicons_lock:
            if name not in self._lexicons:
                self._lexicons[name] = open_lexicon(name)
            return self._lexicons[name]

    async def follow_lexicon(self) -> None:
        """Use the player's lexicon setting once it is set again (to any lexicon, the one it held included): chosen
        on the settings page, with `lexitrain study set --lexicon` in a terminal while the app runs, or by a sync,
        the pages use it (a running app kept the lexicon it started with). Read again only when the store has
        changed; a lexicon is opened once (`lex`)."""
        setting = await self.read_per_change("lexicon setting", lambda store: store.setting_change("lexicon"))
        if setting is not None and setting != self.lexicon_setting:
            self.lexicon, self.lexicon_setting = str(setting[0]), setting

    def today(self) -> date:
        """The day whose daily challenges are today's: a club's by its clock, else the player's own."""
        return self.club_day() if self.club_day is not None else parse_day(None)

    def preferences(self, store: ProgressStore) -> Preferences:
        return load_preferences(store)

    def stats(self, lexicon: str | None = None, wait: float | None = STATS_WAIT) -> tuple[StatsReport, bool]:
        """The statistics of a lexicon (with its coverage and, where it has the figures, the points per
        game the player's words cover) and whether they hold every answer given.

        They are counted again only when the store has changed (`changes`), from a thread of their own (in
        the count process where `count_apart`), one count at a time: a count is never queued behind another (the requests arriving meanwhile share the
        one under way, and the store as it is when it ends is counted by the next one), and while the store
        keeps changing (a player guessing on a wall) the counts take at most COUNT_SHARE of the CPU (at
        100,000 cards a count takes 1-2 s of it, and counts back to back after every guess held the
        interpreter from every request). A page waits WAIT seconds for a count of the store as it is now
        (None: as long as it takes) and is otherwise given the last one, marked not fresh; a page never hangs
        on a count once one is done (`count_stats_ahead`). Call it off the event loop."""
        lex = self.lex(lexicon)
        with self._stats_lock:
            version = self._version()
            done = self._stats.get(lex.name)
            if done is not None and done[0] == version:
                return done[1], True
            count = self._stats_pending.get(lex.name) or self._start_count(lex)
        if done is None:  # (the first count: nothing to show meanwhile)
            return count.future.result(), count.version == version
        if count.version != version:  # (waiting for its turn, or counting the store as it was before)
            return done[1], False
        try:
            return count.future.result(timeout=wait), True
        except TimeoutError:
            return done[1], False

    def count_stats_ahead(self, lexicon: str | None = None) -> None:
        """Start counting a lexicon's statistics now and return at once: a launch does it for its lexicon,
        so the first Stats page finds them counted instead of waiting for the whole count."""
        lex = self.lex(lexicon)
        with self._stats_lock:
            if lex.name not in self._stats_pending:
                self._start_count(lex)

    def syncs(self, store: ProgressStore) -> list[SyncStatus]:
        """The stores this one syncs with (`sync_status`, which the home page shows on every view), read again
        only when the store has changed."""
        return self._per_change("syncs", (), lambda: sync_status(store))

    def due_forecast(self, store: ProgressStore, lexicon: str) -> pd.DataFrame:
        """The cards due on each of the coming days as the store is now (`stats.forecast`, which the review page
        and /stats show on every view while the statistics are a count behind: a third of the readers' CPU
        under bench_web's load), read again only when the store has changed, or the day."""
        return self._per_change(f"forecast {lexicon}", (utc_now().astimezone().date(),),
                                lambda: st.forecast(store, lexicon))

    async def read_per_change(self, name: str, read: Callable[[ProgressStore], T]) -> T:
        """What READ gives on a reader thread, kept under NAME and read again only when the store has changed since:
        for what the event loop asks on every request (whether the judge is on)."""
        stamp, kept = self._kept_now(name, ())
        return cast(T, kept) if kept is not _STALE else self._keep(name, stamp, await self.offload.read(read))

    def _per_change(self, name: str, also: tuple[object, ...], read: Callable[[], T]) -> T:
        """What READ gives, kept under NAME and read again only when the store has changed since (or ALSO has)."""
        stamp, kept = self._kept_now(name, also)
        return cast(T, kept) if kept is not _STALE else self._keep(name, stamp, read())

    def _kept_now(self, name: str, also: tuple[object, ...]) -> tuple[tuple[object, ...], Any]:
        """The stamp of the store as it is now (and ALSO), taken before any read (a change meanwhile moves it, and
        it is read again), and what is kept under NAME at that stamp (_STALE: nothing, or a read of an older one)."""
        stamp = (self.store_version(), *also)
        kept = self._kept.get(name)
        return stamp, kept[1] if kept is not None and kept[0] == stamp else _STALE

    def _keep(self, name: str, stamp: tuple[object, ...], value: T) -> T:
        self._kept[name] = (stamp, value)
        return value

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

    def _start_count(self, lex: Lexicon) -> _Count:
        """A count of the lexicon's statistics, on the counting thread (the lock held: none is under way)."""
        count = self._stats_pending[lex.name] = _Count()
        count.future = self._stats_counter.submit(self._count, lex, count)
        count.future.add_done_callback(partial(self._counted, lex.name, count))
        return count

    def _count(self, lex: Lexicon, count: _Count) -> StatsReport:
        """Count the statistics once the last count's turn is over, of the store as it is when this one
        begins (its version is noted first: a change while it counts makes it a count behind)."""
        assert self.lend is not None
        if self._stats_closing.wait(self._stats_turn.get(lex.name, 0.0) - time.monotonic()):
            raise LexitrainError("the app is stopping: the statistics were not counted")
        with self._stats_lock:
            count.version = self._version()
        if self.count_apart and self.store is not None:
            report, seconds = self.offload.count_apart(self.store.path, lex.name)
        else:
            with self.lend() as store:
                report, seconds = timed_count(store, lex)
        self._stats_turn[lex.name] = time.monotonic() + seconds * (1 / COUNT_SHARE - 1)
        return report

    def _counted(self, name: str, count: _Count, future: Future[StatsReport]) -> None:
        with self._stats_lock:
            if self._stats_pending.get(name) is count:
                del self._stats_pending[name]
            if future.exception() is None and count.version is not None:  # (counts end in turn: the latest)
                self._stats[name] = (count.version, future.result())

    def tick(self, store: ProgressStore) -> None:
        """End every open round whose time has run out (every few seconds, in the lane)."""
        open_rounds.tick(store, self.lex, self.clock)

    def close(self) -> None:
        """The server is stopping (or a club's member's app is let go): its threads and connections ended. Its
        open rounds are rows of the store: they stay open, to be carried on."""
        if self.launch_file is not None:
            self.launch_file.unlink(missing_ok=True)
        self._stats_closing.set()  # (first: a count whose turn ends while the lane and readers finish is not made)
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
