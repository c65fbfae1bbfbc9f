"""DiceProtocol with an injected transport and clock: handshake, duplicates, ACK, watchdog, reconnection."""

from __future__ import annotations

from typing import Any

import pytest

from firmware_bridge.framing import crc8, encode_frame
from firmware_bridge.protocol import DiceProtocol
from tests.firmware_bridge.helpers import FakeClock, ListTransport

HELLO = encode_frame("HELLO,1,1.0,GAMAO1,00AA,0")


def make(clock: FakeClock, **kw: Any) -> tuple[DiceProtocol, list[dict[str, Any]], ListTransport]:
    events: list[dict[str, Any]] = []
    proto = DiceProtocol(events.append, clock=clock, **kw)
    transport = ListTransport()
    proto.connection_made(transport)
    return proto, events, transport


def roll(seq: int, d1: int = 6, d2: int = 3, s: str = "F,F") -> bytes:
    return encode_frame(f"ROLL,{seq},{d1},{d2},{s}")


def test_handshake_starts_with_hello_query(clock: FakeClock) -> None:
    proto, events, transport = make(clock)
    assert transport.payloads() == ["HELLO?"]
    proto.data_received(HELLO)
    assert events == [{"event": "hello", "protocol": 1, "firmware": "1.0", "unit": "GAMAO1", "boot": "00AA"}]


def test_roll_is_emitted_then_acknowledged(clock: FakeClock) -> None:
    order: list[str] = []
    transport = ListTransport()
    proto = DiceProtocol(lambda e: order.append(e["event"]), clock=clock)
    transport.write = lambda data: order.append(data.decode().split("*")[0])  # type: ignore[method-assign]
    proto.connection_made(transport)
    proto.data_received(HELLO + roll(7))
    assert order == ["$HELLO?", "hello", "roll", "$ACK,7"]


def test_roll_event_shape(clock: FakeClock) -> None:
    proto, events, _ = make(clock)
    proto.data_received(HELLO + roll(7, 6, 3, "F,C"))
    assert events[-1] == {"event": "roll", "seq": 7, "dice": [6, 3], "cocked": [False, True]}


def test_rolls_before_the_handshake_are_left_for_the_resend(clock: FakeClock) -> None:
    proto, events, transport = make(clock)
    clock.advance(0.6)
    proto.data_received(roll(7))
    assert events == [] and transport.payloads() == ["HELLO?", "HELLO?"]  # asked again, no ACK
    proto.data_received(HELLO + roll(7))
    assert [e["event"] for e in events] == ["hello", "roll"]
    assert transport.payloads()[-1] == "ACK,7"


def test_duplicate_seq_is_dropped_but_acknowledged_again(clock: FakeClock) -> None:
    proto, events, transport = make(clock)
    proto.data_received(HELLO + roll(7) + roll(7) + roll(7, 1, 1) + roll(8, 2, 2) + roll(7))
    assert [e["dice"] for e in events if e["event"] == "roll"] == [[6, 3], [2, 2]]
    assert transport.payloads().count("ACK,7") == 4
    assert proto.stats["duplicates"] == 3


def test_seq_wraps_from_65535_to_0(clock: FakeClock) -> None:
    proto, events, _ = make(clock)
    proto.data_received(HELLO + roll(65535) + roll(0) + roll(65535))
    assert [e["seq"] for e in events if e["event"] == "roll"] == [65535, 0]


def _reconnected(clock: FakeClock, hello: str, then: bytes) -> list[dict[str, Any]]:
    """Roll 5 from the first boot, the line lost and made again, then the unit's `hello` and `then`: the events."""
    proto, events, _ = make(clock)
    proto.data_received(HELLO + roll(5))
    proto.connection_lost(OSError(5, "Input/output error"))
    proto.connection_made(ListTransport())
    proto.data_received(encode_frame(hello) + then)
    return events


def test_new_boot_restarts_numbering(clock: FakeClock) -> None:
    events = _reconnected(clock, "HELLO,1,1.0,GAMAO1,BEEF,0", roll(0))
    assert [e["seq"] for e in events if e["event"] == "roll"] == [5, 0]


def test_same_boot_after_reconnect_keeps_numbering(clock: FakeClock) -> None:
    events = _reconnected(clock, "HELLO,1,1.0,GAMAO1,00AA,6", roll(5) + roll(6))
    assert [e["seq"] for e in events if e["event"] == "roll"] == [5, 6]
    assert [e["event"] for e in events] == ["hello", "roll", "lost", "hello", "reconnected", "roll"]


def test_watchdog_declares_lost_after_3_s_of_silence(clock: FakeClock) -> None:
    proto, events, _ = make(clock)
    proto.data_received(HELLO)
    clock.advance(2.9)
    proto.tick()
    assert events[-1]["event"] == "hello"
    proto.data_received(encode_frame("HB,2900,-"))  # a heartbeat resets the watchdog
    clock.advance(2.9)
    proto.tick()
    assert events[-1]["event"] == "hello"
    clock.advance(0.2)
    proto.tick()
    assert events[-1] == {"event": "lost", "why": "no frame from the unit for 3 s"}
    clock.advance(10)
    proto.tick()
    assert sum(e["event"] == "lost" for e in events) == 1  # said once


def test_unit_back_after_silence_needs_a_new_handshake(clock: FakeClock) -> None:
    proto, events, transport = make(clock)
    proto.data_received(HELLO + roll(1))
    clock.advance(3.5)
    before = len(transport.written)
    proto.tick()
    clock.advance(0.5)
    proto.data_received(roll(2))  # the unit speaks again, but may have rebooted: ask who it is
    assert [e["event"] for e in events] == ["hello", "roll", "lost"]
    assert transport.payloads()[before:] == ["HELLO?", "HELLO?"]  # no ACK,2 yet
    proto.data_received(HELLO + roll(2))
    assert [e["event"] for e in events] == ["hello", "roll", "lost", "hello", "reconnected", "roll"]


def test_port_error_is_lost_at_once_and_clean_close_is_not(clock: FakeClock) -> None:
    proto, events, _ = make(clock)
    proto.connection_lost(None)
    assert events == []
    proto.connection_made(ListTransport())
    proto.connection_lost(OSError(5, "Input/output error"))
    assert events == [{"event": "lost", "why": "port error: [Errno 5] Input/output error"}]


def test_bad_frames_become_rejected_events(clock: FakeClock) -> None:
    proto, events, _ = make(clock)
    proto.data_received(HELLO + b"$ROLL,7,6,3,F,F*00\r\n" + encode_frame("ROLL,8,0,3,F,F"))
    assert events[1:] == [
        {"event": "rejected", "why": f"bad CRC: frame says 00, payload gives {crc8(b'ROLL,7,6,3,F,F'):02X}"},
        {"event": "rejected", "why": "die 1 is 0, not 1-6 in 'ROLL,8,0,3,F,F'"},
    ]


def test_wrong_protocol_version_is_refused(clock: FakeClock) -> None:
    proto, events, _ = make(clock)
    proto.data_received(encode_frame("HELLO,2,9.0,X") + roll(1))
    assert events == [{"event": "rejected", "why": "unit speaks protocol 2, this bridge speaks 1"}]


def test_unit_buttons_and_errors(clock: FakeClock) -> None:
    proto, events, transport = make(clock)
    proto.data_received(HELLO + encode_frame("BTN,1,ack_cocked") + encode_frame("BTN,1,ack_cocked")
                        + encode_frame("ERR,3,queue full"))
    assert events[1:] == [{"event": "button", "name": "ack_cocked", "source": "unit"},
                          {"event": "unit_error", "code": 3, "text": "queue full"}]
    assert transport.payloads()[-2:] == ["ACK,1", "ACK,1"]


def test_a_failing_consumer_does_not_cost_the_next_roll(clock: FakeClock) -> None:
    seen: list[int] = []

    def consumer(event: dict[str, Any]) -> None:
        if event["event"] == "roll":
            seen.append(event["seq"])
            if event["seq"] == 1:
                raise RuntimeError("consumer bug")

    proto = DiceProtocol(consumer, clock=clock)
    proto.connection_made(ListTransport())
    proto.data_received(HELLO + roll(1) + roll(2))
    assert seen == [1, 2] and proto.stats["sink_errors"] == 1


def test_heartbeats_are_events_only_when_asked(clock: FakeClock) -> None:
    proto, events, _ = make(clock, heartbeats=True)
    proto.data_received(HELLO + encode_frame("HB,1500,76"))
    assert events[-1] == {"event": "heartbeat", "uptime_ms": 1500, "battery": 76}


def test_led_patterns(clock: FakeClock) -> None:
    proto, _, transport = make(clock)
    proto.send_led("COCKED1")
    assert transport.written[-1] == encode_frame("LED,COCKED1")
    with pytest.raises(ValueError, match="LED pattern 'PINK' is unknown; use one of OFF, ON, BLINK"):
        proto.send_led("PINK")


@pytest.mark.parametrize(
    ("verdict", "pattern"),
    [
        ({"verdict": "reroll", "reason": "cocked_die", "n": 1}, "COCKED1"),
        ({"verdict": "reroll", "reason": "cocked_die", "n": 2}, "COCKED2"),
        ({"verdict": "reroll", "reason": "cocked_die"}, "COCKED12"),
        ({"verdict": "reroll", "reason": "tied_opening"}, "BLINK"),
        ({"verdict": "opening", "side": "light"}, "ON"),
        ({"verdict": "play", "side": "light"}, "ROLLING"),
        ({"verdict": "in_progress"}, None),
    ],
)
def test_r24_unit_leds_follow_verdicts(verdict: dict[str, Any], pattern: str | None) -> None:
    from firmware_bridge.protocol import LED_PATTERNS, unit_led_for_verdict

    assert unit_led_for_verdict(verdict) == pattern
    assert pattern is None or pattern in LED_PATTERNS


def test_uptime_going_back_means_the_unit_restarted(clock: FakeClock) -> None:
    # A unit without a boot id (the 4-field HELLO) reset behind an open port: its seq starts at 0 again.
    proto, events, transport = make(clock)
    proto.data_received(encode_frame("HELLO,1,1.0,OLD1") + roll(5) + encode_frame("HB,9000,-"))
    proto.data_received(encode_frame("HB,40,-") + roll(0))
    assert [e.get("seq") for e in events if e["event"] == "roll"] == [5]  # held back, not dropped as old
    assert transport.payloads()[-1] == "HELLO?" and "ACK,0" not in transport.payloads()
    proto.data_received(encode_frame("HELLO,1,1.0,OLD1") + roll(0))
    assert [e.get("seq") for e in events if e["event"] == "roll"] == [5, 0]


def test_uptime_wrap_after_49_days_is_not_a_restart(clock: FakeClock) -> None:
    proto, events, _ = make(clock)
    proto.data_received(HELLO + roll(5) + encode_frame(f"HB,{2**32 - 500},-") + encode_frame("HB,500,-") + roll(6))
    assert [e.get("seq") for e in events if e["event"] == "roll"] == [5, 6]


def test_hello_with_an_older_last_seq_restarts_numbering(clock: FakeClock) -> None:
    events = _reconnected(clock, "HELLO,1,1.0,GAMAO1,00AA,1", roll(2))
    assert [e["seq"] for e in events if e["event"] == "roll"] == [5, 2]


def test_unsolicited_hello_with_a_new_boot_is_announced(clock: FakeClock) -> None:
    proto, events, _ = make(clock)
    proto.data_received(HELLO + roll(9) + encode_frame("HELLO,1,1.0,GAMAO1,BEEF,65535") + roll(0))
    assert [e["event"] for e in events] == ["hello", "roll", "hello", "roll"]
    assert events[2]["boot"] == "BEEF"


def test_a_roll_the_sink_cannot_record_is_not_acknowledged_and_is_taken_when_resent(clock: FakeClock) -> None:
    """Disk full on the kiosk: the sink raises NotHandedOn; no ACK, so the unit re-sends; taken once it can."""
    from firmware_bridge.protocol import NotHandedOn

    full = True
    taken: list[int] = []

    def sink(event: dict[str, Any]) -> None:
        if event["event"] in ("roll", "button"):
            if full:
                raise NotHandedOn("disk full")
            taken.append(event.get("seq", -1))

    transport = ListTransport()
    proto = DiceProtocol(sink, clock=clock)
    proto.connection_made(transport)
    proto.data_received(HELLO + roll(4) + roll(4) + encode_frame("BTN,5,ack_cocked"))
    assert "ACK,4" not in transport.payloads() and "ACK,5" not in transport.payloads()
    assert proto.stats["not_handed_on"] == 3 and proto.stats["duplicates"] == 0 and taken == []
    full = False
    proto.data_received(roll(4) + roll(4))  # the re-send, then a duplicate (our ACK lost)
    assert taken == [4] and transport.payloads().count("ACK,4") == 2 and proto.stats["duplicates"] == 1
