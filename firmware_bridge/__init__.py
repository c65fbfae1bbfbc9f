"""The hardware edge: the dice unit's serial link, GPIO buttons and lights, and a simulated dice unit.

- ``framing``: CRC-8 and frames (hardware/dice-protocol.md);  ``protocol.DiceProtocol``: the host side;
- ``link.DiceLink``: a reader thread that keeps the port (re)opened;  ``gpio.Panel``: buttons and lights;
- ``sim.DiceSimulator``: the unit's firmware logic behind a real pseudo-terminal.
"""

from firmware_bridge.framing import crc8, encode_frame
from firmware_bridge.link import DiceLink
from firmware_bridge.protocol import DiceProtocol, unit_led_for_verdict

__all__ = ["DiceLink", "DiceProtocol", "crc8", "encode_frame", "unit_led_for_verdict"]
