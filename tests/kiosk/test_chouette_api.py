"""The chouette's HTTP API on a real service: every control needs the PIN; bad input is a 422 naming the field;
an action the chouette does not allow now is a 409; the exports (R26-R29)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from core.match.formats.mat import read_mat
from core.rules.position import Side
from kiosk.config import Settings
from kiosk.main import create_app
from kiosk.service import RefereeService
from tests.kiosk.chouette_table import PLAYERS, Table
from tests.kiosk.conftest import PIN, TOUCH_SCREEN

SETUP = {"players": PLAYERS, "box_side": "dark", "consult": True}
H = {"X-Gamao-PIN": PIN}


@pytest.fixture
def api(tmp_path: Path) -> Iterator[tuple[TestClient, RefereeService]]:
    service = RefereeService(tmp_path / "journal.sqlite")
    # coach_engine=None: not what this file tests (the coach's gnubg runs in test_coach*.py, test_page_walk.py, tests/engine)
    app = create_app(Settings(data_dir=tmp_path, language="en"), service=service, coach_engine=None)
    with TestClient(app, client=TOUCH_SCREEN) as c:  # the touch screen sets the first PIN
        assert c.post("/api/pin", json={"pin": PIN}).status_code == 204
        yield c, service
    service.close()


CONTROLS = [("/api/chouette", SETUP), ("/api/chouette/double", {"by": "box"}),
            ("/api/chouette/answer", {"member": "Eva", "take": True}), ("/api/chouette/consult", {"value": False})]


@pytest.mark.parametrize(("path", "body"), CONTROLS)
def test_chouette_controls_need_the_pin(api: tuple[TestClient, RefereeService], path: str, body: dict[str, Any]) -> None:
    c, service = api
    count = service.journal.count()
    assert c.post(path, json=body).status_code == 401
    assert c.post(path, json=body, headers={"X-Gamao-PIN": "0000"}).status_code == 401
    assert service.journal.count() == count


@pytest.mark.parametrize(("body", "field"), [
    ({**SETUP, "players": PLAYERS[:2]}, "players"),
    ({**SETUP, "players": [*PLAYERS[:2], {"name": "Caio", "rolls": [9]}]}, "players.2.rolls.0"),
    ({**SETUP, "players": [*PLAYERS[:2], {"name": "", "rolls": [3]}]}, "players.2.name"),
    ({**SETUP, "box_side": "red"}, "box_side"),
    ({**SETUP, "colour": "red"}, "colour"),
])
def test_r26_bad_setup_is_422_naming_the_field(api: tuple[TestClient, RefereeService], body: dict[str, Any],
                                               field: str) -> None:
    c, service = api
    r = c.post("/api/chouette", json=body, headers=H)
    assert r.status_code == 422
    assert r.json()["message"].startswith(f"{field}:")
    assert service.journal.count() == 0


def test_r26_tie_and_repeated_name_are_422_naming_the_field(api: tuple[TestClient, RefereeService]) -> None:
    c, service = api
    tie = c.post("/api/chouette", json={**SETUP, "players": [*PLAYERS[:2], {"name": "Caio", "rolls": [5]}]}, headers=H)
    assert tie.status_code == 422
    assert tie.json()["detail"] == {"field": "players", "message": "Bruno, Caio tie on roll 1: each rolls again (R26)"}
    twice = c.post("/api/chouette", json={**SETUP, "players": [*PLAYERS[:2], {"name": "Ana", "rolls": [1]}]}, headers=H)
    assert twice.status_code == 422 and twice.json()["detail"]["field"] == "players[2].name"
    cap = c.post("/api/chouette", json={**SETUP, "cube_cap": 48}, headers=H)
    assert cap.status_code == 422 and cap.json()["detail"]["field"] == "cube_cap"
    assert service.journal.count() == 0


def test_r29_a_chouette_through_the_api(api: tuple[TestClient, RefereeService]) -> None:
    c, service = api
    r = c.post("/api/chouette", json=SETUP, headers=H)
    assert r.status_code == 200
    assert r.json()["verdicts"][-1]["message"]["pt"] == "Chouette: banqueiro Ana, capitão Bruno, apostadores Davi, Carla, Eva."
    shown = c.get("/api/state").json()["chouette"]
    assert (shown["box"], shown["captain"], shown["crew"]) == ("Ana", "Bruno", ["Davi", "Carla", "Eva"])
    # Not the box's roll yet: 409 saying why; an answer nobody waits for: 409.
    early = c.post("/api/chouette/double", json={"by": "box"}, headers=H)
    assert early.status_code == 409 and "may double only before its own roll" in early.json()["detail"]
    assert c.post("/api/chouette/answer", json={"member": "Eva", "take": True}, headers=H).status_code == 409
    unknown = c.post("/api/chouette/answer", json={"member": "Zoe", "take": True}, headers=H)
    assert unknown.status_code == 422 and unknown.json()["detail"]["field"] == "member"
    bad = c.post("/api/chouette/answer", json={"member": "Eva", "take": "maybe"}, headers=H)
    assert bad.status_code == 422 and bad.json()["message"].startswith("take:")
    assert c.post("/api/chouette/double", json={"by": "box", "members": ["Eva"]}, headers=H).json()["detail"]["field"] \
        == "members"
    assert c.post("/api/cube", json={"action": "double", "side": "dark"}, headers=H).status_code == 409

    table = Table(service.submit, lambda: service.referee)
    table.to_double(Side.DARK)
    assert c.post("/api/chouette/double", json={"by": "box"}, headers=H).status_code == 200
    for member, take in (("Bruno", False), ("Davi", True), ("Carla", False), ("Eva", True)):
        assert c.post("/api/chouette/answer", json={"member": member, "take": take}, headers=H).status_code == 200
    shown = c.get("/api/state").json()["chouette"]
    assert (shown["captain"], shown["crew"]) == ("Davi", ["Carla", "Eva", "Bruno"])  # R29: Davi took first
    assert {row["name"]: row["points"] for row in shown["ledger"]} == {"Ana": 2, "Bruno": -1, "Davi": 0, "Carla": -1,
                                                                     "Eva": 0}
    table.end(Side.LIGHT, 1)  # the team wins: Ana pays Davi and Eva 2 each
    shown = c.get("/api/state").json()["chouette"]
    assert {row["name"]: row["points"] for row in shown["ledger"]} == {"Ana": -2, "Bruno": -1, "Davi": 2, "Carla": -1,
                                                                     "Eva": 2}
    assert (shown["box"], shown["captain"]) == ("Davi", "Carla")  # R28: the box lost
    assert c.post("/api/chouette/consult", json={"value": False}, headers=H).status_code == 200
    assert c.get("/api/state").json()["chouette"]["consult"] is False

    ledger = c.get("/api/chouette/current/ledger.json")
    assert ledger.status_code == 200 and ledger.json()["total"] == 0 and ledger.json()["ledger"]["Davi"] == 2
    assert "gamao-chouette-current-ledger.json" in ledger.headers["content-disposition"]
    assert c.get("/api/chouette/current/ledger.txt").text.startswith("; Gamão chouette ledger")
    mat = c.get("/api/chouette/current/games/1.mat")
    assert mat.status_code == 200
    record = read_mat(mat.text)
    assert record.players[Side.DARK] == "Ana" and record.players[Side.LIGHT] == "Davi"
    assert c.get("/api/chouette/current/games/9.mat").status_code == 404
    match_id = c.get("/api/state").json()["match"]["id"]
    assert c.get(f"/api/chouette/{match_id}/ledger.json").json() == ledger.json()
    assert c.get("/api/chouette/current/ledger.pdf").status_code == 422
    assert c.get("/api/chouette/77/ledger.json").status_code == 404


def test_a_plain_match_is_not_a_chouette(api: tuple[TestClient, RefereeService]) -> None:
    c, _ = api
    assert c.post("/api/match", json={"length": 3}, headers=H).status_code == 200
    assert c.get("/api/state").json()["chouette"] is None
    r = c.get("/api/chouette/current/ledger.json")
    assert r.status_code == 404 and "is not a chouette" in r.json()["detail"]
    refused = c.post("/api/chouette/double", json={"by": "box"}, headers=H)
    assert refused.status_code == 409 and refused.json()["detail"].startswith("no chouette is being played")
