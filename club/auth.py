"""A board speaks only for itself: every message of a board carries an HMAC-SHA256 under the board's own key.

The key is issued when the board is paired with the director (club/pairing.py, `gamao director pair NAME`)
and never travels over the broker. A board's message is its JSON object with two more members, ``seq`` (a
counter that only goes up, across restarts) and ``mac`` (last)::

    {"board":"mesa01", ..., "seq":42,"mac":"<64 hex digits>"}

The MAC is over the topic, a newline, and the exact bytes of the object without its ``mac`` member (the
payload's bytes up to ``,"mac":`` closed with ``}``): no canonical JSON to agree on, and the topic is part of
what is signed, so a message cannot be moved to another board's (or club's) topic.

>>> key = bytes(32)
>>> p = sign("gamao/porto/mesa01/state", b'{"online":true,"seq":7}', key)
>>> open_signed("gamao/porto/mesa01/state", p, key)
{'online': True, 'seq': 7}
>>> open_signed("gamao/porto/mesa02/state", p, key)
Traceback (most recent call last):
...
club.auth.AuthError: forged
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import threading
import time
from collections.abc import Callable
from typing import Any, TypeGuard

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

MAC_TAIL = re.compile(rb',"mac":"([0-9a-f]{64})"\}$')
TAIL_LEN = len(b',"mac":"') + 64 + len(b'"}')
MAX_SEQ = 2**53
WINDOW = 65536  # how far behind the newest counter an event's copy may still arrive (QoS 1, several topics)
BLOCK = 4096    # counters reserved at a time (Counter)


class AuthError(ValueError):
    """Why a message was refused: ``unsigned`` (no MAC), ``forged`` (wrong MAC), ``malformed``."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def mac_of(topic: str, body: bytes, key: bytes) -> str:
    return hmac.new(key, topic.encode() + b"\n" + body, hashlib.sha256).hexdigest()


def sign(topic: str, body: bytes, key: bytes) -> bytes:
    """`body`: a JSON object's bytes (ending with ``}``, at least one member, ``seq`` among them)."""
    if not body.endswith(b"}") or body.rstrip() == b"{}":
        raise ValueError("sign() needs a non-empty JSON object")
    return body[:-1] + b',"mac":"' + mac_of(topic, body, key).encode() + b'"}'


def open_signed(topic: str, payload: bytes, key: bytes) -> dict[str, Any]:
    """The message's object (without ``mac``) if its MAC is right; AuthError otherwise. Checks the MAC before
    parsing anything."""
    m = MAC_TAIL.search(payload[-TAIL_LEN - 1:])
    if m is None:
        raise AuthError("unsigned")
    body = payload[:-TAIL_LEN] + b"}"
    if not hmac.compare_digest(mac_of(topic, body, key).encode(), m.group(1)):
        raise AuthError("forged")
    return _parsed(body)


# ----- a board's public-key signature (issue 40: the league checks it and cannot forge it) ---------------------
# The board also signs with its own Ed25519 key, whose private half only the board holds (given to it once at
# pairing, never kept by the director): ``sig`` (128 hex digits) is the Ed25519 signature of the topic, a newline
# and the object's bytes without ``sig`` and ``mac``; it stands just before ``mac``, which covers it:
#     {"board":"mesa01", ..., "seq":42,"sig":"<128 hex>","mac":"<64 hex>"}
# The club's director checks the MAC (the key it shares with the board); the league checks ``sig`` with the public
# key the club gave it (``league-keys``): it holds no secret of a board, so neither it nor another club can make a
# message a board's public key accepts.
SIG_TAIL = re.compile(rb',"sig":"([0-9a-f]{128})"\}$')
SIG_LEN = len(b',"sig":"') + 128 + len(b'"}')
PUBLIC = "ed25519:"  # a public key as the league is given it: "ed25519:" and 64 hex digits


def new_sign_key() -> tuple[str, str]:
    """A board's new signing key: (the private seed in hex, for the board alone; its public key, ``PUBLIC``+hex)."""
    private = Ed25519PrivateKey.generate()
    seed = private.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                                 serialization.NoEncryption())
    return seed.hex(), public_text(private)


def private_key(seed_hex: str) -> Ed25519PrivateKey:
    """The board's private key from its seed (ValueError when it is not 32 bytes of hex)."""
    seed = bytes.fromhex(seed_hex)
    if len(seed) != 32:
        raise ValueError("an Ed25519 seed is 32 bytes")
    return Ed25519PrivateKey.from_private_bytes(seed)


def public_text(private: Ed25519PrivateKey) -> str:
    raw = private.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return PUBLIC + raw.hex()


def public_key(text: str) -> Ed25519PublicKey:
    """A public key from its text (``PUBLIC``+64 hex digits); ValueError otherwise."""
    if not isinstance(text, str) or not text.startswith(PUBLIC):
        raise ValueError(f"a board's public key is {PUBLIC!r} and 64 hex digits")
    raw = bytes.fromhex(text[len(PUBLIC):])
    if len(raw) != 32:
        raise ValueError("an Ed25519 public key is 32 bytes")
    return Ed25519PublicKey.from_public_bytes(raw)


def seal(topic: str, body: bytes, private: Ed25519PrivateKey) -> bytes:
    """`body` with the board's ``sig`` added (before ``sign`` adds the MAC over both)."""
    if not body.endswith(b"}") or body.rstrip() == b"{}":
        raise ValueError("seal() needs a non-empty JSON object")
    return body[:-1] + b',"sig":"' + private.sign(topic.encode() + b"\n" + body).hex().encode() + b'"}'


def open_sealed(topic: str, payload: bytes, public: Ed25519PublicKey) -> dict[str, Any]:
    """The message's object (without ``sig`` and ``mac``) if the board's signature is right; AuthError otherwise
    (``unsigned`` without one). The MAC, when there is one, is left unchecked (the league has no board's MAC key)."""
    body = payload[:-TAIL_LEN] + b"}" if MAC_TAIL.search(payload[-TAIL_LEN - 1:]) else payload
    m = SIG_TAIL.search(body[-SIG_LEN - 1:])
    if m is None:
        raise AuthError("unsigned")
    inner = body[:-SIG_LEN] + b"}"
    try:
        public.verify(bytes.fromhex(m.group(1).decode()), topic.encode() + b"\n" + inner)
    except InvalidSignature:
        raise AuthError("forged") from None
    return _parsed(inner)


def _parsed(body: bytes) -> dict[str, Any]:
    """A signed message's object, once its signature is checked: a JSON object with a counter in bounds."""
    try:
        msg = json.loads(body)
    except ValueError:
        raise AuthError("malformed") from None
    if not isinstance(msg, dict):
        raise AuthError("malformed")
    if not bounded(msg.get("seq"), 0, MAX_SEQ):
        raise AuthError("malformed")
    return msg


def bounded(n: Any, low: int, high: int) -> TypeGuard[int]:
    """`n` (a number a message carried) is an integer, not a bool, with ``low <= n < high``.

    >>> bounded(3, 0, 10), bounded(True, 0, 10), bounded(3.0, 0, 10), bounded(10, 0, 10)
    (True, False, False, False)
    """
    return isinstance(n, int) and not isinstance(n, bool) and low <= n < high


class Counter:
    """A signer's counter (``seq``): it only goes up, across restarts, so a receiver refuses an older number as a
    replay. Numbers are reserved `block` at a time in the owner's store (``load()`` -> the reserved top or None,
    ``save(top)``): a crash skips the rest of a block, with no write per number. It starts from the clock in
    milliseconds when that is higher than the store's (a fresh store, or one restored from a backup), above any
    number the owner gave before. The board's messages (club/outbox.py) and the director's commands (club/intake.py).
    """

    def __init__(self, load: Callable[[], int | None], save: Callable[[int], None], block: int = BLOCK) -> None:
        self._load, self._save, self.block = load, save, block
        self._seq = self._reserved = -1
        self._lock = threading.Lock()

    def next(self) -> int:
        with self._lock:
            if self._seq + 1 >= self._reserved:
                if self._reserved < 0:
                    self._seq = max(int(self._load() or 0), int(time.time() * 1000)) - 1
                self._reserved = self._seq + 1 + self.block
                self._save(self._reserved)
            self._seq += 1
            return self._seq


class ReplayGuard:
    """One board's counters at the director: a copy already seen, or far older than the newest, is a replay.

    Events and verdicts: accepted once each, in any order within `WINDOW` of the newest counter (QoS 1 copies
    of several topics may cross). State: only newer than the last accepted state, or that very message again
    (the broker hands the retained state to a director that subscribes again), or the board's last will of
    its current connection (registered with the broker when it connected, so its counter is older; each
    connection has its own, named by the connection's states, so a late will of an earlier one is refused).
    """

    def __init__(self, high: int = -1, state_seq: int = -1, state_mac: str = "", will: int | None = None) -> None:
        self.high = high
        self.seen: set[int] = set()
        self.state_seq = state_seq
        self.state_mac = state_mac
        self.will = will

    def copy(self, seq: int) -> bool:
        """An event or verdicts message; False for a replay."""
        if seq <= self.high - WINDOW or seq in self.seen:
            return False
        self.seen.add(seq)
        if seq > self.high:
            self.high = seq
            if len(self.seen) > 2 * WINDOW:
                self.seen = {s for s in self.seen if s > self.high - WINDOW}
        return True

    def state(self, seq: int, mac: str, online: bool) -> str | None:
        """A state message: "new", "again" (the same retained message) or None for a replay."""
        if seq > self.state_seq:
            self.state_seq, self.state_mac = seq, mac
        elif seq == self.state_seq and hmac.compare_digest(mac, self.state_mac):
            return "again"
        elif not online and self.will is not None and seq == self.will:
            # a will fires once; the newest state stays the one its retained copy is compared with (taking the
            # will's MAC here refused that copy, resent by the board after it reconnected, as a replay)
            self.will = None
        else:
            return None
        self.high = max(self.high, seq)
        return "new"


def payload_mac(payload: bytes) -> str:
    m = MAC_TAIL.search(payload[-TAIL_LEN - 1:])
    return m.group(1).decode() if m else ""
