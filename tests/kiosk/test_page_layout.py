"""The page at the kiosk's three screen sizes in real headless Chromium, with 20-character names, four dice,
an owned cube, checkers on the bar and borne off, and a long move list: nothing overflows the screen, the
names show in full, both players' chips are on screen, and borne-off checkers are drawn in the trays.
Screenshots: artifacts/screenshots/layout-WxH.png (looked at when the layout changes)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kiosk.config import Settings
from kiosk.main import create_app
from kiosk.server import BackgroundServer
from tests.kiosk.browser import chromium_or_skip, chromium_page, screenshot
from tests.kiosk.fakes import FakeService

LIGHT_NAME, DARK_NAME = "Maximiliano Bragança", "Anastácia Figueiredo"  # 20 characters each
SIZES = [(800, 480), (1280, 720), (1280, 800), (1920, 1080), (720, 1280)]

OVERFLOW = """() => {
  const vw = innerWidth, vh = innerHeight, bad = [];
  const list = document.getElementById("move-list");
  for (const e of document.querySelectorAll("body *")) {
    if (e.closest("dialog") || (e.closest("svg") && e.tagName !== "svg")) continue;
    const st = getComputedStyle(e);
    if (st.display === "none" || st.visibility === "hidden" || e.closest("[hidden]")) continue;
    const r = e.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    const inList = list.contains(e) && e !== list;
    const box = inList ? list.getBoundingClientRect() : {left: 0, right: vw, top: 0, bottom: vh};
    // The move list scrolls up and down by design: only its width is checked for its rows.
    const outside = r.left < box.left - 1 || r.right > box.right + 1 ||
                    (!inList && (r.top < box.top - 1 || r.bottom > box.bottom + 1));
    if (outside) bad.push(`${e.tagName}#${e.id}.${e.className?.baseVal ?? e.className} at ` +
                          `${Math.round(r.left)},${Math.round(r.top)} to ${Math.round(r.right)},${Math.round(r.bottom)}`);
  }
  const root = document.documentElement;
  if (root.scrollWidth > vw + 1 || root.scrollHeight > vh + 1) bad.push(`page scrolls: ${root.scrollWidth}x${root.scrollHeight}`);
  return bad;
}"""


def _state(fake: FakeService) -> None:
    light, dark = [0] * 24, [0] * 24
    light[0], light[3], light[5] = 2, 2, 2
    dark[23], dark[18], dark[20] = 3, 4, 2
    moves = [{"game": 3, "number": i // 2 + 1, "side": "light" if i % 2 == 0 else "dark", "roll": [6, 5],
              "play": "24/18 13/8" if i % 5 else ""} for i in range(40)]
    fake.update(match={"id": "1", "length": 7, "players": {"light": LIGHT_NAME, "dark": DARK_NAME},
                       "score": {"light": 6, "dark": 5}, "crawford": False, "post_crawford": True, "game": 3,
                       "rules": {"crawford": True, "tournament": True}},
                position={"light": light, "dark": dark, "bar": {"light": 1, "dark": 0}, "off": {"light": 8, "dark": 6},
                          "position_id": "x", "match_id": "y"},
                dice={"values": [6, 6], "cocked": [False, True], "used": [6]}, phase="moving", moves=moves,
                cube={"value": 8, "owner": "dark", "offered_by": None})


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    chromium_or_skip()
    fake = FakeService()
    _state(fake)
    app = create_app(Settings(data_dir=tmp_path_factory.mktemp("layout"), language="pt"), service=fake)
    with BackgroundServer(app) as server:
        yield server.url


@pytest.mark.parametrize("width,height", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_nothing_overflows_the_screen(url: str, width: int, height: int) -> None:
    with chromium_page(width, height) as page:
        page.goto(url + "/")
        page.wait_for_selector("[data-testid=dice] .die")
        page.wait_for_function("document.getElementById('name-dark').textContent.length > 0")
        screenshot(page, f"layout-{width}x{height}")
        assert page.evaluate(OVERFLOW) == []
        for who, name in (("light", LIGHT_NAME), ("dark", DARK_NAME)):
            el = page.locator(f"#name-{who}")
            assert el.inner_text() == name
            assert el.evaluate("e => e.scrollWidth <= e.clientWidth + 1 && e.scrollHeight <= e.clientHeight + 1")
            chip = page.locator(f".score .who.{who} .chip").bounding_box()
            assert chip is not None and chip["x"] + chip["width"] <= width and chip["width"] > 5
        # Every move's roll and play show in full (a long name gives way), the last move is in view.
        plays = page.locator("#move-list .play")
        assert plays.last.evaluate("e => e.getBoundingClientRect().right <= "
                                   "document.getElementById('move-list').getBoundingClientRect().right + 1")
        assert "não joga" in page.inner_text("#move-list")
        # 8 light and 6 dark checkers borne off, drawn in the tray; all discs inside the board's frame.
        assert page.locator("[data-testid=board] rect.checker.light").count() == 8
        assert page.locator("[data-testid=board] rect.checker.dark").count() == 6
        board = page.locator("[data-testid=board]").bounding_box()
        assert board is not None and board["width"] > width * 0.45
        for disc in page.locator("[data-testid=board] circle.checker").all():
            box = disc.bounding_box()
            assert box is not None
            assert board["x"] <= box["x"] and box["x"] + box["width"] <= board["x"] + board["width"] + 1
