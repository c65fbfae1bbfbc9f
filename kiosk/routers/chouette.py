"""The chouette from the touch screen (R26-R29): start one, doubles, each member's answer, the consult setting,
and the exports (each game's .mat, the ledger). Every control needs the PIN, like the others.

Bad input is a 422 that names the field (``{"detail": {"field", "message"}}``); an action the chouette does not
allow now (a double not at the doubler's roll, an answer nobody waits for) is a 409 saying why.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Path
from fastapi.responses import PlainTextResponse
from pydantic import BaseModel, ConfigDict, Field

from kiosk.chouette import ChouetteInputError, game_mat, ledger, ledger_text, new_match_event
from kiosk.dependencies import KioskService, ServiceDep, require_pin
from kiosk.routers.control import REFUSALS
from kiosk.schemas import ControlOut

router = APIRouter(prefix="/api/chouette", tags=["chouette"])
guarded = [Depends(require_pin)]
refusals: dict[int | str, dict[str, Any]] = {**REFUSALS, 422: {"description": "Bad input: the field is named"}}
Name = Annotated[str, Field(min_length=1, max_length=40)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ChouettePlayerIn(Strict):
    name: Name
    rolls: Annotated[list[Annotated[int, Field(ge=1, le=6)]], Field(min_length=1, max_length=10,
                                                                    description="one die; a tie's re-rolls after it")]


class ChouetteRulesIn(Strict):
    mode: Literal["casual", "strict"] = "casual"
    premature_roll: Literal["reject", "commit"] = "reject"


class ChouetteIn(Strict):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{
        "players": [{"name": "Ana", "rolls": [6]}, {"name": "Bruno", "rolls": [5]}, {"name": "Carla", "rolls": [4, 2]},
                    {"name": "Davi", "rolls": [4, 5]}], "box_side": "light", "consult": True}]})
    players: Annotated[list[ChouettePlayerIn], Field(min_length=3, max_length=12)]
    box_side: Literal["light", "dark"] = "light"
    consult: bool = True
    cube_cap: int = Field(64, ge=2, le=4096, description="the highest cube, a power of two")
    rules: ChouetteRulesIn = ChouetteRulesIn()


class DoubleIn(Strict):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"by": "box"},
                                                                              {"by": "team", "members": ["Bruno"]}]})
    by: Literal["box", "team"]
    members: Annotated[list[Name], Field(min_length=1, max_length=12)] | None = Field(
        None, description="team doubles only: who doubles (default: every member who may)")


class AnswerIn(Strict):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"member": "Carla", "take": False}]})
    member: Name = Field(description="the team member whose cube the double is about")
    take: bool


class ConsultIn(Strict):
    value: bool = Field(description="may crew members advise the captain (R27)")


def _submit(service: KioskService, event: dict[str, Any]) -> dict[str, Any]:
    try:
        verdicts = service.submit(event)
    except ChouetteInputError as exc:
        raise HTTPException(422, {"field": exc.field, "message": exc.detail}) from None
    except ValueError as exc:
        raise HTTPException(getattr(exc, "status", 409), str(exc)) from None
    return {"verdicts": verdicts}


@router.post("", response_model=ControlOut, dependencies=guarded, responses=refusals,
             summary="Start a chouette: the players, one die each (R26), the box's side, consult")
def start(body: ChouetteIn, service: ServiceDep) -> dict[str, Any]:
    setup = body.model_dump(exclude={"rules"})
    try:
        event = new_match_event(setup, body.rules.model_dump())
    except ChouetteInputError as exc:
        raise HTTPException(422, {"field": exc.field, "message": exc.detail}) from None
    return _submit(service, event)


@router.post("/double", response_model=ControlOut, dependencies=guarded, responses=refusals,
             summary="The box doubles every cube it may, or team members double their own (R29)")
def double(body: DoubleIn, service: ServiceDep) -> dict[str, Any]:
    if body.by == "box":
        if body.members is not None:
            raise HTTPException(422, {"field": "members", "message": "only for a team double (the box offers every "
                                                                      "cube it may)"})
        return _submit(service, {"event": "chouette", "action": "box_double"})
    event: dict[str, Any] = {"event": "chouette", "action": "team_double"}
    if body.members is not None:
        event["members"] = body.members
    return _submit(service, event)


@router.post("/answer", response_model=ControlOut, dependencies=guarded, responses=refusals,
             summary="One answer to a double: the member's take or drop (box's double), or the box's on that "
                     "member's cube (team's double)")
def answer(body: AnswerIn, service: ServiceDep) -> dict[str, Any]:
    return _submit(service, {"event": "chouette", "action": "answer", "member": body.member, "take": body.take})


@router.post("/consult", response_model=ControlOut, dependencies=guarded, responses=refusals,
             summary="Whether crew members may advise the captain (R27)")
def consult(body: ConsultIn, service: ServiceDep) -> dict[str, Any]:
    return _submit(service, {"event": "chouette", "action": "consult", "value": body.value})


MatchId = Annotated[str, Path(max_length=64, pattern=r"^[A-Za-z0-9_-]+$", examples=["current"])]


def _table(service: KioskService, match_id: str) -> Any:
    getter = getattr(service, "table", None)
    if getter is None:
        raise HTTPException(404, "this kiosk's service keeps no chouette")
    try:
        table = getter(match_id)
    except KeyError:
        raise HTTPException(404, f"no match with id {match_id!r}") from None
    if getattr(table, "session", None) is None:
        raise HTTPException(404, f"match {match_id!r} is not a chouette")
    return table


@router.get("/{match_id}/ledger.{fmt}", response_class=PlainTextResponse,
            summary="Every player's points, game by game (json or txt; 'current' is the chouette being played)",
            responses={404: {"description": "No such match, or not a chouette"}})
def export_ledger(match_id: MatchId, fmt: Annotated[Literal["json", "txt"], Path()], service: ServiceDep) -> PlainTextResponse:
    table = _table(service, match_id)
    text = json.dumps(ledger(table), ensure_ascii=False, indent=1) if fmt == "json" else ledger_text(table)
    media = "application/json" if fmt == "json" else "text/plain; charset=utf-8"
    return PlainTextResponse(text, media_type=media, headers={
        "Content-Disposition": f'attachment; filename="gamao-chouette-{match_id}-ledger.{fmt}"'})


@router.get("/{match_id}/games/{number}.mat", response_class=PlainTextResponse,
            summary="One chouette game's board play as .mat: the box against the captain, with the captain's cube",
            responses={404: {"description": "No such match, game, or not a chouette"},
                       409: {"description": "The game has no board play to export"}})
def export_game(match_id: MatchId, number: Annotated[int, Path(ge=1, le=100000)], service: ServiceDep) -> PlainTextResponse:
    table = _table(service, match_id)
    try:
        text = game_mat(table, number)
    except KeyError:
        raise HTTPException(404, f"the chouette has no game {number} yet") from None
    except ValueError as exc:  # the game has no board play to write (e.g. every cube dropped before a roll)
        raise HTTPException(409, f"game {number} of the chouette has no board play to export: {exc}") from None
    return PlainTextResponse(text, media_type="text/plain; charset=utf-8", headers={
        "Content-Disposition": f'attachment; filename="gamao-chouette-{match_id}-game-{number}.mat"'})
