"""How many events the kiosk's journal still records once its disk is full (issue 34, finding 7): a 3 MiB tmpfs
(root), 200 events, the disk filled to ENOSPC, then clock presses until one is refused; with and without the
reserve beside the journal (kiosk/journal.py). `python -m bench.bench_disk_reserve` (as root)."""

from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path

from kiosk.journal import Journal, JournalWriteError
from tests.kiosk.disks import fill_disk

PRESS = {"event": "button", "name": "clock", "side": "dark", "t": 12345.678}


def run(reserve: bool) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        disk = Path(tmp) / "disk"
        disk.mkdir()
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(disk)], check=True)
        try:
            journal = Journal(disk / "journal.sqlite")
            if reserve:
                journal.keep_reserve()
            journal.append({"event": "new_match", "length": 1})
            for _ in range(200):
                journal.append(PRESS)
            fill_disk(disk)
            recorded = 0
            try:
                while recorded < 100_000:
                    journal.append(PRESS)
                    recorded += 1
            except JournalWriteError:
                pass
            journal.close()
            return recorded
        finally:
            subprocess.run(["umount", "-l", str(disk)], check=False)


if __name__ == "__main__":
    print(json.dumps({"events_after_the_disk_filled_without_reserve": run(False),
                      "events_after_the_disk_filled_with_reserve": run(True)}))
