"""The journal's check at start and its salvage, on a journal of many demo matches.

    .venv/bin/python bench/bench_journal.py             # 10 copies of the demo's four matches (~9,800 events)
    .venv/bin/python bench/bench_journal.py --copies 100 --json

Builds the journal with synchronous=OFF (the figure is the check, not the building), then times
``kiosk.journal_health.inspect`` on the healthy file (what every start of the kiosk pays), cuts the file to two thirds
and times ``open_journal`` (inspect, salvage into a new journal, open it), and reports the peak memory.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kiosk.journal import Journal  # noqa: E402
from kiosk.journal_health import inspect, open_journal  # noqa: E402
from tests.kiosk.test_journal_damage import demo_events  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=10, help="how many times the demo's four matches are recorded")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    events = demo_events()
    folder = Path(tempfile.mkdtemp(prefix="gamao-bench-journal-"))
    path = folder / "journal.sqlite"
    journal = Journal(path)
    journal._db.execute("PRAGMA synchronous=OFF")
    for _ in range(args.copies):
        for event in events:
            journal.append(event)
    journal.close()
    size = path.stat().st_size
    t = time.perf_counter()
    health = inspect(path)
    check = time.perf_counter() - t
    with open(path, "r+b") as fh:
        fh.truncate(size * 2 // 3)
    t = time.perf_counter()
    salvaged, after = open_journal(path)
    salvage = time.perf_counter() - t
    out = {"events": len(health.events), "megabytes": round(size / 1e6, 1), "check_s": round(check, 2),
           "salvage_s": round(salvage, 2), "kept_after_cut": salvaged.count(),
           "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)}
    salvaged.close()
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{out['events']} events, {out['megabytes']} MB: check at start {out['check_s']} s; cut to 2/3 and "
              f"salvaged in {out['salvage_s']} s ({out['kept_after_cut']} events kept); peak memory "
              f"{out['peak_rss_mb']} MB")


if __name__ == "__main__":
    main()
