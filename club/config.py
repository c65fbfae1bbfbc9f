"""A board's (or the director's) broker settings: the ``[club]`` table of `gamao run --config`.

``broker`` is a URL: ``mqtt://host:1883`` or ``mqtts://host:8883`` (TLS); a user and password may sit in
it (``mqtts://board1:secret@host``) or in their own keys. An empty table means no broker: nothing is
published.

>>> c = ClubConfig.from_dict({"broker": "mqtts://b1:pw@club.local", "club": "porto", "board": "b1"})
>>> (c.host, c.port, c.tls, c.username, c.password)
('club.local', 8883, True, 'b1', 'pw')
>>> c.topic("state")
'gamao/porto/b1/state'
"""

from __future__ import annotations

import json
import logging
import re
import ssl
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import paho.mqtt.client as mqtt

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$")
KINDS = ("state", "events", "verdicts")
PREFIX = "gamao"
log = logging.getLogger(__name__)
KEYS = ("broker", "club", "board", "username", "password", "ca_file", "keepalive", "key", "sign_key", "credentials")


class ClubConfigError(ValueError):
    """The [club] settings cannot be used; the message names the key and what to write instead."""


def check_name(what: str, value: Any) -> str:
    if not isinstance(value, str) or not NAME.match(value):
        raise ClubConfigError(f"club setting {what!r} must be 1-40 letters, digits, '-' or '_' (starting with a letter "
                              f"or digit), not {value!r}")
    return value


def read_credentials(path: str | Path) -> dict[str, Any]:
    """A board's credentials file (the JSON `pair --json` printed); ClubConfigError naming what is wrong."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise ClubConfigError(f"cannot read the board's credentials {str(path)!r}: {exc.strerror or exc}") from None
    except ValueError:
        raise ClubConfigError(f"{str(path)!r} is not the JSON `gamao director pair NAME --json` printed") from None
    if not isinstance(data, dict):
        raise ClubConfigError(f"{str(path)!r} is not the JSON `gamao director pair NAME --json` printed")
    for k in ("board", "club", "username", "password", "key"):
        if not isinstance(data.get(k), str):
            raise ClubConfigError(f"the board's credentials {str(path)!r} lack {k!r}: pair the board again")
    try:
        if len(bytes.fromhex(data["key"])) < 16:
            raise ValueError
    except ValueError:
        raise ClubConfigError(f"the key in {str(path)!r} is not the hex key the director issued") from None
    if data.get("sign_key") is not None and not _seed(data["sign_key"]):
        raise ClubConfigError(f"the sign_key in {str(path)!r} is not the Ed25519 seed the director issued")
    return data


def _seed(text: Any) -> bool:
    """A board's Ed25519 seed (club/auth.py): 64 hex digits."""
    try:
        return isinstance(text, str) and len(bytes.fromhex(text)) == 32
    except ValueError:
        return False



@dataclass(frozen=True)
class Broker:
    host: str
    port: int
    tls: bool
    username: str | None = None
    password: str | None = None
    ca_file: str | None = None
    keepalive: int = 10

    @classmethod
    def parse(cls, url: str, username: str | None = None, password: str | None = None,
              ca_file: str | None = None, keepalive: int = 10) -> Broker:
        """``mqtt://[user[:password]@]host[:port]`` or ``mqtts://...``; ClubConfigError when it is not one."""
        if not isinstance(url, str) or "://" not in url:
            raise ClubConfigError(f"broker must be a URL like mqtt://host:1883 or mqtts://host:8883, not {url!r}")
        parts = urlsplit(url)
        if parts.scheme not in ("mqtt", "mqtts", "tcp", "ssl"):
            raise ClubConfigError(f"broker URL {url!r}: the scheme must be mqtt:// or mqtts:// (TLS)")
        try:
            port = parts.port
        except ValueError:
            raise ClubConfigError(f"broker URL {url!r}: the port must be a number") from None
        if not parts.hostname:
            raise ClubConfigError(f"broker URL {url!r} has no host name")
        tls = parts.scheme in ("mqtts", "ssl")
        if ca_file is not None and not Path(ca_file).is_file():
            raise ClubConfigError(f"ca_file {ca_file!r} does not exist: give the club's CA certificate (docs/club.md)")
        return cls(host=parts.hostname, port=port or (8883 if tls else 1883), tls=tls,
                   username=username if username is not None else (unquote(parts.username) if parts.username else None),
                   password=password if password is not None else (unquote(parts.password) if parts.password else None),
                   ca_file=ca_file, keepalive=keepalive)

    def display(self) -> str:
        """The URL without the password (for logs and the page)."""
        user = f"{self.username}@" if self.username else ""
        return f"{'mqtts' if self.tls else 'mqtt'}://{user}{self.host}:{self.port}"


@dataclass(frozen=True)
class ClubConfig:
    broker: Broker
    club: str
    board: str
    key: bytes | None = None  # the board's signing key from pairing (club/auth.py); None: unsigned copies
    sign_key: str | None = None  # the board's own Ed25519 seed (hex; club/auth.py ``seal``), for the league

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ClubConfig | None:
        """None for an empty table (no broker: the board publishes nothing)."""
        if not data:
            return None
        if data.get("credentials"):
            # the JSON `gamao director pair NAME --json` printed: board, club, user, password and key
            cred = read_credentials(data["credentials"])
            data = {"club": cred["club"], "board": cred["board"], "username": cred["username"],
                    "password": cred["password"], "key": cred["key"],
                    **({"sign_key": cred["sign_key"]} if cred.get("sign_key") else {}),
                    **({"broker": cred["broker"]} if cred.get("broker") else {}),
                    **{k: v for k, v in data.items() if k != "credentials" and v is not None}}
        unknown = sorted(set(data) - set(KEYS))
        if unknown:
            raise ClubConfigError(f"unknown club setting {unknown[0]!r}; known: {', '.join(KEYS)}")
        if not data.get("broker"):
            raise ClubConfigError("club settings need 'broker' (mqtt://host:1883 or mqtts://host:8883), "
                                  "or leave the [club] table out to publish nothing")
        keepalive = data.get("keepalive", 10)
        if not isinstance(keepalive, int) or not 2 <= keepalive <= 600:
            raise ClubConfigError(f"club setting 'keepalive' must be 2-600 seconds, not {keepalive!r}")
        key = data.get("key")
        try:
            signing = bytes.fromhex(key) if key is not None else None
        except (TypeError, ValueError):
            signing = None
        if key is not None and (signing is None or len(signing) < 16):
            raise ClubConfigError("club setting 'key' must be the hex key `gamao director pair` issued")
        if data.get("sign_key") is not None and not _seed(data["sign_key"]):
            raise ClubConfigError("club setting 'sign_key' must be the Ed25519 seed `gamao director pair` issued")
        for key in ("username", "password", "ca_file"):
            if key in data and not isinstance(data[key], str):
                raise ClubConfigError(f"club setting {key!r} must be text, not {data[key]!r}")
        broker = Broker.parse(data["broker"], data.get("username"), data.get("password"), data.get("ca_file"), keepalive)
        return cls(broker=broker, club=check_name("club", data.get("club", "club")),
                   board=check_name("board", data.get("board")), key=signing, sign_key=data.get("sign_key"))

    def topic(self, kind: str) -> str:
        return board_topic(self.club, self.board, kind)


def board_topic(club: str, board: str, kind: str) -> str:
    return f"{PREFIX}/{club}/{board}/{kind}"


def parse_topic(topic: str) -> tuple[str, str, str] | None:
    """(club, board, kind) of a board's topic, or None for anything else."""
    parts = topic.split("/")
    if len(parts) != 4 or parts[0] != PREFIX:
        return None
    return parts[1], parts[2], parts[3]


def _callback_failures(client: Any, userdata: Any, level: int, text: str) -> None:
    """paho's own log, of which only a callback's exception is worth a line (paho goes on after it)."""
    if text.startswith("Caught exception"):
        log.error("an MQTT callback failed (the link goes on): %s", text[:300])


def make_client(client_id: str, broker: Broker, clean: bool = True) -> Any:
    """A paho-mqtt 2.x client set up for this broker (credentials, TLS); not yet connected."""
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=clean,
                         protocol=mqtt.MQTTv311)
    if broker.username:
        client.username_pw_set(broker.username, broker.password)
    if broker.tls:
        client.tls_set(ca_certs=broker.ca_file, cert_reqs=ssl.CERT_REQUIRED, tls_version=ssl.PROTOCOL_TLS_CLIENT)
    # A callback's exception is logged and the network thread goes on: nothing a message holds may end the link
    # (issue 34: a resend of {"match": 1e999} raised OverflowError in the board's callback and killed its thread).
    client.suppress_exceptions = True
    client.on_log = _callback_failures
    client.reconnect_delay_set(min_delay=1, max_delay=4)
    client.max_inflight_messages_set(100)
    client.max_queued_messages_set(0)
    return client
