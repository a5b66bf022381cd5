"""Serving the app: a socket bound and listening before the URL is told, then uvicorn on it."""

from __future__ import annotations

import socket
from typing import Callable

from lexitrain.errors import LexitrainError
from lexitrain.web.context import Context

LOCAL = "127.0.0.1"


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
    return sock


def url(sock: socket.socket, ctx: Context, host: str) -> str:
    """The link to open: the app's address with the launch's key."""
    port = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/?key={ctx.secret}"


def serve(ctx: Context, sock: socket.socket, on_ready: Callable[[], None] | None = None) -> None:
    """Run the app on the socket until interrupted (every open round is saved as it stops)."""
    import uvicorn

    from lexitrain.web.app import create_app

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if on_ready is not None and self.started:
                on_ready()

    config = uvicorn.Config(create_app(ctx), log_level="warning", access_log=False, lifespan="on")
    Server(config).run(sockets=[sock])
