"""The clock and the dice statistics in real headless Chromium at 800x480, against a real server and service
(issue 21): both times large, the running side lit with its delay, a press on the touch screen without the PIN;
the /dice page with the unit's counts and tests."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from core.rules.position import Position, Side
from kiosk.dicelog import DiceLog
from kiosk.service import RefereeService
from tests.clock import FakeClock
from tests.core.referee.scenarios import moved
from tests.kiosk.browser import chromium_page, screenshot
from tests.kiosk.live import live_kiosk

START = Position.start()


@pytest.fixture
def live(tmp_path: Path) -> Iterator[tuple[str, RefereeService, FakeClock, Path]]:
    clock = FakeClock(500.0)
    with live_kiosk(tmp_path, monotonic=clock) as (url, service, _):
        yield url, service, clock, tmp_path


def test_timed_match_shows_both_clocks_and_the_touch_screen_presses(live: Any) -> None:
    url, service, clock, _ = live
    service.submit({"event": "new_match", "length": 7, "players": {"light": "Ana", "dark": "Bruno"},
                    "rules": {"rule_set": "tournament_usbgf"}})
    clock.now += 2
    service.submit({"event": "roll", "dice": [3, 1]})
    service.submit({"event": "board", **START.play((3, 1), "8/5 6/5").to_dict(), "stable": True})
    clock.now += 40  # 40 s on the opening play: 28 s from Ana's bank
    with chromium_page(800, 480) as page:
        page.goto(url + "/")
        page.wait_for_selector("[data-testid=clock]:not([hidden])")
        assert page.get_attribute("[data-testid=clock]", "data-running") == "light"
        assert page.text_content("[data-testid=clock-dark] .clock-time") == "14:00"
        page.click("[data-testid=clock-light]")  # Ana presses her clock on the screen: no PIN at the board
        page.wait_for_selector("[data-testid=clock][data-running=dark]")
        assert service.state()["clock"]["light"] == 840 - 28
        assert page.text_content("[data-testid=clock-light] .clock-time") == "13:32"
        clock.now += 5
        service.submit({"event": "roll", "dice": [6, 4]})
        page.wait_for_function("document.querySelector('[data-testid=dice]').dataset.values === '6,4'")
        box = page.locator("[data-testid=clock-light]").bounding_box()
        assert box is not None and box["height"] >= 48 and box["y"] + box["height"] <= 480  # a target, on screen
        assert page.locator("[data-testid=clock-dark] .clock-delay").inner_text().startswith("atraso")
        screenshot(page, "clock-800x480")


def fall_the_flag(service: RefereeService, clock: FakeClock) -> None:
    """A 1-point match with 30 s a point and a 12 s delay: Ana rolls 3-1 and sits on it for 50 s, her flag falls."""
    service.submit({"event": "new_match", "length": 1, "players": {"light": "Ana", "dark": "Bruno"},
                    "rules": {"clock": {"per_point": 30, "delay": 12}}})
    service.submit({"event": "roll", "dice": [3, 1]})
    clock.now += 50
    service.submit({"event": "tick"})


def test_a_fallen_flag_on_screen(live: Any) -> None:
    url, service, clock, _ = live
    fall_the_flag(service, clock)
    with chromium_page(800, 480) as page:
        page.goto(url + "/")
        page.wait_for_selector("[data-testid=clock-light].fallen")
        # in words, large: no emoji (the appliance has no emoji font; issue 37)
        assert page.text_content("[data-testid=clock-light] .clock-delay") == "Bandeira caiu"
        assert page.get_attribute("[data-testid=verdict]", "data-verdict") == "match_over"


def test_dice_page_at_800x480(live: Any) -> None:
    url, _, _, data = live
    log, rng = DiceLog(data), random.Random(21)
    log.seen({"event": "hello", "unit": "GAMAO1", "boot": "b"})
    for seq in range(1, 1501):
        log.seen({"event": "roll", "seq": seq, "dice": [rng.randint(1, 6), rng.randint(1, 6)],
                  "cocked": [seq % 90 == 0, False]}, match=1 + seq // 600)
    with chromium_page(800, 480) as page:
        page.goto(url + "/dice?scope=life&lang=pt")
        page.wait_for_selector("body[data-ready=true]")
        assert "1484 lançamentos · 16 inclinados · 16 relançados" in page.inner_text("[data-testid=dice-summary]")
        assert page.locator(".die-card").count() == 2 and page.locator(".grid span").count() == 36
        for b in page.locator("[data-scope], #lang, #back").all():
            box = b.bounding_box()
            assert box is not None and box["height"] >= 48 and box["y"] + box["height"] <= 480
        card = page.locator(".pairs-card").bounding_box()
        assert card is not None and card["y"] + card["height"] <= 480 and card["x"] + card["width"] <= 800
        screenshot(page, "dice-800x480-pt")
        page.click("#lang")
        page.click("[data-scope=match]")
        assert "rolls" in page.inner_text("[data-testid=dice-summary]")
        screenshot(page, "dice-800x480-en")


def test_the_opponent_answers_a_flagged_illegal_play_on_the_touch_screen(live: Any) -> None:
    url, service, clock, _ = live
    service.submit({"event": "new_match", "length": 5, "players": {"light": "Ana", "dark": "Bruno"},
                    "rules": {"rule_set": "tournament_usbgf"}})
    service.submit({"event": "roll", "dice": [3, 1]})
    bad = moved(moved(START, Side.LIGHT, 8, 4), Side.LIGHT, 6, 5)  # 8/4: a 4 that was not rolled
    service.submit({"event": "board", **bad.to_dict(), "stable": True})
    clock.now += 10
    service.submit({"event": "button", "name": "clock", "side": "light"})
    with chromium_page(800, 480) as page:
        page.goto(url + "/")
        page.wait_for_selector("[data-testid=illegal-answer]:not([hidden])")
        assert "Bruno: aceitar a jogada ilegal ou pedir correção?" in page.inner_text("[data-testid=illegal-answer]")
        for b in page.locator("[data-testid=illegal-answer] button").all():
            box = b.bounding_box()
            assert box is not None and box["height"] >= 48 and box["y"] + box["height"] <= 480
        screenshot(page, "illegal-answer-800x480")
        page.click("[data-testid=illegal-answer] button[data-answer=accept]")
        page.wait_for_selector("[data-testid=clock][data-running=dark]")
        assert page.locator("[data-testid=illegal-answer]").is_hidden()
    assert service.referee.games[-1]["answers"][0]["answer"] == "accept"
