"""The bridge and the unit's own firmware logic over a REAL pseudo-terminal: handshake, rolls, unplug/replug.

The simulator runs hardware/firmware/dicecore.py behind a pty; ``sim.port`` is a stable symlink that vanishes
on unplug and points at a new pty on replug, as udev does with /dev/gamao-dice.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.events import EventCollector
from firmware_bridge.link import DiceLink
from firmware_bridge.protocol import DiceProtocol
from firmware_bridge.sim import DiceSimulator
from tests.firmware_bridge.helpers import FakeClock

WAIT = 5.0  # generous upper bound for a loaded machine; "at once" is asserted by what happened, never a time


def is_(kind: str) -> Any:
    return lambda e: e["event"] == kind


@pytest.fixture
def sim(tmp_path: Path) -> Iterator[DiceSimulator]:
    with DiceSimulator(tmp_path / "gamao-dice") as s:
        yield s


@pytest.fixture
def link(sim: DiceSimulator) -> Iterator[tuple[DiceLink, EventCollector]]:
    events = EventCollector()
    with DiceLink(sim.port, events) as lk:
        assert events.wait_for(is_("hello"), WAIT), events.events
        yield lk, events


def rolls(events: EventCollector) -> list[tuple[int, list[int], list[bool]]]:
    return [(e["seq"], e["dice"], e["cocked"]) for e in events.of("roll")]


def test_roll_through_the_pty_is_acknowledged(sim: DiceSimulator, link: tuple[DiceLink, EventCollector]) -> None:
    _, events = link
    assert sim.roll(6, 3)[2] == 0
    assert events.wait_for(is_("roll"), WAIT) == {"event": "roll", "seq": 0, "dice": [6, 3], "cocked": [False, False]}
    assert sim.wait_until(lambda: sim.pending() == 0, WAIT)
    assert "ACK,0" in sim.received


def test_r24_cocked_die_reported_as_cocked_through_the_pty(sim: DiceSimulator,
                                                           link: tuple[DiceLink, EventCollector]) -> None:
    _, events = link
    sim.roll(4, 2, cocked=(False, True))
    assert events.wait_for(is_("roll"), WAIT) == {"event": "roll", "seq": 0, "dice": [4, 2], "cocked": [False, True]}


def test_unplug_after_roll_whose_ack_was_lost(sim: DiceSimulator, link: tuple[DiceLink, EventCollector]) -> None:
    lk, events = link
    sim.roll(5, 1)
    assert events.wait_for(is_("roll"), WAIT)
    assert sim.wait_until(lambda: sim.pending() == 0, WAIT)
    sim.drop_acks = True  # the bridge has the roll, the unit never hears the ACK: it keeps re-sending
    sim.roll(6, 6)
    assert events.wait_count("roll", 2, WAIT)
    assert sim.pending() == 1
    mark = len(events.events)
    # the link's attempts to open the port: (the port was there, it opened) -- "at once" is its first attempt
    # that finds the port, not a time (a loaded or emulated machine runs the link's thread late)
    attempts: list[tuple[bool, bool]] = []
    opener = lk.opener

    def recorded(path: str):  # type: ignore[no-untyped-def]
        there = Path(path).exists()
        try:
            port = opener(path)
        except OSError:
            attempts.append((there, False))
            raise
        attempts.append((there, True))
        return port

    lk.opener = recorded
    sim.unplug()
    assert events.wait_for(is_("lost"), WAIT, start=mark)
    assert not Path(sim.port).exists()
    sim.drop_acks = False
    sim.replug()
    assert events.wait_for(is_("reconnected"), WAIT, start=mark)
    found = [opened for there, opened in attempts if there]
    assert found and found[0], attempts  # reopened by the first attempt that found the port
    assert sim.wait_until(lambda: sim.pending() == 0, WAIT)  # the re-sent duplicate was acknowledged
    sim.roll(3, 2)
    assert events.wait_count("roll", 3, WAIT)
    assert rolls(events) == [(0, [5, 1], [False, False]), (1, [6, 6], [False, False]), (2, [3, 2], [False, False])]
    assert lk.protocol.stats["duplicates"] >= 1


def test_roll_made_while_unplugged_arrives_exactly_once(sim: DiceSimulator,
                                                        link: tuple[DiceLink, EventCollector]) -> None:
    _, events = link
    sim.roll(2, 1)
    assert events.wait_for(is_("roll"), WAIT)
    sim.unplug()
    assert events.wait_for(is_("lost"), WAIT)
    sim.roll(4, 4)  # written into a cable that is not there: only the unit's queue keeps it
    sim.roll(6, 5)
    sim.replug()
    assert events.wait_count("roll", 3, WAIT)
    assert sim.wait_until(lambda: sim.pending() == 0, WAIT)
    assert rolls(events) == [(0, [2, 1], [False, False]), (1, [4, 4], [False, False]), (2, [6, 5], [False, False])]
    kinds = [e["event"] for e in events.events]
    assert kinds.index("reconnected") < kinds.index("roll", kinds.index("lost"))


def test_many_unplugs_never_lose_or_repeat_a_roll(sim: DiceSimulator, link: tuple[DiceLink, EventCollector]) -> None:
    _, events = link
    made = []
    for i in range(6):
        d1, d2, seq = sim.roll()
        made.append((seq, [d1, d2], [False, False]))
        if i % 2:
            assert sim.wait_until(lambda: sim.pending() <= 1, WAIT)
            sim.drop_acks = True
        assert events.wait_count("roll", i + 1, WAIT)
        sim.unplug()
        sim.drop_acks = False
        sim.replug()
        assert events.wait_count("reconnected", i + 1, WAIT)
    assert sim.wait_until(lambda: sim.pending() == 0, WAIT)
    assert rolls(events) == made


def test_port_absent_at_start_then_plugged(tmp_path: Path) -> None:
    events = EventCollector()
    path = tmp_path / "gamao-dice"
    with DiceLink(str(path), events):
        lost = events.wait_for(is_("lost"), WAIT)
        assert lost is not None and lost["why"].startswith(f"cannot open {path}:")
        with DiceSimulator(path) as sim:
            assert events.wait_for(is_("reconnected"), WAIT)
            sim.roll(1, 2)
            assert events.wait_for(is_("roll"), WAIT)


def settle(sim: DiceSimulator, link: DiceLink) -> None:
    """Let a frame the unit wrote just before it froze reach the bridge before the fake clock moves on: a
    heartbeat read after ``clock.advance`` would restart the 3 s (the flake seen under load)."""
    with sim._lock:  # the unit's step in progress (maybe a heartbeat going out) is over
        pass
    frames, quiet_since = link.protocol.stats["frames"], time.monotonic()
    deadline = quiet_since + WAIT
    while time.monotonic() - quiet_since < 0.3 and time.monotonic() < deadline:
        time.sleep(0.02)
        if link.protocol.stats["frames"] != frames:
            frames, quiet_since = link.protocol.stats["frames"], time.monotonic()


def test_hung_unit_is_lost_after_3_s_by_the_watchdog(sim: DiceSimulator) -> None:
    clock = FakeClock()
    events = EventCollector()
    with DiceLink(sim.port, events, clock=clock) as link:
        assert events.wait_for(is_("hello"), WAIT)
        sim.frozen = True
        settle(sim, link)
        clock.advance(2.9)
        assert events.wait_for(is_("lost"), 0.3) is None
        clock.advance(0.2)
        assert events.wait_for(is_("lost"), WAIT) == {"event": "lost", "why": "no frame from the unit for 3 s"}
        sim.frozen = False
        clock.advance(0.5)  # lets the bridge ask HELLO? again
        assert events.wait_for(is_("reconnected"), WAIT)


class FlakyProtocol(DiceProtocol):
    failures = 0

    def data_received(self, data: bytes) -> None:
        if self.failures == 0:
            self.failures += 1
            raise RuntimeError("bug in a handler")
        super().data_received(data)


def test_handler_error_is_not_taken_for_a_dead_port(sim: DiceSimulator) -> None:
    events = EventCollector()
    proto = FlakyProtocol(events)
    with DiceLink(sim.port, events, protocol=proto) as lk:
        sim.roll(3, 3)
        assert events.wait_for(is_("roll"), WAIT)
        assert lk.handler_errors == 1
        assert events.of("lost") == []
        assert proto.stats["connections"] == 1


def test_led_command_reaches_the_unit(sim: DiceSimulator, link: tuple[DiceLink, EventCollector]) -> None:
    lk, _ = link
    lk.send_led("COCKED2")
    assert sim.wait_until(lambda: sim.unit.led == "COCKED2", WAIT)


def test_simulator_survives_a_failing_callback(sim: DiceSimulator, link: tuple[DiceLink, EventCollector],
                                               caplog: pytest.LogCaptureFixture) -> None:
    _, events = link

    exploded = threading.Event()

    def explode(payload: str) -> None:
        exploded.set()
        raise RuntimeError("callback bug")

    sim.on_command = explode
    sim.roll(1, 1)
    assert events.wait_for(is_("roll"), WAIT)
    assert exploded.wait(WAIT)
    sim.on_command = None
    assert sim.wait_until(lambda: sim.pending() == 0, WAIT)
    assert "simulated dice unit: error in its main loop" in caplog.text
