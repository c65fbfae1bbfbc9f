"""253 phones (127.0.0.2-254) open the kiosk's page (GET /, /ws, /ws/coach) and close it, twice; then the
screen (127.0.0.1) and 20 phones ask for /api/state (issue 34, finding 1). Prints how many were served, the
connections still counted, and the seconds. Then each phone holds the page open (759 connections) and the screen asks. First, on a server of its own, the
attack: 8 addresses open and close 64 WebSockets each, then the screen and 20 new phones ask. Runs against any version of the kiosk (no new options needed):
`python -m bench.bench_connections`."""

from __future__ import annotations

import http.client
import json
import socket
import tempfile
import time
from pathlib import Path

from websockets.sync.client import connect

from kiosk.config import Settings
from kiosk.main import create_app
from kiosk.server import BackgroundServer
from tests.kiosk.fakes import FakeService


def _get(host: str, port: int, source: str, path: str = "/api/state") -> int:
    conn = http.client.HTTPConnection(host, port, timeout=5, source_address=(source, 0))
    try:
        conn.request("GET", path)
        return conn.getresponse().status
    except (ConnectionError, http.client.HTTPException, OSError):
        return 0
    finally:
        conn.close()


def _page(host: str, port: int, source: str) -> bool:
    if _get(host, port, source, "/") != 200:
        return False
    try:
        socks = []
        for path in ("/ws", "/ws/coach"):
            sock = socket.create_connection((host, port), timeout=5, source_address=(source, 0))
            socks.append(connect(f"ws://{host}:{port}{path}", sock=sock, open_timeout=5))
        socks[0].recv(timeout=5)
        for s in socks:
            s.close()
        return True
    except Exception:
        return False


def _held(host: str, port: int) -> dict[str, object]:
    """Every phone keeps the page open: a keep-alive HTTP connection and the two WebSockets."""
    held: list[object] = []
    opened = 0
    for i in range(2, 255):
        source = f"127.0.0.{i}"
        try:
            conn = http.client.HTTPConnection(host, port, timeout=5, source_address=(source, 0))
            conn.request("GET", "/api/state")
            conn.getresponse().read()
            held.append(conn)
            for path in ("/ws", "/ws/coach"):
                sock = socket.create_connection((host, port), timeout=5, source_address=(source, 0))
                ws = connect(f"ws://{host}:{port}{path}", sock=sock, open_timeout=5)
                held.append(ws)
                ws.recv(timeout=5)
            opened += 1
        except Exception:
            pass
    screen = _get(host, port, "127.0.0.1") == 200
    for h in held:
        try:
            h.close()  # type: ignore[attr-defined]
        except Exception:
            pass
    return {"phones_holding_the_page": opened, "screen_served_while_held": screen}


def _attack(host: str, port: int) -> dict[str, object]:
    """Issue 34's attack: 8 addresses (127.0.1.1-8) open 64 WebSockets each and close them, then go; who is
    served? (Run first, on a server of its own.)"""
    for a in range(1, 9):
        opened = []
        for _ in range(64):  # all 64 open at once (the per-address cap), then all closed
            try:
                sock = socket.create_connection((host, port), timeout=5, source_address=(f"127.0.1.{a}", 0))
                ws = connect(f"ws://{host}:{port}/ws", sock=sock, open_timeout=5)
                ws.recv(timeout=5)
                opened.append(ws)
            except Exception:
                pass
        for ws in opened:
            ws.close()
    time.sleep(1.0)
    return {"after_attack_screen_served": _get(host, port, "127.0.0.1") == 200,
            "after_attack_phones_served_of_20": sum(_get(host, port, f"127.0.2.{i}") == 200 for i in range(1, 21))}


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(Settings(data_dir=Path(tmp), language="en"), service=FakeService(), coach_engine=None)
        with BackgroundServer(app) as srv:
            attack = _attack(srv.host, srv.port)
        app = create_app(Settings(data_dir=Path(tmp), language="en"), service=FakeService(), coach_engine=None)
        with BackgroundServer(app) as srv:
            start = time.monotonic()
            opened = sum(_page(srv.host, srv.port, f"127.0.0.{i}") for i in range(2, 255))
            time.sleep(1.0)
            again = sum(_page(srv.host, srv.port, f"127.0.0.{i}") for i in range(2, 255))
            time.sleep(1.0)
            screen = _get(srv.host, srv.port, "127.0.0.1") == 200
            phones = sum(_get(srv.host, srv.port, f"127.0.0.{i}") == 200 for i in range(2, 22))
            counted = getattr(srv, "connections", None)
            held = _held(srv.host, srv.port)
            print(json.dumps({"phones_page_opened": opened, "phones_page_opened_again": again, "screen_served_after": screen,
                              "phones_served_after_of_20": phones,
                              "still_counted": counted.count() if counted else sum(
                                  len(s) for s in getattr(srv.server.config.http, "_open", {}).values()),
                              "seconds": round(time.monotonic() - start, 1), **held, **attack}))


if __name__ == "__main__":
    main()
