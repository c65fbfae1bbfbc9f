"""Buttons, lights and a buzzer on the Pi's GPIO, through gpiozero (any pin factory; tests use MockFactory).

Buttons become ``{"event": "button", "name": ...}`` events (``"side"`` added for per-side end-turn buttons).
Debouncing is our own state machine, not gpiozero's ``bounce_time``: a press is an event only when the button
was released before, so repeated or bouncing edges are idempotent. Lights follow the referee's verdicts
(``show_verdict``) and whose turn it is (``show_turn``). Wiring: ``hardware/wiring.md``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

from firmware_bridge.protocol import EventSink

log = logging.getLogger(__name__)

BUTTON_NAMES = ("end_turn", "end_turn_light", "end_turn_dark", "double", "take", "drop", "ack_cocked")
RELEASE_MS = 50  # a release must last this long before the next press counts (contact bounce is shorter)

GREEN = {"play", "roll", "opening", "cube"}
GREEN_BLINK = {"game_over", "match_over"}
AMBER = {"in_progress", "uncertain"}  # green and red together light a bicolour LED amber
AMBER_BLINK = {"reroll"}
RED_BLINK = {"illegal", "unplayed_die", "write_failed"}  # write_failed: the kiosk cannot record (disk full)


class GpioConfigError(ValueError):
    """The pin configuration is wrong; the message says which key and what to do."""


@dataclass(frozen=True)
class GpioConfig:
    """BCM GPIO numbers (2-27); ``None`` (``false`` in TOML) leaves a part out. One shared ``end_turn`` or one
    per side."""

    end_turn: int | None = 17
    end_turn_light: int | None = None
    end_turn_dark: int | None = None
    double: int | None = 27
    take: int | None = 22
    drop: int | None = 23
    ack_cocked: int | None = 24
    led_turn_light: int | None = 5
    led_turn_dark: int | None = 6
    led_verdict_green: int | None = 13
    led_verdict_red: int | None = 19
    buzzer: int | None = 26

    def __post_init__(self) -> None:
        used: dict[int, str] = {}
        for f in fields(self):
            pin = getattr(self, f.name)
            if pin is None:
                continue
            if not isinstance(pin, int) or isinstance(pin, bool) or not 2 <= pin <= 27:
                raise GpioConfigError(f"gpio.{f.name} = {pin!r}: use a BCM GPIO number from 2 to 27, or false to leave it out")
            if pin in used:
                raise GpioConfigError(f"gpio.{f.name} and gpio.{used[pin]} both use GPIO{pin}; give each its own pin")
            used[pin] = f.name
        per_side = (self.end_turn_light is not None, self.end_turn_dark is not None)
        if any(per_side) and not all(per_side):
            raise GpioConfigError("set both gpio.end_turn_light and gpio.end_turn_dark, or neither")
        if all(per_side) and self.end_turn is not None:
            raise GpioConfigError("use either gpio.end_turn (shared) or gpio.end_turn_light/_dark, not both")

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GpioConfig:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise GpioConfigError(f"unknown gpio setting(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
        # TOML has no null: false, "none" or "off" leave a part out as well.
        return cls(**{k: None if v is False or (isinstance(v, str) and v.lower() in ("none", "off", "")) else v
                      for k, v in data.items()})

    def to_dict(self) -> dict[str, int | None]:
        return asdict(self)


class Debounce:
    """RELEASED -press-> PRESSED (one event) -release-> RELEASING -(RELEASE_MS quiet)-> RELEASED.

    A press while PRESSED changes nothing; a press while RELEASING is a bounce (back to PRESSED, no event),
    unless the release lasted ``release_ms``. Feeding the same edge twice never makes a second event.
    """

    def __init__(self, release_ms: float = RELEASE_MS, clock: Callable[[], float] = time.monotonic) -> None:
        self.release_s = release_ms / 1000
        self.clock = clock
        self.state = "released"
        self._since = 0.0

    def press(self) -> bool:
        now = self.clock()
        if self.state == "pressed":
            return False
        if self.state == "releasing" and now - self._since < self.release_s:
            self.state = "pressed"
            return False
        self.state = "pressed"
        return True

    def release(self) -> None:
        if self.state == "pressed":
            self.state = "releasing"
            self._since = self.clock()


class Panel:
    """The players' buttons and lights. ``on_event`` is called from gpiozero's callback thread."""

    def __init__(
        self,
        config: GpioConfig | Mapping[str, Any],
        on_event: EventSink,
        *,
        pin_factory: Any = None,
        clock: Callable[[], float] = time.monotonic,
        release_ms: float = RELEASE_MS,
    ) -> None:
        from gpiozero import LED, Button, Buzzer  # imported here: the kiosk starts without GPIO libraries

        self.config = config if isinstance(config, GpioConfig) else GpioConfig.from_dict(config)
        self.on_event = on_event
        self.buttons: dict[str, Any] = {}
        self.debounce: dict[str, Debounce] = {}
        self.turn: str | None = None
        self.verdict_shown: str | None = None
        self._verdict_key: tuple[Any, str] | None = None
        self._closed = False
        cfg = self.config
        try:
            for name in BUTTON_NAMES:
                pin = getattr(cfg, name)
                if pin is None:
                    continue
                button = Button(pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)
                self.debounce[name] = Debounce(release_ms, clock)
                button.when_pressed = self._callback(name, pressed=True)
                button.when_released = self._callback(name, pressed=False)
                self.buttons[name] = button

            def led(pin: int | None) -> Any:
                return None if pin is None else LED(pin, pin_factory=pin_factory)

            self.led_turn_light = led(cfg.led_turn_light)
            self.led_turn_dark = led(cfg.led_turn_dark)
            self.led_green = led(cfg.led_verdict_green)
            self.led_red = led(cfg.led_verdict_red)
            self.buzzer = None if cfg.buzzer is None else Buzzer(cfg.buzzer, pin_factory=pin_factory)
        except Exception:
            self.close()
            raise

    # ---- buttons ---------------------------------------------------------------------------------------

    def _callback(self, name: str, pressed: bool) -> Callable[[], None]:
        def handler() -> None:
            if pressed:
                self.press(name)
            else:
                self.debounce[name].release()

        return handler

    def press(self, name: str) -> None:
        """A press edge on button ``name`` (also usable from a touch screen or keyboard)."""
        if not self.debounce[name].press():
            return
        event: dict[str, Any] = {"event": "button", "name": name}
        if name in ("end_turn_light", "end_turn_dark"):
            event = {"event": "button", "name": "end_turn", "side": name.rsplit("_", 1)[1]}
        try:
            self.on_event(event)
        except Exception:
            log.exception("button event consumer failed on %r", event)

    # ---- lights ----------------------------------------------------------------------------------------

    def show_turn(self, side: str | None) -> None:
        """Light the LED of the side on roll (``"light"`` / ``"dark"``); ``None`` turns both off."""
        if side not in ("light", "dark", None):
            raise ValueError(f"side {side!r} is not 'light', 'dark' or None")
        self.turn = side
        for led, mine in ((self.led_turn_light, "light"), (self.led_turn_dark, "dark")):
            if led is not None:
                led.on() if side == mine else led.off()

    def show_verdict(self, verdict: Mapping[str, Any]) -> None:
        """Show a referee verdict: green legal, amber in progress or re-roll, red blinking and a buzz if illegal."""
        name = str(verdict.get("verdict"))
        key = (verdict.get("at"), name)
        if key == self._verdict_key:
            return  # the same verdict pushed again with a new state: no second buzz, no restarted blink
        self._verdict_key = key
        if name in GREEN:
            self._verdict_lights(green="on", red="off")
        elif name in GREEN_BLINK:
            self._verdict_lights(green="blink", red="off")
        elif name in AMBER:
            self._verdict_lights(green="on", red="on")
        elif name in AMBER_BLINK:
            self._verdict_lights(green="blink", red="blink")
            self._beep(1)
        elif name in RED_BLINK:
            self._verdict_lights(green="off", red="blink")
            self._beep(2)
        else:
            log.debug("verdict %r has no light", name)
            return
        self.verdict_shown = name

    def show_wait(self, on: bool) -> None:
        """The coach's "wait" (issue 24): the verdict lights blink amber, no buzz, while the tutor judges the play
        on the board; off again, the last verdict's lights come back."""
        if on:
            self._verdict_lights(green="blink", red="blink")
            return
        shown = self.verdict_shown
        lights = (("on", "off") if shown in GREEN else ("blink", "off") if shown in GREEN_BLINK
                  else ("on", "on") if shown in AMBER else ("blink", "blink") if shown in AMBER_BLINK
                  else ("off", "blink") if shown in RED_BLINK else ("off", "off"))
        self._verdict_lights(green=lights[0], red=lights[1])  # no second buzz

    def clear_verdict(self) -> None:
        self._verdict_key = None
        self._verdict_lights(green="off", red="off")
        self.verdict_shown = None

    def _verdict_lights(self, green: str, red: str) -> None:
        for led, how in ((self.led_green, green), (self.led_red, red)):
            if led is None:
                continue
            if how == "blink":
                led.blink(on_time=0.25, off_time=0.25, background=True)
            elif how == "on":
                led.on()
            else:
                led.off()

    def _beep(self, times: int) -> None:
        if self.buzzer is not None:
            self.buzzer.beep(on_time=0.12, off_time=0.1, n=times, background=True)

    # ---- lifecycle -------------------------------------------------------------------------------------

    def close(self) -> None:
        """Release every pin; safe to call twice."""
        if self._closed:
            return
        self._closed = True
        devices = list(self.buttons.values())
        devices += [getattr(self, n, None) for n in ("led_turn_light", "led_turn_dark", "led_green", "led_red", "buzzer")]
        for device in devices:
            if device is not None:
                device.close()

    def __enter__(self) -> Panel:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
