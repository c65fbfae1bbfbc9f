"""The control PIN: set once at first start, stored only as a salted scrypt hash in the kiosk's data dir.

Failures are counted for the whole kiosk (one screen, one board): after `max_failures` wrong or missing
PINs in a row every control request is refused for `lockout_seconds`, so a PIN cannot be guessed by trying.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import threading
import time
from collections.abc import Callable
from pathlib import Path

PIN_FILE = "pin.json"
PIN_MIN, PIN_MAX = 4, 12
_SCRYPT = {"n": 2**14, "r": 8, "p": 1}


class PinError(Exception):
    """Refusal of a control request; `status` is the HTTP status the API answers with."""

    def __init__(self, status: int, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after = retry_after


def valid_pin_text(pin: str) -> bool:
    return pin.isascii() and pin.isdigit() and PIN_MIN <= len(pin) <= PIN_MAX


def _hash(pin: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(pin.encode(), salt=salt, n=n, r=r, p=p, dklen=32)


class PinStore:
    def __init__(self, data_dir: Path, max_failures: int = 5, lockout_seconds: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.path = Path(data_dir) / PIN_FILE
        self.max_failures = max_failures
        self.lockout_seconds = lockout_seconds
        self._clock = clock
        self._failures = 0
        self._locked_until = 0.0
        self._lock = threading.Lock()
        # The touch screen sends the PIN with every press: once scrypt has accepted it, a keyed digest kept
        # in memory recognises it again at once. Wrong PINs always pay the full scrypt cost.
        self._key = secrets.token_bytes(32)
        self._accepted: bytes | None = None

    def is_set(self) -> bool:
        return self.path.is_file()

    def set(self, pin: str) -> None:
        """Store a new PIN (caller checks the old one). Written atomically, readable by the owner only."""
        if not valid_pin_text(pin):
            raise ValueError(f"the PIN must be {PIN_MIN} to {PIN_MAX} digits")
        salt = secrets.token_bytes(16)
        record = {"algorithm": "scrypt", "salt": salt.hex(), **_SCRYPT,
                  "hash": _hash(pin, salt, **_SCRYPT).hex()}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(record, fh)
        os.replace(tmp, self.path)
        self._accepted = None

    def _matches(self, pin: str) -> bool:
        try:
            record = json.loads(self.path.read_text(encoding="utf-8"))
            salt = bytes.fromhex(record["salt"])
            expected = bytes.fromhex(record["hash"])
            got = _hash(pin, salt, int(record["n"]), int(record["r"]), int(record["p"]))
        except (OSError, ValueError, KeyError, TypeError):
            return False
        return hmac.compare_digest(got, expected)

    def check(self, pin: str | None) -> None:
        """Raise PinError(401/423) unless `pin` is the stored PIN and the kiosk is not locked out."""
        with self._lock:
            now = self._clock()
            if now < self._locked_until:
                wait = self._locked_until - now
                raise PinError(423, f"too many wrong PINs: control is locked for {wait:.0f} more seconds", wait)
            if not self.is_set():
                raise PinError(401, "no PIN has been set yet: set one first with POST /api/pin")
            if pin and len(pin) <= PIN_MAX:
                digest = hmac.new(self._key, pin.encode(), "sha256").digest()
                if (self._accepted is not None and hmac.compare_digest(digest, self._accepted)) or self._matches(pin):
                    self._accepted = digest
                    self._failures = 0
                    return
            self._failures += 1
            if self._failures >= self.max_failures:
                self._failures = 0
                self._locked_until = now + self.lockout_seconds
                raise PinError(423, f"too many wrong PINs: control is locked for {self.lockout_seconds:.0f} seconds",
                               self.lockout_seconds)
            if not pin:
                raise PinError(401, "this action needs the PIN: send it in the X-Gamao-PIN header")
            raise PinError(401, "wrong PIN")
