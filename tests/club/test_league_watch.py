"""The league bridge's watchdog (issue 40; club/league_watch.py): the club's director runs the league bridge's own
Mosquitto, probes it through the relay, and restarts it when it hangs, with a pause that doubles (no restart storm);
the league's link state and the restarts are in /api/status "league_link" and a line on the director's page.

Real Mosquittos on loopback (the club's, the league bridge's under the watch, the league's over TLS): the bridge's
Mosquitto hung (SIGSTOP: what a TLS handshake cut mid-way does to Debian's 2.0.11, bench/bench_league_tls_cut.py)
is restarted, the link comes back, and what the boards sent meanwhile reaches the league, every message once."""

from __future__ import annotations

import getpass
import json
import queue
import re
import signal
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest

from club import mosquitto
from club.director import Director
from club.league_watch import NOTIFY_TOPIC, WATCH_USER, BridgeWatch
from club.mosquitto import LocalBroker, free_port
from club.pairing import Pairing
from club.web import create_app
from kiosk.pin import PinStore
from kiosk.server import BackgroundServer
from tests.club.conftest import CLUB, wait_for
from tests.club.tls_league import tls_league
from tests.kiosk.browser import chromium_or_skip, chromium_page
from tests.kiosk.chair import chair_problems
from tests.web import HTTP

FAST = {"probe_every": 0.2, "answer_within": 2.0, "min_backoff": 0.2}  # the watch's figures for a test (the director's: 2 s, 10 s)


def _client(port: int, user: str, password: str) -> mqtt.Client:
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"t-{user}-{time.monotonic_ns()}")
    c.username_pw_set(user, password)
    got: queue.Queue[int] = queue.Queue()
    c.on_connect = lambda cl, u, f, reason, p: got.put(reason.value)
    c.on_message = lambda cl, u, m: cl.messages.put((m.topic, bytes(m.payload)))  # type: ignore[attr-defined]
    c.messages = queue.Queue()  # type: ignore[attr-defined]
    c.connect("127.0.0.1", port, keepalive=10)
    c.loop_start()
    assert got.get(timeout=5) == 0
    return c


def _received(c: mqtt.Client, topic: str, wanted: set[int], seconds: float) -> set[int]:
    """The numbers `c` received on `topic` until it has all `wanted` (or `seconds` went by)."""
    got: set[int] = set()
    until = time.monotonic() + seconds
    while time.monotonic() < until and not wanted <= got:
        try:
            t, payload = c.messages.get(timeout=0.2)  # type: ignore[attr-defined]
        except queue.Empty:
            continue
        if t == topic:
            got.add(int(payload))
    return got


def test_a_hung_league_bridge_is_restarted_and_the_link_comes_back(tmp_path: Path) -> None:
    if not mosquitto.available():
        pytest.skip("Mosquitto is not installed: `apt-get install -y mosquitto` (./dev test does it)")
    (pairing, league, cred, tls_port, local_port, club_port, relay_port, league_conf, generated, club_conf, hop,
     relay_conf) = tls_league(tmp_path)
    assert relay_conf is not None
    # broker-config wrote the watch's user and the bridge's notifications into the league bridge's own Mosquitto
    watch_file = generated / "league-bridge" / "watch.json"
    assert json.loads(watch_file.read_text())["username"] == WATCH_USER and (watch_file.stat().st_mode & 0o777) == 0o600
    assert f"notification_topic {NOTIFY_TOPIC}" in relay_conf.read_text() and "notifications_local_only true" in \
        relay_conf.read_text()
    assert "notifications false" in hop  # the club broker's own hop to it: unchanged
    # tests run as root here: Mosquitto would drop to its own user; keep it this one (as LocalBroker does); its
    # packets in its log (the league's acknowledgements, _acknowledged)
    relay_conf.write_text(relay_conf.read_text() + f"user {getpass.getuser()}\nlog_type all\n")
    club_conf.write_text(club_conf.read_text() + hop)
    started: list[Any] = []
    clients: list[mqtt.Client] = []
    watch = BridgeWatch(relay_conf, log_file=tmp_path / "relay.log", **FAST)
    director = Director(None, tmp_path / "director", club=CLUB).start()
    director.league_watch = watch
    try:
        started.append(LocalBroker.paired(tmp_path / "league" / "run", Pairing(tmp_path / "league" / "none"),
                                          port=local_port, generated=league_conf).start())
        watch.start()  # the league bridge's Mosquitto first: the club broker's bridge finds it at once
        club = LocalBroker.paired(tmp_path / "porto" / "broker", pairing, port=club_port, generated=club_conf).start()
        started.append(club)
        own = league.director()
        central = _client(local_port, own["username"], own["password"])  # the league's director, on loopback
        clients.append(central)
        central.subscribe("gamao/porto/+/events", qos=1)
        board = _client(club_port, "mesa01", pairing.boards()["mesa01"]["password"])
        clients.append(board)
        assert wait_for(lambda: watch.state()["state"] == "connected", 20), (watch.state(), _tail(tmp_path))
        status = director.status()["league_link"]
        assert status["restarts"] == 0 and status["reason"] is None and status["since"] <= time.time()

        topic = "gamao/porto/mesa01/events"
        board.publish(topic, b"0", qos=1)
        assert _received(central, topic, {0}, 10) == {0}, _tail(tmp_path)
        # the league's PUBACK of "0" back in the bridge before it hangs: one still on its way is QoS 1's to send
        # again after the restart (a second "0", which a loaded machine showed 2 runs in 10)
        assert wait_for(lambda: _acknowledged(tmp_path), 10), _tail(tmp_path)
        proc = watch.proc
        assert proc is not None
        # hung: the watch's probes go unanswered; the boards go on publishing meanwhile (their club's broker keeps it)
        proc.send_signal(signal.SIGSTOP)
        for i in range(1, 11):
            board.publish(topic, str(i).encode(), qos=1)
        assert wait_for(lambda: watch.restarts == 1 and watch.proc is not proc, 10), watch.state()
        assert proc.poll() is not None
        assert watch.state()["reason"].startswith("no answer")
        assert wait_for(lambda: watch.state()["state"] == "connected", 20), (watch.state(), _tail(tmp_path))
        for i in range(11, 16):
            board.publish(topic, str(i).encode(), qos=1)
        got = _received(central, topic, set(range(1, 16)), 20)
        # nothing lost across the restart (QoS 1: the club's broker resends what the bridge had not acknowledged)
        assert got == set(range(1, 16)), (sorted(got), _tail(tmp_path))
        link = director.status()["league_link"]
        assert link["state"] == "connected" and link["restarts"] == 1 and link["last_restart"] <= time.time()


        # the league's broker goes away: the bridge says so ("0"), the watch sees the link down, not the bridge hung
        started[0].stop()
        assert wait_for(lambda: watch.state()["state"] == "reconnecting", 10), watch.state()
        down = director.status()["league_link"]
        started[0].start()
        assert wait_for(lambda: watch.state()["state"] == "connected", 20), (watch.state(), _tail(tmp_path))
        assert down["restarts"] == 1 and watch.restarts == 1 and down["since"] <= watch.state()["since"]
        with BackgroundServer(create_app(director, PinStore(tmp_path / "pins"))) as srv:  # as the page reads it
            assert HTTP.get(f"{srv.url}/api/status").json()["league_link"] == director.status()["league_link"]
    finally:
        for c in clients:
            c.disconnect()
            c.loop_stop()
        director.close()  # and the watch, and the league bridge's Mosquitto with it
        for b in reversed(started):
            b.stop()
    assert watch.proc is not None and watch.proc.poll() is not None


def _acknowledged(tmp_path: Path) -> bool:
    """The league bridge's log: it sent the league a message, every message it sent was acknowledged by the league
    and every message it received from the club's broker acknowledged to it (none in flight on either hop)."""
    sent: set[str] = set()
    received: set[str] = set()
    out = 0
    try:
        lines = (tmp_path / "relay.log").read_text().splitlines()
    except OSError:
        return False
    for line in lines:
        if m := re.search(r"Sending PUBLISH to league-bridge \(d\d, q1, r\d, m(\d+),", line):
            sent.add(m[1])
            out += 1
        elif m := re.search(r"Received PUBACK from league-bridge \(Mid: (\d+),", line):
            sent.discard(m[1])
        elif m := re.search(r"Received PUBLISH from league-relay \(d\d, q1, r\d, m(\d+),", line):
            received.add(m[1])
        elif m := re.search(r"Sending PUBACK to league-relay \(m(\d+),", line):
            received.discard(m[1])
    return out > 0 and not sent and not received


def _tail(tmp_path: Path) -> str:
    try:
        return (tmp_path / "relay.log").read_text()[-800:]
    except OSError:
        return ""


def test_a_bridge_that_keeps_failing_waits_longer_each_time(tmp_path: Path) -> None:
    """No restart storm: a league bridge that dies at once (here a program that exits) is started again after 1, 2,
    4 ... s up to the bound (0.05 s doubling up to 0.2 s here); the page says reconnecting since when, restarted how
    many times, in both languages at 800x480."""
    folder = tmp_path / "league-bridge"
    folder.mkdir()
    (folder / "watch.json").write_text(json.dumps({"listen": f"127.0.0.1:{free_port()}", "username": WATCH_USER,
                                                   "password": "x"}))
    (folder / "mosquitto.conf").write_text("")
    with pytest.raises(ValueError, match="broker-config"):
        BridgeWatch(tmp_path / "mosquitto.conf")  # no watch.json beside it: says how to write it
    watch = BridgeWatch(folder / "mosquitto.conf", mosquitto="/bin/false", probe_every=0.02, answer_within=1.0,
                        min_backoff=0.05, max_backoff=0.2)
    director = Director(None, tmp_path / "director", club=CLUB).start()
    director.league_watch = watch
    try:
        watch.start()
        assert wait_for(lambda: watch.restarts >= 5, 10), watch.state()
        assert watch.pauses[:5] == [0.05, 0.1, 0.2, 0.2, 0.2]
        link = director.status()["league_link"]
        assert link["state"] == "reconnecting" and link["reason"] == "exited (1)" and link["since"] <= time.time()
        chromium_or_skip()
        with BackgroundServer(create_app(director, PinStore(tmp_path / "pins"))) as srv, \
                chromium_page(800, 480, locale="pt-BR") as page:
            for lang, start, restarted in (("pt", "liga: reconectando desde ", "ponte reiniciada"),
                                           ("en", "league: reconnecting since ", "bridge restarted")):
                page.goto(f"{srv.url}/?lang={lang}")
                page.wait_for_selector("#league:not(:empty)")
                line = page.inner_text("#league")
                assert line.startswith(start) and restarted in line, line
                assert chair_problems(page) == [], (lang, chair_problems(page))
                if lang == "pt":
                    shots = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
                    shots.mkdir(parents=True, exist_ok=True)
                    page.screenshot(path=str(shots / "director-league-link.png"))
    finally:
        director.close()
