"""The kiosk under a real uvicorn on 127.0.0.1, with real HTTP and WebSocket clients."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.sync.client import connect

from kiosk.config import Settings
from kiosk.main import create_app
from kiosk.server import BackgroundServer
from tests.kiosk.conftest import PIN
from tests.kiosk.fakes import FakeService
from tests.procs import until
from tests.web import HTTP


@pytest.fixture
def live(tmp_path: Path) -> Iterator[tuple[str, FakeService]]:
    fake = FakeService()
    with BackgroundServer(create_app(Settings(data_dir=tmp_path, language="en"), service=fake)) as server:
        yield server.url, fake


def test_state_over_real_http(live) -> None:
    url, _ = live
    body = HTTP.get(url + "/api/state").json()
    assert body["turn"] == "light" and body["cube"]["value"] == 1


def test_every_change_is_pushed_to_every_socket(live) -> None:
    url, fake = live
    ws_url = url.replace("http", "ws") + "/ws"
    with connect(ws_url) as a, connect(ws_url) as b:
        assert json.loads(a.recv(timeout=5))["phase"] == "awaiting_roll"
        assert json.loads(b.recv(timeout=5))["phase"] == "awaiting_roll"
        fake.update(dice={"values": [4, 4], "cocked": [False, False], "used": []}, phase="moving")
        for ws in (a, b):
            assert json.loads(ws.recv(timeout=5))["dice"]["values"] == [4, 4]


def test_control_action_over_http_is_pushed(live) -> None:
    url, fake = live
    assert HTTP.post(url + "/api/pin", json={"pin": PIN}).status_code == 204
    with connect(url.replace("http", "ws") + "/ws") as ws:
        ws.recv(timeout=5)
        r = HTTP.post(url + "/api/cube", json={"action": "double", "side": "light"}, headers={"X-Gamao-PIN": PIN})
        assert r.status_code == 200
        pushed = json.loads(ws.recv(timeout=5))
        assert pushed["verdicts"][-1]["verdict"] == "cube_accepted"


def test_closed_socket_unsubscribes(live) -> None:
    url, fake = live
    base = fake.subscribers()  # the coach (kiosk/coach.py) follows the service for as long as the kiosk runs
    with connect(url.replace("http", "ws") + "/ws") as ws:
        ws.recv(timeout=5)
        assert fake.subscribers() == base + 1
    fake.update(turn="dark")  # the server notices the closed socket when it next reads or writes
    until(lambda: fake.subscribers() == base, 10)  # a bound for a failure (2 s was tight on a loaded machine)
    assert fake.subscribers() == base
