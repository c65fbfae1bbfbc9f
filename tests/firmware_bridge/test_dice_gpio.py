"""Buttons, lights and buzzer with gpiozero's MockFactory: debounce state machine, events, verdict lights."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from firmware_bridge.gpio import Debounce, GpioConfig, GpioConfigError, Panel
from tests.firmware_bridge.helpers import FakeClock


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory()
    yield f
    f.reset()


def make_panel(factory: MockFactory, clock: FakeClock, **config: Any) -> tuple[Panel, list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    return Panel(GpioConfig(**config), events.append, pin_factory=factory, clock=clock), events


def push(factory: MockFactory, pin: int) -> None:
    factory.pin(pin).drive_low()
    factory.pin(pin).drive_high()


def test_each_button_makes_its_event(factory: MockFactory, clock: FakeClock) -> None:
    panel, events = make_panel(factory, clock)
    with panel:
        for pin in (17, 27, 22, 23, 24):
            push(factory, pin)
            clock.advance(1)
    assert [e["name"] for e in events] == ["end_turn", "double", "take", "drop", "ack_cocked"]
    assert events[0] == {"event": "button", "name": "end_turn"}


def test_per_side_end_turn_buttons(factory: MockFactory, clock: FakeClock) -> None:
    panel, events = make_panel(factory, clock, end_turn=None, end_turn_light=20, end_turn_dark=21)
    with panel:
        push(factory, 21)
        push(factory, 20)
    assert events == [{"event": "button", "name": "end_turn", "side": "dark"},
                      {"event": "button", "name": "end_turn", "side": "light"}]


def test_bouncing_contact_is_one_press(factory: MockFactory, clock: FakeClock) -> None:
    panel, events = make_panel(factory, clock)
    pin = factory.pin(17)
    with panel:
        for _ in range(5):  # a bouncing contact: edges 2 ms apart
            pin.drive_low()
            clock.advance(0.002)
            pin.drive_high()
            clock.advance(0.002)
        pin.drive_low()
        clock.advance(1.0)  # held
        pin.drive_high()
        clock.advance(0.2)  # released long enough
        pin.drive_low()
    assert [e["name"] for e in events] == ["end_turn", "end_turn"]


def test_debounce_machine_is_idempotent() -> None:
    clock = FakeClock()
    d = Debounce(release_ms=50, clock=clock)
    assert d.press() is True
    assert d.press() is False and d.press() is False  # the same edge again: nothing
    d.release()
    d.release()
    clock.advance(0.01)
    assert d.press() is False  # a bounce
    d.release()
    clock.advance(0.06)
    assert d.press() is True


def test_turn_lights(factory: MockFactory, clock: FakeClock) -> None:
    panel, _ = make_panel(factory, clock)
    with panel:
        panel.show_turn("light")
        assert (panel.led_turn_light.is_lit, panel.led_turn_dark.is_lit) == (True, False)
        panel.show_turn("dark")
        assert (panel.led_turn_light.is_lit, panel.led_turn_dark.is_lit) == (False, True)
        assert factory.pin(6).state == 1 and factory.pin(5).state == 0
        panel.show_turn(None)
        assert not panel.led_turn_light.is_lit and not panel.led_turn_dark.is_lit
        with pytest.raises(ValueError, match="side 'white' is not 'light', 'dark' or None"):
            panel.show_turn("white")


def wait_toggles(pin: Any, count: int, timeout: float = 5.0) -> bool:
    done = threading.Event()
    deadline = threading.Timer(timeout, done.set)
    deadline.start()
    try:
        while not done.is_set():
            if len(pin.states) >= count:
                return True
            done.wait(0.01)
        return False
    finally:
        deadline.cancel()


def test_verdict_lights(factory: MockFactory, clock: FakeClock) -> None:
    panel, _ = make_panel(factory, clock)
    green, red, buzzer = factory.pin(13), factory.pin(19), factory.pin(26)
    with panel:
        panel.show_verdict({"at": 3, "verdict": "play", "side": "light", "play": "13/7 8/7"})
        assert (green.state, red.state) == (1, 0)
        panel.show_verdict({"at": 4, "verdict": "in_progress"})
        assert (green.state, red.state) == (1, 1)  # amber on a bicolour LED
        red.clear_states()
        buzzer.clear_states()
        panel.show_verdict({"at": 5, "verdict": "illegal", "reason": "closed_point"})
        assert panel.verdict_shown == "illegal"
        assert wait_toggles(red, 4), red.states  # blinking
        assert wait_toggles(buzzer, 4), buzzer.states  # two beeps: on, off, on, off
        panel.show_verdict({"at": 6, "verdict": "something_new"})
        assert panel.verdict_shown == "illegal"  # unknown verdicts leave the lights alone
        panel.clear_verdict()
        assert (green.state, red.state) == (0, 0)


def test_r24_reroll_verdict_blinks_amber_and_beeps_once(factory: MockFactory, clock: FakeClock) -> None:
    panel, _ = make_panel(factory, clock)
    green, red, buzzer = factory.pin(13), factory.pin(19), factory.pin(26)
    with panel:
        for pin in (green, red, buzzer):
            pin.clear_states()
        panel.show_verdict({"at": 2, "verdict": "reroll", "reason": "cocked"})
        assert wait_toggles(green, 3) and wait_toggles(red, 3)
        assert wait_toggles(buzzer, 3)
        panel.clear_verdict()
    assert [s.state for s in buzzer.states][:3] == [False, True, False]


def test_close_twice_and_pins_are_free_again(factory: MockFactory, clock: FakeClock) -> None:
    panel, _ = make_panel(factory, clock)
    panel.close()
    panel.close()
    panel2, _ = make_panel(factory, clock)
    panel2.close()


def test_config_from_dict_and_errors() -> None:
    assert GpioConfig.from_dict({"double": 16}).double == 16
    assert GpioConfig.from_dict({"buzzer": False, "take": "none", "drop": None}).to_dict()["buzzer"] is None
    with pytest.raises(GpioConfigError) as info:
        GpioConfig.from_dict({"dubble": 16})
    assert str(info.value).startswith("unknown gpio setting(s) dubble; known: ack_cocked, buzzer, double")
    cases = [
        ({"take": 40}, "gpio.take = 40: use a BCM GPIO number from 2 to 27, or false to leave it out"),
        ({"take": 17}, "gpio.take and gpio.end_turn both use GPIO17; give each its own pin"),
        ({"end_turn": None, "end_turn_light": 20}, "set both gpio.end_turn_light and gpio.end_turn_dark, or neither"),
        ({"end_turn_light": 20, "end_turn_dark": 21},
         "use either gpio.end_turn (shared) or gpio.end_turn_light/_dark, not both"),
    ]
    for data, message in cases:
        with pytest.raises(GpioConfigError) as info:
            GpioConfig.from_dict(data)
        assert str(info.value) == message


def test_failing_consumer_does_not_break_the_button(factory: MockFactory, clock: FakeClock) -> None:
    calls: list[str] = []

    def consumer(event: dict[str, Any]) -> None:
        calls.append(event["name"])
        raise RuntimeError("bug")

    with Panel(GpioConfig(), consumer, pin_factory=factory, clock=clock):
        push(factory, 22)
        clock.advance(1)
        push(factory, 22)
    assert calls == ["take", "take"]


def test_the_same_verdict_pushed_again_does_not_buzz_again(factory: MockFactory, clock: FakeClock) -> None:
    panel, _ = make_panel(factory, clock)
    buzzer = factory.pin(26)
    with panel:
        verdict = {"at": 7, "verdict": "illegal", "reason": "closed_point"}
        panel.show_verdict(verdict)
        assert wait_toggles(buzzer, 5)  # two beeps done: off, on, off, on, off
        buzzer.clear_states()
        panel.show_verdict(dict(verdict))  # the kiosk pushes its whole state on every change
        panel.show_verdict({"at": 7, "verdict": "illegal", "reason": "closed_point"})
        assert len(buzzer.states) == 1
        panel.show_verdict({"at": 9, "verdict": "illegal", "reason": "wrong_distance"})
        assert wait_toggles(buzzer, 3)  # a new verdict buzzes
