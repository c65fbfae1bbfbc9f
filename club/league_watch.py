"""The league bridge's watchdog: the club's director starts the league bridge's own Mosquitto, probes it, and
restarts it when it hangs (issue 40; docs/league.md, "A limit found").

Debian's Mosquitto 2.0.11 spins at 100% and serves nobody when its TLS bridge's connection is accepted and dropped
mid-handshake (bench/bench_league_tls_cut.py); systemd's ``Restart=`` does not see a process that spins. So
``BridgeWatch(conf, watch)`` runs ``mosquitto -c conf`` and, through the watch user ``broker-config --league`` wrote
into league-bridge/watch.json, publishes a probe (QoS 1) on a topic of that Mosquitto only every ``probe_every``
seconds: a probe not back within ``answer_within`` seconds (or the process gone) is a hang. The process is then
ended (SIGCONT + SIGTERM, so a stopped or looping one saves its queue; SIGKILL after ``TERM_WAIT`` s) and started
again after a pause that doubles from 1 s up to ``MAX_BACKOFF`` while it keeps failing, back to 1 s once it has
answered for ``HEALTHY_AFTER`` seconds: never a restart storm. Every restart is logged (the director's log) and
counted.

The league link's own state comes from the bridge itself: ``notifications_local_only`` writes "1" to
``NOTIFY_TOPIC`` when the bridge to the league is up, "0" when it is down or trying again. ``state()`` is the
director's ``/api/status`` "league_link" (docs/CONTRACTS.md): ``{"state": "connected" | "reconnecting", "since":
epoch s, "restarts": n, "last_restart": epoch s | None, "reason": why it was last restarted | None}``. What the
league missed while the bridge was down waits in the club's broker (its bridge's persistent session) and the
league asks the club for the rest (club/league.py).
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

import paho.mqtt.client as mqtt

from club.broker_config import parse_listen
from club.config import Broker, make_client
from club.mosquitto import MOSQUITTO, wait_listening
from club.pairing import write_private

log = logging.getLogger(__name__)
WATCH_USER = "league-watch"        # the watchdog's user on the league bridge's Mosquitto
PROBE_TOPIC = "gamao-watch/probe"  # not bridged: a round trip through that Mosquitto alone
NOTIFY_TOPIC = "gamao-watch/league"  # the bridge's own notifications ("1" up, "0" down), local only
PROBE_EVERY = 2.0
ANSWER_WITHIN = 10.0
TERM_WAIT = 2.0
MIN_BACKOFF = 1.0
MAX_BACKOFF = 60.0
HEALTHY_AFTER = 60.0
LOG_BYTES = 1 << 20  # the bridge's log file is started afresh past 1 MiB


def watch_acl() -> list[str]:
    """The watch user's lines in the league bridge's ACL: its probe and the bridge's notifications, nothing bridged."""
    return [f"user {WATCH_USER}", "topic readwrite gamao-watch/#"]


def write_watch(folder: Path, relay: str) -> dict[str, str]:
    """league-bridge/watch.json (600): where the league bridge's Mosquitto listens and the watch user's password."""
    watch = {"listen": relay, "username": WATCH_USER, "password": secrets.token_urlsafe(18)}
    write_private(folder / "watch.json", json.dumps(watch) + "\n")
    return watch


class BridgeWatch:
    """Runs the league bridge's Mosquitto (`conf`, with league-bridge/watch.json beside it) and keeps it answering."""

    def __init__(self, conf: str | Path, log_file: str | Path | None = None, mosquitto: str | None = None,
                 probe_every: float = PROBE_EVERY, answer_within: float = ANSWER_WITHIN,
                 healthy_after: float = HEALTHY_AFTER, min_backoff: float = MIN_BACKOFF,
                 max_backoff: float = MAX_BACKOFF,
                 clock: Callable[[], float] = time.time) -> None:
        self.conf = Path(conf).resolve()
        try:
            watch = json.loads((self.conf.parent / "watch.json").read_text(encoding="utf-8"))
            self.host, self.port = parse_listen(str(watch["listen"]))
            self.user, self.password = str(watch["username"]), str(watch["password"])
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"{self.conf.parent / 'watch.json'}: {exc}; write the league bridge again "
                             "(`gamao director broker-config OUT_DIR --league FILE`)") from exc
        self.log_file = Path(log_file) if log_file is not None else None
        self.mosquitto = mosquitto or MOSQUITTO
        self.probe_every, self.answer_within = probe_every, answer_within
        self.healthy_after, self.min_backoff, self.max_backoff = healthy_after, min_backoff, max_backoff
        self.clock = clock
        self.proc: subprocess.Popen[bytes] | None = None
        self.restarts = 0
        self.last_restart: float | None = None
        self.reason: str | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._linked: bool | None = None     # the bridge's notification, None before the first
        self._answered = 0.0                 # monotonic time of the last probe back (or of the process' start)
        self._started = 0.0
        self._connected_since: float | None = None
        self._down_since = clock()
        self._backoff = min_backoff
        self.pauses: list[float] = []        # the pause before each restart (the last 100)
        self._token = secrets.token_hex(8)   # in each probe: any of this watch's probes back is an answer (one
        self._probes = 0                     # slower than `probe_every` under load still counts)
        self._thread: threading.Thread | None = None
        self._client: mqtt.Client | None = None
        self._log: IO[bytes] | None = None

    # ---- the page's view ------------------------------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        """/api/status "league_link": connected (the bridge answers and its link to the league is up) or reconnecting
        since when; the restarts so far, the last one's time and why."""
        with self._lock:
            up = self._connected_since is not None
            return {"state": "connected" if up else "reconnecting",
                    "since": self._connected_since if up else self._down_since,
                    "restarts": self.restarts, "last_restart": self.last_restart, "reason": self.reason}

    def _mark(self, connected: bool) -> None:
        with self._lock:
            if connected and self._connected_since is None:
                self._connected_since = self.clock()
                log.info("league bridge: linked to the league")
            elif not connected and self._connected_since is not None:
                self._connected_since = None
                self._down_since = self.clock()
                log.warning("league bridge: the link to the league is down; reconnecting")

    # ---- running it ---------------------------------------------------------------------------------------------
    def start(self) -> BridgeWatch:
        self._spawn()
        self._client = self._probe_client()
        self._thread = threading.Thread(target=self._run, name="league-bridge-watch", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(TERM_WAIT * 3)
        if self._client is not None:
            self._client.disconnect()
            self._client.loop_stop()
        self._end()
        if self._log is not None:
            self._log.close()

    def _spawn(self) -> None:
        out: IO[bytes] | int = subprocess.DEVNULL
        if self.log_file is not None:
            try:
                if self.log_file.exists() and self.log_file.stat().st_size > LOG_BYTES:
                    self.log_file.unlink()
                if self._log is None or self._log.closed:
                    self._log = self.log_file.open("ab")
                out = self._log
            except OSError as exc:
                log.warning("league bridge: cannot write its log %s: %s", self.log_file, exc)
        self.proc = subprocess.Popen([self.mosquitto, "-c", str(self.conf)], stdin=subprocess.DEVNULL,
                                     stdout=out, stderr=out)  # in the director's group: a Ctrl-C ends both
        log.info("league bridge: mosquitto -c %s started (pid %d)", self.conf, self.proc.pid)
        # its listener first (the probes count from then); one that never listens is the probes' business
        wait_listening(self.host, self.port, self.answer_within, self.proc, self._stop)
        self._started = self._answered = time.monotonic()

    def _end(self) -> None:
        """SIGCONT + SIGTERM (a stopped or spinning Mosquitto saves its queue on the way out), SIGKILL if that fails."""
        proc = self.proc
        if proc is None or proc.poll() is not None:
            return
        for sig in (signal.SIGCONT, signal.SIGTERM):
            try:
                os.kill(proc.pid, sig)
            except ProcessLookupError:
                return
        try:
            proc.wait(TERM_WAIT)
        except subprocess.TimeoutExpired:
            log.warning("league bridge: pid %d did not end on SIGTERM in %.0f s: SIGKILL", proc.pid, TERM_WAIT)
            proc.kill()
            proc.wait(TERM_WAIT)

    def _probe_client(self) -> mqtt.Client:
        # The club's own client (credentials, a callback's failure logged, never the end of its network thread).
        c = make_client(self.user, Broker(self.host, self.port, tls=False, username=self.user, password=self.password))
        # back within a restart's answer_within (a bridge restarted has answer_within from its listener to answer)
        c.reconnect_delay_set(min(1.0, self.answer_within / 8), min(2.0, self.answer_within / 4))

        def connected(cl: mqtt.Client, _u: object, _f: object, reason: Any, _p: object) -> None:
            if not reason.is_failure:  # a CONNACK: it answers (and the probes go on from now)
                self._answered = time.monotonic()
                cl.subscribe([(PROBE_TOPIC, 1), (NOTIFY_TOPIC, 1)])

        def message(_cl: mqtt.Client, _u: object, m: mqtt.MQTTMessage) -> None:
            if m.topic == NOTIFY_TOPIC:
                self._linked = bytes(m.payload[:1]) == b"1"
            elif m.topic == PROBE_TOPIC and bytes(m.payload).startswith(self._token.encode()):
                self._answered = time.monotonic()

        c.on_connect, c.on_message = connected, message
        c.connect_async(self.host, self.port, keepalive=max(5, int(self.answer_within)))
        c.loop_start()
        return c

    def _run(self) -> None:
        assert self._client is not None
        while not self._stop.wait(self.probe_every):
            now = time.monotonic()
            proc = self.proc
            exited = proc is not None and proc.poll() is not None
            silent = now - self._answered
            if exited or silent > self.answer_within:
                assert proc is not None
                self._restart(f"exited ({proc.returncode})" if exited else f"no answer in {silent:.0f} s")
                continue
            self._linked_or_not(now)
            if now - self._started > self.healthy_after and silent < self.answer_within:
                self._backoff = self.min_backoff
            self._probes += 1
            self._client.publish(PROBE_TOPIC, f"{self._token}:{self._probes}", qos=1)

    def _linked_or_not(self, now: float) -> None:
        answering = now - self._answered <= self.answer_within
        self._mark(bool(answering and self._linked))

    def _restart(self, reason: str) -> None:
        self._mark(False)
        self._linked = None
        log.warning("league bridge: %s; restarting it in %.1f s (restart %d)", reason, self._backoff,
                    self.restarts + 1)
        self._end()
        with self._lock:
            self.restarts += 1
            self.last_restart = self.clock()
            self.reason = reason
            self.pauses = [*self.pauses[-99:], self._backoff]
        if self._stop.wait(self._backoff):
            return
        self._backoff = min(self.max_backoff, self._backoff * 2)
        self._spawn()
