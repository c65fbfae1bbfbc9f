"""POST /api/match with a variant (R30-R32), through the kiosk's HTTP API to a real referee service and its
journal: the variant and its settings reach the referee's new_match; a bad variant or setting is a 422 with the
referee's own message naming the field, and nothing is journaled; the request without a variant is backgammon,
journaled exactly as before the variants."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from kiosk.config import Settings
from kiosk.main import create_app
from kiosk.service import RefereeService
from tests.kiosk.conftest import PIN, TOUCH_SCREEN

H = {"X-Gamao-PIN": PIN}


@pytest.fixture
def live(tmp_path: Path) -> Iterator[tuple[TestClient, RefereeService]]:
    service = RefereeService(tmp_path / "journal.sqlite")
    # coach_engine=None: not what this file tests (the coach's gnubg runs in test_coach*.py, test_page_walk.py, tests/engine)
    app = create_app(Settings(data_dir=tmp_path, language="en"), service=service, coach_engine=None)
    try:
        with TestClient(app, client=TOUCH_SCREEN) as client:
            assert client.post("/api/pin", json={"pin": PIN}).status_code == 204
            yield client, service
    finally:
        service.close()


@pytest.mark.parametrize(("name", "rule"), [("plakoto", "R30"), ("russian", "R31"), ("jacquet", "R32")])
def test_new_match_of_a_variant_reaches_the_referee(live: tuple[TestClient, RefereeService], name: str,
                                                    rule: str) -> None:
    """R30-R32: the named game is the referee's, with the seed's settings filled in; the length is kept (the
    referee plays a variant to N points, or a money session with 0)."""
    client, service = live
    r = client.post("/api/match", json={"length": 5, "players": {"light": "Ana", "dark": "Bia"}, "variant": name},
                    headers=H)
    assert r.status_code == 200, r.text
    state = client.get("/api/state").json()
    assert state["variant"]["name"] == name and state["variant"]["rule"] == rule
    assert state["match"]["length"] == 5 and state["match"]["rules"]["variant"] == name
    journaled = list(service.journal.events(service.journal.current_match()))[-1]
    assert journaled["variant"] == name and journaled["variant_settings"] == state["variant"]["settings"]


def test_settings_reach_the_referee(live: tuple[TestClient, RefereeService]) -> None:
    """R30: a setting given is kept, the others take the seed's defaults."""
    client, _ = live
    r = client.post("/api/match", json={"length": 0, "variant": "plakoto", "variant_settings": {"mother": "draw_if_both"}},
                    headers=H)
    assert r.status_code == 200, r.text
    assert client.get("/api/state").json()["variant"]["settings"] == {
        "mother": "draw_if_both", "bear_off_while_pinned": False, "gammon": True}


def test_without_a_variant_it_is_backgammon_as_before(live: tuple[TestClient, RefereeService]) -> None:
    client, service = live
    r = client.post("/api/match", json={"length": 7, "players": {"light": "Ana", "dark": "Bruno"}}, headers=H)
    assert r.status_code == 200
    state = client.get("/api/state").json()
    assert state["variant"] is None and "variant" not in state["match"]["rules"]
    journaled = list(service.journal.events(service.journal.current_match()))[-1]
    assert "variant" not in journaled and "variant_settings" not in journaled
    assert client.post("/api/match", json={"length": 3, "variant": "backgammon"}, headers=H).status_code == 200
    assert client.get("/api/state").json()["variant"] is None


@pytest.mark.parametrize(("body", "field", "message"), [
    ({"variant": "plakoto", "variant_settings": {"pins": True}}, "variant_settings.pins",
     "variant_settings.pins: not a setting of plakoto (known: bear_off_while_pinned, mother, gammon)"),
    ({"variant": "plakoto", "variant_settings": {"mother": "maybe"}}, "variant_settings.mother",
     "variant_settings.mother: choose one of loss, draw_if_both, none, not 'maybe'"),
    ({"variant": "russian", "variant_settings": {"roll_again": 1}}, "variant_settings.roll_again",
     "variant_settings.roll_again: must be true or false, got 1"),
    ({"variant": "russian", "variant_settings": {"entered_before_moving": 16}}, "variant_settings.entered_before_moving",
     "variant_settings.entered_before_moving: a count of checkers from 0 to 15, not 16"),
    ({"variant": "jacquet", "variant_settings": {"prime_quarter": 5}}, "variant_settings.prime_quarter",
     "variant_settings.prime_quarter: None or 1-4, not 5"),
    ({"variant": "plakoto", "variant_settings": {"a b": 1}}, "variant_settings.a b",
     "variant_settings.a b: not a setting of plakoto (known: bear_off_while_pinned, mother, gammon)"),
    ({"variant_settings": {"mother": "none"}}, "variant_settings", 'variant_settings: given without "variant"'),
    ({"variant": "backgammon", "variant_settings": {"mother": "none"}}, "variant_settings",
     "variant_settings: the standard game has no variant settings"),
])
def test_a_bad_setting_is_refused_naming_the_field(live: tuple[TestClient, RefereeService], body: dict[str, object],
                                                   field: str, message: str) -> None:
    client, service = live
    before = service.journal.count()
    r = client.post("/api/match", json={"length": 0, **body}, headers=H)
    assert r.status_code == 422
    assert r.json()["message"] == message and r.json()["detail"]["field"] == field
    assert service.journal.count() == before  # nothing journaled


@pytest.mark.parametrize(("body", "message"), [
    ({"variant": "chess"}, "variant: Input should be 'backgammon', 'standard', 'plakoto', 'russian' or 'jacquet'"),
    ({"variant": "plakoto", "variant_settings": [1]}, "variant_settings: Input should be a valid dictionary"),
    ({"variant": 3}, "variant: Input should be 'backgammon', 'standard', 'plakoto', 'russian' or 'jacquet'"),
])
def test_a_bad_variant_is_a_422(live: tuple[TestClient, RefereeService], body: dict[str, object], message: str) -> None:
    client, _ = live
    r = client.post("/api/match", json={"length": 0, **body}, headers=H)
    assert r.status_code == 422 and r.json()["message"] == message
