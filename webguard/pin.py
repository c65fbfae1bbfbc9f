"""The control PIN: set once at first start, stored only as a salted scrypt hash in the kiosk's data dir.

Who may do what:

- The **first** PIN can be set only from the kiosk itself: its touch screen (the browser on the same
  machine, a loopback client) or `gamao run`'s console (``ask_first_pin``). A stranger on the network who
  finds a kiosk without a PIN cannot claim it.
- Wrong PINs are counted **per client** (per IP address; per /64 network for IPv6, where one device can
  use many addresses). The first `max_failures` are free; after that each further wrong PIN makes that
  client wait twice as long as the last time, up to `lockout_seconds`, before its next try is even looked
  at (429 with Retry-After). Other clients are not affected.
- The touch screen (loopback) is never made to wait and its mistakes are not counted: a stranger's wrong
  PINs can never lock the owner out.
- A request with no PIN at all is refused (401) but is not a failure: any web page a player's phone opens
  could send those, and they guess nothing.

- Wrong PINs are also counted for **all remote clients together** (a leaky bucket: `remote_burst` free,
  then `remote_per_hour`): sixty addresses cannot each take their own five free tries and doubling waits.
  When the bucket is full a remote PIN is answered 429 at once, without scrypt, unless it comes from a
  **known device**: one that gave the right PIN within the last `known_seconds` (by its address, as the
  per-device counters; at most `MAX_KNOWN` remembered). A known device is held only by its own counters, so
  one wrong PIN a minute from ever-new addresses, which keeps the shared bucket full, cannot keep the club's
  phones that already use the PIN at 429 (issue 34, finding 6). Its wrong PINs still fill the bucket; it passes
  a full bucket only with fewer than `KNOWN_SLIPS` wrong PINs since its last right one (a typo), and after
  `max_failures` in a row it is no longer known. (On IPv6 a device is counted by its /64, which a whole LAN may
  share: a stranger there gets at most `KNOWN_SLIPS` guesses past the full bucket for each right PIN the known
  phone gives, about the bucket's own rate.) An unknown device is indistinguishable from
  the attacker's next address until its PIN is checked, and checking it is exactly the guess the bucket
  bounds: while the bucket is full it waits (or uses the kiosk's own screen, never limited).
- At most `remote_checking` remote PINs are being hashed at any moment (scrypt costs ~16 MB and tens of
  milliseconds of CPU); a remote PIN that comes while they are busy is answered 429 at once. So however many
  addresses try, the owner's presses on the touch screen find the CPU free (the owner's own check never waits
  for a slot; once accepted, its PIN is recognised by a keyed digest without scrypt).

Memory stays bounded: at most `MAX_CLIENTS` clients are remembered (the least recently seen is forgotten).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
import os
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from fastapi import HTTPException

from webguard.clients import client_key, is_loopback

PIN_FILE = "pin.json"
PIN_MIN, PIN_MAX = 4, 12
MAX_CLIENTS = 4096
REMOTE_BURST = 20          # wrong PINs all remote clients together may make before the shared limit
REMOTE_PER_HOUR = 60.0     # then this many an hour (a 4-digit PIN: about 80 hours on average)
REMOTE_CHECKING = 1        # remote PINs hashed at the same time
KNOWN_SECONDS = 12 * 3600  # a device that gave the right PIN passes a full shared bucket for this long
MAX_KNOWN = 256            # known devices remembered (the least recently right forgotten)
KNOWN_SLIPS = 2            # wrong PINs since its last right one with which a known device still passes
_SCRYPT = {"n": 2**14, "r": 8, "p": 1}
FIRST_PIN_LOCAL_ONLY = ("the first PIN is set at the kiosk itself: on its touch screen or at the console of "
                        "`gamao run`")


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


@dataclass
class _Client:
    failures: int = 0
    wait_until: float = 0.0
    checking: bool = False


class PinStore:
    """`max_failures` free wrong PINs per client, then a delay doubling from 2 s up to `lockout_seconds`."""

    def __init__(self, data_dir: Path, max_failures: int = 5, lockout_seconds: float = 60.0,
                 clock: Callable[[], float] = time.monotonic, remote_burst: int = REMOTE_BURST,
                 remote_per_hour: float = REMOTE_PER_HOUR, remote_checking: int = REMOTE_CHECKING,
                 known_seconds: float = KNOWN_SECONDS) -> None:
        self.path = Path(data_dir) / PIN_FILE
        self.max_failures = max_failures
        self.lockout_seconds = lockout_seconds
        self.remote_burst = remote_burst
        self.remote_per_hour = remote_per_hour
        self.remote_checking = remote_checking
        self.known_seconds = known_seconds
        self._known: OrderedDict[str, float] = OrderedDict()  # device -> when it last gave the right PIN
        self._bucket = 0.0          # remote wrong PINs not yet leaked away (all remote clients together)
        self._bucket_at: float | None = None  # when the bucket was last leaked (set at the first remote PIN)
        self._checking = 0          # remote PINs being hashed now
        self.refused_busy = 0       # remote PINs answered 429 at once (busy or the shared limit), for the screen
        self._clock = clock
        self._clients: OrderedDict[str, _Client] = OrderedDict()
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
        with self._lock:
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

    def _client(self, key: str) -> _Client:
        entry = self._clients.get(key)
        if entry is None:
            entry = self._clients[key] = _Client()
            while len(self._clients) > MAX_CLIENTS:
                self._clients.popitem(last=False)
        else:
            self._clients.move_to_end(key)
        return entry

    def delay_after(self, failures: int) -> float:
        """Seconds a client waits after its `failures`-th wrong PIN in a row (0 while still free)."""
        extra = failures - self.max_failures
        if extra < 0:
            return 0.0
        return float(min(self.lockout_seconds, 2.0 ** min(extra + 1, 30)))

    def check(self, pin: str | None, client: str | None = None) -> None:
        """Raise PinError unless `pin` is the stored PIN: 401 (none, wrong, none set), 429 (wait first)."""
        if not self.is_set():
            raise PinError(401, "no PIN has been set yet: set one first with POST /api/pin")
        if not pin:
            raise PinError(401, "this action needs the PIN: send it in the X-Gamao-PIN header")
        local = is_loopback(client)
        key = client_key(client)
        with self._lock:
            now = self._clock()
            entry = None
            if not local:
                entry = self._client(key)
                if now < entry.wait_until:
                    wait = entry.wait_until - now
                    raise PinError(429, f"too many wrong PINs from this device: try again in {wait:.0f} s", wait)
                if entry.checking:
                    raise PinError(429, "one PIN at a time from this device: wait for the answer", 1.0)
                self._leak(now)
                passes = self._is_known(key, now) and entry.failures < KNOWN_SLIPS
                if self._bucket >= self.remote_burst and not passes:
                    self.refused_busy += 1
                    wait = (self._bucket - self.remote_burst + 1) * 3600.0 / self.remote_per_hour
                    raise PinError(429, f"too many wrong PINs from the network: try again in {wait:.0f} s "
                                        "(the kiosk's own screen is not affected)", wait)
                if self._checking >= self.remote_checking:
                    self.refused_busy += 1
                    raise PinError(429, "the kiosk is checking another PIN: try again in a second", 1.0)
                self._checking += 1
                entry.checking = True
            accepted = self._accepted
        ok = False
        try:
            if len(pin) <= PIN_MAX and pin.isascii() and pin.isdigit():
                digest = hmac.new(self._key, pin.encode(), "sha256").digest()
                ok = (accepted is not None and hmac.compare_digest(digest, accepted)) or self._matches(pin)
        finally:
            with self._lock:
                if ok:
                    self._accepted = hmac.new(self._key, pin.encode(), "sha256").digest()
                if entry is not None:
                    entry.checking = False
                    self._checking -= 1
                    if ok:
                        self._clients.pop(key, None)
                        self._known[key] = self._clock()
                        self._known.move_to_end(key)
                        while len(self._known) > MAX_KNOWN:
                            self._known.popitem(last=False)
                    else:
                        self._leak(self._clock())
                        self._bucket += 1
                        entry.failures += 1
                        delay = self.delay_after(entry.failures)
                        entry.wait_until = self._clock() + delay
                        if entry.failures >= self.max_failures:
                            self._known.pop(key, None)
        if not ok:
            raise PinError(401, "wrong PIN")

    def _is_known(self, key: str, now: float) -> bool:
        since = self._known.get(key)
        return since is not None and now - since < self.known_seconds

    def _leak(self, now: float) -> None:
        """The shared bucket empties at `remote_per_hour` wrong PINs an hour."""
        elapsed = 0.0 if self._bucket_at is None else max(0.0, now - self._bucket_at)
        self._bucket = max(0.0, self._bucket - elapsed * self.remote_per_hour / 3600.0)
        self._bucket_at = now

    def failures(self, client: str | None) -> int:
        """Wrong PINs in a row from this client (0 for the touch screen, which is never counted)."""
        with self._lock:
            entry = self._clients.get(client_key(client))
            return entry.failures if entry is not None and not is_loopback(client) else 0


def check_http(pins: PinStore, pin: str | None, client: str | None, unset: str | None = None) -> None:
    """The PIN check as the servers answer it: when no PIN is set, 403 `unset` if given (the director: its PIN is
    set at its console) else the store's 401; then 401 (no or wrong PIN) or 429 with Retry-After (this device
    must wait), with WWW-Authenticate naming the header. The kiosk's and the director's routes call this."""
    if unset is not None and not pins.is_set():
        raise HTTPException(403, unset)
    try:
        pins.check(pin, client)
    except PinError as exc:
        headers = {"WWW-Authenticate": "X-Gamao-PIN"}
        if exc.retry_after is not None:
            headers["Retry-After"] = str(max(1, math.ceil(exc.retry_after)))  # waiting that long is enough
        raise HTTPException(exc.status, exc.message, headers=headers) from None
