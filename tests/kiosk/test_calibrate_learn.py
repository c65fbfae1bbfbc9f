"""Learning the board at set-up on the calibration page (issue 33), in real headless Chromium at 800x480 with the
synthetic camera (kiosk/demo.py's SimulatedCamera, vision's renderer and pipeline): in a dim room the owner shows
the starting position and the empty board and presses "learn" for each; the page shows the two checker sets
learnt, each point's empty look and how sure the reading is, point by point. The route needs the PIN and says in
words when the board shown is not the one named."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from core.rules.position import Position
from kiosk.config import Settings
from kiosk.demo import SimulatedCamera
from kiosk.main import create_app
from kiosk.server import BackgroundServer
from tests.kiosk.browser import chromium_or_skip, chromium_page, screenshot
from tests.kiosk.chair import chair_problems
from tests.kiosk.conftest import PIN
from tests.kiosk.fakes import FakeService
from vision.config import load_config
from vision.pipeline import Pipeline
from vision.render import Options

#: A dim room (the sensor's noise at 22): the start is read right but in doubt on eight points; learnt from the
#: start and the empty board, it is read sure on all 24 (seed 5, measured).
DIM = Options(size=(960, 540), field="wood", checkers="red_white", perspective=0.03, rotate=3.0, glare=False,
              dice=False, noise=22.0, gradient=0.3)
SEED = 5
START = {"event": "board", **Position.start().to_dict(), "stable": True}
EMPTY = {"event": "board", "light": [0] * 24, "dark": [0] * 24, "bar": {"light": 0, "dark": 0},
         "off": {"light": 15, "dark": 15}, "stable": True}


def dim_camera() -> SimulatedCamera:
    cam = SimulatedCamera(seed=SEED)
    # the ring score alone (the figures above were measured with it): the slot judge (vision/slots.py) reads this
    # dim start sure on every point before anything is learnt, and the page would have no doubt to show
    cam._pipeline_cls = partial(Pipeline, load_config().with_detect(slot_model=False))
    cam.opts = DIM
    cam.hand_opts = Options(**{**DIM.__dict__, "hand": True})
    return cam


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, SimulatedCamera]]:
    chromium_or_skip()
    cam = dim_camera()
    cam.see(START, hand=False)  # the camera finds the board set up
    app = create_app(Settings(data_dir=tmp_path, language="pt"), service=FakeService(), camera=cam)
    app.state.pins.set(PIN)
    with BackgroundServer(app) as server:
        yield server.url, cam


def learn_on_screen(page: Any, board: str) -> None:
    button = page.locator(f"[data-testid=learn-{board}]")
    box = button.bounding_box()
    assert box is not None and box["height"] >= 48 and box["y"] + box["height"] <= 480
    button.click()
    page.wait_for_function("() => /Aprendido\\.|Learnt\\./.test(document.querySelector('#status').textContent)")


def test_calibration_page_learns_the_start_and_the_empty_board_and_shows_it(served: Any) -> None:
    url, cam = served
    with chromium_page(800, 480, locale="pt-BR") as page:
        page.goto(url + "/calibrate")
        page.wait_for_selector("[data-testid=learnt-points] .cell[data-level]")
        page.wait_for_timeout(300)
        assert page.locator("[data-testid=learnt-points] .cell.doubt").count() > 0  # the dim room shows
        assert "seguras" in page.inner_text("[data-testid=reading]")
        assert chair_problems(page) == []
        screenshot(page, "calibration-before-learning-pt-800x480")
        page.fill("#pin", PIN)
        learn_on_screen(page, "start")
        assert page.inner_text("[data-testid=learnt-from]") == "Aprendido: posição inicial (16 casas vazias)"
        assert page.is_visible("[data-testid=swatch-light]") and page.is_visible("[data-testid=swatch-dark]")
        cam.show(EMPTY)  # the owner takes every checker off
        learn_on_screen(page, "empty")
        assert page.inner_text("[data-testid=learnt-from]") == "Aprendido: posição inicial + tabuleiro vazio"
        assert page.locator("[data-testid=learnt-points] .cell").count() == 24
        levels = page.eval_on_selector_all("[data-testid=learnt-points] .cell", "cs => cs.map(c => c.dataset.level)")
        assert set(levels) <= {"sure", "doubt", "unsure"} and len(levels) == 24
        # Every point's learnt empty colour is drawn behind its number.
        colours = page.eval_on_selector_all("[data-testid=learnt-points] .cell",
                                            "cs => cs.map(c => c.style.getPropertyValue('--empty'))")
        assert all(c.startswith("#") for c in colours)
        for sel in ("#reset", "#save", "[data-testid=learn-start]", "[data-testid=learn-empty]"):
            box = page.locator(sel).bounding_box()
            assert box is not None and box["height"] >= 48 and box["width"] >= 48 and box["y"] + box["height"] <= 480
        strip = page.locator("[data-testid=learnt-points]").bounding_box()
        assert strip is not None and strip["y"] + strip["height"] <= 480
        # Back to the start for the first game: read with what was learnt, sure on every point.
        cam.see(START, hand=False, setup=True)
        page.wait_for_function("() => document.querySelector('[data-testid=reading]').dataset.sure === '24'")
        assert page.inner_text("[data-testid=reading]") == "Certeza por casa (%): 24 de 24 seguras"
        assert chair_problems(page) == []
        screenshot(page, "calibration-learnt-pt-800x480")
    overlay = cam.overlay()
    assert overlay["learnt"]["from"] == ["start", "empty"]
    assert [p["point"] for p in overlay["learnt"]["points"]] == list(range(1, 25))
    assert all("sure" in p and "level" in p for p in overlay["points"])


def test_calibration_page_in_english(served: Any) -> None:
    url, cam = served
    cam.learn("start")
    cam.show(EMPTY)
    cam.learn("empty")
    cam.see(START, hand=False, setup=True)
    with chromium_page(800, 480, locale="en-GB") as page:
        page.goto(url + "/calibrate?lang=en")
        page.wait_for_function("() => document.querySelector('[data-testid=reading]').dataset.sure === '24'")
        assert page.inner_text("[data-testid=learnt-from]") == "Learnt: starting position + empty board"
        assert page.inner_text("[data-testid=reading]") == "Sureness per point (%): 24 of 24 sure"
        assert chair_problems(page) == []
        assert page.inner_text("[data-testid=learn-start]") == "Learn: starting position"
        assert page.inner_text("[data-testid=learn-empty]") == "Learn: empty board"
        screenshot(page, "calibration-learnt-en-800x480")


def test_the_learn_route_needs_the_pin_and_says_what_is_wrong(tmp_path: Path) -> None:
    cam = dim_camera()
    cam.opts = Options(**{**DIM.__dict__, "noise": 4.0})  # a good light: the start is plainly not the empty board
    cam.see(START, hand=False)
    app = create_app(Settings(data_dir=tmp_path, language="pt"), service=FakeService(), camera=cam)
    app.state.pins.set(PIN)
    with TestClient(app) as c:
        assert c.post("/api/calibration/learn", json={"board": "start"}).status_code == 401
        headers = {"X-Gamao-PIN": PIN}
        r = c.post("/api/calibration/learn", json={"board": "empty"}, headers=headers)
        assert r.status_code == 409
        assert r.json()["detail"]["words"]["pt"].startswith("O tabuleiro não está vazio")
        for body in ({"board": "middle"}, {"board": "start", "extra": 1}, {}, {"board": 3}):
            assert c.post("/api/calibration/learn", json=body, headers=headers).status_code == 422
        r = c.post("/api/calibration/learn", json={"board": "start"}, headers=headers)
        assert r.status_code == 200 and r.json()["learnt"]["from"] == ["start"]


def test_without_a_camera_the_learn_route_is_404(tmp_path: Path) -> None:
    app = create_app(Settings(data_dir=tmp_path, language="pt"), service=FakeService())
    app.state.pins.set(PIN)
    with TestClient(app) as c:
        r = c.post("/api/calibration/learn", json={"board": "start"}, headers={"X-Gamao-PIN": PIN})
        assert r.status_code == 404


def test_calibration_page_on_a_mosaic_board(tmp_path: Path) -> None:
    """One of the issue's board kinds (vision.synthetic.KINDS: a mosaic field, seed 2): the start is misread and
    sure on 15 of 24 points before; learnt from the start and the empty board it is read right, sure on all 24,
    and the page shows what was learnt."""
    chromium_or_skip()

    from vision.synthetic import kind_case

    _, opts = kind_case("mosaic", 2)
    cam = SimulatedCamera(seed=2)
    cam.opts = replace(opts, objects=(), hand=False, size=(960, 540))
    before, right = cam.see(START, hand=False)
    assert before is not None and not right
    cam.learn("start")
    cam.show(EMPTY)
    cam.learn("empty")
    after, right = cam.see(START, hand=False, setup=True)
    assert after is not None and right
    app = create_app(Settings(data_dir=tmp_path, language="pt"), service=FakeService(), camera=cam)
    with BackgroundServer(app) as server, chromium_page(800, 480, locale="pt-BR") as page:
        page.goto(server.url + "/calibrate")
        page.wait_for_function("() => document.querySelector('[data-testid=reading]').dataset.sure === '24'")
        assert page.inner_text("[data-testid=learnt-from]") == "Aprendido: posição inicial + tabuleiro vazio"
        assert chair_problems(page) == []
        screenshot(page, "calibration-learnt-mosaic-pt-800x480")
