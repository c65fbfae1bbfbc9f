"""The request body's limit and the one shape of every refusal (the kiosk's app and the director's).

- `BodyLimit`: a body larger than `max_body` is refused with 413 before it is read (Content-Length) or as soon
  as it grows past the limit (chunked); a body that does not arrive within `timeout` seconds gets 408.
- `error_body`: the one shape of every refusal, `{"detail": ..., "message": "one line naming the field"}`
  (docs/CONTRACTS.md, "Errors").
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

BODY_TIMEOUT = 10.0


def error_body(detail: Any, message: str | None = None) -> dict[str, Any]:
    if message is None:
        if isinstance(detail, dict) and "message" in detail:
            field = detail.get("field")
            message = f"{field}: {detail['message']}" if field else str(detail["message"])
        else:
            message = str(detail)
    return {"detail": detail, "message": message}


async def _refuse(send: Send, status: int, message: str) -> None:
    body = json.dumps(error_body(message)).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


class BodyLimit:
    """ASGI middleware: `app.add_middleware(BodyLimit, max_body=..., who="the kiosk")`; `who` names the server
    in the 413's message."""

    def __init__(self, app: ASGIApp, max_body: int, timeout: float = BODY_TIMEOUT, who: str = "the server") -> None:
        self.app = app
        self.max_body = max_body
        self.timeout = timeout
        self.who = who

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_big = f"the request body is larger than {self.who} accepts ({self.max_body} bytes)"
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
