"""Match exports: Jellyfish .mat and GNU Backgammon SGF, downloadable from the page."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, HTTPException, Path
from fastapi.responses import PlainTextResponse

from kiosk.dependencies import ServiceDep

router = APIRouter(prefix="/api/matches", tags=["matches"])
MEDIA = {"mat": "text/plain; charset=utf-8", "sgf": "application/x-go-sgf; charset=utf-8"}


@router.get(
    "/{match_id}/export.{fmt}",
    response_class=PlainTextResponse,
    summary="Export a match as .mat or .sgf ('current' is the match being played)",
    responses={200: {"content": {"text/plain": {"example": " 7 point match\n\n Game 1\n ..."}}},
               404: {"description": "No such match"}},
)
def export_match(
    match_id: Annotated[str, Path(max_length=64, pattern=r"^[A-Za-z0-9_-]+$", examples=["current"])],
    fmt: Annotated[Literal["mat", "sgf"], Path(description="mat or sgf")],
    service: ServiceDep,
) -> PlainTextResponse:
    try:
        text = service.export(match_id, fmt)
    except KeyError:
        raise HTTPException(404, f"no match with id {match_id!r}") from None
    except ValueError as exc:
        raise HTTPException(409, str(exc)) from None
    filename = f"gamao-{match_id}.{fmt}"
    return PlainTextResponse(text, media_type=MEDIA[fmt],
                             headers={"Content-Disposition": f'attachment; filename="{filename}"'})
