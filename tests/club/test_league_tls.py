"""TLS on the league's bridge (issue 40; club/league.py): real Mosquittos on loopback, the club's, the league
bridge's own and the league's. The league's pairing issues the club's bridge a client certificate from the league's
CA (openssl); the league broker takes clubs on a TLS listener only, with a client certificate of its CA besides the
password, and its own director on a plain loopback listener; the TLS bridge runs in a Mosquitto of its own beside
the club's broker (bridged to it in plain on loopback) and checks the league's certificate. A board's message
crosses out, the league's ask crosses in; with the league bridge's Mosquitto hung the club's broker goes on; a
connection without the certificate, or without TLS, is refused."""

from __future__ import annotations

import queue
import signal
import ssl
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest

from club import mosquitto
from club.league import ask_topic
from club.mosquitto import LocalBroker
from club.pairing import Pairing
from tests.club.tls_league import tls_league
from tests.soak import soak

HUNG = 15.0 if soak() else 0.5  # seconds the league bridge's Mosquitto stays hung (past the bridges' keepalive: --soak)


def _client(port: int, user: str, password: str, tls: dict[str, Any] | None = None) -> tuple[mqtt.Client, int]:
    """A connected paho client (its CONNACK's code, 0 when taken) or a refused one (-1: the TLS handshake failed)."""
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"t-{user}-{time.monotonic_ns()}")
    c.username_pw_set(user, password)
    if tls is not None:
        c.tls_set(**tls)
    got: queue.Queue[int] = queue.Queue()
    c.on_connect = lambda cl, u, f, reason, p: got.put(reason.value)
    c.on_disconnect = lambda cl, u, f, reason, p: got.put(-2)  # closed before any CONNACK
    c.on_message = lambda cl, u, m: cl.messages.put((m.topic, bytes(m.payload)))  # type: ignore[attr-defined]
    c.messages = queue.Queue()  # type: ignore[attr-defined]
    try:
        c.connect("127.0.0.1", port, keepalive=10)
    except (OSError, ssl.SSLError):
        return c, -1
    c.loop_start()
    try:
        return c, got.get(timeout=5)
    except queue.Empty:
        c.loop_stop()
        return c, -1


def test_the_league_bridge_over_tls_with_client_certificates(tmp_path: Path) -> None:
    if not mosquitto.available():
        pytest.skip("Mosquitto is not installed: `apt-get install -y mosquitto` (./dev test does it)")
    (pairing, league, cred, tls_port, local_port, club_port, relay_port, league_conf, generated, club_conf, hop,
     relay_conf) = tls_league(tmp_path)
    assert {"ca", "cert", "cert_key"} <= set(cred) and "PRIVATE KEY" in cred["cert_key"]
    assert not list((tmp_path / "league" / "tls" / "clubs").glob("*.key"))  # the club's key left with it
    text = league_conf.read_text()
    assert "require_certificate true" in text and f"listener {local_port} 127.0.0.1" in text
    assert relay_conf is not None and "bridge_cafile" not in hop and f"address 127.0.0.1:{relay_port}" in hop
    bridge = relay_conf.read_text()  # the TLS bridge, in the league bridge's own Mosquitto
    assert "bridge_certfile" in bridge and "bridge_keyfile" in bridge and "bridge_insecure false" in bridge
    assert ((generated / "league-bridge" / "tls" / "league-club.key").stat().st_mode & 0o777) == 0o600
    club_conf.write_text(club_conf.read_text() + hop)
    started: list[Any] = []
    clients: list[mqtt.Client] = []
    try:
        started.append(LocalBroker.paired(tmp_path / "league" / "run", Pairing(tmp_path / "league" / "none"),
                                          port=local_port, generated=league_conf).start())
        relay = LocalBroker.paired(tmp_path / "porto" / "relay", Pairing(tmp_path / "porto" / "none"), port=relay_port,
                                   generated=relay_conf).start()
        started.append(relay)
        club = LocalBroker.paired(tmp_path / "porto" / "broker", pairing, port=club_port, generated=club_conf).start()
        started.append(club)
        own = league.director()
        central, rc = _client(local_port, own["username"], own["password"])  # the league's director, on loopback
        clients.append(central)
        assert rc == 0
        central.subscribe("gamao/porto/+/events", qos=1)
        director, rc = _client(club_port, "director", pairing.director()["password"])  # porto's director
        clients.append(director)
        assert rc == 0
        director.subscribe(ask_topic("porto"), qos=1)
        director.subscribe("gamao/porto/+/events", qos=1)
        board, rc = _client(club_port, "mesa01", pairing.boards()["mesa01"]["password"])
        clients.append(board)
        assert rc == 0
        time.sleep(0.5)

        def crossed(source: mqtt.Client, topic: str, sink: mqtt.Client, payload: bytes) -> bool:
            """Publish until it arrives (the bridge may still be connecting): True once `sink` has it."""
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                source.publish(topic, payload, qos=1)
                try:
                    while True:
                        got = sink.messages.get(timeout=0.5)  # type: ignore[attr-defined]
                        if got == (topic, payload):
                            return True
                except queue.Empty:
                    pass
            return False

        # out: a board's message reaches the league over the TLS bridge; in: the league's ask reaches the club
        assert crossed(board, "gamao/porto/mesa01/events", central, b'{"over":"tls"}'), club._log_tail()
        assert crossed(central, ask_topic("porto"), director, b'{"ask":"tls"}'), club._log_tail()

        # the league bridge's Mosquitto hung (what a cut mid-handshake does to Debian's 2.0.11: SIGSTOP here): the
        # club's broker goes on serving its boards and director; the league's copy resumes when it is back
        assert relay.proc is not None
        relay.proc.send_signal(signal.SIGSTOP)
        try:
            time.sleep(HUNG)
            assert crossed(board, "gamao/porto/mesa01/events", director, b'{"club":"goes on"}'), club._log_tail()
        finally:
            relay.proc.send_signal(signal.SIGCONT)
        assert crossed(board, "gamao/porto/mesa01/events", central, b'{"over":"tls again"}'), club._log_tail()

        ca = str(generated / "league-bridge" / "tls" / "league-ca.crt")
        # the bridge's password without its certificate, or without TLS at all: refused
        c, rc = _client(tls_port, cred["username"], cred["password"], {"ca_certs": ca})
        clients.append(c)
        assert rc != 0
        c, rc = _client(tls_port, cred["username"], cred["password"])
        clients.append(c)
        assert rc != 0
        # with the club's certificate: taken (what the bridge does)
        tls = {"ca_certs": ca, "certfile": str(generated / "league-bridge" / "tls" / "league-club.crt"),
               "keyfile": str(generated / "league-bridge" / "tls" / "league-club.key")}
        c, rc = _client(tls_port, "someone", "wrong", tls)  # ... but the password is still checked
        clients.append(c)
        assert rc != 0
    finally:
        for c in clients:
            c.loop_stop()
            c.disconnect()
        for b in reversed(started):
            b.stop()
