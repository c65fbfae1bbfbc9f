"""End to end: the unit's firmware logic -> a real pty -> the bridge -> core.referee -> the verdict lights.

R24: a cocked die means a mandatory re-roll. Only ``roll`` and ``button`` events go to the referee (link
events such as ``hello`` or ``lost`` are the kiosk's business), as the kiosk service does.
"""

from __future__ import annotations

import queue
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from core.referee import Referee
from firmware_bridge.events import EventCollector
from firmware_bridge.gpio import GpioConfig, Panel
from firmware_bridge.link import DiceLink
from firmware_bridge.protocol import unit_led_for_verdict
from firmware_bridge.sim import DiceSimulator

WAIT = 5.0
FOR_REFEREE = ("roll", "button")


class RefereeDesk:
    """The referee behind the bridge and the panel: events go through one queue, as in the kiosk service."""

    def __init__(self) -> None:
        self.referee = Referee()
        self.inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        self.seen = EventCollector()
        self.link: DiceLink | None = None

    def __call__(self, event: dict[str, Any]) -> None:
        self.seen(event)
        if event["event"] in FOR_REFEREE:
            self.inbox.put(event)

    def next_verdicts(self) -> list[dict[str, Any]]:
        return self.referee.feed(self.inbox.get(timeout=WAIT))


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[tuple[DiceSimulator, RefereeDesk, Panel, MockFactory]]:
    factory = MockFactory()
    desk = RefereeDesk()
    with DiceSimulator(tmp_path / "gamao-dice") as sim, DiceLink(sim.port, desk) as link, \
            Panel(GpioConfig(), desk, pin_factory=factory) as panel:
        assert desk.seen.wait_for(lambda e: e["event"] == "hello", WAIT)
        desk.link = link
        yield sim, desk, panel, factory
    factory.reset()


def test_r24_cocked_die_gives_reroll_verdict_end_to_end(rig: tuple[DiceSimulator, RefereeDesk, Panel, MockFactory]) -> None:
    sim, desk, panel, factory = rig
    sim.roll(6, 3, cocked=(False, True))
    verdicts = desk.next_verdicts()
    assert [v["verdict"] for v in verdicts] == ["reroll"]
    assert verdicts[0]["reason"] == "cocked_die" and verdicts[0]["n"] == 2
    assert verdicts[0]["message"]["en"].startswith("Die 2 is cocked")
    panel.show_verdict(verdicts[0])
    assert panel.verdict_shown == "reroll"
    pattern = unit_led_for_verdict(verdicts[0])
    assert pattern == "COCKED2" and desk.link is not None
    desk.link.send_led(pattern)  # the unit blinks die 2
    assert sim.wait_until(lambda: sim.unit.led == "COCKED2", WAIT)
    # The players acknowledge on the Pi's button, roll again, and the game starts.
    factory.pin(24).drive_low()
    factory.pin(24).drive_high()
    assert desk.next_verdicts() == []
    sim.roll(5, 2)
    verdicts = desk.next_verdicts()
    assert [v["verdict"] for v in verdicts] == ["opening"]
    assert verdicts[0]["side"] == "light" and verdicts[0]["dice"] == [5, 2]
    panel.show_verdict(verdicts[0])
    assert factory.pin(13).state == 1 and factory.pin(19).state == 0  # green


def test_roll_before_acknowledging_the_cocked_die_is_rerolled_too(rig: tuple[DiceSimulator, RefereeDesk, Panel, MockFactory]) -> None:
    sim, desk, _, _ = rig
    sim.roll(4, 4, cocked=(True, False))
    assert desk.next_verdicts()[0]["reason"] == "cocked_die"
    sim.roll(6, 1)
    assert [(v["verdict"], v["reason"]) for v in desk.next_verdicts()] == [("reroll", "cocked_die")]
    sim.button("ack_cocked")  # the unit's own acknowledge button works as well
    assert desk.next_verdicts() == []
    sim.roll(6, 1)
    assert [v["verdict"] for v in desk.next_verdicts()] == ["opening"]


def test_no_phantom_roll_for_the_referee_across_an_unplug(rig: tuple[DiceSimulator, RefereeDesk, Panel, MockFactory]) -> None:
    sim, desk, _, _ = rig
    sim.roll(3, 1)
    assert [v["verdict"] for v in desk.next_verdicts()] == ["opening"]
    assert sim.wait_until(lambda: sim.pending() == 0, WAIT)
    sim.drop_acks = True
    sim.roll(2, 2)  # reaches the bridge, its ACK is lost, then the cable is pulled
    assert desk.seen.wait_count("roll", 2, WAIT)
    sim.unplug()
    sim.drop_acks = False
    sim.replug()
    assert desk.seen.wait_for(lambda e: e["event"] == "reconnected", WAIT)
    assert sim.wait_until(lambda: sim.pending() == 0, WAIT)  # the re-sent roll was acknowledged, not re-delivered
    desk.next_verdicts()  # the 2-2 roll
    assert desk.inbox.empty()
    assert [e["seq"] for e in desk.seen.of("roll")] == [0, 1]


def test_r24_tilted_sensor_die_gives_reroll_end_to_end(rig: tuple[DiceSimulator, RefereeDesk, Panel, MockFactory]) -> None:
    # Unit B: die 1 rests flat showing 5 (-X up), die 2 leans 20 degrees against a checker showing 1.
    sim, desk, _, _ = rig
    leaning = (0.342, 0.0, 0.940)  # sin 20, 0, cos 20
    assert sim.throw_sensor_dice((-1.0, 0.0, 0.0), leaning) == (5, 1, False, True)
    assert desk.seen.wait_for(lambda e: e["event"] == "roll", WAIT) == \
        {"event": "roll", "seq": 0, "dice": [5, 1], "cocked": [False, True]}
    assert [(v["verdict"], v["reason"], v["n"]) for v in desk.next_verdicts()] == [("reroll", "cocked_die", 2)]
