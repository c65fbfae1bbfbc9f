"""The kiosk's control PIN: the store and its limiter are the web guard's (webguard/pin.py, shared with the club
director); here is what only the kiosk does, asking for the first PIN at `gamao run`'s console."""

from __future__ import annotations

import getpass
from collections.abc import Callable

from webguard.clients import client_key, is_loopback
from webguard.pin import FIRST_PIN_LOCAL_ONLY, PIN_MAX, PIN_MIN, PinError, PinStore, valid_pin_text

__all__ = ["FIRST_PIN_LOCAL_ONLY", "PIN_MAX", "PIN_MIN", "PinError", "PinStore", "ask_first_pin", "client_key",
           "is_loopback", "valid_pin_text"]


def ask_first_pin(store: PinStore, ask: Callable[[str], str] = getpass.getpass,
                  say: Callable[[str], None] = print) -> bool:
    """`gamao run`'s console: when no PIN is set yet, ask for one twice and store it. True if one was set."""
    if store.is_set():
        return False
    say(f"No control PIN is set yet. Choose one ({PIN_MIN} to {PIN_MAX} digits), or press Enter to set it "
        "later on the touch screen.")
    for _ in range(3):
        try:
            pin = ask("New PIN: ").strip()
        except EOFError:
            return False
        if not pin:
            return False
        if not valid_pin_text(pin):
            say(f"The PIN must be {PIN_MIN} to {PIN_MAX} digits.")
            continue
        try:
            again = ask("Once more: ").strip()
        except EOFError:
            return False
        if again != pin:
            say("The two PINs differ; again.")
            continue
        store.set(pin)
        say("PIN set.")
        return True
    return False
