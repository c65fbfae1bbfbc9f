"""Read-only routes for the display: the public state and the kiosk's display settings."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import APIRouter, Request
from pydantic import ValidationError

from kiosk.config import LANGUAGES
from kiosk.dependencies import PinsDep, ServiceDep, SettingsDep
from kiosk.schemas import KioskInfo, StateOut

log = logging.getLogger(__name__)
router = APIRouter(prefix="/api", tags=["display"])


def public(state: dict[str, Any]) -> dict[str, Any]:
    """The state as the page receives it (through StateOut, so HTTP and WebSocket agree).

    A state the schema cannot read is passed on unchanged rather than blanking the screen mid-game.
    """
    try:
        return StateOut.model_validate(state).model_dump(mode="json")
    except ValidationError as exc:
        log.warning("public state does not match the kiosk schema: %s", exc)
        return state


@router.get("/state", response_model=StateOut, summary="The full public state (board, dice, cube, score, verdicts)")
def get_state(service: ServiceDep) -> dict[str, Any]:
    return public(service.state())


@router.get("/kiosk", response_model=KioskInfo, summary="Display settings: language, PIN set, camera present")
def get_kiosk(request: Request, settings: SettingsDep, pins: PinsDep) -> KioskInfo:
    return KioskInfo(language=settings.language, language_set=settings.language_set, languages=list(LANGUAGES),
                     pin_set=pins.is_set(),
                     camera=getattr(request.app.state, "camera", None) is not None,
                     voice=voice.status if (voice := getattr(request.app.state, "voice", None)) is not None else "off")
