"""Drive a ``DiceProtocol`` over a serial port from a reader thread, reopening the port when it comes back.

Modelled on pyserial's ``serial.threaded.ReaderThread``, with two differences that matter for dice: an I/O
error (cable pulled, unit reset) does not end the thread but starts reopening the same *path* (use a stable
one: ``/dev/gamao-dice`` from our udev rule, or ``/dev/serial/by-id/...``), and an exception raised while
handling data is logged and counted, never taken for a dead port.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

import serial

from firmware_bridge.protocol import DiceProtocol, EventSink

log = logging.getLogger(__name__)

BAUDRATE = 115200  # the Pico's USB CDC ignores it; a UART bridge (CP2102 etc.) needs it
READ_TIMEOUT = 0.05  # how often the reader wakes to run the watchdog when nothing arrives
RETRY_INTERVAL = 0.1  # between attempts to reopen a vanished port


class SerialLike(Protocol):
    in_waiting: int

    def read(self, size: int = 1) -> bytes: ...
    def write(self, data: bytes) -> int | None: ...
    def close(self) -> None: ...


Opener = Callable[[str], SerialLike]

IO_ERRORS = (serial.SerialException, OSError)


def open_serial(path: str) -> SerialLike:
    return serial.Serial(path, baudrate=BAUDRATE, timeout=READ_TIMEOUT, write_timeout=0.5, exclusive=True)


class _PortTransport:
    """What the protocol writes through; write errors are left for the reader to notice as a lost port."""

    def __init__(self, port: SerialLike) -> None:
        self.port = port
        self.lock = threading.Lock()
        self.failed: BaseException | None = None

    def write(self, data: bytes) -> None:
        with self.lock:
            try:
                self.port.write(data)
            except IO_ERRORS as exc:
                self.failed = exc


class DiceLink:
    """Keep a dice unit connected at ``path`` and pass its events to ``on_event`` (from the reader thread).

    >>> link = DiceLink("/dev/gamao-dice", print)     # doctest: +SKIP
    >>> with link: ...                                # starts the thread; leaving the block stops it
    """

    def __init__(
        self,
        path: str,
        on_event: EventSink,
        *,
        opener: Opener = open_serial,
        clock: Callable[[], float] = time.monotonic,
        retry_interval: float = RETRY_INTERVAL,
        heartbeats: bool = False,
        protocol: DiceProtocol | None = None,
    ) -> None:
        self.path = path
        self.opener = opener
        self.clock = clock
        self.retry_interval = retry_interval
        self.protocol = protocol or DiceProtocol(on_event, clock=clock, heartbeats=heartbeats)
        self.handler_errors = 0
        self.reconnect_times: list[float] = []  # seconds from losing the port to reopening it
        self._port: SerialLike | None = None
        self._transport: _PortTransport | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._connected = threading.Event()

    # ---- lifecycle -------------------------------------------------------------------------------------

    def start(self) -> DiceLink:
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name=f"dice-link {self.path}", daemon=True)
            self._thread.start()
        return self

    def stop(self, timeout: float = 2.0) -> None:
        """Stop the reader and close the port; safe to call twice."""
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    close = stop

    def __enter__(self) -> DiceLink:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    def wait_connected(self, timeout: float) -> bool:
        return self._connected.wait(timeout)

    def send_led(self, pattern: str) -> None:
        """Ask the unit to show an LED pattern (dropped silently while the unit is away)."""
        self.protocol.send_led(pattern)

    # ---- the reader thread ---------------------------------------------------------------------------

    def _run(self) -> None:
        lost_at: float | None = None
        announced = False
        try:
            while not self._stop.is_set():
                if self._port is None:
                    try:
                        self._open()
                    except IO_ERRORS as exc:
                        if lost_at is None:
                            lost_at = self.clock()
                        if not announced:
                            announced = True
                            self.protocol.declare_lost(f"cannot open {self.path}: {exc}")
                        self._stop.wait(self.retry_interval)
                        continue
                    if lost_at is not None:
                        self.reconnect_times.append(self.clock() - lost_at)
                    lost_at, announced = None, False
                try:
                    data = self._read()
                except IO_ERRORS as exc:
                    lost_at, announced = self.clock(), True
                    self._drop_port(exc)
                    continue
                try:
                    if data:
                        self.protocol.data_received(data)
                    self.protocol.tick()
                except Exception:
                    # A bug in handling is not a dead port: keep reading, the unit re-sends what was unacked.
                    self.handler_errors += 1
                    log.exception("error while handling data from %s", self.path)
        finally:
            self._drop_port(None)

    def _open(self) -> None:
        port = self.opener(self.path)
        self._port, self._transport = port, _PortTransport(port)
        self._connected.set()
        self.protocol.connection_made(self._transport)

    def _read(self) -> bytes:
        assert self._port is not None and self._transport is not None
        if self._transport.failed is not None:
            raise self._transport.failed
        return self._port.read(self._port.in_waiting or 1)

    def _drop_port(self, exc: BaseException | None) -> None:
        port, self._port, self._transport = self._port, None, None
        if port is None:
            return
        self._connected.clear()
        try:
            port.close()
        except IO_ERRORS:
            pass
        self.protocol.connection_lost(exc)
