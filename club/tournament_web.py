"""The tournament night on the director's page (issue 39): the big screen and its API, beside club/web.py's.

``add_routes(app, desk)`` adds, to the app ``club.web.create_app`` made:

- ``GET /tournament`` (``?name=...``, ``&lang=en``): the big screen, for a projector or TV (1920x1080, usable at
  1280x800): the brackets, the matches in play with their live scores and clocks, who plays next and where, the
  standings. Read-only, like the grid.
- ``GET /api/tournaments``: the tournaments' names; ``GET /api/tournaments/{name}``: one, as ``tournament show
  --json`` gives it, with each match on a board's ``live`` score, phase and clock, the free boards and the tables.
- ``GET /api/tournaments/{name}/bracket.svg``: the bracket as a picture.
- ``POST /api/tournaments/{name}/assign`` ``{"match", "board", "club"}``: the director chooses the board (PIN).
- ``POST /api/tournaments/{name}/unassign`` ``{"match"}``: take a match off its board (PIN); the desk sends it to a
  free board again (the old board's partial match is not counted).
- ``POST /api/tournaments/{name}/result`` ``{"match", "winner", "score"}``: a result entered or corrected by hand
  (PIN; logged in the journal with ``source: hand`` or ``director``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import FastAPI, Header, HTTPException, Request
from fastapi import Path as PathParam
from fastapi.responses import Response
from pydantic import BaseModel, Field

from club.config import NAME
from club.tournament_boards import Desk
from club.tournament_end import bracket_svg
from club.web import STATIC
from core.match.brackets import TournamentError
from webguard.clients import client_host
from webguard.page import page_reply
from webguard.pin import check_http

TournamentPath = Annotated[str, PathParam(min_length=1, max_length=60)]


class AssignIn(BaseModel):
    match: str = Field(max_length=16)
    board: str = Field(max_length=40, pattern=NAME.pattern)
    club: str = Field(max_length=40, pattern=NAME.pattern)


class MatchIn(BaseModel):
    match: str = Field(max_length=16)


class ResultIn(BaseModel):
    match: str = Field(max_length=16)
    winner: str = Field(max_length=40)
    score: str = Field(max_length=9)


def add_routes(app: FastAPI, desk: Desk) -> None:
    pins = app.state.pins
    app.state.desk = desk
    live = getattr(app.state, "live", None)
    if live is not None:  # the broadcast's board=featured follows the tournament when the director chose no board
        live.auto = desk.featured_match

    def need_pin(pin: str | None, request: Request) -> None:
        # per client; the director's own screen is never locked (webguard/pin.py)
        check_http(pins, pin, client_host(request), unset="the director's PIN is not set: start `gamao director` with --pin")

    def refused(exc: TournamentError) -> HTTPException:
        text = str(exc)
        return HTTPException(404 if text.startswith("no tournament") else 409, text)

    @app.get("/tournament", include_in_schema=False)
    def screen_page(request: Request) -> Response:
        return page_reply(STATIC / "tournament.html", request)

    @app.get("/api/tournaments", summary="The tournaments in the director's journal")
    def tournaments() -> dict[str, Any]:
        return {"tournaments": desk.journal.names()}

    @app.get("/api/tournaments/{name}", summary="A tournament: matches (live on their boards), standings, champion")
    def tournament(name: TournamentPath) -> dict[str, Any]:
        try:
            return desk.screen(name)
        except TournamentError as exc:
            raise refused(exc) from None

    @app.get("/api/tournaments/{name}/bracket.svg", summary="The bracket as a picture")
    def bracket(name: TournamentPath) -> Response:
        try:
            svg = bracket_svg(desk.journal.load(name))
        except TournamentError as exc:
            raise refused(exc) from None
        return Response(svg, media_type="image/svg+xml")

    def directed(name: str, pin: str | None, request: Request, change: Callable[[], object]) -> dict[str, Any]:
        """The director's change (PIN), then the tournament as the screen shows it; a refused change is a 404/409."""
        need_pin(pin, request)
        try:
            change()
            return desk.screen(name)
        except TournamentError as exc:
            raise refused(exc) from None

    @app.post("/api/tournaments/{name}/assign", summary="Put a ready match on the board the director chooses (PIN)")
    def assign(name: TournamentPath, body: AssignIn, request: Request,
               x_gamao_pin: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        return directed(name, x_gamao_pin, request, lambda: desk.assign(name, body.match, body.club, body.board))

    @app.post("/api/tournaments/{name}/unassign", summary="Take a match off its board (PIN): sent to a free board again")
    def unassign(name: TournamentPath, body: MatchIn, request: Request,
                 x_gamao_pin: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        return directed(name, x_gamao_pin, request,
                        lambda: desk.journal.apply(name, {"op": "unassign", "match": body.match}))

    @app.post("/api/tournaments/{name}/result", summary="Enter or correct a match's result by hand (PIN, logged)")
    def result(name: TournamentPath, body: ResultIn, request: Request,
               x_gamao_pin: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        def enter() -> None:
            done = desk.journal.load(name).match(body.match)["status"] == "done"
            desk.journal.apply(name, {"op": "result", "match": body.match, "winner": body.winner,
                                      "score": body.score, "source": "director" if done else "hand"})

        return directed(name, x_gamao_pin, request, enter)
