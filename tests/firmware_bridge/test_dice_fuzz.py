"""Fuzz the bridge's parser and protocol: 100,000+ damaged and good frames, seeded, pure (no I/O).

Every good roll comes out once and in order, nothing else comes out as a roll, nothing raises, and the
memory the bridge holds stays flat. ``--soak`` (or GAMAO_SOAK=1) runs 2,000,000 frames.
"""

from __future__ import annotations

import tracemalloc
from typing import Any

import pytest

from firmware_bridge.protocol import DiceProtocol
from tests.firmware_bridge.fuzzgen import FuzzStream, build
from tests.firmware_bridge.helpers import FakeClock
from tests.soak import HOW, soak


class RollChecker:
    """Checks rolls as they come (storing nothing, so memory measures the bridge alone)."""

    def __init__(self, expected: list[Any]) -> None:
        self.expected = expected
        self.index = 0
        self.mismatch: str | None = None
        self.other: dict[str, int] = {}

    def __call__(self, event: dict[str, Any]) -> None:
        kind = event["event"]
        if kind != "roll":
            self.other[kind] = self.other.get(kind, 0) + 1
            return
        got = (event["seq"], tuple(event["dice"]), tuple(event["cocked"]))
        if self.mismatch is None:
            if self.index >= len(self.expected):
                self.mismatch = f"extra roll {got}"
            elif got != self.expected[self.index]:
                self.mismatch = f"roll {self.index}: got {got}, expected {self.expected[self.index]}"
        self.index += 1


class NullTransport:
    def __init__(self) -> None:
        self.count = 0

    def write(self, data: bytes) -> None:
        self.count += 1


def run_fuzz(stream: FuzzStream) -> tuple[RollChecker, DiceProtocol, list[int]]:
    checker = RollChecker(stream.expected)
    proto = DiceProtocol(checker, clock=FakeClock())
    proto.connection_made(NullTransport())
    samples: list[int] = []
    tracemalloc.start()
    try:
        tenth = max(1, len(stream.chunks) // 10)
        for i, chunk in enumerate(stream.chunks):
            proto.data_received(chunk)
            if i % tenth == tenth - 1:
                samples.append(tracemalloc.get_traced_memory()[0])
    finally:
        tracemalloc.stop()
    return checker, proto, samples


def check(stream: FuzzStream) -> None:
    checker, proto, samples = run_fuzz(stream)
    assert checker.mismatch is None, checker.mismatch
    assert checker.index == len(stream.expected), f"{checker.index} rolls out of {len(stream.expected)}"
    assert proto.stats["rolls"] == len(stream.expected)
    assert proto.stats["duplicates"] >= stream.counts["duplicate"]
    assert checker.other.get("rejected", 0) > 0
    # Flat: after the first tenth (warm-up), held memory grows by less than 64 KiB however long the run.
    assert max(samples[1:]) - samples[0] < 64 * 1024, samples


def test_fuzz_100k_frames_every_good_roll_once_in_order() -> None:
    stream = build(110_000, seed=6)
    assert stream.frames >= 100_000
    assert min(stream.counts[k] for k in ("noise", "bitflip", "truncated", "overlong", "wrong_crc",
                                          "bad_die", "duplicate")) > 3000
    check(stream)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_fuzz_small_reads(seed: int) -> None:
    # Reads of 1-8 bytes stress frames split across reads.
    check(build(5_000, seed=seed, max_chunk=8))


@pytest.mark.soak
def test_fuzz_soak_2m_frames() -> None:
    if not soak():
        pytest.skip(f"long fuzz: {HOW}")
    for seed in range(20):
        check(build(100_000, seed=1000 + seed))


def test_the_fuzz_check_catches_a_bridge_without_duplicate_dropping(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("firmware_bridge.protocol.seq_newer", lambda seq, last: True)
    with pytest.raises(AssertionError, match=r"roll \d+: got|extra roll"):
        check(build(2_000, seed=9))
