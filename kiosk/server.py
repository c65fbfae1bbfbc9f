"""Run the kiosk app under uvicorn in a background thread (tests, bench, and `gamao demo`)."""

from __future__ import annotations

import socket
import threading
import time
from types import TracebackType

import uvicorn
import uvicorn.config
from fastapi import FastAPI

# The sans-I/O websockets implementation where this uvicorn has it (the legacy one is deprecated).
WS = "websockets-sansio" if "websockets-sansio" in getattr(uvicorn.config, "WS_PROTOCOLS", {}) else "auto"


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


class BackgroundServer:
    """`with BackgroundServer(app) as srv: srv.url` -- a real HTTP/WebSocket server on 127.0.0.1."""

    def __init__(self, app: FastAPI, host: str = "127.0.0.1", port: int = 0, log_level: str = "warning") -> None:
        self.host = host
        self.port = port or free_port(host)
        config = uvicorn.Config(app, host=host, port=self.port, log_level=log_level, ws=WS,
                                lifespan="on", timeout_graceful_shutdown=2)
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
