"""Control from the touch screen, all behind the PIN: PIN set-up, match set-up, cube, resignation, corrections,
calibration."""

from __future__ import annotations

import re
from typing import Any

from fastapi import APIRouter, Depends, HTTPException, Request, status

from core.referee.events import EventError, parse_event
from kiosk.dependencies import (
    CameraDep,
    KioskService,
    PinHeader,
    PinsDep,
    ServiceDep,
    SettingsDep,
    check_pin,
    client_host,
    require_pin,
    require_pin_off_screen,
)
from kiosk.pin import FIRST_PIN_LOCAL_ONLY, is_loopback
from kiosk.schemas import (
    CalibrationIn,
    ClockPressIn,
    ControlOut,
    CorrectionIn,
    CubeIn,
    IllegalPlayAnswerIn,
    LearnIn,
    NewMatchIn,
    PinIn,
    ResignationIn,
    TouchMoveIn,
)

REFUSALS: dict[int | str, dict[str, Any]] = {
    401: {"description": "No PIN, or a wrong PIN, in the X-Gamao-PIN header"},
    403: {"description": "The first PIN can be set only at the kiosk itself (touch screen or console)"},
    409: {"description": "The action does not apply now (e.g. no cube to take)"},
    413: {"description": "The body is larger than the kiosk accepts"},
    429: {"description": "Too many wrong PINs from this client: wait (see Retry-After)"},
    503: {"description": "The event could not be recorded (read-only or failing disk); nothing stored was lost"},
    507: {"description": "The event could not be recorded: the disk is full; nothing stored was lost"},
}
router = APIRouter(prefix="/api", tags=["control"], responses=REFUSALS)
guarded = [Depends(require_pin)]


def _submit(service: KioskService, event: dict[str, Any]) -> dict[str, Any]:
    try:
        verdicts = service.submit(event)
    except ValueError as exc:  # a JournalWriteError (disk full, read-only) carries its own status: 507 / 503
        raise HTTPException(getattr(exc, "status", 409), str(exc)) from None
    return {"verdicts": verdicts}


@router.post("/pin", status_code=status.HTTP_204_NO_CONTENT, summary="Set the PIN (first start) or change it")
def set_pin(body: PinIn, pins: PinsDep, current: PinHeader, request: Request) -> None:
    # The first PIN only from the kiosk itself (touch screen = loopback; or `gamao run`'s console);
    # changing it needs the current one.
    if pins.is_set():
        check_pin(pins, current, request)
    elif not is_loopback(client_host(request)):
        raise HTTPException(403, FIRST_PIN_LOCAL_ONLY)
    pins.set(body.pin)


@router.post("/match", response_model=ControlOut, dependencies=guarded, summary="Start a new match")
def new_match(body: NewMatchIn, service: ServiceDep, settings: SettingsDep) -> dict[str, Any]:
    event = {"event": "new_match", **body.model_dump()}
    for key in ("variant", "variant_settings"):  # backgammon's event stays as it was before the variants
        if event[key] is None:
            del event[key]
    name = event.pop("rule_set") or settings.rule_set or None
    given = body.rules.model_dump(exclude_unset=True)
    if name:  # the rule set's settings, then what the request set itself (issue 21)
        event["rules"] = {"rule_set": name, **given}
    else:
        event["rules"] = {k: v for k, v in event["rules"].items() if v is not None or k in given or k == "cube_cap"}
    try:
        parse_event(event)  # the referee's own check of the variant and its settings, before anything is journaled
    except EventError as exc:
        raise HTTPException(422, _field_of(exc.detail)) from None
    return _submit(service, event)


def _field_of(message: str) -> dict[str, str]:
    """The referee's message ('"variant_settings.pins": not a setting of plakoto ...') as the 422's field and
    message ("variant_settings.pins", "not a setting of plakoto ...")."""
    m = re.match(r'^"([^"]+)"[:\s]\s*', message)
    if m is None:
        return {"field": "variant", "message": message}
    return {"field": m.group(1), "message": message[m.end():]}


# A press at the board is the player's own act, as on a chess clock: the touch screen (loopback) presses
# without the PIN, like the per-side buttons; a remote client needs it (kiosk.dependencies.require_pin_off_screen).
at_the_board = [Depends(require_pin_off_screen)]


@router.post("/clock", response_model=ControlOut, dependencies=at_the_board,
             summary="Press the clock (a player ends the turn)")
def press_clock(body: ClockPressIn, service: ServiceDep) -> dict[str, Any]:
    return _submit(service, {"event": "button", "name": "clock", "side": body.side})


@router.post("/illegal-play", response_model=ControlOut, dependencies=at_the_board,
             summary="The opponent's answer to a flagged illegal play: accept it or have it corrected")
def answer_illegal_play(body: IllegalPlayAnswerIn, service: ServiceDep) -> dict[str, Any]:
    return _submit(service, {"event": "illegal_play_answer", "side": body.side, "answer": body.answer})


@router.post("/touch-move", response_model=ControlOut, dependencies=at_the_board,
             summary="The opponent's touch-move claim (R19): the mover touched a checker on this point")
def claim_touch_move(body: TouchMoveIn, service: ServiceDep) -> dict[str, Any]:
    return _submit(service, {"event": "touch_move", "by": body.by, "point": body.point})


@router.post("/cube", response_model=ControlOut, dependencies=guarded, summary="Cube action from the touch screen")
def cube_action(body: CubeIn, service: ServiceDep) -> dict[str, Any]:
    return _submit(service, {"event": "cube", "action": body.action, "side": body.side})


@router.post("/resignation", response_model=ControlOut, dependencies=guarded,
             summary="A resignation offered (single, gammon or backgammon), or the opponent's answer")
def resignation(body: ResignationIn, service: ServiceDep) -> dict[str, Any]:
    if body.action == "offer":
        return _submit(service, {"event": "resign", "side": body.side, "value": body.value})
    return _submit(service, {"event": "resign_reply", "accept": body.action == "accept"})


@router.post("/correction", response_model=ControlOut, dependencies=guarded,
             summary="Correct the referee: undo, end the turn, acknowledge a cocked die, or set the board")
def correction(body: CorrectionIn, service: ServiceDep) -> dict[str, Any]:
    if body.action == "set_board":
        assert body.board is not None
        return _submit(service, {"event": "board", **body.board.model_dump(), "stable": True, "source": "manual"})
    return _submit(service, {"event": "button", "name": body.action})


@router.post("/calibration", dependencies=guarded, summary="Store the four board corners clicked on the camera image")
def calibrate(body: CalibrationIn, camera: CameraDep) -> dict[str, Any]:
    frame = camera.overlay()
    width, height = frame.get("width"), frame.get("height")
    if not (isinstance(width, int) and isinstance(height, int) and width > 0 and height > 0):
        raise HTTPException(409, "the camera has not delivered a frame yet: the corners are clicked on it")
    for i, (x, y) in enumerate(body.corners):
        if not (0 <= x <= width and 0 <= y <= height):
            raise HTTPException(422, {"field": f"corners.{i}", "message": f"({x:g}, {y:g}) is outside the "
                                      f"{width}x{height} camera frame"})
    try:
        return camera.set_corners([(float(x), float(y)) for x, y in body.corners])
    except ValueError as exc:
        raise HTTPException(422, {"field": "corners", "message": str(exc)}) from None



@router.post("/calibration/learn", dependencies=guarded,
             summary="Learn this board from what the camera shows now: the starting position or the empty board")
def learn(body: LearnIn, camera: CameraDep) -> dict[str, Any]:
    try:
        return camera.learn(body.board)
    except ValueError as exc:
        words = getattr(exc, "message", None)
        raise HTTPException(409, {"field": "board", "message": str(exc),
                                  **({"words": words} if isinstance(words, dict) else {})}) from None
