# main_digital.py: the digital dice unit (copy as main.py with dicecore.py and usbserial.py onto the Pico).
# Pins only; the logic is dicecore.py. Wiring: hardware/wiring.md, "Unit A".
import time

import machine
from machine import Pin

import dicecore as dc
import usbserial

ROSC_RANDOMBIT = 0x40060000 + 0x1C  # RP2040 datasheet 2.17.8: bit 0 is a free-running random bit
ROLL_BUTTON = 15
ACK_BUTTON = 14  # optional: acknowledge a cocked die from the unit
PIPS_1 = (0, 1, 2, 3, 4, 5, 6)  # TL, TR, ML, C, MR, BL, BR
PIPS_2 = (7, 8, 9, 10, 11, 12, 13)
ANIMATION_MS = 400


def raw_bit():
    return machine.mem32[ROSC_RANDOMBIT] & 1


def main():
    wdt = machine.WDT(timeout=8000)  # a hung unit reboots; the new boot id tells the host
    random_bits = dc.VonNeumann(raw_bit)
    boot = "%04X" % random_bits.bits(16)
    start = time.ticks_ms()

    def clock_ms():
        return time.ticks_diff(time.ticks_ms(), start)

    unit = dc.DiceUnit(usbserial.write, clock_ms, boot=boot, unit_id="GAMAO-D" + boot[:2])
    dice = dc.DigitalDice(unit, random_bits.bits)
    pips = [[Pin(n, Pin.OUT, value=0) for n in PIPS_1], [Pin(n, Pin.OUT, value=0) for n in PIPS_2]]
    roll_pin = Pin(ROLL_BUTTON, Pin.IN, Pin.PULL_UP)
    ack_pin = Pin(ACK_BUTTON, Pin.IN, Pin.PULL_UP)
    roll_debounce, ack_debounce = dc.Debouncer(), dc.Debouncer()
    status = Pin(25, Pin.OUT)
    animate_until = 0
    unit.hello()

    def show(values, now):
        blink_off = (now // 125) % 2 == 0
        for index, value in enumerate(values):
            lit = dc.pips_for(value)
            if unit.led == "OFF" or (unit.led in ("COCKED%d" % (index + 1), "COCKED12") and blink_off):
                lit = dc.pips_for(0)
            for pin, on in zip(pips[index], lit):
                pin.value(on)

    while True:
        wdt.feed()
        now = clock_ms()
        usbserial.pass_to(unit)
        if roll_debounce.feed(roll_pin.value(), now):
            dice.roll()
            animate_until = now + ANIMATION_MS
        if ack_debounce.feed(ack_pin.value(), now):
            unit.report_button("ack_cocked")
        if now < animate_until:
            shown = (1 + (now // 50) % 6, 1 + (now // 70) % 6)  # tumbling faces; the result is already fixed
        else:
            shown = dice.shown
        show(shown, now)
        status.value(1 if unit.pending else (now // 1000) % 2 == 0 and (now % 1000) < 50)
        unit.poll()
        time.sleep_ms(2)


main()
