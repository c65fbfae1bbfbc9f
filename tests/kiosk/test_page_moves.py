"""The move list in real headless Chromium: a dance (a roll with no legal play, R25) reads "não joga" /
"no play", never a bare `66:`."""

from __future__ import annotations

from pathlib import Path

from kiosk.config import Settings
from kiosk.main import create_app
from kiosk.server import BackgroundServer
from tests.kiosk.browser import chromium_or_skip, chromium_page
from tests.kiosk.fakes import FakeService

DANCE = {"phase": "awaiting_roll", "turn": "light",
         "moves": [{"game": 3, "number": 19, "side": "light", "roll": [6, 4], "play": "24/18 13/9"},
                   {"game": 3, "number": 20, "side": "dark", "roll": [6, 6], "play": ""}]}


def test_a_dance_reads_no_play_in_both_languages(tmp_path: Path) -> None:
    chromium_or_skip()
    fake = FakeService()
    fake.update(**DANCE)
    app = create_app(Settings(data_dir=tmp_path, language="pt"), service=fake)
    with BackgroundServer(app) as server, chromium_page() as page:
        page.goto(server.url + "/")
        page.wait_for_selector("[data-testid=move-list] li")
        items = page.locator("[data-testid=move-list] li").all_inner_texts()
        assert items[-1].rstrip().endswith("66: não joga") and "24/18 13/9" in items[0]
        page.click("#lang")
        page.wait_for_function("document.documentElement.lang === 'en'")
        items = page.locator("[data-testid=move-list] li").all_inner_texts()
        assert items[-1].rstrip().endswith("66: no play")
