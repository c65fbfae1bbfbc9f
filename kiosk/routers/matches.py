"""Match exports: Jellyfish .mat and GNU Backgammon SGF, downloadable from the page."""

from __future__ import annotations

import threading
from typing import Annotated, Literal

from fastapi import APIRouter, HTTPException, Path
from fastapi.responses import PlainTextResponse

from kiosk.dependencies import ServiceDep

router = APIRouter(prefix="/api/matches", tags=["matches"])
# Exports replay a whole match: two at a time at most, so a client asking for many cannot take the CPU the
# live game needs; the others are told to come back (429), never queued.
EXPORTS = threading.BoundedSemaphore(2)
MATCH_ID = r"^(current|[1-9][0-9]{0,17})$"
MEDIA = {"mat": "text/plain; charset=utf-8", "sgf": "application/x-go-sgf; charset=utf-8"}


@router.get(
    "/{match_id}/export.{fmt}",
    response_class=PlainTextResponse,
    summary="Export a match as .mat or .sgf ('current' is the match being played)",
    responses={200: {"content": {"text/plain": {"example": " 7 point match\n\n Game 1\n ..."}}},
               404: {"description": "No such match"}, 429: {"description": "Too many exports at once"}},
)
def export_match(
    match_id: Annotated[str, Path(max_length=18, pattern=MATCH_ID, examples=["current", "3"],
                                  description="'current' or a match's id (a whole number from 1)")],
    fmt: Annotated[Literal["mat", "sgf"], Path(description="mat or sgf")],
    service: ServiceDep,
) -> PlainTextResponse:
    if not EXPORTS.acquire(blocking=False):
        raise HTTPException(429, "other exports are running: try again in a moment", headers={"Retry-After": "1"})
    try:
        text = service.export(match_id, fmt)
    except KeyError:
        raise HTTPException(404, f"no match with id {match_id!r}") from None
    except ValueError as exc:
        raise HTTPException(409, str(exc)) from None
    finally:
        EXPORTS.release()
    filename = f"gamao-{match_id}.{fmt}"
    return PlainTextResponse(text, media_type=MEDIA[fmt],
                             headers={"Content-Disposition": f'attachment; filename="{filename}"'})
