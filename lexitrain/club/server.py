"""Serving the club: the socket bound first (a one-line error if it cannot be), then uvicorn on it."""

from __future__ import annotations

import socket
from typing import Callable

from lexitrain.club.app import Club, create_app
from lexitrain.web.server import listen

__all__ = ["listen", "serve"]


def serve(club: Club, host: str, port: int, on_ready: Callable[[str], None]) -> None:
    """Run the club's app until interrupted; `on_ready` is told the address once it listens. Behind a
    reverse proxy, its X-Forwarded-Proto and -For are believed from this machine only (uvicorn's default)."""
    import uvicorn

    sock = listen(host, port)
    bound = sock.getsockname()[1]

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if self.started:
                on_ready(f"http://{host}:{bound}/")

    config = uvicorn.Config(create_app(club), log_level="warning", access_log=False, lifespan="on",
                            proxy_headers=True)
    Server(config).run(sockets=[sock])
