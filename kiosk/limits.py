"""Request limits inside the app (so TestClient, demo and `gamao run` all have them) and the 4xx shape.

- `BodyLimit` (webguard/body.py, shared with the director's app): a body larger than `MAX_BODY` is refused with
  413 before it is read (Content-Length) or as soon as it grows past the limit (chunked); a body that does not
  arrive within `BODY_TIMEOUT` seconds gets 408. The body is read here, before routing, so the PIN check never
  waits for a large upload.
- Every refusal has the same shape: `{"detail": ..., "message": "one line naming the field"}` (see
  docs/CONTRACTS.md, "Errors").
"""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp

from webguard import body as guards
from webguard.body import error_body

__all__ = ["BODY_TIMEOUT", "MAX_BODY", "BodyLimit", "error_body", "http_error"]

MAX_BODY = 64 * 1024
BODY_TIMEOUT = 10.0


class BodyLimit(guards.BodyLimit):
    """The kiosk's: `MAX_BODY` bytes within `BODY_TIMEOUT` seconds unless told otherwise."""

    def __init__(self, app: ASGIApp, max_body: int | None = None, timeout: float | None = None) -> None:
        super().__init__(app, MAX_BODY if max_body is None else max_body,
                         BODY_TIMEOUT if timeout is None else timeout, who="the kiosk")


async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
    return JSONResponse(error_body(exc.detail), status_code=exc.status_code, headers=getattr(exc, "headers", None))
