"""A seeded stream of dice frames with every kind of damage, and the rolls a correct bridge must emit.

Every damaged frame is derived from the *next* good roll (same seq, same dice) or repeats an older seq,
so even damage that happened to produce a valid frame could only deliver the right roll early, never a
wrong or extra one; the check is therefore exact: the emitted rolls must equal ``expected``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field

from firmware_bridge.framing import crc8, encode_frame

KINDS = ("valid", "noise", "bitflip", "truncated", "overlong", "wrong_crc", "bad_die", "duplicate", "heartbeat")


@dataclass
class FuzzStream:
    chunks: list[bytes]
    expected: list[tuple[int, tuple[int, int], tuple[bool, bool]]]
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def frames(self) -> int:
        return sum(self.counts.values())

    @property
    def size(self) -> int:
        return sum(map(len, self.chunks))


def _roll_payload(seq: int, dice: tuple[int, int], cocked: tuple[bool, bool]) -> str:
    return f"ROLL,{seq},{dice[0]},{dice[1]},{'C' if cocked[0] else 'F'},{'C' if cocked[1] else 'F'}"


def frames(rng: random.Random, n: int, counts: dict[str, int],
           expected: list[tuple[int, tuple[int, int], tuple[bool, bool]]]) -> Iterator[bytes]:
    """Yield ``n`` frames (good and damaged) and append the good rolls to ``expected``."""
    seq = rng.randrange(65536)  # start anywhere so the run crosses the 65535 -> 0 wrap now and then
    # A boot id of its own, so several streams can follow each other through one bridge (a soak).
    yield encode_frame(f"HELLO,1,1.0,FUZZ,{rng.getrandbits(16):04X},{seq}")
    counts["hello"] = 1
    history: list[int] = []
    uptime = 0
    weights = (30, 12, 12, 10, 4, 8, 8, 10, 6)
    for _ in range(n - 1):
        kind = rng.choices(KINDS, weights)[0]
        if kind == "duplicate" and not history:
            kind = "valid"  # before any roll the bridge knows no seq, so nothing can be a duplicate yet
        counts[kind] = counts.get(kind, 0) + 1
        nxt = (seq + 1) % 65536
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        cocked = (rng.random() < 0.05, rng.random() < 0.05)
        good = encode_frame(_roll_payload(nxt, dice, cocked))
        if kind == "valid":
            seq = nxt
            history.append(seq)
            del history[:-50]
            expected.append((seq, dice, cocked))
            yield good
        elif kind == "noise":
            yield bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 40)))
        elif kind == "bitflip":
            raw = bytearray(good)
            raw[rng.randrange(len(raw))] ^= 1 << rng.randrange(8)
            yield bytes(raw)
        elif kind == "truncated":
            yield good[: rng.randint(1, len(good) - 4)]
        elif kind == "overlong":
            yield b"$" + bytes(rng.choice(b"ROL,0123456789FC") for _ in range(rng.randint(97, 300))) + b"\r\n"
        elif kind == "wrong_crc":
            payload = good[1 : good.rindex(b"*")]
            yield b"$%s*%02X\r\n" % (payload, crc8(payload) ^ rng.randint(1, 255))
        elif kind == "bad_die":
            bad = (rng.choice((0, 7)), rng.randint(0, 7)) if rng.random() < 0.5 else (rng.randint(1, 6), rng.choice((0, 7)))
            yield encode_frame(_roll_payload(nxt, bad, cocked))
        elif kind == "duplicate":
            old = rng.choice(history) if history else seq
            yield encode_frame(_roll_payload(old, dice, cocked))  # a re-send, even with other dice, is old news
        else:
            uptime += rng.randint(900, 1100)  # a real unit's uptime only grows (going back means a restart)
            yield encode_frame(f"HB,{uptime},{rng.choice(['-', '55', '100'])}")


def build(n: int, seed: int, max_chunk: int = 512) -> FuzzStream:
    """The frames joined and cut into reads of random size, as a serial port delivers them."""
    rng = random.Random(seed)
    counts: dict[str, int] = {}
    expected: list[tuple[int, tuple[int, int], tuple[bool, bool]]] = []
    data = b"".join(frames(rng, n, counts, expected))
    chunks = []
    pos = 0
    while pos < len(data):
        step = rng.randint(1, max_chunk)
        chunks.append(data[pos : pos + step])
        pos += step
    return FuzzStream(chunks, expected, counts)
