"""The kiosk API through TestClient: public state, pushes, exports, PIN guard, 422s naming the field."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from kiosk.config import Settings
from kiosk.main import create_app
from tests.kiosk.conftest import PIN, STRANGER, TOUCH_SCREEN
from tests.kiosk.fakes import FakeService

CONTROL = [
    ("/api/match", {"length": 5}),
    ("/api/cube", {"action": "double", "side": "light"}),
    ("/api/correction", {"action": "undo"}),
    ("/api/resignation", {"action": "offer", "side": "dark", "value": 2}),
    ("/api/calibration", {"corners": [[0, 0], [10, 0], [10, 10], [0, 10]]}),
]


def test_state_is_the_public_state(client: TestClient) -> None:
    body = client.get("/api/state").json()
    assert body["match"]["score"] == {"light": 2, "dark": 4}
    assert body["position"]["light"][5] == 5 and body["cube"]["owner"] is None
    assert body["dice"] is None and body["pips"] == {"light": 167, "dark": 167}


def test_kiosk_info_reports_language_and_pin(client: TestClient) -> None:
    assert client.get("/api/kiosk").json() == {"language": "en", "language_set": True, "languages": ["pt", "en"],
                                               "pin_set": False, "camera": False, "voice": "off"}


def test_page_and_static_files_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and 'data-testid="verdict"' in page.text
    assert client.get("/static/app.js").headers["content-type"].startswith("text/javascript")


def test_websocket_pushes_every_change(client: TestClient, fake: FakeService) -> None:
    with client.websocket_connect("/ws") as ws:
        assert ws.receive_json()["turn"] == "light"
        fake.update(dice={"values": [6, 3], "cocked": [False, False], "used": []}, phase="moving")
        assert ws.receive_json()["dice"]["values"] == [6, 3]
        fake.update(turn="dark")
        assert ws.receive_json()["turn"] == "dark"


def test_export_mat_and_sgf(client: TestClient) -> None:
    mat = client.get("/api/matches/current/export.mat")
    assert mat.status_code == 200 and mat.text == " 7 point match\n"
    assert 'filename="gamao-current.mat"' in mat.headers["content-disposition"]
    assert client.get("/api/matches/1/export.sgf").text.startswith("(;FF[4]")


def test_export_unknown_match_is_404(client: TestClient) -> None:
    r = client.get("/api/matches/99/export.mat")
    assert r.status_code == 404 and r.json()["detail"] == "no match with id '99'"


def test_export_unknown_format_is_422(client: TestClient) -> None:
    assert client.get("/api/matches/1/export.txt").status_code in (404, 422)


@pytest.mark.parametrize(("path", "body"), CONTROL)
def test_control_refused_without_pin(client: TestClient, path: str, body: dict) -> None:
    client.post("/api/pin", json={"pin": PIN})
    r = client.post(path, json=body)
    assert r.status_code == 401
    assert r.json()["detail"] == "this action needs the PIN: send it in the X-Gamao-PIN header"


@pytest.mark.parametrize(("path", "body"), CONTROL)
def test_control_refused_with_wrong_pin(pinned: TestClient, path: str, body: dict) -> None:
    r = pinned.post(path, json=body, headers={"X-Gamao-PIN": "0000"})
    assert r.status_code == 401 and r.json()["detail"] == "wrong PIN"


def test_control_refused_before_any_pin_is_set(client: TestClient) -> None:
    r = client.post("/api/cube", json={"action": "double", "side": "light"}, headers={"X-Gamao-PIN": "1234"})
    assert r.status_code == 401
    assert r.json()["detail"] == "no PIN has been set yet: set one first with POST /api/pin"


def test_wrong_pins_from_a_stranger_make_it_wait(client: TestClient, settings: Settings, fake: FakeService) -> None:
    client.post("/api/pin", json={"pin": PIN})
    with TestClient(client.app, client=STRANGER) as stranger:
        for _ in range(5):
            assert stranger.post("/api/correction", json={"action": "undo"}, headers={"X-Gamao-PIN": "1111"}).status_code == 401
        # Now the stranger waits, even with the right PIN: a guesser cannot tell when they hit it.
        waiting = stranger.post("/api/correction", json={"action": "undo"}, headers={"X-Gamao-PIN": PIN})
        assert waiting.status_code == 429 and waiting.headers["retry-after"] == "2"
        assert waiting.json()["detail"].startswith("too many wrong PINs from this device")
    assert fake.events == []
    # The touch screen is not affected.
    assert client.post("/api/correction", json={"action": "undo"}, headers={"X-Gamao-PIN": PIN}).status_code == 200


def test_the_wait_ends_after_the_delay(tmp_path) -> None:
    now = [1000.0]
    settings = Settings(data_dir=tmp_path, language="en", pin_max_failures=2, pin_lockout_seconds=30)
    # coach_engine=None: not what this file tests (the coach's gnubg runs in test_coach*.py, test_page_walk.py, tests/engine)
    app = create_app(settings, service=FakeService(), coach_engine=None)
    app.state.pins._clock = lambda: now[0]
    app.state.pins.set(PIN)
    with TestClient(app, client=STRANGER) as c:
        for _ in range(2):
            c.post("/api/correction", json={"action": "undo"}, headers={"X-Gamao-PIN": "9999"})
        assert c.post("/api/correction", json={"action": "undo"}, headers={"X-Gamao-PIN": PIN}).status_code == 429
        now[0] += 3
        assert c.post("/api/correction", json={"action": "undo"}, headers={"X-Gamao-PIN": PIN}).status_code == 200


def test_pin_stored_hashed_not_in_clear(pinned: TestClient, settings: Settings) -> None:
    stored = (settings.data_dir / "pin.json").read_text()
    assert PIN not in stored and '"algorithm": "scrypt"' in stored
    assert (settings.data_dir / "pin.json").stat().st_mode & 0o077 == 0


def test_changing_the_pin_needs_the_old_one(pinned: TestClient) -> None:
    assert pinned.post("/api/pin", json={"pin": "1357"}).status_code == 401
    assert pinned.post("/api/pin", json={"pin": "1357"}, headers={"X-Gamao-PIN": PIN}).status_code == 204
    assert pinned.post("/api/correction", json={"action": "undo"}, headers={"X-Gamao-PIN": "1357"}).status_code == 200


def test_new_match_submits_event(pinned: TestClient, fake: FakeService) -> None:
    r = pinned.post("/api/match", json={"length": 5, "players": {"light": "Ana", "dark": "Bruno"}},
                    headers={"X-Gamao-PIN": PIN})
    assert r.status_code == 200 and r.json()["verdicts"][0]["verdict"] == "new_match_accepted"
    event = fake.events[0]
    assert event["event"] == "new_match" and event["length"] == 5 and event["rules"]["crawford"] is True


def test_new_match_may_name_a_variant(pinned: TestClient, fake: FakeService) -> None:
    """R30: a Plakoto match from the touch screen's API; the event parses as the referee's new_match."""
    from core.referee.events import parse_event

    r = pinned.post("/api/match", json={"length": 0, "variant": "plakoto", "variant_settings": {"mother": "none"}},
                    headers={"X-Gamao-PIN": PIN})
    assert r.status_code == 200
    rules = parse_event(fake.events[0])["rules"]
    assert rules["variant"] == "plakoto" and rules["variant_settings"]["mother"] == "none"
    r = pinned.post("/api/match", json={"length": 0, "variant": "chess"}, headers={"X-Gamao-PIN": PIN})
    assert r.status_code == 422


def test_cube_and_corrections_become_contract_events(pinned: TestClient, fake: FakeService) -> None:
    h = {"X-Gamao-PIN": PIN}
    pinned.post("/api/cube", json={"action": "take", "side": "dark"}, headers=h)
    pinned.post("/api/correction", json={"action": "ack_cocked"}, headers=h)
    board = {"light": [0] * 23 + [15], "dark": [15] + [0] * 23}
    pinned.post("/api/correction", json={"action": "set_board", "board": board}, headers=h)
    assert fake.events[0] == {"event": "cube", "action": "take", "side": "dark"}
    assert fake.events[1] == {"event": "button", "name": "ack_cocked"}
    assert fake.events[2]["event"] == "board" and fake.events[2]["light"][23] == 15


def test_resignation_offer_and_answer_become_contract_events(pinned: TestClient, fake: FakeService) -> None:
    h = {"X-Gamao-PIN": PIN}
    assert pinned.post("/api/resignation", json={"action": "offer", "side": "dark", "value": 2}, headers=h).status_code == 200
    assert pinned.post("/api/resignation", json={"action": "accept"}, headers=h).status_code == 200
    pinned.post("/api/resignation", json={"action": "reject"}, headers=h)
    pinned.post("/api/correction", json={"action": "new_game"}, headers=h)
    assert fake.events == [{"event": "resign", "side": "dark", "value": 2}, {"event": "resign_reply", "accept": True},
                           {"event": "resign_reply", "accept": False}, {"event": "button", "name": "new_game"}]
    r = pinned.post("/api/resignation", json={"action": "offer", "value": 1}, headers=h)
    assert r.status_code == 422 and "side is required when action is offer" in r.json()["message"]
    r = pinned.post("/api/resignation", json={"action": "offer", "side": "light", "value": 4}, headers=h)
    assert r.status_code == 422 and r.json()["message"].startswith("value: Input should be less than or equal to 3")


def test_422_names_the_field(pinned: TestClient) -> None:
    h = {"X-Gamao-PIN": PIN}
    r = pinned.post("/api/match", json={"length": 99}, headers=h)
    assert r.status_code == 422 and r.json()["message"] == "length: Input should be less than or equal to 64"
    r = pinned.post("/api/cube", json={"action": "quadruple", "side": "light"}, headers=h)
    assert r.status_code == 422 and r.json()["message"].startswith("action: Input should be 'double'")
    r = pinned.post("/api/correction", json={"action": "set_board"}, headers=h)
    assert r.status_code == 422 and "board is required when action is set_board" in r.json()["message"]
    r = pinned.post("/api/pin", json={"pin": "12"}, headers=h)
    assert r.status_code == 422 and r.json()["message"].startswith("pin: String should match pattern")


def test_refused_event_is_409_with_reason(pinned: TestClient, fake: FakeService) -> None:
    fake.refuse = "there is no cube offer to take"
    r = pinned.post("/api/cube", json={"action": "take", "side": "dark"}, headers={"X-Gamao-PIN": PIN})
    assert r.status_code == 409 and r.json()["detail"] == "there is no cube offer to take"


def test_calibration_without_camera_is_404(pinned: TestClient) -> None:
    assert pinned.get("/api/camera/frame.jpg").status_code == 404
    r = pinned.post("/api/calibration", json={"corners": [[0, 0], [1, 0], [1, 1], [0, 1]]}, headers={"X-Gamao-PIN": PIN})
    assert r.status_code == 404 and r.json()["detail"] == "no camera is connected to this kiosk"


def test_openapi_has_examples(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    assert schema["components"]["schemas"]["StateOut"]["examples"][0]["cube"]["value"] == 1
    assert "X-Gamao-PIN" in str(schema["components"]["securitySchemes"])


def test_lifespan_starts_the_real_referee_service_with_its_journal(tmp_path) -> None:
    settings = Settings(data_dir=tmp_path / "kiosk", language="pt")
    with TestClient(create_app(settings, coach_engine=None), client=TOUCH_SCREEN) as c:
        assert c.get("/api/state").json()["phase"] == "opening"
        c.post("/api/pin", json={"pin": PIN})
        r = c.post("/api/match", json={"length": 5, "players": {"light": "Ana", "dark": "Bruno"}},
                   headers={"X-Gamao-PIN": PIN})
        assert r.status_code == 200
        state = c.get("/api/state").json()
        assert state["match"]["length"] == 5 and state["match"]["players"]["dark"] == "Bruno"
        c.post("/api/correction", json={"action": "end_turn"}, headers={"X-Gamao-PIN": PIN})
        assert c.get(f"/api/matches/{state['match']['id']}/export.mat").text.lstrip().startswith("5 point match")
    assert (tmp_path / "kiosk" / "journal.sqlite").exists()
    with TestClient(create_app(settings, coach_engine=None)) as c:  # restarted: the match comes back from the journal
        assert c.get("/api/state").json()["match"]["players"]["light"] == "Ana"
