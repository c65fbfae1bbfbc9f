"""A club paired to a league over TLS, every configuration written and nothing started: what test_league_tls.py
and test_league_watch.py both start from (issue 40; club/league.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from club.broker_config import write_broker_config
from club.league import League, club_keys, write_league_bridge, write_league_config
from club.mosquitto import free_port
from club.pairing import Pairing


class TlsLeague(NamedTuple):
    pairing: Pairing              # the club porto's, one board mesa01
    league: League
    cred: dict[str, Any]          # the league's pairing of porto (its bridge's password, certificate and key)
    tls_port: int                 # the league broker's TLS listener (the clubs')
    local_port: int               # the league broker's plain loopback listener (its own director's)
    club_port: int                # porto's broker (plain, loopback)
    relay_port: int               # the league bridge's own Mosquitto (plain, loopback)
    league_conf: Path             # the league broker's mosquitto.conf
    generated: Path               # porto's broker-config folder
    club_conf: Path               # porto's broker's mosquitto.conf (the hop not yet added)
    hop: str                      # porto's broker's plain bridge to the league bridge's Mosquitto
    relay_conf: Path | None       # the league bridge's Mosquitto's conf (the TLS bridge)


def tls_league(tmp_path: Path) -> TlsLeague:
    pairing = Pairing(tmp_path / "porto" / "director")
    pairing.pair("mesa01", "porto")
    league = League(tmp_path / "league")
    tls_port, local_port, club_port, relay_port = free_port(), free_port(), free_port(), free_port()
    cred = league.pair_club("porto", club_keys(pairing), broker=f"mqtts://127.0.0.1:{tls_port}")
    league_conf = write_league_config(league, tmp_path / "league" / "broker", listen=f"127.0.0.1:{tls_port}",
                                      tls=True, tls_host="localhost", local=f"127.0.0.1:{local_port}")
    generated = tmp_path / "porto" / "generated"
    club_conf = write_broker_config(pairing, generated, listen=f"127.0.0.1:{club_port}", tls=False)
    hop, relay_conf = write_league_bridge("porto", cred, generated, relay=f"127.0.0.1:{relay_port}")
    return TlsLeague(pairing, league, cred, tls_port, local_port, club_port, relay_port, league_conf, generated,
                     club_conf, hop, relay_conf)
