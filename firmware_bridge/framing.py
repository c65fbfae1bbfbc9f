"""The dice unit's wire format: CRC-8, frame encoding, a resynchronising frame parser and message parsing.

A frame is ``$`` PAYLOAD ``*`` CC ``\\r\\n``; CC is the CRC-8 (polynomial 0x07, initial value 0, no
reflection, no final xor: the CRC-8/SMBUS parameters) of the PAYLOAD bytes as two uppercase hex digits.
See ``hardware/dice-protocol.md`` for every field.

    >>> encode_frame("ACK,7")
    b'$ACK,7*B6\\r\\n'
    >>> FrameParser().feed(b"noise$ACK,7*B6\\r\\n")
    [Line(payload='ACK,7')]
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PROTOCOL_VERSION = 1
MAX_LINE = 96  # longest frame we accept, '$' and '\r\n' excluded; real frames are under 40 bytes
SEQ_MODULO = 65536


def _make_table() -> tuple[int, ...]:
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
        table.append(crc)
    return tuple(table)


_TABLE = _make_table()


def crc8(data: bytes) -> int:
    """CRC-8 with polynomial 0x07 and initial value 0.

    >>> hex(crc8(b"123456789"))
    '0xf4'
    """
    crc = 0
    table = _TABLE
    for byte in data:
        crc = table[crc ^ byte]
    return crc


def encode_frame(payload: str) -> bytes:
    """Frame a payload for the wire; the payload must be printable ASCII without ``$``, ``*`` or line ends."""
    raw = payload.encode("ascii")
    if any(b < 0x20 or b > 0x7E or b in b"$*" for b in raw):
        raise ValueError(f"payload {payload!r} may only hold printable ASCII without '$' or '*'")
    return b"$%s*%02X\r\n" % (raw, crc8(raw))


@dataclass(frozen=True, slots=True)
class Line:
    """A frame whose checksum matched; ``payload`` is still to be parsed."""

    payload: str


@dataclass(frozen=True, slots=True)
class Rejected:
    """Bytes that began with ``$`` but are not a good frame; ``why`` says what was wrong."""

    why: str


_HEX2 = re.compile(rb"[0-9A-F]{2}")


def check_line(line: bytes) -> Line | Rejected:
    """Check one frame body (between ``$`` and the line end, ``\\r`` already removed)."""
    star = line.rfind(b"*")
    if star < 0:
        return Rejected("no '*' checksum separator")
    body, cc = line[:star], line[star + 1 :]
    if not _HEX2.fullmatch(cc):
        return Rejected(f"checksum {cc[:8].decode('ascii', 'replace')!r} is not two uppercase hex digits")
    for byte in body:
        if byte < 0x20 or byte > 0x7E or byte == 0x2A:
            return Rejected(f"byte 0x{byte:02X} is not allowed in a payload")
    computed = crc8(body)
    if computed != int(cc, 16):
        return Rejected(f"bad CRC: frame says {cc.decode()}, payload gives {computed:02X}")
    return Line(body.decode("ascii"))


class FrameParser:
    """Cut a byte stream into frames. Every ``$`` starts a new frame, so noise costs at most the frame it hits.

    Bytes outside frames are counted in ``noise`` and otherwise ignored. A frame cut short by the next
    ``$`` is ``truncated``; one longer than ``MAX_LINE`` is ``overlong`` and the parser skips to the next
    ``$``. Memory is bounded by ``MAX_LINE`` whatever arrives.
    """

    def __init__(self, max_line: int = MAX_LINE) -> None:
        self.max_line = max_line
        self._partial: bytearray | None = None  # None: outside a frame, skipping to the next '$'
        self.noise = 0

    def reset(self) -> None:
        """Forget a half-received frame (the port was closed or reopened)."""
        self._partial = None

    def feed(self, data: bytes) -> list[Line | Rejected]:
        out: list[Line | Rejected] = []
        pieces = data.split(b"$")
        last = len(pieces) - 1
        for index, piece in enumerate(pieces):
            if index > 0:
                # A '$' precedes this piece: it opens a frame, and a still-open one was cut short.
                if self._partial is not None:
                    out.append(Rejected("truncated frame (a new '$' came before the line end)"))
                self._partial = bytearray()
            if self._partial is None:
                self.noise += len(piece)
                continue
            newline = piece.find(b"\n")
            if newline < 0:
                if index == last:
                    self._partial += piece
                    if len(self._partial) > self.max_line:
                        out.append(Rejected(f"overlong frame (more than {self.max_line} bytes)"))
                        self._partial = None
                continue
            line = bytes(self._partial) + piece[:newline]
            self._partial = None
            self.noise += len(piece) - newline - 1
            if line.endswith(b"\r"):
                line = line[:-1]
            if len(line) > self.max_line:
                out.append(Rejected(f"overlong frame (more than {self.max_line} bytes)"))
            else:
                out.append(check_line(line))
        return out


# ---- messages -------------------------------------------------------------------------------------------


class MessageError(ValueError):
    """A frame with a good checksum whose fields are wrong."""


@dataclass(frozen=True, slots=True)
class Hello:
    protocol: int
    firmware: str
    unit: str
    boot: str | None = None  # extension: changes at every power-up, so seq numbering restarts safely
    last_seq: int | None = None  # extension: the newest seq the unit has sent since boot


@dataclass(frozen=True, slots=True)
class Roll:
    seq: int
    dice: tuple[int, int]
    cocked: tuple[bool, bool]


@dataclass(frozen=True, slots=True)
class Heartbeat:
    uptime_ms: int
    battery: int | None


@dataclass(frozen=True, slots=True)
class Button:
    seq: int
    name: str


@dataclass(frozen=True, slots=True)
class UnitError:
    code: int
    text: str


DeviceMessage = Hello | Roll | Heartbeat | Button | UnitError

_TOKEN = re.compile(r"[A-Za-z0-9_.\-]{1,24}")
_UINT = re.compile(r"[0-9]{1,10}")
_STATES = {"F": False, "C": True}


def _uint(field: str, what: str, high: int) -> int:
    if not _UINT.fullmatch(field):
        raise MessageError(f"{what} {field!r} is not a whole number")
    value = int(field)
    if value > high:
        raise MessageError(f"{what} {value} is above {high}")
    return value


def _token(field: str, what: str) -> str:
    if not _TOKEN.fullmatch(field):
        raise MessageError(f"{what} {field!r} must be 1-24 letters, digits, '_', '.' or '-'")
    return field


def _count(fields: list[str], low: int, high: int) -> None:
    if not low <= len(fields) - 1 <= high:
        want = str(low) if low == high else f"{low}-{high}"
        raise MessageError(f"{fields[0]} needs {want} fields, got {len(fields) - 1}")


def parse_device_message(payload: str) -> DeviceMessage:
    """Parse the payload of a frame sent by the dice unit; ``MessageError`` says what is wrong."""
    fields = payload.split(",")
    kind = fields[0]
    if kind == "ROLL":
        _count(fields, 5, 5)
        seq = _uint(fields[1], "seq", SEQ_MODULO - 1)
        d1 = _uint(fields[2], "die 1", 99)
        d2 = _uint(fields[3], "die 2", 99)
        for number, value in ((1, d1), (2, d2)):
            if not 1 <= value <= 6:
                raise MessageError(f"die {number} is {value}, not 1-6")
        states = []
        for number, flag in ((1, fields[4]), (2, fields[5])):
            if flag not in _STATES:
                raise MessageError(f"die {number} state {flag!r} is not F (flat) or C (cocked)")
            states.append(_STATES[flag])
        return Roll(seq, (d1, d2), (states[0], states[1]))
    if kind == "HB":
        _count(fields, 2, 2)
        uptime = _uint(fields[1], "uptime", 2**32 - 1)
        battery = None if fields[2] == "-" else _uint(fields[2], "battery", 100)
        return Heartbeat(uptime, battery)
    if kind == "BTN":
        _count(fields, 2, 2)
        return Button(_uint(fields[1], "seq", SEQ_MODULO - 1), _token(fields[2], "button name"))
    if kind == "HELLO":
        _count(fields, 3, 5)
        protocol = _uint(fields[1], "protocol", 999)
        boot = _token(fields[4], "boot id") if len(fields) > 4 else None
        last_seq = _uint(fields[5], "last seq", SEQ_MODULO - 1) if len(fields) > 5 else None
        return Hello(protocol, _token(fields[2], "firmware"), _token(fields[3], "unit id"), boot, last_seq)
    if kind == "ERR":
        if len(fields) < 3:
            raise MessageError(f"ERR needs 2 fields, got {len(fields) - 1}")
        return UnitError(_uint(fields[1], "error code", 999), ",".join(fields[2:]))
    raise MessageError(f"unknown frame type {kind[:16]!r}")


def seq_newer(seq: int, last: int) -> bool:
    """True when ``seq`` comes after ``last`` in 16-bit serial-number order (RFC 1982), so seq may wrap."""
    return 0 < (seq - last) % SEQ_MODULO < SEQ_MODULO // 2
