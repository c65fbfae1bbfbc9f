"""A simulated dice unit on a real pseudo-terminal, running the unit's own firmware logic.

The firmware logic (``hardware/firmware/dicecore.py``) is the file that runs on the Pico; here it runs under
CPython behind a pty, so the bridge talks to it exactly as to a USB serial port. ``port`` is a stable symlink
to the pty, so ``unplug()`` / ``replug()`` simulate pulling the cable and plugging it back: the pty vanishes,
the symlink goes away (as udev removes ``/dev/gamao-dice``), then a new pty appears at the same path. The unit
keeps its state across the cut, as a battery-powered unit does, so unacknowledged rolls are re-sent.

    >>> with DiceSimulator("/tmp/gamao-dice-sim") as sim:       # doctest: +SKIP
    ...     sim.roll(6, 3)
"""

from __future__ import annotations

import importlib.util
import logging
import os
import secrets
import select
import sys
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

log = logging.getLogger(__name__)

FIRMWARE_DIR = Path(__file__).resolve().parent.parent / "hardware" / "firmware"


def load_dicecore() -> ModuleType:
    """Import the Pico's ``dicecore.py`` from ``hardware/firmware`` (it is not part of an installed package)."""
    if "dicecore" in sys.modules:
        return sys.modules["dicecore"]
    path = FIRMWARE_DIR / "dicecore.py"
    if not path.is_file():
        raise FileNotFoundError(f"the dice firmware {path} is missing; run from a checkout of the Gamão repository")
    spec = importlib.util.spec_from_file_location("dicecore", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["dicecore"] = module
    spec.loader.exec_module(module)
    return module


def _system_bit() -> int:
    return secrets.randbits(1)


class DiceSimulator:
    """A dice unit behind a pseudo-terminal; ``port`` is what the bridge opens.

    ``link`` is the stable path (a symlink re-pointed at every replug); without it ``port`` is the pty's own
    name and unplugging is not possible. ``raw_bit`` feeds the unit's random source (default: the OS).
    """

    def __init__(
        self,
        link: str | os.PathLike[str] | None = None,
        *,
        unit_id: str = "SIM1",
        raw_bit: Callable[[], int] = _system_bit,
        battery: int | None = None,
    ) -> None:
        core = load_dicecore()
        self.core = core
        self.link = Path(link) if link is not None else None
        self._lock = threading.RLock()
        self._master: int | None = None
        self._slave: int | None = None
        self._slave_name: str | None = None
        self._t0 = time.monotonic()
        boot = f"{secrets.randbits(16):04X}"
        self.unit = core.DiceUnit(self._write, self._clock_ms, boot=boot, unit_id=unit_id,
                                  battery=(lambda: battery) if battery is not None else None)
        self.dice = core.DigitalDice(self.unit, core.VonNeumann(raw_bit).bits)
        self._sensor = core.SensorDice(self.unit)
        self.received: list[str] = []  # every good frame the host sent, for tests
        self.drop_acks = False  # simulate ACKs lost on the way (the unit keeps re-sending)
        self.on_command: Callable[[str], None] | None = None
        self.frozen = False  # a hung unit: reads nothing, sends nothing (not even heartbeats)
        self._changed = threading.Condition(self._lock)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # ---- lifecycle ---------------------------------------------------------------------------------------

    @property
    def port(self) -> str:
        if self.link is not None:
            return str(self.link)
        if self._slave_name is None:
            raise RuntimeError("the simulator is not started")
        return self._slave_name

    @property
    def pty_name(self) -> str | None:
        """The pty the stable path points at now (changes at every replug)."""
        return self._slave_name

    @property
    def plugged(self) -> bool:
        return self._master is not None

    def start(self) -> DiceSimulator:
        self.replug()
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="dice-sim", daemon=True)
            self._thread.start()
        return self

    def stop(self) -> None:
        """Unplug and stop; safe to call twice."""
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(2.0)
        self.unplug()

    def __enter__(self) -> DiceSimulator:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def unplug(self) -> None:
        """The cable is pulled: the pty closes and the stable path disappears."""
        with self._lock:
            master, slave, self._master, self._slave = self._master, self._slave, None, None
            self.unit.reader = self.core.HostLineReader()
            if self.link is not None and self.link.is_symlink():
                self.link.unlink()
        for fd in (master, slave):
            if fd is not None:
                os.close(fd)

    def replug(self) -> None:
        """The cable is plugged in: a new pty appears, and the stable path points at it."""
        with self._lock:
            if self._master is not None:
                return
            master, slave = os.openpty()
            # Raw at once: a pty starts in cooked mode with echo, which would send our frames back to us.
            tty.setraw(slave)
            os.set_blocking(master, False)
            self._master, self._slave = master, slave
            self._slave_name = os.ttyname(slave)
            if self.link is not None:
                tmp = self.link.with_name(self.link.name + ".new")
                if tmp.is_symlink() or tmp.exists():
                    tmp.unlink()
                os.symlink(self._slave_name, tmp)
                os.replace(tmp, self.link)  # atomic: the bridge never sees a half-made link

    # ---- what players do ----------------------------------------------------------------------------------

    def roll(self, d1: int | None = None, d2: int | None = None,
             cocked: tuple[bool, bool] = (False, False)) -> tuple[int, int, int | None]:
        """Roll (random dice unless given) and return (d1, d2, seq); seq is None when the unit refused."""
        with self._lock:
            if d1 is None or d2 is None:
                before = self.unit.seq
                r1, r2 = self.dice.roll()
                seq = self.unit.seq if self.unit.seq != before else None
                if cocked != (False, False) and seq is not None:
                    raise ValueError("a random roll cannot be cocked; give the dice too")
                return r1, r2, seq
            seq = self.unit.report_roll(d1, d2, cocked[0], cocked[1])
            return d1, d2, seq

    def throw_sensor_dice(self, rest1: tuple[float, float, float], rest2: tuple[float, float, float],
                          seed: int = 0) -> tuple[int, int, bool, bool] | None:
        """Throw two sensor dice (unit B): tumbling readings, then each die at rest with the given
        accelerometer reading (in g, the die's own axes). Returns what the unit reported, or None."""
        import random

        rng = random.Random(seed)
        sensor = self._sensor
        with self._lock:
            result = None
            for _ in range(15):
                sensor.feed(tuple(rng.uniform(-2, 2) for _ in range(3)), tuple(rng.uniform(-2, 2) for _ in range(3)))
            for _ in range(sensor.detector.settle + 2):
                result = sensor.feed(rest1, rest2) or result
            return result

    def button(self, name: str) -> int | None:
        with self._lock:
            return self.unit.report_button(name)

    def pending(self) -> int:
        with self._lock:
            return len(self.unit.pending)

    def wait_until(self, predicate: Callable[[], bool], timeout: float) -> bool:
        """Wait (without polling sleeps) until ``predicate()`` holds after something the host sent."""
        with self._changed:
            return self._changed.wait_for(predicate, timeout)

    # ---- the unit's main loop -----------------------------------------------------------------------------

    def _clock_ms(self) -> int:
        return int((time.monotonic() - self._t0) * 1000)

    def _write(self, data: bytes) -> None:
        # Called with the lock held. Like a real line, bytes written with no cable are gone.
        if self._master is None:
            return
        try:
            os.write(self._master, data)
        except (BlockingIOError, OSError):
            pass

    def _run(self) -> None:
        while not self._stop.is_set():
            if self.frozen:
                self._stop.wait(0.02)
                continue
            master = self._master
            ready: list[int] = []
            if master is not None:
                try:
                    ready, _, _ = select.select([master], [], [], 0.02)
                except (OSError, ValueError):
                    ready = []
            else:
                self._stop.wait(0.02)
            with self._lock:
                try:
                    if ready and self._master == master and master is not None:
                        try:
                            data = os.read(master, 4096)
                        except (BlockingIOError, OSError):
                            data = b""
                        if data:
                            self._receive(data)
                    self.unit.poll()
                except Exception:
                    # A bug in a callback must not silently kill the simulated unit (the demo relies on it).
                    log.exception("simulated dice unit: error in its main loop")
                    self._stop.wait(0.1)

    def _receive(self, data: bytes) -> None:
        payloads, bad = self.unit.reader.feed(data)
        for _ in range(bad):
            self.unit.error(self.core.ERR_BAD_FRAME, "bad frame from host")
        for payload in payloads:
            self.received.append(payload)
            if self.on_command is not None:
                self.on_command(payload)
            if payload.startswith("ACK,") and self.drop_acks:
                continue
            self.unit.handle_command(payload)
        self._changed.notify_all()
