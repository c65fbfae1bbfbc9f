"""The director's page and API (FastAPI): read-only for everyone, control behind the director's PIN.

``GET /api/boards`` is the contract (docs/CONTRACTS.md); ``/ws`` pushes the boards that changed; the
page (club/static) draws the grid with the kiosk's own board drawing (kiosk/static/board.js).
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Header, HTTPException, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from club.director import Director

STATIC = Path(__file__).with_name("static")
KIOSK_STATIC = Path(__file__).resolve().parents[1] / "kiosk" / "static"
PUSH_EVERY = 0.05  # seconds: at most 20 pushes a second to each page


class RenameIn(BaseModel):
    name: str = Field(max_length=40, description="the name shown for the board (empty: its own name)")


def create_app(director: Director, pins: Any) -> FastAPI:
    """`pins`: the director's PIN store (kiosk.pin.PinStore: is_set(), check(pin) raising an error with
    `status` and `retry_after`)."""
    app = FastAPI(title="Gamão club director", version="0.1.0",
                  description="Every board of the club: live grid, results, .mat files; control needs the PIN.")
    app.state.director = director
    app.state.pins = pins
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.mount("/kiosk", StaticFiles(directory=KIOSK_STATIC), name="kiosk")

    def need_pin(pin: str | None) -> None:
        if not pins.is_set():
            raise HTTPException(403, "the director's PIN is not set: start `gamao director` with --pin")
        try:
            pins.check(pin)
        except Exception as exc:
            status = getattr(exc, "status", None)
            if status is None:
                raise
            retry = getattr(exc, "retry_after", None)
            headers = {"Retry-After": str(int(retry) + 1)} if retry else None
            raise HTTPException(status, str(exc), headers=headers) from None

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "director.html", headers={"Cache-Control": "no-cache"})

    @app.get("/board/{club}/{board}", include_in_schema=False)
    def board_page(club: str, board: str) -> FileResponse:
        return FileResponse(STATIC / "board.html", headers={"Cache-Control": "no-cache"})

    @app.get("/api/boards", summary="Every board: players, score, length, phase, last verdict")
    def boards() -> list[dict[str, Any]]:
        return director.boards()

    @app.get("/api/boards/{club}/{board}", summary="One board in full: label, attention, public state")
    def board(club: str, board: str) -> dict[str, Any]:
        try:
            return director.detail(club, board, moves=True)
        except KeyError:
            raise HTTPException(404, f"no board {board!r} in club {club!r} has been heard from") from None

    @app.get("/api/results", summary="Finished (or closed) matches, newest first")
    def results() -> list[dict[str, Any]]:
        return director.results()

    @app.get("/api/results/{club}/{board}/{match}.mat", response_class=PlainTextResponse,
             summary="An archived match as a .mat file")
    def mat(club: str, board: str, match: int) -> PlainTextResponse:
        try:
            text = director.mat(club, board, match)
        except KeyError:
            raise HTTPException(404, f"the archive has no match {match} from board {board!r}") from None
        return PlainTextResponse(text, headers={
            "Content-Disposition": f'attachment; filename="{club}-{board}-{match}.mat"'})

    @app.post("/api/boards/{club}/{board}/rename", status_code=204, summary="Name a board on the page (PIN)")
    def rename(club: str, board: str, body: RenameIn,
               x_gamao_pin: Annotated[str | None, Header()] = None) -> None:
        need_pin(x_gamao_pin)
        try:
            director.rename(club, board, body.name.strip())
        except KeyError:
            raise HTTPException(404, f"no board {board!r} in club {club!r}") from None

    @app.post("/api/boards/{club}/{board}/close", summary="Close the board's match at its present score (PIN)")
    def close(club: str, board: str, x_gamao_pin: Annotated[str | None, Header()] = None) -> JSONResponse:
        need_pin(x_gamao_pin)
        try:
            return JSONResponse(director.close_match(club, board))
        except KeyError:
            raise HTTPException(404, f"board {board!r} in club {club!r} has no match to close") from None
        except ValueError as exc:
            raise HTTPException(409, str(exc)) from None

    @app.websocket("/ws")
    async def ws(socket: WebSocket) -> None:
        """First every board, then the boards that changed: {"boards": [detail...], "results": version}."""
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
                    mark = (d["updated"], d["events"], d["label"], d["online"], d["attention"])
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
