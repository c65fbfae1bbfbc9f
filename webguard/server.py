"""Serving an app with uvicorn as the kiosk and the club director do: the limits and time-outs (`gamao run`,
`gamao director`), and a background server thread (tests, bench, `gamao demo`).

What a network client can hold, and for how long (docs/CONTRACTS.md, "Limits"):

- a connection must deliver a complete request head within `HEADER_TIMEOUT` seconds, whether it has sent
  nothing, half a header, or is idle between requests (uvicorn alone has no such time-out: idle half-sent
  connections used to exhaust the process's 1024 file descriptors);
- at most `MAX_PER_CLIENT` open connections (HTTP or WebSocket) per client (an IPv4 address or an IPv6 /64)
  and `MAX_CONNECTIONS` from the network in all; more are closed at once, before anything is read. The
  process's open-files limit is raised to fit them (`open_files_for`; a Pi's services start at 1,024), else
  the cap is lowered to what fits, with one log line. A
  connection is counted while it is open and released when it closes, a WebSocket's too (uvicorn hands the
  socket to the WebSocket protocol, whose close the h11 protocol never hears: issue 34 finding 1, where closed
  WebSockets stayed counted until every new connection was refused);
- the owner's own screen (a loopback client, unless loopback is the trusted proxy) is never refused for the
  network's connections: it has its own `MAX_PER_CLIENT` and does not count towards `MAX_CONNECTIONS`;
- request heads at most 16 KiB (h11), bodies at most the app's limit (webguard/body.py, checked before
  reading), WebSocket messages at most `WS_MAX_MESSAGE` bytes (the pages send almost nothing), no compression.
"""

from __future__ import annotations

import asyncio
import logging
import resource
import socket
import threading
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any

import h11
import uvicorn
import uvicorn.config
from fastapi import FastAPI
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.utils import get_remote_addr

from webguard.clients import client_key, is_loopback

# The sans-I/O websockets implementation where this uvicorn has it (the legacy one is deprecated).
WS = "websockets-sansio" if "websockets-sansio" in getattr(uvicorn.config, "WS_PROTOCOLS", {}) else "auto"
try:
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
except ImportError:  # pragma: no cover - an older uvicorn
    WebSocketsSansIOProtocol = None  # type: ignore[assignment,misc]

HEADER_TIMEOUT = 10.0
KEEP_ALIVE = 5
MAX_PER_CLIENT = 64
MAX_CONNECTIONS = 1024  # the network's: 253 phones of a club's /24 holding the page open (2 WebSockets each)
RESERVE_FILES = 256     # file descriptors kept for the owner's screen, the journal, the engine's pipes, logs
MAX_HEAD = 16 * 1024
WS_MAX_MESSAGE = 4096

log = logging.getLogger(__name__)


class Connections:
    """The open connections of one server, per client: `admit` when a connection is made (False: refuse it),
    `release` when it closes. Shared by the server's HTTP and WebSocket protocols (config.gamao_connections)."""

    def __init__(self, max_per_client: int = MAX_PER_CLIENT, max_connections: int = MAX_CONNECTIONS,
                 owners: Callable[[str], bool] = is_loopback) -> None:
        self.max_per_client = max_per_client
        self.max_connections = max_connections
        self.owners = owners
        self.open: dict[str, set[asyncio.BaseTransport]] = {}
        self._who: dict[asyncio.BaseTransport, tuple[str, bool]] = {}  # each open transport's client and owner
        self.remote = 0       # open connections of clients that are not the owner
        self.refused = 0      # connections closed at once (per-client or total cap)
        self.most_remote = 0  # the most network connections open at once (tests and bench)

    def _full(self, key: str, owner: bool) -> bool:
        return len(self.open.get(key, ())) >= self.max_per_client or (not owner and self.remote >= self.max_connections)

    def admit(self, host: str, transport: asyncio.BaseTransport) -> bool:
        owner = self.owners(host)
        key = client_key(host)
        if self._full(key, owner):
            self._prune()  # a transport whose close was missed must not hold a place
            if self._full(key, owner):
                self.refused += 1
                return False
        self.open.setdefault(key, set()).add(transport)
        self._who[transport] = (key, owner)
        if not owner:
            self.remote += 1
            self.most_remote = max(self.most_remote, self.remote)
        return True

    def release(self, transport: asyncio.BaseTransport) -> None:
        who = self._who.pop(transport, None)
        if who is None:
            return
        key, owner = who
        mine = self.open.get(key)
        if mine is not None:
            mine.discard(transport)
            if not mine:
                del self.open[key]
        if not owner:
            self.remote -= 1

    def count(self) -> int:
        return len(self._who)

    def _prune(self) -> None:
        for t in [t for t in self._who if t.is_closing()]:
            self.release(t)


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a request-head time-out and the server's connection counting."""

    def __init__(self, config: uvicorn.Config, server_state: Any, app_state: dict[str, Any],
                 _loop: asyncio.AbstractEventLoop | None = None) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.header_timeout = float(getattr(config, "gamao_header_timeout", HEADER_TIMEOUT))
        connections = getattr(config, "gamao_connections", None)
        if connections is None:
            connections = config.gamao_connections = Connections()  # type: ignore[attr-defined]
        self.guard: Connections = connections
        self._head_timer: asyncio.TimerHandle | None = None
        self._cycle_at_arm: object | None = None
        self._upgraded = False
        self._peer = "?"
        self._admitted = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        peer = get_remote_addr(transport)
        self._peer = peer[0] if peer else "?"
        if not self.guard.admit(self._peer, transport):
            # Refused before anything is read: no log line per connection (a flood would fill the disk).
            transport.abort()
            return
        self._admitted = True
        self._arm()

    def _release(self) -> None:
        if self._admitted:
            self._admitted = False
            self.guard.release(self.transport)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._release()
        super().connection_lost(exc)

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        # From here the WebSocket protocol owns the transport (it has its own ping time-out) and hears its
        # close: it counts against the client's connections until then, and releases it then.
        self._upgraded = True
        self._disarm()
        super().handle_websocket_upgrade(event)
        socket_protocol = self.transport.get_protocol()
        if socket_protocol is not self:
            lost = socket_protocol.connection_lost

            def connection_lost(exc: Exception | None) -> None:
                self._release()
                lost(exc)

            socket_protocol.connection_lost = connection_lost  # type: ignore[method-assign]
        elif self.transport.is_closing():
            self._release()

    def _arm(self) -> None:
        self._cycle_at_arm = self.cycle
        self._head_timer = self.loop.call_later(self.header_timeout, self._head_check)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_check(self) -> None:
        self._head_timer = None
        if self._upgraded or self.transport is None or self.transport.is_closing():
            return
        waiting_for_head = self.conn.their_state is h11.IDLE
        busy = self.cycle is not None and not self.cycle.response_complete
        if waiting_for_head and not busy and self.cycle is self._cycle_at_arm:
            # No request head completed during a whole period: nothing, half a header, or idle.
            self.transport.close()
            return
        self._arm()


if WebSocketsSansIOProtocol is not None:
    class QuietWebSocketProtocol(WebSocketsSansIOProtocol):
        """A text message that is not UTF-8 closes the connection (1007) with one log line: uvicorn logs
        a traceback for it."""

        def send_receive_event_to_app(self) -> None:
            if self.curr_msg_data_type == "text" and not self.close_sent:
                try:
                    b"".join(self.frames).decode()
                except UnicodeDecodeError:
                    self.frames = []
                    self.logger.warning("WebSocket closed: a text message that is not UTF-8")
                    self.conn.send_close(1007)
                    self.handle_parser_exception()
                    return
            super().send_receive_event_to_app()

    WS_PROTOCOL: Any = QuietWebSocketProtocol
else:  # pragma: no cover
    WS_PROTOCOL = WS


def open_files_for(connections: int) -> int:
    """Raise the process's soft open-files limit towards `connections` + `MAX_PER_CLIENT` + `RESERVE_FILES` (up
    to the hard limit) and return how many network connections fit in it."""
    want = connections + MAX_PER_CLIENT + RESERVE_FILES
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft != resource.RLIM_INFINITY and soft < want:
            soft = want if hard == resource.RLIM_INFINITY else min(want, hard)
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    except (OSError, ValueError):
        return connections
    if soft == resource.RLIM_INFINITY:
        return connections
    return max(16, min(connections, soft - MAX_PER_CLIENT - RESERVE_FILES))


def uvicorn_config(app: FastAPI, host: str, port: int, log_level: str = "info", *,
                   header_timeout: float = HEADER_TIMEOUT, max_per_client: int = MAX_PER_CLIENT,
                   max_connections: int = MAX_CONNECTIONS, trust_proxy: str | None = None,
                   owners: Callable[[str], bool] | None = None, **extra: Any) -> uvicorn.Config:
    """The servers' uvicorn settings: time-outs and limits above (the same for `gamao run`, `gamao director`,
    demo and tests). `owners(host)`: True for the owner's own screen, never refused for the network's
    connections (default: loopback, unless loopback is the trusted proxy).

    Proxy headers (X-Forwarded-For, X-Forwarded-Proto) are believed only from `trust_proxy` (comma-separated
    addresses of a reverse proxy), never by default: uvicorn's own default believes any client on 127.0.0.1,
    so behind a proxy on the same machine every client could name itself (webguard.pin counts wrong PINs by
    address, and never counts the owner's loopback)."""
    config = uvicorn.Config(app, host=host, port=port, log_level=log_level, ws=WS_PROTOCOL,
                            proxy_headers=trust_proxy is not None, forwarded_allow_ips=trust_proxy or "",
                            http=GuardedH11Protocol,
                            timeout_keep_alive=KEEP_ALIVE, h11_max_incomplete_event_size=MAX_HEAD,
                            ws_max_size=WS_MAX_MESSAGE, ws_max_queue=4, ws_per_message_deflate=False,
                            ws_ping_interval=20.0, ws_ping_timeout=20.0, **extra)
    config.gamao_header_timeout = header_timeout  # type: ignore[attr-defined]
    fits = open_files_for(max_connections)
    if fits < max_connections:
        log.warning("only %d open files allowed: at most %d network connections (not %d)",
                    fits + MAX_PER_CLIENT + RESERVE_FILES, fits, max_connections)
        max_connections = fits
    proxies = {p.strip() for p in (trust_proxy or "").split(",")}
    proxied_loopback = any(is_loopback(p) for p in proxies) or "*" in proxies

    def loopback_owner(host: str) -> bool:
        return not proxied_loopback and is_loopback(host)

    config.gamao_connections = Connections(  # type: ignore[attr-defined]
        max_per_client, max_connections, owners or loopback_owner)
    return config


def serve(app: FastAPI, host: str, port: int, log_level: str = "info") -> None:
    """Serve in the foreground until stopped (`gamao run`, `gamao director`)."""
    uvicorn.Server(uvicorn_config(app, host, port, log_level)).run()


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


class BackgroundServer:
    """`with BackgroundServer(app) as srv: srv.url` -- a real HTTP/WebSocket server on 127.0.0.1;
    `srv.connections` counts its open connections."""

    def __init__(self, app: FastAPI, host: str = "127.0.0.1", port: int = 0, log_level: str = "warning",
                 before_run: Callable[[], None] | None = None, **limits: Any) -> None:
        """`before_run` is called in the server's own thread before it binds (a test serves inside a network
        namespace of its own: tests/kiosk/netns.py); `port` must then be given."""
        self.host = host
        self.port = port or free_port(host)
        config = uvicorn_config(app, host, self.port, log_level, lifespan="on", timeout_graceful_shutdown=2,
                                **limits)
        self.server = uvicorn.Server(config)
        self.connections: Connections = config.gamao_connections  # type: ignore[attr-defined]
        self._before_run = before_run
        self.thread = threading.Thread(target=self._run, name="gamao-uvicorn", daemon=True)

    def _run(self) -> None:
        if self._before_run is not None:
            self._before_run()
        self.server.run()

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self, timeout: float = 15.0) -> BackgroundServer:
        self.thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if not self.thread.is_alive():
                raise RuntimeError(f"the server could not start on {self.host}:{self.port}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"the server did not start within {timeout:.0f} s")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)

    def __enter__(self) -> BackgroundServer:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()
