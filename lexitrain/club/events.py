"""Table events to the WebSockets of one `serve` process, whichever process stored them, and sessions
ended (a logout, a password reset or a member's own change, a removal) to the sockets they opened.

On PostgreSQL every event and every ended session is NOTIFYed in the transaction that stores it
(`club.store.shared_walls.announce`), and each process LISTENs on one connection of its own: a notice
reaches every process when it is committed, and each hands it to its own sockets. SQLite has no LISTEN:
the route that stored a notice hands it to its own process's sockets after the commit, and every process
looks, every POLL_SECONDS on a connection of its own, whether anything was committed to the club's file
(`PRAGMA data_version`); if so, and a table has a newer event, its sockets read what they have not sent
(as after a lost LISTEN), and a socket whose session no longer stands is closed. So on SQLite too several
processes serve one club's shared walls, an event reaching another process's sockets within about
POLL_SECONDS. A socket that connects late first reads the events it missed from the database; and when
the LISTEN connection is lost (the server restarted), every socket reads again, once the process listens
anew, what was committed meanwhile (and whether its session still stands), so no event is lost on the
way. An event seen twice (read and heard) is sent once.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from lexitrain.club.store import ClubDatabase
from lexitrain.club.store.shared_walls import CHANNEL

#: What a seat's queue is handed besides an event: read the table again (the process listens anew, after
#: a lost connection), or close (the socket's session ended).
CATCH_UP = "catch up"
ENDED = "ended"
Notice = dict[str, Any] | str
LOG = logging.getLogger(__name__)
#: How often a process on SQLite looks for what other processes committed.
POLL_SECONDS = 0.2


@dataclass(eq=False)
class Seat:
    """One socket at a table: whose session it is (its token's digest) and the queue its handler drains."""

    table: int
    member: int
    session: str
    queue: asyncio.Queue[Notice] = field(default_factory=asyncio.Queue)


class Hubs:
    """The hubs of the apps this process serves over one database (one, but for tests' several clients)."""

    def __init__(self, db: ClubDatabase) -> None:
        self.db = db
        self.live: list[Hub] = []

    def committed(self, notice: dict[str, Any] | None) -> None:
        """A notice (an event, a session ended) this process stored, now committed: SQLite's only way out
        (PostgreSQL's comes by NOTIFY)."""
        if notice is not None and not self.db.postgres:
            for hub in list(self.live):
                hub.deliver(notice)


class Hub:
    """One app's seats, per table, on the app's event loop."""

    def __init__(self, db: ClubDatabase, clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.clock = clock
        self._seats: dict[int, set[Seat]] = {}
        self._listener: threading.Thread | None = None
        self._stop = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._listened = 0

    def seat(self, table_id: int, member_id: int, session: str) -> Seat:
        taken = Seat(table_id, member_id, session)
        self._seats.setdefault(table_id, set()).add(taken)
        return taken

    def leave(self, seat: Seat) -> None:
        seated = self._seats.get(seat.table, set())
        seated.discard(seat)
        if not seated:
            self._seats.pop(seat.table, None)

    def deliver(self, notice: dict[str, Any]) -> None:
        """Hand a notice to this hub's sockets it concerns (from any thread)."""
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._deliver, notice)

    def _deliver(self, notice: dict[str, Any]) -> None:
        ended = notice.get("ended")
        if isinstance(ended, dict):
            for seated in self._seats.values():
                for seat in seated:
                    if (seat.member == ended.get("member") and seat.session != ended.get("kept")
                            or seat.session == ended.get("session")):
                        seat.queue.put_nowait(ENDED)
            return
        for seat in self._seats.get(int(notice["table"]), ()):
            seat.queue.put_nowait(notice)

    def _catch_up(self) -> None:
        for seated in self._seats.values():
            for seat in seated:
                seat.queue.put_nowait(CATCH_UP)

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        ready = threading.Event()
        listen = self._listen if self.db.pool is not None else self._poll
        self._listener = threading.Thread(target=listen, args=(ready,), name="lexitrain-events", daemon=True)
        self._listener.start()
        await asyncio.get_running_loop().run_in_executor(None, ready.wait, 30)

    async def stop(self) -> None:
        self._stop.set()
        if self._listener is not None:
            await asyncio.get_running_loop().run_in_executor(None, self._listener.join, 5)
        self._loop = None

    def _listen(self, ready: threading.Event) -> None:
        """LISTEN on one connection of the process's pool, held while the app runs (listening again if the
        server drops it, and then every socket catches up on what was committed meanwhile)."""
        assert self.db.pool is not None
        for payload in self.db.pool.notifications(CHANNEL, self._stop, on_listening=lambda: self._listening(ready)):
            self.deliver(json.loads(payload))

    def _poll(self, ready: threading.Event) -> None:
        """SQLite: look every POLL_SECONDS for a commit of any process (see the module's docstring), on this
        thread's own connection to the club's file (`PRAGMA data_version` compares only on one connection)."""
        with self.db.reading() as store:
            seen, newest = store.data_version(), store.newest_event()
        ready.set()
        while not self._stop.wait(POLL_SECONDS):
            try:
                with self.db.reading() as store:
                    commits = store.data_version()
                    if commits == seen:
                        continue
                    seen = commits
                    latest = store.newest_event()
                    sessions = sorted({seat.session for seated in list(self._seats.values()) for seat in list(seated)})
                    live = store.live_sessions(sessions, self.clock()) if sessions else set()
            except sqlite3.Error as exc:  # (the file busy past its timeout, say: looked at again next time)
                LOG.warning("shared walls: could not look for other processes' events: %s", exc)
                continue
            if latest != newest and self._loop is not None:
                newest = latest
                self._loop.call_soon_threadsafe(self._catch_up)
            for session in sessions:
                if session not in live:
                    self.deliver({"ended": {"session": session}})

    def _listening(self, ready: threading.Event) -> None:
        self._listened += 1
        if self._listened == 1:
            ready.set()
        elif self._loop is not None:
            self._loop.call_soon_threadsafe(self._catch_up)
