# dicecore.py: the dice unit's logic, free of pins, so it runs in MicroPython on the Pico and in CPython
# in our tests (and in `gamao dice-sim`). It speaks the protocol of hardware/dice-protocol.md.
# MicroPython subset only: no imports, no data classes, %-formatting, annotations of builtins only.

FIRMWARE = "1.0"
PROTOCOL = 1
RESEND_MS = 500  # a roll or button is re-sent this often until the host acknowledges it
HEARTBEAT_MS = 1000
MAX_PENDING = 16  # unacknowledged frames held; beyond that a roll is refused (ERR 3)
MAX_LINE = 96

# ERR codes (hardware/dice-protocol.md lists them too)
ERR_SENSOR = 1  # a sensor die does not answer
ERR_RANDOM = 2  # the random source failed its health check
ERR_QUEUE_FULL = 3  # too many unacknowledged frames: roll refused
ERR_UNKNOWN_COMMAND = 4
ERR_BAD_FRAME = 5  # a frame from the host failed its CRC or syntax
ERR_LED_PATTERN = 6
ERR_BATTERY_LOW = 7

LED_PATTERNS = ("OFF", "ON", "BLINK", "ROLLING", "COCKED1", "COCKED2", "COCKED12", "LOST", "ERROR")


def _table():
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
        table.append(crc)
    return table


_CRC_TABLE = _table()


def crc8(data: bytes) -> int:
    crc = 0
    for byte in data:
        crc = _CRC_TABLE[crc ^ byte]
    return crc


def frame(payload: str) -> bytes:
    raw = payload.encode()
    return b"$" + raw + ("*%02X\r\n" % crc8(raw)).encode()


class HostLineReader:
    """Collect frames from the host; every '$' starts afresh. feed() returns (payloads, bad_count)."""

    def __init__(self):
        self.buf = None  # None: outside a frame

    def feed(self, data: bytes):
        good = []
        bad = 0
        for byte in data:
            if byte == 0x24:  # '$'
                if self.buf is not None:
                    bad += 1
                self.buf = bytearray()
            elif self.buf is None:
                continue
            elif byte == 0x0A:  # '\n'
                line = bytes(self.buf)
                self.buf = None
                if line.endswith(b"\r"):
                    line = line[:-1]
                payload = _check(line)
                if payload is None:
                    bad += 1
                else:
                    good.append(payload)
            else:
                self.buf.append(byte)
                if len(self.buf) > MAX_LINE:
                    self.buf = None
                    bad += 1
        return good, bad


def _check(line: bytes):
    star = line.rfind(b"*")
    if star < 0 or len(line) - star != 3:
        return None
    body = line[:star]
    try:
        cc = int(line[star + 1:].decode(), 16)
        text = body.decode()
    except (ValueError, UnicodeError):
        return None
    if crc8(body) != cc:
        return None
    return text


class VonNeumann:
    """Unbiased bits from a biased (independent) bit source: pairs 01 -> 0, 10 -> 1, 00/11 discarded.

    The RP2040's ROSC random bit is biased; this removes the bias. A health check stops a stuck source
    instead of looping for ever.
    """

    def __init__(self, raw_bit, limit=256):
        self.raw_bit = raw_bit
        self.limit = limit

    def bit(self) -> int:
        for _ in range(self.limit):
            a = self.raw_bit()
            b = self.raw_bit()
            if a != b:
                return a
        raise RandomSourceError("random source stuck: %d equal pairs in a row" % self.limit)

    def bits(self, n: int) -> int:
        value = 0
        for _ in range(n):
            value = (value << 1) | self.bit()
        return value


class RandomSourceError(Exception):
    pass


def fair_die(bits) -> int:
    """A uniform 1-6 from a bit source by rejection: 3 bits give 0-7, 6 and 7 are thrown away (no modulo bias)."""
    while True:
        value = bits(3)
        if value < 6:
            return value + 1


# Pip LEDs per die, in this order: top-left, top-right, middle-left, centre, middle-right, bottom-left,
# bottom-right (hardware/wiring.md shows the layout).
_PIPS = {
    0: (0, 0, 0, 0, 0, 0, 0),
    1: (0, 0, 0, 1, 0, 0, 0),
    2: (1, 0, 0, 0, 0, 0, 1),
    3: (1, 0, 0, 1, 0, 0, 1),
    4: (1, 1, 0, 0, 0, 1, 1),
    5: (1, 1, 0, 1, 0, 1, 1),
    6: (1, 1, 1, 0, 1, 1, 1),
}


def pips_for(value: int):
    """The seven pip LEDs (1 = lit) showing ``value``; 0 shows nothing."""
    return _PIPS[value]


class Debouncer:
    """A press is reported once, when the input has been low (pressed) for ``stable_ms`` after being released.

    Idempotent: feeding the same level again and again changes nothing; bounces shorter than stable_ms
    never make a press, and a held button makes only one.
    """

    def __init__(self, stable_ms=20):
        self.stable_ms = stable_ms
        self.level = 1  # pulled up: 1 = released
        self.since = 0
        self.pressed = False

    def feed(self, level: int, now_ms: int) -> bool:
        if level != self.level:
            self.level = level
            self.since = now_ms
            return False
        if now_ms - self.since < self.stable_ms:
            return False
        if level == 0 and not self.pressed:
            self.pressed = True
            return True
        if level == 1:
            self.pressed = False
        return False


class DiceUnit:
    """The unit's protocol side: numbers, queues and re-sends rolls and buttons, answers the host.

    write(bytes) sends to the host; clock_ms() is a millisecond clock; boot is this power-up's id.
    """

    def __init__(self, write, clock_ms, boot="0000", unit_id="GAMAO1", battery=None):
        self.write = write
        self.clock_ms = clock_ms
        self.boot = boot
        self.unit_id = unit_id
        self.battery = battery  # callable returning 0-100, or None when mains powered
        self.seq = 65535  # the next frame gets seq 0
        self.pending = []  # [(seq, payload)], oldest first; only the oldest is on the wire
        self.sent_at = None
        self.last_hb = None
        self.led = "OFF"
        self.on_led = None
        self.reader = HostLineReader()
        self.acked = 0
        self.resends = 0

    def _send(self, payload: str):
        self.write(frame(payload))

    def hello(self):
        self._send("HELLO,%d,%s,%s,%s,%d" % (PROTOCOL, FIRMWARE, self.unit_id, self.boot, self.seq))

    def error(self, code: int, text: str):
        self._send("ERR,%d,%s" % (code, text))

    def _queue(self, body: str):
        if len(self.pending) >= MAX_PENDING:
            self.error(ERR_QUEUE_FULL, "queue full: %d frames unacknowledged" % len(self.pending))
            return None
        self.seq = (self.seq + 1) % 65536
        payload = body % self.seq
        self.pending.append((self.seq, payload))
        if len(self.pending) == 1:
            self._send(payload)
            self.sent_at = self.clock_ms()
        return self.seq

    def report_roll(self, d1: int, d2: int, cocked1=False, cocked2=False):
        """Queue a roll for the host; returns its seq, or None when refused."""
        if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
            raise ValueError("dice must be 1-6, got %r and %r" % (d1, d2))
        flags = ("C" if cocked1 else "F", "C" if cocked2 else "F")
        return self._queue("ROLL,%%d,%d,%d,%s,%s" % (d1, d2, flags[0], flags[1]))

    def report_button(self, name: str):
        return self._queue("BTN,%d," + name)

    def receive(self, data: bytes):
        payloads, bad = self.reader.feed(data)
        for _ in range(bad):
            self.error(ERR_BAD_FRAME, "bad frame from host")
        for payload in payloads:
            self.handle_command(payload)

    def handle_command(self, payload: str):
        fields = payload.split(",")
        if fields[0] == "ACK" and len(fields) == 2 and fields[1].isdigit():
            seq = int(fields[1])
            if self.pending and self.pending[0][0] == seq:
                self.pending.pop(0)
                self.acked += 1
                self.sent_at = None
                if self.pending:
                    self._send(self.pending[0][1])
                    self.sent_at = self.clock_ms()
        elif payload == "HELLO?":
            self.hello()
        elif fields[0] == "LED" and len(fields) == 2:
            if fields[1] in LED_PATTERNS:
                self.led = fields[1]
                if self.on_led is not None:
                    self.on_led(self.led)
            else:
                self.error(ERR_LED_PATTERN, "unknown LED pattern")
        else:
            self.error(ERR_UNKNOWN_COMMAND, "unknown command")

    def poll(self):
        """Call from the main loop: re-sends the oldest unacknowledged frame, sends the heartbeat."""
        now = self.clock_ms()
        if self.pending and (self.sent_at is None or now - self.sent_at >= RESEND_MS):
            if self.sent_at is not None:
                self.resends += 1
            self._send(self.pending[0][1])
            self.sent_at = now
        if self.last_hb is None or now - self.last_hb >= HEARTBEAT_MS:
            self.last_hb = now
            level = self.battery() if self.battery is not None else None
            self._send("HB,%d,%s" % (now & 0xFFFFFFFF, "-" if level is None else "%d" % level))


class DigitalDice:
    """Two digital dice: a button press rolls both from the hardware random source."""

    def __init__(self, unit, bits):
        self.unit = unit
        self.bits = bits  # bits(n) -> int, e.g. VonNeumann(raw).bits
        self.shown = (0, 0)

    def roll(self):
        """Roll, report, and return (d1, d2); (0, 0) when the random source failed."""
        try:
            dice = (fair_die(self.bits), fair_die(self.bits))
        except RandomSourceError as exc:
            self.unit.error(ERR_RANDOM, str(exc))
            return (0, 0)
        if self.unit.report_roll(dice[0], dice[1]) is None:
            return self.shown
        self.shown = dice
        return dice


# Sensor dice: each die carries an accelerometer; a reading is (x, y, z) in g in the die's own axes.
# Face on top for each axis pointing up (a standard die: opposite faces add to 7).
_FACES = ((1, 6), (2, 5), (3, 4))  # (+axis, -axis) for z, x, y  -> see face_up()
COS_COCKED = 0.978  # cos 12 degrees: a die tilted more than this is cocked (resting on an edge or a checker)


def face_up(reading):
    """(face, cocked) for one die reading: the axis nearest to vertical decides the face."""
    x, y, z = reading
    norm = (x * x + y * y + z * z) ** 0.5
    if norm < 0.5:
        return 0, True  # free fall or a dead sensor: never a flat die
    best, face = 0.0, 0
    for value, pair in ((z, _FACES[0]), (x, _FACES[1]), (y, _FACES[2])):
        if abs(value) > best:
            best = abs(value)
            face = pair[0] if value > 0 else pair[1]
    return face, best / norm < COS_COCKED


class ThrowDetector:
    """Turns a stream of sensor readings into one report per throw.

    A throw is armed by motion (a reading that differs from the previous one by more than ``still_g``)
    and reported when both dice have been still for ``settle`` consecutive readings. Dice lying on the
    board at power-up are not reported.
    """

    def __init__(self, settle=10, still_g=0.05):
        self.settle = settle
        self.still_g = still_g
        self.previous = None
        self.still = 0
        self.armed = False

    def feed(self, r1, r2):
        """Returns (d1, d2, cocked1, cocked2) once per settled throw, else None."""
        readings = (r1, r2)
        if self.previous is not None:
            moved = False
            for old, new in zip(self.previous, readings):
                for a, b in zip(old, new):
                    if abs(a - b) > self.still_g:
                        moved = True
            if moved:
                self.still = 0
                self.armed = True
            else:
                self.still += 1
        self.previous = readings
        if self.armed and self.still >= self.settle:
            self.armed = False
            f1, c1 = face_up(r1)
            f2, c2 = face_up(r2)
            # A die too tilted to read has no face: report the nearest face, cocked, so the referee re-rolls.
            return (f1 or 1, f2 or 1, c1, c2)
        return None


class SensorDice:
    def __init__(self, unit, detector=None):
        self.unit = unit
        self.detector = detector or ThrowDetector()

    def feed(self, r1, r2):
        result = self.detector.feed(r1, r2)
        if result is not None:
            self.unit.report_roll(result[0], result[1], result[2], result[3])
        return result
