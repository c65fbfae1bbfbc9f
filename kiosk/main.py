"""create_app(settings) builds the kiosk: routers, static page, and the referee service in lifespan.

Hardware and the service are injectable: tests and `gamao demo` pass their own; `gamao run` lets the
lifespan build the real service from the settings.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from core.page_words_js import words_reply
from kiosk.coach import CoachService, EngineFactory, default_engine
from kiosk.config import Settings
from kiosk.dependencies import CalibrationSource, KioskService
from kiosk.drills import DrillRoom
from kiosk.limits import BodyLimit, http_error
from kiosk.pin import PinStore
from kiosk.routers import camera as camera_routes
from kiosk.routers import chouette as chouette_routes
from kiosk.routers import coach as coach_routes
from kiosk.routers import control, dice, drills, matches, state, ws
from kiosk.students import STUDENTS, StudentStore
from webguard.origin import OriginGuard
from webguard.page import page_reply

STATIC = Path(__file__).with_name("static")
# The pages (kiosk/static), by path.
PAGES = {"/": "index.html", "/review": "review.html", "/dice": "dice.html", "/calibrate": "calibrate.html",
         "/aula": "drills.html"}
JOURNAL = "journal.sqlite"
ServiceFactory = Callable[[Settings], KioskService]


def default_service_factory(settings: Settings) -> KioskService:
    """The referee service (kiosk/service.py) with its journal in the kiosk's data folder."""
    from kiosk.service import RefereeService

    settings.data_dir.mkdir(parents=True, exist_ok=True)
    return RefereeService(settings.data_dir / JOURNAL)


def _field_message(errors: list[Any]) -> str:
    parts = []
    for err in errors:
        loc = [str(p) for p in err.get("loc", ()) if p not in ("body", "query", "path", "header")]
        parts.append(f"{'.'.join(loc) or 'body'}: {err.get('msg', 'invalid')}")
    return "; ".join(parts)


async def _validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
    # FastAPI's detail list stays for programs; `message` names the field for people.
    errors = [{k: v for k, v in e.items() if k in ("loc", "msg", "type")} for e in exc.errors()]
    return JSONResponse({"detail": errors, "message": _field_message(errors)}, status_code=422)


def create_app(settings: Settings | None = None, *, service: KioskService | None = None,
               camera: CalibrationSource | None = None,
               service_factory: ServiceFactory | None = None, hardware: bool = False,
               coach_engine: EngineFactory | None = default_engine) -> FastAPI:
    """`hardware=True` (gamao run) also starts the dice link, the camera loop and the GPIO panel.
    `coach_engine` builds the coach's engine (GNU Backgammon by default; None: the coach runs without one)."""
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        owned = None
        if app.state.service is None:
            owned = (service_factory or default_service_factory)(settings)
            if hasattr(owned, "start"):
                owned.start()
            app.state.service = owned
        appliance = None
        if hardware:
            from kiosk.appliance import Appliance

            appliance = Appliance(settings, app.state.service).start()
            app.state.camera = appliance.camera
            if settings.speak and getattr(app.state, "voice", None) is None:
                from kiosk.voice import Voice

                app.state.voice = Voice(settings.table_language).listen(app.state.service)
        board = getattr(app.state.service, "tournament_board", None)  # a club board's tournament calls (issue 39)
        if board is not None and getattr(app.state, "voice", None) is not None:
            board.voice = app.state.voice
        coach = CoachService(app.state.service, coach_engine, data_dir=settings.data_dir,
                             enabled=settings.coach).start()
        app.state.coach = coach
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        drills = DrillRoom(StudentStore(settings.data_dir / STUDENTS), coach=coach)  # the teacher's table (issue 38)
        drills.follow(app.state.service)
        app.state.drills = drills
        publisher = getattr(app.state.service, "club_publisher", None)
        if publisher is not None:  # the club director's class view: who drills what at this board (issue 38)
            drills.on_change(publisher.teach(drills.lesson))
        if appliance is not None:
            appliance.follow_coach(coach)  # the dice unit's and the panel's "wait" while the tutor judges
        try:
            yield
        finally:
            app.state.coach = None
            coach.close()
            app.state.drills = None
            if publisher is not None:
                publisher.teach(None)
            drills.unfollow()
            drills.store.close()
            versus, app.state.versus = getattr(app.state, "versus", None), None
            if versus is not None:  # a match against GNU Backgammon started from the page (kiosk/versus.py)
                versus.stop()
            if appliance is not None:
                appliance.close()
                if getattr(app.state, "voice", None) is not None:
                    app.state.voice.close()
                    app.state.voice = None
            if owned is not None:
                app.state.service = None  # a restarted lifespan builds a new one
                if hasattr(owned, "close"):
                    owned.close()

    app = FastAPI(title="Gamão kiosk", version="0.1.0", lifespan=lifespan,
                  description="The screen beside the board: public state, pushes, exports, and PIN-guarded control.")
    app.state.settings = settings
    app.state.service = service
    app.state.camera = camera
    app.state.coach = None
    app.state.drills = None
    app.state.voice = None  # kiosk.voice.Voice: the referee's spoken calls (gamao run with speak = true, gamao demo)
    app.state.pins = PinStore(settings.data_dir, settings.pin_max_failures, settings.pin_lockout_seconds)
    app.add_exception_handler(RequestValidationError, _validation_error)  # type: ignore[arg-type]
    app.add_exception_handler(StarletteHTTPException, http_error)  # type: ignore[arg-type]
    app.add_middleware(BodyLimit)
    app.add_middleware(OriginGuard)  # another site's page changes nothing, body or not (webguard/origin.py)
    for module in (state, ws, matches, control, camera_routes, coach_routes, chouette_routes, dice, drills):
        app.include_router(module.router)
    # The page's words from their one table (core/page_words.py), before the static files' mount.
    app.add_api_route("/static/words.js", _words, methods=["GET"], include_in_schema=False)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    for path, name in PAGES.items():
        app.add_api_route(path, _page(STATIC / name), methods=["GET"], include_in_schema=False)
    return app


def _words(request: Request) -> Response:
    """GET /static/words.js: the players' screen's words, pt and en (kiosk/static/i18n.js imports them)."""
    status, body, headers = words_reply(request.headers.get("if-none-match"))
    return Response(body, status, headers, media_type="text/javascript; charset=utf-8")


def _page(file: Path) -> Callable[[Request], Response]:
    """GET of one of the kiosk's pages, its head put before it (webguard/page.py)."""
    def page(request: Request) -> Response:
        return page_reply(file, request)
    return page
