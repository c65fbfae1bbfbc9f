"""A club night on one machine: N simulated boards, a real Mosquitto, the director and its page.

    .venv/bin/python bench/bench_club.py [--boards 20] [--speed 10] [--cut 60] [--inproc] [--no-browser]

Boards are `gamao demo --board NAME --broker URL --no-vision --no-dice` processes playing the bundled corpus
matches (3-point and 2-point, alternately) at `--speed`; `--inproc` plays them as threads of this process
instead (lighter, for counting how many boards one broker and one director carry: `--speed 1e6` floods).
`--cut S` drops the first board's connection for S seconds a quarter of the way into its match (a relay in
front of the broker, club.mosquitto.CutProxy).

Measured:
- verdict -> director's page: a board's `ruled` time (when its referee ruled, in the verdicts message) to
  the moment the page in headless Chromium received the board's update (median, 95th percentile, worst);
  also verdict -> director (the director process received and archived it);
- the broker's message rate: Mosquitto's own $SYS/broker/messages/received counter, per second;
- afterwards, every board's journal against the director's archive: events checked, missing, doubled.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from club.config import Broker, ClubConfig, make_client  # noqa: E402
from club.director import Director, wait_for  # noqa: E402
from club.mosquitto import CutProxy, LocalBroker, available  # noqa: E402
from club.pairing import Pairing  # noqa: E402
from club.publisher import BoardPublisher  # noqa: E402
from club.web import create_app  # noqa: E402
from kiosk.journal import Journal  # noqa: E402
from kiosk.pin import PinStore  # noqa: E402
from kiosk.server import BackgroundServer  # noqa: E402

CLUB = "bench"


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


class SysCounter:
    """Mosquitto's $SYS message counters, read as they are published (every second here)."""

    def __init__(self, url: str) -> None:
        self.samples: list[tuple[float, int]] = []
        b = Broker.parse(url)
        self.client = make_client("bench-sys", b)
        self.client.on_connect = lambda c, u, f, r, p: c.subscribe("$SYS/broker/messages/received", qos=0)
        self.client.on_message = lambda c, u, m: self.samples.append((time.time(), int(m.payload)))
        self.client.connect(b.host, b.port)
        self.client.loop_start()

    def rates(self, start: float, end: float) -> tuple[float, float]:
        """(mean, peak) messages received per second by the broker between start and end."""
        s = [(t, n) for t, n in self.samples if start - 1.5 <= t <= end + 1.5]
        if len(s) < 2:
            return float("nan"), float("nan")
        mean = (s[-1][1] - s[0][1]) / (s[-1][0] - s[0][0])
        # The counter is published once a second, but can arrive in bursts: a peak over at least 2 s.
        rates, j = [], 0
        for i in range(len(s)):
            while j < len(s) and s[j][0] - s[i][0] < 2.0:
                j += 1
            if j < len(s):
                rates.append((s[j][1] - s[i][1]) / (s[j][0] - s[i][0]))
        return mean, max(rates, default=float("nan"))

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


class InprocBoard:
    def __init__(self, name: str, folder: Path, url: str, match: str, speed: float, cred: dict[str, Any]) -> None:
        from kiosk.demo import DemoRunner
        from kiosk.service import RefereeService

        record = None
        if match.endswith(".txt") or match.endswith(".mat"):
            from core.match.formats.mat import read_mat
            from core.match.replay import replay

            record = read_mat(Path(match).read_text(encoding="utf-8", errors="replace"))
            replay(record)

        self.service = RefereeService(folder / "journal.sqlite")
        self.publisher = BoardPublisher(ClubConfig(Broker.parse(url), CLUB, name, key=bytes.fromhex(cred["key"])),
                                        self.service, folder).start()
        self.runner = DemoRunner(self.service, match=match, speed=speed, vision=False, dice=False, say=lambda t: None,
                                 record=record)

    def start(self) -> None:
        self.runner.start()

    def done(self) -> bool:
        return self.runner.done.is_set() and self.publisher.pending() == 0

    def close(self) -> None:
        self.runner.close()
        self.service.close()


class ProcBoard:
    def __init__(self, name: str, folder: Path, url: str, match: str, speed: float, cred: dict[str, Any]) -> None:
        which = ["--mat", match] if match.endswith((".txt", ".mat")) else ["--match", match]
        credentials = folder.with_suffix(".json")  # what `gamao director pair NAME --json` printed
        credentials.write_text(json.dumps(cred))
        self.cmd = [sys.executable, "-m", "cli", "demo", "--board", name, "--broker", url,
                    "--credentials", str(credentials),
                    "--data-dir", str(folder), "--no-vision", "--no-dice", "--no-browser", "--port", "0",
                    *which, "--speed", str(speed), "--exit-when-done"]
        self.log = open(folder.with_suffix(".log"), "wb")  # noqa: SIM115
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen(self.cmd, cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT)

    def done(self) -> bool:
        return self.proc is not None and self.proc.poll() is not None

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
        self.log.close()


def page_latencies(url: str, stop: threading.Event, out: list[float]) -> None:
    """Open the director's page in headless Chromium and collect window.gamaoLatency until `stop`."""
    try:
        from playwright.sync_api import sync_playwright

        from tests.kiosk.browser import ARGS, CHROMIUM
    except ImportError as exc:
        print(f"no page latency: {exc}", file=sys.stderr)
        return
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        page = browser.new_page(viewport={"width": 1600, "height": 1000})
        page.goto(url)
        while not stop.wait(1.0):
            pass
        out.extend(page.evaluate("window.gamaoLatency"))
        browser.close()


def check(director: Director, folders: dict[str, Path]) -> dict[str, int]:
    """Every board's journal against the director's archive."""
    checked = missing = 0
    for name, folder in folders.items():
        journal = Journal(folder / "journal.sqlite")
        for m in journal.matches():
            events = list(journal.events(m["id"]))
            archived = list(director.archive.events(CLUB, name, m["id"]))
            indexes = director.archive.indexes(CLUB, name, m["id"])
            checked += len(events)
            missing += len(events) - len(archived)
            assert archived == events[:len(archived)], f"{name} match {m['id']} differs"
            assert indexes == sorted(set(indexes)), "an event stored twice"
        journal.close()
    return {"events_checked": checked, "missing": missing, "doubled": 0}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=20)
    parser.add_argument("--speed", type=float, default=10.0, help="demo speed (1 = real time)")
    parser.add_argument("--inproc", action="store_true", help="boards as threads of this process")
    parser.add_argument("--corpus", action="store_true",
                        help="board i plays the i-th of the club night's 20 corpus matches (tests/club/conftest.py "
                             "NIGHT, from ../shared) instead of the bundled 3-point and 2-point ones")
    parser.add_argument("--cut", type=float, default=0.0, help="seconds to cut the first board's connection")
    parser.add_argument("--no-browser", action="store_true", help="skip the page latency (Chromium)")
    parser.add_argument("--director-late", action="store_true",
                        help="start the director only once every board has finished: measures how fast one "
                             "director takes in a backlog (events/s), the figure behind docs/club.md's scale")
    args = parser.parse_args()
    if not available():
        print("bench_club: Mosquitto is not installed (apt-get install -y mosquitto)", file=sys.stderr)
        return 2
    tmp = Path(tempfile.mkdtemp(prefix="gamao-bench-club-"))
    if args.corpus:
        from tests.club.conftest import CORPUS, NIGHT

        if not (CORPUS / NIGHT[0]).is_file():
            print(f"bench_club: --corpus needs the shared corpus at {CORPUS}", file=sys.stderr)
            return 2
    names = [f"mesa{i:03d}" for i in range(1, args.boards + 1)]
    # every board paired with the director; the broker as `gamao director broker-config` writes it (no TLS here)
    pairing = Pairing(tmp / "director")
    for n in names:
        pairing.pair(n, CLUB)
    broker = LocalBroker.paired(tmp / "broker", pairing, sys_interval=1).start()

    def start_director() -> Director:
        d = Director(Broker.parse(broker.url_for("director")), tmp / "director", club=CLUB).start()
        assert wait_for(d.intake.connected.is_set, 10)
        return d

    director = start_director()
    if args.director_late:
        director.close()  # subscribed once: the broker keeps its session's messages from now on
        args.no_browser = True
    server = BackgroundServer(create_app(director, PinStore(tmp / "pins"))).start()
    counter = SysCounter(broker.url_for("director"))
    stop, page_lat = threading.Event(), []
    browser = None
    if not args.no_browser:
        browser = threading.Thread(target=page_latencies, args=(server.url + "/", stop, page_lat), daemon=True)
        browser.start()
        time.sleep(3)
    proxy = CutProxy(broker.port) if args.cut else None
    folders: dict[str, Path] = {}
    boards: list[Any] = []
    for i, name in enumerate(names):
        folder = tmp / name
        folder.mkdir()
        folders[name] = folder
        url = proxy.url(name, broker.users[name]) if proxy and i == 0 else broker.url_for(name)  # type: ignore[index]
        cls = InprocBoard if args.inproc else ProcBoard
        match = str(CORPUS / NIGHT[i % len(NIGHT)]) if args.corpus else ("3pt" if i % 2 == 0 else "2pt")
        boards.append(cls(name, folder, url, match, args.speed, pairing.boards()[name]))
    t0 = time.time()
    for b in boards:
        b.start()
    if proxy is not None:
        time.sleep(300 / args.speed / 4)
        proxy.cut()
        print(f"cut mesa001's connection for {args.cut:.0f} s", flush=True)
        time.sleep(args.cut)
        proxy.restore()
    while not all(b.done() for b in boards):
        time.sleep(0.2)
    t_played = time.time()
    t_director = None
    if args.director_late:
        t_director = time.time()
        director = start_director()

    def caught_up() -> bool:
        for name, folder in folders.items():
            j = Journal(folder / "journal.sqlite")
            try:
                for m in j.matches():
                    have = director.intake.matches.get((CLUB, name, m["id"]))
                    if have is None or have.next < j.count(m["id"]):
                        return False
            finally:
                j.close()
        return True

    wait_for(caught_up, 120, step=0.5)
    t_end = time.time()
    time.sleep(2.5)
    stop.set()
    if browser is not None:
        browser.join(60)
    mean_rate, peak_rate = counter.rates(t0, t_end)
    result = check(director, folders)
    lat = [x * 1000 for _, x in director.intake.latencies]
    # the same after the first 20 s, when every board process has started (20 Pythons starting at once on a
    # small machine is the worst moment of the run, not a club night's steady state)
    steady = [x * 1000 for t, x in director.intake.latencies if t > t0 + 20]
    page = [x * 1000 for _, x in page_lat]
    page_steady = [x * 1000 for t, x in page_lat if t > t0 + 20]
    report = {
        "boards": args.boards, "mode": "threads" if args.inproc else "gamao demo processes", "speed": args.speed,
        "cut_seconds": args.cut, "played_s": round(t_played - t0, 1), "caught_up_s": round(t_end - t0, 1),
        **result, "director_events": director.intake.stats["events"], "duplicates_ignored": director.intake.stats["duplicates"],
        "resend_requests": director.intake.stats["resend_requests"],
        "events_per_s": round(result["events_checked"] / max(t_end - t0, 1e-9), 1),
        **({"director_backlog_s": round(t_end - t_director, 1),
            "director_ingest_events_per_s": round(result["events_checked"] / max(t_end - t_director, 1e-9), 1)}
           if t_director is not None else {}),
        "broker_msgs_per_s_mean": round(mean_rate, 1), "broker_msgs_per_s_peak": round(peak_rate, 1),
        "verdict_to_director_ms": {"n": len(lat), "median": round(statistics.median(lat), 1) if lat else None,
                                   "p95": round(pct(lat, 0.95), 1), "worst": round(max(lat), 1) if lat else None},
        "verdict_to_director_after_20s_ms": {
            "n": len(steady), "median": round(statistics.median(steady), 1) if steady else None,
            "p95": round(pct(steady, 0.95), 1), "worst": round(max(steady), 1) if steady else None},
        "verdict_to_page_ms": {"n": len(page), "median": round(statistics.median(page), 1) if page else None,
                               "p95": round(pct(page, 0.95), 1), "worst": round(max(page), 1) if page else None},
        "verdict_to_page_after_20s_ms": {
            "n": len(page_steady), "median": round(statistics.median(page_steady), 1) if page_steady else None,
            "p95": round(pct(page_steady, 0.95), 1), "worst": round(max(page_steady), 1) if page_steady else None},
    }
    print(json.dumps(report, indent=1))
    for b in boards:
        b.close()
    counter.close()
    if proxy is not None:
        proxy.close()
    server.stop()
    director.close()
    broker.stop()
    return 0 if result["missing"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
