"""The wire format: CRC-8 vectors, framing, resynchronisation on '$', message fields."""

from __future__ import annotations

import pytest

from firmware_bridge.framing import (
    MAX_LINE,
    Button,
    FrameParser,
    Heartbeat,
    Hello,
    Line,
    MessageError,
    Rejected,
    Roll,
    UnitError,
    crc8,
    encode_frame,
    parse_device_message,
    seq_newer,
)


@pytest.mark.parametrize(
    ("data", "crc"),
    [
        (b"", 0x00),
        (b"\x00", 0x00),
        (b"\x01", 0x07),
        (b"\x80", 0x89),
        (b"\xff", 0xF3),
        (b"123456789", 0xF4),  # the CRC-8/SMBUS check value (poly 0x07, init 0)
        (b"HELLO?", 0x36)  # by long division of the message times x^8 by x^8+x^2+x+1,
    ],
)
def test_crc8_vectors(data: bytes, crc: int) -> None:
    assert crc8(data) == crc


def test_crc8_matches_bitwise_definition() -> None:
    def slow(data: bytes) -> int:
        crc = 0
        for byte in data:
            crc ^= byte
            for _ in range(8):
                crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
        return crc

    for n in range(256):
        data = bytes((n, (n * 7) & 0xFF, 0x2C))
        assert crc8(data) == slow(data)


def test_encode_frame_layout() -> None:
    assert encode_frame("ROLL,7,6,3,F,F") == b"$ROLL,7,6,3,F,F*%02X\r\n" % crc8(b"ROLL,7,6,3,F,F")
    assert encode_frame("ACK,7") == b"$ACK,7*B6\r\n"


def test_encode_frame_refuses_separators() -> None:
    with pytest.raises(ValueError, match=r"payload 'A\*B' may only hold printable ASCII without '\$' or '\*'"):
        encode_frame("A*B")


def test_noise_before_a_frame_does_not_cost_the_frame() -> None:
    parser = FrameParser()
    assert parser.feed(b"\x00\xffgarbage\r\n" + encode_frame("HB,1000,-")) == [Line("HB,1000,-")]
    assert parser.noise == 11


def test_a_new_dollar_resynchronises_and_reports_the_cut_frame() -> None:
    parser = FrameParser()
    out = parser.feed(b"$ROLL,7,6" + encode_frame("ROLL,7,6,3,F,F"))
    assert out == [Rejected("truncated frame (a new '$' came before the line end)"), Line("ROLL,7,6,3,F,F")]


def test_frame_split_over_many_reads() -> None:
    parser = FrameParser()
    frame = encode_frame("ROLL,65535,1,6,C,F")
    out: list[Line | Rejected] = []
    for i in range(len(frame)):
        out += parser.feed(frame[i : i + 1])
    assert out == [Line("ROLL,65535,1,6,C,F")]


def test_bare_newline_ending_is_accepted() -> None:
    assert FrameParser().feed(encode_frame("HB,5,80")[:-2] + b"\n") == [Line("HB,5,80")]


def test_overlong_frame_is_dropped_and_parser_recovers() -> None:
    parser = FrameParser()
    out = parser.feed(b"$" + b"A" * (MAX_LINE + 1))
    assert out == [Rejected(f"overlong frame (more than {MAX_LINE} bytes)")]
    assert parser.feed(b"AAAA\r\n" + encode_frame("HB,1,-")) == [Line("HB,1,-")]


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        (b"$ROLL,7,6,3,F,F\r\n", "no '*' checksum separator"),
        (b"$ROLL,7,6,3,F,F*zz\r\n", "checksum 'zz' is not two uppercase hex digits"),
        (b"$ACK,7*b6\r\n", "checksum 'b6' is not two uppercase hex digits"),
        (b"$ACK,7*00\r\n", "bad CRC: frame says 00, payload gives B6"),
        (b"$AC\x01K*00\r\n", "byte 0x01 is not allowed in a payload"),
    ],
)
def test_bad_frames_say_what_was_wrong(raw: bytes, why: str) -> None:
    assert FrameParser().feed(raw) == [Rejected(why)]


def test_parse_every_device_message() -> None:
    assert parse_device_message("ROLL,7,6,3,F,C") == Roll(7, (6, 3), (False, True))
    assert parse_device_message("HB,123456,-") == Heartbeat(123456, None)
    assert parse_device_message("HB,1,87") == Heartbeat(1, 87)
    assert parse_device_message("BTN,9,ack_cocked") == Button(9, "ack_cocked")
    assert parse_device_message("HELLO,1,1.0,GAMAO1") == Hello(1, "1.0", "GAMAO1")
    assert parse_device_message("HELLO,1,1.0,GAMAO1,3F2A,12") == Hello(1, "1.0", "GAMAO1", "3F2A", 12)
    assert parse_device_message("ERR,3,queue full, 16 frames") == UnitError(3, "queue full, 16 frames")


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ("ROLL,7,0,3,F,F", "die 1 is 0, not 1-6"),
        ("ROLL,7,6,7,F,F", "die 2 is 7, not 1-6"),
        ("ROLL,65536,6,3,F,F", "seq 65536 is above 65535"),
        ("ROLL,-1,6,3,F,F", "seq '-1' is not a whole number"),
        ("ROLL,7,6,3,F,X", "die 2 state 'X' is not F (flat) or C (cocked)"),
        ("ROLL,7,6,3,F", "ROLL needs 5 fields, got 4"),
        ("HB,1,101", "battery 101 is above 100"),
        ("BTN,1,end turn", "button name 'end turn' must be 1-24 letters, digits, '_', '.' or '-'"),
        ("HELLO,1", "HELLO needs 3-5 fields, got 1"),
        ("DICE,1", "unknown frame type 'DICE'"),
    ],
)
def test_bad_fields_say_what_was_wrong(payload: str, message: str) -> None:
    with pytest.raises(MessageError) as info:
        parse_device_message(payload)
    assert str(info.value) == message


def test_seq_order_wraps_at_65536() -> None:
    assert seq_newer(8, 7)
    assert not seq_newer(7, 7)
    assert not seq_newer(6, 7)
    assert seq_newer(0, 65535)
    assert seq_newer(3, 65530)
    assert not seq_newer(65530, 3)
