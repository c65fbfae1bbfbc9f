"""Does a club's Mosquitto keep serving its own boards while its TLS bridge to the league meets a cut link?
(issue 40; docs/league.md, "A limit found")

    .venv/bin/python bench/bench_league_tls_cut.py [--mode cut|refused|badcert] [--plain] [--seconds 25]

A league broker as `league broker-config` writes it (TLS, client certificates), a club broker as `broker-config
--league` writes it, its bridge pointed at: ``cut``, a relay that accepts each connection and closes it at once
(club/mosquitto.py CutProxy, cut: a proxy or NAT dropping the link); ``refused``, a port nobody listens on; or
``badcert``, the league itself with the club's certificate from another CA (the league closes the handshake).
Every 3 s the club's director connects to its own broker and publishes a QoS 1 message: "answers" when the broker
acknowledges it within 3 s. Debian's Mosquitto 2.0.11 with OpenSSL 3: with ``cut`` over TLS it stopped answering
after 3, 9, 11 and 24 s in four runs of five (the fifth answered for its 24 s; 100% of a core, no system call); with
``--plain`` it answered for 60 s, and with ``refused`` and ``badcert`` for 25 s (one run each). Run it against a newer Mosquitto (GAMAO_MOSQUITTO=/path/to/mosquitto) before trusting a TLS
bridge on a link that can be cut that way.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import paho.mqtt.client as mqtt  # noqa: E402

from club.broker_config import write_broker_config  # noqa: E402
from club.league import League, bridge_text, club_keys, write_league_config  # noqa: E402
from club.mosquitto import CutProxy, LocalBroker, free_port  # noqa: E402
from club.pairing import Pairing  # noqa: E402


def answers(port: int, password: str) -> bool:
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"probe-{time.monotonic_ns()}")
    client.username_pw_set("director", password)
    try:
        client.connect("127.0.0.1", port, keepalive=5)
    except OSError:
        return False
    client.loop_start()
    try:
        info = client.publish("gamao/porto/mesa01/resend", b"probe", qos=1)
        info.wait_for_publish(3)
        return bool(info.is_published())
    except (RuntimeError, ValueError):
        return False
    finally:
        client.loop_stop()
        client.disconnect()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mode", choices=("cut", "refused", "badcert"), default="cut")
    ap.add_argument("--plain", action="store_true", help="the plain bridge instead of TLS")
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
    started = []
    try:
        conf = write_league_config(league, tmp / "league-broker", listen=f"127.0.0.1:{league_port}", tls=tls,
                                   tls_host="localhost", local=f"127.0.0.1:{local_port}")
        started.append(LocalBroker.paired(tmp / "league-run", Pairing(tmp / "none"),
                                          port=local_port if tls else league_port, generated=conf).start())
        club = write_broker_config(pairing, tmp / "club-generated", listen=f"127.0.0.1:{club_port}", tls=False)
        club.write_text(club.read_text() + bridge_text("porto", cred, tls_dir=tmp / "club-generated" / "league-tls"))
        broker = LocalBroker.paired(tmp / "club-run", pairing, port=club_port, generated=club).start()
        started.append(broker)
        start, stopped = time.monotonic(), None
        while time.monotonic() - start < args.seconds:
            ok = answers(club_port, pairing.director()["password"])
            print(f"{time.monotonic() - start:5.1f} s: the club's broker {'answers' if ok else 'does NOT answer'}",
                  flush=True)
            if not ok and stopped is None:
                stopped = time.monotonic() - start
            time.sleep(max(0.0, 3.0 - (time.monotonic() - start) % 3.0))
        print(f"{'TLS' if tls else 'plain'} bridge, {args.mode}: "
              + (f"the club's broker stopped answering after {stopped:.0f} s" if stopped is not None
                 else f"the club's broker answered for {args.seconds:.0f} s"))
    finally:
        for b in reversed(started):
            b.stop()
        relay.close()
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
