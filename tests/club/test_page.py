"""The director's page in real headless Chromium with 6 boards (20 with --soak) playing corpus matches: every
card updates to its board's final score (R13), a board waiting on a human is highlighted, a click opens its own
view."""

from __future__ import annotations

from pathlib import Path

from club.web import create_app
from kiosk.pin import PinStore
from kiosk.server import BackgroundServer
from tests.club.conftest import CLUB, MATCHES, Board, names, wait_for
from tests.kiosk.browser import chromium_or_skip, chromium_page, screenshot
from tests.soak import soak

BOARDS = 20 if soak() else 6  # 10 took 21 s of the default run's wall

WATCH = """() => {
  window.sawAttention = new Set();
  new MutationObserver(() => {
    for (const c of document.querySelectorAll('.card.attention')) window.sawAttention.add(c.dataset.key);
  }).observe(document.getElementById('grid'), {subtree: true, attributes: true, childList: true});
}"""


def test_director_page_with_boards_updating(broker, make_director, tmp_path: Path) -> None:
    chromium_or_skip()
    director = make_director()
    boards = [Board(broker, n, tmp_path / n, match=MATCHES[i % 2], speed=20) for i, n in enumerate(names(BOARDS))]
    try:
        with BackgroundServer(create_app(director, PinStore(tmp_path / "pins"))) as srv, \
                chromium_page(1600, 1000, locale="pt-BR") as page:
            page.goto(srv.url + "/")
            page.wait_for_selector("#status:has-text('ao vivo')")
            page.evaluate(WATCH)
            for b in boards:
                b.play()
            page.wait_for_function(f"document.querySelectorAll('.card').length === {BOARDS}", timeout=30_000)
            page.wait_for_function(f"document.querySelectorAll('.card svg .checker').length > {BOARDS} * 25")
            assert wait_for(lambda: sum(b.journal.count() for b in boards) > 100 * BOARDS, 60)
            screenshot(page, "club-director")
            page.wait_for_function(
                "[...document.querySelectorAll('.card')].every(c => c.dataset.phase === 'match_over')",
                timeout=120_000)
            for b in boards:
                score = b.service.state()["match"]["score"]
                card = page.locator(f"[data-key='{CLUB}/{b.name}']")
                assert card.get_attribute("data-score") == f"{score['light']}–{score['dark']} / {b.service.state()['match']['length']}"
            # The demo matches slip in a cocked die and an illegal play in strict mode: each board was flagged.
            flagged = page.evaluate("[...window.sawAttention]")
            assert len(flagged) >= BOARDS // 2, flagged
            assert page.locator("#results tbody tr").count() == BOARDS
            assert page.evaluate("window.gamaoLatency.length") > 100
            page.locator(f"[data-key='{CLUB}/mesa01']").click()
            page.wait_for_url(f"**/board/{CLUB}/mesa01")
            page.wait_for_selector("#one svg .checker")
            assert "3–2 / 3" in page.inner_text("#title")
            page.wait_for_selector("#moves li")
            screenshot(page, "club-board")
    finally:
        for b in boards:
            b.close()
