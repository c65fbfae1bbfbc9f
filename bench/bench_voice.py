"""Latency from a referee event to its spoken call starting: real RefereeService (SQLite journal), real espeak-ng
as a separate process (kiosk/voice.py). Target: the call starts within 300 ms of the verdict.

    .venv/bin/python bench/bench_voice.py [--match 2pt] [--speed 2] [--wav DIR]

The demo's match script (kiosk/demo_script.py: a cocked die, an illegal play, a die left unplayed, the cube, the
game's and the match's end) is fed to the service at `--speed` times the demo's pace. For each event: t0 just
before `service.submit(event)` (journal write, referee, pushes); the call's start is when its espeak-ng process has
been started (playing on the sound device, or writing the WAV where there is none); with `--wav`, also when the WAV
is written (a bound on when its first sound can play).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kiosk.demo_script import load_match, script  # noqa: E402
from kiosk.service import RefereeService  # noqa: E402
from kiosk.voice import Voice  # noqa: E402


def event_of(step) -> dict | None:  # type: ignore[no-untyped-def,type-arg]
    if step.kind == "roll":
        return {"event": "roll", **step.data}
    if step.kind in ("board", "hand"):
        return {**step.data, "stable": step.kind == "board"}
    return step.data or None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--match", default="2pt", choices=["2pt", "3pt"])
    parser.add_argument("--speed", type=float, default=2.0, help="times the demo's pace (default 2)")
    parser.add_argument("--wav", metavar="DIR", help="also write the calls' WAVs here (default: a temporary folder)")
    args = parser.parse_args()
    if shutil.which("espeak-ng") is None:
        print("espeak-ng is not installed: apt-get install espeak-ng", file=sys.stderr)
        return 2
    folder = Path(tempfile.mkdtemp(prefix="gamao-bench-voice-"))
    service = RefereeService(folder / "journal.sqlite")
    voice = Voice("pt", speak_to=args.wav or folder / "calls")
    try:
        for step in script(load_match(args.match)):
            event = event_of(step)
            if event is not None:
                t0 = time.monotonic()
                try:
                    verdicts = service.submit(event)
                except ValueError:
                    verdicts = []
                voice.on_verdicts(verdicts, asked=t0)
            time.sleep(step.wait / args.speed)
        voice.wait_idle(30)
    finally:
        voice.close()
        service.close()
    starts = [(c.started - c.asked) * 1000 for c in voice.calls if c.started is not None]
    wavs = [(c.synthesised - c.asked) * 1000 for c in voice.calls if c.synthesised is not None]
    print(f"{len(voice.calls)} calls: {', '.join(c.key for c in voice.calls)}")
    for name, values in (("event -> call started", starts), ("event -> WAV written", wavs)):
        if values:
            print(f"{name}: median {statistics.median(values):.1f} ms, worst {max(values):.1f} ms "
                  f"(target 300 ms for the start)")
    return 0 if starts and max(starts) < 300 else 1


if __name__ == "__main__":
    sys.exit(main())
