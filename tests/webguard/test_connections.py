"""Connections counted while open and released when closed, WebSockets included; the owner's screen always
served (issue 34, finding 1). A real uvicorn on loopback: the phones are 127.0.0.2 ... 127.0.0.254 (253
addresses), the owner's screen 127.0.0.1 (`owners=`), as on a club's /24 beside the kiosk. With --soak all 253
against the real cap (at most ~760 sockets at once; the server raises the open-files limit to fit 1,024 network
connections); the default run keeps a short version against a smaller cap (SHORT).

Before: uvicorn hands an upgraded socket to the WebSocket protocol and the h11 protocol never heard its close, so
every WebSocket stayed counted; 253 phones opening the page once each (the page opens /ws and /ws/coach) left
506 closed sockets counted against the 512 and every new connection, the screen's too, was refused.
"""

from __future__ import annotations

import http.client
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.sync.client import connect

from kiosk.config import Settings
from kiosk.main import create_app
from tests.kiosk.fakes import FakeService
from tests.soak import soak
from webguard.server import MAX_CONNECTIONS, BackgroundServer

SCREEN = "127.0.0.1"
PHONES = [f"127.0.0.{i}" for i in range(2, 255)]
# The default run keeps a short version (tests/soak.py): 70 phones against a cap of 128 (140 leaked WebSockets
# locked everyone out before), 40 holding the page (120 connections); --soak: the 253 against the real 1,024.
SHORT = {"phones": 70, "holding": 40, "max_connections": 128}


def _phones(key: str = "phones") -> list[str]:
    return PHONES if soak() else PHONES[:SHORT[key]]


def _serve(tmp_path: Path, **limits: object) -> BackgroundServer:
    app = create_app(Settings(data_dir=tmp_path, language="en"), service=FakeService(), coach_engine=None)
    if not soak():
        limits.setdefault("max_connections", SHORT["max_connections"])
    return BackgroundServer(app, owners=lambda host: host == SCREEN, **limits)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[BackgroundServer]:
    with _serve(tmp_path) as srv:
        yield srv


def _get(server: BackgroundServer, source: str, path: str = "/api/state") -> int:
    conn = http.client.HTTPConnection(server.host, server.port, timeout=5, source_address=(source, 0))
    try:
        conn.request("GET", path)
        return conn.getresponse().status
    except (ConnectionError, http.client.HTTPException, OSError):
        return 0  # closed at once, unread: refused
    finally:
        conn.close()


def _socket(server: BackgroundServer, source: str, path: str = "/ws"):  # type: ignore[no-untyped-def]
    sock = socket.create_connection((server.host, server.port), timeout=5, source_address=(source, 0))
    return connect(f"ws://{server.host}:{server.port}{path}", sock=sock, open_timeout=5)


def _settled(server: BackgroundServer, remote: int, within: float = 5.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if server.connections.remote == remote:
            return True
        time.sleep(0.02)
    return False


def test_253_phones_opening_the_page_once_each_lock_nobody_out(server: BackgroundServer) -> None:
    for phone in _phones():
        assert _get(server, phone, "/") == 200
        with _socket(server, phone, "/ws") as ws, _socket(server, phone, "/ws/coach"):
            ws.recv(timeout=5)
    assert _settled(server, 0), f"{server.connections.remote} closed connections still counted"
    assert server.connections.refused == 0
    assert _get(server, SCREEN) == 200
    assert _get(server, PHONES[0]) == 200
    with _socket(server, _phones()[-1]) as ws:
        assert "phase" in ws.recv(timeout=5)


def test_253_phones_holding_the_page_open_are_all_served_and_so_is_the_screen(server: BackgroundServer) -> None:
    """The page stays open on every phone: two WebSockets each and a keep-alive HTTP connection (759 in all)."""
    held = []
    keep = []
    phones = _phones("holding")
    try:
        for phone in phones:
            conn = http.client.HTTPConnection(server.host, server.port, timeout=5, source_address=(phone, 0))
            conn.request("GET", "/api/state")
            assert conn.getresponse().read()
            keep.append(conn)
            held += [_socket(server, phone, "/ws"), _socket(server, phone, "/ws/coach")]
        assert server.connections.refused == 0
        assert server.connections.remote >= 2 * len(phones)
        assert _get(server, SCREEN) == 200
    finally:
        for ws in held:
            ws.close()
        for conn in keep:
            conn.close()
    assert _settled(server, 0)


def test_sockets_opened_and_closed_by_eight_addresses_release_their_places(server: BackgroundServer) -> None:
    """The attack: 8 addresses open and close 64 WebSockets each (512, the old cap; 8 x 20 in the short run) and go."""
    for attacker in PHONES[:8]:
        for _ in range(64 if soak() else 20):
            with _socket(server, attacker) as ws:
                ws.recv(timeout=5)
    assert _settled(server, 0)
    assert _get(server, PHONES[100]) == 200
    assert _get(server, SCREEN) == 200


def test_the_screen_is_served_while_the_network_holds_every_place(tmp_path: Path) -> None:
    with _serve(tmp_path, max_connections=16, max_per_client=4) as server:
        held = [_socket(server, phone) for phone in PHONES[:4] for _ in range(4)]
        try:
            assert server.connections.remote == 16
            assert _get(server, PHONES[50]) == 0  # the network's places are taken
            assert _get(server, SCREEN) == 200    # the owner's screen is not the network's
            with _socket(server, SCREEN) as ws:
                assert "phase" in ws.recv(timeout=5)
        finally:
            for ws in held:
                ws.close()
        assert _settled(server, 0)
        assert _get(server, PHONES[50]) == 200


def test_the_default_cap_is_the_contracts() -> None:
    assert MAX_CONNECTIONS == 1024  # docs/CONTRACTS.md, "Limits"


def test_the_directors_page_the_same(tmp_path: Path) -> None:
    """The club director is served by the same guard (webguard/server.py): 253 phones open its page and /ws
    and go, then every phone holds it open; the director's own screen is served throughout."""
    from club.director import Director
    from club.web import create_app as director_app
    from webguard.pin import PinStore

    director = Director(None, tmp_path / "d", club="porto").start()
    try:
        app = director_app(director, PinStore(tmp_path / "pins"))
        cap = {} if soak() else {"max_connections": 64}
        with BackgroundServer(app, owners=lambda host: host == SCREEN, **cap) as server:
            for phone in _phones():
                assert _get(server, phone, "/") == 200
                with _socket(server, phone) as ws:
                    assert "boards" in ws.recv(timeout=5)
            assert _settled(server, 0) and server.connections.refused == 0
            holding = _phones() if soak() else PHONES[:60]
            held = [_socket(server, phone) for phone in holding]
            try:
                assert server.connections.remote == len(holding)
                assert _get(server, SCREEN, "/api/boards") == 200
                assert _get(server, PHONES[0], "/api/boards") == 200
            finally:
                for ws in held:
                    ws.close()
            assert _settled(server, 0)
    finally:
        director.close()
