"""What the journal's sync policy costs an SD card: bytes written and flushes per event.

    .venv/bin/python bench/bench_journal_card.py [--dir FOLDER] [--events 2000] [--json]

Records the demo's matches' events one by one through kiosk.journal.Journal (WAL, synchronous=FULL: every
event is on the card before the referee acts on it), in a child process per policy, and reads the child's
/proc/self/io: `wchar` (bytes handed to write()) and `write_bytes` (bytes the kernel sent to the block
device, what wears a card), per event. With strace on the machine, also the fsync/fdatasync calls per event.
The same run with synchronous=NORMAL (flushes only at checkpoints; a power cut may lose the last events)
is printed beside it as the reference. FOLDER must be on a real disk (not tmpfs) for write_bytes to count.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def io_counters() -> dict[str, int]:
    out = {}
    for line in Path("/proc/self/io").read_text().splitlines():
        key, value = line.split(":")
        out[key.strip()] = int(value)
    return out


def child(folder: str, events: int, synchronous: str) -> None:
    """Run in a child process: append EVENTS events, print the /proc/self/io deltas as JSON."""
    from kiosk.journal import Journal
    from tests.kiosk.test_journal_damage import demo_events

    source = demo_events()
    journal = Journal(Path(folder) / "journal.sqlite")
    journal._db.execute(f"PRAGMA synchronous={synchronous}")
    before = io_counters()
    for i in range(events):
        journal.append(source[i % len(source)])
    journal.close()
    after = io_counters()
    print(json.dumps({k: after[k] - before[k] for k in ("wchar", "write_bytes", "syscw")}))


def measure(folder: Path, events: int, synchronous: str, strace: bool) -> dict[str, float]:
    work = Path(tempfile.mkdtemp(prefix="gamao-card-", dir=folder))
    try:
        cmd = [sys.executable, __file__, "--child", str(work), "--events", str(events), "--sync", synchronous]
        trace = work / "strace.txt"
        if strace:
            cmd = ["strace", "-f", "-c", "-o", str(trace), "-e", "trace=fsync,fdatasync", *cmd]
        out = subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=3600).stdout
        io = json.loads(out.strip().splitlines()[-1])
        size = sum(p.stat().st_size for p in work.glob("journal.sqlite*"))
        result = {"events": events, "sync": synchronous,
                  "wchar_per_event": io["wchar"] / events, "write_bytes_per_event": io["write_bytes"] / events,
                  "write_calls_per_event": io["syscw"] / events, "journal_bytes_per_event": size / events}
        if strace and trace.exists():
            calls = 0
            for line in trace.read_text().splitlines():
                m = re.match(r"\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(fsync|fdatasync)$", line)
                if m:
                    calls += int(m.group(1))
            result["flushes_per_event"] = calls / events
        return result
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--dir", type=Path, default=Path.home() / ".cache", help="a folder on a real disk")
    p.add_argument("--events", type=int, default=2000)
    p.add_argument("--json", action="store_true")
    p.add_argument("--child", help=argparse.SUPPRESS)
    p.add_argument("--sync", default="FULL", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        child(args.child, args.events, args.sync)
        return
    args.dir.mkdir(parents=True, exist_ok=True)
    strace = shutil.which("strace") is not None
    rows = [measure(args.dir, args.events, sync, strace) for sync in ("FULL", "NORMAL")]
    if args.json:
        print(json.dumps(rows))
        return
    for r in rows:
        flushes = f", {r['flushes_per_event']:.2f} fsync/event" if "flushes_per_event" in r else ""
        print(f"synchronous={r['sync']:6} {r['events']} events: {r['write_bytes_per_event']:8.0f} B to the disk/event "
              f"({r['wchar_per_event']:.0f} B written by SQLite, {r['write_calls_per_event']:.1f} write calls{flushes}); "
              f"the journal holds {r['journal_bytes_per_event']:.0f} B/event")
    mib_day = rows[0]["write_bytes_per_event"] * 600 / 2**20
    print(f"a club night of 600 events with synchronous=FULL writes about {mib_day:.1f} MiB to the card")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    main()
