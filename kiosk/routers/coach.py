"""The coach's routes: legal plays (ranked when an engine runs), cube advice, settings, the review, its pushes.

Every route answers 403 in tournament mode. Reading needs no PIN. Every route that changes something (a takeback
undoes a play; asking for plays or cube advice puts them on the screen) takes the touch screen's press without the
PIN and any other device's with it (issue 34, finding 4); changing the settings and the match against GNU
Backgammon always need it. Another site's page changes nothing (webguard.origin.OriginGuard, on the whole app).
The expensive routes (the review replays and rates a whole match; plays and cube advice ask the engine) run at
most `EXPENSIVE` at once each, more are answered 429 at once: sixty parallel reviews made the owner's
`GET /api/state` take 9.3 s, waiting for a worker thread.
"""

from __future__ import annotations

import html
import logging
import re
from dataclasses import asdict
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query, Request, WebSocket
from fastapi.responses import HTMLResponse

from kiosk.coach import CoachRefused, CoachService
from kiosk.dependencies import require_pin, require_pin_off_screen
from kiosk.routers.ws import open_page_socket, push_latest
from kiosk.schemas import CoachSettingsIn, VersusAnswerIn, VersusIn
from webguard.bounded import Bounded

REFUSALS: dict[int | str, dict[str, Any]] = {
    403: {"description": "Tournament mode: the coach is off"},
    404: {"description": "No such match (review)"},
    409: {"description": "Nothing to advise on now (no roll yet, not before a roll)"},
    503: {"description": "The coach is not running"},
}
router = APIRouter(tags=["coach"], responses=REFUSALS)
EXPENSIVE = 2
REVIEWS = Bounded(EXPENSIVE, "reviews")
ASKS = Bounded(EXPENSIVE, "the coach's plays and cube advice")
AT_THE_BOARD = [Depends(require_pin_off_screen)]
log = logging.getLogger(__name__)


def get_coach(request: Request) -> CoachService:
    coach = getattr(request.app.state, "coach", None)
    if coach is None:
        raise HTTPException(503, "the coach is not running")
    return coach


CoachDep = Annotated[CoachService, Depends(get_coach)]


def _guard(coach: CoachService) -> None:
    if coach.off():  # tournament mode, or a variant GNU Backgammon does not know
        raise HTTPException(403, coach.off_message())


def _call(fn: Any, *args: Any) -> Any:
    try:
        return fn(*args)
    except CoachRefused as exc:
        raise HTTPException(exc.status, exc.message) from None


@router.get("/api/coach", summary="The coach's state: tutor warning, last rating, cube advice, the plays shown")
def coach_state(coach: CoachDep) -> dict[str, Any]:
    _guard(coach)
    return coach.snapshot()


@router.post("/api/coach/plays", dependencies=[*AT_THE_BOARD, Depends(ASKS)],
             summary="Every legal play of the current roll (ranked by the engine when it answers)")
def coach_plays(coach: CoachDep) -> dict[str, Any]:
    return _call(coach.request_plays)


@router.post("/api/coach/takeback", dependencies=AT_THE_BOARD,
             summary="Take the last play back after the roll (the takeback setting: both agreed)")
def coach_takeback(coach: CoachDep) -> dict[str, Any]:
    return _call(coach.request_takeback)


@router.post("/api/coach/cube", dependencies=[*AT_THE_BOARD, Depends(ASKS)],
             summary="Cube advice for the player on roll, or the answer to a double")
def coach_cube(coach: CoachDep) -> dict[str, Any]:
    return _call(coach.request_cube)


@router.get("/api/coach/review", dependencies=[Depends(REVIEWS)],
            summary="A game's plays with their ratings and each player's error rate")
def coach_review(coach: CoachDep,
                 match: Annotated[str, Query(max_length=64, pattern=r"^[A-Za-z0-9_-]+$")] = "current",
                 game: Annotated[int | None, Query(ge=0, le=10000)] = None) -> dict[str, Any]:
    try:
        return _call(coach.review, match, game)
    except KeyError:
        raise HTTPException(404, f"no match with id {match!r}") from None


@router.get("/api/coach/settings", summary="The current match's coach settings")
def coach_settings(coach: CoachDep) -> dict[str, Any]:
    _guard(coach)
    return asdict(coach.settings_for())


@router.put("/api/coach/settings", dependencies=[Depends(require_pin)],
            summary="Change the tutor's threshold and the engine's depth for the current match")
def put_coach_settings(body: CoachSettingsIn, coach: CoachDep) -> dict[str, Any]:
    changes = body.model_dump(exclude_none=True)
    try:
        return asdict(_call(coach.update_settings, changes))
    except ValueError as exc:
        raise HTTPException(422, str(exc)) from None


@router.websocket("/ws/coach")
async def push_coach(websocket: WebSocket) -> None:
    coach = getattr(websocket.app.state, "coach", None)
    # Only the kiosk's own pages, with the same input limits as /ws; always the newest snapshot is sent.
    if await open_page_socket(websocket, "coach WebSocket", coach, "the coach is not running", log):
        await push_latest(websocket, coach.subscribe, coach.snapshot, lambda _pushed: coach.snapshot())


# ----- playing against GNU Backgammon on the board (kiosk/versus.py, issue 24) ------------------------------------
@router.get("/api/versus", summary="The match against GNU Backgammon: its level, side, the play to make, a correction")
def versus_state(request: Request) -> dict[str, Any]:
    versus = getattr(request.app.state, "versus", None)
    return {"active": False} if versus is None else {"active": True, **versus.snapshot()}


@router.post("/api/versus", dependencies=[Depends(require_pin)],
             summary="Start a match against GNU Backgammon at a named level on a side")
def start_versus(body: VersusIn, request: Request) -> dict[str, Any]:
    from core.rules.position import Side
    from engine.base import EngineUnavailable
    from engine.gnubg import GnubgEngine, find_gnubg
    from kiosk.versus import Brain, Versus, engine_name

    try:
        find_gnubg()
    except EngineUnavailable as exc:  # not the request's fault, and nothing a retry mends: say what to install
        raise HTTPException(409, str(exc)) from None
    old, request.app.state.versus = getattr(request.app.state, "versus", None), None
    if old is not None:
        old.stop()  # its gnubg ended first: never waits on a stopped or hung engine
    side = Side(body.side)
    players = {side.value: engine_name(body.level), side.other.value: body.player}
    try:
        request.app.state.service.submit({"event": "new_match", "length": body.length, "players": players})
    except ValueError as exc:
        raise HTTPException(409, str(exc)) from None
    versus = Versus(request.app.state.service, Brain(GnubgEngine(plies=0, timeout=120), body.level), side).start()
    request.app.state.versus = versus
    return {"active": True, **versus.snapshot()}


@router.post("/api/versus/answer", dependencies=AT_THE_BOARD,
             summary="The human's take or drop of GNU Backgammon's double, from the screen")
def answer_versus_double(body: VersusAnswerIn, request: Request) -> dict[str, Any]:
    # The answer to a double is the player's own act at the board, as the clock's press: the touch screen (loopback)
    # answers without the PIN, a remote client needs it. Only GNU Backgammon's own double, while it waits.
    versus = getattr(request.app.state, "versus", None)
    state = request.app.state.service.state()
    offered = (state.get("cube") or {}).get("offered_by")
    if versus is None or state.get("phase") != "cube_offered" or offered != versus.side.value:
        raise HTTPException(409, "GNU Backgammon has not doubled: there is no double of its to answer now")
    try:
        request.app.state.service.submit({"event": "cube", "action": body.answer, "side": versus.side.other.value})
    except ValueError as exc:
        raise HTTPException(409, str(exc)) from None
    return {"active": True, **versus.snapshot()}


@router.delete("/api/versus", dependencies=[Depends(require_pin)], summary="Stop playing against GNU Backgammon")
def stop_versus(request: Request) -> dict[str, Any]:
    versus, request.app.state.versus = getattr(request.app.state, "versus", None), None
    if versus is not None:  # gnubg ended under any decision it was making: a few seconds at most (finding 8)
        versus.stop()
    return {"active": False}


# ----- the teacher's guide (docs/guia-do-professor.md), linked from the coach's panel ---------------------------
GUIDE = Path(__file__).resolve().parents[2] / "docs" / "guia-do-professor.md"


def _inline(text: str) -> str:
    text = html.escape(text, quote=False)
    text = re.sub(r"`([^`]+)`", r"<code>\1</code>", text)
    return re.sub(r"\*\*([^*]+)\*\*", r"<b>\1</b>", text)


def guide_html(markdown: str) -> str:
    """The guide's Markdown (headings, paragraphs, lists, tables, code blocks) as a page for the kiosk."""
    out: list[str] = []
    lines = markdown.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        if line.startswith("```"):
            j = i + 1
            while j < len(lines) and not lines[j].strip().startswith("```"):
                j += 1
            out.append("<pre>" + html.escape("\n".join(x.strip() for x in lines[i + 1:j])) + "</pre>")
            i = j + 1
            continue
        if line.startswith("#"):
            level = len(line) - len(line.lstrip("#"))
            out.append(f"<h{level}>{_inline(line[level:].strip())}</h{level}>")
        elif line.startswith("|"):
            rows = []
            while i < len(lines) and lines[i].strip().startswith("|"):
                cells = [c.strip() for c in lines[i].strip().strip("|").split("|")]
                if not all(set(c) <= {"-", ":"} for c in cells):
                    rows.append("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in cells) + "</tr>")
                i += 1
            out.append("<table>" + "".join(rows) + "</table>")
            continue
        elif re.match(r"^(- |\d+\. )", line):
            tag = "ul" if line.startswith("- ") else "ol"
            items: list[str] = []
            while i < len(lines) and lines[i].strip() and not lines[i].strip().startswith(("```", "|", "#")):
                item = lines[i].strip()
                if re.match(r"^(- |\d+\. )", item):
                    items.append(re.sub(r"^(- |\d+\. )", "", item))
                elif items:
                    items[-1] += " " + item
                i += 1
            out.append(f"<{tag}>" + "".join(f"<li>{_inline(x)}</li>" for x in items) + f"</{tag}>")
            continue
        elif line:
            para = [line]
            while i + 1 < len(lines) and lines[i + 1].strip() and not re.match(r"^(#|- |\d+\. |\||```)",
                                                                                lines[i + 1].strip()):
                i += 1
                para.append(lines[i].strip())
            out.append(f"<p>{_inline(' '.join(para))}</p>")
        i += 1
    return ("<!doctype html><html lang=\"pt-BR\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" "
            "content=\"width=device-width, initial-scale=1\"><title>Guia do professor</title>"
            "<link rel=\"stylesheet\" href=\"/static/style.css\"><link rel=\"stylesheet\" href=\"/static/coach.css\">"
            "</head><body class=\"guide-page\"><a class=\"guide-back\" href=\"/\">← Voltar</a>"
            + "".join(out) + "</body></html>")


@router.get("/guia", response_class=HTMLResponse, summary="The teacher's and beginner's guide (Brazilian Portuguese)")
def guide() -> HTMLResponse:
    try:
        text = GUIDE.read_text(encoding="utf-8")
    except OSError:
        raise HTTPException(404, "the guide (docs/guia-do-professor.md) is not in this installation") from None
    return HTMLResponse(guide_html(text))
