"""WebSocket /ws: sends the public state on connect and after every change.

The service calls back from whatever thread changed the state (camera, dice reader, HTTP worker); the
callback only hands the newest state to this connection's event loop. A slow screen skips to the latest
state instead of queueing old ones: the display only ever needs the present.

Only the kiosk's own pages may connect: a browser's Origin must name the host the page was served from
(the Host header), else the handshake is refused (403) before anything is sent; a client without an
Origin header is not a browser page and cannot be a cross-site one. The page sends nothing, so messages
are capped: one larger than `MAX_MESSAGE` bytes, or more than `MAX_MESSAGES` within `WINDOW` seconds,
closes the connection (1009 / 1008) with a single log line, never a traceback.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from kiosk.routers.state import public
from webguard.origin import same_origin
from webguard.server import WS_MAX_MESSAGE

router = APIRouter()
log = logging.getLogger(__name__)
MAX_MESSAGE = WS_MAX_MESSAGE
MAX_MESSAGES, WINDOW = 32, 10.0


class _Latest:
    """A one-slot mailbox filled from any thread, awaited on the loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._state: dict[str, Any] | None = None
        self._ready = asyncio.Event()

    def put(self, state: dict[str, Any]) -> None:
        self._loop.call_soon_threadsafe(self._set, state)

    def _set(self, state: dict[str, Any]) -> None:
        self._state = state
        self._ready.set()

    async def get(self) -> dict[str, Any]:
        await self._ready.wait()
        self._ready.clear()
        state, self._state = self._state, None
        assert state is not None
        return state


@router.websocket("/ws")
async def push_state(websocket: WebSocket) -> None:
    service = getattr(websocket.app.state, "service", None)
    if await open_page_socket(websocket, "WebSocket", service, "the referee service is not running yet", log):
        await push_latest(websocket, service.subscribe, lambda: public(service.state()), public)


async def open_page_socket(websocket: WebSocket, what: str, service: object | None, missing: str,
                           logger: logging.Logger) -> bool:
    """Refuse another site's page (1008, one log line naming `what`), accept, then close 1013 (`missing`) when
    the service it pushes from is not there. True when the connection is open and the service is there."""
    origin = websocket.headers.get("origin")
    if not same_origin(origin, websocket.headers.get("host")):
        logger.warning("%s from another site refused (Origin %.80r)", what, origin)
        await websocket.close(code=1008)
        return False
    await websocket.accept()
    if service is None:
        await websocket.close(code=1013, reason=missing)
        return False
    return True


async def push_latest(websocket: WebSocket, subscribe: Callable[[Callable[[Any], None]], Callable[[], None]],
                      first: Callable[[], Any], pushed: Callable[[Any], Any]) -> None:
    """Send `first()`, then `pushed(value)` for the newest value each subscriber call brought (a slow screen skips
    the ones it no longer needs), until the page goes or sends too much (see _drain)."""
    mailbox = _Latest(asyncio.get_running_loop())
    unsubscribe = subscribe(mailbox.put)
    receiver = asyncio.create_task(_drain(websocket))
    try:
        await websocket.send_json(first())
        while True:
            getter = asyncio.create_task(mailbox.get())
            done, _ = await asyncio.wait({getter, receiver}, return_when=asyncio.FIRST_COMPLETED)
            if receiver in done:
                getter.cancel()
                break
            await websocket.send_json(pushed(getter.result()))
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        unsubscribe()
        receiver.cancel()


async def _drain(websocket: WebSocket) -> None:
    """The page sends nothing; reading is how a closed connection is noticed. Too much input closes it."""
    stamps: list[float] = []
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            data = message.get("text")
            if data is None:
                data = message.get("bytes") or b""
            if len(data) > MAX_MESSAGE:
                log.warning("WebSocket closed: a message of %d bytes (the limit is %d)", len(data), MAX_MESSAGE)
                await websocket.close(code=1009)
                return
            now = time.monotonic()
            stamps = [t for t in stamps if now - t < WINDOW] + [now]
            if len(stamps) > MAX_MESSAGES:
                log.warning("WebSocket closed: more than %d messages in %.0f s", MAX_MESSAGES, WINDOW)
                await websocket.close(code=1008)
                return
    except (WebSocketDisconnect, RuntimeError):
        return
