"""The table's conventions on the kiosk (R19-R22, issue 36): the touch-move claim by touching the point on the
drawn board (a confirmation, then POST /api/touch-move: no PIN at the board, the PIN from elsewhere), the ruling on
the banner, the journal keeping claim and ruling, and each rule set's conventions on the Regras card, in real
headless Chromium at 800x480."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from core.referee.rulesets import NAMES
from core.rules.position import Position
from kiosk.service import RefereeService
from kiosk.voice import calls_for, phrase
from tests.kiosk.browser import chromium_page, screenshot
from tests.kiosk.conftest import PIN, STRANGER, TOUCH_SCREEN
from tests.kiosk.live import live_kiosk
from tests.kiosk.test_tournament_kiosk import app_client

START = Position.start()


@pytest.fixture
def live(tmp_path: Path) -> Iterator[tuple[str, RefereeService]]:
    with live_kiosk(tmp_path) as (url, service, _):
        yield url, service


def claim_on_screen(page: Any, own: int) -> None:
    """The opponent touches the point labelled ``own`` (the mover's numbering) and confirms."""
    box = page.locator(f"#board polygon[data-own='{own}']").bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.2)
    page.wait_for_selector("[data-testid=touch-claim]:not([hidden])")
    for b in ("ok", "cancel"):
        r = page.locator(f"[data-testid=touch-claim-{b}]").bounding_box()
        assert r is not None and r["height"] >= 48 and r["y"] + r["height"] <= 480
    page.click("[data-testid=touch-claim-ok]")


@pytest.mark.parametrize("name", NAMES)
def test_r19_touch_move_claimed_on_the_drawn_board(live: Any, name: str) -> None:
    url, service = live
    service.submit({"event": "new_match", "length": 5, "players": {"light": "Ana", "dark": "Bruno"},
                    "rules": {"rule_set": name}})
    service.submit({"event": "roll", "dice": [3, 1]})
    want = "touch_move_upheld" if name == "casual" else "touch_move_not_in_rules"
    with chromium_page(800, 480) as page:
        page.goto(url + "/")
        page.wait_for_selector("[data-testid=verdict][data-verdict=opening]")
        assert "Bruno: Ana tocou uma peça da casa 8?" not in page.inner_text("body")
        claim_on_screen(page, 8)
        page.wait_for_selector(f"[data-testid=verdict][data-verdict={want}]")
        head = page.inner_text("#verdict-head")
        if name == "casual":
            assert head == "Peça tocada: Ana joga uma peça da casa 8"
            assert page.locator("#board polygon[data-own='8'].to").count() == 1  # the point marked
            screenshot(page, "touch-move-upheld-800x480")
        else:
            assert head == "Peça tocada: não vale nestas regras"
    match = service.journal.current_match()
    assert match is not None
    claims = [e for e in service.journal.events(match) if e["event"] == "touch_move"]
    assert [(e["by"], e["point"]) for e in claims] == [("dark", 8)]  # the journal keeps the claim


def test_r19_claim_route_needs_the_pin_from_elsewhere_and_checks_the_point(tmp_path: Path) -> None:
    with app_client(tmp_path, STRANGER) as c:
        assert c.post("/api/touch-move", json={"by": "dark", "point": 8}).status_code == 401
    with app_client(tmp_path, TOUCH_SCREEN) as c:
        c.post("/api/pin", json={"pin": PIN})
        c.post("/api/match", json={"length": 3, "rule_set": "casual"}, headers={"X-Gamao-PIN": PIN})
        assert c.post("/api/touch-move", json={"by": "dark", "point": 25}).status_code == 422
        r = c.post("/api/touch-move", json={"by": "dark", "point": 8})
        assert r.status_code == 200 and r.json()["verdicts"][0]["verdict"] == "touch_move_not_expected"


@pytest.mark.parametrize("name", NAMES)
def test_each_rule_sets_conventions_on_the_rules_card(live: Any, name: str) -> None:
    url, service = live
    service.submit({"event": "new_match", "length": 5, "players": {"light": "Ana", "dark": "Bruno"},
                    "rules": {"rule_set": name}})
    with chromium_page(800, 480) as page:
        page.goto(url + "/")
        page.wait_for_selector("body[data-renders]", state="attached")
        page.click("[data-testid=rules-btn]")
        card = page.locator("[data-testid=conventions-card]")
        card.wait_for()
        text = card.inner_text()
        assert ("deve ser movida" in text) == (name == "casual")
        assert "Entre primeiro a peça da barra" in text and "não há penalidade" in text
        assert ("nem ao diretor" in text) == name.startswith("tournament")
        if name in ("casual", "tournament_usbgf"):
            card.scroll_into_view_if_needed()
            screenshot(page, f"rules-card-{name}-800x480")
        page.click("[data-testid=lang-switch]")
        page.wait_for_function("document.querySelector('[data-testid=conventions-card]')?.innerText.includes('bar first')")


def test_the_conventions_calls_are_spoken() -> None:
    """The hint before entering, the forgotten checker and an upheld claim are said aloud (the players look at
    the board); a hit half made (in progress) and a claim not in the rules are not."""
    verdicts = [{"verdict": "bar_first_hint", "side": "light"}, {"verdict": "checker_off_board", "side": "light"},
                {"verdict": "touch_move_upheld", "side": "light", "point": 8},
                {"verdict": "in_progress", "step": "hit", "side": "dark"}, {"verdict": "touch_move_not_in_rules"}]
    calls = calls_for(verdicts, {"light": "Ana", "dark": "Bruno"}, "pt")
    assert [phrase("pt", k, **p) for k, p in calls] == [
        "Ana, entre primeiro a peça da barra.", "Peça fora do tabuleiro: sem penalidade, ponha no lugar.",
        "Peça tocada, Ana: jogue uma peça da casa 8."]

