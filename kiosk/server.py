"""Serving the kiosk app with uvicorn: the web guard's server (webguard/server.py, the same for the club
director), named here for the kiosk's callers (`gamao run`, `gamao demo`, tests and bench)."""

from __future__ import annotations

from webguard.server import (
    HEADER_TIMEOUT,
    KEEP_ALIVE,
    MAX_CONNECTIONS,
    MAX_HEAD,
    MAX_PER_CLIENT,
    WS_MAX_MESSAGE,
    BackgroundServer,
    Connections,
    GuardedH11Protocol,
    free_port,
    serve,
    uvicorn_config,
)

__all__ = ["HEADER_TIMEOUT", "KEEP_ALIVE", "MAX_CONNECTIONS", "MAX_HEAD", "MAX_PER_CLIENT", "WS_MAX_MESSAGE",
           "BackgroundServer", "Connections", "GuardedH11Protocol", "free_port", "serve", "uvicorn_config"]
