"""What the routes receive: the service Protocol the kiosk talks to, the camera, the PIN guard.

The referee service (kiosk/service.py) implements `KioskService`; tests and the demo may hand `create_app`
any object with these methods. Everything the routers need from the rest of the system goes through here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Protocol, runtime_checkable

from fastapi import Depends, HTTPException, Request
from fastapi.security import APIKeyHeader

from kiosk.config import Settings
from webguard.clients import client_host, is_loopback
from webguard.pin import PinStore, check_http

State = dict[str, Any]
Unsubscribe = Callable[[], None]


@runtime_checkable
class KioskService(Protocol):
    """The referee service as the kiosk sees it.

    - `state()` returns `Referee.public_state()` (docs/CONTRACTS.md).
    - `subscribe(callback)` calls `callback(state)` after every change, from any thread; returns an
      unsubscribe function.
    - `submit(event)` feeds one event (CONTRACTS.md event shapes) and returns the verdicts; raises
      ValueError with a plain message when the event cannot apply now.
    - `export(match_id, fmt)` returns the match as .mat or .sgf text ("current" = the match being played);
      raises KeyError for an unknown match.
    """

    def state(self) -> State: ...
    def subscribe(self, callback: Callable[[State], None]) -> Unsubscribe: ...
    def submit(self, event: dict[str, Any]) -> list[dict[str, Any]]: ...
    def export(self, match_id: str, fmt: str) -> str: ...


@runtime_checkable
class CalibrationSource(Protocol):
    """The camera as the calibration page sees it.

    - `frame_jpeg()`: the latest camera frame as JPEG bytes, or None before the first frame.
    - `overlay()`: {"width", "height", "corners": [[x, y] x4] | None,
                    "points": [{"point": n, "x", "y", "side", "count", "sure", "level"}],
                    "learnt": {"from", "light", "dark", "points": [{"point", "empty", "sure", "level"}]} (issue 33),
                    "markers": {"found": [...], "missing": [...], "note": optional text instead of the check,
                                "note_key": "clicked" | "markers" | "not_found" | "simulated", the note's key
                                for the page's words}}
    - `set_corners(corners)`: store four clicked corners (image pixels, order: top-left, top-right,
      bottom-right, bottom-left) and return the new overlay; ValueError if they cannot make a board.
    - `learn(board)`: learn this board from the latest frame, which shows `board` ("start" or "empty"), and
      return the new overlay; ValueError (with `message` {"pt", "en"} where it has one) if it cannot.
    """

    def frame_jpeg(self) -> bytes | None: ...
    def overlay(self) -> dict[str, Any]: ...
    def set_corners(self, corners: list[tuple[float, float]]) -> dict[str, Any]: ...
    def learn(self, board: str) -> dict[str, Any]: ...


pin_header = APIKeyHeader(name="X-Gamao-PIN", auto_error=False,
                          description="The kiosk's control PIN (set once with POST /api/pin).")


def get_settings(request: Request) -> Settings:
    return request.app.state.settings


def get_service(request: Request) -> KioskService:
    service = getattr(request.app.state, "service", None)
    if service is None:
        raise HTTPException(503, "the referee service is not running yet")
    return service


def get_camera(request: Request) -> CalibrationSource:
    camera = getattr(request.app.state, "camera", None)
    if camera is None:
        raise HTTPException(404, "no camera is connected to this kiosk")
    return camera


def get_pins(request: Request) -> PinStore:
    return request.app.state.pins


PinHeader = Annotated[str | None, Depends(pin_header)]
ServiceDep = Annotated[KioskService, Depends(get_service)]
CameraDep = Annotated[CalibrationSource, Depends(get_camera)]
PinsDep = Annotated[PinStore, Depends(get_pins)]
SettingsDep = Annotated[Settings, Depends(get_settings)]


def check_pin(pins: PinStore, pin: str | None, request: Request) -> None:
    """The PIN check for this request's client, as an HTTPException (401, or 429 with Retry-After)."""
    check_http(pins, pin, client_host(request))


def require_pin_off_screen(pin: PinHeader, pins: PinsDep, request: Request) -> None:
    """Guard for what the players press at the board (the clock, the coach's buttons): the touch screen (a
    loopback client) presses without the PIN, any other device needs it (401, or 429 while it must wait)."""
    if not is_loopback(client_host(request)):
        check_pin(pins, pin, request)


def require_pin(pin: PinHeader, pins: PinsDep, request: Request) -> None:
    """Guard for every control endpoint: 401 without or with a wrong PIN, 429 while this client must wait."""
    check_pin(pins, pin, request)
