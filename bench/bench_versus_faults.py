"""GNU Backgammon killed or stopped during a match against it (issue 34, finding 8), on any version of the kiosk:
(a) gnubg killed while the engine's play is asked: is the play shown within 30 s, and did the page say so;
(b) gnubg stopped (SIGSTOP) while the play is asked: seconds for 45 parallel DELETE /api/versus, the slowest one.
`python -m bench.bench_versus_faults` (needs the Debian gnubg)."""

from __future__ import annotations

import json
import os
import signal
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from fastapi.testclient import TestClient

from core.rules.position import Position, Side
from engine.gnubg import GnubgEngine
from kiosk.config import Settings
from kiosk.main import create_app
from kiosk.service import RefereeService
from kiosk.versus import Brain, Versus
from tests.procs import until

PIN = "2468"


def board(pos: Position) -> dict:
    return {"event": "board", **pos.to_dict(), "stable": True}


def killed() -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        service = RefereeService(Path(tmp) / "journal.sqlite")
        engine = GnubgEngine(plies=0, timeout=120)
        engine.start()
        pid = engine.pid
        seen: list[dict] = []
        versus = Versus(service, Brain(engine, "expert"), Side.LIGHT, speak=lambda _t: None)
        versus.subscribe(seen.append)
        versus.start()
        os.killpg(pid, signal.SIGSTOP)
        service.submit({"event": "new_match", "length": 3, "players": {"light": versus.name, "dark": "Ana"}})
        service.submit(board(Position.start()))
        service.submit({"event": "roll", "dice": [3, 1]})
        until(lambda: engine._lock.locked(), 10)
        os.killpg(pid, signal.SIGKILL)
        start = time.monotonic()
        shown = until(lambda: (versus.snapshot()["instruction"] or {}).get("play") is not None, 30)
        out = {"killed_play_shown_within_30s": shown,
               "killed_seconds_to_play": round(time.monotonic() - start, 1) if shown else None,
               "killed_page_told": any(s.get("problem") for s in seen)}
        getattr(versus, "stop", None) and versus.stop()  # type: ignore[func-returns-value]
        versus.close()
        engine.close()
        service.close()
        return out


def stopped() -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        service = RefereeService(Path(tmp) / "journal.sqlite")
        app = create_app(Settings(data_dir=Path(tmp), language="en"), service=service, coach_engine=None)
        with TestClient(app, client=("127.0.0.1", 50000)) as screen:
            screen.post("/api/pin", json={"pin": PIN})
            screen.post("/api/versus", json={"side": "light", "level": "expert"}, headers={"X-Gamao-PIN": PIN})
            engine = app.state.versus.brain.engine
            engine.start()
            os.killpg(engine.pid, signal.SIGSTOP)
            service.submit(board(Position.start()))
            service.submit({"event": "roll", "dice": [3, 1]})
            until(lambda: engine._lock.locked(), 10)
            times: list[float] = []

            def one(_i: int) -> int:
                t = time.monotonic()
                code = screen.delete("/api/versus", headers={"X-Gamao-PIN": PIN}).status_code
                times.append(time.monotonic() - t)
                return code

            start = time.monotonic()
            with ThreadPoolExecutor(45) as pool:
                codes = list(pool.map(one, range(45)))
            wall = time.monotonic() - start
        service.close()
        return {"stopped_deletes_200": codes.count(200), "stopped_delete_slowest_s": round(max(times), 1),
                "stopped_wall_s": round(wall, 1)}


if __name__ == "__main__":
    print(json.dumps({**killed(), **stopped()}))
