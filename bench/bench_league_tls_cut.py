"""Does a club's Mosquitto keep serving its own boards while its TLS bridge to the league meets a cut link?
(issue 40; docs/league.md, "A limit found")

    .venv/bin/python bench/bench_league_tls_cut.py [--mode cut|refused|badcert] [--plain] [--direct] [--watch]
                                                   [--seconds 25]

A league broker as `league broker-config` writes it (TLS, client certificates), a club broker as `broker-config
--league` writes it, its bridge pointed at: ``cut``, a relay that accepts each connection and closes it at once
(club/mosquitto.py CutProxy, cut: a proxy or NAT dropping the link); ``refused``, a port nobody listens on; or
``badcert``, the league itself with the club's certificate from another CA (the league closes the handshake).
Every 3 s the club's director connects to its own broker and publishes a QoS 1 message: "answers" when the broker
acknowledges it within 3 s. Debian's Mosquitto 2.0.11 with OpenSSL 3: with ``cut`` over TLS it stopped answering
after 3, 9, 11 and 24 s in four runs of five (the fifth answered for its 24 s; 100% of a core, no system call); with
``--plain`` it answered for 60 s, and with ``refused`` and ``badcert`` for 25 s (one run each). Run it against a newer Mosquitto (GAMAO_MOSQUITTO=/path/to/mosquitto) before trusting a TLS
bridge on a link that can be cut that way.

By default the bridge is as ``broker-config --league`` writes it now (club/league.py ``write_league_bridge``): the TLS
bridge in a Mosquitto of its own, the club's broker bridged to it in plain on loopback; both are probed (the bridge's
Mosquitto by a CONNECT it refuses). ``--direct``: the TLS bridge in the club's broker itself (as first written; the
runs above). Measured with ``cut``: the league bridge's Mosquitto stopped answering after 12 and 16 s in two runs, the
club's broker answered for the 60 s of both.

``--watch``: the league bridge's Mosquitto run and watched as ``gamao director --run-league-bridge`` does
(club/league_watch.py, its default 2 s probes and 10 s without an answer): the restarts are counted, and the bridge's
Mosquitto is probed as above (a hung one between two restarts does not answer).
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import paho.mqtt.client as mqtt  # noqa: E402

from club.broker_config import write_broker_config  # noqa: E402
from club.league import (  # noqa: E402
    League,
    bridge_text,
    club_keys,
    write_league_bridge,
    write_league_config,
)
from club.league_watch import BridgeWatch  # noqa: E402
from club.mosquitto import CutProxy, LocalBroker, free_port  # noqa: E402
from club.pairing import Pairing  # noqa: E402


@contextlib.contextmanager
def _probe(port: int, user: str, password: str, on_connect: Callable[..., None] | None = None
           ) -> Iterator[mqtt.Client | None]:
    """A client of the broker at `port`, its loop running while inside (None: the port refuses the connection)."""
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"probe-{time.monotonic_ns()}")
    client.username_pw_set(user, password)
    if on_connect is not None:
        client.on_connect = on_connect
    try:
        client.connect("127.0.0.1", port, keepalive=5)
    except OSError:
        yield None
        return
    client.loop_start()
    try:
        yield client
    finally:
        client.loop_stop()
        client.disconnect()


def alive(port: int) -> bool:
    """The broker answers a CONNECT (here refused: a user it does not know) within 3 s: its loop runs."""
    got = threading.Event()
    with _probe(port, "probe", "not-a-user", lambda *a: got.set()) as client:
        return client is not None and got.wait(3)


def answers(port: int, password: str, user: str = "director") -> bool:
    """The broker acknowledges a QoS 1 message of the club's director within 3 s."""
    with _probe(port, user, password) as client:
        if client is None:
            return False
        try:
            info = client.publish("gamao/porto/mesa01/resend", b"probe", qos=1)
            info.wait_for_publish(3)
            return bool(info.is_published())
        except (RuntimeError, ValueError):
            return False


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mode", choices=("cut", "refused", "badcert"), default="cut")
    ap.add_argument("--plain", action="store_true", help="the plain bridge instead of TLS")
    ap.add_argument("--direct", action="store_true", help="the TLS bridge in the club's broker itself")
    ap.add_argument("--watch", action="store_true", help="the league bridge's Mosquitto under the director's watchdog")
    ap.add_argument("--seconds", type=float, default=25.0)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-league-tls-"))
    tls = not args.plain
    pairing = Pairing(tmp / "porto")
    pairing.pair("mesa01", "porto")
    league = League(tmp / "league")
    league_port, local_port, club_port = free_port(), free_port(), free_port()
    relay = CutProxy(league_port)
    relay.cut()
    target = {"cut": relay.port, "refused": free_port(), "badcert": league_port}[args.mode]
    cred = league.pair_club("porto", club_keys(pairing), broker=f"{'mqtts' if tls else 'mqtt'}://127.0.0.1:{target}")
    if args.mode == "badcert" and tls:
        other = League(tmp / "other").pair_club("porto", club_keys(pairing), broker="mqtts://127.0.0.1:1")
        cred = {**cred, "cert": other["cert"], "cert_key": other["cert_key"]}
    started: list = []
    watch = None
    try:
        conf = write_league_config(league, tmp / "league-broker", listen=f"127.0.0.1:{league_port}", tls=tls,
                                   tls_host="localhost", local=f"127.0.0.1:{local_port}")
        started.append(LocalBroker.paired(tmp / "league-run", Pairing(tmp / "none"),
                                          port=local_port if tls else league_port, generated=conf).start())
        generated = tmp / "club-generated"
        club = write_broker_config(pairing, generated, listen=f"127.0.0.1:{club_port}", tls=False)
        relay_port = free_port()
        if args.direct:
            text, relay_conf = bridge_text("porto", cred, tls_dir=generated / "league-tls"), None
        else:
            text, relay_conf = write_league_bridge("porto", cred, generated, relay=f"127.0.0.1:{relay_port}")
        club.write_text(club.read_text() + text)
        probes = {"the club's broker": (club_port, pairing.director()["password"], "director")}
        if relay_conf is not None and args.watch:
            import getpass

            relay_conf.write_text(relay_conf.read_text() + f"user {getpass.getuser()}\n")
            watch = BridgeWatch(relay_conf, log_file=tmp / "relay.log").start()
            started.append(watch)
        elif relay_conf is not None:
            started.append(LocalBroker.paired(tmp / "relay-run", Pairing(tmp / "none2"), port=relay_port,
                                              generated=relay_conf).start())
        if relay_conf is not None:
            probes["the league bridge's Mosquitto"] = (relay_port, "", "")  # (a CONNECT refused: it answers)
        started.append(LocalBroker.paired(tmp / "club-run", pairing, port=club_port, generated=club).start())
        start = time.monotonic()
        stopped: dict[str, float | None] = dict.fromkeys(probes)
        answered = dict.fromkeys(probes, 0)
        asked = 0
        while time.monotonic() - start < args.seconds:
            for name, (port, password, user) in probes.items():
                ok = answers(port, password, user) if user else alive(port)
                answered[name] += ok
                print(f"{time.monotonic() - start:5.1f} s: {name} {'answers' if ok else 'does NOT answer'}", flush=True)
                if not ok and stopped[name] is None:
                    stopped[name] = time.monotonic() - start
            asked += 1
            time.sleep(max(0.0, 3.0 - (time.monotonic() - start) % 3.0))
        how = "plain bridge" if not tls else ("TLS bridge in the club's broker" if args.direct
                                              else "TLS bridge in a Mosquitto of its own")
        if watch is not None:
            print(f"watched: {watch.restarts} restarts ({watch.reason}), pauses {watch.pauses}; answered: "
                  + ", ".join(f"{name} {n} of {asked}" for name, n in answered.items()))
        for name, when in stopped.items():
            print(f"{how}, {args.mode}: {name} "
                  + (f"stopped answering after {when:.0f} s" if when is not None else f"answered for {args.seconds:.0f} s"))
    finally:
        for b in reversed(started):
            b.close() if isinstance(b, BridgeWatch) else b.stop()
        relay.close()
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
