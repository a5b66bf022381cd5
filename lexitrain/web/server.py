"""Serving the app: a socket bound and listening before the URL is told, then uvicorn on it.

The link with the launch's key never goes on a command line (any local user
reads those with `ps`): the browser is handed a launch file instead, as
Jupyter does, readable by the player alone, that sends it on to the link.
A connection that sends no request head within HEAD_SECONDS is closed, as is
one idle past KEEP_ALIVE_SECONDS, a head is at most HEAD_BYTES, and at most CONNECTIONS are served at
once; stopping waits at most STOP_SECONDS for the requests under way (the club's server the same:
`slow_clients_bounded`).
"""

from __future__ import annotations

import asyncio
import os
import socket
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from lexitrain.errors import LexitrainError
from lexitrain.web.context import Context

if TYPE_CHECKING:
    import uvicorn

LOCAL = "127.0.0.1"
HEAD_SECONDS = 10.0
KEEP_ALIVE_SECONDS = 5
#: The largest request head taken (h11's bound on what it buffers before a head is complete).
HEAD_BYTES = 16 * 1024
CONNECTIONS = 100
#: How long stopping waits for requests still being answered (a sheet being made is abandoned).
STOP_SECONDS = 5
LAUNCH_FILE = "web-launch-{pid}.html"


def listen(host: str, port: int) -> socket.socket:
    """A listening socket (port 0: any free one), or a one-line error saying why not."""
    if not 0 <= port <= 65535:
        raise LexitrainError(f"--port {port}: expected 0 (any free port) to 65535")
    if not host.strip():  # the empty address is every network, the opposite of what a blank suggests
        raise LexitrainError("--host '': give an address, e.g. 127.0.0.1 (this machine) or 0.0.0.0 (every network)")
    try:
        sock = socket.create_server((host, port), family=socket.AF_INET6 if ":" in host else socket.AF_INET)
    except OSError as exc:
        raise LexitrainError(f"cannot listen on {host}:{port} ({exc.strerror or exc})") from None
    # Every connection it accepts sends at once (Linux hands TCP_NODELAY down to them): without it a
    # response written in two parts waits for the browser's delayed ACK, 40 ms on every request that
    # reuses a connection.
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def address(sock: socket.socket, host: str) -> str:
    """The app's address as a browser writes it in the Host header (HOST as the link shows it)."""
    port = sock.getsockname()[1]
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def hosts(sock: socket.socket, host: str) -> frozenset[str]:
    """The Host headers the app answers: its address, and `localhost` for the loopback one."""
    names = {address(sock, host)}
    if host == LOCAL:
        names.add(address(sock, "localhost"))
    return frozenset(names)


def url(sock: socket.socket, ctx: Context, host: str) -> str:
    """The link to open: the app's address with the launch's key."""
    return f"http://{address(sock, host)}/?key={ctx.secret}"


def write_launch_file(folder: Path, link: str) -> Path:
    """A page only the player can read that sends the browser on to the link (the key stays off every
    command line: the browser is started with this file's name)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / LAUNCH_FILE.format(pid=os.getpid())
    shown = escape(link, quote=True)
    text = (f'<!doctype html>\n<html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url={shown}">'
            f'<title>lexitrain</title></head>\n<body><p>Opening lexitrain: <a href="{shown}">{shown}</a></p>'
            "</body></html>\n")
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        os.fchmod(descriptor, 0o600)  # a file left by an earlier launch keeps its mode otherwise
        os.write(descriptor, text.encode())
    finally:
        os.close(descriptor)
    return path


def serve(ctx: Context, sock: socket.socket, on_ready: Callable[[], None] | None = None) -> None:
    """Run the app on the socket until interrupted (every open round is saved as it stops)."""
    server(ctx, on_ready).run(sockets=[sock])


def server(ctx: Context, on_ready: Callable[[], None] | None = None) -> uvicorn.Server:
    """The app's uvicorn server, ready to run on a socket (ON_READY is called once it listens)."""
    import uvicorn

    from lexitrain.web.app import create_app

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if on_ready is not None and self.started:
                on_ready()

    config = uvicorn.Config(create_app(ctx), log_level="warning", access_log=False, lifespan="on",
                            **slow_clients_bounded(CONNECTIONS))
    return Server(config)


def slow_clients_bounded(connections: int) -> dict[str, Any]:
    """uvicorn's settings (both faces) bounding what a slow or idle client holds: the request head timed
    (HEAD_SECONDS, which uvicorn does not do) and bounded (HEAD_BYTES), an idle connection closed after
    KEEP_ALIVE_SECONDS, at most CONNECTIONS served at once (503 past them). A body is bounded and timed by
    the edge (`web.edge`)."""
    return {"http": _timed_heads(), "timeout_keep_alive": KEEP_ALIVE_SECONDS, "limit_concurrency": connections,
            "timeout_graceful_shutdown": STOP_SECONDS, "h11_max_incomplete_event_size": HEAD_BYTES}


def _timed_heads() -> type:
    """uvicorn's HTTP/1.1, closing a connection whose request head has not come in HEAD_SECONDS."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class TimedHeads(H11Protocol):
        head_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._wait_for_head()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.cycle is not None and not self.cycle.response_complete:  # the head is in
                self._head_in()
            else:
                self._wait_for_head()

        def connection_lost(self, exc: Exception | None) -> None:
            self._head_in()
            super().connection_lost(exc)

        def _wait_for_head(self) -> None:
            if self.head_timer is None:
                self.head_timer = self.loop.call_later(HEAD_SECONDS, self._too_slow)

        def _head_in(self) -> None:
            if self.head_timer is not None:
                self.head_timer.cancel()
                self.head_timer = None

        def _too_slow(self) -> None:
            self.head_timer = None
            upgraded = self.transport.get_protocol() is not self  # (a WebSocket now: its protocol's own)
            if not upgraded and (self.cycle is None or self.cycle.response_complete) and not self.transport.is_closing():
                self.transport.close()

    return TimedHeads
