"""The referee's verdict latency with and without the coach, in the same run (issue 12: the coach never
delays a verdict).

    .venv/bin/python bench/bench_coach_latency.py               # 2 corpus matches, every configuration
    .venv/bin/python bench/bench_coach_latency.py --files 5 --json

Each corpus match becomes the referee's event stream (rolls, boards halfway and after each play, cube
actions; as tests/core/referee/referee_streams.py builds them) and is fed to the real referee service (real
SQLite journal), one configuration after another for each match so drift on a shared machine spreads evenly:
no coach; the coach with the fake engine answering at once, after 0.05 s and after 0.5 s per call; and the
coach with GNU Backgammon (engine/gnubg.py) when it is installed. The coach's tutor is on its most eager
setting (doubtful) so every complete play is checked and every committed play rated. Timed: each
``submit`` (journal + referee + the subscribers, where the coach only queues the state), per event kind.
Wall clock and the submitting thread's CPU time are both reported: on a machine shared with other work a
wall-clock peak is often a wait for a core (or the journal's fsync), not work. Also reported: what the coach
produced (ratings, warnings) and how long its worker needed after the last
event to catch up (its backlog; the referee never waits for it).

Measured here (x86-64, 2 cores shared with other work; `bench/bench_coach_latency.py --files 3`, 2,293 events,
gnubg 1.07 through engine/gnubg.py):

    configuration                mean ms  p99 ms  max ms  cpu mean ms  cpu max ms  catch-up s
    no coach                        7.40   24.14  199.57         0.52       14.99        0.00
    coach, fake engine 0 s          6.81   32.18  346.37         0.49       14.43        0.03
    coach, fake engine 0.05 s       6.44   30.08  188.12         0.50       14.45       10.34
    coach, fake engine 0.5 s        5.35   18.18   66.75         0.51       15.34      193.98
    coach, gnubg 0-ply              6.20   25.52  130.92         0.51       15.16        0.05

The referee's work per event (CPU) is the same with and without the coach, whatever the engine's speed; the
wall-clock means and peaks move by as much between repeated runs without the coach (the journal's fsync and
the shared cores), and the slowest engine only makes the coach's own output late (the catch-up: every rating
of three whole matches fed at machine speed, 0.5 s each).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.base import Engine, EngineUnavailable  # noqa: E402
from engine.fake import FakeEngine  # noqa: E402
from kiosk.coach import CoachService, CoachSettings  # noqa: E402
from kiosk.service import RefereeService  # noqa: E402
from tests.core.referee.referee_streams import load, match_stream, subset  # noqa: E402


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))] if s else 0.0


def gnubg_factory() -> tuple[Callable[[], Engine] | None, str]:
    try:
        from engine.gnubg import GnubgEngine  # type: ignore[import-not-found,unused-ignore]
    except ImportError as exc:
        return None, f"engine/gnubg.py not importable ({exc})"
    try:
        GnubgEngine(plies=0).close()
    except EngineUnavailable as exc:
        return None, str(exc)
    return (lambda: GnubgEngine(plies=0)), ""


def run(events: list[dict[str, Any]], factory: Callable[[], Engine] | None, coach_on: bool) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        service = RefereeService(Path(tmp) / "journal.sqlite")
        coach = None
        ratings: list[float] = []
        warnings = 0
        if coach_on:
            coach = CoachService(service, factory, CoachSettings(tutor="doubtful", tutor_plies=0),
                                 data_dir=Path(tmp)).start()

            def seen(snap: dict[str, Any]) -> None:
                nonlocal warnings
                if snap.get("tutor"):
                    warnings += 1
                rating = snap.get("rating") or {}
                if rating.get("status") in ("rated", "unranked", "forced"):
                    ratings.append(time.perf_counter())

            coach.subscribe(seen)
        times: dict[str, list[float]] = {"board": [], "roll": [], "other": []}
        cpu: list[float] = []
        for event in events:
            t0, c0 = time.perf_counter(), time.thread_time()
            try:
                service.submit(event)
            except ValueError:
                pass
            took = time.perf_counter() - t0
            cpu.append(time.thread_time() - c0)
            kind = event["event"] if event["event"] in times else "other"
            times[kind].append(took)
        end = time.perf_counter()
        backlog = 0.0
        records = 0
        if coach is not None:
            coach.idle(timeout=600)
            backlog = time.perf_counter() - end
            records = sum(1 for r in coach.review()["plays"])
            coach.close()
        service.close()
    return {"times": times, "cpu": cpu, "warnings": warnings, "backlog": backlog, "rated_last_game": records}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--files", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    gnubg, why = gnubg_factory()
    configs: list[tuple[str, Callable[[], Engine] | None, bool]] = [
        ("no coach", None, False),
        ("coach, fake engine 0 s", lambda: FakeEngine(), True),
        ("coach, fake engine 0.05 s", lambda: FakeEngine(delay=0.05), True),
        ("coach, fake engine 0.5 s", lambda: FakeEngine(delay=0.5), True),
    ]
    if gnubg is not None:
        configs.append(("coach, gnubg 0-ply", gnubg, True))
    totals: dict[str, dict[str, Any]] = {name: {"times": {"board": [], "roll": [], "other": []}, "cpu": [],
                                                "warnings": 0, "backlog": 0.0} for name, _, _ in configs}
    for path in subset(args.files):
        stream, _ = match_stream(load(path), seed=1)
        events = [t.event for t in stream]
        for name, factory, on in configs:
            out = run(events, factory, on)
            for k, v in out["times"].items():
                totals[name]["times"][k] += v
            totals[name]["cpu"] += out["cpu"]
            totals[name]["warnings"] += out["warnings"]
            totals[name]["backlog"] += out["backlog"]
    report = {}
    for name, t in totals.items():
        every = [x for v in t["times"].values() for x in v]
        report[name] = {
            "events": len(every),
            "mean_ms": round(1000 * sum(every) / max(1, len(every)), 2),
            "p99_ms": round(1000 * pct(every, 0.99), 2),
            "max_ms": round(1000 * max(every, default=0), 2),
            "cpu_mean_ms": round(1000 * sum(t["cpu"]) / max(1, len(t["cpu"])), 2),
            "cpu_max_ms": round(1000 * max(t["cpu"], default=0), 2),
            "board_p99_ms": round(1000 * pct(t["times"]["board"], 0.99), 2),
            "roll_p99_ms": round(1000 * pct(t["times"]["roll"], 0.99), 2),
            "tutor_warnings_pushed": t["warnings"],
            "coach_catch_up_s": round(t["backlog"], 2),
        }
    if args.json:
        print(json.dumps({"files": args.files, "gnubg": why or "used", "configs": report}, indent=1))
        return 0
    print(f"{args.files} corpus matches; gnubg: {why or 'used'}")
    print(f"{'configuration':28} {'events':>6} {'mean ms':>8} {'p99 ms':>7} {'max ms':>7} {'cpu mean':>8} {'cpu max':>7} "
          f"{'board p99':>9} {'roll p99':>8} {'warnings':>8} {'catch-up s':>10}")
    for name, r in report.items():
        print(f"{name:28} {r['events']:>6} {r['mean_ms']:>8} {r['p99_ms']:>7} {r['max_ms']:>7} {r['cpu_mean_ms']:>8} "
              f"{r['cpu_max_ms']:>7} {r['board_p99_ms']:>9} {r['roll_p99_ms']:>8} {r['tutor_warnings_pushed']:>8} "
              f"{r['coach_catch_up_s']:>10}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
