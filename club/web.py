"""The director's page and API (FastAPI): read-only for everyone, control behind the director's PIN.

``GET /api/boards`` is the contract (docs/CONTRACTS.md); ``/ws`` pushes the boards that changed; the
page (club/static) draws the grid with the kiosk's own board drawing (kiosk/static/board.js).
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Header, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field, field_validator
from starlette.exceptions import HTTPException as StarletteHTTPException

from club.broadcast import add_routes as add_broadcast
from club.config import NAME
from club.director import MAX_MATCH_ID, Director
from club.league import League
from club.league_web import add_league_routes
from club.live import Live
from core.page_words_js import words_reply
from webguard.body import BodyLimit
from webguard.clients import client_host
from webguard.origin import OriginGuard, same_origin
from webguard.page import page_reply
from webguard.pin import check_http

STATIC = Path(__file__).with_name("static")
KIOSK_STATIC = Path(__file__).resolve().parents[1] / "kiosk" / "static"
PUSH_EVERY = 0.05  # seconds: at most 20 pushes a second to each page
MAX_BODY = 4096    # bytes: the director's page sends a name or a setting, nothing more
NamePath = Annotated[str, PathParam(max_length=40, pattern=NAME.pattern)]


class RenameIn(BaseModel):
    name: str = Field(max_length=40, description="the name shown for the board (empty: its own name)")

    @field_validator("name")
    @classmethod
    def printable(cls, value: str) -> str:
        if not value.isprintable() or any(0xD800 <= ord(c) <= 0xDFFF for c in value):
            raise ValueError("the name must be printable text (no control characters)")
        return value


class FeatureIn(BaseModel):
    club: str | None = Field(default=None, max_length=40, pattern=NAME.pattern)
    board: str | None = Field(default=None, max_length=40, pattern=NAME.pattern,
                              description="the board the broadcast's overlay?board=featured shows (null: none)")


class SettingsIn(BaseModel):
    delay: int = Field(ge=0, le=3600, description="seconds the public screen (?public=1) runs behind the boards")


def _message(errors: list[dict[str, Any]]) -> str:
    parts = []
    for e in errors:
        loc = ".".join(str(p) for p in e.get("loc", ()) if p not in ("body", "path", "query", "header"))
        parts.append(f"{loc or 'body'}: {e.get('msg', 'invalid')}")
    return "; ".join(parts)


async def _validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
    # Never echo the input: NaN, 1e999 or a lone surrogate cannot be written back as JSON (a 500).
    errors = [{k: v for k, v in e.items() if k in ("loc", "msg", "type")} for e in exc.errors()]
    return JSONResponse({"detail": errors, "message": _message(errors)}, status_code=422)


async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
    return JSONResponse({"detail": exc.detail, "message": str(exc.detail)}, status_code=exc.status_code,
                        headers=getattr(exc, "headers", None))


def _words(request: Request) -> Response:
    """GET /kiosk/words.js: the players' screen's words (core/page_words.py), which kiosk/static/i18n.js imports."""
    status, body, headers = words_reply(request.headers.get("if-none-match"))
    return Response(body, status, headers, media_type="text/javascript; charset=utf-8")


def create_app(director: Director, pins: Any) -> FastAPI:
    """`pins`: the director's PIN store (webguard.pin.PinStore: is_set(), check(pin) raising an error with
    `status` and `retry_after`)."""
    app = FastAPI(title="Gamão club director", version="0.1.0",
                  description="Every board of the club: live grid, results, .mat files; control needs the PIN.")
    app.state.director = director
    app.state.pins = pins
    app.state.delay = director.archive.setting("delay", 0)
    app.add_exception_handler(RequestValidationError, _validation_error)  # type: ignore[arg-type]
    app.add_exception_handler(StarletteHTTPException, _http_error)  # type: ignore[arg-type]
    app.add_middleware(BodyLimit, max_body=MAX_BODY, who="the director")
    app.add_middleware(OriginGuard)  # another site's page changes nothing (webguard/origin.py)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_api_route("/kiosk/words.js", _words, methods=["GET"], include_in_schema=False)  # i18n.js's table
    app.mount("/kiosk", StaticFiles(directory=KIOSK_STATIC), name="kiosk")
    live = Live(director)
    add_broadcast(app, live)  # /overlay, /api/overlay, /live/ (club/broadcast.py), behind the delay
    if isinstance(director.intake.pairing, League):  # the league director: /league (club/league_web.py)
        add_league_routes(app, director, director.intake.pairing)

    def need_pin(pin: str | None, request: Request) -> None:
        # per client; the director's own screen is never locked (webguard/pin.py)
        check_http(pins, pin, client_host(request), unset="the director's PIN is not set: start `gamao director` with --pin")

    @app.get("/", include_in_schema=False)
    def index(request: Request) -> Response:
        return page_reply(STATIC / "director.html", request)

    @app.get("/board/{club}/{board}", include_in_schema=False)
    def board_page(club: NamePath, board: NamePath, request: Request) -> Response:
        return page_reply(STATIC / "board.html", request)

    @app.get("/api/boards", summary="Every board: players, score, length, phase, last verdict")
    def boards() -> list[dict[str, Any]]:
        return director.boards()

    @app.get("/api/boards/{club}/{board}", summary="One board in full: label, attention, public state")
    def board(club: NamePath, board: NamePath) -> dict[str, Any]:
        try:
            return director.detail(club, board, moves=True)
        except KeyError:
            raise HTTPException(404, f"no board {board!r} in club {club!r} has been heard from") from None

    @app.get("/api/lessons", summary="The class view: each board running a lesson, its student, drill and progress")
    def lessons() -> list[dict[str, Any]]:
        return director.lessons()

    @app.get("/api/results", summary="Finished (or closed) matches, newest first")
    def results() -> list[dict[str, Any]]:
        return director.results()

    @app.get("/api/results/{club}/{board}/{match}.mat", response_class=PlainTextResponse,
             summary="An archived match as a .mat file")
    def mat(club: NamePath, board: NamePath,
            match: Annotated[int, PathParam(ge=0, lt=MAX_MATCH_ID)]) -> PlainTextResponse:
        try:
            text = director.mat(club, board, match)
        except KeyError:
            raise HTTPException(404, f"the archive has no match {match} from board {board!r}") from None
        return PlainTextResponse(text, headers={
            "Content-Disposition": f'attachment; filename="{club}-{board}-{match}.mat"'})

    @app.post("/api/boards/{club}/{board}/rename", status_code=204, summary="Name a board on the page (PIN)")
    def rename(club: NamePath, board: NamePath, body: RenameIn, request: Request,
               x_gamao_pin: Annotated[str | None, Header()] = None) -> None:
        need_pin(x_gamao_pin, request)
        try:
            director.rename(club, board, body.name.strip())
        except KeyError:
            raise HTTPException(404, f"no board {board!r} in club {club!r}") from None

    @app.post("/api/boards/{club}/{board}/close", summary="Close the board's match at its present score (PIN)")
    def close(club: NamePath, board: NamePath, request: Request,
              x_gamao_pin: Annotated[str | None, Header()] = None) -> JSONResponse:
        need_pin(x_gamao_pin, request)
        try:
            return JSONResponse(director.close_match(club, board))
        except KeyError:
            raise HTTPException(404, f"board {board!r} in club {club!r} has no match to close") from None
        except ValueError as exc:
            raise HTTPException(409, str(exc)) from None

    @app.get("/api/night", summary="Tonight's results and standings, and the club rating (FIBS formula)")
    def night() -> dict[str, Any]:
        return director.night()

    @app.get("/api/boards/{club}/{board}/dice", summary="The board's rolls this match and their statistics")
    def dice(club: NamePath, board: NamePath) -> dict[str, Any]:
        try:
            return director.dice(club, board)
        except KeyError:
            raise HTTPException(404, f"board {board!r} in club {club!r} has no match") from None

    @app.get("/api/status", summary="What the director took in and what it refused (forged, replayed, too large...)")
    def status() -> dict[str, Any]:
        return {**director.status(), "refused_pages": director.refused_pages, "delay": app.state.delay}

    @app.get("/api/settings", summary="The page's settings: the public screen's delay in seconds")
    def settings() -> dict[str, Any]:
        return {"delay": app.state.delay}

    @app.get("/api/feature", summary="The board the broadcast features (overlay?board=featured), or null")
    def featured() -> dict[str, Any]:
        auto = live.auto_featured()  # followed when "featured" is null: the tournament's match in play that matters most
        return {"featured": director.archive.setting("featured", None),
                "auto": None if auto is None else {"club": auto[0], "board": auto[1]}}

    @app.post("/api/feature", summary="Feature a board on the broadcast (overlay?board=featured) (PIN)")
    def feature(body: FeatureIn, request: Request,
                x_gamao_pin: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        need_pin(x_gamao_pin, request)
        featured = None
        if body.board is not None:
            club = body.club
            if club is None:
                try:
                    club, _ = live.resolve(body.board)
                except KeyError as exc:
                    raise HTTPException(404, str(exc)) from None
            featured = {"club": club, "board": body.board}
        director.archive.set_setting("featured", featured)
        live.settings_changed()
        return {"featured": featured}

    @app.post("/api/settings", summary="Set the public screen's delay (PIN)")
    def set_settings(body: SettingsIn, request: Request,
                     x_gamao_pin: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        need_pin(x_gamao_pin, request)
        director.archive.set_setting("delay", body.delay)
        app.state.delay = body.delay
        live.settings_changed()
        return {"delay": body.delay}

    @app.websocket("/ws")
    async def ws(socket: WebSocket) -> None:
        """First every board, then the boards that changed: {"boards": [detail...], "results": version}."""
        origin = socket.headers.get("origin")
        if not same_origin(origin, socket.headers.get("host")):
            director.refused_pages += 1
            await socket.close(code=1008)  # another site's page (or a sandboxed one, Origin null)
            return
        await socket.accept()
        loop = asyncio.get_running_loop()
        changed = asyncio.Event()
        stop = director.listen(lambda: loop.call_soon_threadsafe(changed.set))
        sent: dict[tuple[str, str], Any] = {}
        closed = asyncio.ensure_future(socket.receive())  # the page says nothing; this ends when it goes
        try:
            while True:
                changed.clear()
                details = await asyncio.to_thread(director.details)
                fresh = []
                for d in details:
                    key = (d["club"], d["board"])
                    mark = (d["updated"], d["events"], d["label"], d["online"], d["attention"], str(d["lesson"]))
                    if sent.get(key) != mark:
                        sent[key] = mark
                        fresh.append(d)
                if fresh or not sent:
                    await socket.send_json({"boards": fresh, "results": director.results_version})
                waiter = asyncio.ensure_future(changed.wait())
                # every 10 s at least, so a board that fell silent shows offline (club.director.SILENT)
                done, _ = await asyncio.wait({waiter, closed}, timeout=10, return_when=asyncio.FIRST_COMPLETED)
                waiter.cancel()
                if closed in done:
                    break
                await asyncio.sleep(PUSH_EVERY)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            stop()
            closed.cancel()
            with contextlib.suppress(RuntimeError, WebSocketDisconnect):
                await socket.close()

    return app
