"""The referee service as a process of its own, for the power-cut test.

``python -m tests.kiosk.powercut_worker JOURNAL STREAM.jsonl``: opens the service on the journal
(replaying it), submits the stream's events from where the journal ends, and prints the index of each
event once ``submit`` has returned (the acknowledgement), until killed or done.
"""

from __future__ import annotations

import sys

from core.referee.events import read_lines
from kiosk.service import RefereeService


def main(journal: str, stream: str) -> None:
    with open(stream, encoding="utf-8") as fh:
        events = list(read_lines(fh))
    service = RefereeService(journal)
    start = service.journal.count()
    print(f"start {start}", flush=True)
    for i in range(start, len(events)):
        service.submit(events[i])
        print(i, flush=True)
    print("done", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
