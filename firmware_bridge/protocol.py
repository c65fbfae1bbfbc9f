"""The host side of the dice protocol, in the manner of pyserial's ``serial.threaded.Protocol``.

``DiceProtocol`` owns no thread and no port: whoever drives it (``firmware_bridge.link.DiceLink`` on a real
port, a test with a list as transport) calls ``connection_made``, ``data_received``, ``connection_lost`` and,
often, ``tick`` for the watchdog. Time comes from an injected clock, so the watchdog is tested without sleeping.

Guarantees: a roll is handed on at most once per unit boot (sequence numbers, 16-bit, compared in serial
order), it is acknowledged only after it was handed on (so a crash in between costs a re-send, never a roll),
and nothing but a well-formed ``ROLL`` with a good CRC after a handshake ever becomes a roll event. A sink that
cannot take a roll now (the kiosk's disk is full) raises ``NotHandedOn``: the roll is not acknowledged, so the
unit keeps re-sending it until it is taken.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, Protocol

from firmware_bridge.framing import (
    PROTOCOL_VERSION,
    Button,
    FrameParser,
    Heartbeat,
    Hello,
    MessageError,
    Rejected,
    Roll,
    UnitError,
    encode_frame,
    parse_device_message,
    seq_newer,
)

log = logging.getLogger(__name__)

Event = dict[str, Any]
EventSink = Callable[[Event], None]


class NotHandedOn(Exception):  # noqa: N818 (a refusal, not an error of ours)
    """Raised by an event sink that cannot take a roll or button now (its journal cannot be written): the frame
    is not acknowledged, so the unit keeps it and re-sends it every 0.5 s until the sink takes it."""

SILENCE_LIMIT = 3.0  # seconds without a good frame before the unit is declared lost (heartbeat is 1 s)
HELLO_RETRY = 0.5  # seconds between HELLO? queries while no handshake is done
LED_PATTERNS = ("OFF", "ON", "BLINK", "ROLLING", "COCKED1", "COCKED2", "COCKED12", "LOST", "ERROR")


def unit_led_for_verdict(verdict: dict[str, Any]) -> str | None:
    """The LED pattern the dice unit should show after a referee verdict, or None to leave it.

    >>> unit_led_for_verdict({"verdict": "reroll", "reason": "cocked_die", "n": 2})
    'COCKED2'
    """
    name = verdict.get("verdict")
    if name == "reroll":
        if verdict.get("reason") == "cocked_die":
            return {1: "COCKED1", 2: "COCKED2"}.get(verdict.get("n", 0), "COCKED12")
        return "BLINK"
    if name in ("roll", "opening"):
        return "ON"
    if name in ("play", "game_over", "match_over"):
        return "ROLLING"  # the next player may roll
    return None


class Transport(Protocol):
    def write(self, data: bytes) -> object: ...


class DiceProtocol:
    """Parse frames, drop duplicates, acknowledge, watch the heartbeat, and hand events to ``on_event``.

    Events are dicts: ``hello``, ``roll``, ``button``, ``lost``, ``reconnected``, ``rejected``,
    ``unit_error`` and, with ``heartbeats=True``, ``heartbeat``.
    """

    def __init__(
        self,
        on_event: EventSink,
        *,
        clock: Callable[[], float] = time.monotonic,
        silence_limit: float = SILENCE_LIMIT,
        hello_retry: float = HELLO_RETRY,
        heartbeats: bool = False,
    ) -> None:
        self.on_event = on_event
        self.clock = clock
        self.silence_limit = silence_limit
        self.hello_retry = hello_retry
        self.heartbeats = heartbeats
        self.parser = FrameParser()
        self.transport: Transport | None = None
        self.handshaken = False
        self.lost = False
        self.unit: str | None = None
        self.boot: str | None = None
        self.last_seq: int | None = None
        self.battery: int | None = None
        self._uptime: int | None = None
        self._rebooted = False
        self._last_frame_at = 0.0
        self._hello_sent_at = float("-inf")
        self.stats = {
            "frames": 0, "rolls": 0, "buttons": 0, "duplicates": 0, "rejected": 0, "before_hello": 0,
            "heartbeats": 0, "sink_errors": 0, "connections": 0, "lost": 0, "reconnected": 0,
            "not_handed_on": 0,
        }

    # ---- serial.threaded-style entry points ----------------------------------------------------------

    def connection_made(self, transport: Transport) -> None:
        self.transport = transport
        self.parser.reset()
        self.handshaken = False
        self._uptime = None
        self.stats["connections"] += 1
        self._last_frame_at = self.clock()
        self._send_hello_query(force=True)

    def data_received(self, data: bytes) -> None:
        for item in self.parser.feed(data):
            if isinstance(item, Rejected):
                self._reject(item.why)
            else:
                self.handle_line(item.payload)

    def handle_line(self, payload: str) -> None:
        """Handle the payload of one frame whose CRC was good."""
        try:
            message = parse_device_message(payload)
        except MessageError as exc:
            self._reject(f"{exc} in {payload[:40]!r}")
            return
        self.stats["frames"] += 1
        self._last_frame_at = self.clock()
        if isinstance(message, Hello):
            self._on_hello(message)
        elif not self.handshaken:
            # Until the unit said who it is (and which boot), its sequence numbers mean nothing to us:
            # leave rolls unacknowledged, the unit re-sends them, and ask again.
            if isinstance(message, Roll | Button):
                self.stats["before_hello"] += 1
            self._send_hello_query()
        elif isinstance(message, Roll):
            previous = self.last_seq
            if self._is_new(message.seq):
                if not self._hand_on({"event": "roll", "seq": message.seq, "dice": list(message.dice),
                                      "cocked": list(message.cocked)}, previous):
                    return
                self.stats["rolls"] += 1
            self._send(f"ACK,{message.seq}")
        elif isinstance(message, Button):
            previous = self.last_seq
            if self._is_new(message.seq):
                if not self._hand_on({"event": "button", "name": message.name, "source": "unit"}, previous):
                    return
                self.stats["buttons"] += 1
            self._send(f"ACK,{message.seq}")
        elif isinstance(message, Heartbeat):
            self.stats["heartbeats"] += 1
            self.battery = message.battery
            self._check_uptime(message.uptime_ms)
            if self.heartbeats:
                self._emit({"event": "heartbeat", "uptime_ms": message.uptime_ms, "battery": message.battery})
        elif isinstance(message, UnitError):
            self._emit({"event": "unit_error", "code": message.code, "text": message.text})

    def connection_lost(self, exc: BaseException | None) -> None:
        """The port closed; ``exc`` is the I/O error, or None when we closed it on purpose."""
        self.transport = None
        self.parser.reset()
        self.handshaken = False
        if exc is not None:
            self._declare_lost(f"port error: {exc}")

    def tick(self) -> None:
        """Run the watchdog and the handshake retry; call it a few times a second."""
        if self.transport is None:
            return
        if not self.lost and self.clock() - self._last_frame_at > self.silence_limit:
            self.handshaken = False
            self._declare_lost(f"no frame from the unit for {self.silence_limit:g} s")
        if not self.handshaken:
            self._send_hello_query()

    # ---- commands to the unit -------------------------------------------------------------------------

    def send_led(self, pattern: str) -> None:
        if pattern not in LED_PATTERNS:
            raise ValueError(f"LED pattern {pattern!r} is unknown; use one of {', '.join(LED_PATTERNS)}")
        self._send(f"LED,{pattern}")

    def declare_lost(self, why: str) -> None:
        """Let the driver report a unit it cannot reach (e.g. the port cannot be opened)."""
        self._declare_lost(why)

    # ---- internals -------------------------------------------------------------------------------------

    def _on_hello(self, hello: Hello) -> None:
        if hello.protocol != PROTOCOL_VERSION:
            self._reject(f"unit speaks protocol {hello.protocol}, this bridge speaks {PROTOCOL_VERSION}")
            return
        changed = hello.unit != self.unit or (hello.boot is not None and hello.boot != self.boot)
        # Seq numbering restarts with another unit, a fresh boot (new boot id, or the uptime went back), or a
        # unit whose last seq is older than one we already have (it cannot be the same run of numbers).
        if (changed or self._rebooted
                or (hello.last_seq is not None and self.last_seq is not None and seq_newer(self.last_seq, hello.last_seq))):
            if self.unit is not None:
                log.info("unit %s boot %s replaces %s boot %s", hello.unit, hello.boot, self.unit, self.boot)
            self.last_seq = None
            self._uptime = None  # a new run's uptime starts again: not a restart
        self._rebooted = False
        first_handshake = not self.handshaken
        self.unit, self.boot, self.handshaken = hello.unit, hello.boot, True
        if first_handshake or changed:
            self._emit({"event": "hello", "protocol": hello.protocol, "firmware": hello.firmware,
                        "unit": hello.unit, "boot": hello.boot})
        if self.lost:
            self.lost = False
            self.stats["reconnected"] += 1
            self._emit({"event": "reconnected"})

    def _check_uptime(self, uptime_ms: int) -> None:
        previous, self._uptime = self._uptime, uptime_ms
        if previous is not None and uptime_ms < previous and previous - uptime_ms < 2**31:  # not the 49-day wrap
            # The unit restarted behind an open port (a reset, a brown-out): its numbering starts again, so
            # take no roll until it has said hello again.
            log.info("unit %s uptime went back from %d to %d ms: restarted", self.unit, previous, uptime_ms)
            self._rebooted = True
            self.handshaken = False
            self._send_hello_query(force=True)

    def _is_new(self, seq: int) -> bool:
        if self.last_seq is not None and not seq_newer(seq, self.last_seq):
            self.stats["duplicates"] += 1
            return False
        self.last_seq = seq
        return True

    def _declare_lost(self, why: str) -> None:
        if self.lost:
            return
        self.lost = True
        self.stats["lost"] += 1
        self._emit({"event": "lost", "why": why})

    def _reject(self, why: str) -> None:
        self.stats["rejected"] += 1
        self._emit({"event": "rejected", "why": why})

    def _send_hello_query(self, force: bool = False) -> None:
        now = self.clock()
        if force or now - self._hello_sent_at >= self.hello_retry:
            self._hello_sent_at = now
            self._send("HELLO?")

    def _send(self, payload: str) -> None:
        if self.transport is not None:
            self.transport.write(encode_frame(payload))

    def _hand_on(self, event: Event, previous: int | None) -> bool:
        """Hand a roll/button on; False (and the frame stays new, unacknowledged) when the sink refused it."""
        try:
            self.on_event(event)
        except NotHandedOn as exc:
            self.last_seq = previous
            self.stats["not_handed_on"] += 1
            log.warning("%s %s not acknowledged: %s", event["event"], event.get("seq", ""), exc)
            return False
        except Exception:
            self.stats["sink_errors"] += 1
            log.exception("event consumer failed on %r", event)
        return True

    def _emit(self, event: Event) -> None:
        # The consumer's errors are its own: one failing event must not cost the rolls after it.
        try:
            self.on_event(event)
        except Exception:
            self.stats["sink_errors"] += 1
            log.exception("event consumer failed on %r", event)
