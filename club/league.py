"""The league (issue 40): clubs' brokers bridged to a league broker, a league director over every club's boards.

A club is paired with the league as a board is with its club. The league keeps ``DIR/league.json`` (its owner's
only): its director's broker user, and per club the bridge's broker user and password and the keys of the club's
boards (the club gives them: ``club_keys(pairing)``), so that the league director checks every board's signed
message itself, end to end across the bridge (club/auth.py; a club's director cannot sign for a board either).

- ``League(DIR).pair_club(CLUB, keys)`` -> the club's credentials for the league (``{"club", "username",
  "password", "broker"}``); the club writes its broker's bridge with them (``bridge_text``, or
  ``write_broker_config(..., league=credentials)``).
- ``write_league_config(league, OUT)``: the league broker's mosquitto.conf, passwd and acl. **A club cannot speak
  for another**: the club's bridge user may write only ``gamao/CLUB/+/{state,events,verdicts}`` (Mosquitto drops
  anything else silently), and the league director refuses a message on a club's topic not signed by that club's
  board's key.
- ``League.keys()`` is a drop-in for the director's pairing (``Director(..., pairing=league)``): ``key(club,
  board)``, ``boards()``, ``clubs()``, ``refresh()``, ``director()``.

The bridge is Mosquitto's own (``connection league``): out only, QoS 1, ``cleansession false``, so what the boards
say while the league is unreachable waits in the club's broker (its ``max_queued_bytes``) and goes when the link is
back; the league's archive is keyed by (club, board, match, index), so nothing is counted twice. The club's own
director talks to its own broker only: it does not notice the league going away. The league sends nothing to a
club's boards (no ``resend`` across the bridge: the club's director and the league's would each need the board's
one command counter).
"""

from __future__ import annotations

import secrets
import time
from pathlib import Path
from typing import Any

from club.broker_config import (
    MAX_INFLIGHT_BYTES,
    MAX_QUEUED_BYTES,
    MAX_QUEUED_MESSAGES,
    mosquitto_hash,
    parse_listen,
)
from club.config import NAME, PREFIX, ClubConfigError, check_name
from club.league_night import MAX_FIXTURES, FixtureError, check_fixture
from club.pairing import DIRECTOR, MAX_MESSAGE, DirectorFile, Pairing, write_private

FILE = "league.json"
MAX_CLUBS = 200
MAX_CLUB_BOARDS = 100
OUT_KINDS = ("state", "events", "verdicts")


def bridge_user(club: str) -> str:
    """The league broker's user of a club's bridge (never a board's or the director's name)."""
    return f"club-{club}"


def club_keys(pairing: Pairing, club: str | None = None) -> dict[str, str]:
    """A club's boards and their signing keys (hex), as the league needs them to check the boards' messages."""
    return {name: cred["key"] for name, cred in pairing.boards().items() if club is None or cred["club"] == club}


class League(DirectorFile):
    """The league's paired clubs (see the module's docstring); the file is re-read when it changes."""

    FILE = FILE
    TABLE = "clubs"

    def __init__(self, data_dir: str | Path) -> None:
        super().__init__(data_dir)
        self.path.parent.mkdir(parents=True, exist_ok=True)

    def pair_club(self, club: str, keys: dict[str, str], broker: str | None = None,
                  again: bool = False) -> dict[str, Any]:
        """Pair a club (or give it its boards' keys again: `again` keeps its password unless it had none)."""
        check_name("club", club)
        if len(keys) > MAX_CLUB_BOARDS:
            raise ClubConfigError(f"club {club!r} gives {len(keys)} boards; a club has at most {MAX_CLUB_BOARDS}")
        for board, key in keys.items():
            check_name("board", board)
            try:
                if len(bytes.fromhex(key)) < 16:
                    raise ValueError
            except (TypeError, ValueError):
                raise ClubConfigError(f"board {board!r} of club {club!r}: its key must be hex, 16 bytes or more"
                                      ) from None
        self.director()
        with self._lock:
            self._load()
            clubs = self._data["clubs"]
            old = clubs.get(club)
            if old is not None and not again:
                raise ClubConfigError(f"club {club!r} is paired with the league already (`again` to renew)")
            if old is None and len(clubs) >= MAX_CLUBS:
                raise ClubConfigError(f"the league has {MAX_CLUBS} clubs, the most it takes")
            password = old["password"] if old is not None else secrets.token_urlsafe(18)
            cred = {"club": club, "username": bridge_user(club), "password": password, "broker": broker,
                    "boards": dict(keys), "paired": time.time()}
            clubs[club] = cred
            self._save()
        return {k: cred[k] for k in ("club", "username", "password", "broker")}

    # ----- the director's pairing, for the league director (club/intake.py) ---------------------------------
    def key(self, club: str, board: str) -> bytes | None:
        cred = self._data["clubs"].get(club)
        key = cred["boards"].get(board) if isinstance(cred, dict) else None
        return None if key is None else bytes.fromhex(key)

    def boards(self) -> dict[str, dict[str, Any]]:
        with self._lock:
            return {f"{c}/{b}": {"board": b, "club": c} for c, cred in self._data["clubs"].items()
                    for b in cred["boards"]}

    def clubs(self) -> list[str]:
        return sorted(self._data["clubs"])

    def club(self, club: str) -> dict[str, Any] | None:
        cred = self._data["clubs"].get(club)
        return None if cred is None else dict(cred)

    # ----- the inter-club match nights (club/league_night.py) ----------------------------------------------
    def add_fixture(self, raw: Any, again: bool = False) -> dict[str, Any]:
        """Keep a fixture (club/league_night.py ``check_fixture``); `again` replaces one with the same id."""
        with self._lock:
            self._load()
            fixture = check_fixture(raw, set(self._data["clubs"]))
            for p in fixture["pairings"]:
                if p["board"] not in self._data["clubs"][p["club"]]["boards"]:
                    raise FixtureError(f"fixture {fixture['id']}: club {p['club']} gave the league no board "
                                       f"{p['board']!r} (league pair {p['club']} KEYS --again)")
            fixtures = self._data.setdefault("fixtures", {})
            if fixture["id"] in fixtures and not again:
                raise FixtureError(f"fixture {fixture['id']} exists (`again` to replace it)")
            if fixture["id"] not in fixtures and len(fixtures) >= MAX_FIXTURES:
                raise FixtureError(f"the league keeps {MAX_FIXTURES} fixtures at most")
            fixtures[fixture["id"]] = fixture
            self._save()
            return dict(fixture)

    def fixtures(self) -> list[dict[str, Any]]:
        """The fixtures, newest night first."""
        fixtures = self._data.get("fixtures")
        out = [dict(f) for f in fixtures.values()] if isinstance(fixtures, dict) else []
        return sorted(out, key=lambda f: (-float(f.get("start") or 0), str(f.get("id"))))


def league_acl(league: League) -> str:
    lines = ["# written by the league (club/league.py): each club's bridge writes its own club's boards' topics only;",
             "# the league director reads every club's.", f"user {DIRECTOR}"]
    for club in league.clubs():
        lines += [f"topic read {PREFIX}/{club}/+/{kind}" for kind in OUT_KINDS]
    lines.append("topic read $SYS/#")
    for club in league.clubs():
        if not NAME.match(club):
            continue
        lines += ["", f"user {bridge_user(club)}"]
        lines += [f"topic write {PREFIX}/{club}/+/{kind}" for kind in OUT_KINDS]
    return "\n".join(lines) + "\n"


def write_league_config(league: League, out: str | Path, listen: str = "0.0.0.0:8883") -> Path:
    """The league broker's OUT/mosquitto.conf, passwd and acl (plain MQTT here: put TLS in front as the club's
    broker-config does; docs/league.md)."""
    out = Path(out).resolve()
    host, port = parse_listen(listen)
    out.mkdir(parents=True, exist_ok=True)
    director = league.director()
    entries = [f"{director['username']}:{mosquitto_hash(director['password'])}"]
    for club in league.clubs():
        cred = league.club(club) or {}
        entries.append(f"{bridge_user(club)}:{mosquitto_hash(cred['password'])}")
    write_private(out / "passwd", "\n".join(entries) + "\n")
    write_private(out / "acl", league_acl(league))
    (out / "data").mkdir(exist_ok=True)
    lines = ["# written by the league (club/league.py)", "per_listener_settings false", f"listener {port} {host}",
             "allow_anonymous false", f"password_file {out / 'passwd'}", f"acl_file {out / 'acl'}",
             "use_username_as_clientid true",
             f"max_packet_size {MAX_MESSAGE + 1024}", f"message_size_limit {MAX_MESSAGE}",
             "persistence true", f"persistence_location {out / 'data'}/", "autosave_interval 5",
             f"max_queued_messages {MAX_QUEUED_MESSAGES}", f"max_queued_bytes {MAX_QUEUED_BYTES}",
             "max_inflight_messages 100", f"max_inflight_bytes {MAX_INFLIGHT_BYTES}", "max_connections 1024"]
    conf = out / "mosquitto.conf"
    conf.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return conf


def bridge_text(club: str, league: dict[str, Any], ca_file: str | None = None) -> str:
    """The club broker's bridge to the league (appended to its mosquitto.conf by broker-config): out only, QoS 1,
    a persistent session on both sides, so what the link misses waits in the club's broker."""
    check_name("club", club)
    broker = str(league.get("broker") or "")
    address = broker.split("://", 1)[-1].rsplit("@", 1)[-1].rstrip("/")
    if not address or ":" not in address:
        raise ClubConfigError(f"the league's broker must be mqtt[s]://HOST:PORT, not {broker!r}")
    lines = ["", "# the league (club/league.py): this club's boards' messages go out to the league's broker",
             "connection league", f"address {address}", f"remote_username {league['username']}",
             f"remote_password {league['password']}", f"remote_clientid {league['username']}",
             "cleansession false", "local_clientid league-bridge", f"local_username {DIRECTOR}", "notifications false", "try_private false",
             "bridge_protocol_version mqttv311", "start_type automatic", "restart_timeout 1 10",
             "keepalive_interval 10"]
    if broker.startswith("mqtts://") or ca_file:
        if ca_file:
            lines.append(f"bridge_cafile {ca_file}")
    lines += [f"topic {PREFIX}/{club}/+/{kind} out 1" for kind in OUT_KINDS]
    return "\n".join(lines) + "\n"
