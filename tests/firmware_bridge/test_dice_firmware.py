"""The Pico firmware's logic (hardware/firmware/dicecore.py) under CPython: fairness, re-sends, cocked dice."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from firmware_bridge.framing import FrameParser, Line, Roll, crc8, parse_device_message
from firmware_bridge.sim import load_dicecore

core: Any = load_dicecore()

# Chi-square critical values at p = 0.001 (df = 5 and df = 35): a fair die fails 1 run in 1000.
CHI2_DF5 = 20.515
CHI2_DF35 = 66.619


def chi_square(counts: list[int]) -> float:
    expected = sum(counts) / len(counts)
    return sum((c - expected) ** 2 / expected for c in counts)


class UnitHarness:
    def __init__(self) -> None:
        self.now = 0
        self.sent: list[bytes] = []
        self.unit = core.DiceUnit(self.sent.append, lambda: self.now, boot="BEEF", unit_id="TEST1")

    def payloads(self) -> list[str]:
        parser = FrameParser()
        out = [item for chunk in self.sent for item in parser.feed(chunk)]
        assert all(isinstance(item, Line) for item in out), out
        return [item.payload for item in out if isinstance(item, Line)]

    def rolls(self) -> list[str]:
        return [p for p in self.payloads() if p.startswith("ROLL")]

    def host(self, payload: str) -> None:
        self.unit.receive(core.frame(payload))


def test_firmware_crc_agrees_with_the_bridge() -> None:
    rng = random.Random(5)
    for _ in range(500):
        data = bytes(rng.randrange(32, 127) for _ in range(rng.randint(0, 40)))
        assert core.crc8(data) == crc8(data)


def test_uniform_rolls_chi_square_over_60000_rolls() -> None:
    rng = random.Random(2026)
    dice = core.DigitalDice(core.DiceUnit(lambda b: None, lambda: 0), core.VonNeumann(lambda: rng.getrandbits(1)).bits)
    faces = [0] * 6
    pairs = [0] * 36
    for _ in range(60_000):
        d1, d2 = core.fair_die(dice.bits), core.fair_die(dice.bits)
        faces[d1 - 1] += 1
        faces[d2 - 1] += 1
        pairs[(d1 - 1) * 6 + d2 - 1] += 1
    assert chi_square(faces) < CHI2_DF5, faces
    assert chi_square(pairs) < CHI2_DF35, pairs


def test_biased_hardware_bits_still_give_uniform_dice() -> None:
    # The RP2040's ROSC bit is biased; von Neumann's pairing removes a bias of independent bits.
    rng = random.Random(7)
    bits = core.VonNeumann(lambda: int(rng.random() < 0.7)).bits
    faces = [0] * 6
    for _ in range(12_000):
        faces[core.fair_die(bits) - 1] += 1
    assert chi_square(faces) < CHI2_DF5, faces


def test_chi_square_catches_modulo_bias() -> None:
    # The check can fail: 3 random bits taken modulo 6 favour 1 and 2.
    rng = random.Random(1)
    faces = [0] * 6
    for _ in range(60_000):
        faces[rng.getrandbits(3) % 6] += 1
    assert chi_square(faces) > CHI2_DF5


def test_stuck_random_source_is_reported_not_rolled() -> None:
    h = UnitHarness()
    dice = core.DigitalDice(h.unit, core.VonNeumann(lambda: 1).bits)
    assert dice.roll() == (0, 0)
    assert h.payloads() == ["ERR,2,random source stuck: 256 equal pairs in a row"]


def test_unit_resends_every_half_second_until_acknowledged() -> None:
    h = UnitHarness()
    assert h.unit.report_roll(6, 3) == 0
    assert h.rolls() == ["ROLL,0,6,3,F,F"]
    for now, count in ((499, 1), (500, 2), (999, 2), (1000, 3), (1500, 4)):
        h.now = now
        h.unit.poll()
        assert len(h.rolls()) == count, now
    h.host("ACK,0")
    for now in (2000, 2500, 5000):
        h.now = now
        h.unit.poll()
    assert len(h.rolls()) == 4 and h.unit.pending == []


def test_queued_rolls_go_out_in_order_one_at_a_time() -> None:
    h = UnitHarness()
    h.unit.report_roll(1, 2)
    h.unit.report_roll(3, 4)
    assert h.rolls() == ["ROLL,0,1,2,F,F"]  # the second waits for the first's ACK
    h.host("ACK,1")  # not the oldest: ignored
    assert h.rolls() == ["ROLL,0,1,2,F,F"]
    h.host("ACK,0")
    assert h.rolls() == ["ROLL,0,1,2,F,F", "ROLL,1,3,4,F,F"]


def test_queue_full_refuses_the_roll() -> None:
    h = UnitHarness()
    for _ in range(core.MAX_PENDING):
        assert h.unit.report_roll(1, 1) is not None
    assert h.unit.report_roll(2, 2) is None
    assert h.payloads()[-1] == "ERR,3,queue full: 16 frames unacknowledged"


def test_seq_wraps_at_65536() -> None:
    h = UnitHarness()
    h.unit.seq = 65534
    h.unit.report_roll(1, 1)
    h.host("ACK,65535")
    h.unit.report_roll(2, 2)
    assert h.rolls() == ["ROLL,65535,1,1,F,F", "ROLL,0,2,2,F,F"]


def test_hello_heartbeat_led_and_unknown_commands() -> None:
    h = UnitHarness()
    leds: list[str] = []
    h.unit.on_led = leds.append
    h.host("HELLO?")
    h.unit.poll()
    h.host("LED,ROLLING")
    h.host("LED,PINK")
    h.host("REBOOT")
    h.unit.receive(b"$ACK,1*00\r\n")
    assert h.payloads() == [
        "HELLO,1,1.0,TEST1,BEEF,65535",
        "HB,0,-",
        "ERR,6,unknown LED pattern",
        "ERR,4,unknown command",
        "ERR,5,bad frame from host",
    ]
    assert leds == ["ROLLING"]
    assert parse_device_message(h.payloads()[0]).boot == "BEEF"  # type: ignore[union-attr]


def test_host_reader_resynchronises_on_dollar() -> None:
    reader = core.HostLineReader()
    assert reader.feed(b"\xff$AC" + core.frame("ACK,3")) == (["ACK,3"], 1)


def test_pips() -> None:
    assert core.pips_for(1) == (0, 0, 0, 1, 0, 0, 0)
    assert core.pips_for(6) == (1, 1, 1, 0, 1, 1, 1)
    assert [sum(core.pips_for(v)) for v in range(7)] == [0, 1, 2, 3, 4, 5, 6]


def test_roll_button_debounce_is_one_press_per_push() -> None:
    deb = core.Debouncer(stable_ms=20)
    # Bounces (1 ms apart) while pressing, a long hold, bounces while releasing, then a second push.
    trace = [(0, 1), (1, 0), (2, 1), (3, 0), (4, 1), (5, 0)] + [(t, 0) for t in range(6, 200, 5)]
    trace += [(200, 1), (201, 0), (202, 1)] + [(t, 1) for t in range(203, 300, 5)]
    trace += [(t, 0) for t in range(300, 400, 5)]
    presses = [t for t, level in trace if deb.feed(level, t)]
    assert presses == [26, 320]
    assert not deb.feed(0, 400) and not deb.feed(0, 400)  # idempotent while held


# ---- sensor dice --------------------------------------------------------------------------------------

def tilt(face_axis: tuple[float, float, float], degrees: float) -> tuple[float, float, float]:
    """A reading for a die resting with ``face_axis`` up, tilted by ``degrees`` towards another axis."""
    r = math.radians(degrees)
    x, y, z = face_axis
    # tilt within the plane of the up axis and the next axis round
    if z:
        return (math.sin(r), 0.0, z * math.cos(r))
    if x:
        return (x * math.cos(r), math.sin(r), 0.0)
    return (0.0, y * math.cos(r), math.sin(r))


@pytest.mark.parametrize(
    ("axis", "face"),
    [((0, 0, 1), 1), ((0, 0, -1), 6), ((1, 0, 0), 2), ((-1, 0, 0), 5), ((0, 1, 0), 3), ((0, -1, 0), 4)],
)
def test_face_up_for_every_axis(axis: tuple[float, float, float], face: int) -> None:
    assert core.face_up(tilt(axis, 3)) == (face, False)
    assert core.face_up(tilt(axis, 25)) == (face, True)


def test_free_fall_reading_is_never_flat() -> None:
    assert core.face_up((0.01, 0.02, 0.0)) == (0, True)


def throw(sensor: Any, end1: tuple[float, float, float], end2: tuple[float, float, float]) -> list[Any]:
    rng = random.Random(3)
    out = []
    for _ in range(15):  # tumbling
        out.append(sensor.feed(tuple(rng.uniform(-2, 2) for _ in range(3)), tuple(rng.uniform(-2, 2) for _ in range(3))))
    for _ in range(15):  # at rest
        out.append(sensor.feed(end1, end2))
    return [r for r in out if r is not None]


def test_r24_cocked_sensor_die_reported_as_cocked() -> None:
    h = UnitHarness()
    sensor = core.SensorDice(h.unit)
    assert throw(sensor, tilt((0, 0, -1), 2), tilt((1, 0, 0), 20)) == [(6, 2, False, True)]
    roll = parse_device_message(h.rolls()[0])
    assert roll == Roll(0, (6, 2), (False, True))


def test_sensor_reports_once_per_throw_and_not_at_power_up() -> None:
    h = UnitHarness()
    sensor = core.SensorDice(h.unit)
    for _ in range(30):
        sensor.feed((0, 0, 1), (0, 0, 1))  # dice lying there when the unit starts
    assert h.rolls() == []
    assert throw(sensor, (0, 0, 1), (0, 1, 0)) == [(1, 3, False, False)]
    for _ in range(30):
        sensor.feed((0, 0, 1), (0, 1, 0))
    assert len(h.unit.pending) == 1
