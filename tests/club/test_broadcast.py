"""The broadcast (issue 40): the OBS overlay and the live match files, behind the director's delay, enforced by the
server; read-only and safe to expose. A real Mosquitto, boards playing corpus matches, the director's app and the
broadcast's own app on real HTTP servers, headless Chromium for the overlay, the Debian gnubg for the live .mat."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

import cv2
import httpx
import numpy as np
import pytest

from club.broadcast import create_broadcast_app
from club.live import Live
from club.replay import replay
from club.web import create_app
from core.match.formats.mat import read_mat
from core.referee.record import to_match_record
from engine.gnubg import find_gnubg
from tests.club.conftest import CLUB, Board, wait_for
from tests.kiosk.browser import SCREENSHOTS, chromium_or_skip, chromium_page
from tests.kiosk.chair import chair_problems
from vision.render import Options, Scene, render
from webguard.pin import PinStore
from webguard.server import BackgroundServer

PIN = "2468"
DELAY = 2  # seconds (the default run); the director's page allows 0-3600


def _events_shown(client: httpx.Client, board: str) -> dict[str, Any]:
    r = client.get("/api/overlay", params={"board": board})
    assert r.status_code == 200, r.text
    return r.json()


def test_overlay_and_live_files_run_behind_the_delay_set_by_the_server(broker, make_director, tmp_path: Path) -> None:
    """The delay is the server's: sampled every 50 ms while a board plays, the overlay's JSON, the live .mat and
    the listing never hold an event that reached the director less than DELAY seconds before; the measured lag is
    printed. The broadcast's own app has nothing but GETs of the broadcast."""
    director = make_director()
    director.archive.set_setting("delay", DELAY)
    board = Board(broker, "mesa01", tmp_path / "mesa01", match="3pt", speed=25).play()
    pins = PinStore(tmp_path / "pins")
    pins.set(PIN)
    lags: list[float] = []
    ahead = 0
    try:
        with BackgroundServer(create_broadcast_app(Live(director))) as cast, \
                BackgroundServer(create_app(director, pins)) as page, \
                httpx.Client(base_url=cast.url, timeout=10) as client:
            assert wait_for(lambda: director.archive.count(CLUB, "mesa01") > 0, 20)
            start = time.time()
            mid_mat = mid_sgf = None
            while not board.done() and time.time() - start < 120:
                d = _events_shown(client, "mesa01")
                asked = time.time()
                if d["match"] is not None and d["events"]:
                    got = director.archive.received_from(CLUB, "mesa01", d["match"], d["events"] - 1, asked)
                    assert got and got[0][0] == d["events"] - 1
                    lag = asked - got[0][2]
                    lags.append(lag)
                    ahead += lag < DELAY  # an event shown before its delay was up: never
                    lp = d.get("last_play") or {}
                    if mid_mat is None and (lp.get("game") or 0) >= 2 and (lp.get("number") or 0) >= 6:
                        # the .mat and the SGF of one moment: the .mat again after the SGF must be the same (the
                        # delayed view moves on between two requests: the SGF held one play more, 1 run in ~3)
                        first = client.get("/live/mesa01.mat")
                        sgf_now = client.get("/live/mesa01.sgf")
                        assert first.status_code == 200 and sgf_now.status_code == 200
                        if client.get("/live/mesa01.mat").text == first.text:
                            mid_mat, mid_sgf = first, sgf_now
                            # what the board had at the same moment is further on (the delay)
                            assert board.journal.count() > d["events"]
                time.sleep(0.05)
            assert board.done(), "the board did not finish its match"
            assert lags and ahead == 0, (ahead, min(lags))
            print(f"\ndelay {DELAY} s: {len(lags)} samples of the overlay, lag min {min(lags):.2f} s, "
                  f"median {sorted(lags)[len(lags) // 2]:.2f} s, max {max(lags):.2f} s")
            # after the delay, everything the board played is there, in the files too
            assert wait_for(lambda: _events_shown(client, "mesa01")["phase"] == "match_over", DELAY + 15)
            final = _events_shown(client, "mesa01")
            truth = board.service.state()
            assert final["score"] == truth["match"]["score"] and final["players"] == truth["match"]["players"]
            assert final["events"] == board.journal.count()
            mat = client.get("/live/mesa01.mat")
            assert mat.status_code == 200 and mat.headers["cache-control"] == "no-store"
            ours = to_match_record(replay(board.journal.events(board.journal.matches()[-1]["id"]))[0])
            record = read_mat(mat.text)
            assert len(record.games) == len(ours.games) and record.players == ours.players
            sgf = client.get(f"/live/{CLUB}/mesa01.sgf")
            assert sgf.status_code == 200 and sgf.text.startswith("(;")
            listing = client.get("/live/").json()
            assert [(m["club"], m["board"], m["in_play"]) for m in listing["matches"]] == [(CLUB, "mesa01", True)]
            assert listing["matches"][0]["score"] == truth["match"]["score"] and listing["delay"] == DELAY
            assert mid_mat is not None
            (tmp_path / "mid.mat").write_text(mid_mat.text)
            (tmp_path / "mid.sgf").write_text(mid_sgf.text)

            # the broadcast's app: no control, no director's API, no PIN to guess
            for path in ("/api/boards", "/api/status", "/api/settings", "/api/feature", "/", "/tournament", "/docs",
                         "/openapi.json", "/ws", "/static/director.js", "/kiosk/board.js"):
                assert client.get(path).status_code == 404, path
            for path in ("/api/feature", "/api/settings", "/api/overlay", "/live/mesa01.mat"):
                assert client.post(path, json={"delay": 0}).status_code in (404, 405, 413), path  # 413: no body at all
                assert client.post(path).status_code in (404, 405), path
            # bad input: a clear 4xx, never a 5xx
            for bad in ("../etc", "a" * 90, "mesa01/../x", "", "featured/x"):
                assert client.get("/api/overlay", params={"board": bad}).status_code in (404, 422), bad
            assert client.get("/live/nosuch.mat").status_code == 404
            assert client.get("/live/mesa01.exe").status_code == 404
            assert client.get("/api/overlay", params={"board": "featured"}).status_code == 404  # none featured

            # the feature control is the director's, behind the PIN
            with httpx.Client(base_url=page.url, timeout=10) as owner:
                body = {"club": CLUB, "board": "mesa01"}
                assert owner.post("/api/feature", json=body, headers={"Origin": "http://evil.example"}).status_code == 403
                assert owner.post("/api/feature", json=body).status_code in (401, 403)
                assert owner.post("/api/feature", json=body, headers={"X-Gamao-PIN": PIN}).status_code == 200
                assert owner.get("/api/feature").json()["featured"] == body
            assert wait_for(lambda: client.get("/api/overlay", params={"board": "featured"}).status_code == 200, 10)
            assert client.get("/api/overlay", params={"board": "featured"}).json()["board"] == "mesa01"
    finally:
        board.close()
    _gnubg_imports(tmp_path / "mid.mat", tmp_path / "mid.sgf")


_IMPORT = r'''
import gnubg, json
gnubg.command("set display off")
gnubg.command(%(command)r)
m = gnubg.match()
games = [{"moves": sum(1 for a in g["game"] if a.get("action") == "move")} for g in m["games"]]
json.dump({"length": m["match-info"]["match-length"], "games": games}, open(%(out)r, "w"))
'''


def _gnubg_imports(mat: Path, sgf: Path) -> None:
    """The Debian gnubg imports a live .mat taken mid-match, and loads the SGF taken at the same moment: as many
    games and checker plays as ours."""
    try:
        gnubg = find_gnubg()
    except Exception as exc:  # noqa: BLE001 - no gnubg here
        pytest.skip(f"the Debian gnubg is not installed: {exc}")
    record = read_mat(mat.read_text())
    ours = [sum(1 for a in g.actions if a.kind == "move") for g in record.games]
    for path, command in ((mat, f'import mat "{mat}"'), (sgf, f'load match "{sgf}"')):
        out = path.with_suffix(path.suffix + ".json")
        script = path.with_suffix(path.suffix + ".py")
        script.write_text(_IMPORT % {"command": command, "out": str(out)})
        subprocess.run([gnubg, "-t", "-q", "-p", str(script)], capture_output=True, timeout=120, cwd=mat.parent,
                       env={**os.environ, "LANG": "C", "LC_ALL": "C"})
        theirs = json.loads(out.read_text())
        assert theirs["length"] == record.length, path.name
        assert [g["moves"] for g in theirs["games"]] == ours, (path.name, theirs, ours)
    print(f"gnubg imported the live .mat and loaded the SGF taken mid-match: {len(ours)} games, {sum(ours)} "
          "checker plays")


LAYOUTS = ("bar", "side", "full")


def _camera_picture(path: Path, size: tuple[int, int], position: dict[str, Any]) -> None:
    """The camera's picture of the board in the same position, from vision's renderer (no photo goes into the
    repository)."""
    scene = Scene(list(position["light"]), list(position["dark"]), dict(position["bar"]), dict(position["off"]))
    image, _ = render(scene, seed=7, opts=Options(size=size, fill=0.7, hand=False))
    cv2.imwrite(str(path), image)


def _composite(overlay_png: Path, camera: Path, out: Path) -> np.ndarray:
    top = cv2.imread(str(overlay_png), cv2.IMREAD_UNCHANGED)
    base = cv2.imread(str(camera))
    assert top.shape[2] == 4 and top.shape[:2] == base.shape[:2]
    alpha = top[:, :, 3:4].astype(np.float32) / 255
    mixed = (top[:, :, :3] * alpha + base * (1 - alpha)).astype(np.uint8)
    cv2.imwrite(str(out), mixed)
    return top


def test_overlay_layouts_over_a_camera_picture(broker, make_director, tmp_path: Path) -> None:
    """Each layout at 1920x1080 and 1280x720: transparent around the overlay (the camera shows through), the board
    diagram, names, score and length, pips, dice; the same board switched through `featured` without reloading.
    Screenshots, composited over a rendered board photo: artifacts/screenshots/overlay-*.png."""
    chromium_or_skip()
    director = make_director()
    boards = [Board(broker, n, tmp_path / n, match=m, speed=1e6).play() for n, m in (("mesa01", "3pt"),
                                                                                    ("mesa02", "2pt"))]
    try:
        assert wait_for(lambda: all(b.done() for b in boards), 60)
        assert wait_for(lambda: sum(director.archive.count(CLUB, b.name) for b in boards)
                        == sum(b.journal.count() for b in boards), 30)
        director.archive.set_setting("featured", {"club": CLUB, "board": "mesa01"})
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        # the broadcast's clock at a roll in the second half of mesa01's match: a picture of a match in play
        match = director.archive.match_begun(CLUB, "mesa01", time.time())
        rows = director.archive.received_from(CLUB, "mesa01", match, 0, time.time(), limit=10_000)
        at = next(r for i, _, r in ((i, e, r) for i, e, r in rows if e.get("event") == "roll") if i > len(rows) // 2)
        # a longer delay set meanwhile takes the view back (the server never shows what the new delay hides)
        live = Live(director, clock=lambda: at + 1)
        ahead = live.overlay("mesa01")["events"]
        director.archive.set_setting("delay", 1)
        live.settings_changed()
        back = live.overlay("mesa01")
        assert back["as_of"] == at and back["events"] == sum(1 for _, _, r in rows if r <= at) < ahead
        director.archive.set_setting("delay", 0)
        with BackgroundServer(create_broadcast_app(Live(director, clock=lambda: at))) as cast:
            for width, height in ((1920, 1080), (1280, 720)):
                camera = tmp_path / f"camera-{width}.png"
                position = httpx.get(f"{cast.url}/api/overlay", params={"board": "mesa01"}).json()["position"]
                _camera_picture(camera, (width, height), position)
                for layout in LAYOUTS:
                    with chromium_page(width, height, locale="pt-BR") as page:
                        page.goto(f"{cast.url}/overlay?board=featured&layout={layout}")
                        page.wait_for_selector("#overlay[data-phase='moving'] #board .checker")
                        assert page.inner_text("#p-light .name") and "3 pontos" in page.inner_text("#length")
                        assert page.inner_text("#table") == "Mesa 1"  # mesa01 has no label: its number, not "Mesa mesa01"
                        assert page.inner_text("#dice") and page.inner_text("#p-dark .pips").endswith(" casas")
                        # issue 37 on the stream: the Portuguese overlay in Portuguese, numbers agreeing, no code
                        # (the chair's checks but its 18 px floor: a 1920x1080 stream is not the 800x480 screen)
                        assert chair_problems(page, floor=0) == [], chair_problems(page, floor=0)
                        shot = tmp_path / f"overlay-{layout}-{width}.png"
                        page.screenshot(path=str(shot), omit_background=True)
                        top = _composite(shot, camera, SCREENSHOTS / f"overlay-{layout}-{width}x{height}.png")
                        assert top[2, 2, 3] == 0, "the overlay's background is not transparent"
                        if layout == "bar" and width == 1280:  # the English overlay: its words, no Portuguese
                            page.goto(f"{cast.url}/overlay?board=featured&layout={layout}&lang=en")
                            page.wait_for_selector("#overlay[data-phase='moving'] #board .checker")
                            assert page.inner_text("#p-dark .pips").endswith(" pips")
                            assert "Match to 3 points" in page.inner_text("#length")
                            assert page.inner_text("#table") == "Table 1"
                            assert chair_problems(page, floor=0) == [], chair_problems(page, floor=0)
                        box = page.locator("#overlay").bounding_box()
                        assert box["x"] >= 0 and box["y"] >= 0
                        assert box["x"] + box["width"] <= width + 1 and box["y"] + box["height"] <= height + 1
                        if layout == "side" and width == 1920:
                            # the director features another board: the stream follows, nothing reloaded
                            page.evaluate("window.notReloaded = true")
                            director.rename(CLUB, "mesa02", "Mesa da janela")  # the director's label, as written
                            # the director features mesa02 from its board page (the button, the PIN asked)
                            pins = PinStore(tmp_path / "pins")
                            pins.set(PIN)
                            with BackgroundServer(create_app(director, pins)) as owner, \
                                    chromium_page(1280, 800, locale="pt-BR") as control:
                                control.on("dialog", lambda d: d.accept(PIN))
                                control.goto(f"{owner.url}/board/{CLUB}/mesa02")
                                control.wait_for_selector("#feature:has-text('transmitir esta mesa')")
                                assert "board=porto%2Fmesa02" in control.get_attribute("#overlaylink", "href")
                                control.click("#feature")
                                control.wait_for_selector("#feature:has-text('mesa transmitida')")
                            assert director.archive.setting("featured") == {"club": CLUB, "board": "mesa02"}
                            page.wait_for_selector("#overlay[data-board$='/mesa02']", timeout=10_000)
                            assert page.inner_text("#table") == "Mesa da janela"
                            page.screenshot(path=str(shot), omit_background=True)
                            _composite(shot, camera, SCREENSHOTS / "overlay-side-switched-1920x1080.png")
                            assert page.evaluate("window.notReloaded === true")
                            director.archive.set_setting("featured", {"club": CLUB, "board": "mesa01"})
    finally:
        for b in boards:
            b.close()


def test_the_broadcast_alone_bounds_connections(make_director) -> None:
    """The broadcast's own server counts connections per client as the director's does (webguard/server.py):
    past the bound a new connection is closed before anything is read; the ones open still answer."""
    director = make_director()
    with BackgroundServer(create_broadcast_app(Live(director)), max_per_client=4) as cast:
        held = [socket.create_connection(("127.0.0.1", cast.port)) for _ in range(4)]
        try:
            extra = socket.create_connection(("127.0.0.1", cast.port))
            extra.settimeout(5)
            extra.sendall(b"GET /live/ HTTP/1.1\r\nHost: x\r\n\r\n")
            try:
                refused = extra.recv(100) == b""
            except ConnectionResetError:
                refused = True
            assert refused and cast.connections.refused >= 1
            held[0].settimeout(5)
            held[0].sendall(b"GET /live/ HTTP/1.1\r\nHost: x\r\n\r\n")
            assert held[0].recv(100).startswith(b"HTTP/1.1 200")
        finally:
            for s in held:
                s.close()
