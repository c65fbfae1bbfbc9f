"""The teacher's table: students, drills, the guided set-up and progress (issue 38; docs/CONTRACTS.md).

Reading needs no PIN. What the teacher or student presses at the board (a new student, a drill, an answer) is
taken from the touch screen without the PIN and from any other device with it; a student's export and deletion
always need the PIN (a child at the screen deletes nothing).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Path, Request
from fastapi.responses import Response
from pydantic import Field

from kiosk.dependencies import require_pin, require_pin_off_screen
from kiosk.drills import DrillRoom
from kiosk.drills_chart import progress_svg
from kiosk.schemas import Strict
from kiosk.students import anki_text

router = APIRouter(tags=["drills"])
AT_THE_BOARD = [Depends(require_pin_off_screen)]
GUARDED = [Depends(require_pin)]
MAX_ID = 2**53  # ids are SQLite rowids; anything larger is no student (and no 500 from SQLite's integer range)
StudentId = Annotated[int, Path(ge=1, le=MAX_ID, description="a student's id")]


class StudentIn(Strict):
    name: str = Field(max_length=200)


class DrillIn(Strict):
    student: int = Field(ge=1, le=MAX_ID)
    kind: Literal["pips", "mistake", "opening", "bearoff", "cube", "setup"]
    # Position ID, XGID, a game's name (its start) or, with "game", that game's position JSON (kind "setup")
    target: str | None = Field(None, max_length=1000)
    card: int | None = Field(None, ge=1, le=MAX_ID)
    turn: Literal["light", "dark"] = "light"  # the side a Position ID is encoded for (a recorded match's move)
    game: Literal["standard", "nackgammon", "plakoto", "russian", "jacquet"] | None = None  # the target's game
    match: int | None = Field(None, ge=1, le=MAX_ID)  # a recorded match in the journal (any game): with "move",
    move: int | None = Field(None, ge=1, le=100_000)  # the position before its move-th play


class PipsIn(Strict):
    light: int = Field(ge=0, le=999)
    dark: int = Field(ge=0, le=999)


class CubeIn(Strict):
    double: bool  # light doubles
    take: bool  # dark takes


class DecisionIn(Strict):
    answer: Literal["double", "no_double", "take", "pass"]  # a cube card's question: double? or take?


class MatchIn(Strict):
    match: str = Field(min_length=1, max_length=40)
    side: Literal["light", "dark"]


def room(request: Request) -> DrillRoom:
    drills = getattr(request.app.state, "drills", None)
    if drills is None:
        raise HTTPException(503, "the teacher's table is not running")
    return drills


def _refused(exc: Exception, status: int) -> HTTPException:
    text = str(exc.args[0]) if exc.args else str(exc)
    return HTTPException(status, text)


def _answered(answer: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """A student's answer to the drill on the board; 409 when there is none to answer (or not yet)."""
    try:
        return answer()
    except LookupError as exc:
        raise _refused(exc, 409) from None


@router.get("/api/students", summary="The students, by name, with their answers and the cards due today")
def students(request: Request) -> dict[str, Any]:
    return {"students": room(request).store.students()}


@router.post("/api/students", status_code=201, dependencies=AT_THE_BOARD, summary="A new student (a name)")
def create_student(body: StudentIn, request: Request) -> dict[str, Any]:
    try:
        return room(request).store.create(body.name)
    except ValueError as exc:
        raise _refused(exc, 422) from None


@router.delete("/api/students/{sid}", dependencies=GUARDED, summary="Delete a student and every row of theirs")
def delete_student(sid: StudentId, request: Request) -> dict[str, Any]:
    try:
        room(request).store.delete(sid)
    except KeyError:
        raise HTTPException(404, "no such student") from None
    return {"deleted": sid}


@router.get("/api/students/{sid}/export", dependencies=GUARDED, summary="All of a student's data, as JSON")
def export_student(sid: StudentId, request: Request) -> Response:
    try:
        data = room(request).store.export(sid)
    except KeyError:
        raise HTTPException(404, "no such student") from None
    return Response(json.dumps(data, ensure_ascii=False, indent=1), media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="aluno-{sid}.json"'})


@router.get("/api/students/{sid}/anki.txt", dependencies=GUARDED,
            summary="A student's cards as a text file Anki imports (tab-separated)")
def anki(sid: StudentId, request: Request, lang: Literal["pt", "en"] = "pt") -> Response:
    try:
        cards = room(request).store.export(sid)["cards"]
    except KeyError:
        raise HTTPException(404, "no such student") from None
    return Response(anki_text(cards, lang), media_type="text/plain; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="aluno-{sid}-anki.txt"'})


@router.post("/api/students/{sid}/matches/refresh", dependencies=AT_THE_BOARD,
             summary="The coach's review of each of the student's matches read again: new blunders become cards")
def refresh_matches(sid: StudentId, request: Request) -> dict[str, Any]:
    drills = room(request)
    try:
        matches = drills.store.matches_of(sid)
    except KeyError:
        raise HTTPException(404, "no such student") from None
    added = 0
    for m in matches:
        rows, pr = _reviewed(request, m["match"], m["side"])
        added += drills.store.record_match(sid, m["match"], m["side"], rows, pr=pr)
    return {"cards_added": added, "matches": len(matches)}


def _reviewed(request: Request, match: str, side: str) -> tuple[list[dict[str, Any]], float | None]:
    """The coach's review rows of a match and the side's PR ([] and None when the coach cannot review it)."""
    coach = getattr(request.app.state, "coach", None)
    if coach is None:
        return [], None
    try:
        review = coach.review(match)
    except Exception:  # no such match in the journal, tournament mode, the coach off: nothing to add
        return [], None
    return review_rows(review), ((review.get("summary") or {}).get(side) or {}).get("pr")


def review_rows(review: dict[str, Any]) -> list[dict[str, Any]]:
    """The review's rated plays and its rated cube decisions (``"kind": "cube"``; there once the coach's background
    look at the cube is done, ``cube_pending`` false): each that lost the blunder mark becomes a card."""
    return list(review.get("plays", [])) + [{**c, "kind": "cube"} for c in review.get("cube_decisions") or []]


@router.post("/api/students/{sid}/matches", dependencies=AT_THE_BOARD,
             summary="A recorded match played by the student: its blunders become cards")
def student_match(sid: StudentId, body: MatchIn, request: Request) -> dict[str, Any]:
    drills = room(request)
    coach = getattr(request.app.state, "coach", None)
    rows: list[dict[str, Any]] = []
    pr = None
    if coach is not None:
        try:
            review = coach.review(body.match)
        except (KeyError, ValueError) as exc:
            raise _refused(exc, 404) from None
        except Exception as exc:  # the coach refuses (tournament mode, not running): the match is still theirs
            review = {"plays": [], "error": str(exc)}
        rows = review_rows(review)
        pr = ((review.get("summary") or {}).get(body.side) or {}).get("pr")
    try:
        added = drills.store.record_match(sid, body.match, body.side, rows, pr=pr)
    except KeyError:
        raise HTTPException(404, "no such student") from None
    return {"cards_added": added}


@router.get("/api/students/{sid}/progress", summary="Per kind of drill and week: answers, accuracy, seconds")
def progress(sid: StudentId, request: Request) -> dict[str, Any]:
    try:
        return room(request).store.progress(sid)
    except KeyError:
        raise HTTPException(404, "no such student") from None


@router.get("/api/students/{sid}/progress.svg", summary="The same as a chart")
def progress_chart(sid: StudentId, request: Request, lang: Literal["pt", "en"] = "pt") -> Response:
    try:
        data = room(request).store.progress(sid)
    except KeyError:
        raise HTTPException(404, "no such student") from None
    return Response(progress_svg(data, lang), media_type="image/svg+xml", headers={"Cache-Control": "no-cache"})


@router.get("/api/drills/session", summary="The drill being done: target, the set-up still to do, result")
def session(request: Request) -> dict[str, Any]:
    return room(request).view()


@router.post("/api/drills/start", dependencies=AT_THE_BOARD, summary="Start a drill for a student")
def start(body: DrillIn, request: Request) -> dict[str, Any]:
    try:
        return room(request).start(body.student, body.kind, body.target, body.card, body.turn, body.game, body.match,
                                   body.move)
    except KeyError:
        raise HTTPException(404, "no such student") from None
    except LookupError as exc:
        raise _refused(exc, 409) from None
    except RuntimeError as exc:  # an opening or a bear-off without the coach's engine
        raise _refused(exc, 503) from None
    except ValueError as exc:
        raise HTTPException(422, {"field": "target", "message": " ".join(str(exc).split())}) from None


@router.post("/api/drills/pips", dependencies=AT_THE_BOARD, summary="The student's two pip counts")
def pips(body: PipsIn, request: Request) -> dict[str, Any]:
    return _answered(lambda: room(request).answer_pips(body.light, body.dark))


@router.post("/api/drills/cube", dependencies=AT_THE_BOARD, summary="The student's cube decision in a race")
def cube(body: CubeIn, request: Request) -> dict[str, Any]:
    return _answered(lambda: room(request).answer_cube(body.double, body.take))


@router.post("/api/drills/decision", dependencies=AT_THE_BOARD,
             summary="The student's answer to a cube card from a recorded match (double? take?)")
def decision(body: DecisionIn, request: Request) -> dict[str, Any]:
    try:
        return _answered(lambda: room(request).answer_decision(body.answer))
    except ValueError as exc:  # a take answered to a double's question, or the other way round
        raise HTTPException(422, {"field": "answer", "message": str(exc)}) from None


@router.post("/api/drills/stop", dependencies=AT_THE_BOARD, summary="End the drill")
def stop(request: Request) -> dict[str, Any]:
    room(request).stop()
    return {"session": None}
