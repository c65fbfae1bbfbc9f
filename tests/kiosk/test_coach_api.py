"""The coach's HTTP and WebSocket routes with the real referee service and the fake engine (issue 12)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from kiosk.config import Settings
from kiosk.main import create_app
from kiosk.service import RefereeService
from tests.kiosk.coach_game import START, after, board, fake_engine, new_match, opening

PIN = "2468"


@pytest.fixture
def client(tmp_path: Path, referee: RefereeService) -> Iterator[TestClient]:
    app = create_app(Settings(data_dir=tmp_path, language="en"), service=referee, coach_engine=fake_engine)
    with TestClient(app, client=("127.0.0.1", 50000)) as c:  # the touch screen sets the first PIN
        assert c.post("/api/pin", json={"pin": PIN}).status_code == 204
        yield c


def test_plays_need_a_roll_then_list_every_legal_play(client, referee) -> None:
    refused = client.post("/api/coach/plays")
    assert refused.status_code == 409
    assert refused.json()["detail"] == "there is no roll to show plays for: roll the dice first"
    referee.submit(new_match())
    referee.submit({"event": "roll", "dice": [6, 2]})
    plays = client.post("/api/coach/plays").json()
    assert plays["dice"] == [6, 2] and plays["side"] == "light" and len(plays["plays"]) == len(START.legal_plays((6, 2)))
    assert {"play", "result", "equity", "loss", "label", "board"} <= set(plays["plays"][0])
    assert client.app.state.coach.idle()
    ranked = client.get("/api/coach").json()["plays"]
    assert ranked["ranked"] is True and ranked["plays"][0]["loss"] == 0.0


def test_cube_advice_before_a_roll(client, referee) -> None:
    referee.submit(new_match())
    assert client.post("/api/coach/cube").status_code == 409  # the opening roll decides who plays first
    referee.submit({"event": "roll", "dice": [3, 1]})
    assert client.post("/api/coach/cube").json()["detail"].startswith("cube advice is given before a roll")
    referee.submit(board(after("8/5 6/5")))
    referee.submit({"event": "button", "name": "end_turn"})  # commits light's play (R23); dark is to roll
    asked = client.post("/api/coach/cube").json()
    assert asked == {"side": "dark", "stage": "before", "pending": True}
    assert client.app.state.coach.idle()
    cube = client.get("/api/coach").json()["cube"]
    assert cube["pending"] is False and cube["action"] == "no_double"
    assert cube["message"]["en"].startswith("No double, take: it is too early")
    assert cube["numbers"]["en"].startswith("No double, take: too early")
    assert cube["message"]["pt"].startswith("Sem dobra, aceita: ainda é cedo")


def test_settings_need_the_pin_and_are_checked(client, referee) -> None:
    referee.submit(new_match())
    assert client.get("/api/coach/settings").json()["tutor"] == "bad"
    assert client.put("/api/coach/settings", json={"tutor": "doubtful"}).status_code == 401
    bad = client.put("/api/coach/settings", json={"tutor": "always"}, headers={"X-Gamao-PIN": PIN})
    assert bad.status_code == 422 and "tutor" in bad.json()["message"]
    ok = client.put("/api/coach/settings", json={"tutor": "doubtful", "tutor_plies": 0}, headers={"X-Gamao-PIN": PIN})
    assert ok.status_code == 200 and ok.json()["tutor"] == "doubtful" and ok.json()["tutor_plies"] == 0
    assert client.get("/api/coach").json()["settings"]["tutor"] == "doubtful"


def test_websocket_pushes_the_coach_state(client, referee) -> None:
    referee.submit(new_match())
    with client.websocket_connect("/ws/coach") as ws:
        first = ws.receive_json()
        assert first["enabled"] is True and first["plays"] is None
        referee.submit({"event": "roll", "dice": [3, 1]})
        client.post("/api/coach/plays")
        while True:
            snap = ws.receive_json()
            if snap["plays"] and snap["plays"]["ranked"]:
                break
        assert len(snap["plays"]["plays"]) == 16


def test_tournament_mode_refuses_every_coach_route(client, referee) -> None:
    opening(referee, tournament=True)
    for method, path in (("get", "/api/coach"), ("post", "/api/coach/plays"), ("post", "/api/coach/cube"),
                         ("get", "/api/coach/review"), ("get", "/api/coach/settings")):
        answer = getattr(client, method)(path)
        assert answer.status_code == 403, path
        assert answer.json()["detail"].startswith("the coach is off in tournament mode")
    put = client.put("/api/coach/settings", json={"tutor": "bad"}, headers={"X-Gamao-PIN": PIN})
    assert put.status_code == 403
    with client.websocket_connect("/ws/coach") as ws:
        assert ws.receive_json()["enabled"] is False


def test_the_coach_websocket_refuses_another_site(client, referee) -> None:
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect) as refused:
        with client.websocket_connect("/ws/coach", headers={"origin": "http://evil.example"}) as ws:
            ws.receive_json()
    assert refused.value.code == 1008


def test_the_guide_is_served_and_linked_from_the_coach_panel(client) -> None:
    """Issue 24: the teacher's and beginner's guide in Brazilian Portuguese, one touch from the coach's panel."""
    page = client.get("/guia")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    text = page.text
    assert "<h1>Guia do professor e do iniciante</h1>" in text and "coach = false" in text
    for section in ("Ligar o treinador", "O tutor", "A revisão", "Jogar contra o GNU Backgammon"):
        assert section in text
    assert 'href="/guia"' in client.get("/").text


def test_settings_take_the_marks_and_the_takeback_agreement(client) -> None:
    ok = client.put("/api/coach/settings", json={"marks": "gnubg", "takeback": True}, headers={"X-Gamao-PIN": PIN})
    assert ok.status_code == 200 and ok.json()["marks"] == "gnubg" and ok.json()["takeback"] is True
    bad = client.put("/api/coach/settings", json={"marks": "snowie"}, headers={"X-Gamao-PIN": PIN})
    assert bad.status_code == 422
    assert client.put("/api/coach/settings", json={"takeback": True}).status_code in (401, 403)
    assert client.post("/api/coach/takeback").status_code == 409  # nothing to take back


def test_the_coach_off_in_the_kiosk_settings_refuses(tmp_path: Path, referee: RefereeService) -> None:
    app = create_app(Settings(data_dir=tmp_path, language="en", coach=False), service=referee, coach_engine=fake_engine)
    with TestClient(app, client=("127.0.0.1", 50000)) as c:  # the touch screen: no PIN asked
        assert c.get("/api/coach").status_code == 403
        assert "coach = false" in c.post("/api/coach/plays").json()["detail"]


def test_versus_without_one_is_inactive_and_starting_needs_the_pin(client) -> None:
    assert client.get("/api/versus").json() == {"active": False}
    assert client.post("/api/versus", json={"level": "expert", "side": "dark"}).status_code in (401, 403)
    bad = client.post("/api/versus", json={"level": "godlike"}, headers={"X-Gamao-PIN": PIN})
    assert bad.status_code == 422
