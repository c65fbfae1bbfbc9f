"""Serving the kiosk app with uvicorn: the limits and time-outs (`gamao run`), and a background server thread
(tests, bench, and `gamao demo`).

What a network client can hold, and for how long (docs/CONTRACTS.md, "Limits"):

- a connection must deliver a complete request head within `HEADER_TIMEOUT` seconds, whether it has sent
  nothing, half a header, or is idle between requests (uvicorn alone has no such time-out: idle half-sent
  connections used to exhaust the process's 1024 file descriptors);
- at most `MAX_PER_CLIENT` open connections (HTTP or WebSocket) per client address and `MAX_CONNECTIONS`
  in all; more are closed at once, before anything is read;
- request heads at most 16 KiB (h11), bodies at most `kiosk.limits.MAX_BODY` (checked before reading),
  WebSocket messages at most `WS_MAX_MESSAGE` bytes (the page sends almost nothing), no compression.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
import time
from types import TracebackType
from typing import Any

import h11
import uvicorn
import uvicorn.config
from fastapi import FastAPI
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.utils import get_remote_addr

# The sans-I/O websockets implementation where this uvicorn has it (the legacy one is deprecated).
WS = "websockets-sansio" if "websockets-sansio" in getattr(uvicorn.config, "WS_PROTOCOLS", {}) else "auto"
try:
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
except ImportError:  # pragma: no cover - an older uvicorn
    WebSocketsSansIOProtocol = None  # type: ignore[assignment,misc]

HEADER_TIMEOUT = 10.0
KEEP_ALIVE = 5
MAX_PER_CLIENT = 64
MAX_CONNECTIONS = 512
MAX_HEAD = 16 * 1024
WS_MAX_MESSAGE = 4096

log = logging.getLogger(__name__)


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a request-head time-out and per-client / total connection caps."""

    # transports per client address; shared by every connection of the process, pruned as they close
    _open: dict[str, set[asyncio.BaseTransport]] = {}

    def __init__(self, config: uvicorn.Config, server_state: Any, app_state: dict[str, Any],
                 _loop: asyncio.AbstractEventLoop | None = None) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.header_timeout = float(getattr(config, "gamao_header_timeout", HEADER_TIMEOUT))
        self.max_per_client = int(getattr(config, "gamao_max_per_client", MAX_PER_CLIENT))
        self.max_connections = int(getattr(config, "gamao_max_connections", MAX_CONNECTIONS))
        self._head_timer: asyncio.TimerHandle | None = None
        self._cycle_at_arm: object | None = None
        self._upgraded = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        peer = get_remote_addr(transport)
        host = peer[0] if peer else "?"
        mine = self._open.setdefault(host, set())
        for t in [t for t in mine if t.is_closing()]:
            mine.discard(t)
        total = sum(len(s) for s in self._open.values())
        if len(mine) >= self.max_per_client or total >= self.max_connections:
            # Refused before anything is read: no log line per connection (a flood would fill the disk).
            transport.abort()
            return
        mine.add(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        peer = self.client[0] if self.client else "?"
        mine = self._open.get(peer)
        if mine is not None:
            mine.discard(self.transport)
            if not mine:
                self._open.pop(peer, None)
        super().connection_lost(exc)

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        # From here the WebSocket protocol owns the transport (it has its own ping time-out); it still
        # counts against the client's connections until it closes.
        self._upgraded = True
        self._disarm()
        super().handle_websocket_upgrade(event)

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
    class QuietWebSocketProtocol(WebSocketsSansIOProtocol):  # type: ignore[misc,valid-type]
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


def uvicorn_config(app: FastAPI, host: str, port: int, log_level: str = "info", *,
                   header_timeout: float = HEADER_TIMEOUT, max_per_client: int = MAX_PER_CLIENT,
                   max_connections: int = MAX_CONNECTIONS, trust_proxy: str | None = None,
                   **extra: Any) -> uvicorn.Config:
    """The kiosk's uvicorn settings: time-outs and limits above (the same for `gamao run`, demo and tests).

    Proxy headers (X-Forwarded-For, X-Forwarded-Proto) are believed only from `trust_proxy` (comma-separated
    addresses of a reverse proxy), never by default: uvicorn's own default believes any client on 127.0.0.1,
    so behind a proxy on the same machine every client could name itself (kiosk.pin counts wrong PINs by
    address, and never counts the owner's loopback)."""
    config = uvicorn.Config(app, host=host, port=port, log_level=log_level, ws=WS_PROTOCOL,
                            proxy_headers=trust_proxy is not None, forwarded_allow_ips=trust_proxy or "",
                            http=GuardedH11Protocol,
                            timeout_keep_alive=KEEP_ALIVE, h11_max_incomplete_event_size=MAX_HEAD,
                            ws_max_size=WS_MAX_MESSAGE, ws_max_queue=4, ws_per_message_deflate=False,
                            ws_ping_interval=20.0, ws_ping_timeout=20.0, **extra)
    config.gamao_header_timeout = header_timeout  # type: ignore[attr-defined]
    config.gamao_max_per_client = max_per_client  # type: ignore[attr-defined]
    config.gamao_max_connections = max_connections  # type: ignore[attr-defined]
    return config


def serve(app: FastAPI, host: str, port: int, log_level: str = "info") -> None:
    """Serve in the foreground until stopped (`gamao run`)."""
    uvicorn.Server(uvicorn_config(app, host, port, log_level)).run()


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


class BackgroundServer:
    """`with BackgroundServer(app) as srv: srv.url` -- a real HTTP/WebSocket server on 127.0.0.1."""

    def __init__(self, app: FastAPI, host: str = "127.0.0.1", port: int = 0, log_level: str = "warning",
                 **limits: Any) -> None:
        self.host = host
        self.port = port or free_port(host)
        config = uvicorn_config(app, host, self.port, log_level, lifespan="on", timeout_graceful_shutdown=2,
                                **limits)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name="kiosk-uvicorn", daemon=True)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self, timeout: float = 15.0) -> BackgroundServer:
        self.thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if not self.thread.is_alive():
                raise RuntimeError(f"the kiosk server could not start on {self.host}:{self.port}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"the kiosk server did not start within {timeout:.0f} s")
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
