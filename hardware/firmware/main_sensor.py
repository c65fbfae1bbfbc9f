# main_sensor.py: the sensor dice unit (copy as main.py with dicecore.py and usbserial.py onto the Pico).
# Each die holds a LIS3DH accelerometer on a thin 4-core tether; both share I2C0 at 0x18 and 0x19.
# Pins only; the logic is dicecore.py (face_up, ThrowDetector). Wiring: hardware/wiring.md, "Unit B".
import time

import machine
from machine import I2C, Pin

import dicecore as dc
import usbserial

ROSC_RANDOMBIT = 0x40060000 + 0x1C
ADDRESSES = (0x18, 0x19)  # die 1: SDO/SA0 to GND, die 2: SDO/SA0 to 3V3
WHO_AM_I, CTRL_REG1, CTRL_REG4, OUT_X_L = 0x0F, 0x20, 0x23, 0x28
SAMPLE_MS = 20  # 50 readings a second; a throw is reported after ThrowDetector.settle still readings


def raw_bit():
    return machine.mem32[ROSC_RANDOMBIT] & 1


class Accel:
    def __init__(self, i2c, address):
        self.i2c = i2c
        self.address = address

    def setup(self):
        if self.i2c.readfrom_mem(self.address, WHO_AM_I, 1)[0] != 0x33:
            raise OSError("not a LIS3DH")
        self.i2c.writeto_mem(self.address, CTRL_REG1, b"\x57")  # 100 Hz, x/y/z on
        self.i2c.writeto_mem(self.address, CTRL_REG4, b"\x88")  # block update, high resolution, +-2 g

    def read(self):
        raw = self.i2c.readfrom_mem(self.address, OUT_X_L | 0x80, 6)
        out = []
        for i in (0, 2, 4):
            value = raw[i] | (raw[i + 1] << 8)
            if value & 0x8000:
                value -= 65536
            out.append((value >> 4) / 1000.0)  # 12-bit left-justified, 1 mg per digit
        return tuple(out)


def main():
    wdt = machine.WDT(timeout=8000)
    boot = "%04X" % dc.VonNeumann(raw_bit).bits(16)
    start = time.ticks_ms()

    def clock_ms():
        return time.ticks_diff(time.ticks_ms(), start)

    unit = dc.DiceUnit(usbserial.write, clock_ms, boot=boot, unit_id="GAMAO-S" + boot[:2])
    sensor = dc.SensorDice(unit)
    i2c = I2C(0, sda=Pin(4), scl=Pin(5), freq=400000)
    dice = [Accel(i2c, a) for a in ADDRESSES]
    ready = [False, False]
    status = Pin(25, Pin.OUT)
    last_sample = -SAMPLE_MS
    last_complaint = -10000
    unit.hello()
    while True:
        wdt.feed()
        now = clock_ms()
        usbserial.pass_to(unit)
        if now - last_sample >= SAMPLE_MS:
            last_sample = now
            readings = []
            for index, die in enumerate(dice):
                try:
                    if not ready[index]:
                        die.setup()
                        ready[index] = True
                    readings.append(die.read())
                except OSError:
                    ready[index] = False
                    readings.append(None)
            if None in readings:
                if now - last_complaint >= 5000:  # say it every 5 s, not 50 times a second
                    last_complaint = now
                    missing = readings.index(None) + 1
                    unit.error(dc.ERR_SENSOR, "die %d sensor not answering" % missing)
            else:
                sensor.feed(readings[0], readings[1])
        status.value(1 if unit.pending else 0)
        unit.poll()
        time.sleep_ms(2)


main()
