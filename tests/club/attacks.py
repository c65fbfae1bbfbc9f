"""What an attacker holding one board's credentials does to a club's broker (issue 34), as the tests and the bench
run it: a flood of the largest messages the broker takes, and connections that claim another client's id.

Everything here talks to a LocalBroker on loopback.
"""

from __future__ import annotations

import signal
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from club.auth import TAIL_LEN, sign
from club.config import Broker, make_client
from club.mosquitto import LocalBroker
from club.pairing import MAX_MESSAGE

FLOOD_SIZE = MAX_MESSAGE - 1024   # 255 kB: the messages, just under the broker's message_size_limit


def memory(pid: int) -> tuple[int, int]:
    """(resident, peak resident) bytes of a process (Linux /proc)."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return int(fields["VmRSS"].split()[0]) * 1024, int(fields["VmHWM"].split()[0]) * 1024


def saved_database(broker: LocalBroker, timeout: float = 10.0) -> int:
    """Mosquitto writes its persistence database now (SIGUSR1); its size in bytes."""
    assert broker.proc is not None
    db = broker.conf.parent / "generated" / "data" / "mosquitto.db"
    before = db.stat().st_mtime_ns if db.exists() else 0
    broker.proc.send_signal(signal.SIGUSR1)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if db.exists() and db.stat().st_mtime_ns != before:
            time.sleep(0.3)  # written in one go; give the write a moment to end
            return db.stat().st_size
        time.sleep(0.05)
    return db.stat().st_size if db.exists() else 0


def director_session(broker: LocalBroker, club: str) -> None:
    """The director as the broker knows it while it is away: a persistent session subscribed to the boards' copies
    (what `gamao director` leaves behind when it stops or is paused for longer than its keepalive)."""
    client = make_client(f"gamao-director-{club}", Broker.parse(broker.url_for("director")), clean=False)
    subscribed = threading.Event()
    client.on_subscribe = lambda *a: subscribed.set()
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    for kind in ("state", "events", "verdicts"):
        client.subscribe(f"gamao/{club}/+/{kind}", qos=1)
    assert subscribed.wait(10)
    time.sleep(0.2)
    client.disconnect()
    client.loop_stop()


def flood(broker: LocalBroker, board: str, club: str, count: int, size: int = FLOOD_SIZE,
          signed: bool = True, timeout: float = 120.0) -> dict[str, Any]:
    """`count` QoS 1 events of `size` bytes on the board's own topic, with its credentials (and its key when
    `signed`: both sit in its club.json); returns how many the broker acknowledged and the seconds taken."""
    client = make_client(f"flood-{board}", Broker.parse(broker.url_for(board)))
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    topic = f"gamao/{club}/{board}/events"
    key = broker.keys.get(board) if signed else None
    seq = int(time.time() * 1000) + 10**9
    t0 = time.monotonic()
    infos = []
    for i in range(count):
        head = f'{{"board":"{board}","club":"{club}","match":{10**6 + i},"index":0,"event":{{"event":"board","pad":"'
        tail = f'"}},"sent":0,"seq":{seq + i}}}'
        pad = "x" * (size - len(head) - len(tail) - (TAIL_LEN if key is not None else 0))
        body = (head + pad + tail).encode()
        infos.append(client.publish(topic, sign(topic, body, key) if key is not None else body, qos=1))
    acked = 0
    for info in infos:
        try:
            info.wait_for_publish(max(0.1, timeout - (time.monotonic() - t0)))
        except (RuntimeError, ValueError):
            break
        acked += info.is_published()
    seconds = time.monotonic() - t0
    client.disconnect()
    client.loop_stop()
    return {"sent": count, "acked": acked, "bytes": count * size, "seconds": round(seconds, 2)}


class Takeover:
    """Connections with one board's credentials claiming another client's id (the director's, another board's),
    `times` times, each held `hold` seconds; `refused` counts the connections the broker refused."""

    def __init__(self, broker: LocalBroker, user: str, client_id: str) -> None:
        self.broker, self.user, self.client_id = broker, user, client_id
        self.connected = 0
        self.refused = 0

    def run(self, times: int, hold: float = 0.3) -> Takeover:
        for _ in range(times):
            client = make_client(self.client_id, Broker.parse(self.broker.url_for(self.user)), clean=True)
            client.reconnect_delay_set(60, 60)  # one try each: the attacker's loop does the trying
            up = threading.Event()

            def on_connect(c: Any, u: Any, flags: Any, reason: Any, props: Any, up: threading.Event = up) -> None:
                if reason.is_failure:
                    self.refused += 1
                else:
                    self.connected += 1
                up.set()

            client.on_connect = on_connect
            client.connect("127.0.0.1", self.broker.port)
            client.loop_start()
            up.wait(5)
            time.sleep(hold)
            client.disconnect()
            client.loop_stop()
        return self


class PagePoller:
    """The owner's page as a thread: GET `path` on the director's page every `every` seconds; each answer's
    latency in seconds (and any answer that was not 200)."""

    def __init__(self, url: str, paths: tuple[str, ...] = ("/api/boards", "/api/status"), every: float = 0.05) -> None:
        self.url, self.paths, self.every = url, paths, every
        self.latencies: list[float] = []
        self.failures: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="owner-page", daemon=True)

    def start(self) -> PagePoller:
        self._thread.start()
        return self

    def _run(self) -> None:
        with httpx.Client(timeout=60, limits=httpx.Limits(max_keepalive_connections=0)) as http:
            while not self._stop.is_set():
                for path in self.paths:
                    t0 = time.monotonic()
                    try:
                        r = http.get(self.url + path)
                        if r.status_code != 200:
                            self.failures.append(f"{path}: {r.status_code}")
                    except httpx.HTTPError as exc:
                        self.failures.append(f"{path}: {exc!r}")
                    self.latencies.append(time.monotonic() - t0)
                self._stop.wait(self.every)

    def stop(self) -> dict[str, Any]:
        self._stop.set()
        self._thread.join(70)
        lat = sorted(self.latencies)
        return {"requests": len(lat), "failures": len(self.failures),
                "median_ms": round(lat[len(lat) // 2] * 1000, 1) if lat else None,
                "p99_ms": round(lat[int(len(lat) * 0.99)] * 1000, 1) if lat else None,
                "worst_ms": round(lat[-1] * 1000, 1) if lat else None}


def evening(broker: LocalBroker, director: Any, boards: list[Any], url: str, attacker: str, club: str,
            flood_count: int, takeovers: int) -> dict[str, Any]:
    """A club evening under attack: `boards` play; the director's link is paused (its network loop stopped, its
    connection open: the broker queues for it) while `attacker`'s credentials and key flood `flood_count` messages
    of 255 kB; the director goes on while the attacker's connections claim the director's client id and each
    board's, `takeovers` times each. Returns the figures: the owner's page (a PagePoller on `url`, running: stop
    it when the evening is over), Mosquitto's memory, the attack's counts."""
    assert broker.proc is not None
    page = PagePoller(url).start()
    base = memory(broker.proc.pid)[0]
    director.intake.client.loop_stop()            # paused: nothing read from the broker, the connection open
    t0 = time.monotonic()
    for board in boards:
        board.play()
    flooded = flood(broker, attacker, club, flood_count)
    paused = time.monotonic() - t0
    peak_broker = memory(broker.proc.pid)[1]
    director.intake.client.loop_start()           # the director goes on: its queue, then everything else
    # then the attacker's connections claim the director's client id and each board's (one at a time: with the
    # same credentials, each connection of the attacker's takes the last one's place)
    ids = [director.intake.client_id] + [f"gamao-{club}-{b.name}" for b in boards if b.name != attacker]
    tries = [Takeover(broker, attacker, cid) for cid in ids]
    for _ in range(takeovers):
        for t in tries:
            t.run(1, hold=0.05)
    return {"paused_s": round(paused, 1), "flood": flooded,
            "takeovers": {"tries": sum(t.connected + t.refused for t in tries),
                          "logged_in": sum(t.connected for t in tries)},
            "broker_mb": {"before": round(base / 2**20), "peak": round(peak_broker / 2**20)}, "page": page}
