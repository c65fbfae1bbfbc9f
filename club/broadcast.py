"""The broadcast's pages and files (issue 40), read-only and safe to expose: no PIN, no control, nothing newer
than the director's delay (club/live.py enforces it; the page only draws what it is given).

``add_routes(app, live)`` adds them to an app (the director's own, club/web.py); ``create_broadcast_app(live)`` is
an app with these routes and nothing else (``gamao director --broadcast-port``: the address a streamer's OBS or
the world is given, where none of the director's controls or its API exists):

- ``GET /overlay?board=BOARD|CLUB/BOARD|featured&layout=bar|side|full&size=1920|1280&lang=pt|en``: the page
  for OBS's browser source, transparent background;
- ``GET /overlay/overlay.js``, ``overlay.css``, ``board.js``, ``i18n.js`` and ``words.js``: its files (the kiosk's
  board drawing and words; the words from core/page_words.py, "overlay.*" and the match's own);
- ``GET /api/overlay?board=...``: its JSON (docs/CONTRACTS.md, "The broadcast");
- ``GET /live/``: the night's matches; ``GET /live/BOARD.mat``, ``/live/BOARD.sgf``, ``/live/CLUB/BOARD.mat`` and
  ``.sgf``: each board's match as it stands behind the delay.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, HTTPException, Query, Request
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from club.config import NAME
from club.live import Live, NoBoard
from core.page_words_js import words_reply
from webguard.body import BodyLimit
from webguard.bounded import Bounded
from webguard.origin import OriginGuard
from webguard.page import page_reply

STATIC = Path(__file__).with_name("static")
KIOSK_STATIC = Path(__file__).resolve().parents[1] / "kiosk" / "static"
BOARD_JS = KIOSK_STATIC / "board.js"
I18N_JS = KIOSK_STATIC / "i18n.js"  # the kiosk's words (fill, playText) over the one table, words.js beside it
FILES = Bounded(8, "live match files")    # a .mat or SGF is a replay's export: a few at once, more get 429
NAMES = NAME.pattern.strip("^$")
BoardQuery = Annotated[str, Query(max_length=81, pattern=rf"^(featured|({NAMES}/)?{NAMES})$")]
NamePath = Annotated[str, PathParam(max_length=40, pattern=NAME.pattern)]
NO_STORE = {"Cache-Control": "no-store"}
FILE_NAME = re.compile(r"^(?P<board>.+)\.(?P<kind>mat|sgf)$")


def _json(obj: Any) -> JSONResponse:
    return JSONResponse(obj, headers=NO_STORE)


def add_routes(app: FastAPI, live: Live) -> None:
    app.state.live = live

    def _file(name: str, kind: str) -> PlainTextResponse:
        try:
            with FILES.slot():
                filename, text = live.mat(name) if kind == "mat" else live.sgf(name)
        except NoBoard as exc:
            raise HTTPException(404, str(exc)) from None
        media = "text/plain; charset=utf-8" if kind == "mat" else "application/x-go-sgf; charset=utf-8"
        return PlainTextResponse(text, media_type=media, headers={
            **NO_STORE, "Content-Disposition": f'inline; filename="{filename}"'})

    @app.get("/overlay", include_in_schema=False)
    def overlay_page(request: Request) -> Response:
        return page_reply(STATIC / "overlay.html", request)

    @app.get("/overlay/overlay.js", include_in_schema=False)
    def overlay_js() -> FileResponse:
        return FileResponse(STATIC / "overlay.js", media_type="text/javascript", headers={"Cache-Control": "no-cache"})

    @app.get("/overlay/overlay.css", include_in_schema=False)
    def overlay_css() -> FileResponse:
        return FileResponse(STATIC / "overlay.css", media_type="text/css", headers={"Cache-Control": "no-cache"})

    @app.get("/overlay/board.js", include_in_schema=False)
    def board_js() -> FileResponse:
        return FileResponse(BOARD_JS, media_type="text/javascript", headers={"Cache-Control": "no-cache"})

    @app.get("/overlay/i18n.js", include_in_schema=False)
    def i18n_js() -> FileResponse:
        return FileResponse(I18N_JS, media_type="text/javascript", headers={"Cache-Control": "no-cache"})

    @app.get("/overlay/words.js", include_in_schema=False)
    def words_js(request: Request) -> Response:
        # the players' screen's words (core/page_words.py), which i18n.js imports: the overlay's are "overlay.*"
        status, body, headers = words_reply(request.headers.get("if-none-match"))
        return Response(body, status, headers, media_type="text/javascript; charset=utf-8")

    @app.get("/api/overlay", summary="One board as the broadcast shows it (behind the director's delay)")
    def overlay(board: BoardQuery) -> JSONResponse:
        try:
            return _json(live.overlay(board))
        except NoBoard as exc:
            raise HTTPException(404, str(exc)) from None

    @app.get("/live/", summary="The night's matches behind the broadcast's delay, newest first")
    def listing() -> JSONResponse:
        with FILES.slot():
            return _json(live.listing())

    @app.get("/live/{file}", summary="A board's match as it stands behind the delay: BOARD.mat or BOARD.sgf")
    def live_file(file: Annotated[str, PathParam(max_length=45)]) -> Response:
        m = FILE_NAME.match(file)
        if m is None or not NAME.fullmatch(m["board"]):
            raise HTTPException(404, "ask for BOARD.mat or BOARD.sgf (the night's matches: /live/)")
        return _file(m["board"], m["kind"])

    @app.get("/live/{club}/{file}", summary="A board of a club: CLUB/BOARD.mat or CLUB/BOARD.sgf")
    def live_club_file(club: NamePath, file: Annotated[str, PathParam(max_length=45)]) -> Response:
        m = FILE_NAME.match(file)
        if m is None or not NAME.fullmatch(m["board"]):
            raise HTTPException(404, "ask for CLUB/BOARD.mat or CLUB/BOARD.sgf (the night's matches: /live/)")
        return _file(f"{club}/{m['board']}", m["kind"])


async def _validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
    errors = [{k: v for k, v in e.items() if k in ("loc", "msg", "type")} for e in exc.errors()]
    return JSONResponse({"detail": errors, "message": "; ".join(str(e.get("msg")) for e in errors)}, status_code=422)


async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
    return JSONResponse({"detail": exc.detail, "message": str(exc.detail)}, status_code=exc.status_code,
                        headers=getattr(exc, "headers", None))


def create_broadcast_app(live: Live) -> FastAPI:
    """The broadcast alone: the overlay, its JSON and the live files; every other path is a 404 and every method
    but GET/HEAD a 405 (no PIN exists here to guess, no control to reach)."""
    app = FastAPI(title="Gamão broadcast", version="0.1.0", docs_url=None, redoc_url=None, openapi_url=None,
                  description="The club's boards for a stream, behind the director's delay; read-only.")
    app.add_exception_handler(RequestValidationError, _validation_error)  # type: ignore[arg-type]
    app.add_exception_handler(StarletteHTTPException, _http_error)  # type: ignore[arg-type]
    app.add_middleware(BodyLimit, max_body=0, who="the broadcast")
    app.add_middleware(OriginGuard)
    add_routes(app, live)
    return app
