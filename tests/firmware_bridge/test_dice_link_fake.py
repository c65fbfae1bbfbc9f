"""DiceLink with an injected opener (no pty): write errors, open errors and a clean stop."""

from __future__ import annotations

import threading
from typing import Any

import serial

from firmware_bridge.events import EventCollector
from firmware_bridge.framing import encode_frame
from firmware_bridge.link import DiceLink


class FakePort:
    """A serial port whose reads come from a queue and whose writes can be made to fail."""

    def __init__(self, fail_writes: bool = False) -> None:
        self.incoming: list[bytes] = []
        self.written: list[bytes] = []
        self.fail_writes = fail_writes
        self.closed = False
        self.cond = threading.Condition()

    @property
    def in_waiting(self) -> int:
        return len(self.incoming[0]) if self.incoming else 0

    def feed(self, data: bytes) -> None:
        with self.cond:
            self.incoming.append(data)
            self.cond.notify_all()

    def read(self, size: int = 1) -> bytes:
        with self.cond:
            self.cond.wait_for(lambda: bool(self.incoming) or self.closed, 0.02)
            return self.incoming.pop(0) if self.incoming else b""

    def write(self, data: bytes) -> int:
        if self.fail_writes:
            raise serial.SerialException("write failed: [Errno 5] Input/output error")
        self.written.append(data)
        return len(data)

    def close(self) -> None:
        self.closed = True


def test_write_error_is_a_lost_port_and_the_link_reopens() -> None:
    ports = [FakePort(fail_writes=True), FakePort()]
    opened: list[FakePort] = []

    def opener(path: str) -> Any:
        port = ports.pop(0)
        opened.append(port)
        if not port.fail_writes:
            port.feed(encode_frame("HELLO,1,1.0,FAKE,0001,65535"))
        return port

    events = EventCollector()
    with DiceLink("/dev/fake", events, opener=opener, retry_interval=0.01) as link:
        assert events.wait_for(lambda e: e["event"] == "reconnected", 5)
        assert link.connected
    lost = events.of("lost")
    assert len(lost) == 1 and lost[0]["why"] == "port error: write failed: [Errno 5] Input/output error"
    assert opened[0].closed and opened[1].closed  # stop() closed the second port too
    assert opened[1].written[0] == encode_frame("HELLO?")


def test_open_errors_are_reported_once_and_retried() -> None:
    attempts = 0
    done = threading.Event()

    def opener(path: str) -> Any:
        nonlocal attempts
        attempts += 1
        if attempts >= 5:
            done.set()
        raise serial.SerialException(f"[Errno 2] could not open port {path}")

    events = EventCollector()
    with DiceLink("/dev/none", events, opener=opener, retry_interval=0.01):
        assert done.wait(5)
    assert events.events == [{"event": "lost", "why": "cannot open /dev/none: [Errno 2] could not open port /dev/none"}]


def test_stop_is_safe_twice() -> None:
    link = DiceLink("/dev/none", EventCollector(), opener=lambda p: FakePort(), retry_interval=0.01).start()
    link.stop()
    link.stop()
    assert not link.connected
