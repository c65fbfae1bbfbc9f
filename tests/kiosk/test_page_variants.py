"""The kiosk page during the seeds' other games (R30-R32), in real headless Chromium: the variant's name,
Plakoto's pins on the board, Russian backgammon's place in the chain of doubles. The states are a real
referee's public state, driven by events."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from core.referee import Referee
from core.rules.variants import PlakotoPosition, RussianPosition
from kiosk.config import Settings
from kiosk.main import create_app
from kiosk.server import BackgroundServer
from tests.core.referee.test_referee_variants import _chain_turn, feed_all, referee_at
from tests.core.referee.variant_streams import board_event
from tests.kiosk.browser import chromium_or_skip, chromium_page, screenshot
from tests.kiosk.chair import chair_problems
from tests.kiosk.fakes import FakeService
from tests.kiosk.test_page_layout import OVERFLOW


def plakoto_state() -> dict[str, Any]:
    """R30: light has just pinned dark's lone checker on point 10."""
    pos = PlakotoPosition.from_json({"turn": "light", "light": [0] * 12 + [1] + [0] * 10 + [14],
                                     "dark": [14] + [0] * 8 + [1] + [0] * 14})
    ref = referee_at(pos)
    after = next(lp.result for lp in pos.legal_plays((3, 1)) if lp.text() == "24/23 13/10*")
    feed_all(ref, [{"event": "roll", "dice": [3, 1]}, board_event(after), {"event": "roll", "dice": [4, 2]}])
    return ref.public_state()


def russian_state() -> dict[str, Any]:
    """R31: the double played in full, the complementary double next."""
    turn, _ = _chain_turn(stop=True)
    ref = referee_at(turn.before)
    feed_all(ref, [{"event": "roll", "dice": list(turn.dice)}] + [board_event(b) for b in turn.boards[:4]])
    return ref.public_state()


def test_page_shows_the_variant_pins_and_chain(tmp_path: Path) -> None:
    chromium_or_skip()
    plakoto = plakoto_state()
    assert plakoto["position"]["pinned"] == [{"point": 10, "side": "dark"}]
    fake = FakeService(plakoto)
    app = create_app(Settings(data_dir=tmp_path, language="pt"), service=fake)
    with BackgroundServer(app) as server, chromium_page() as page:
        page.goto(server.url + "/")
        page.wait_for_selector("[data-testid=variant]:not([hidden])", timeout=5000)
        assert page.inner_text("[data-testid=variant]") == "Plakoto"  # no rule code on the players' screen
        assert page.is_hidden("[data-testid=chouette-btn]")  # R26-R29 are backgammon's
        page.wait_for_selector("[data-testid=coach-btn]", state="hidden")  # GNU Backgammon knows no Plakoto
        pinned = page.locator("[data-testid=board] circle.checker.pinned")
        assert pinned.count() == 1 and pinned.get_attribute("data-pinned") == "10"
        assert "dark" in (pinned.get_attribute("class") or "")
        # no name: the side's word; the point in the board's numbering, the mover's (issue 37)
        assert page.inner_text("[data-testid=variant-info]") == "Presas por Claras: 15"
        page.click("[data-testid=rules-btn]")
        assert "prende" in page.inner_text("[data-testid=rules-card]")  # the rule in players' words
        page.click("[data-testid=drawer-close]")
        assert page.is_hidden("[data-testid=chain]")
        page.click("[data-testid=exports-btn]")
        assert page.is_hidden("#export-sgf") and page.is_visible("#export-mat")  # no SGF game type for Plakoto
        page.click("[data-testid=drawer-close]")
        screenshot(page, "kiosk-pt-plakoto-pin")
        russian = russian_state()
        n = russian["chain"]["dice"][0]
        fake.update(**russian)
        page.wait_for_selector("[data-testid=chain]:not([hidden])", timeout=5000)
        assert page.inner_text("[data-testid=variant]") == "Gamão russo"
        assert page.get_attribute("[data-testid=chain]", "data-link") == "complement"
        assert page.inner_text("[data-testid=chain]").startswith(f"Complementar: o {n} quatro vezes")
        assert russian["match"]["players"] == {"light": "Light", "dark": "Dark"}  # no names given: the sides' words
        assert page.inner_text("#verdict-head").startswith(f"{ {'light': 'Claras', 'dark': 'Escuras'}[russian['turn']]} jogou")
        assert page.inner_text("[data-testid=variant-info]").startswith("Por entrar: Claras")
        screenshot(page, "kiosk-pt-russian-chain")
        page.click("[data-testid=lang-switch]")
        assert page.inner_text("[data-testid=variant]") == "Russian backgammon"
        assert page.inner_text("[data-testid=chain]").startswith(f"Complementary double: {n} four times")
        assert RussianPosition.rule == "R31"
        fake.update(**{"variant": None, "chain": None, **Referee().public_state()})  # backgammon: no variant shown
        page.wait_for_selector("[data-testid=variant][hidden]", state="attached", timeout=5000)
        assert page.is_hidden("[data-testid=chain]") and page.is_hidden("[data-testid=variant-info]")
        assert page.is_hidden("[data-testid=chouette-btn]")  # a two-player match: no chouette button (issue 37)


DIALOG_ON_SCREEN = """() => {
  const vw = innerWidth, vh = innerHeight, bad = [];
  for (const e of document.querySelectorAll("#controls, #controls *")) {
    const r = e.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.left < -1 || r.top < -1 || r.right > vw + 1 || r.bottom > vh + 1)
      bad.push(`${e.tagName}.${e.className} ${e.textContent.slice(0, 20)} at ${Math.round(r.left)},${Math.round(r.top)}`
               + ` to ${Math.round(r.right)},${Math.round(r.bottom)}`);
  }
  return bad;
}"""


def test_new_match_dialog_starts_a_plakoto_match(tmp_path: Path) -> None:
    """R30 from the touch screen at 800x480: the control panel's game choice (Gamão, Plakoto, Gamão russo,
    Jacquet; backgammon first), all of it on screen; Plakoto picked, the real referee starts a Plakoto match and
    the page says so. In English the choices read Backgammon ... Russian backgammon ...; a bad PIN starts nothing."""
    from kiosk.service import RefereeService

    chromium_or_skip()
    service = RefereeService(tmp_path / "journal.sqlite")
    app = create_app(Settings(data_dir=tmp_path, language="pt"), service=service)
    try:
        with BackgroundServer(app) as server, chromium_page(800, 480) as page:
            page.goto(server.url + "/")
            page.wait_for_selector("#controls-btn:has-text('Controle')")
            page.click("#controls-btn")
            page.fill("#controls input", "4321")
            page.click("#controls button:has-text('OK')")  # the first PIN, then the whole panel
            select = "#controls [data-testid=new-match-variant]"
            page.click("#controls [data-testid=new-match-open]")
            page.wait_for_selector(select)
            labels = page.locator(f"{select} option").all_inner_texts()
            assert labels == ["Gamão", "Plakoto", "Gamão russo", "Jacquet"]
            assert page.input_value(select) == "backgammon"
            assert page.get_attribute(select, "aria-label") == "Jogo"
            assert page.evaluate(DIALOG_ON_SCREEN) == []
            screenshot(page, "kiosk-pt-new-match-800x480")
            page.fill("#controls input[type=password]", "4321")
            page.select_option(select, "plakoto")
            page.fill("#controls input[type=number]", "5")
            page.click("#controls [data-testid=new-match]")
            page.click("#controls button:has-text('Confirmar: Nova partida?')")
            page.wait_for_selector("#controls", state="hidden")
            page.wait_for_selector("[data-testid=variant]:not([hidden])", timeout=5000)
            assert page.inner_text("[data-testid=variant]") == "Plakoto"
            assert page.inner_text("#match-length").startswith("Partida de 5 pontos")
            state = service.state()
            assert state["variant"]["name"] == "plakoto" and state["match"]["length"] == 5
            assert state["position"]["light"][23] == 15 and state["position"]["dark"][0] == 15  # R30: all on the 24-point
            assert page.evaluate(OVERFLOW) == []
            # Open again: the table's game is chosen already; in English the names read as English.
            page.click("[data-testid=lang-switch]")
            page.click("#controls-btn")
            page.fill("#controls input[type=password]", "4321")
            page.click("#controls [data-testid=new-match-open]")
            page.wait_for_selector(select)
            assert page.locator(f"{select} option").all_inner_texts() == [
                "Backgammon", "Plakoto", "Russian backgammon", "Jacquet"]
            assert page.input_value(select) == "plakoto"
            assert page.evaluate(DIALOG_ON_SCREEN) == []
            page.select_option(select, "backgammon")
            page.click("#controls [data-testid=new-match]")
            page.click("#controls button:has-text('Confirm: New match?')")
            page.wait_for_selector("[data-testid=variant][hidden]", state="attached", timeout=5000)
            assert "variant" not in service.state()["match"]["rules"]
    finally:
        service.close()



def plakoto_pins_state(n: int) -> dict[str, Any]:
    """R30 in the middle game: each side pins ``n`` (at most 5) of the other's checkers (light on 3, 7, 12, 16,
    20, dark on 5, 9, 14, 18, 22), the players named, light on roll (its numbering: the physical one)."""
    light, dark = [0] * 24, [0] * 24
    by_light, by_dark = (3, 7, 12, 16, 20)[:n], (5, 9, 14, 18, 22)[:n]
    for p in by_light + by_dark:
        light[p - 1], dark[p - 1] = 1, 1  # a pinner on a lone checker
    light[23], dark[0] = 15 - 2 * n, 15 - 2 * n
    pins = [{"point": p, "side": "dark"} for p in by_light] + [{"point": p, "side": "light"} for p in by_dark]
    pos = PlakotoPosition.from_json({"turn": "light", "light": light, "dark": dark, "pinned": pins})
    state = referee_at(pos).public_state()
    state["match"]["players"] = {"light": "Bruno", "dark": "Marcela"}
    return state


def test_plakoto_pins_of_both_sides_read_from_the_chair(tmp_path: Path) -> None:
    """R30: four, then five checkers pinned by each side: every pin on the main page, grouped by who pins them,
    in the mover's numbering, within the line's two lines (it was cut after the second pin or so), read from the
    chair at 800x480 in pt and en and at 1280x800. When the names do not leave room (five each in Portuguese at
    800 px), the pinners' chips stand for them."""
    chromium_or_skip()
    state = plakoto_pins_state(4)
    assert len(state["position"]["pinned"]) == 8
    fake = FakeService(state)
    app = create_app(Settings(data_dir=tmp_path, language="pt"), service=fake)
    info = "[data-testid=variant-info]"
    with BackgroundServer(app) as server, chromium_page(800, 480) as page:
        page.goto(server.url + "/")
        page.wait_for_selector(f"{info}:not([hidden])", timeout=5000)
        assert page.inner_text(info) == "Presas por Bruno: 3, 7, 12, 16; por Marcela: 5, 9, 14, 18"
        assert chair_problems(page) == []
        screenshot(page, "kiosk-pt-plakoto-pins-4-800x480")
        fake.update(**plakoto_pins_state(5))
        page.wait_for_function(f"document.querySelector('{info}').textContent.includes('22')")
        assert page.inner_text(info) == "Presas por : 3, 7, 12, 16, 20; por : 5, 9, 14, 18, 22"
        assert page.eval_on_selector_all(f"{info} i.chip", "cs => cs.map((c) => c.className)") == ["chip light", "chip dark"]
        assert chair_problems(page) == []
        screenshot(page, "kiosk-pt-plakoto-pins-5-800x480")
        page.click("[data-testid=lang-switch]")
        page.wait_for_function(f"document.querySelector('{info}').textContent.startsWith('Pinned')")
        assert page.inner_text(info) == "Pinned by Bruno: 3, 7, 12, 16, 20; by Marcela: 5, 9, 14, 18, 22"
        assert chair_problems(page) == []
        screenshot(page, "kiosk-en-plakoto-pins-5-800x480")
        page.set_viewport_size({"width": 1280, "height": 800})
        assert chair_problems(page) == []
        screenshot(page, "kiosk-en-plakoto-pins-5-1280x800")
