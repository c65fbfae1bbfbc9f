"""Proxy headers are not believed unless configured (issue 22): uvicorn's default believed X-Forwarded-For from any
client on 127.0.0.1, so a client could name itself, and behind a proxy on the Pi every client looked like the
owner. Both servers (the kiosk's and the club director's) are served by kiosk.server.uvicorn_config."""

from __future__ import annotations

from pathlib import Path

from kiosk.config import Settings
from kiosk.main import create_app
from kiosk.server import BackgroundServer
from tests.kiosk.conftest import PIN
from tests.kiosk.fakes import FakeService
from tests.web import HTTP

MATCH = {"length": 3, "players": {"light": "Ana", "dark": "Bia"}}


def _app(tmp_path: Path):
    app = create_app(Settings(data_dir=tmp_path, language="en"), service=FakeService())
    app.state.pins.set(PIN)
    return app


def test_x_forwarded_for_is_not_believed_and_a_proxied_client_is_not_the_owner(tmp_path: Path) -> None:
    app = _app(tmp_path)
    pins = app.state.pins
    with BackgroundServer(app) as srv:
        for _ in range(8):
            r = HTTP.post(f"{srv.url}/api/match", json=MATCH,
                           headers={"X-Gamao-PIN": "0000", "X-Forwarded-For": "10.1.2.3"})
            assert r.status_code in (401, 429)
        assert r.status_code == 429  # counted (not the owner's loopback), under one key, not the named address
        assert pins.failures("10.1.2.3") == 0 and pins.failures("proxied") >= 5
        # the owner's own screen (loopback, no proxy header) is never made to wait
        assert HTTP.post(f"{srv.url}/api/match", json=MATCH, headers={"X-Gamao-PIN": "0000"}).status_code == 401
        assert HTTP.post(f"{srv.url}/api/match", json=MATCH, headers={"X-Gamao-PIN": PIN}).status_code == 200


def test_a_configured_proxy_is_believed(tmp_path: Path) -> None:
    app = _app(tmp_path)
    with BackgroundServer(app, trust_proxy="127.0.0.1") as srv:
        r = HTTP.post(f"{srv.url}/api/match", json=MATCH, headers={"X-Gamao-PIN": "0000",
                                                                   "X-Forwarded-For": "10.1.2.3"})
        assert r.status_code == 401
        assert app.state.pins.failures("10.1.2.3") == 1
