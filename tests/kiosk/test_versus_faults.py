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
import time
from collections.abc import Iterator
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


def _gnubg(timeout: float = 120):  # type: ignore[no-untyped-def]
    from engine.base import EngineUnavailable
    from engine.gnubg import GnubgEngine, find_gnubg

    try:
        find_gnubg()
    except EngineUnavailable as exc:
        pytest.skip(str(exc))
    return GnubgEngine(plies=0, timeout=timeout)


@pytest.fixture
def service(tmp_path: Path) -> Iterator[RefereeService]:
    s = RefereeService(tmp_path / "journal.sqlite")
    yield s
    s.close()


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def _until(check, within: float = 30.0) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.02)
    return False


def _engine_to_move(service: RefereeService, name: str) -> None:
    service.submit({"event": "new_match", "length": 3, "players": {"light": name, "dark": "Ana"}})
    service.submit(board(START))
    service.submit({"event": "roll", "dice": [3, 1]})  # light (the engine) starts


@pytest.mark.parametrize("fault", ["killed", "stopped"])
def test_the_failure_is_told_and_the_play_asked_again(service: RefereeService, fault: str) -> None:
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
        assert _until(lambda: engine._lock.locked())  # the play is being asked of the stopped gnubg
        if fault == "killed":
            os.killpg(pid, signal.SIGKILL)
        # stopped: the request's 3 s time-out ends it (gnubg killed and started again in the background)
        assert _until(lambda: any(s.get("problem") == PROBLEM for s in seen), 20)
        assert _until(lambda: (versus.snapshot()["instruction"] or {}).get("play") is not None, 60)
        assert versus.snapshot()["problem"] is None and seen[-1]["problem"] is None
        assert engine.starts == 2 and not _alive(pid)
    finally:
        versus.stop()


def test_ending_the_match_while_gnubg_is_stopped_returns_at_once(tmp_path: Path, service: RefereeService) -> None:
    """DELETE /api/versus while the engine's request hangs in a stopped gnubg: 45 at once all answer, the first
    ends gnubg (its process group gone); none waits for the request's time-out (60 s)."""
    _gnubg()
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
        assert _until(lambda: engine._lock.locked())
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
        assert _until(lambda: not _alive(pid), 5)
        assert screen.get("/api/versus").json() == {"active": False}
