"""Serving the club: the socket bound first (a one-line error if it cannot be), then uvicorn on it."""

from __future__ import annotations

import socket
from typing import Callable, Sequence

from lexitrain.club.app import Club, create_app
from lexitrain.web.server import listen, slow_clients_bounded

__all__ = ["listen", "serve"]

#: Connections served at once (a club's members, their tables' sockets, and a proxy's own).
CONNECTIONS = 1000
#: The largest WebSocket message taken (the page sends none on a table's socket: `club.app`).
WEBSOCKET_MESSAGE = 4096


def serve(club: Club, host: str, port: int, on_ready: Callable[[str], None], trusted_proxies: Sequence[str] = ()) -> None:
    """Run the club's app until interrupted; `on_ready` is told the address once it listens. A client's address
    (what the login throttle counts) is the connection's own, unless it comes from one of TRUSTED_PROXIES
    (addresses or networks, `lexitrain serve --trusted-proxy`): then its X-Forwarded-For and -Proto are believed.
    (uvicorn's default believed them from 127.0.0.1, so any program on the machine could name any address.)"""
    import uvicorn

    sock = listen(host, port)
    bound = sock.getsockname()[1]

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if self.started:
                on_ready(f"http://{host}:{bound}/")

    config = uvicorn.Config(create_app(club), log_level="warning", access_log=False, lifespan="on",
                            proxy_headers=bool(trusted_proxies), forwarded_allow_ips=list(trusted_proxies) or None,
                            ws_max_size=WEBSOCKET_MESSAGE, **slow_clients_bounded(CONNECTIONS))
    Server(config).run(sockets=[sock])
