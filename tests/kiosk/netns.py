"""Many network clients on one machine: network namespaces joined by veth pairs to a bridge of our own.

``Namespaces(60)`` (root, Linux ``ip``) makes a hub namespace holding a bridge with 10.231.N.1/24 and 60 namespaces
with 10.231.N.11 ... 10.231.N.70, each its own address, and removes them all on exit; ``serve(app)`` serves on the
bridge's address, inside the hub. Nothing is made in the machine's own namespace: a bridge or a veth end there, made
or removed, is a network change every browser on the machine hears (Chromium ended the page tests' waiting requests
with net::ERR_NETWORK_CHANGED while these tests ran beside them). ``attack(...)`` (run as a separate process:
``python -m tests.kiosk.netns``) guesses PINs from every namespace at once (one thread per namespace, which joins it
with setns), as fast as the kiosk answers and honouring Retry-After, and prints a JSON summary. Used by
tests/kiosk/test_pin_netns.py and bench/bench_pin_attack.py.
"""

from __future__ import annotations

import ctypes
import http.client
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from webguard.server import BackgroundServer, free_port

CLONE_NEWNET = 0x40000000
T = TypeVar("T")


def available() -> str | None:
    """None when namespaces can be made here, else why not."""
    if os.geteuid() != 0:
        return "network namespaces need root"
    if shutil.which("ip") is None:
        return "the `ip` command (iproute2) is not installed"
    probe = f"gmprobe{os.getpid()}"
    r = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True)
    if r.returncode != 0:
        return f"ip netns add failed: {r.stderr.strip()}"
    subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    return None


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True)


@dataclass
class Namespaces:
    count: int = 60
    tag: str = field(default_factory=lambda: f"{os.getpid() % 100000}")
    names: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.subnet = 100 + os.getpid() % 150
        self.hub = f"gm{self.tag}hub"
        self.bridge = f"gmb{self.tag}"
        self.host = f"10.231.{self.subnet}.1"
        self._hub_made = False

    def address(self, i: int) -> str:
        return f"10.231.{self.subnet}.{11 + i}"

    def __enter__(self) -> Namespaces:
        hub = self.hub
        try:
            _ip("netns", "add", hub)
            self._hub_made = True
            _ip("-n", hub, "link", "add", self.bridge, "type", "bridge")
            _ip("-n", hub, "addr", "add", f"{self.host}/24", "dev", self.bridge)
            _ip("-n", hub, "link", "set", self.bridge, "up")
            _ip("-n", hub, "link", "set", "lo", "up")
            for i in range(self.count):
                ns, veth = f"gm{self.tag}n{i}", f"gv{self.tag}x{i}"
                _ip("netns", "add", ns)
                self.names.append(ns)
                _ip("-n", hub, "link", "add", veth, "type", "veth", "peer", "name", "eth0", "netns", ns)
                _ip("-n", hub, "link", "set", veth, "master", self.bridge)
                _ip("-n", hub, "link", "set", veth, "up")
                _ip("-n", ns, "addr", "add", f"{self.address(i)}/24", "dev", "eth0")
                _ip("-n", ns, "link", "set", "eth0", "up")
                _ip("-n", ns, "link", "set", "lo", "up")
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        for ns in self.names:  # removing a namespace removes its end of the veth pair, and so the pair
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)
        self.names.clear()
        if self._hub_made:  # and the hub its bridge
            subprocess.run(["ip", "netns", "del", self.hub], capture_output=True)
            self._hub_made = False

    def serve(self, app: object) -> BackgroundServer:
        """A server (not started) on the bridge's address, its socket made inside the hub."""
        port = in_namespace(self.hub, lambda: free_port(self.host))
        return BackgroundServer(app, host=self.host, port=port,  # type: ignore[arg-type]
                                before_run=lambda: _join(self.hub))


def _join(ns: str) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    fd = os.open(f"/var/run/netns/{ns}", os.O_RDONLY)
    try:
        if libc.setns(fd, CLONE_NEWNET) != 0:
            raise OSError(ctypes.get_errno(), f"setns {ns}")
    finally:
        os.close(fd)


def in_namespace(ns: str, work: Callable[[], T]) -> T:
    """`work()`'s answer, run in a thread of its own that joined `ns` (the caller's thread stays where it is)."""
    answer: list[T] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            _join(ns)
            answer.append(work())
        except BaseException as e:  # noqa: BLE001 - told to the caller
            failed.append(e)

    t = threading.Thread(target=run)
    t.start()
    t.join()
    if failed:
        raise failed[0]
    return answer[0]


def attack(names: list[str], host: str, port: int, seconds: float, path: str = "/api/match") -> dict[str, object]:
    """Every namespace guesses wrong PINs for `seconds`: counts of answers by status."""
    counts: dict[str, int] = {}
    checked_at: list[float] = []
    lock = threading.Lock()
    start = time.monotonic()
    stop = start + seconds
    body = json.dumps({"length": 1, "players": {"light": "a", "dark": "b"}})

    def one(k: int, ns: str) -> None:
        _join(ns)  # this thread only: its sockets are made inside the namespace
        guess = 1000 * k
        conn: http.client.HTTPConnection | None = None
        used = 0
        while time.monotonic() < stop:
            guess += 1
            try:
                if conn is None:
                    conn, used = http.client.HTTPConnection(host, port, timeout=30), 0
                used += 1
                conn.request("POST", path, body=body, headers={"X-Gamao-PIN": f"{guess % 10**6:06d}",
                                                               "Content-Type": "application/json"})
                r = conn.getresponse()
                r.read()
                status, retry = str(r.status), r.getheader("Retry-After")
            except (OSError, http.client.HTTPException):
                if conn is not None:
                    conn.close()
                conn = None
                if used > 1:  # the kiosk closed an idle keep-alive connection: open another
                    continue
                status, retry = "error", "1"
            with lock:
                counts[status] = counts.get(status, 0) + 1
                if status == "401":
                    checked_at.append(time.monotonic() - start)
            if status != "401":
                time.sleep(min(max(float(retry or 1), 0.2), 5.0, max(0.0, stop - time.monotonic())))
        if conn is not None:
            conn.close()

    threads = [threading.Thread(target=one, args=(k, ns), daemon=True) for k, ns in enumerate(names)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(seconds + 60)
    late = sum(1 for t in checked_at if t >= seconds / 2)
    return {"seconds": seconds, "clients": len(names), "answers": counts, "wrong_pins_checked": counts.get("401", 0),
            # the steady rate, once any free tries are spent: wrong PINs checked in the second half, per hour
            "wrong_pins_per_hour": round(late * 3600 / (seconds / 2))}


def measure(app: object, pin: str, seconds: float, count: int = 60, root: str | None = None) -> dict[str, object]:
    """Serve `app` on loopback (the owner's screen) and on the namespaces' bridge; attack from `count` namespaces
    for `seconds` while the owner presses a control (its correct PIN) twice a second. `root`: the checkout whose
    tests.kiosk.netns runs the attack (default: this one)."""
    import statistics
    from pathlib import Path

    root = root or str(Path(__file__).resolve().parents[2])
    with Namespaces(count) as nets:
        owner_srv = BackgroundServer(app).start()  # type: ignore[arg-type]
        net_srv = nets.serve(app).start()
        try:
            arg = json.dumps({"names": nets.names, "host": nets.host, "port": net_srv.port, "seconds": seconds})
            proc = subprocess.Popen([sys.executable, "-m", "tests.kiosk.netns", arg], cwd=root,
                                    stdout=subprocess.PIPE, text=True,
                                    env={**os.environ, "PYTHONPATH": root})
            time.sleep(min(2.0, seconds / 4))  # let every namespace start guessing
            owner: list[tuple[float, int]] = []
            body = json.dumps({"length": 1, "players": {"light": "a", "dark": "b"}})
            until = time.monotonic() + seconds - min(2.0, seconds / 4)
            while proc.poll() is None or time.monotonic() < until:
                conn = http.client.HTTPConnection("127.0.0.1", owner_srv.port, timeout=60)
                t0 = time.perf_counter()
                conn.request("POST", "/api/match", body=body, headers={"X-Gamao-PIN": pin,
                                                                      "Content-Type": "application/json"})
                r = conn.getresponse()
                r.read()
                owner.append((time.perf_counter() - t0, r.status))
                conn.close()
                time.sleep(0.5)
            out, _ = proc.communicate(timeout=120)
        finally:
            net_srv.stop()
            owner_srv.stop()
    result = json.loads(out.strip().splitlines()[-1])
    lat = [t * 1000 for t, _ in owner]
    result["owner"] = {"presses": len(owner), "ok": sum(1 for _, s in owner if s == 200),
                       "median_ms": round(statistics.median(lat), 1) if lat else None,
                       "worst_ms": round(max(lat), 1) if lat else None}
    return result


if __name__ == "__main__":
    args = json.loads(sys.argv[1])
    print(json.dumps(attack(args["names"], args["host"], args["port"], args["seconds"])), flush=True)
