# usbserial.py: the Pico's USB CDC serial as a byte pipe for dicecore (MicroPython only).
import select
import sys

import micropython

# A stray 0x03 on the line must not drop the firmware into the REPL.
micropython.kbd_intr(-1)

_poll = select.poll()
_poll.register(sys.stdin, select.POLLIN)
_out = getattr(sys.stdout, "buffer", sys.stdout)
_in = getattr(sys.stdin, "buffer", sys.stdin)


def write(data):
    _out.write(data)


def read_available(limit=256):
    data = bytearray()
    while len(data) < limit and _poll.poll(0):
        chunk = _in.read(1)
        if not chunk:
            break
        data += chunk if isinstance(chunk, (bytes, bytearray)) else chunk.encode()
    return bytes(data)


def pass_to(unit, limit=256):
    """Hand what the host sent, if anything, to the unit (dicecore.DiceUnit.receive): each main loop's first step."""
    data = read_available(limit)
    if data:
        unit.receive(data)
