"""A club evening under attack (issue 34), with the director as its own process: the figures the test cannot time.

    .venv/bin/python bench/bench_club_evening.py [--boards 19] [--flood 3000] [--rounds 5] [--speed 20]
                                                 [--before-config]

20 boards are paired and Mosquitto runs the configuration `gamao director broker-config` writes (`--before-config`:
without its byte bounds on the queues and without `use_username_as_clientid`, as before issue 34). `gamao
director` runs as a process; `--boards` boards play the bundled corpus matches in this process. The director is
paused (SIGSTOP) while mesa20's credentials and key (a spare board's club.json) flood `--flood` messages of 255
kB, then goes on (SIGCONT) while those credentials claim the director's client id and each board's, `--rounds`
times each. The owner's page is polled by its own process (GET /api/boards and /api/status every 50 ms) from
start to end.

Measured: Mosquitto's memory (resident, peak) and database; the owner's page latency (median, 99th percentile,
worst) over the evening and while the director was paused; seconds from SIGCONT until the director holds every
board's journal; the director's link and refusal counts; then every board's record checked against the archive.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from club.director import Director, wait_for  # noqa: E402
from club.mosquitto import LocalBroker, free_port  # noqa: E402
from club.pairing import Pairing  # noqa: E402
from tests.club.attacks import Takeover, flood, memory, saved_database  # noqa: E402
from tests.club.conftest import CLUB, MATCHES, Board, check_director, names  # noqa: E402

ATTACKER = "mesa20"
POLLER = """
import json, sys, time, httpx
url, stop, out = sys.argv[1], sys.argv[2], sys.argv[3]
rows = []
with httpx.Client(timeout=120, limits=httpx.Limits(max_keepalive_connections=0)) as http:
    import os
    while not os.path.exists(stop):
        for path in ("/api/boards", "/api/status"):
            t0 = time.time()
            try:
                ok = http.get(url + path).status_code == 200
            except httpx.HTTPError:
                ok = False
            rows.append((t0, time.time() - t0, ok))
        time.sleep(0.05)
open(out, "w").write(json.dumps(rows))
"""
BEFORE = ("max_queued_bytes", "max_inflight_bytes", "use_username_as_clientid")


def stats(rows: list[tuple[float, float, bool]]) -> dict[str, Any]:
    lat = sorted(r[1] for r in rows)
    if not lat:
        return {"requests": 0}
    return {"requests": len(lat), "failed": sum(1 for r in rows if not r[2]),
            "median_ms": round(lat[len(lat) // 2] * 1000, 1), "p99_ms": round(lat[int(len(lat) * 0.99)] * 1000, 1),
            "worst_ms": round(lat[-1] * 1000, 1)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--boards", type=int, default=19)
    ap.add_argument("--flood", type=int, default=3000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--speed", type=float, default=20.0, help="the boards' play speed (1e6: as fast as they can)")
    ap.add_argument("--before-config", action="store_true", help="the broker without issue 34's bounds and client ids")
    ap.add_argument("--keep", action="store_true", help="keep the run's folder (its broker database can be 0.8 GB)")
    ap.add_argument("--director-code", metavar="DIR", help="run `gamao director` from another checkout (e.g. one from "
                    "before the intake and the views were apart: `git archive COMMIT | tar -x -C DIR`)")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="gamao-evening-"))
    pairing = Pairing(tmp / "director")
    for name in names(20):
        pairing.pair(name, CLUB)
    broker = LocalBroker.paired(tmp / "broker", pairing)
    if args.before_config:
        conf = broker.conf.read_text().splitlines()
        broker.conf.write_text("\n".join(line for line in conf if not line.startswith(BEFORE)) + "\n")
    broker.start()
    assert broker.proc is not None
    port = free_port()
    code = Path(args.director_code).resolve() if args.director_code else ROOT
    env = {**os.environ, "PYTHONPATH": str(code)}
    log = open(tmp / "director.log", "wb")  # noqa: SIM115
    director = subprocess.Popen([sys.executable, "-m", "cli", "director", "--broker", f"mqtt://127.0.0.1:{broker.port}",
                                 "--data-dir", str(tmp / "director"), "--club", CLUB, "--port", str(port)],
                                cwd=code, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    http = httpx.Client(timeout=120)

    def status() -> dict[str, Any]:
        return http.get(url + "/api/status").json()

    boards: list[Board] = []
    poller = None
    try:
        assert wait_for(lambda: _up(http, url) and status()["connected"], 30), "the director did not start"
        poller = subprocess.Popen([sys.executable, "-c", POLLER, url, str(tmp / "stop"), str(tmp / "page.json")])
        boards = [Board(broker, n, tmp / n, match=MATCHES[i % 2], speed=args.speed)
                  for i, n in enumerate(names(args.boards))]
        assert wait_for(lambda: all(b.publisher.connected.is_set() for b in boards), 20)
        base = memory(broker.proc.pid)[0]
        director.send_signal(signal.SIGSTOP)
        paused_at = time.time()
        for b in boards:
            b.play()
        flooded = flood(broker, ATTACKER, CLUB, args.flood)
        after_flood = memory(broker.proc.pid)
        database = saved_database(broker)
        director.send_signal(signal.SIGCONT)
        resumed_at = time.time()
        ids = [f"gamao-director-{CLUB}"] + [f"gamao-{CLUB}-{b.name}" for b in boards]
        tries = [Takeover(broker, ATTACKER, cid) for cid in ids]
        for _ in range(args.rounds):
            for t in tries:
                t.run(1, hold=0.05)
        assert wait_for(lambda: all(b.done() for b in boards), 600), "the boards did not finish"
        assert all(b.publisher.wait_idle(120) for b in boards)
        truth = {b.name: sum(b.journal.count(m["id"]) for m in b.journal.matches()) for b in boards}
        caught = wait_for(lambda: _events(http, url) >= sum(truth.values()), 600, step=0.2)
        caught_up_s = round(time.time() - resumed_at, 1)
        final = status()
        (tmp / "stop").write_text("")
        poller.wait(60)
        rows = json.loads((tmp / "page.json").read_text())
        report: dict[str, Any] = {
            "config": "before (count-bounded queues, free client ids)" if args.before_config else "broker-config",
            "director_code": str(code), "boards": args.boards, "speed": args.speed, "flood": flooded, "takeover_tries": sum(t.connected + t.refused for t in tries),
            "mosquitto_mb": {"before": round(base / 2**20), "after_flood": round(after_flood[0] / 2**20),
                             "peak": round(memory(broker.proc.pid)[1] / 2**20)},
            "database_mb": round(database / 2**20, 1),
            "director_paused_s": round(resumed_at - paused_at, 1), "caught_up": caught,
            "caught_up_after_resume_s": caught_up_s,
            "page_whole_evening": stats(rows),
            "page_while_paused": stats([r for r in rows if paused_at <= r[0] < resumed_at]),
            "page_after_resume": stats([r for r in rows if r[0] >= resumed_at]),
            "director_link": final.get("link"), "refused": {k: v for k, v in final["refused"].items() if v},
            "director_stats": final["stats"],
            "boards_reconnected": sum(1 for b in boards if b.publisher.stats["connections"] > 1)}
        director.terminate()
        director.wait(30)
        archive = Director(None, tmp / "director", club=CLUB).start()  # what the director kept, read back
        try:
            report["events_equal"] = check_director(archive, boards)
        except AssertionError as exc:
            report["events_equal"] = f"NOT EQUAL: {exc}"
        finally:
            archive.close()
    finally:
        if poller is not None and poller.poll() is None:
            (tmp / "stop").write_text("")
            poller.wait(60)
        for b in boards:
            b.close()
        if director.poll() is None:
            director.send_signal(signal.SIGCONT)
            director.terminate()
            director.wait(30)
        log.close()
        broker.stop()
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    print(json.dumps(report, indent=1))
    return 0


def _up(http: httpx.Client, url: str) -> bool:
    try:
        return http.get(url + "/api/status").status_code == 200
    except httpx.HTTPError:
        return False


def _events(http: httpx.Client, url: str) -> int:
    """The events the director took in (its archive's count through /api/status)."""
    return int(http.get(url + "/api/status").json()["stats"]["events"])


if __name__ == "__main__":
    sys.exit(main())
