"""Table events to the WebSockets of one `serve` process, whichever process stored them.

On PostgreSQL every event is NOTIFYed in the transaction that stores it (`club.tables`), and each
process LISTENs on one connection of its own: an event reaches every process when it is committed,
and each hands it to its own sockets seated at that table. On SQLite there is one process, so the
route that stored an event hands it over itself, after the commit. A socket that connects late
first reads the events it missed from the database, so nothing depends on being connected at the
right moment; an event seen twice (the catch-up and the live one) is sent once.
"""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

from lexitrain.club.store import ClubDatabase
from lexitrain.club.store.shared_walls import CHANNEL


class Hubs:
    """The hubs of the apps this process serves over one database (one, but for tests' several clients)."""

    def __init__(self, db: ClubDatabase) -> None:
        self.db = db
        self.live: list[Hub] = []

    def committed(self, event: dict[str, Any]) -> None:
        """An event this process stored, now committed: SQLite's only way out (PostgreSQL's comes by NOTIFY)."""
        if not self.db.postgres:
            for hub in list(self.live):
                hub.deliver(event)


class Hub:
    """One app's subscribers, per table: each an asyncio queue its socket drains, on the app's event loop."""

    def __init__(self, db: ClubDatabase) -> None:
        self.db = db
        self._subscribers: dict[int, set[asyncio.Queue[dict[str, Any]]]] = {}
        self._listener: threading.Thread | None = None
        self._stop = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None

    def subscribe(self, table_id: int) -> asyncio.Queue[dict[str, Any]]:
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._subscribers.setdefault(table_id, set()).add(queue)
        return queue

    def unsubscribe(self, table_id: int, queue: asyncio.Queue[dict[str, Any]]) -> None:
        seated = self._subscribers.get(table_id, set())
        seated.discard(queue)
        if not seated:
            self._subscribers.pop(table_id, None)

    def deliver(self, event: dict[str, Any]) -> None:
        """Hand an event to this hub's sockets at its table (from any thread)."""
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._deliver, event)

    def _deliver(self, event: dict[str, Any]) -> None:
        for queue in self._subscribers.get(int(event["table"]), ()):
            queue.put_nowait(event)

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        if self.db.pool is not None:
            ready = threading.Event()
            self._listener = threading.Thread(target=self._listen, args=(ready,), name="lexitrain-events", daemon=True)
            self._listener.start()
            await asyncio.get_running_loop().run_in_executor(None, ready.wait, 30)

    async def stop(self) -> None:
        self._stop.set()
        if self._listener is not None:
            await asyncio.get_running_loop().run_in_executor(None, self._listener.join, 5)
        self._loop = None

    def _listen(self, ready: threading.Event) -> None:
        """LISTEN on one connection of the process's pool, held while the app runs (listening again if the
        server drops it)."""
        assert self.db.pool is not None
        for payload in self.db.pool.notifications(CHANNEL, self._stop, on_listening=ready.set):
            self.deliver(json.loads(payload))
