"""Fixtures for the dice bridge tests. ``--soak`` (declared in tests/conftest.py) or GAMAO_SOAK=1 runs the long fuzz."""

from __future__ import annotations

import pytest

from tests.firmware_bridge.helpers import FakeClock, ListTransport


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def transport() -> ListTransport:
    return ListTransport()
