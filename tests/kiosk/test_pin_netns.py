"""The kiosk's PIN against 60 network addresses at once (issue 22): each in its own network namespace (root), guessing
as fast as the kiosk answers. Wrong PINs checked are bounded by the shared limit for all remote clients together
(webguard/pin.py: REMOTE_BURST, then REMOTE_PER_HOUR), however many addresses try; and the owner's controls on the
kiosk's own screen (loopback) keep working throughout. bench/bench_pin_attack.py measures the rates and the
owner's latency, before and after."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.config import Settings
from kiosk.main import create_app
from tests.kiosk import netns
from tests.kiosk.conftest import PIN
from tests.kiosk.fakes import FakeService
from tests.pin_cost import PRODUCTION_SCRYPT, scrypt_cost
from webguard.pin import REMOTE_BURST, REMOTE_CHECKING, REMOTE_PER_HOUR

SECONDS = 12.0


@pytest.fixture(autouse=True, scope="module")
def _production_pin_hash() -> Iterator[None]:
    """webguard/pin.py's own scrypt cost here (the rest of the run hashes at a test cost: tests/pin_cost.py)."""
    yield from scrypt_cost(PRODUCTION_SCRYPT)


def test_sixty_addresses_guessing_pins_and_the_owner_at_the_kiosk(tmp_path: Path) -> None:
    why = netns.available()
    if why is not None:
        pytest.skip(f"no network namespaces here: {why}")
    app = create_app(Settings(data_dir=tmp_path, language="en"), service=FakeService(), coach_engine=None)
    app.state.pins.set(PIN)
    result = netns.measure(app, PIN, SECONDS)
    print(f"60 addresses for {SECONDS:.0f} s: {result}")
    answers = result["answers"]
    assert sum(answers.values()) > 60  # every address tried, more than once
    # the shared limit: all remote clients together never get more than the burst and the hourly rate
    bound = REMOTE_BURST + REMOTE_PER_HOUR * (SECONDS + 5) / 3600 + REMOTE_CHECKING
    assert result["wrong_pins_checked"] <= bound, result
    assert answers.get("429", 0) > 0 and answers.get("error", 0) == 0
    # the owner's presses all went through (none refused, none made to wait)
    owner = result["owner"]
    assert owner["presses"] >= 5 and owner["ok"] == owner["presses"]
