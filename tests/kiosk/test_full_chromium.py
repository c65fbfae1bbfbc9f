"""The kiosk page in the full Chromium, the browser the Pi runs (`chromium --kiosk`): the other page tests drive
Debian's headless shell of the same Chromium (tests/kiosk/browser.py says why), so this one checks the full
browser draws the page, takes its pushes and answers a touch at 800x480."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from core.messages import message
from kiosk.config import Settings
from kiosk.main import create_app
from kiosk.server import BackgroundServer
from tests.kiosk.browser import FULL_CHROMIUM, chromium_or_skip, full_chromium_page, page_errors, screenshot
from tests.kiosk.fakes import FakeService

MOVING = {"dice": {"values": [5, 2], "cocked": [False, False], "used": [5]}, "phase": "moving",
          "moves": [{"game": 3, "number": 1, "side": "light", "roll": [5, 2], "play": "13/8"}]}


@pytest.fixture
def live(tmp_path: Path) -> Iterator[tuple[str, FakeService]]:
    chromium_or_skip(FULL_CHROMIUM)
    fake = FakeService()
    fake.update(**MOVING)
    app = create_app(Settings(data_dir=tmp_path, language="pt"), service=fake)
    with BackgroundServer(app) as server:
        yield server.url, fake


def test_the_pis_browser_draws_the_page_takes_a_push_and_a_touch_at_800x480(live: Any) -> None:
    url, fake = live
    with full_chromium_page(800, 480) as page:
        page.goto(url + "/")
        page.wait_for_selector("[data-testid=dice] .die")
        assert page.get_attribute("[data-testid=dice]", "data-values") == "5,2"
        assert page.locator("[data-testid=board] circle.checker").count() == 30
        assert page.inner_text("#verdict-head") == "Jogada em andamento"
        fake.update(verdicts=[{"at": 5, "verdict": "illegal", "side": "light", "reason": "closed_point", "point": 3,
                               "play": "8/3 6/4", "message": message("closed_point", point=3)}])
        page.wait_for_selector("[data-testid=verdict][data-severity=illegal]", timeout=10_000)
        assert page.inner_text("#verdict-head") == "Jogada ilegal: 8/3 6/4"
        page.click("[data-testid=lang-switch]")
        assert page.inner_text("#verdict-head") == "Illegal play: 8/3 6/4"
        screenshot(page, "kiosk-full-chromium-en-illegal-800x480")
        assert page_errors(page) == []
