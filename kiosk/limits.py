"""Request limits inside the app (so TestClient, demo and `gamao run` all have them) and the 4xx shape.

- `BodyLimit`: a body larger than `MAX_BODY` is refused with 413 before it is read (Content-Length) or as
  soon as it grows past the limit (chunked); a body that does not arrive within `BODY_TIMEOUT` seconds
  gets 408. The body is read here, before routing, so the PIN check never waits for a large upload.
- Every refusal has the same shape: `{"detail": ..., "message": "one line naming the field"}` (see
  docs/CONTRACTS.md, "Errors").
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY = 64 * 1024
BODY_TIMEOUT = 10.0


def error_body(detail: Any, message: str | None = None) -> dict[str, Any]:
    if message is None:
        if isinstance(detail, dict) and "message" in detail:
            field = detail.get("field")
            message = f"{field}: {detail['message']}" if field else str(detail["message"])
        else:
            message = str(detail)
    return {"detail": detail, "message": message}


async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
    return JSONResponse(error_body(exc.detail), status_code=exc.status_code, headers=getattr(exc, "headers", None))


async def _refuse(send: Send, status: int, message: str) -> None:
    body = json.dumps(error_body(message)).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


class BodyLimit:
    def __init__(self, app: ASGIApp, max_body: int | None = None, timeout: float | None = None) -> None:
        self.app = app
        self.max_body = MAX_BODY if max_body is None else max_body
        self.timeout = BODY_TIMEOUT if timeout is None else timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_big = f"the request body is larger than the kiosk accepts ({self.max_body} bytes)"
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    length = int(value)
                except ValueError:
                    await _refuse(send, 400, "the Content-Length header is not a number")
                    return
                if length > self.max_body:
                    await _refuse(send, 413, too_big)
                    return
        chunks: list[bytes] = []
        size = 0
        try:
            async with asyncio.timeout(self.timeout):
                while True:
                    message = await receive()
                    if message["type"] != "http.request":
                        return  # the client went away
                    chunk = message.get("body", b"")
                    size += len(chunk)
                    if size > self.max_body:
                        await _refuse(send, 413, too_big)
                        return
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            await _refuse(send, 408, f"the request body did not arrive within {self.timeout:.0f} s")
            return
        body = b"".join(chunks)
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)
