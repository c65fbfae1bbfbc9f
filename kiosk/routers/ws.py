"""WebSocket /ws: sends the public state on connect and after every change.

The service calls back from whatever thread changed the state (camera, dice reader, HTTP worker); the
callback only hands the newest state to this connection's event loop. A slow screen skips to the latest
state instead of queueing old ones: the display only ever needs the present.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from kiosk.routers.state import public

router = APIRouter()


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
    await websocket.accept()
    if service is None:
        await websocket.close(code=1013, reason="the referee service is not running yet")
        return
    mailbox = _Latest(asyncio.get_running_loop())
    unsubscribe = service.subscribe(mailbox.put)
    receiver = asyncio.create_task(_drain(websocket))
    try:
        await websocket.send_json(public(service.state()))
        while True:
            getter = asyncio.create_task(mailbox.get())
            done, _ = await asyncio.wait({getter, receiver}, return_when=asyncio.FIRST_COMPLETED)
            if receiver in done:
                getter.cancel()
                break
            await websocket.send_json(public(getter.result()))
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        unsubscribe()
        receiver.cancel()


async def _drain(websocket: WebSocket) -> None:
    """The page sends nothing; reading is how a closed connection is noticed."""
    try:
        while True:
            await websocket.receive_text()
    except (WebSocketDisconnect, RuntimeError):
        return
