"""The coach's routes under attack (issue 34, finding 4): every state-changing route behind the PIN (the touch
screen presses without it, as the clock) and the Origin check, the expensive ones bounded in concurrency.

Before: any device on the network undid a play with a body-less `POST /api/coach/takeback` (so a cross-site form
worked too), pushed ranked plays onto the screen, and 60 parallel reviews took every worker thread, so the
owner's `GET /api/state` waited for them (9.3 s; bench/bench_coach_guard.py measures it).
"""

from __future__ import annotations

import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from kiosk.config import Settings
from kiosk.main import create_app
from kiosk.routers import coach as coach_routes
from kiosk.server import BackgroundServer
from kiosk.service import RefereeService
from tests.kiosk.coach_game import fake_engine
from tests.kiosk.conftest import PIN, STRANGER, TOUCH_SCREEN
from tests.web import HTTP

EVIL = {"Origin": "http://evil.example"}


@pytest.fixture
def app(tmp_path: Path, referee: RefereeService):  # type: ignore[no-untyped-def]
    app = create_app(Settings(data_dir=tmp_path, language="en"), service=referee, coach_engine=fake_engine)
    app.state.pins.set(PIN)
    return app


@pytest.mark.parametrize("path", ["/api/coach/takeback", "/api/coach/plays", "/api/coach/cube"])
def test_a_device_on_the_network_needs_the_pin_for_the_coachs_buttons(app, path: str) -> None:  # type: ignore[no-untyped-def]
    with TestClient(app, client=STRANGER) as phone, TestClient(app, client=TOUCH_SCREEN) as screen:
        assert phone.post(path).status_code == 401                               # body-less, no PIN
        assert phone.post(path, headers={"X-Gamao-PIN": PIN}).status_code == 409  # let in: nothing to do now
        assert screen.post(path).status_code == 409                              # the players at the board


def _changing_routes(app) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    routes = []
    for path, operations in app.openapi()["paths"].items():
        for method in sorted(set(operations) & {"post", "put", "patch", "delete"}):
            routes.append((method.upper(), re.sub(r"\{[^}]+\}", "1", path)))
    return routes


def test_another_sites_page_changes_nothing_body_or_not(app) -> None:  # type: ignore[no-untyped-def]
    """Every POST, PUT, PATCH and DELETE of the kiosk, from its own screen with the right PIN, is refused (403)
    when a page of another site sends it: Origin foreign or null, or Sec-Fetch-Site cross-site."""
    routes = _changing_routes(app)
    assert len(routes) >= 15 and ("POST", "/api/coach/takeback") in routes
    with TestClient(app, client=TOUCH_SCREEN) as screen:
        for method, path in routes:
            for headers in (EVIL, {"Origin": "null"}, {"Sec-Fetch-Site": "cross-site"}):
                r = screen.request(method, path, headers={**headers, "X-Gamao-PIN": PIN})
                assert r.status_code == 403, (method, path, headers, r.status_code)
                assert "another site" in r.json()["message"]
        own = screen.post("/api/coach/takeback", headers={"Origin": "http://testserver"})
        assert own.status_code == 409  # the kiosk's own page (same origin) goes through


def test_sixty_parallel_reviews_leave_the_owners_state_free(app, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """Each review is held until released: at most EXPENSIVE run at once, the others are answered 429 at once,
    and the owner's GET /api/state is answered while they are held (before: every worker thread held a review
    and the state waited)."""
    release = threading.Event()
    running = []

    def held_review(match: str = "current", game: int | None = None) -> dict[str, object]:
        running.append(1)
        release.wait(10)
        return {"games": []}

    with BackgroundServer(app) as server:
        monkeypatch.setattr(app.state.coach, "review", held_review)
        with ThreadPoolExecutor(60) as pool:
            futures = [pool.submit(HTTP.get, server.url + "/api/coach/review", timeout=15) for _ in range(60)]
            deadline = time.monotonic() + 10
            while sum(f.done() for f in futures) < 60 - coach_routes.EXPENSIVE and time.monotonic() < deadline:
                time.sleep(0.02)
            state = HTTP.get(server.url + "/api/state", timeout=5)  # while the reviews are held
            assert state.status_code == 200
            release.set()
            codes = [f.result().status_code for f in futures]
        refused = codes.count(429)
        assert codes.count(200) + refused == 60
        assert refused >= 60 - coach_routes.EXPENSIVE
        assert len(running) <= coach_routes.EXPENSIVE


@pytest.mark.parametrize("name", ["Ana\nB", "Nul\x00", "x" * 41, "  "])
def test_the_versus_players_name_is_checked_like_every_players(app, name: str) -> None:  # type: ignore[no-untyped-def]
    """Issue 34, finding 9: newlines and NUL were accepted in the versus player's name."""
    with TestClient(app, client=TOUCH_SCREEN) as screen:
        r = screen.post("/api/versus", json={"player": name}, headers={"X-Gamao-PIN": PIN})
        assert r.status_code == 422 and r.json()["message"].startswith("player:")
