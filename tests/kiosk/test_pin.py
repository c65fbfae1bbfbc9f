"""The PIN never locks out the owner: failures per client, a growing delay, the touch screen never waits,
no PIN is not a failure, and the first PIN is set only at the kiosk itself."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from kiosk.config import Settings
from kiosk.main import create_app
from kiosk.pin import PinStore, ask_first_pin, client_key, is_loopback
from tests.kiosk.conftest import PIN, STRANGER, TOUCH_SCREEN
from tests.kiosk.fakes import FakeService
from tests.pin_cost import PRODUCTION_SCRYPT, scrypt_cost
from webguard import pin as pin_module

UNDO = {"action": "undo"}


@pytest.fixture(autouse=True, scope="module")
def _production_pin_hash() -> Iterator[None]:
    """webguard/pin.py's own scrypt cost here (the rest of the run hashes at a test cost: tests/pin_cost.py)."""
    yield from scrypt_cost(PRODUCTION_SCRYPT)


def _app(tmp_path: Path, clock: list[float] | None = None):
    settings = Settings(data_dir=tmp_path / "data", language="en", pin_max_failures=5, pin_lockout_seconds=60)
    fake = FakeService()
    # coach_engine=None: not what this file tests (the coach's gnubg runs in test_coach*.py, test_page_walk.py, tests/engine)
    app = create_app(settings, service=fake, coach_engine=None)
    if clock is not None:
        app.state.pins._clock = lambda: clock[0]
    app.state.pins.set(PIN)
    return app, fake


def test_a_stranger_sends_100_wrong_pins_while_the_touch_screen_works_every_time(tmp_path: Path) -> None:
    # Each time the stranger is told to wait, it waits exactly that long (the clock jumps), so as many of its
    # 100 wrong PINs as possible are really checked (scrypt and all): the worst case for the owner.
    now = [1000.0]
    app, fake = _app(tmp_path, now)
    pins: PinStore = app.state.pins
    stranger_401 = stranger_429 = owner_ok = 0
    retry_after: list[int] = []
    with TestClient(app, client=STRANGER) as stranger, TestClient(app, client=TOUCH_SCREEN) as screen:
        for i in range(100):
            r = stranger.post("/api/correction", json=UNDO, headers={"X-Gamao-PIN": f"{9000 + i}"})
            if r.status_code == 401:
                stranger_401 += 1
            else:
                assert r.status_code == 429
                stranger_429 += 1
                retry_after.append(int(r.headers["retry-after"]))
                now[0] += int(r.headers["retry-after"])  # the stranger waits, then tries again next round
            mine = screen.post("/api/correction", json=UNDO, headers={"X-Gamao-PIN": PIN})
            owner_ok += mine.status_code == 200
    assert owner_ok == 100, "the touch screen's correct PIN must work every time"
    assert len(fake.events) == 100
    # 5 free tries, then every wrong PIN doubles the wait up to the 60 s cap.
    assert stranger_401 + stranger_429 == 100 and stranger_401 >= 50
    assert retry_after[:6] == [2, 4, 8, 16, 32, 60] and set(retry_after[6:]) == {60}
    assert pins.failures(STRANGER[0]) == stranger_401
    assert pins.failures(TOUCH_SCREEN[0]) == 0


def test_requests_without_a_pin_are_not_failures(tmp_path: Path) -> None:
    app, fake = _app(tmp_path)
    with TestClient(app, client=STRANGER) as stranger:
        for _ in range(50):  # what header-less cross-site posts from any web page look like
            r = stranger.post("/api/cube", json={"action": "double", "side": "light"})
            assert r.status_code == 401
        assert app.state.pins.failures(STRANGER[0]) == 0
        assert stranger.post("/api/correction", json=UNDO, headers={"X-Gamao-PIN": PIN}).status_code == 200


def test_wrong_pins_on_the_touch_screen_never_make_it_wait(tmp_path: Path) -> None:
    app, fake = _app(tmp_path)
    with TestClient(app, client=TOUCH_SCREEN) as screen:
        for _ in range(20):
            assert screen.post("/api/correction", json=UNDO, headers={"X-Gamao-PIN": "0000"}).status_code == 401
        assert screen.post("/api/correction", json=UNDO, headers={"X-Gamao-PIN": PIN}).status_code == 200


def test_a_right_pin_clears_the_strangers_count(tmp_path: Path) -> None:
    app, _ = _app(tmp_path)
    with TestClient(app, client=STRANGER) as phone:
        for _ in range(4):
            phone.post("/api/correction", json=UNDO, headers={"X-Gamao-PIN": "0000"})
        assert app.state.pins.failures(STRANGER[0]) == 4
        assert phone.post("/api/correction", json=UNDO, headers={"X-Gamao-PIN": PIN}).status_code == 200
        assert app.state.pins.failures(STRANGER[0]) == 0


def test_the_first_pin_only_from_the_kiosk_itself(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data", language="en")
    app = create_app(settings, service=FakeService(), coach_engine=None)
    with TestClient(app, client=STRANGER) as stranger:
        r = stranger.post("/api/pin", json={"pin": "1111"})
        assert r.status_code == 403 and "touch screen" in r.json()["detail"]
        assert not app.state.pins.is_set()
    with TestClient(app, client=("::1", 4000)) as screen:
        assert screen.post("/api/pin", json={"pin": PIN}).status_code == 204
    with TestClient(app, client=STRANGER) as stranger:
        # Once set, changing it from the network needs the current PIN like any control.
        assert stranger.post("/api/pin", json={"pin": "1111"}).status_code == 401
        assert stranger.post("/api/pin", json={"pin": "1111"}, headers={"X-Gamao-PIN": PIN}).status_code == 204


def test_the_console_sets_the_first_pin(tmp_path: Path) -> None:
    store = PinStore(tmp_path)
    answers = iter(["12", "4321", "4320", "4321", "4321"])
    said: list[str] = []
    assert ask_first_pin(store, ask=lambda _prompt: next(answers), say=said.append)
    assert store.is_set() and any("4 to 12 digits" in s for s in said) and any("differ" in s for s in said)
    store.check("4321", "192.0.2.1")
    # Stored as webguard/pin.py's scrypt at its own cost (n 2^14, r 8: 16 MB), never the PIN itself.
    record = json.loads(store.path.read_text())
    assert {k: record[k] for k in ("algorithm", "n", "r", "p")} == {"algorithm": "scrypt", **PRODUCTION_SCRYPT}
    assert PRODUCTION_SCRYPT == {"n": 2**14, "r": 8, "p": 1} and "4321" not in store.path.read_text()
    # Already set: the console asks nothing.
    assert not ask_first_pin(store, ask=lambda _prompt: pytest.fail("asked"), say=said.append)


def test_the_console_can_leave_it_to_the_touch_screen(tmp_path: Path) -> None:
    store = PinStore(tmp_path)
    assert not ask_first_pin(store, ask=lambda _prompt: "", say=lambda _s: None)
    assert not store.is_set()


def test_loopback_and_client_keys() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("127.3.4.5") and is_loopback("::1")
    assert is_loopback("::ffff:127.0.0.1")
    assert not is_loopback("192.168.1.20") and not is_loopback("testclient") and not is_loopback(None)
    assert not is_loopback("::ffff:192.168.1.20") and not is_loopback("fe80::1")
    # One IPv6 device can use any address of its /64: counted as one.
    assert client_key("2001:db8:1:2::5") == client_key("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert client_key("::ffff:10.0.0.5") == "10.0.0.5"


def test_memory_stays_bounded_whatever_the_number_of_clients(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(pin_module, "MAX_CLIENTS", 50)
    store = PinStore(tmp_path)
    store.set(PIN)
    for i in range(200):
        with pytest.raises(pin_module.PinError):
            store.check("99999999999999", f"10.0.{i // 250}.{i % 250}")  # too long: no scrypt, still counted
    assert len(store._clients) == 50
