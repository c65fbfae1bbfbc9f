"""No input reaches a 500: strict request types, impossible boards, names, calibration corners, ids, and a
hostile-input sweep over every route (path, query, body, headers) against the real referee service."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from kiosk.config import Settings
from kiosk.main import create_app
from kiosk.service import RefereeService
from tests.kiosk.conftest import PIN, STRANGER, TOUCH_SCREEN
from tests.kiosk.fakes import FakeCamera
from tests.soak import soak

H = {"X-Gamao-PIN": PIN}
START_LIGHT = [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]
START_DARK = list(reversed(START_LIGHT))

SOAK = soak()


@pytest.fixture
def real(tmp_path: Path) -> Iterator[TestClient]:
    """The real referee service and journal, a camera, the PIN set, and 500s answered (not raised)."""
    service = RefereeService(tmp_path / "journal.sqlite")
    settings = Settings(data_dir=tmp_path, language="en", pin_max_failures=10**9)
    app = create_app(settings, service=service, camera=FakeCamera())
    app.state.pins.set(PIN)
    with TestClient(app, client=TOUCH_SCREEN, raise_server_exceptions=False) as c:
        assert c.post("/api/match", json={"length": 3, "players": {"light": "Ana", "dark": "Bia"}},
                      headers=H).status_code == 200
        yield c
    service.close()


def _message(r) -> str:
    body = r.json()
    assert isinstance(body["message"], str) and "\n" not in body["message"]
    return body["message"]


@pytest.mark.parametrize("length", [True, False, "5", 5.0, None, [5], {"n": 5}])
def test_no_booleans_or_strings_for_numbers(real: TestClient, length: object) -> None:
    r = real.post("/api/match", json={"length": length}, headers=H)
    assert r.status_code == 422 and _message(r).startswith("length:")
    assert real.get("/api/state").json()["match"]["length"] == 3  # no 1-point match was started


def test_no_numbers_for_booleans_in_the_rules(real: TestClient) -> None:
    r = real.post("/api/match", json={"length": 5, "rules": {"crawford": 1}}, headers=H)
    assert r.status_code == 422 and _message(r).startswith("rules.crawford:")


def test_an_impossible_board_is_refused_not_journaled(real: TestClient) -> None:
    service: RefereeService = real.app.state.service
    before = service.journal.count()
    full = {"light": [15] * 24, "dark": [15] * 24}  # 720 checkers
    r = real.post("/api/correction", json={"action": "set_board", "board": full}, headers=H)
    assert r.status_code == 422 and "light has 360 checkers" in _message(r)
    shared = {"light": START_LIGHT, "dark": [d + (1 if i == 5 else 0) for i, d in enumerate(START_DARK)],
              "off": {"light": 0, "dark": 0}}
    shared["dark"][0] -= 1
    r = real.post("/api/correction", json={"action": "set_board", "board": shared}, headers=H)
    assert r.status_code == 422 and "point 6 holds checkers of both sides" in _message(r)
    short = {"light": START_LIGHT[:-1] + [0], "dark": START_DARK}
    r = real.post("/api/correction", json={"action": "set_board", "board": short}, headers=H)
    assert r.status_code == 422 and "light has 13 checkers" in _message(r)
    assert service.journal.count() == before
    # A possible board still goes in.
    ok = {"light": START_LIGHT, "dark": START_DARK}
    assert real.post("/api/correction", json={"action": "set_board", "board": ok}, headers=H).status_code == 200


@pytest.mark.parametrize("name", ["Ana\nGame 2", "Ana\r", "tab\there", "nul\x00", "bell\x07", "del\x7f",
                                  "line\u2028sep", "rtl\u202egnaeL", "   "])
def test_names_without_control_characters(real: TestClient, name: str) -> None:
    r = real.post("/api/match", json={"length": 1, "players": {"light": name, "dark": "Bia"}}, headers=H)
    assert r.status_code == 422 and _message(r).startswith("players.light:")


def test_names_with_accents_and_spaces_are_fine(real: TestClient) -> None:
    r = real.post("/api/match", json={"length": 1, "players": {"light": "João Conceição", "dark": "Zé 2"}}, headers=H)
    assert r.status_code == 200
    assert real.get("/api/state").json()["match"]["players"]["light"] == "João Conceição"


@pytest.mark.parametrize("corners,field", [
    ([[-1, 0], [600, 30], [600, 450], [40, 450]], "corners.0"),
    ([[40, 30], [641, 30], [600, 450], [40, 450]], "corners.1"),
    ([[40, 30], [600, 30], [600, 481], [40, 450]], "corners.2"),
    ([[40, 30], [600, 30], [600, 450], [9999, 9999]], "corners.3"),
])
def test_calibration_corners_outside_the_frame_are_refused(real: TestClient, corners, field: str) -> None:
    r = real.post("/api/calibration", json={"corners": corners}, headers=H)
    assert r.status_code == 422 and _message(r).startswith(field)
    assert real.app.state.camera.corners is None


def test_calibration_corners_inside_the_frame_are_stored(real: TestClient) -> None:
    corners = [[40, 30], [600, 30], [640, 480], [0, 450]]
    assert real.post("/api/calibration", json={"corners": corners}, headers=H).status_code == 200
    assert real.app.state.camera.corners == corners


@pytest.mark.parametrize("match_id", ["99999999999999999999", "9223372036854775808", "0", "-1", "1e9", "00",
                                      "1" * 5000, "current;drop", "%00", "..%2F.."])
def test_out_of_range_ids_answer_4xx_naming_the_field(real: TestClient, match_id: str) -> None:
    r = real.get(f"/api/matches/{match_id}/export.mat")
    assert 400 <= r.status_code < 500
    if r.status_code == 422:
        assert _message(r).startswith("match_id:")


def test_an_id_in_range_but_unknown_is_404(real: TestClient) -> None:
    r = real.get("/api/matches/999999999999999999/export.mat")
    assert r.status_code == 404 and _message(r) == "no match with id '999999999999999999'"
    assert real.get("/api/matches/current/export.sgf").status_code == 200


# ---- the sweep ------------------------------------------------------------------------------------------

HOSTILE_TEXT = ["", "0", "-1", "99999999999999999999", "1" * 5000, "1e400", "NaN", "true", "null", "[]", "{}",
                "\x00", "%00", "%ff%fe", "../../etc/passwd", "é" * 300, "x" * 20000, "<script>", "' OR 1=1 --"]
HOSTILE_BODIES: list[bytes] = [
    b"", b"{", b"null", b"[]", b"\"text\"", b"1" * 5000, b"[" * 100_000 + b"]" * 100_000,
    b"{\"a\":" * 50_000 + b"1" + b"}" * 50_000, b"{\"length\": 1e400}", b"{\"length\": NaN}",
    b"{\"length\": " + b"9" * 5000 + b"}", b"{\"length\": -0}", b"\xff\xfe\x00\x00", b"{\"length\": 3, \"length\": true}",
    b"{\"corners\": [[1e308, 1e308], [0, 0], [0, 0], [0, 0]]}", b"{\"pin\": \"" + b"1" * 10000 + b"\"}",
    b"{\"action\": \"set_board\", \"board\": {\"light\": " + str([2**70] * 24).encode() + b"}}",
]
HOSTILE_HEADERS: list[dict[str, str | bytes]] = [
    {}, {"X-Gamao-PIN": PIN}, {"X-Gamao-PIN": "9" * 10000}, {"X-Gamao-PIN": "１２３４".encode()},
    {"X-Gamao-PIN": b"\xff\xfe12"},
    {"X-Gamao-PIN": PIN, "Content-Type": "text/plain"}, {"X-Gamao-PIN": PIN, "Content-Type": "application/x-www-form-urlencoded"},
    {"X-Gamao-PIN": PIN, "Content-Type": "application/json; charset=utf-16"},
    {"X-Gamao-PIN": PIN, "Accept": "*/*;q=garbage", "Origin": "http://evil.example", "Host": "evil.example"},
]


def _routes(app) -> list[tuple[str, str]]:
    """Every operation of the OpenAPI schema, and the routes outside it (page, static files, docs, /ws)."""
    out = [(method.upper(), path) for path, ops in app.openapi()["paths"].items() for method in ops]
    out += [("GET", p) for p in ("/", "/calibrate", "/static/{path}", "/openapi.json", "/docs", "/ws")]
    out += [("POST", "/api/state"), ("PUT", "/api/match"), ("DELETE", "/api/matches/{id}/export.mat")]
    return out


VALID = {"match_id": "1", "fmt": "mat", "path": "app.js", "id": "1"}


def _fill(path: str, value: str, hostile: str | None = None) -> str:
    """The path with parameter `hostile` (every one if None) set to `value`, percent-encoded as a client
    would send it, and the others valid: each parameter is tried on its own."""
    def one(m: re.Match[str]) -> str:
        name = m.group(1)
        if hostile is not None and name != hostile:
            return VALID.get(name, "1")
        return quote(value, safe="%") or "x"

    return re.sub(r"\{([^}]+)\}", one, path)


def _paths(path: str) -> list[str]:
    names = re.findall(r"\{([^}]+)\}", path)
    return [_fill(path, v, name) for name in names for v in HOSTILE_TEXT] or [path]


def _product(paths: list[str], payloads: list, headers: list[dict[str, str | bytes]]) -> Iterator[tuple]:
    """Every path with every payload. With --soak each of those with every header; in the default run with the
    PIN's header (what gets past the PIN to the parsing) and with one other header in turn, so every header
    still meets every route and every payload meets two headers (2,806 requests; the whole product is 8,927)."""
    if SOAK:
        yield from itertools.product(paths, payloads, headers)
        return
    turn = itertools.cycle(h for h in headers if h.get("X-Gamao-PIN") != PIN or len(h) > 1)
    pin = {"X-Gamao-PIN": PIN}
    for path, payload in itertools.product(paths, payloads):
        yield path, payload, pin
        yield path, payload, next(turn)


def test_hostile_input_over_every_route_makes_no_5xx(real: TestClient) -> None:
    routes = _routes(real.app)
    assert {p for _, p in routes} >= {"/api/state", "/api/kiosk", "/api/pin", "/api/match", "/api/cube",
                                      "/api/resignation", "/api/correction", "/api/calibration",
                                      "/api/camera/frame.jpg", "/api/camera/overlay",
                                      "/api/matches/{match_id}/export.{fmt}"}
    sent, server_errors = 0, []
    for method, path in routes:
        cases: Iterator[tuple[str, bytes, dict[str, str]]]
        paths = _paths(path)
        queries = ["", "?a=1&a=2", "?" + "x=" + "y" * 5000, "?%zz", "?fmt=../../x&match_id=-1"]
        if method == "GET":
            cases = ((p + q, b"", h) for p, q, h in _product(paths, queries, HOSTILE_HEADERS[:4]))
        else:
            cases = ((p, b, h) for p, b, h in _product(paths, HOSTILE_BODIES, HOSTILE_HEADERS))
        for url, body, headers in cases:
            hdrs = {"Content-Type": "application/json", **headers} if method != "GET" else headers
            r = real.request(method, url, content=body or None, headers=hdrs)
            sent += 1
            if r.status_code >= 500:
                server_errors.append((method, url[:80], body[:40], r.status_code, r.text[:200]))
    print(f"hostile sweep: {sent} requests")
    assert sent > 1000
    assert server_errors == [], f"{len(server_errors)} of {sent} requests answered 5xx: {server_errors[:5]}"
    # And the kiosk still works (with the PIN the sweep may well have started a money session: `-0` is 0).
    assert real.post("/api/match", json={"length": 5}, headers=H).status_code == 200
    assert real.get("/api/state").json()["match"]["length"] == 5


def test_hostile_input_from_a_stranger_makes_no_5xx_and_changes_nothing(real: TestClient) -> None:
    with TestClient(real.app, client=STRANGER, raise_server_exceptions=False) as stranger:
        for (method, path), body in itertools.product(_routes(real.app), HOSTILE_BODIES[:8]):
            if method == "GET":
                continue
            r = stranger.request(method, _fill(path, "1"), content=body or None,
                                 headers={"Content-Type": "application/json", "X-Gamao-PIN": "0000"})
            assert r.status_code < 500, (method, path, body[:40], r.status_code, r.text[:200])
    assert real.get("/api/state").json()["match"]["length"] == 3
