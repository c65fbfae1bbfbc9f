"""The kiosk killed INTO seconds into dark's turn and started again DOWN seconds later; dark's clock is read
AFTER seconds after the restart (issue 34, finding 7's 25 s / 38 s / 6 s by default). Prints dark's own time
(before the crash + after the restart, measured here) and what his clock charged. Any version of the kiosk:
`python -m bench.bench_clock_crash [INTO DOWN AFTER]` (real time: about INTO + DOWN + AFTER seconds)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from kiosk.service import RefereeService

WORKER = """
import json, sys, time
import kiosk.service as service
from core.rules.position import Position
s = service.RefereeService(sys.argv[1])
s.submit({"event": "new_match", "length": 1, "rules": {"rule_set": "tournament_usbgf",
          "clock": {"per_point": 600, "delay": 0, "delay_kind": "simple"}}})
s.submit({"event": "roll", "dice": [3, 1]})
after = Position.start().play((3, 1), "8/5 6/5")
s.submit({"event": "board", **after.to_dict(), "stable": True})
s.submit({"event": "button", "name": "clock", "side": "light"})
print(json.dumps(s.state()["clock"]), flush=True)
time.sleep(3600)
"""


def main(into: float, down: float, after: float) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        journal = Path(tmp) / "journal.sqlite"
        worker = subprocess.Popen([sys.executable, "-c", WORKER, str(journal)], stdout=subprocess.PIPE, text=True)
        start = json.loads(worker.stdout.readline())  # type: ignore[union-attr]
        t0 = time.monotonic()
        time.sleep(into)
        os.kill(worker.pid, signal.SIGKILL)
        worker.wait()
        before_crash = time.monotonic() - t0
        time.sleep(down)
        again = RefereeService(journal, ticks=False)
        t1 = time.monotonic()
        time.sleep(after)
        again.submit({"event": "tick"})
        after_restart = time.monotonic() - t1
        charged = start["dark"] - again.state()["clock"]["dark"]
        again.close()
    print(json.dumps({"into_s": into, "down_s": down, "after_s": after,
                      "dark_own_time_s": round(before_crash + after_restart, 2), "dark_charged_s": round(charged, 2)}))


if __name__ == "__main__":
    args = [float(a) for a in sys.argv[1:4]] or [25.0, 38.0, 6.0]
    main(*args)
