"""Pairing a board with the director, and the broker configuration the director writes for its boards.

``gamao director --data-dir DIR pair NAME [--club CLUB] --json`` issues a board's credentials once: its name,
its broker user (the board's name) and password, and the key its messages are signed with (club/auth.py).
The director keeps them in ``DIR/pairing.json`` (readable by its owner only); the board keeps the JSON it was
given (``gamao demo --credentials FILE``, or ``credentials = "FILE"`` in the ``[club]`` table).

``gamao director --data-dir DIR broker-config OUT_DIR [--listen HOST:PORT]`` writes ``mosquitto.conf``, its
``passwd`` (Mosquitto's own PBKDF2-SHA512 ``$7$`` hashes, as ``mosquitto_passwd`` makes them) and ``acl``
(the club fixed and the board as the user: a board writes only its own three topics and reads only its
own ``resend``), with ``max_packet_size``/``message_size_limit`` and TLS (docs/club.md).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import secrets
import threading
import time
from pathlib import Path
from typing import Any

from club.config import NAME, PREFIX, ClubConfigError, check_name

FILE = "pairing.json"
DIRECTOR = "director"
MAX_BOARDS = 256           # paired boards per club (the page shows only paired boards)
MAX_MESSAGE = 256 * 1024   # bytes: the largest message a board sends (a board reading with its tables is ~2 kB)
CREDENTIAL_KEYS = ("board", "club", "username", "password", "key", "broker", "paired")


def mosquitto_hash(password: str, salt: bytes | None = None, iterations: int = 101) -> str:
    """A password file entry's hash the way mosquitto_passwd (Mosquitto 2) writes it: ``$7$`` PBKDF2-SHA512."""
    salt = salt if salt is not None else secrets.token_bytes(12)
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, iterations)
    return f"$7${iterations}${base64.b64encode(salt).decode()}${base64.b64encode(digest).decode()}"


def _write_private(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.replace(tmp, path)


class Pairing:
    """The director's paired boards: ``{"director": {username, password}, "boards": {name: credentials}}``.

    Board names are unique across the file (a board's broker user is its name). The file is re-read when it
    changes, so a board paired while the director runs is heard at once (`key`)."""

    def __init__(self, data_dir: str | Path) -> None:
        self.path = Path(data_dir) / FILE
        self._lock = threading.Lock()
        self._mtime: float | None = None
        self._checked = 0.0
        self._data: dict[str, Any] = {"director": None, "boards": {}}
        self._load()

    def _load(self) -> None:
        try:
            st = self.path.stat()
        except OSError:
            return
        if st.st_mtime == self._mtime:
            return
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return
        if isinstance(data, dict) and isinstance(data.get("boards"), dict):
            self._data = data
            self._mtime = st.st_mtime

    def refresh(self, every: float = 2.0) -> None:
        """Re-read the file if it changed (at most every `every` seconds)."""
        now = time.monotonic()
        if now - self._checked >= every:
            self._checked = now
            with self._lock:
                self._load()

    def _save(self) -> None:
        _write_private(self.path, json.dumps(self._data, indent=1, sort_keys=True))
        self._mtime = self.path.stat().st_mtime

    def director(self) -> dict[str, str]:
        """The director's own broker user and password (made the first time)."""
        with self._lock:
            self._load()
            if not self._data.get("director"):
                self._data["director"] = {"username": DIRECTOR, "password": secrets.token_urlsafe(18)}
                self._save()
            return dict(self._data["director"])

    def pair(self, board: str, club: str | None = None, broker: str | None = None,
             again: bool = False) -> dict[str, Any]:
        """Issue a board's credentials (ClubConfigError when the name is taken, bad, or the club is full);
        `again`: issue new ones for a board already paired (the old password and key stop working; its club and
        broker stay unless given). `club` defaults to "club"."""
        check_name("board", board)
        if board == DIRECTOR:
            raise ClubConfigError(f"a board cannot be named {DIRECTOR!r}: that is the director's broker user")
        self.director()
        with self._lock:
            self._load()
            boards = self._data["boards"]
            old = boards.get(board)
            if old is not None and again:
                club = club or old["club"]
                broker = broker or old.get("broker")
            club = check_name("club", club or "club")
            if old is not None and not again:
                raise ClubConfigError(f"board {board!r} is paired already (club {old['club']!r}); "
                                      "`pair NAME --again` issues new credentials")
            if old is None and sum(1 for b in boards.values() if b["club"] == club) >= MAX_BOARDS:
                raise ClubConfigError(f"club {club!r} has {MAX_BOARDS} paired boards, the most one director takes")
            cred = {"board": board, "club": club, "username": board, "password": secrets.token_urlsafe(18),
                    "key": secrets.token_hex(32), "broker": broker, "paired": time.time()}
            boards[board] = cred
            self._save()
            return dict(cred)

    def unpair(self, board: str) -> bool:
        with self._lock:
            self._load()
            if self._data["boards"].pop(board, None) is None:
                return False
            self._save()
            return True

    def boards(self) -> dict[str, dict[str, Any]]:
        with self._lock:
            return {k: dict(v) for k, v in self._data["boards"].items()}

    def key(self, club: str, board: str) -> bytes | None:
        """The board's key if it is paired in this club."""
        cred = self._data["boards"].get(board)
        if cred is None or cred.get("club") != club:
            return None
        return bytes.fromhex(cred["key"])

    def clubs(self) -> list[str]:
        return sorted({b["club"] for b in self._data["boards"].values()})


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
    return data


def parse_listen(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or not 0 < int(port) < 65536:
        raise ClubConfigError(f"--listen must be HOST:PORT (e.g. 0.0.0.0:8883), not {text!r}")
    return host.strip("[]") or "0.0.0.0", int(port)


def acl_text(pairing: Pairing) -> str:
    clubs = pairing.clubs()
    lines = ["# written by `gamao director broker-config`: the club fixed, the board as the user.",
             "# The director reads every paired club and may ask any board to send a match again.",
             f"user {DIRECTOR}"]
    for club in clubs:
        lines += [f"topic read {PREFIX}/{club}/+/state", f"topic read {PREFIX}/{club}/+/events",
                  f"topic read {PREFIX}/{club}/+/verdicts", f"topic write {PREFIX}/{club}/+/resend",
                  f"topic write {PREFIX}/{club}/+/command"]
    lines.append("topic read $SYS/#")
    for name, cred in sorted(pairing.boards().items()):
        if not NAME.match(name) or not NAME.match(cred["club"]):
            continue
        t = f"{PREFIX}/{cred['club']}/{name}"
        lines += ["", f"user {name}", f"topic write {t}/state", f"topic write {t}/events",
                  f"topic write {t}/verdicts", f"topic read {t}/resend", f"topic read {t}/command"]
    return "\n".join(lines) + "\n"


def write_broker_config(pairing: Pairing, out: str | Path, listen: str = "0.0.0.0:8883", tls: bool = True,
                        tls_host: str | None = None) -> Path:
    """Write OUT/mosquitto.conf, OUT/passwd, OUT/acl (and OUT/tls/ with a club CA when `tls` and none is there
    yet). Returns the configuration's path."""
    out = Path(out).resolve()
    host, port = parse_listen(listen)
    out.mkdir(parents=True, exist_ok=True)
    director = pairing.director()
    entries = [f"{director['username']}:{mosquitto_hash(director['password'])}"]
    entries += [f"{c['username']}:{mosquitto_hash(c['password'])}" for _, c in sorted(pairing.boards().items())]
    _write_private(out / "passwd", "\n".join(entries) + "\n")
    _write_private(out / "acl", acl_text(pairing))
    (out / "data").mkdir(exist_ok=True)
    lines = ["# written by `gamao director broker-config` (docs/club.md); write it again after pairing a board,",
             "# then reload the broker (SIGHUP re-reads the password file and the ACL).",
             "per_listener_settings false",
             f"listener {port} {host}"]
    if tls:
        from club.mosquitto import make_ca

        folder = out / "tls"
        ca, crt, key = folder / "ca.crt", folder / "server.crt", folder / "server.key"
        if not (ca.is_file() and crt.is_file() and key.is_file()):
            name = tls_host or (host if host not in ("0.0.0.0", "::") else "localhost")
            make_ca(folder, name, days=3650)
            os.chmod(key, 0o600)
            (folder / "ca.key").chmod(0o600)
        lines += [f"cafile {ca}", f"certfile {crt}", f"keyfile {key}", "tls_version tlsv1.2"]
    lines += ["allow_anonymous false", f"password_file {out / 'passwd'}", f"acl_file {out / 'acl'}",
              f"max_packet_size {MAX_MESSAGE + 1024}", f"message_size_limit {MAX_MESSAGE}",
              "persistence true", f"persistence_location {out / 'data'}/", "autosave_interval 5",
              "max_queued_messages 100000", "max_inflight_messages 100", "max_connections 1024"]
    conf = out / "mosquitto.conf"
    conf.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return conf
