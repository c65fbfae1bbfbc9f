"""The league (issue 40): clubs' brokers bridged to a league broker, a league director over every club's boards.

A club is paired with the league as a board is with its club. The league keeps ``DIR/league.json`` (its owner's
only): its director's broker user, per club the bridge's broker user and password, the club's link key (the league's
asks) and the *public* keys of the club's boards (the club gives them: ``club_keys(pairing)``), so that the league
director checks every board's own Ed25519 signature itself, end to end across the bridge (club/auth.py ``seal``):
it holds no secret of a board, so neither it, nor another club, nor the board's own club's director can sign for one.

- ``League(DIR).pair_club(CLUB, keys, broker)`` -> the club's credentials for the league (``{"club", "username",
  "password", "broker", "key"}``, and for an ``mqtts://`` league ``"ca"``, ``"cert"``, ``"cert_key"``: the league's
  CA and the bridge's client certificate, PEM); the club writes its broker's bridge with them (``bridge_text``:
  ``broker-config --league``) and keeps the link key (``write_link``).
- ``write_league_config(league, OUT, tls=...)``: the league broker's mosquitto.conf, passwd and acl (TLS: the clubs'
  listener requires a client certificate of the league's CA; the league director on a plain loopback listener).
  **A club cannot speak for another**: the club's bridge user may write only ``gamao/CLUB/+/{state,events,
  verdicts}`` and read only its own ``gamao-league/CLUB/ask`` (Mosquitto drops anything else silently), and the
  league director refuses a message on a club's topic not signed by that board's own key.
- The league as the director's pairing (``Director(..., pairing=league)``): ``opener(club, board)`` (the public-key
  check), ``key`` (None: the league signs nothing for a board), ``link_key(club)``, ``boards()``, ``clubs()``,
  ``refresh()``, ``director()``; and the inter-club nights' fixtures (club/league_night.py).

The bridge is Mosquitto's own (``connection league``): the boards' messages out, the league's asks in, QoS 1,
``cleansession false``, so what the boards say while the league is unreachable waits in the club's broker (its
``max_queued_bytes``) and goes when the link is back. What was dropped past that bound the league asks the club for
(``signed_ask``, its own counter, the club's link key): the club's director asks its board with its own command
counter (club/intake.py), so the two directors' counters never meet. The league's archive is keyed by (club, board,
match, index), so nothing is counted twice. The club's own director talks to its own broker only: it does not
notice the league going away.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from club.auth import PUBLIC, AuthError, bounded, open_sealed, open_signed, public_key, sign
from club.broker_config import (
    LEAGUE_ASKS,
    _hand_over,
    broker_owner,
    issue,
    new_ca,
    parse_listen,
    write_conf,
    write_users,
)
from club.commands import MAX_INDEX, MAX_MATCH_ID
from club.config import NAME, PREFIX, ClubConfigError, check_name
from club.league_night import MAX_FIXTURES, FixtureError, check_fixture
from club.league_watch import NOTIFY_TOPIC, WATCH_USER, watch_acl, write_watch
from club.pairing import DIRECTOR, DirectorFile, Pairing, write_private

FILE = "league.json"
CERT_DAYS = 3650           # the league's CA and certificates (as a club's broker-config makes them)
LINK = "league_link.json"  # in a club's data folder: its link key with the league (asks it may obey)
MAX_CLUBS = 200
MAX_CLUB_BOARDS = 100
OUT_KINDS = ("state", "events", "verdicts")


def bridge_user(club: str) -> str:
    """The league broker's user of a club's bridge (never a board's or the director's name)."""
    return f"club-{club}"


def club_keys(pairing: Pairing, club: str | None = None) -> dict[str, str]:
    """A club's boards and their public keys (club/auth.py ``PUBLIC``), as the league needs them to check the boards'
    messages; a board paired before boards had one is left out (pair it again)."""
    return {name: cred["public"] for name, cred in pairing.boards().items()
            if (club is None or cred["club"] == club) and isinstance(cred.get("public"), str)}


# ----- the league's asks to a club: "send board B's match M again from index I" ----------------------------------
ASK_PREFIX = LEAGUE_ASKS
MAX_ASK = 1024   # bytes: an ask is about 200


def ask_topic(club: str) -> str:
    """Where the league asks a club (bridged in to the club's broker; its director alone reads it)."""
    return f"{ASK_PREFIX}/{club}/ask"


def signed_ask(club: str, key: bytes, board: str, match: int, start: int, seq: int) -> bytes:
    """The league's ask, signed with the club's link key (club/auth.py ``sign``) and the league's own counter."""
    body = {"board": board, "match": match, "from": start, "seq": seq, "issued": time.time()}
    return sign(ask_topic(club), json.dumps(body, separators=(",", ":")).encode(), key)


def check_ask(club: str, payload: bytes, key: bytes) -> dict[str, Any]:
    """The club's side: the league's ask, checked (AuthError: too_large, unsigned, forged, malformed); the caller
    checks its counter (above the last league ask it obeyed) and that the board is its own."""
    if len(payload) > MAX_ASK:
        raise AuthError("too_large")
    msg = open_signed(ask_topic(club), payload, key)
    board = msg.get("board")
    if (not isinstance(board, str) or not NAME.match(board) or not bounded(msg.get("match"), 0, MAX_MATCH_ID)
            or not bounded(msg.get("from"), 0, MAX_INDEX)):
        raise AuthError("malformed")
    return {"board": board, "match": msg["match"], "from": msg["from"], "seq": msg["seq"]}


def read_link(data_dir: str | Path) -> dict[str, Any] | None:
    """The club's link with the league (``LINK``, written by ``broker-config --league``): {"club", "key"}, or None."""
    try:
        data = json.loads((Path(data_dir) / LINK).read_text(encoding="utf-8"))
        check_name("club", data.get("club"))
        if len(bytes.fromhex(data["key"])) < 16:
            raise ValueError
    except (OSError, ValueError, TypeError, KeyError, AttributeError, ClubConfigError):
        return None
    return {"club": data["club"], "key": data["key"]}


def write_link(data_dir: str | Path, credentials: dict[str, Any]) -> Path | None:
    """Keep the club's link key with the league beside its pairing (owner only), for its director to check the
    league's asks; None when the credentials carry no key (a league of an older Gamão)."""
    if not isinstance(credentials.get("key"), str):
        return None
    path = Path(data_dir) / LINK
    write_private(path, json.dumps({"club": check_name("club", credentials.get("club")), "key": credentials["key"]}))
    return path


class League(DirectorFile):
    """The league's paired clubs (see the module's docstring); the file is re-read when it changes."""

    FILE = FILE
    TABLE = "clubs"

    def __init__(self, data_dir: str | Path) -> None:
        super().__init__(data_dir)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._publics: dict[tuple[str, str], tuple[str, Any]] = {}

    def pair_club(self, club: str, keys: dict[str, str], broker: str | None = None,
                  again: bool = False) -> dict[str, Any]:
        """Pair a club (or give it its boards' public keys again: `again` keeps its password and link key).
        `keys`: the club's boards and their Ed25519 public keys (``league-keys``: "ed25519:" and 64 hex digits)."""
        check_name("club", club)
        if len(keys) > MAX_CLUB_BOARDS:
            raise ClubConfigError(f"club {club!r} gives {len(keys)} boards; a club has at most {MAX_CLUB_BOARDS}")
        for board, key in keys.items():
            check_name("board", board)
            try:
                public_key(key)
            except (TypeError, ValueError):
                raise ClubConfigError(
                    f"board {board!r} of club {club!r}: the league takes a board's public key ({PUBLIC} and 64 hex "
                    "digits, from `league-keys`), never its secret key; a board paired before public keys must be "
                    "paired again (`gamao director pair NAME --again`)") from None
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
            link = old.get("key") if old is not None and old.get("key") else secrets.token_hex(32)
            cred = {"club": club, "username": bridge_user(club), "password": password, "broker": broker,
                    "boards": dict(keys), "key": link, "paired": time.time()}
            clubs[club] = cred
            self._save()
        out = {k: cred[k] for k in ("club", "username", "password", "broker", "key")}
        if str(broker or "").startswith("mqtts://"):
            # TLS: the league's CA and a client certificate for the club's bridge, signed by it (the league broker
            # takes a club's bridge only with one, besides its password); the key leaves the league in this answer
            ca = self.ca()
            crt, secret = issue(self.path.parent / "tls" / "clubs", club, ca, bridge_user(club), CERT_DAYS, ec=True)
            out |= {"ca": ca[0].read_text(), "cert": crt.read_text(), "cert_key": secret.read_text()}
            secret.unlink()  # the league keeps the certificate, not the club's key
        return out

    def ca(self) -> tuple[Path, Path]:
        """The league's CA (DIR/tls/ca.crt, ca.key; made the first time): it signs the league broker's certificate
        and each club bridge's client certificate."""
        folder = self.path.parent / "tls"
        ca, key = folder / "ca.crt", folder / "ca.key"
        if not (ca.is_file() and key.is_file()):
            return new_ca(folder, "Gamao league CA", CERT_DAYS, ec=True)
        return ca, key

    # ----- the director's pairing, for the league director (club/intake.py) ---------------------------------
    def key(self, club: str, board: str) -> bytes | None:
        """None: the league holds no board's secret key, so it signs nothing for a board (it asks the club)."""
        return None

    def opener(self, club: str, board: str) -> Callable[[str, bytes], dict[str, Any]] | None:
        """How the league checks a board's message: its Ed25519 signature with the public key its club gave
        (club/auth.py ``open_sealed``); None when the club gave no such board."""
        cred = self._data["clubs"].get(club)
        text = cred["boards"].get(board) if isinstance(cred, dict) else None
        if not isinstance(text, str):
            return None
        known = self._publics.get((club, board))
        if known is None or known[0] != text:
            try:
                known = self._publics[(club, board)] = (text, public_key(text))
            except ValueError:
                return None
        return partial(open_sealed, public=known[1])

    def link_key(self, club: str) -> bytes | None:
        """The key the league signs its asks to the club with (club/league.py ``signed_ask``; the club's alone)."""
        cred = self._data["clubs"].get(club)
        key = cred.get("key") if isinstance(cred, dict) else None
        return bytes.fromhex(key) if isinstance(key, str) else None

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
        lines.append(f"topic write {ask_topic(club)}")
    lines.append("topic read $SYS/#")
    for club in league.clubs():
        if not NAME.match(club):
            continue
        lines += ["", f"user {bridge_user(club)}"]
        lines += [f"topic write {PREFIX}/{club}/+/{kind}" for kind in OUT_KINDS]
        lines.append(f"topic read {ask_topic(club)}")  # the league's asks to this club, and no other's
    return "\n".join(lines) + "\n"


def write_league_config(league: League, out: str | Path, listen: str = "0.0.0.0:8883", tls: bool = False,
                        tls_host: str | None = None, local: str | None = "127.0.0.1:1883") -> Path:
    """The league broker's OUT/mosquitto.conf, passwd and acl. `tls`: the clubs' listener (`listen`) takes TLS only,
    with the league's CA (``League.ca``) and a server certificate for `tls_host` (OUT/tls/), and requires a client
    certificate from that CA (the club's bridge's, issued at ``pair_club``) besides the password; the league's own
    director connects on a plain listener on loopback (`local`)."""
    out = Path(out).resolve()
    host, port = parse_listen(listen)
    owner = broker_owner()
    write_users(out, league.director(), [(bridge_user(club), (league.club(club) or {})["password"])
                                         for club in league.clubs()], league_acl(league))
    lines = ["# written by the league (club/league.py)", "per_listener_settings false", f"listener {port} {host}"]
    if tls:
        ca = league.ca()
        crt, key = out / "tls" / "server.crt", out / "tls" / "server.key"
        if not (crt.is_file() and key.is_file()):
            name = tls_host or (host if host not in ("0.0.0.0", "::") else "localhost")
            issue(out / "tls", "server", ca, name, CERT_DAYS, host=name, ec=True)
        lines += [f"cafile {ca[0]}", f"certfile {crt}", f"keyfile {key}", "tls_version tlsv1.2",
                  "require_certificate true"]
        _hand_over(owner, key)
        if local:
            local_host, local_port = parse_listen(local)
            lines += ["# the league's own director, on this machine", f"listener {local_port} {local_host}"]
    return write_conf(out, owner, lines)


def bridge_text(club: str, league: dict[str, Any], ca_file: str | None = None, tls_dir: str | Path | None = None,
                local_user: str = DIRECTOR, notify: str | None = None) -> str:
    """The club broker's bridge to the league (appended to its mosquitto.conf by broker-config): out only, QoS 1,
    a persistent session on both sides, so what the link misses waits in the club's broker. An ``mqtts://`` league:
    TLS, checking the league's certificate with its CA (`ca_file`, or the ``ca`` the pairing gave), and the club's
    client certificate (the pairing's ``cert`` and ``cert_key``), written into `tls_dir` (the key mode 600).
    `notify`: the bridge tells its state on this local topic ("1" up, "0" down; club/league_watch.py reads it)."""
    check_name("club", club)
    broker = str(league.get("broker") or "")
    address = broker.split("://", 1)[-1].rsplit("@", 1)[-1].rstrip("/")
    if not address or ":" not in address:
        raise ClubConfigError(f"the league's broker must be mqtt[s]://HOST:PORT, not {broker!r}")
    lines = ["", "# the league (club/league.py): this club's boards' messages go out to the league's broker",
             *_bridge_lines("league", address, league["username"], league["password"], "league-bridge", local_user,
                            notify)]
    if broker.startswith("mqtts://") or ca_file:
        pems = {name: league.get(name) for name in ("ca", "cert", "cert_key")}
        folder = Path(tls_dir).resolve() if tls_dir is not None else None
        if ca_file is None and isinstance(pems["ca"], str) and folder is not None:
            ca_file = str(_pem(folder / "league-ca.crt", pems["ca"]))
        if ca_file is None:
            raise ClubConfigError("a TLS league (mqtts://) needs its CA: the pairing's \"ca\", or --league-ca FILE")
        lines += [f"bridge_cafile {ca_file}", "bridge_tls_version tlsv1.2", "bridge_insecure false"]
        if isinstance(pems["cert"], str) and isinstance(pems["cert_key"], str) and folder is not None:
            crt, key = _pem(folder / "league-club.crt", pems["cert"]), _pem(folder / "league-club.key", pems["cert_key"], secret=True)
            _hand_over(broker_owner(), key)
            lines += [f"bridge_certfile {crt}", f"bridge_keyfile {key}"]
    lines += _bridge_topics(club)
    return "\n".join(lines) + "\n"


def _bridge_lines(name: str, address: str, user: str, password: str, local_id: str, local_user: str,
                  notify: str | None = None) -> list[str]:
    notes = ["notifications false"] if notify is None else [  # the bridge's state, in this Mosquitto only
        "notifications true", "notifications_local_only true", f"notification_topic {notify}"]
    return [f"connection {name}", f"address {address}", f"remote_username {user}", f"remote_password {password}",
            f"remote_clientid {user}", "cleansession false", f"local_clientid {local_id}", f"local_username {local_user}",
            *notes, "try_private false", "bridge_protocol_version mqttv311", "start_type automatic",
            "restart_timeout 1 10", "keepalive_interval 10"]


def _bridge_topics(club: str) -> list[str]:
    """The boards' messages out, the league's asks for what it missed in (for the club's director)."""
    return [*(f"topic {PREFIX}/{club}/+/{kind} out 1" for kind in OUT_KINDS), f"topic {ask_topic(club)} in 1"]


RELAY_USER = "league-relay"       # the club broker's bridge user on the league bridge's own Mosquitto
RELAY_LISTEN = "127.0.0.1:8884"   # where that Mosquitto listens (loopback only)


def write_league_bridge(club: str, league: dict[str, Any], out: str | Path, ca_file: str | None = None,
                        relay: str = RELAY_LISTEN) -> tuple[str, Path | None]:
    """The club's side of the league's bridge (``broker-config --league``): (the text for the club broker's
    mosquitto.conf, the league bridge's own Mosquitto configuration or None).

    A plain league (``mqtt://``): the club broker bridges to it directly (``bridge_text``). A TLS league
    (``mqtts://``): the TLS bridge runs in a Mosquitto of its own, OUT/league-bridge/mosquitto.conf (listening on
    `relay`, loopback), and the club's broker bridges to it in plain: Debian's Mosquitto 2.0.11 spins and stops serving
    every client of the broker whose TLS bridge's connection is dropped mid-handshake (docs/league.md, "A limit
    found"; bench/bench_league_tls_cut.py), and it must be that process, not the club's broker, that stops then."""
    out = Path(out).resolve()
    if not str(league.get("broker") or "").startswith("mqtts://") and not ca_file:
        return bridge_text(club, league), None
    check_name("club", club)
    host, port = parse_listen(relay)
    folder = out / "league-bridge"
    password = secrets.token_urlsafe(18)
    topics = [*(f"{PREFIX}/{club}/+/{kind}" for kind in OUT_KINDS), ask_topic(club)]
    acl = "\n".join(["# the club's broker's bridge (its boards' messages in, the league's asks out) and this broker's",
                     "# own bridge to the league (the same topics the other way)", f"user {RELAY_USER}",
                     *(f"topic readwrite {t}" for t in topics), "",
                     "# the club director's watchdog (club/league_watch.py): its probe and the bridge's state, here only",
                     *watch_acl()]) + "\n"
    folder.mkdir(parents=True, exist_ok=True)
    watch = write_watch(folder, relay)
    write_users(folder, {"username": RELAY_USER, "password": password}, [(WATCH_USER, watch["password"])], acl)
    conf = write_conf(folder, broker_owner(), [
        "# the league's TLS bridge in a Mosquitto of its own (club/league.py write_league_bridge): start it beside",
        "# the club's broker (mosquitto -c THIS_FILE); a hang here stops the league's copy, never the club",
        "per_listener_settings false", f"listener {port} {host}"])
    with conf.open("a", encoding="utf-8") as f:
        f.write(bridge_text(club, league, ca_file, tls_dir=folder / "tls", local_user=RELAY_USER, notify=NOTIFY_TOPIC))
    conf.chmod(0o600)  # the bridge's password is in it (Mosquitto reads it before dropping to its user)
    hop = ["", "# the league (club/league.py): through the league bridge's own Mosquitto (TLS to the league)",
           *_bridge_lines("league-relay", f"{host}:{port}", RELAY_USER, password, "league-relay-bridge", DIRECTOR),
           *_bridge_topics(club)]
    return "\n".join(hop) + "\n", conf


def _pem(path: Path, text: str, secret: bool = False) -> Path:
    """A PEM from the pairing written to `path`: a key 600 (the broker's user's when run as root), a certificate 644
    (Mosquitto reads it after it dropped to its own user)."""
    if "-----BEGIN " not in text or len(text) > 16_384:
        raise ClubConfigError(f"the league's pairing holds no PEM for {path.name}")
    write_private(path, text)
    if not secret:
        path.chmod(0o644)
    return path
