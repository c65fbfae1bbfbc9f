"""The director's page for a club night (issue 22) in headless Chromium at 800x480: one language per page (?lang, its
own switch; Brazilian Portuguese by default), each table's players, who is on roll, score and length (R13), dice,
time since the last move, results with the winner's name and times, tonight's standings and the club rating (FIBS
formula), the public screen's delay; the board page's moves in the page's language."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

from club.director import Director
from club.intake import BoardMatch
from club.rating import change
from club.web import create_app
from core.page_words_js import page_words_js
from core.referee import Referee
from kiosk.pin import PinStore
from kiosk.server import BackgroundServer
from tests.club.conftest import CLUB, Board, caught_up, wait_for
from tests.kiosk.browser import chromium_or_skip, chromium_page
from tests.kiosk.chair import chair_problems
from tests.web import HTTP

# docs/screens/ (kept in the repository) only when GAMAO_DOC_SCREENS=1, so a test run leaves the checkout unchanged.
SCREENS = Path(__file__).resolve().parents[2] / ("docs/screens" if os.environ.get("GAMAO_DOC_SCREENS") == "1"
                                                 else "artifacts/screenshots")
PT_ONLY = ("jogando", "claras", "escuras", "Resultados", "fim da partida", "aguardando")
EN_ONLY = ("moving", "Results", "match over", "light", "awaiting")


def test_the_club_night_page_in_one_language(broker, make_director, tmp_path: Path) -> None:
    chromium_or_skip()
    director = make_director()
    done = [Board(broker, f"mesa0{i}", tmp_path / f"m{i}", match="2pt") for i in (1, 2, 3)]
    live = Board(broker, "mesa04", tmp_path / "m4", match="3pt", speed=2)  # still playing: dice, who is on roll
    pins = PinStore(tmp_path / "pins")
    pins.set("2468")
    try:
        for b in done:
            b.play()
        assert wait_for(lambda: all(b.done() for b in done), 60)
        assert wait_for(lambda: caught_up(director, done), 30)
        live.play()
        assert wait_for(lambda: live.journal.count() > 6, 60)
        with BackgroundServer(create_app(director, pins)) as srv:
            # the kiosk's words (i18n.js) from their table, as the kiosk serves them (core/page_words.py)
            words = HTTP.get(f"{srv.url}/kiosk/words.js")
            assert words.status_code == 200 and words.text == page_words_js()
            assert HTTP.get(f"{srv.url}/kiosk/words.js", headers={"If-None-Match": words.headers["etag"]}).status_code == 304
            night = HTTP.get(f"{srv.url}/api/night").json()
            assert len(night["results"]) == 3 and night["standings"] and night["ratings"]
            # the FIBS rating, replayed by hand: the same two players, the same winner, three 2-point matches
            ratings = {r["name"]: r for r in night["ratings"]}
            winner = night["results"][0]["winner_name"]
            assert all(r["winner_name"] == winner for r in night["results"]) and len(ratings) == 2
            (loser,) = set(ratings) - {winner}
            w, lo, exp = 1500.0, 1500.0, 0
            for _ in range(3):
                dw, dl = change(w, lo, 2, exp, exp)
                w, lo, exp = w + dw, lo + dl, exp + 2
            assert (ratings[winner]["rating"], ratings[loser]["rating"]) == (round(w, 2), round(lo, 2))
            assert ratings[winner]["experience"] == 6 and night["standings"][0]["name"] == winner
            r = HTTP.post(f"{srv.url}/api/settings", json={"delay": 30}, headers={"X-Gamao-PIN": "2468"})
            assert r.status_code == 200 and HTTP.get(f"{srv.url}/api/settings").json() == {"delay": 30}
            for lang, mine, other in (("pt", PT_ONLY, EN_ONLY), ("en", EN_ONLY, PT_ONLY)):
                with chromium_page(800, 480, locale="pt-BR") as page:
                    page.goto(f"{srv.url}/?lang={lang}")
                    page.wait_for_function("document.querySelectorAll('.card').length === 4")
                    page.wait_for_function("document.querySelectorAll('#results tbody tr').length === 3")
                    page.wait_for_function("document.querySelector('[data-key=\"porto/mesa04\"] .dice').textContent")
                    body = page.inner_text("body")
                    assert " / " not in page.inner_text("#grid").replace("/ 2", "").replace("/ 3", "")
                    assert any(w in body for w in mine)
                    for word in other:
                        assert not re.search(rf"\b{word}\b", body), (lang, word)
                    # read from the chair (issue 37, tests/kiosk/chair.py): the size floor, no code, one language
                    assert chair_problems(page) == [], (lang, chair_problems(page))
                    card = page.locator("[data-key='porto/mesa04']")
                    assert card.locator(".side.turn").count() == 1  # who is on roll
                    winner = page.locator("#results tbody tr td.winner").first.inner_text()
                    assert winner in ("Ana", "Bia") or winner  # the winner's name from the match's players
                    assert page.locator("#standings tbody tr").count() >= 2
                    assert page.locator("#ratings tbody tr").count() >= 2
                    if lang == "pt":
                        SCREENS.mkdir(parents=True, exist_ok=True)
                        page.screenshot(path=str(SCREENS / "club-night-800x480.png"))
                        page.screenshot(path=str(SCREENS / "club-night-800x480-full.png"), full_page=True)
                    page.goto(f"{srv.url}/board/{CLUB}/mesa01?lang={lang}")
                    page.wait_for_selector("#moves li")
                    if lang == "pt":
                        page.screenshot(path=str(SCREENS / "club-board-800x480.png"))
                    assert chair_problems(page) == [], (lang, chair_problems(page))  # a board's own page too
                    first = page.locator("#moves li").first.inner_text()
                    # the players' names, never their colours (issue 37)
                    assert first.split()[0] in set(night["results"][0]["players"].values()), first
            with chromium_page(800, 480, locale="pt-BR") as page:  # the public screen: no controls
                page.goto(f"{srv.url}/?public=1")
                page.wait_for_selector("#status:has-text('ao vivo')")
                assert not page.locator("#setdelay").is_visible()
    finally:
        for b in (*done, live):
            b.close()


class ClockReferee(Referee):
    """A referee whose public state has the tournament clock (issue 21 adds it to the board's referee)."""

    def public_state(self) -> dict:
        return {**super().public_state(), "clock": {"light": 300.0, "dark": 61.0, "running": "dark", "delay_left": 12}}


def test_the_clocks_show_when_the_boards_state_has_them(tmp_path: Path) -> None:
    chromium_or_skip()
    director = Director(None, tmp_path / "d", club=CLUB).start()
    try:
        view = director.intake._view(CLUB, "mesa01")
        view.online, view.updated, view.match = True, time.time(), 1
        ref = ClockReferee()
        ref.feed({"event": "new_match", "length": 5, "players": {"light": "Ana", "dark": "Bia"}})
        director.intake.matches[(CLUB, "mesa01", 1)] = BoardMatch(ref)
        assert director.detail(CLUB, "mesa01")["state"]["clock"]["running"] == "dark"
        with BackgroundServer(create_app(director, PinStore(tmp_path / "pins"))) as srv, \
                chromium_page(800, 480, locale="pt-BR") as page:
            page.goto(f"{srv.url}/?lang=en")
            page.wait_for_selector(".card .clock")
            assert page.locator(".side.light .clock").inner_text() == "5:00"
            assert page.locator(".side.dark .clock.running").inner_text() == "1:01"
    finally:
        director.close()
