"""The teacher's table walked in real headless Chromium at 800x480 with the synthetic camera (issue 38): boards drawn
by vision's renderer and read back by vision's pipeline go to the kiosk's referee service as board events; the page
guides the set-up from a scrambled board to a pip-count race, takes the two counts on its number pad, then brings
back a card from the student's recorded match, set up by guidance again and graded by the play on the board.
Screenshots in artifacts/screenshots/drills/; every visible control at least 48 px tall and inside the screen."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from bench.bench_vision_referee import Video
from core.rules.position import Position, Side
from kiosk.config import Settings
from kiosk.main import create_app
from kiosk.server import BackgroundServer
from kiosk.service import RefereeService
from tests.kiosk.browser import SCREENSHOTS, chromium_or_skip, chromium_page
from tests.kiosk.chair import chair_problems
from tests.kiosk.test_drills import _lift, blunder_row

START = Position.start()
SHOTS = SCREENSHOTS / "drills"
# Every visible button or input at least 48 px tall and inside the 800x480 screen: the offenders.
SMALL = """() => [...document.querySelectorAll("button, input, a")].filter((e) => {
  if (e.closest("[hidden]")) return false;
  const r = e.getBoundingClientRect();
  if (!r.width || !r.height) return false;
  return r.height < 47.5 || r.left < -1 || r.top < -1 || r.right > innerWidth + 1 || r.bottom > innerHeight + 1;
}).map((e) => `${e.id || e.textContent.trim().slice(0, 20)} ${Math.round(e.getBoundingClientRect().height)}px`)"""


class Camera:
    """Vision's synthetic camera over the board: each position is filmed (a hand over it, then still) and every
    change the pipeline reports goes to the kiosk's service, as the camera loop sends it."""

    def __init__(self, service: RefereeService) -> None:
        self.service = service
        self.video = Video(0, (640, 360))
        self.video.show(START, self, [], frames=120)  # type: ignore[arg-type]  # the set-up board: colours learnt
        self.pos = START

    def feed(self, event: dict[str, Any]) -> list[dict[str, Any]]:
        try:
            return self.service.submit(dict(event))
        except ValueError:
            return []

    def film(self, pos: Position) -> None:
        self.pos = pos
        self.video.show(pos, self, [], hand=True, frames=6)  # type: ignore[arg-type]
        self.video.show(pos, self, [])  # type: ignore[arg-type]


def scrambled() -> Position:
    rng = random.Random(5)
    pos = START
    for _ in range(6):  # six checkers lifted and dropped anywhere open
        side = rng.choice((Side.LIGHT, Side.DARK))
        own = pos.own(side)
        frm = rng.choice([p for p in range(1, 25) if own[p]])
        for to in rng.sample(range(1, 25), 24):
            try:
                moved = _lift(pos, {"side": side.value, "from": frm, "to": to, "count": 1})
                Position.from_position_id(moved.position_id())
            except ValueError:
                continue
            pos = moved
            break
    return pos


@pytest.fixture
def kiosk(tmp_path: Path) -> Iterator[tuple[str, Any, RefereeService]]:
    chromium_or_skip()
    service = RefereeService(tmp_path / "journal.sqlite")
    app = create_app(Settings(data_dir=tmp_path / "data", language="pt"), service=service, coach_engine=None)
    try:
        with BackgroundServer(app) as server:
            app.state.drills.rng = random.Random(2)  # the same race on every run
            yield server.url, app, service
    finally:
        service.close()


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))
    assert page.evaluate(SMALL) == [], name
    PROBLEMS[name] = chair_problems(page)  # the screen from the chair (issue 37): size floor, one language...


PROBLEMS: dict[str, list[str]] = {}


def follow_guidance(url: str, camera: Camera, page: Any, name: str) -> dict[str, Any]:
    """Do what the screen says, one step at a time, until the board matches; a screenshot after the first step."""
    for step in range(60):
        session = httpx.get(f"{url}/api/drills/session").json()["session"]
        if session["stage"] != "setup":
            return session
        first = session["setup"]["moves"][0]
        page.wait_for_function("(w) => document.querySelector('#steps li')?.textContent === w", arg=first["words"]["pt"])
        if step == 1:
            shot(page, name)
        camera.film(_lift(camera.pos, first))
    raise AssertionError("the guidance did not end in 60 steps")


def test_a_drill_session_at_800x480(kiosk: tuple[str, Any, RefereeService]) -> None:
    url, app, service = kiosk
    camera = Camera(service)
    camera.film(scrambled())
    with chromium_page(800, 480, locale="pt-BR") as page:
        page.goto(f"{url}/aula")
        page.get_by_test_id("drills-new-name").fill("Ana Clara")
        shot(page, "01-alunos")
        page.get_by_test_id("drills-create").click()
        page.get_by_test_id("drills-menu").wait_for()
        page.wait_for_function("() => document.querySelector('#chart').complete")
        shot(page, "02-menu")
        sid = app.state.drills.store.students()[0]["id"]

        # a pip count: the race set up from the scrambled board by following the screen
        page.get_by_test_id("drills-pips").click()
        page.wait_for_selector("#steps li")
        shot(page, "03-montar-do-embaralhado")
        session = follow_guidance(url, camera, page, "04-montar-passo-2")
        assert session["stage"] == "answer"
        target = Position.from_position_id(session["target"]["position_id"])
        assert camera.pos == target
        page.get_by_test_id("drills-pad").wait_for()
        for digit in str(target.pips(Side.LIGHT)):
            page.locator(f"#keys button[data-key='{digit}']").click()
        page.locator("#keys button[data-key='ok']").click()
        for digit in str(target.pips(Side.DARK) + 3):  # three pips out on dark
            page.locator(f"#keys button[data-key='{digit}']").click()
        shot(page, "05-teclado")
        page.locator("#keys button[data-key='ok']").click()
        page.get_by_test_id("drills-result").wait_for()
        text = page.get_by_test_id("drills-result").inner_text()
        assert "Ainda não" in text and f"escuras {target.pips(Side.DARK)}" in text and "×" in text
        shot(page, "06-pips-resultado")

        # a card from her recorded match: her 31 from the start played 24/21 24/23, the coach's best 8/5 6/5
        app.state.drills.store.record_match(sid, "12", "light", [
            blunder_row(START, (3, 1), "24/21 24/23", "8/5 6/5", 0.16)], at=time.time() - 86400)
        page.get_by_test_id("drills-back").click()
        page.get_by_test_id("drills-menu").wait_for()
        page.wait_for_function("() => !document.querySelector('#go-mistakes').disabled")
        shot(page, "07-menu-carta-do-dia")
        page.get_by_test_id("drills-mistakes").click()
        session = follow_guidance(url, camera, page, "08-carta-montar")
        assert session["stage"] == "play" and session["dice"] == [3, 1]
        page.wait_for_function("() => document.querySelector('#stage').textContent.startsWith('Jogue 3-1')")
        shot(page, "09-carta-jogue")
        camera.film(START.play((3, 1), "8/5 6/5"))
        page.get_by_test_id("drills-result").wait_for()
        assert "Certo!" in page.get_by_test_id("drills-result").inner_text()
        shot(page, "10-carta-certo")

        page.get_by_test_id("drills-back").click()
        page.get_by_test_id("drills-menu").wait_for()
        page.wait_for_function("() => document.querySelector('#chart').complete")
        shot(page, "11-progresso")
        page.get_by_test_id("drills-chart").click()  # the chart over the whole screen
        shot(page, "11b-progresso-grande")
        page.get_by_test_id("drills-chart").click()
        page.get_by_test_id("drills-lang").click()
        page.wait_for_function("() => document.querySelector('#go-pips').textContent === 'Pip count'")
        shot(page, "12-menu-en")
    problems = {k: v for k, v in PROBLEMS.items() if v}
    assert problems == {}, json.dumps(problems, ensure_ascii=False, indent=1)
    answers = app.state.drills.store.export(sid)["answers"]
    assert [(a["kind"], a["right"]) for a in answers] == [("pips", 0), ("mistake", 1)]


def test_an_opening_reply_rated_in_words_at_800x480(tmp_path: Path) -> None:
    """The coach's GNU Backgammon ranks the roll's plays; the student's play (boards straight to the service, as
    the camera sends them) is called by its size in the coach's words."""
    from kiosk.coach_engines import default_engine
    from tests.kiosk.test_drills import board_event

    chromium_or_skip()
    service = RefereeService(tmp_path / "journal.sqlite")
    app = create_app(Settings(data_dir=tmp_path / "data", language="pt"), service=service, coach_engine=default_engine)
    try:
        with BackgroundServer(app) as server, chromium_page(800, 480, locale="pt-BR") as page:
            if app.state.coach.engines.main() is None:
                pytest.skip("GNU Backgammon is not available")
            room = app.state.drills
            room.rng = random.Random(4)  # a reply (dark opened first)
            room.store.create("Bia")
            page.goto(f"{server.url}/aula")
            page.get_by_test_id("drills-student").click()
            page.get_by_test_id("drills-opening").click()
            page.get_by_test_id("drills-drill").wait_for()
            session = httpx.get(f"{server.url}/api/drills/session").json()["session"]
            target = Position.from_position_id(session["target"]["position_id"])
            service.submit(board_event(target))
            page.wait_for_function("() => document.querySelector('#stage').textContent.startsWith('Jogue')")
            shot(page, "13-abertura-jogue")
            worst = room.session["ranked"][-1]
            service.submit(board_event(Position.from_position_id(worst.result, turn=Side.LIGHT)))
            page.get_by_test_id("drills-result").wait_for()
            page.wait_for_function("() => document.querySelector('#again:not([hidden])')")
            text = page.get_by_test_id("drills-result").inner_text()
            assert worst.play in text and "melhor jogada" in text
            shot(page, "14-abertura-avaliada")
            # a cube decision in a race, graded by GNU Backgammon, Keith's count explained
            page.get_by_test_id("drills-back").click()
            page.get_by_test_id("drills-menu").wait_for()
            shot(page, "15-menu-completo")
            page.get_by_test_id("drills-cube").click()
            page.get_by_test_id("drills-drill").wait_for()
            race = httpx.get(f"{server.url}/api/drills/session").json()["session"]["target"]["position_id"]
            service.submit(board_event(Position.from_position_id(race)))
            page.get_by_test_id("drills-cube-answer").wait_for()
            page.get_by_test_id("drills-double").click()
            page.get_by_test_id("drills-take").click()
            shot(page, "16-cubo-resposta")
            page.get_by_test_id("drills-cube-ok").click()
            page.get_by_test_id("drills-result").wait_for()
            assert "GNU Backgammon" in page.get_by_test_id("drills-result").inner_text()
            shot(page, "17-cubo-resultado")
            # a bear-off, played as GNU Backgammon's best
            page.get_by_test_id("drills-back").click()
            page.get_by_test_id("drills-bearoff").click()
            page.get_by_test_id("drills-drill").wait_for()
            bear = httpx.get(f"{server.url}/api/drills/session").json()["session"]["target"]["position_id"]
            service.submit(board_event(Position.from_position_id(bear)))
            page.wait_for_function("() => document.querySelector('#stage').textContent.startsWith('Jogue')")
            shot(page, "18-retirada-jogue")
            best = room.session["ranked"][0]
            service.submit(board_event(Position.from_position_id(best.result, turn=Side.LIGHT)))
            page.get_by_test_id("drills-result").wait_for()
            page.wait_for_function("() => document.querySelector('#again:not([hidden])')")
            shot(page, "19-retirada-avaliada")
            assert session["reply"], session
    finally:
        service.close()
    problems = {k: v for k, v in PROBLEMS.items() if v and k.startswith("1")}
    assert problems == {}, json.dumps(problems, ensure_ascii=False, indent=1)


def test_a_recorded_moves_position_set_up_from_the_review(tmp_path: Path) -> None:
    """The review's "Montar no tabuleiro" opens the teacher's table with the position before that play (R02: the
    start; 31 played 8/5 6/5, then dark rolls)."""
    from tests.kiosk.test_drills import board_event

    chromium_or_skip()
    service = RefereeService(tmp_path / "journal.sqlite")
    app = create_app(Settings(data_dir=tmp_path / "data", language="pt"), service=service, coach_engine=None)
    try:
        with BackgroundServer(app) as server, chromium_page(800, 480, locale="pt-BR") as page:
            service.submit({"event": "new_match", "length": 3, "players": {"light": "Ana", "dark": "Bruno"}})
            service.submit(board_event(START))
            service.submit({"event": "roll", "dice": [3, 1], "cocked": [False, False]})
            service.submit(board_event(START.play((3, 1), "8/5 6/5")))
            service.submit({"event": "roll", "dice": [6, 4], "cocked": [False, False]})
            app.state.drills.store.create("Ana")
            page.goto(f"{server.url}/review?lang=pt")
            page.get_by_test_id("review-setup").wait_for()
            shot(page, "20-revisao-montar")
            page.get_by_test_id("review-setup").click()
            page.wait_for_url("**/aula?setup=*")
            assert "turn=light" in page.url
            page.get_by_test_id("drills-student").click()
            assert page.get_by_test_id("drills-setup-id").input_value() == START.position_id()
            page.get_by_test_id("drills-setup").click()
            page.wait_for_selector("#steps li, #result:not([hidden])")
            shot(page, "21-montar-da-revisao")
    finally:
        service.close()
