"""Setting up the variants' positions on the real board (issue 38): Plakoto (R30, a pinned checker lies under its
pinner: the camera sees only the pinner), Russian backgammon (R31, checkers waiting to enter beside the board),
Jacquet (R32) and Portes (backgammon's own start), from a scrambled board and from any play of a recorded variant
match in the journal: the screen shows the target and the fewest moves, updated as the camera sees the board."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from core.referee.selfplay import random_game
from core.rules.position import Position
from core.rules.variants import PlakotoPosition, variant
from kiosk.config import Settings
from kiosk.drills import DrillRoom, board_as, layout_of
from kiosk.main import create_app
from kiosk.server import BackgroundServer
from kiosk.service import RefereeService
from kiosk.students import STUDENTS, StudentStore
from tests.core.referee.variant_streams import game_events
from tests.core.rules.test_setup_variants import Table
from tests.kiosk.browser import chromium_or_skip, chromium_page
from tests.kiosk.conftest import TOUCH_SCREEN
from tests.kiosk.test_drills_page import PROBLEMS, shot

SCRAMBLED = Position.start().play((6, 5), "24/13").play((3, 1), "8/5 6/5")


def camera(table: Table) -> dict[str, Any]:
    """What the camera sees of a board: the top colour of each stack (a pinned checker is hidden under its
    pinner), the bar; no tray."""
    light, dark = [0] * 24, [0] * 24
    for p, stack in table.points.items():
        for i, side in enumerate(stack):
            if i == 0 and len(set(stack)) == 2:
                continue  # under the other colour
            (light if side == "light" else dark)[p - 1] += 1
    return {"event": "board", "light": light, "dark": dark, "bar": dict(table.bar), "stable": True}


def follow(room: DrillRoom, table: Table, target: Position) -> int:
    """Do each first step the screen shows, the camera reading the board after each; the steps done."""
    for step in range(80):
        session = room.view()["session"]
        if session["stage"] != "setup":
            return step
        first = session["setup"]["moves"][0]
        assert first["words"]["pt"] and first["words"]["en"]
        table.do(target, {**first, "count": 1})
        room.board(camera(table))
    raise AssertionError("the guidance did not end")


@pytest.fixture
def room(tmp_path: Path) -> Any:
    store = StudentStore(tmp_path / STUDENTS)
    yield DrillRoom(store)
    store.close()


@pytest.mark.parametrize("name", ["plakoto", "russo", "jacquet", "portes"])
def test_each_games_start_set_up_from_a_scrambled_board(room: DrillRoom, name: str) -> None:
    sid = room.store.create("Ana")["id"]
    table = Table(SCRAMBLED)
    room.board(camera(table))
    view = room.start(sid, "setup", name)["session"]
    target = variant({"russo": "russian", "portes": "standard"}.get(name, name)).start()
    assert view["game"] == getattr(target, "variant", "standard") and view["target"]["board"] == target.to_dict()
    steps = follow(room, table, target)
    assert room.view()["session"]["stage"] == "done"
    assert steps == view["setup"]["checkers_moved"]  # one lift a step, as the screen said at the start


def test_a_plakoto_position_with_pins_set_up_though_the_camera_cannot_see_them(room: DrillRoom) -> None:
    """R30: the pinned checkers lie under their pinners; the camera sees only the pinners' colour on those points,
    so the set-up takes a missing checker to be under the pinner on its point."""
    sid = room.store.create("Ana")["id"]
    game = random_game(PlakotoPosition, 11)
    target = next(t.after for t in game.turns[20:] if len(t.after.to_dict()["pinned"]) >= 2)  # type: ignore[arg-type]
    table = Table(SCRAMBLED)
    room.board(camera(table))
    view = room.start(sid, "setup", json.dumps(target.to_json()), game="plakoto")["session"]
    assert view["target"]["board"]["pinned"] == target.to_dict()["pinned"]
    follow(room, table, target)
    assert room.view()["session"]["stage"] == "done"
    assert table.layout()[4] == tuple(sorted((q["point"], q["side"]) for q in target.to_dict()["pinned"]))  # type: ignore[union-attr]


def test_the_cameras_board_read_as_the_targets_game() -> None:
    plakoto = PlakotoPosition.from_json({"turn": "light", "light": [0] * 19 + [1] + [0] * 3 + [14],
                                         "dark": [14] + [0] * 18 + [1] + [0] * 4,
                                         "pinned": [{"point": 20, "side": "light"}]})
    seen = layout_of({"light": [0] * 23 + [14], "dark": [14] + [0] * 18 + [1] + [0] * 4, "bar": {}})
    assert seen is not None
    assert board_as(seen, plakoto) == plakoto  # the light checker missing is under dark's on 20
    assert layout_of({"light": [0] * 24, "dark": [16] + [0] * 23}) is None  # 16 checkers: not a board
    assert layout_of({"light": [0] * 23, "dark": [0] * 24}) is None


def test_any_play_of_a_recorded_variant_match_set_up_by_its_number(tmp_path: Path) -> None:
    """A Plakoto match in the journal (random self-play through the referee service): the position before its
    12th play, set up through the API (match and move), graded by the camera's board."""
    service = RefereeService(tmp_path / "journal.sqlite")
    app = create_app(Settings(data_dir=tmp_path / "data", language="pt"), service=service, coach_engine=None)
    try:
        game = random_game(PlakotoPosition, 5)
        for event, _ in game_events(game):
            service.submit(dict(event))
        match = int(service.state()["match"]["id"])
        assert len(service.state()["moves"]) >= 12
        with TestClient(app, client=TOUCH_SCREEN) as screen:
            sid = screen.post("/api/students", json={"name": "Ana"}).json()["id"]
            r = screen.post("/api/drills/start", json={"student": sid, "kind": "setup", "match": match, "move": 12})
            assert r.status_code == 200, r.text
            session = r.json()["session"]
            before = game.turns[11].before  # the 12th play's position (no reroll in Plakoto)
            assert session["game"] == "plakoto" and session["target"]["board"] == before.to_dict()
            assert session["target"]["turn"] == before.turn.value
            app.state.drills.board({"event": "board", **before.to_dict(), "stable": True})
            assert screen.get("/api/drills/session").json()["session"]["stage"] == "done"
            assert screen.post("/api/drills/start", json={"student": sid, "kind": "setup", "match": match,
                                                          "move": 9999}).status_code == 409
            typed = screen.post("/api/drills/start", json={"student": sid, "kind": "setup",
                                                           "target": f"Partida {match},  lance 12"})
            assert typed.status_code == 200 and typed.json()["session"]["target"]["board"] == before.to_dict()
            assert screen.post("/api/drills/start", json={"student": sid, "kind": "setup",
                                                          "target": f"match {match} move 9999"}).status_code == 409
            assert screen.post("/api/drills/start", json={"student": sid, "kind": "setup", "match": 77,
                                                          "move": 1}).status_code == 409
            bad = screen.post("/api/drills/start", json={"student": sid, "kind": "setup", "game": "plakoto",
                                                         "target": '{"turn": "light", "light": [1]}'})
            assert bad.status_code == 422 and bad.json()["detail"]["field"] == "target"
    finally:
        service.close()


def test_side_turn_of_a_variant_start(room: DrillRoom) -> None:
    sid = room.store.create("Ana")["id"]
    view = room.start(sid, "setup", "jacquet", turn="dark")["session"]
    assert view["target"]["turn"] == "dark" and view["setup"] is None  # no board seen yet
    room.board({"event": "board", **variant("jacquet").start().to_dict(), "stable": True})
    assert room.view()["session"]["stage"] == "done"


def test_a_recorded_plakoto_play_set_up_on_the_page_at_800x480(tmp_path: Path) -> None:
    """/aula?match=M&move=N: the position before a recorded Plakoto match's play, drawn with its pins and set up by
    the screen's steps while the camera (pinned checkers hidden) reads the board; then Jacquet's start typed by
    name. Screenshots looked at; the chair checks and 48 px targets at every shot."""
    chromium_or_skip()
    service = RefereeService(tmp_path / "journal.sqlite")
    app = create_app(Settings(data_dir=tmp_path / "data", language="pt"), service=service, coach_engine=None)
    try:
        game = random_game(PlakotoPosition, 11)
        move = next(k for k, t in enumerate(game.turns) if k > 12 and len(t.before.to_dict()["pinned"]) >= 2) + 1  # type: ignore[arg-type]
        for event, _ in game_events(game):
            service.submit(dict(event))
        match = int(service.state()["match"]["id"])
        target = game.turns[move - 1].before
        with BackgroundServer(app) as server, chromium_page(800, 480, locale="pt-BR") as page:
            room = app.state.drills
            room.store.create("Ana")
            table = Table(SCRAMBLED)
            room.board(camera(table))
            page.goto(f"{server.url}/aula?match={match}&move={move}")
            page.get_by_test_id("drills-student").click()
            assert page.get_by_test_id("drills-setup-id").input_value() == f"partida {match}, lance {move}"
            page.get_by_test_id("drills-setup").click()
            page.wait_for_selector("#steps li")
            assert page.locator("#target [data-pinned]").count() == len(target.to_dict()["pinned"])  # type: ignore[arg-type]
            shot(page, "25-plakoto-montar")
            for _ in range(80):
                session = room.view()["session"]
                if session["stage"] != "setup":
                    break
                table.do(target, {**session["setup"]["moves"][0], "count": 1})
                room.board(camera(table))
            page.wait_for_selector("#result:not([hidden])")
            assert "montada" in page.inner_text("#result")
            shot(page, "26-plakoto-montada")
            page.get_by_test_id("drills-back").click()
            page.get_by_test_id("drills-setup-id").fill("jacquet")
            page.get_by_test_id("drills-setup").click()
            page.wait_for_selector("#steps li")
            shot(page, "27-jacquet-montar")
    finally:
        service.close()
    problems = {k: v for k, v in PROBLEMS.items() if v and k[:2] in ("25", "26", "27")}
    assert problems == {}, problems


def test_a_drills_boards_never_reach_the_matchs_referee(tmp_path: Path) -> None:
    """While a drill runs, the camera's boards are the lesson's: not journaled, not ruled on by the current match's
    referee (nor sent to the club's director); a roll ends the drill and the boards are the match's again."""
    service = RefereeService(tmp_path / "journal.sqlite")
    app = create_app(Settings(data_dir=tmp_path / "data", language="pt"), service=service, coach_engine=None)
    try:
        service.submit({"event": "new_match", "length": 3, "players": {"light": "Ana", "dark": "Bruno"}})
        service.submit({"event": "board", **Position.start().to_dict(), "stable": True})
        with TestClient(app, client=TOUCH_SCREEN) as screen:
            before = service.journal.count()
            sid = screen.post("/api/students", json={"name": "Ana"}).json()["id"]
            screen.post("/api/drills/start", json={"student": sid, "kind": "setup", "target": "plakoto"})
            table = Table(SCRAMBLED)
            assert service.submit(camera(table)) == []  # the lesson's
            follow(app.state.drills, table, variant("plakoto").start())
            for _ in range(3):
                service.submit({"event": "board", **SCRAMBLED.to_dict(), "stable": True})
            assert screen.get("/api/drills/session").json()["session"]["stage"] == "done"
            assert service.journal.count() == before  # nothing of the lesson in the match's journal
            assert not [v for v in service.state()["verdicts"] if v.get("verdict") in ("illegal", "uncertain")]
            with pytest.raises(ValueError):
                service.submit({"event": "board", "light": [1], "stable": True})  # still checked: refused as ever
            service.submit({"event": "board", **Position.start().to_dict(), "stable": True})
            service.submit({"event": "roll", "dice": [3, 1]})  # a game is on: the drill ends
            assert screen.get("/api/drills/session").json()["session"] is None
            service.submit({"event": "board", **Position.start().play((3, 1), "8/5 6/5").to_dict(), "stable": True})
            assert service.journal.count() == before + 2
        service.submit({"event": "board", **Position.start().to_dict(), "stable": True})  # the app is gone: journaled
        assert service.journal.count() == before + 3
    finally:
        service.close()
