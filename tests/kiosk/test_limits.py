"""Time-outs and limits against a real uvicorn on 127.0.0.1 with real sockets: half-sent connections are
closed, one client cannot hold every connection, big bodies are refused before they are read, and the
WebSocket takes the kiosk's own Origin only and closes on oversized or invalid frames without a traceback.

Bounded: at most ~100 sockets per test and a few seconds each.
"""

from __future__ import annotations

import base64
import logging
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from kiosk import limits
from kiosk.config import Settings
from kiosk.main import create_app
from kiosk.server import BackgroundServer, GuardedH11Protocol
from tests.kiosk.conftest import PIN
from tests.kiosk.fakes import FakeService
from tests.procs import until
from tests.web import HTTP
from webguard.server import WS_PROTOCOL


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def tracebacks(self) -> list[str]:
        """The kiosk's tracebacks. The test's own websockets client is not the kiosk: when the kiosk closes
        on a 15 MB frame mid-send, that client may log its own "stream ended" race (1 run in 5)."""
        return [r.getMessage() for r in self.records
                if (r.exc_info or "Traceback" in r.getMessage()) and not r.name.startswith("websockets.client")]


LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "kiosk", "websockets")
_watching: list[_Collect] = []


def _serve(tmp_path: Path, **limits_: float) -> BackgroundServer:
    # coach_engine=None: not what this file tests (the coach's gnubg runs in test_coach*.py, test_page_walk.py, tests/engine)
    app = create_app(Settings(data_dir=tmp_path, language="en"), service=FakeService(), coach_engine=None)
    app.state.pins.set(PIN)
    server = BackgroundServer(app, log_level="info", **limits_)
    for handler in _watching:  # uvicorn's config has just reset its loggers: watch them from now on
        for name in LOGGERS:
            logging.getLogger(name).addHandler(handler)
    return server


@pytest.fixture
def logs() -> Iterator[_Collect]:
    handler = _Collect()
    _watching.append(handler)
    yield handler
    _watching.remove(handler)
    for name in LOGGERS:
        logging.getLogger(name).removeHandler(handler)


def _closed_by_server(sock: socket.socket, within: float) -> bool:
    sock.settimeout(within)
    try:
        while True:
            data = sock.recv(4096)
            if not data:
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False


def _closed_now(socks: list[socket.socket]) -> int:
    """How many of `socks` the server has closed by now (without waiting: a socket it keeps has nothing to read)."""
    return sum(_closed_by_server(s, within=0.001) for s in socks)


def _read_all(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (it says `connection: close`)."""
    data = b""
    with sock:
        while chunk := sock.recv(4096):
            data += chunk
    return data


def _open_fds() -> int:
    """The process's open sockets (pipes and files that the coach's engine warm-up opens meanwhile aside)."""
    count = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            count += os.readlink(f"/proc/self/fd/{fd}").startswith("socket:")
        except OSError:
            continue
    return count


def test_idle_and_half_sent_connections_are_closed_by_the_header_timeout(tmp_path: Path, logs: _Collect,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    # The header time-out's own check closed them (counted), not a time taken: a loaded or slow machine's event loop
    # may run the checks late; the 4 s each socket waits is only a bound for a failure.
    by_head: list[int] = []
    head_check = GuardedH11Protocol._head_check

    def counted(self: GuardedH11Protocol) -> None:
        open_before = self.transport is not None and not self.transport.is_closing()
        head_check(self)
        if open_before and self.transport is not None and self.transport.is_closing():
            by_head.append(1)

    monkeypatch.setattr(GuardedH11Protocol, "_head_check", counted)
    with _serve(tmp_path, header_timeout=1.0) as server:
        fds_before = _open_fds()
        socks = []
        for i in range(40):
            s = socket.create_connection((server.host, server.port), timeout=5)
            if i % 2:  # half a request head, never finished
                s.sendall(b"GET /api/state HTTP/1.1\r\nHost: kiosk\r\nX-Slow: ")
            socks.append(s)
        # While they hang, the kiosk still answers.
        assert HTTP.get(server.url + "/api/state", timeout=5).status_code == 200
        closed = sum(_closed_by_server(s, within=4.0) for s in socks)
        for s in socks:
            s.close()
        assert closed == 40 and len(by_head) == 40
        assert until(lambda: _open_fds() <= fds_before + 2, 10)  # the server's side of them is gone too
    assert logs.tracebacks() == []


def test_a_keep_alive_connection_that_starts_a_second_head_and_stalls_is_closed(tmp_path: Path) -> None:
    with _serve(tmp_path, header_timeout=1.0) as server:
        s = socket.create_connection((server.host, server.port), timeout=5)
        s.sendall(b"GET /api/kiosk HTTP/1.1\r\nHost: kiosk\r\n\r\n")
        assert s.recv(4096).startswith(b"HTTP/1.1 200")
        s.sendall(b"GET /api/kiosk HTTP/1.1\r\nHo")
        assert _closed_by_server(s, within=4.0)
        s.close()


def test_one_client_cannot_hold_every_connection(tmp_path: Path) -> None:
    with _serve(tmp_path, header_timeout=30.0, max_per_client=20) as server:
        socks = [socket.create_connection((server.host, server.port), timeout=5) for _ in range(30)]
        # the server takes the 30 in turn (a loaded machine's event loop later than a fixed wait): the 10 over the
        # bound are closed at once, the 20 within it stay open (their head may take 30 s)
        conns = server.server.config.gamao_connections
        assert until(lambda: conns.count() + conns.refused >= 30, 10)
        assert conns.refused == 10
        assert until(lambda: _closed_now(socks) >= 10, 10)
        assert _closed_now(socks) == 10
        for s in socks:
            s.close()
        assert until(lambda: conns.count() == 0, 10)
        assert HTTP.get(server.url + "/api/state", timeout=5).status_code == 200


def test_a_big_body_is_refused_before_it_is_read(tmp_path: Path) -> None:
    with _serve(tmp_path) as server:
        s = socket.create_connection((server.host, server.port), timeout=5)
        # Announces 10 MB and sends none of it: the answer comes at once, before the PIN check.
        s.sendall(b"POST /api/match HTTP/1.1\r\nHost: kiosk\r\nContent-Type: application/json\r\n"
                  b"X-Gamao-PIN: 0000\r\nContent-Length: 10000000\r\n\r\n")
        head = _read_all(s)
        assert head.startswith(b"HTTP/1.1 413") and b"larger than the kiosk accepts" in head
        # Chunked (no length given): refused as soon as it passes the limit.
        big = (b"x" * 8192 for _ in range(20))
        r = HTTP.post(server.url + "/api/match", content=big, headers={"X-Gamao-PIN": PIN}, timeout=10)
        assert r.status_code == 413 and r.json()["message"].startswith("the request body is larger")


def test_a_body_that_never_arrives_gets_408(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "BODY_TIMEOUT", 1.0)
    with _serve(tmp_path) as server:
        s = socket.create_connection((server.host, server.port), timeout=5)
        s.sendall(b"POST /api/match HTTP/1.1\r\nHost: kiosk\r\nContent-Length: 20\r\n\r\n{\"len")
        assert _read_all(s).startswith(b"HTTP/1.1 408")


def test_the_websocket_takes_the_kiosks_own_origin_only(tmp_path: Path, logs: _Collect) -> None:
    with _serve(tmp_path) as server:
        ws_url = server.url.replace("http", "ws") + "/ws"
        with connect(ws_url, origin=server.url) as ws:  # the kiosk's own page
            assert '"phase"' in ws.recv(timeout=5)
        with pytest.raises(InvalidStatus) as refused:
            connect(ws_url, origin="http://evil.example")
        assert refused.value.response.status_code == 403
        with pytest.raises(InvalidStatus):
            connect(ws_url, origin=f"http://{server.host}:{server.port + 1}")  # another port is another site
        with connect(ws_url) as ws:  # no Origin: not a browser page
            assert '"phase"' in ws.recv(timeout=5)
    assert logs.tracebacks() == []


def test_an_oversized_message_closes_the_websocket_without_a_traceback(tmp_path: Path, logs: _Collect,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # "At once" is what the server read before it closed, not a time (a loaded or emulated machine is slow): the
    # bytes each WebSocket connection's protocol was handed
    got: dict[int, int] = {}
    data_received = WS_PROTOCOL.data_received

    def counted(self: Any, data: bytes) -> None:
        got[id(self)] = got.get(id(self), 0) + len(data)
        data_received(self, data)

    monkeypatch.setattr(WS_PROTOCOL, "data_received", counted)
    with _serve(tmp_path) as server:
        ws_url = server.url.replace("http", "ws") + "/ws"
        with connect(ws_url, origin=server.url, max_size=None) as ws:
            ws.recv(timeout=5)
            with pytest.raises(ConnectionClosed):
                ws.send(b"x" * 100_000)  # fits the socket's buffers: the client reads the kiosk's close frame
                ws.recv(timeout=5)
            assert ws.close_code == 1009
        with connect(ws_url, origin=server.url, max_size=None) as ws:
            ws.recv(timeout=5)
            with pytest.raises(ConnectionClosed):
                ws.send(b"x" * 15_000_000)
                ws.recv(timeout=5)
            # The kiosk closes with 1009 as soon as it reads the frame's length; while the client is still
            # pushing 15 MB the close frame can be lost in the reset (1006). Either way it is closed at once.
            assert ws.close_code in (1009, 1006)
        # the 15 MB message's connection closed on the frame's length: a first read or two (64 KB here), not 15 MB
        assert len(got) == 2 and list(got.values())[1] < 15_000_000 // 10, got
        with connect(ws_url) as ws:  # and the kiosk is still there
            assert '"phase"' in ws.recv(timeout=5)
    assert any("connection" in r.getMessage() for r in logs.records)  # the log was watched
    assert logs.tracebacks() == []


def test_a_flood_of_small_messages_closes_the_websocket(tmp_path: Path, logs: _Collect) -> None:
    with _serve(tmp_path) as server, connect(server.url.replace("http", "ws") + "/ws") as ws:
        ws.recv(timeout=5)
        with pytest.raises(ConnectionClosed):
            for _ in range(200):
                ws.send("hello")
                time.sleep(0.002)
            ws.recv(timeout=5)
        assert ws.close_code == 1008
    assert logs.tracebacks() == []


def _raw_websocket(server: BackgroundServer) -> socket.socket:
    s = socket.create_connection((server.host, server.port), timeout=5)
    key = base64.b64encode(os.urandom(16))
    s.sendall(b"GET /ws HTTP/1.1\r\nHost: kiosk\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
              b"Sec-WebSocket-Key: " + key + b"\r\nSec-WebSocket-Version: 13\r\n\r\n")
    assert s.recv(4096).startswith(b"HTTP/1.1 101")
    return s


def _frame(opcode: int, payload: bytes, masked: bool = True, fin: bool = True) -> bytes:
    head = bytes([(0x80 if fin else 0) | opcode])
    n = len(payload)
    mask_bit = 0x80 if masked else 0
    if n < 126:
        head += bytes([mask_bit | n])
    else:
        head += bytes([mask_bit | 126]) + n.to_bytes(2, "big")
    if not masked:
        return head + payload
    mask = b"\x01\x02\x03\x04"
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


@pytest.mark.parametrize("frame", [
    _frame(0x1, b"\xff\xfe not utf-8"),          # a text frame that is not UTF-8
    _frame(0x1, b"hello", masked=False),           # a client frame without a mask
    _frame(0x3, b"reserved opcode"),               # an opcode that does not exist
    _frame(0x9, b"p" * 200),                       # a control frame longer than 125 bytes
    b"\xff" * 64,                                  # not a frame at all
], ids=["bad-utf8", "unmasked", "reserved-opcode", "long-ping", "garbage"])
def test_invalid_frames_close_the_websocket_without_a_traceback(tmp_path: Path, logs: _Collect, frame: bytes) -> None:
    with _serve(tmp_path) as server:
        s = _raw_websocket(server)
        s.sendall(frame)
        assert _closed_by_server(s, within=5.0)
        s.close()
        time.sleep(0.2)
        assert HTTP.get(server.url + "/api/state", timeout=5).status_code == 200
    assert logs.tracebacks() == []
