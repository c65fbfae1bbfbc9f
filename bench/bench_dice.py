"""Dice bridge benchmarks: parser throughput, fuzz memory, reconnect time, and a long soak.

    .venv/bin/python bench/bench_dice.py                 # quick: ~15 s
    .venv/bin/python bench/bench_dice.py --soak 2000000  # long fuzz soak (2 million frames)
    .venv/bin/python bench/bench_dice.py --json          # one JSON object with every figure

Run from the repository root (it uses the seeded fuzz stream of tests/firmware_bridge/fuzzgen.py).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from firmware_bridge.events import EventCollector  # noqa: E402
from firmware_bridge.framing import FrameParser, encode_frame  # noqa: E402
from firmware_bridge.link import DiceLink  # noqa: E402
from firmware_bridge.protocol import DiceProtocol  # noqa: E402
from firmware_bridge.sim import DiceSimulator  # noqa: E402
from tests.firmware_bridge.fuzzgen import build  # noqa: E402


class _Null:
    def write(self, data: bytes) -> None:
        pass


def clean_stream(n: int) -> list[bytes]:
    rng = random.Random(1)
    data = b"".join(encode_frame(f"ROLL,{i % 65536},{rng.randint(1, 6)},{rng.randint(1, 6)},F,F") for i in range(n))
    return [data[i : i + 256] for i in range(0, len(data), 256)]


def bench_parser(n: int) -> dict[str, float]:
    chunks = clean_stream(n)
    parser = FrameParser()
    t = time.perf_counter()
    count = sum(len(parser.feed(c)) for c in chunks)
    parse_s = time.perf_counter() - t
    assert count == n
    proto = DiceProtocol(lambda e: None)
    proto.connection_made(_Null())
    proto.data_received(encode_frame("HELLO,1,1.0,BENCH,0001,0"))
    t = time.perf_counter()
    for c in chunks:
        proto.data_received(c)
    proto_s = time.perf_counter() - t
    assert proto.stats["rolls"] == n
    return {"parser_frames_per_s": n / parse_s, "protocol_frames_per_s": n / proto_s}


def bench_fuzz(frames: int, seed: int, batch: int = 100_000) -> dict[str, Any]:
    """Fuzz one bridge with ``frames`` frames, generated in batches (each a fresh unit boot) so that only
    the bridge, not the test data, could make memory grow."""
    totals = {"frames": 0, "bytes": 0, "good_rolls": 0, "rolls_out": 0, "wrong_rolls": 0}
    state = {"expected": [], "index": 0}

    def check(event: dict[str, Any]) -> None:
        if event["event"] == "roll":
            expected = state["expected"]
            i = state["index"]
            if i >= len(expected) or (event["seq"], tuple(event["dice"])) != expected[i][:2]:
                totals["wrong_rolls"] += 1
            state["index"] = i + 1

    proto = DiceProtocol(check)
    proto.connection_made(_Null())
    samples: list[int] = []
    elapsed = 0.0
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    try:
        for k in range((frames + batch - 1) // batch):
            tracemalloc.stop()  # the generator's own allocations are not the bridge's
            stream = build(min(batch, frames - k * batch), seed + k)
            tracemalloc.start()
            state["expected"], state["index"] = stream.expected, 0
            if k == 0:
                base = tracemalloc.get_traced_memory()[0]
            t = time.perf_counter()
            for chunk in stream.chunks:
                proto.data_received(chunk)
            elapsed += time.perf_counter() - t
            samples.append(tracemalloc.get_traced_memory()[0])
            totals["frames"] += stream.frames
            totals["bytes"] += stream.size
            totals["good_rolls"] += len(stream.expected)
            totals["rolls_out"] += state["index"]
            if state["index"] != len(stream.expected):
                totals["wrong_rolls"] += abs(len(stream.expected) - state["index"])
            del stream
    finally:
        tracemalloc.stop()
    return {**totals, "rejected": proto.stats["rejected"], "duplicates": proto.stats["duplicates"],
            "seconds_with_tracemalloc": elapsed, "frames_per_s_with_tracemalloc": totals["frames"] / elapsed,
            "held_bytes_after_first_batch": samples[0] - base,
            "held_bytes_growth_after": max(samples) - samples[0], "batches": len(samples)}


def bench_reconnect(times: int) -> dict[str, Any]:
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        events = EventCollector()
        with DiceSimulator(Path(tmp) / "dice") as sim, DiceLink(sim.port, events):
            assert events.wait_for(lambda e: e["event"] == "hello", 5)
            for i in range(times):
                sim.roll()
                assert events.wait_count("roll", i + 1, 5)
                sim.unplug()
                assert events.wait_count("lost", i + 1, 5)
                t = time.monotonic()
                sim.replug()
                assert events.wait_count("reconnected", i + 1, 5)
                results.append(time.monotonic() - t)
            rolls = [e["seq"] for e in events.of("roll")]
            assert rolls == list(range(times)), rolls
    results.sort()
    return {"replugs": times, "reconnect_s_median": results[len(results) // 2], "reconnect_s_max": results[-1],
            "reconnect_s_min": results[0]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=200_000, help="clean frames for the throughput figure")
    parser.add_argument("--fuzz", type=int, default=300_000, help="fuzz frames with memory figures")
    parser.add_argument("--soak", type=int, default=0, metavar="N", help="also run an N-frame fuzz soak")
    parser.add_argument("--replugs", type=int, default=10)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures: dict[str, Any] = {"throughput": bench_parser(args.frames), "fuzz": bench_fuzz(args.fuzz, 6),
                               "reconnect": bench_reconnect(args.replugs)}
    if args.soak:
        figures["soak"] = bench_fuzz(args.soak, 4242)
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        tp, rc = figures["throughput"], figures["reconnect"]
        print(f"parser:   {tp['parser_frames_per_s']:,.0f} frames/s (framing + CRC), "
              f"{tp['protocol_frames_per_s']:,.0f} frames/s (+ messages, duplicates, ACK)")
        for name in ("fuzz", "soak"):
            if name in figures:
                f = figures[name]
                print(f"{name}:     {f['frames']:,} frames ({f['bytes']:,} bytes): {f['rolls_out']:,}/{f['good_rolls']:,} "
                      f"good rolls out, {f['wrong_rolls']} wrong, {f['rejected']:,} rejected, "
                      f"{f['duplicates']:,} duplicates; bridge memory after batch 1: {f['held_bytes_after_first_batch']:,} B, "
                      f"growth over {f['batches']} batches: {f['held_bytes_growth_after']:,} B")
        print(f"reconnect: {rc['replugs']} replugs, median {rc['reconnect_s_median'] * 1000:.0f} ms, "
              f"max {rc['reconnect_s_max'] * 1000:.0f} ms (pty back -> 'reconnected')")
    bad = any(figures[k]["wrong_rolls"] or figures[k]["rolls_out"] != figures[k]["good_rolls"]
              for k in ("fuzz", "soak") if k in figures)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
