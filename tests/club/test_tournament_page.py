"""The tournament's big screen (club/static/tournament.html) in real headless Chromium, at 1920x1080 and 1280x800,
while a double elimination (8 players with --soak, 4 by default) is played on 4 boards through a real Mosquitto: the matches in play with
their live scores, who plays next and where, the brackets, the standings; the champion at the end. Screenshots
in artifacts/screenshots/tournament-*.png. The night's end export (results, .mat archive, ratings, SVG) after.
"""

from __future__ import annotations

import json
import random
import zipfile
from pathlib import Path
from typing import Any

from club.director import Director
from club.tournament import Journal
from club.tournament_boards import Desk
from club.tournament_end import export
from club.tournament_web import add_routes
from club.web import create_app
from kiosk.server import BackgroundServer
from tests.club.conftest import names, wait_for
from tests.club.test_tournament_night import TableBoard
from tests.kiosk.browser import chromium_or_skip, chromium_page, screenshot
from tests.soak import soak
from tests.web import HTTP
from webguard.pin import PinStore

# --soak: 8 players (the evening); the default run: 4 (a 4-player double elimination on the same 4 boards:
# the same screens, half the matches; the 8-player evening took 26 s of the default run's five minutes)
PLAYERS = ["Ana", "Bruno", "Carla", "Duda", "Eva", "Fábio", "Gil", "Hugo"][:8 if soak() else 4]
FITS = "document.documentElement.scrollWidth <= window.innerWidth && document.body.scrollHeight <= window.innerHeight"


def live(url: str) -> list[dict[str, Any]]:
    view = HTTP.get(f"{url}/api/tournaments/Quinta").json()
    return [m for m in view["matches"] if m["status"] == "playing" and m["live"].get("started")
            and sum(m["live"]["score"].values()) > 0]


def test_the_big_screen_through_an_evening(broker: Any, make_director: Any, tmp_path: Path) -> None:
    chromium_or_skip()
    folder = tmp_path / "director"
    director = make_director()
    journal = Journal(folder)
    desk = Desk(director, journal).start()
    pins = PinStore(tmp_path / "pins")
    pins.set("2468")
    app = create_app(director, pins)
    add_routes(app, desk)
    boards = [TableBoard(broker, name, tmp_path / name) for name in names(4)]
    for b in boards:
        b.runner.speed = 25  # slow enough to see scores move, then fast to the end
    try:
        with BackgroundServer(app) as srv:
            assert wait_for(lambda: len(desk.free_boards()) == 4, 20)
            journal.create("Quinta", "double_elimination", PLAYERS, length=3, seed=4)
            assert wait_for(lambda: len(live(srv.url)) >= 2, 90), "no two matches in play with a score"
            with chromium_page(1920, 1080, locale="pt-BR") as page:
                page.goto(srv.url + "/tournament")
                page.wait_for_selector("#playing .card")
                page.wait_for_function("document.querySelectorAll('#playing .card').length >= 2")
                text = page.inner_text("body")
                assert "Em jogo" in text and "Classificação" in text and "Chave principal" in text
                assert "Mesa 1" in text or "Mesa 2" in text
                assert page.locator("#standings tbody tr").count() == len(PLAYERS)
                assert page.evaluate(FITS)
                screenshot(page, "tournament-1920x1080")
                # a card shows the match its board plays (when one is still on: a loaded machine may have ended them)
                for m in live(srv.url)[:1]:
                    card = page.locator("#playing .card", has_text=m["light"]).first
                    assert m["dark"] in card.inner_text()
            with chromium_page(1280, 800, locale="pt-BR") as page:
                page.goto(srv.url + "/tournament?lang=en")
                page.wait_for_selector("#playing .card")
                assert "In play" in page.inner_text("body")
                assert page.evaluate(FITS)
                screenshot(page, "tournament-1280x800")
            for b in boards:
                b.runner.speed = 1e6
            assert wait_for(lambda: journal.load("Quinta").view()["champion"] is not None, 180)
            with chromium_page(1920, 1080, locale="pt-BR") as page:
                page.goto(srv.url + "/tournament?name=Quinta")
                page.wait_for_selector("#champion:not([hidden])")
                champion = journal.load("Quinta").view()["champion"]
                assert champion in page.inner_text("#champion")
                assert page.locator(".m").count() == len(journal.load("Quinta").view()["matches"])
                screenshot(page, "tournament-end-1920x1080")
            svg = HTTP.get(f"{srv.url}/api/tournaments/Quinta/bracket.svg")
            assert svg.status_code == 200 and svg.text.startswith("<svg") and champion in svg.text
            # the director's hand: a correction needs the PIN, is logged
            done = journal.load("Quinta").view()["matches"][0]
            body = {"match": done["id"], "winner": done["winner"], "score": "9-0"}
            assert HTTP.post(f"{srv.url}/api/tournaments/Quinta/result", json=body).status_code == 401
            r = HTTP.post(f"{srv.url}/api/tournaments/Quinta/result", json=body, headers={"X-Gamao-PIN": "2468"})
            assert r.status_code == 200, r.text
            assert r.json()["corrections"][-1]["was"]["source"] == "board"
            assert HTTP.get(f"{srv.url}/api/tournaments/Nope").status_code == 404
            # the board's hand needs the PIN too; a board the director has not heard of is refused (409)
            pin = {"X-Gamao-PIN": "2468"}
            move = {"match": done["id"], "club": "nowhere", "board": "nowhere"}
            assert HTTP.post(f"{srv.url}/api/tournaments/Quinta/assign", json=move).status_code == 401
            assert HTTP.post(f"{srv.url}/api/tournaments/Quinta/assign", json=move, headers=pin).status_code == 409
            gone = {"match": done["id"]}
            assert HTTP.post(f"{srv.url}/api/tournaments/Nope/unassign", json=gone, headers=pin).status_code == 404
        written = export(journal.load("Quinta"), folder, tmp_path / "out")
    finally:
        desk.close()
        for b in boards:
            b.close()
    names_ = {p.name for p in written}
    assert names_ == {"Quinta-results.json", "Quinta-results.csv", "Quinta-matches.zip", "Quinta-ratings.json",
                      "Quinta-bracket.svg"}
    with zipfile.ZipFile(tmp_path / "out" / "Quinta-matches.zip") as z:
        mats = [n for n in z.namelist() if n.endswith(".mat")]
        view = journal.load("Quinta").view()
        assert len(mats) == len(view["matches"])  # every match was played on a board
        text = z.read(mats[0]).decode()
        assert "point match" in text and any(p in text for p in PLAYERS)
    ratings = json.loads((tmp_path / "out" / "Quinta-ratings.json").read_text())
    assert len(ratings["matches"]) == len(view["matches"])
    for row in ratings["players"]:  # each player's change is the sum of their matches' (FIBS, club/rating.py)
        mine = sum(m["winner_change"] if m["winner"] == row["player"] else m["loser_change"]
                   for m in ratings["matches"] if row["player"] in (m["winner"], m["loser"]))
        assert abs(row["after"] - row["before"] - mine) < 0.05 and abs(row["change"] - mine) < 0.05
    journal.close()


def test_the_big_screen_fits_a_16_player_double_elimination_and_a_12_player_swiss(tmp_path: Path) -> None:
    """Big fields entered by hand (no boards): every match on the screen, nothing cut or scrolled, at both sizes."""
    chromium_or_skip()
    folder = tmp_path / "director"
    director = Director(None, folder).start()
    journal = Journal(folder)
    desk = Desk(director, journal, auto=False).start()
    pins = PinStore(tmp_path / "pins")
    pins.set("1357")
    app = create_app(director, pins)
    add_routes(app, desk)
    rng = random.Random(5)
    sixteen = [f"Jogador {i:02d}" for i in range(1, 17)]
    for name, fmt, players, played in (("DE16", "double_elimination", sixteen, 20),
                                       ("Suíço", "swiss", sixteen[:12], 24)):
        journal.create(name, fmt, players, seed=2)
        for _ in range(played):
            m = journal.load(name).ready()[0]
            journal.apply(name, {"op": "result", "match": m["id"], "winner": rng.choice([m["light"], m["dark"]]),
                                 "score": f"{m['length']}-{rng.randrange(m['length'])}"})
    try:
        with BackgroundServer(app) as srv:
            for name, size in (("DE16", (1920, 1080)), ("DE16", (1280, 800)), ("Suíço", (1920, 1080))):
                with chromium_page(*size, locale="pt-BR") as page:
                    page.goto(f"{srv.url}/tournament?name={name}")
                    page.wait_for_selector("#standings tbody tr")
                    page.wait_for_function("document.querySelectorAll('.m').length > 0")
                    assert page.evaluate(FITS)
                    # the brackets scaled to the room left, never past it
                    inside = page.evaluate("""() => { const b = document.getElementById('brackets').getBoundingClientRect();
                        const r = document.querySelector('.brackets').getBoundingClientRect();
                        return b.bottom <= r.bottom + 1 && b.right <= r.right + 1; }""")
                    assert inside
                    view = journal.load(name).view()
                    want = len(view["matches"]) if name == "DE16" else \
                        len([m for m in view["matches"] if m["round"] > max(m["round"] for m in view["matches"]) - 4])
                    assert page.locator(".m").count() == want
                    assert page.locator("#standings tbody tr").count() == len(view["standings"])
                    screenshot(page, f"tournament-{'de16' if name == 'DE16' else 'swiss12'}-{size[0]}x{size[1]}")
            # the director's hand (?control=1): a ready match's result entered on the screen, with the PIN
            with chromium_page(1920, 1080, locale="pt-BR") as page:
                page.on("dialog", lambda d: d.accept("1357"))
                page.goto(f"{srv.url}/tournament?name=DE16&control=1")
                m = journal.load("DE16").ready()[0]
                page.locator(f".m[data-id='{m['id']}']").click()
                page.wait_for_selector("dialog#control[open]")
                page.select_option("#winner-choice", m["dark"])
                page.fill("#score", "2-5")
                screenshot(page, "tournament-control-1920x1080")
                page.click("#do-result")
                page.wait_for_selector("dialog#control:not([open])", state="attached")
                done = journal.load("DE16").match(m["id"])
                assert done["winner"] == m["dark"] and done["score"] == "2-5" and done["source"] == "hand"
    finally:
        desk.close()
        journal.close()
        director.close()
