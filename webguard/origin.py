"""Another site's page may not change anything nor open a WebSocket.

- `same_origin(origin, host)`: True when there is no Origin (not a browser page) or it names the host the page
  was reached at; a foreign page and ``null`` (a sandboxed or file page) are refused.
- `OriginGuard`: ASGI middleware refusing (403) every state-changing request (POST, PUT, PATCH, DELETE) that a
  browser marks as another site's: an Origin other than the Host, ``Origin: null``, or ``Sec-Fetch-Site:
  cross-site``. A body-less POST (a cross-site ``<form>`` needs no body and no preflight) is refused the same.
  A client that is not a browser sends neither header and is judged by the PIN alone.
"""

from __future__ import annotations

import json
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

SAFE = frozenset({"GET", "HEAD", "OPTIONS"})


def same_origin(origin: str | None, host: str | None) -> bool:
    if origin is None:
        return True
    if not host:
        return False
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.strip().lower()


def foreign(headers: dict[str, str]) -> str | None:
    """Why a request with these (lower-case) headers comes from another site's page, or None."""
    origin = headers.get("origin")
    if origin is not None and not same_origin(origin, headers.get("host")):
        return f"a page of another site ({origin[:80]!r}) may not change anything here"
    if headers.get("sec-fetch-site", "").strip().lower() == "cross-site":
        return "a page of another site may not change anything here"
    return None


class OriginGuard:
    """`app.add_middleware(OriginGuard)`: 403 for a state-changing request from another site's page."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.refused = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope.get("method", "GET") not in SAFE:
            headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope.get("headers", ())}
            why = foreign(headers)
            if why is not None:
                self.refused += 1
                body = json.dumps({"detail": why, "message": why}).encode()
                await send({"type": "http.response.start", "status": 403,
                            "headers": [(b"content-type", b"application/json"),
                                        (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)
