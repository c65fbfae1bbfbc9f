"""GNU Backgammon killed or stopped during a match against it (issue 34, finding 8), with the real gnubg (the
Debian package) as a separate process, stopped with SIGSTOP and killed with SIGKILL by the test.

Before: the engine's play stayed empty and was never asked again, the page said nothing, and while gnubg was
stopped one DELETE /api/versus took 83 s (45 of them made the page time out). Now the failure is on the page
(`problem`, pt/en) and the decision is asked again (2 s, then doubling up to 30 s; gnubg restarts on the next
request), and ending the match kills gnubg under any request it hangs in."""

from __future__ import annotations

import os
import signal
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from core.rules.position import Side
from kiosk.config import Settings
from kiosk.main import create_app
from kiosk.service import RefereeService
from kiosk.versus import PROBLEM, Brain, Versus
from tests.kiosk.coach_game import START, board
from tests.kiosk.conftest import PIN, TOUCH_SCREEN
from tests.procs import alive, until


def _gnubg(timeout: float = 120):  # type: ignore[no-untyped-def]
    from engine.base import EngineUnavailable
    from engine.gnubg import GnubgEngine, find_gnubg

    try:
        find_gnubg()
    except EngineUnavailable as exc:
        pytest.skip(str(exc))
    return GnubgEngine(plies=0, timeout=timeout)


def _engine_to_move(service: RefereeService, name: str) -> None:
    service.submit({"event": "new_match", "length": 3, "players": {"light": name, "dark": "Ana"}})
    service.submit(board(START))
    service.submit({"event": "roll", "dice": [3, 1]})  # light (the engine) starts


@pytest.mark.parametrize("fault", ["killed", "stopped"])
def test_the_failure_is_told_and_the_play_asked_again(referee: RefereeService, fault: str) -> None:
    service = referee
    engine = _gnubg()
    engine.start()
    pid = engine.pid
    assert pid is not None
    seen: list[dict] = []
    versus = Versus(service, Brain(engine, "expert", timeout=3.0), Side.LIGHT, speak=lambda _t: None)
    versus.subscribe(seen.append)
    versus.start()
    try:
        os.killpg(pid, signal.SIGSTOP)
        _engine_to_move(service, versus.name)
        assert until(lambda: engine._lock.locked())  # the play is being asked of the stopped gnubg
        if fault == "killed":
            os.killpg(pid, signal.SIGKILL)
        # stopped: the request's 3 s time-out ends it (gnubg killed and started again in the background)
        assert until(lambda: any(s.get("problem") == PROBLEM for s in seen), 20)
        assert until(lambda: (versus.snapshot()["instruction"] or {}).get("play") is not None, 60)
        assert versus.snapshot()["problem"] is None and seen[-1]["problem"] is None
        assert engine.starts == 2 and not alive(pid)
    finally:
        versus.stop()


def test_ending_the_match_while_gnubg_is_stopped_returns_at_once(tmp_path: Path, referee: RefereeService) -> None:
    """DELETE /api/versus while the engine's request hangs in a stopped gnubg: 45 at once all answer, the first
    ends gnubg (its process group gone); none waits for the request's time-out (60 s)."""
    _gnubg()
    service = referee
    app = create_app(Settings(data_dir=tmp_path, language="en"), service=service, coach_engine=None)
    with TestClient(app, client=TOUCH_SCREEN) as screen:
        assert screen.post("/api/pin", json={"pin": PIN}).status_code == 204
        r = screen.post("/api/versus", json={"side": "light", "level": "expert"}, headers={"X-Gamao-PIN": PIN})
        assert r.status_code == 200, r.text
        versus = app.state.versus
        engine = versus.brain.engine
        engine.start()
        pid = engine.pid
        os.killpg(pid, signal.SIGSTOP)
        service.submit(board(START))
        service.submit({"event": "roll", "dice": [3, 1]})
        assert until(lambda: engine._lock.locked())
        done = threading.Event()
        codes: list[int] = []

        def stop_all() -> None:
            with ThreadPoolExecutor(45) as pool:
                codes.extend(pool.map(lambda _i: screen.delete("/api/versus", headers={"X-Gamao-PIN": PIN})
                                      .status_code, range(45)))
            done.set()

        threading.Thread(target=stop_all, daemon=True).start()
        assert done.wait(20), "DELETE /api/versus waited for the stopped gnubg"
        assert codes == [200] * 45
        assert until(lambda: not alive(pid), 5)
        assert screen.get("/api/versus").json() == {"active": False}


def test_the_page_tells_the_engines_failure_at_800x480(tmp_path: Path, referee: RefereeService) -> None:
    """The failure in words under the engine's turn (pt), in real Chromium at the kiosk's 800x480."""
    from engine.base import EngineError
    from kiosk.server import BackgroundServer
    from tests.kiosk.browser import chromium_or_skip, chromium_page, screenshot
    from tests.kiosk.coach_game import fake_engine

    chromium_or_skip()
    engine = fake_engine()
    failing = {"on": True}
    rank = engine.rank_plays

    def flaky(*args, **kwargs):  # type: ignore[no-untyped-def]
        if failing["on"]:
            raise EngineError("gnubg stopped; it will be restarted on the next request")
        return rank(*args, **kwargs)

    engine.rank_plays = flaky  # type: ignore[method-assign]
    app = create_app(Settings(data_dir=tmp_path, language="pt"), service=referee, coach_engine=fake_engine)
    versus = Versus(referee, Brain(engine, "expert"), Side.LIGHT, speak=lambda _t: None).start()
    app.state.versus = versus
    try:
        with BackgroundServer(app) as server, chromium_page(800, 480) as page:
            _engine_to_move(referee, versus.name)
            assert until(lambda: versus.snapshot()["problem"] is not None, 10)
            page.goto(f"{server.url}/?lang=pt")
            page.wait_for_selector("[data-testid=versus] .versus-problem", timeout=10000)
            assert page.inner_text("[data-testid=versus] .versus-problem") == PROBLEM["pt"]
            screenshot(page, "versus-problem-pt-800x480")
            failing["on"] = False  # gnubg answers again: the play shows and the words go
            page.wait_for_selector("[data-testid=versus-arrows] line", state="attached", timeout=15000)
            assert page.locator("[data-testid=versus] .versus-problem").count() == 0
    finally:
        versus.stop()
