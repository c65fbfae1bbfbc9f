"""The page in real headless Chromium against a real uvicorn server (fake referee state)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from core.messages import describe, message
from kiosk.config import Settings
from kiosk.main import create_app
from kiosk.server import BackgroundServer
from tests.kiosk.browser import chromium_or_skip, chromium_page, screenshot
from tests.kiosk.fakes import FakeService

MOVING = {"dice": {"values": [5, 2], "cocked": [False, False], "used": [5]}, "phase": "moving",
          "moves": [{"game": 3, "number": 1, "side": "light", "roll": [5, 2], "play": "13/8"}]}


@pytest.fixture
def live(tmp_path: Path) -> Iterator[tuple[str, FakeService]]:
    chromium_or_skip()
    fake = FakeService()
    fake.update(**MOVING)
    app = create_app(Settings(data_dir=tmp_path, language="pt"), service=fake)
    with BackgroundServer(app) as server:
        yield server.url, fake


def test_page_shows_dice_cube_score_verdict_in_portuguese(live) -> None:
    url, fake = live
    with chromium_page() as page:
        page.goto(url + "/")
        page.wait_for_selector("[data-testid=dice] .die")
        assert page.get_attribute("[data-testid=dice]", "data-values") == "5,2"
        assert page.locator("[data-testid=dice] .die.used").count() == 1
        assert page.inner_text("[data-testid=cube]") == "64"
        score = page.inner_text("[data-testid=score]")
        assert "Ana" in score and "Bruno" in score and "Partida de 7 pontos" in score
        assert page.inner_text("#verdict-head") == "Jogada em andamento"
        assert page.get_attribute("[data-testid=verdict]", "data-severity") == "pending"
        assert page.locator("[data-testid=board] circle.checker").count() == 30
        assert "13/8" in page.inner_text("[data-testid=move-list]")
        assert page.inner_text("[data-testid=pips]").count("167") == 2
        screenshot(page, "kiosk-pt-moving")


def test_page_updates_after_a_referee_event_and_switches_to_english(live) -> None:
    url, fake = live
    with chromium_page() as page:
        page.goto(url + "/")
        page.wait_for_selector("[data-testid=dice] .die")
        fake.update(verdicts=[{"at": 5, "verdict": "illegal", "side": "light", "reason": "closed_point", "point": 3,
                               "play": "8/3 6/4", "message": message("closed_point", point=3)}],
                    cube={"value": 2, "owner": "dark", "offered_by": None})
        page.wait_for_selector("[data-testid=verdict][data-severity=illegal]", timeout=5000)
        assert page.inner_text("#verdict-head") == "Jogada ilegal: 8/3 6/4"
        assert page.inner_text("#verdict-detail").startswith("A casa 3 está fechada")
        assert page.get_attribute("[data-testid=cube]", "data-owner") == "dark"
        assert page.inner_text("#cube-caption") == "de Bruno"
        screenshot(page, "kiosk-pt-illegal")
        page.click("[data-testid=lang-switch]")
        assert page.inner_text("#verdict-head") == "Illegal play: 8/3 6/4"
        assert page.inner_text("#verdict-detail").startswith("Point 3 is closed")
        assert "Match to 7 points" in page.inner_text("[data-testid=score]")
        assert page.inner_text("#cube-caption") == "Bruno's"
        screenshot(page, "kiosk-en-illegal")


def test_r24_cocked_die_warning_and_green_legal(live) -> None:
    url, fake = live
    with chromium_page(locale="en-GB") as page:
        page.goto(url + "/?lang=en")
        fake.update(dice={"values": [6, 3], "cocked": [False, True], "used": []},
                    verdicts=[{"at": 7, "verdict": "reroll", "reason": "cocked_die", "dice": [6, 3],
                               "message": message("cocked_die", n=2, dice=[6, 3])}])
        page.wait_for_selector("[data-testid=dice][data-cocked=true]", timeout=5000)
        assert page.inner_text("#cocked") == "⚠ Cocked die: roll again"
        assert page.get_attribute("[data-testid=verdict]", "data-severity") == "pending"
        assert page.inner_text("#verdict-head") == "Cocked die: roll again"
        assert page.inner_text("#verdict-detail").startswith("Die 2 is cocked")
        screenshot(page, "kiosk-en-cocked")
        fake.update(dice={"values": [6, 3], "cocked": [False, False], "used": [6, 3]},
                    verdicts=[{"at": 8, "verdict": "play", "side": "light", "legal": True, "play": "24/18 13/10"}])
        page.wait_for_selector("[data-testid=verdict][data-severity=legal]", timeout=5000)
        assert page.inner_text("#verdict-head") == "Ana played 24/18 13/10"


def test_a_roll_and_an_opening_are_said_once(live) -> None:
    """Issue 37: the banner's head names the player and the dice; its detail does not say it again smaller (it said
    "As escuras (Bruno) lançaram 1-1." under "Bruno lançou 1-1")."""
    url, fake = live
    verdict = {"at": 9, "verdict": "opening", "side": "light", "dice": [3, 1]}
    with chromium_page() as page:
        page.goto(url + "/")
        fake.update(verdicts=[{**verdict, "message": describe(verdict)}])
        page.wait_for_selector("#verdict-head:has-text('Ana começa com 3-1')", timeout=5000)
        assert page.inner_text("#verdict-detail") == ""
        verdict = {"at": 10, "verdict": "roll", "side": "dark", "dice": [1, 1]}
        fake.update(verdicts=[{**verdict, "message": describe(verdict)}])
        page.wait_for_selector("#verdict-head:has-text('Bruno lançou 1-1')", timeout=5000)
        assert page.inner_text("#verdict-detail") == ""
        page.click("[data-testid=lang-switch]")
        page.wait_for_selector("#verdict-head:has-text('Bruno rolled 1-1')", timeout=5000)
        assert page.inner_text("#verdict-detail") == ""


def test_tournament_mode_hides_pips_and_crawford_removes_cube(live) -> None:
    url, fake = live
    with chromium_page() as page:
        page.goto(url + "/?lang=en")
        match = fake.state()["match"]
        fake.update(match={**match, "score": {"light": 6, "dark": 4}, "crawford": True,
                           "rules": {"crawford": True, "tournament": True}})
        page.wait_for_selector("#crawford:not([hidden])", timeout=5000)
        assert not page.is_visible("[data-testid=pips]")
        assert page.inner_text("#crawford") == "Crawford"
        assert page.inner_text("#cube-caption") == "no cube (Crawford)"
        assert page.locator("[data-testid=board] rect.cube").count() == 0
        screenshot(page, "kiosk-en-tournament-crawford")


def test_calibration_page_four_corner_clicks_with_pin(tmp_path: Path) -> None:
    chromium_or_skip()
    from tests.kiosk.fakes import FakeCamera

    camera = FakeCamera()
    app = create_app(Settings(data_dir=tmp_path, language="en"), service=FakeService(), camera=camera)
    app.state.pins.set("2468")
    with BackgroundServer(app) as server, chromium_page(locale="en-GB") as page:
        page.goto(server.url + "/calibrate?lang=en")
        page.wait_for_selector("#overlay circle.det")
        assert "✘ 3: marker missing" in page.inner_text("[data-testid=markers]")
        box = page.locator("#overlay").bounding_box()
        for fx, fy in ((0.1, 0.1), (0.9, 0.1), (0.9, 0.9), (0.1, 0.9)):
            page.mouse.click(box["x"] + fx * box["width"], box["y"] + fy * box["height"])
        page.fill("#pin", "2468")
        page.click("#save")
        page.wait_for_selector("#status:has-text('Saved.')", timeout=5000)
        screenshot(page, "calibration-four-corners")
    assert camera.corners is not None and len(camera.corners) == 4
    assert abs(camera.corners[0][0] - 64) < 3 and abs(camera.corners[2][1] - 432) < 3


@pytest.mark.parametrize(("width", "height"), [(800, 480), (1920, 1080)])
def test_everything_fits_on_the_pi_touch_screen_and_full_hd(live, width: int, height: int) -> None:
    url, fake = live
    with chromium_page(width=width, height=height) as page:
        page.goto(url + "/")
        page.wait_for_selector("[data-testid=dice] .die")
        for testid in ("dice", "cube", "score", "pips", "verdict", "board", "move-list"):
            box = page.locator(f"[data-testid={testid}]").bounding_box()
            assert box is not None and box["width"] > 0, testid
            assert box["x"] >= 0 and box["y"] >= 0, testid
            assert box["x"] + box["width"] <= width + 1 and box["y"] + box["height"] <= height + 1, testid
        # Readable from 2 m: the verdict's letters at least 1/20 of the screen height.
        size = float(page.evaluate("parseFloat(getComputedStyle(document.getElementById('verdict-head')).fontSize)"))
        assert size >= min(height / 20, 28)
        screenshot(page, f"kiosk-pt-{width}x{height}")


def test_touch_screen_sets_the_pin_then_doubles(live) -> None:
    """R13: before the roll the player on roll may double; the panel offers the double then, and while the double
    waits only take and drop (R14)."""
    url, fake = live
    fake.update(phase="awaiting_roll", dice={"values": [], "cocked": [False, False], "used": []})
    with chromium_page(locale="en-GB") as page:
        page.goto(url + "/?lang=en")
        # The panel offers what the state drawn when it opens allows: the state first (the button's words are there
        # before it; opened before the push, under load, the panel had no double to offer).
        page.wait_for_selector("#controls-btn:has-text('Control')")
        page.wait_for_selector("body[data-renders]", state="attached")
        page.click("#controls-btn")
        assert page.get_attribute("#controls input", "placeholder") == "Set a PIN (4 to 12 digits)"
        page.fill("#controls input", "12")
        page.click("#controls button:has-text('OK')")
        page.wait_for_selector("#controls .error:has-text('pin: String should match pattern')")
        page.fill("#controls input", "4321")
        page.click("#controls button:has-text('OK')")
        page.wait_for_selector("#controls input[placeholder='Enter the PIN']")
        page.fill("#controls input", "4321")
        labels = page.locator("#controls button").all_inner_texts()
        assert "Double" in labels and "Take" not in labels and "Drop" not in labels and "Die seen" not in labels
        screenshot(page, "kiosk-en-controls")
        page.click("#controls button:has-text('Double')")
        page.wait_for_selector("#controls", state="hidden")
        assert fake.events[-1] == {"event": "cube", "action": "double", "side": "light"}
        fake.update(phase="cube_offered", cube={"value": 1, "owner": None, "offered_by": "light", "offered": 2})
        page.wait_for_selector("#cube-caption:has-text('doubles to 2')")
        page.click("#controls-btn")
        labels = page.locator("#controls button").all_inner_texts()
        assert "Take" in labels and "Drop" in labels and "Double" not in labels and "Undo" not in labels, labels
        page.fill("#controls input", "0000")
        page.click("#controls button:has-text('Take')")
        page.wait_for_selector("#controls .error:has-text('wrong PIN')")
    assert len(fake.events) == 1


def _set_the_first_pin(page: Any, url: str, lang: str) -> None:
    """Open the page in `lang`, open the control panel and set the first PIN, 4321."""
    page.goto(f"{url}/?lang={lang}")
    page.wait_for_selector("[data-testid=dice] .die")
    page.click("#controls-btn")
    page.fill("#controls input", "4321")
    page.click("#controls button:has-text('OK')")


def test_r24_the_panel_offers_die_seen_only_for_a_cocked_die(live) -> None:
    url, fake = live
    with chromium_page(locale="en-GB") as page:
        _set_the_first_pin(page, url, "en")  # then the panel
        page.wait_for_selector("#controls [data-testid=undo]")
        assert "Die seen" not in page.locator("#controls button").all_inner_texts()
        page.click("#controls [data-testid=close]")
        fake.update(dice={"values": [6, 3], "cocked": [False, True], "used": []})
        page.wait_for_selector("[data-testid=dice][data-cocked=true]")
        page.click("#controls-btn")
        assert "Die seen" in page.locator("#controls button").all_inner_texts()


def test_resignation_offer_is_shown_until_answered(live) -> None:
    url, fake = live
    with chromium_page() as page:
        page.goto(url + "/?lang=en")
        page.wait_for_selector("[data-testid=dice] .die")
        fake.update(resignation={"side": "dark", "value": 2})
        page.wait_for_selector("[data-testid=verdict][data-verdict=resignation]", timeout=5000)
        assert page.inner_text("#verdict-head") == "Bruno resigns (gammon): accept?"
        fake.update(resignation=None, verdicts=[{"at": 9, "verdict": "game_over", "winner": "light", "points": 4,
                                                 "how": "resign"}])
        page.wait_for_selector("[data-testid=verdict][data-verdict=game_over]", timeout=5000)
        assert page.inner_text("#verdict-head") == "Ana wins 4 points (resigned)"
        assert page.inner_text("#verdict-detail").startswith("Bruno resigned and Ana accepted.")
        assert page.is_hidden("#turn") or fake.state()["phase"] != "game_over"
        assert page.get_attribute("[data-testid=verdict]", "data-severity") == "legal"


def test_touch_screen_resigns_answers_and_starts_a_new_game(live) -> None:
    """The control panel has the resignation (single / gamão / gamão triplo for the player on roll), asked to be
    confirmed; its answer only while it waits; and New game (which leaves an unfinished game unfinished), confirmed
    too; a new set-up mid-game is said as such."""
    url, fake = live
    with chromium_page(locale="pt-BR") as page:
        _set_the_first_pin(page, url, "pt")
        page.wait_for_selector("#controls input[placeholder='Digite o PIN']")
        labels = page.locator("#controls button").all_inner_texts()
        assert "Desistir (gamão triplo)" in labels and "Aceita a desistência" not in labels, labels
        page.click("#controls button:has-text('Fechar')")

        def confirm(label: str, confirmed: bool = True) -> None:
            page.click("#controls-btn")
            page.fill("#controls input", "4321")
            page.click(f"#controls button:has-text('{label}')")
            if confirmed:
                assert page.is_visible("#controls")  # the first touch only asks
                page.click(f"#controls button:has-text('Confirmar: {label}?')")
            page.wait_for_selector("#controls", state="hidden")

        confirm("Desistir (gamão)")
        fake.update(resignation={"side": "light", "value": 2})
        page.wait_for_selector("[data-testid=verdict][data-verdict=resignation]")
        assert page.inner_text("#verdict-head") == "Ana desiste (gamão): aceita?"
        page.click("#controls-btn")
        assert page.locator("#controls button").all_inner_texts()[1:] == ["Aceita a desistência", "Recusa a desistência",
                                                                          "Nova partida…", "Nova chouette…",
                                                                          "Nova partida"]
        page.click("#controls button:has-text('Fechar')")
        confirm("Aceita a desistência")
        fake.update(resignation=None)
        # The panel is made from the state drawn when it opens: the push must be drawn first (opened before it, under
        # load, the panel still offered the answers to the resignation and no new game).
        page.wait_for_function("() => window.__gamao.state && !window.__gamao.state.resignation")
        confirm("Novo jogo")
        assert fake.events == [{"event": "resign", "side": "light", "value": 2},
                               {"event": "resign_reply", "accept": True}, {"event": "button", "name": "new_game"}]
        fake.update(verdicts=[{"at": 9, "verdict": "illegal", "side": "light", "reason": "new_setup_mid_game",
                               "message": message("new_setup_mid_game")}])
        page.wait_for_selector("#verdict-head:has-text('Tabuleiro montado para um novo jogo?')", timeout=5000)
        assert "não acabou" in page.inner_text("#verdict-detail")
        # an open play left for the next boards is no call to straighten the checkers
        fake.update(verdicts=[{"at": 10, "verdict": "uncertain", "side": "light", "pending": True,
                               "candidates": ["5/off 4/off", "5/1 4/off"], "message": {"pt": "p", "en": "e"}}])
        page.wait_for_selector("#verdict-head:has-text('Jogada a confirmar pelos próximos tabuleiros')", timeout=5000)


def test_the_board_is_numbered_from_the_movers_side_and_marks_an_illegal_play(live) -> None:
    """Dark's illegal 13/3 starts on the point labelled 13 and ends on the one labelled 3 (dark's own numbers,
    as the play is written); both points and the checker that broke the rule are marked on the drawing."""
    url, fake = live
    light, dark = [0] * 24, [0] * 24
    light[5], light[12], light[23] = 5, 5, 5
    dark[0], dark[11], dark[21] = 2, 4, 1  # dark's own 13 is physical 12, its 3 physical 22
    fake.update(turn="dark", position={"light": light, "dark": dark, "bar": {"light": 0, "dark": 0},
                                       "off": {"light": 0, "dark": 8}},
                verdicts=[{"at": 5, "verdict": "illegal", "side": "dark", "reason": "wrong_distance", "play": "13/3",
                           "message": message("wrong_distance", move="13/3", count=10, dice=[6, 5])}])
    with chromium_page(800, 480) as page:
        page.goto(url + "/?lang=pt")
        page.wait_for_selector("[data-testid=verdict][data-severity=illegal]")
        assert page.get_attribute("[data-testid=board]", "data-mover") == "dark"
        assert page.get_attribute("polygon[data-point='12']", "data-own") == "13"
        assert page.get_attribute("polygon[data-point='22']", "data-own") == "3"
        bad = page.locator("[data-testid=board] polygon.point.bad")
        assert sorted(bad.evaluate_all("ps => ps.map((p) => p.dataset.own)")) == ["13", "3"]
        assert page.locator("[data-testid=board] circle.checker.dark.culprit").count() == 1
        screenshot(page, "kiosk-pt-illegal-marked")


def test_page_says_when_the_referee_is_unreachable_and_reconnects(tmp_path: Path) -> None:
    chromium_or_skip()
    fake = FakeService()
    app = create_app(Settings(data_dir=tmp_path, language="en"), service=fake)
    server = BackgroundServer(app).start()
    port = server.port
    with chromium_page() as page:
        page.goto(server.url + "/?lang=en")
        page.wait_for_selector("[data-testid=dice]")
        assert not page.is_visible("#offline")
        server.stop()
        page.wait_for_selector("#offline:not([hidden])", timeout=10000)
        assert page.inner_text("#offline") == "No connection to the referee; retrying…"
        fake.update(turn="dark")
        server = BackgroundServer(app, port=port).start()
        try:
            page.wait_for_selector("#offline[hidden]", state="attached", timeout=10000)
            assert page.inner_text("#turn") == "Bruno to play"
        finally:
            server.stop()
