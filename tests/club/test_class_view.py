"""The class view on the director's page (issue 38): boards running lessons say in their signed state which student is
at the board, the drill and how far, and today's answers; the director shows them in one table, in Portuguese or
English, at 800x480 first (``/?view=class``) and above the grid at the director's usual size. Through the real
Mosquitto; the page in headless Chromium with the chair checks (tests/kiosk/chair.py)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from club.auth import sign
from club.config import Broker, board_topic, make_client
from club.intake import lesson_of
from club.web import create_app
from core.rules.position import Position, Side
from kiosk.config import Settings
from kiosk.drills import DrillRoom
from kiosk.main import create_app as kiosk_app
from kiosk.pin import PinStore
from kiosk.server import BackgroundServer
from kiosk.students import STUDENTS, StudentStore
from tests.club.conftest import CLUB, Board, wait_for
from tests.kiosk.browser import chromium_or_skip, chromium_page
from tests.kiosk.chair import chair_problems
from tests.kiosk.conftest import TOUCH_SCREEN
from tests.web import HTTP

SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots" / "class"


class Lesson:
    """A board (journal, referee service, club publisher) with its teacher's table wired as kiosk/main.py wires it."""

    def __init__(self, broker: Any, name: str, folder: Path) -> None:
        self.board = Board(broker, name, folder)
        self.store = StudentStore(folder / STUDENTS)
        self.room = DrillRoom(self.store, seed=len(name))
        self.room.on_change(self.board.publisher.teach(self.room.lesson))

    def see(self, pos: Position) -> None:
        """The camera reads the board (a stable ``board`` event, as the journal gives the room)."""
        self.room.board({"event": "board", **pos.to_dict(), "stable": True})

    def close(self) -> None:
        if self.store is not None:
            self.board.close()
            self.store.close()
            self.store = None  # type: ignore[assignment]


def lessons(director: Any) -> dict[str, dict[str, Any]]:
    return {row["board"]: row for row in director.lessons()}


def test_the_class_view_shows_who_drills_what_at_each_board(broker, make_director, tmp_path: Path) -> None:
    chromium_or_skip()
    director = make_director()
    a, b = Lesson(broker, "mesa01", tmp_path / "m1"), Lesson(broker, "mesa02", tmp_path / "m2")
    idle = Board(broker, "mesa03", tmp_path / "m3")  # a board with no lesson: not in the class view
    try:
        ana = a.store.create("Ana Clara")["id"]
        bruno = b.store.create("Bruno")["id"]
        # Ana counts a race: set up by guidance (the camera sees it), then both counts right
        a.see(Position.start())
        race = Position.from_position_id(a.room.start(ana, "pips")["session"]["target"]["position_id"])
        a.see(race)
        a.room.answer_pips(race.pips(Side.LIGHT), race.pips(Side.DARK))
        a.room.start(ana, "pips")  # and the next one, being set up
        # Bruno sets up a position typed by the teacher (the start): the board is scrambled
        b.see(Position.start().play((6, 5), "24/13"))
        b.room.start(bruno, "setup", Position.start().position_id())
        assert wait_for(lambda: set(lessons(director)) == {"mesa01", "mesa02"}, 15), director.lessons()
        got = lessons(director)
        assert got["mesa01"] == {"club": CLUB, "board": "mesa01", "label": "mesa01", "student": "Ana Clara",
                                 "kind": "pips", "stage": "setup", "done": 1, "right": 1, "due": 0}
        assert got["mesa02"]["student"] == "Bruno" and (got["mesa02"]["kind"], got["mesa02"]["stage"]) == ("setup", "setup")
        assert got["mesa02"]["done"] == 0
        with BackgroundServer(create_app(director, PinStore(tmp_path / "pins"))) as srv:
            assert [r["board"] for r in HTTP.get(f"{srv.url}/api/lessons").json()] == ["mesa01", "mesa02"]
            assert HTTP.get(f"{srv.url}/api/boards/{CLUB}/mesa03").json()["lesson"] is None
            SHOTS.mkdir(parents=True, exist_ok=True)
            for lang, words in (("pt", ("Ana Clara", "Contagem de casas", "100% certas", "montando a posição")),
                                ("en", ("Ana Clara", "Pip count", "100% right", "setting up"))):
                with chromium_page(800, 480, locale="pt-BR") as page:  # the teacher's tablet: the class alone
                    page.goto(f"{srv.url}/?view=class&lang={lang}")
                    page.wait_for_function("document.querySelectorAll('#lessons tbody tr').length === 2")
                    text = page.inner_text("#class")
                    assert all(w in text for w in words), (lang, text)
                    assert page.locator(".card").first.is_hidden()  # the grid is not in the class view
                    assert chair_problems(page) == [], (lang, chair_problems(page))
                    box = page.locator("#classlink").bounding_box()
                    assert box is not None and box["height"] >= 48 and box["width"] >= 48  # a target for a finger
                    page.screenshot(path=str(SHOTS / f"class-800x480-{lang}.png"))
                    # Bruno's board is set up: the row follows (the board's state goes out at once)
                    if lang == "pt":
                        b.see(Position.start())
                        page.wait_for_function("document.querySelector('[data-key=\"porto/mesa02\"]')"
                                               ".textContent.includes('terminou')", timeout=15_000)
                        assert "1 resposta, 100% certas" in page.inner_text("[data-key='porto/mesa02']")
                        page.screenshot(path=str(SHOTS / "class-800x480-pt-after.png"))
            with chromium_page(1600, 1000, locale="pt-BR") as page:  # the director's usual page: above the grid
                page.goto(f"{srv.url}/?lang=pt")
                page.wait_for_function("document.querySelectorAll('#lessons tbody tr').length === 2")
                page.wait_for_function("document.querySelectorAll('.card').length === 3")
                assert page.locator("#class").is_visible()
                assert chair_problems(page) == [], chair_problems(page)
                page.screenshot(path=str(SHOTS / "class-1600x1000-pt.png"))
                # Ana leaves the drill (between drills: still at the board), Bruno's board goes off: its row goes
                a.room.stop()
                b.close()
                page.wait_for_function("document.querySelectorAll('#lessons tbody tr').length === 1", timeout=15_000)
                page.wait_for_function("document.querySelector('#lessons').textContent.includes('escolhendo')")
        assert list(lessons(director)) == ["mesa01"] and lessons(director)["mesa01"]["kind"] is None
    finally:
        for x in (a, b):
            x.close()
        idle.close()


def test_a_lesson_is_taken_only_signed_and_in_bounds(broker, make_director) -> None:
    """Anything from the network is hostile: a lesson in a state not signed with the board's key is refused with the
    state; a signed one out of bounds (a long name, a drill the director does not know, more right than done) is
    left out and counted, the board's state taken all the same."""
    director = make_director()
    client = make_client("class-test-mesa04", Broker.parse(broker.url_for("mesa04")))
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    topic = board_topic(CLUB, "mesa04", "state")
    seq = int(time.time() * 1000)
    good = {"student": "Ana", "kind": "cube", "stage": "answer", "done": 3, "right": 2, "due": 1}

    def state(lesson: Any, key: bytes | None) -> None:
        nonlocal seq
        seq += 1
        body = json.dumps({"board": "mesa04", "club": CLUB, "online": True, "updated": time.time(), "alerts": [],
                           "journal": [], "state": {}, "lesson": lesson, "seq": seq}).encode()
        client.publish(topic, sign(topic, body, key) if key else body, qos=1).wait_for_publish(5)

    try:
        key = broker.keys["mesa04"]
        state(good, b"\x01" * len(key))  # another key: forged
        state(good, None)                # unsigned
        assert wait_for(lambda: director.intake.refused["forged"] + director.intake.refused["unsigned"] >= 2, 10)
        assert director.lessons() == []
        for bad in ({**good, "student": "x" * 41}, {**good, "kind": "chess"}, {**good, "right": 4},
                    {**good, "done": True}, {**good, "student": "Ana\u202e"}, [good], {**good, "stage": None}):
            malformed = director.intake.refused["malformed"]
            state(bad, key)
            assert wait_for(lambda m=malformed: director.intake.refused["malformed"] == m + 1, 10), bad
            assert director.lessons() == []
            assert director.detail(CLUB, "mesa04")["online"]  # the state itself was taken
        state(good, key)
        assert wait_for(lambda: len(director.lessons()) == 1, 10)
        assert director.lessons()[0]["student"] == "Ana"
    finally:
        client.disconnect()
        client.loop_stop()


def test_lesson_of_keeps_only_the_known_keys() -> None:
    lesson = {"student": "Ana", "kind": None, "stage": "menu", "done": 0, "right": 0, "due": 0, "extra": "x" * 9999}
    assert lesson_of(lesson) == {"student": "Ana", "kind": None, "stage": "menu", "done": 0, "right": 0, "due": 0}
    assert lesson_of(None) is None


def test_the_kiosk_sends_its_lesson_through_its_publisher(broker, make_director, tmp_path: Path) -> None:
    """kiosk/main.py wires the teacher's table to the board's publisher (club.publisher.start_publisher leaves it on
    the service): a drill started on the screen reaches the class view; the app's end takes it off."""
    director = make_director()
    board = Board(broker, "mesa05", tmp_path / "m5")
    board.service.club_publisher = board.publisher  # type: ignore[attr-defined]  # as start_publisher does
    try:
        app = kiosk_app(Settings(data_dir=tmp_path / "m5" / "data", language="pt"), service=board.service,
                        coach_engine=None)
        with TestClient(app, client=TOUCH_SCREEN) as screen:
            sid = screen.post("/api/students", json={"name": "Ana"}).json()["id"]
            assert screen.post("/api/drills/start", json={"student": sid, "kind": "setup",
                                                          "target": Position.start().position_id()}).status_code == 200
            assert wait_for(lambda: [(r["student"], r["kind"]) for r in director.lessons()] == [("Ana", "setup")], 15)
        assert wait_for(lambda: director.lessons() == [], 15)
    finally:
        board.close()
