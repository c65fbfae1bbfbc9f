"""The move list in real headless Chromium: a dance (a roll with no legal play, R25) reads "não joga" /
"no play", never a bare `66:`; a move touched opens on the lesson page (issue 38)."""

from __future__ import annotations

import json
from pathlib import Path

from core.referee.selfplay import random_game
from core.rules.variants import PlakotoPosition
from kiosk.config import Settings
from kiosk.main import create_app
from kiosk.server import BackgroundServer
from kiosk.service import RefereeService
from tests.core.referee.variant_streams import game_events
from tests.kiosk.browser import SCREENSHOTS, chromium_or_skip, chromium_page
from tests.kiosk.chair import chair_problems
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


def test_a_move_of_a_recorded_variant_match_opens_on_the_lesson_page_at_800x480(tmp_path: Path) -> None:
    """Issue 38's way from the main page: a move of the list touched shows "Estudar esta jogada" (48 px, the row's
    width) under it, which opens /aula?match=N&move=M; there the set-up field reads "partida N, lance M" and the target
    is the position before that play (a Plakoto match of the journal, R30's pins in it). English through the same
    table; nothing for a match without a journal id, nor in a tournament."""
    chromium_or_skip()
    service = RefereeService(tmp_path / "journal.sqlite")
    app = create_app(Settings(data_dir=tmp_path / "data", language="pt"), service=service, coach_engine=None)
    try:
        game = random_game(PlakotoPosition, 5)
        # the match in play, 20 plays in or more, at most two checkers pinned
        stop = next(k for k, t in enumerate(game.turns) if k >= 20 and len(t.before.to_dict()["pinned"]) <= 2)  # type: ignore[arg-type]
        for event, _ in game_events(game):
            service.submit(dict(event))
            if len(service.state()["moves"]) >= stop:
                break
        match = int(service.state()["match"]["id"])
        with BackgroundServer(app) as server, chromium_page(800, 480, locale="pt-BR") as page:
            app.state.drills.store.create("Ana")
            page.goto(server.url + "/?lang=pt")
            rows = page.locator("[data-testid=move-list] li")
            rows.first.wait_for()
            assert page.get_by_test_id("study-play").count() == 0  # nothing until a move is touched
            row = rows.nth(rows.count() - 3)
            move = int(row.get_attribute("data-move") or 0)
            row.click()
            study = page.get_by_test_id("study-play")
            assert study.inner_text() == "Estudar esta jogada"
            assert study.get_attribute("href") == f"/aula?match={match}&move={move}"
            box = study.bounding_box()
            assert box is not None and box["height"] >= 47.5 and box["y"] + box["height"] <= 480
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SCREENSHOTS / "moves-study-play-pt-800x480.png"))
            assert chair_problems(page) == [], chair_problems(page)
            page.click("#lang")
            page.wait_for_function("document.documentElement.lang === 'en'")
            assert page.get_by_test_id("study-play").inner_text() == "Study this play"
            assert chair_problems(page) == [], chair_problems(page)
            page.click("#lang")
            page.wait_for_function("document.documentElement.lang === 'pt-BR'")
            page.get_by_test_id("study-play").click()
            page.wait_for_url(f"**/aula?match={match}&move={move}")
            page.get_by_test_id("drills-student").click()
            assert page.get_by_test_id("drills-setup-id").input_value() == f"partida {match}, lance {move}"
            page.get_by_test_id("drills-setup").click()
            page.wait_for_selector("#drill:not([hidden])")  # the target drawn, waiting for the board
            page.screenshot(path=str(SCREENSHOTS / "moves-study-play-lesson-pt-800x480.png"))
            session = app.state.drills.view()["session"]
            assert session["game"] == "plakoto"
            assert session["target"]["board"] == game.turns[move - 1].before.to_dict()  # no reroll in Plakoto
    finally:
        service.close()


def test_no_study_button_without_a_recorded_match_or_in_a_tournament(tmp_path: Path) -> None:
    chromium_or_skip()
    fake = FakeService()
    fake.update(**DANCE)
    app = create_app(Settings(data_dir=tmp_path, language="pt"), service=fake)
    with BackgroundServer(app) as server, chromium_page(800, 480, locale="pt-BR") as page:
        page.goto(server.url + "/")
        page.locator("[data-testid=move-list] li").first.click()
        assert page.get_by_test_id("study-play").get_attribute("href") == "/aula?match=1&move=1"
        page.locator("[data-testid=move-list] li .play").first.click()  # touched again: closed
        assert page.get_by_test_id("study-play").count() == 0
        for match in ({**fake.state()["match"], "id": "current"},
                      {**fake.state()["match"], "rules": {"crawford": True, "tournament": True}}):
            fake.update(match=match)
            page.wait_for_function(f"window.__gamao.state.match.id === {json.dumps(match['id'])} && "
                                   f"window.__gamao.state.match.rules.tournament === {json.dumps(match['rules']['tournament'])}")
            page.locator("[data-testid=move-list] li").first.click()
            assert page.get_by_test_id("study-play").count() == 0, match
