"""60 parallel `GET /api/coach/review` against a real kiosk server while the owner's screen asks `GET /api/state`
(issue 34, finding 4). Each review is made to cost what a real one costs on the Pi (pure-Python CPU for
`COST` seconds, holding the GIL as the journal's replay does). Prints the state's worst and median latency and
the reviews' answers. Runs against any version: `python -m bench.bench_coach_guard`."""

from __future__ import annotations

import json
import statistics
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from kiosk.config import Settings
from kiosk.main import create_app
from kiosk.server import BackgroundServer
from kiosk.service import RefereeService
from tests.kiosk.coach_game import fake_engine
from tests.web import HTTP

COST = 0.3


def _busy_review(match: str = "current", game: int | None = None) -> dict[str, object]:
    end = time.thread_time() + COST
    n = 0
    while time.thread_time() < end:
        n += 1
    return {"games": [], "n": n}


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        service = RefereeService(Path(tmp) / "journal.sqlite")
        app = create_app(Settings(data_dir=Path(tmp), language="en"), service=service, coach_engine=fake_engine)
        with BackgroundServer(app) as server:
            app.state.coach.review = _busy_review
            latencies: list[float] = []
            stop = threading.Event()

            def owner() -> None:
                while not stop.is_set():
                    t = time.monotonic()
                    HTTP.get(server.url + "/api/state", timeout=60)
                    latencies.append(time.monotonic() - t)
                    time.sleep(0.1)

            watcher = threading.Thread(target=owner)
            start = time.monotonic()
            with ThreadPoolExecutor(60) as pool:
                watcher.start()
                codes = [f.result().status_code for f in
                         [pool.submit(HTTP.get, server.url + "/api/coach/review", timeout=120) for _ in range(60)]]
            stop.set()
            watcher.join()
        service.close()
    print(json.dumps({"reviews_200": codes.count(200), "reviews_429": codes.count(429),
                      "state_requests": len(latencies), "state_worst_s": round(max(latencies), 3),
                      "state_median_s": round(statistics.median(latencies), 3),
                      "seconds": round(time.monotonic() - start, 1)}))


if __name__ == "__main__":
    main()
