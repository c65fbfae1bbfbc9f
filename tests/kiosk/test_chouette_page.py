"""The kiosk during a chouette, in real headless Chromium against a real server and the real service (R26-R29):
roles, each member's cube and the running totals on screen; a crew member's drop entered on the touch screen with
the PIN; a chouette started from the screen with one die per player."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from core.rules.position import Side
from kiosk.chouette import new_match_event
from kiosk.service import RefereeService
from tests.kiosk.browser import chromium_page, screenshot
from tests.kiosk.chair import chair_problems
from tests.kiosk.chouette_table import PLAYERS, Table
from tests.kiosk.conftest import PIN
from tests.kiosk.live import live_kiosk


@pytest.fixture
def live(tmp_path: Path) -> Iterator[tuple[str, RefereeService]]:
    with live_kiosk(tmp_path, ticks=True) as (url, service, _):
        yield url, service


def cube_row(page: Any, member: str) -> Any:
    return page.locator(f"[data-testid=chouette-cubes] tr[data-member='{member}']")


def test_r29_roles_cubes_totals_on_screen_and_a_drop_entered_on_the_touch_screen(live) -> None:
    url, service = live
    service.submit(new_match_event({"players": PLAYERS, "box_side": "dark"}))
    table = Table(service.submit, lambda: service.referee)
    table.end(Side.DARK, 1)  # game 1: the box (Ana) wins 1 from every cube; Davi is captain now
    table.to_double(Side.DARK)
    service.submit({"event": "chouette", "action": "box_double"})
    service.submit({"event": "chouette", "action": "answer", "member": "Davi", "take": True})
    with chromium_page() as page:
        page.goto(url + "/")
        page.wait_for_selector("[data-testid=chouette]:not([hidden])")
        assert "Chouette · jogo 2" in page.text_content("[data-testid=chouette]")
        assert page.text_content("[data-testid=chouette-box]") == "Banqueiro Ana (as escuras)"
        assert page.text_content("[data-testid=chouette-captain]") == "Capitão Davi (as claras)"
        assert page.text_content("[data-testid=chouette-crew]") == "Apostadores Carla, Eva, Bruno"
        # The box doubled; Davi (captain) took already, the others are still to answer, each alone.
        assert cube_row(page, "Davi").get_attribute("data-answer") == "take"
        assert "aceitou" in cube_row(page, "Davi").inner_text()
        assert cube_row(page, "Carla").locator(".ch-status").inner_text() == "?"
        assert "Repique: aguardando Carla, Eva, Bruno" in page.inner_text("[data-testid=chouette-pending]")
        totals = {r.get_attribute("data-name"): r.get_attribute("data-points")
                  for r in page.locator("[data-testid=chouette-ledger] tr[data-name]").all()}
        assert totals == {"Ana": "4", "Bruno": "-1", "Davi": "-1", "Carla": "-1", "Eva": "-1"}
        # The board's names are the box's and the captain's.
        assert "Ana" in page.inner_text("[data-testid=score]") and "Davi" in page.inner_text("[data-testid=score]")

        # Carla drops, entered on the touch screen: a wrong PIN is refused, the right one goes through.
        page.click("[data-testid=chouette-btn]")
        page.fill("[data-testid=chouette-pin]", "0000")
        page.click("[data-testid=drop-Carla]")
        page.wait_for_function("document.querySelector('[data-testid=chouette-error]').textContent.includes('PIN')")
        assert service.state()["chouette"]["pending"]["waiting"] == ["Carla", "Eva", "Bruno"]
        page.fill("[data-testid=chouette-pin]", PIN)
        page.click("[data-testid=drop-Carla]")
        page.wait_for_selector("[data-testid=chouette-cubes] tr[data-member='Carla'][data-answer=drop]", timeout=5000)
        # The dialog now asks only the members still waiting: Eva and Bruno take.
        page.wait_for_selector("[data-testid=drop-Carla]", state="detached", timeout=5000)
        page.click("[data-testid=take-Eva]")
        page.wait_for_selector("[data-testid=take-Eva]", state="detached", timeout=5000)
        page.click("[data-testid=take-Bruno]")
        page.wait_for_selector("[data-testid=chouette-pending]", state="detached", timeout=5000)
        assert page.inner_text("#verdict-head") == "Bruno aceita o repique: o cubo de Bruno vale 2."
        # Settled: Carla is out of this game and paid the box 1 (R29); the others' cubes are 2 and theirs.
        assert cube_row(page, "Carla").get_attribute("data-live") == "false"
        assert cube_row(page, "Davi").get_attribute("data-value") == "2"
        assert cube_row(page, "Davi").get_attribute("data-owner") == "Davi"
        assert page.locator("[data-testid=chouette-ledger] tr[data-name='Carla']").get_attribute("data-points") == "-2"
        assert page.locator("[data-testid=chouette-ledger] tr[data-name='Ana']").get_attribute("data-points") == "5"
        page.click("[data-testid=chouette-close]")
        assert page.locator("[data-testid=cube]").is_hidden()  # the board's own cube is not used in a chouette
        screenshot(page, "kiosk-chouette-pt")
    shown = service.state()["chouette"]
    assert {c["member"]: (c["value"], c["live"]) for c in shown["cubes"]} == {
        "Davi": (2, True), "Carla": (1, False), "Eva": (2, True), "Bruno": (2, True)}
    events = [e for e in service.journal.events(service.journal.current_match()) if e["event"] == "chouette"]
    assert events[-3:] == [{"event": "chouette", "action": "answer", "member": m, "take": t}
                           for m, t in (("Carla", False), ("Eva", True), ("Bruno", True))]


def test_r26_a_chouette_started_from_the_screen_in_english(live) -> None:
    url, service = live
    with chromium_page() as page:
        page.goto(url + "/?lang=en")
        page.wait_for_selector("body:not(.connecting)")
        assert page.locator("[data-testid=chouette]").is_hidden()
        # No chouette button in a two-player match (issue 37): a chouette starts from Control's new-match form.
        assert page.is_hidden("[data-testid=chouette-btn]")
        page.click("[data-testid=controls-btn]")
        page.click("#controls [data-testid=new-chouette]")
        page.fill("[data-testid=chouette-pin]", PIN)
        names = page.locator(".ch-setup-players .ch-name")
        rolls = page.locator(".ch-setup-players .ch-rolls")
        for i, (name, dice) in enumerate([("Ana", "3"), ("Bia", "5"), ("Caio", "5"), ("Duda", "1")]):
            names.nth(i).fill(name)
            rolls.nth(i).fill(dice)
        page.click("[data-testid=chouette-start]")
        page.wait_for_function("document.querySelector('[data-testid=chouette-error]').textContent.includes('tie')")
        assert "players: Bia, Caio tie on roll 1: each rolls again (R26)" in page.inner_text("[data-testid=chouette-error]")
        rolls.nth(1).fill("5 2")
        rolls.nth(2).fill("5 6")
        page.click("[data-testid=chouette-start]")
        page.wait_for_selector("[data-testid=chouette]:not([hidden])", timeout=5000)
        assert page.text_content("[data-testid=chouette-box]") == "Box Caio (light)"
        assert page.text_content("[data-testid=chouette-captain]") == "Captain Bia (dark)"
        assert page.text_content("[data-testid=chouette-crew]") == "Crew Ana, Duda"
        assert page.get_attribute("[data-testid=chouette-consult]", "data-consult") == "true"
        screenshot(page, "kiosk-chouette-en-start")
    assert service.state()["chouette"]["order"] == ["Caio", "Bia", "Ana", "Duda"]


def test_r29_team_double_offered_by_members_who_wish_and_the_box_answering_each_cube(live) -> None:
    url, service = live
    service.submit(new_match_event({"players": PLAYERS, "box_side": "light"}))  # the team (Bruno) plays dark
    table = Table(service.submit, lambda: service.referee)
    table.to_double(Side.DARK)
    with chromium_page() as page:
        page.goto(url + "/")
        page.wait_for_selector("[data-testid=chouette]:not([hidden])")
        page.click("[data-testid=chouette-btn]")
        page.fill("[data-testid=chouette-pin]", PIN)
        # The captain's box is ticked; Eva wishes to double too; Davi and Carla do not.
        page.check("dialog .ch-actions label:has-text('Eva') input")
        page.click("[data-testid=team-double]")
        page.wait_for_selector("[data-testid=chouette-pending]", timeout=5000)
        assert "banqueiro responde pelo cubo de Bruno" in page.inner_text("dialog .ch-actions")
        page.click("[data-testid=take-Bruno]")
        page.wait_for_selector("[data-testid=take-Bruno]", state="detached", timeout=5000)
        page.click("[data-testid=drop-Eva]")
        page.wait_for_selector("[data-testid=chouette-pending]", state="detached", timeout=5000)
        assert cube_row(page, "Bruno").get_attribute("data-value") == "2"
        assert cube_row(page, "Bruno").get_attribute("data-owner") == "box"
        assert cube_row(page, "Eva").get_attribute("data-live") == "false"
        assert cube_row(page, "Davi").get_attribute("data-value") == "1"
        assert page.locator("[data-testid=chouette-ledger] tr[data-name='Eva']").get_attribute("data-points") == "1"
        assert page.locator("[data-testid=chouette-ledger] tr[data-name='Ana']").get_attribute("data-points") == "-1"
    assert [e.get("members") for e in service.journal.events(service.journal.current_match())
            if e.get("action") == "team_double"] == [["Bruno", "Eva"]]


def test_the_chouette_leaves_the_controls_on_the_small_screen(live) -> None:
    """Five players' cubes and totals on the Pi's 7-inch screen (800x480): the chouette's panel scrolls, the
    control, chouette and language buttons stay on screen and the page itself does not scroll."""
    url, service = live
    service.submit(new_match_event({"players": PLAYERS, "box_side": "dark"}))
    table = Table(service.submit, lambda: service.referee)
    table.end(Side.DARK, 1)
    table.to_double(Side.DARK)
    service.submit({"event": "chouette", "action": "box_double"})
    with chromium_page(800, 480) as page:
        page.goto(url + "/")
        page.wait_for_selector("[data-testid=chouette]:not([hidden])")
        screenshot(page, "kiosk-chouette-800x480")
        for button in ("#controls-btn", "[data-testid=chouette-btn]", "#lang"):
            box = page.locator(button).bounding_box()
            assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 481, (button, box)
        assert page.evaluate("document.documentElement.scrollHeight <= innerHeight + 1")
        # read from the chair (issue 37, tests/kiosk/chair.py): the size floor, no code, one language, nothing cut
        assert chair_problems(page) == []
