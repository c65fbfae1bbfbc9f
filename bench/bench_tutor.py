"""The tutor's warning before the opponent can roll: settled board -> the coach's push carrying the warning.

    .venv/bin/python bench/bench_tutor.py                    # this checkout, one whole corpus match
    .venv/bin/python bench/bench_tutor.py --root OLD_TREE    # the same bench against another tree (the "before")
    .venv/bin/python bench/bench_tutor.py --json

A whole corpus match is fed to the real referee service (real SQLite journal) as the board would be read:
each roll, then the settled board after the play (stable), with the coach on and its tutor on every play
(the most eager level, ``doubtful``) with GNU Backgammon (the Debian gnubg) as its engine, at the coach's
default depths. After each settled board the bench waits (as players do) until the coach is idle, then
``--think`` seconds of moving before the next roll. Timed, from the ``submit`` of the settled board:

- warning: the first coach push (what /ws/coach sends to the page) whose ``tutor`` warns about that board;
- verdict (this tree only when it has it): the first push whose ``tutor_check`` names that board: the
  coach's first judgement, warning or not (the screen's and the dice unit's "wait" ends there);
- final: the push whose ``tutor_check`` is final (the deeper look confirmed or withdrew it).

Measured on the development machine (2 cores shared with other jobs: load average 27-41 during the runs),
gnubg 1.07, the corpus match BoardLord v Llabba (7 points, 133 settled boards), tutor on every play with gnubg's
doubtful mark, the three runs back to back at nice 10 (`--root` = a copy of commit 992ed30, before issue 24):

                      warnings  warning median / worst   first verdict median / worst (5 slowest)   final median / worst
    before (992ed30)         3        2743 / 3041 ms      (no such push)                              -
    after                    7          25 /   64 ms       25 / 306 ms (56, 61, 64, 99, 306)          623 / 3435 ms
    after, --marks xg       15          28 /  148 ms       26 / 275 ms (95, 98, 115, 118, 275)        669 / 2454 ms

"warning" is the first push carrying a warning for that board (after: from the 0-ply look, or from the 2-ply
look when only it warns); "first verdict" is any verdict, warning or not, on every board (the end of the
screen's first "wait"); "final" is the deeper look's verdict (2 plies within the 2 s budget, a gnubg process of
its own; over budget it is killed and restarted, which the worst shows). The outliers are the machine's load;
the medians are the coach's own time. Before, the tutor's only look was 2 plies within a 2 s budget, falling
back to 0 plies, and the warning came after it. Of the 0-ply warnings, the deeper look withdrew 4 of 7 (gnubg's
marks) and 5 of 14 (XG's).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", help="the tree to bench (default: this checkout)")
    parser.add_argument("--file", type=int, default=0, help="which match of the referee streams' subset(8)")
    parser.add_argument("--think", type=float, default=0.2, help="seconds between the coach's idle and the next roll")
    parser.add_argument("--marks", choices=["gnubg", "xg"], default="gnubg",
                        help="the tree's marks when it has them (default gnubg's, as before issue 24)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    here = Path(__file__).resolve().parents[1]
    root = Path(args.root).resolve() if args.root else here
    sys.path.insert(0, str(root))
    if root != here:
        sys.path.insert(1, str(here))  # the corpus streams come from this checkout's tests

    from engine.gnubg import GnubgEngine
    from kiosk.coach import CoachService, CoachSettings
    from kiosk.service import RefereeService
    from tests.core.referee.referee_streams import load, match_stream, subset

    path = subset(8)[args.file]
    stream, _ = match_stream(load(path), seed=1, halfway=True, unstable=False)
    pushes: list[tuple[float, dict[str, Any]]] = []
    lock = threading.Lock()

    def seen(snap: dict[str, Any]) -> None:
        with lock:
            pushes.append((time.perf_counter(), snap))

    warn_ms: list[float] = []
    verdict_ms: list[float] = []
    final_ms: list[float] = []
    withdrawn = confirmed = checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        service = RefereeService(Path(tmp) / "journal.sqlite")
        # The same warning threshold before and after: gnubg's doubtful mark (0.03; the old tree has no marks).
        marks = {"marks": args.marks} if "marks" in CoachSettings.__dataclass_fields__ else {}
        coach = CoachService(service, lambda: GnubgEngine(plies=0), CoachSettings(tutor="doubtful", **marks),
                             data_dir=Path(tmp)).start()
        coach.subscribe(seen)
        time.sleep(0.5)
        coach.idle(timeout=120)  # gnubg started and its nets loaded (the kiosk starts long before the first play)
        for tagged in stream:
            event, tag = tagged.event, tagged.tag
            if tag.get("kind") == "roll":
                time.sleep(args.think)
            with lock:
                start_index = len(pushes)
            t0 = time.perf_counter()
            try:
                service.submit(event)
            except ValueError:
                pass
            if tag.get("kind") != "final":
                continue
            coach.idle(timeout=30)
            shown = (service.state().get("position") or {}).get("position_id")
            with lock:
                after = pushes[start_index:]
            checked += 1
            first_warn = next((t for t, s in after if (s.get("tutor") or {}).get("shown") == shown), None)
            if first_warn is not None:
                warn_ms.append(1000 * (first_warn - t0))
            checks = [(t, s["tutor_check"]) for t, s in after
                      if (s.get("tutor_check") or {}).get("shown") == shown]
            if checks:
                verdict_ms.append(1000 * (checks[0][0] - t0))
                last = next(((t, c) for t, c in checks if c.get("final")), None)
                if last is not None:
                    final_ms.append(1000 * (last[0] - t0))
                    first, end = checks[0][1], last[1]
                    if first.get("warn") and not end.get("warn"):
                        withdrawn += 1
                    elif first.get("warn") and end.get("warn"):
                        confirmed += 1
        coach.close()
        service.close()

    def figures(xs: list[float]) -> dict[str, float | int]:
        if not xs:
            return {"n": 0}
        return {"n": len(xs), "median_ms": round(statistics.median(xs), 1), "worst_ms": round(max(xs), 1)}

    report = {"root": str(root), "match": path.name, "load_average": [round(x, 1) for x in os.getloadavg()], "settled_boards": checked, "warning": figures(warn_ms),
              "first_verdict": figures(verdict_ms), "final_verdict": figures(final_ms),
              "warnings_withdrawn": withdrawn, "warnings_confirmed": confirmed,
              "slowest_first_verdicts_ms": [round(x) for x in sorted(verdict_ms)[-5:]]}
    print(json.dumps(report) if args.json else json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
