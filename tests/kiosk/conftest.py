from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from kiosk.config import Settings
from kiosk.main import create_app
from kiosk.service import RefereeService
from tests.kiosk.fakes import FakeService

PIN = "2468"
TOUCH_SCREEN = ("127.0.0.1", 50000)  # the kiosk's own browser: a loopback client
STRANGER = ("192.0.2.7", 50001)      # a device on the network (TEST-NET-1 address)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path / "data", language="en", pin_max_failures=5, pin_lockout_seconds=60)


@pytest.fixture
def referee(tmp_path: Path) -> Iterator[RefereeService]:
    """The real referee service over a journal in the test's folder."""
    service = RefereeService(tmp_path / "journal.sqlite")
    yield service
    service.close()


@pytest.fixture
def fake() -> FakeService:
    return FakeService()


@pytest.fixture
def client(settings: Settings, fake: FakeService) -> Iterator[TestClient]:
    # coach_engine=None: not what these tests test (the coach's gnubg runs in test_coach*.py, test_page_walk.py, tests/engine)
    app = create_app(settings, service=fake, coach_engine=None)
    with TestClient(app, client=TOUCH_SCREEN) as c:
        yield c


@pytest.fixture
def pinned(client: TestClient) -> TestClient:
    assert client.post("/api/pin", json={"pin": PIN}).status_code == 204
    return client
