"""Serving the club: the socket bound first (a one-line error if it cannot be), then uvicorn on it."""

from __future__ import annotations

import ipaddress
import socket
import urllib.parse
from typing import Callable, Sequence

from lexitrain.club.app import Club, create_app
from lexitrain.errors import LexitrainError
from lexitrain.web.server import listen, slow_clients_bounded

__all__ = ["check_serving", "listen", "serve"]

#: Connections served at once (a club's members, their tables' sockets, and a proxy's own).
CONNECTIONS = 1000
#: The largest WebSocket message taken (the page sends none on a table's socket: `club.app`).
WEBSOCKET_MESSAGE = 4096


def check_serving(public_url: str | None, trusted_proxies: Sequence[str]) -> None:
    """`serve`'s --public-url and --trusted-proxy, each one line when it is not what it must be: a mistyped one
    was taken and quietly did nothing (no proxy matched "10.0.0.O"; a cookie Secure or not by a stray word)."""
    if public_url is not None:
        parts = urllib.parse.urlsplit(public_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise LexitrainError(f"--public-url {public_url!r}: give the address members use, e.g. "
                                 "https://club.example.org")
    for proxy in trusted_proxies:
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            raise LexitrainError(f"--trusted-proxy {proxy!r}: give an address or a network, e.g. 10.0.0.1 or "
                                 "10.0.0.0/8") from None


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
