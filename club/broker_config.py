"""The broker's configuration the director writes for its paired boards (`gamao director broker-config`).

``write_broker_config(pairing, OUT_DIR)`` writes ``mosquitto.conf``, its ``passwd`` (Mosquitto's own
PBKDF2-SHA512 ``$7$`` hashes, as ``mosquitto_passwd`` makes them) and ``acl`` (the club fixed and the board as
the user: a board writes only its own three topics and reads only its own ``resend``), with
``max_packet_size``/``message_size_limit`` and TLS with a club CA made by ``openssl`` (``make_ca``)
(docs/club.md).

Against one board's credentials (they sit in every board's club.json; issue 34): what the broker queues for a
client (the director, away or slow) is bounded in bytes, not only in messages (``max_queued_bytes``,
``max_inflight_bytes``): 3,000 messages of 255 kB took Mosquitto to 773 MB when only the count was bounded. A
connection's client id is its user name (``use_username_as_clientid``): a board's credentials cannot claim the
director's id, or another board's, and throw it off. Run as root, the files Mosquitto reads after it drops to
its own user (``mosquitto``) are that user's: the password file, the ACL, the TLS key and the persistence folder.
"""

from __future__ import annotations

import base64
import hashlib
import os
import pwd
import secrets
import stat
import subprocess
from pathlib import Path

from club.config import NAME, PREFIX, ClubConfigError
from club.pairing import DIRECTOR, MAX_MESSAGE, Pairing, write_private

BROKER_USER = "mosquitto"          # the user Mosquitto drops to when started as root (its default `user`)
MAX_QUEUED_BYTES = 32 * 2**20      # per client, beyond what is in flight: ~20,000 copies of a board (~1.5 kB);
                                   # what is dropped beyond it the director asks the board for again (resend)
MAX_INFLIGHT_BYTES = 4 * 2**20     # per client, sent and not yet acknowledged
MAX_QUEUED_MESSAGES = 100_000
LEAGUE_ASKS = "gamao-league"       # club/league.py ASK_PREFIX: the league's asks to a club's director


def mosquitto_hash(password: str, salt: bytes | None = None, iterations: int = 101) -> str:
    """A password file entry's hash the way mosquitto_passwd (Mosquitto 2) writes it: ``$7$`` PBKDF2-SHA512."""
    salt = salt if salt is not None else secrets.token_bytes(12)
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, iterations)
    return f"$7${iterations}${base64.b64encode(salt).decode()}${base64.b64encode(digest).decode()}"


def openssl(*args: str) -> None:
    subprocess.run(["openssl", *args], check=True, capture_output=True)


def new_ca(folder: Path, name: str, days: int, ec: bool = False) -> tuple[Path, Path]:
    """A CA (``folder``/ca.crt, ca.key) named `name`; `ec`: a P-256 key (fast to make) instead of RSA 2048."""
    folder.mkdir(parents=True, exist_ok=True)
    ca_key, ca = folder / "ca.key", folder / "ca.crt"
    key_args = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"] if ec else ["-newkey", "rsa:2048"]
    openssl("req", "-x509", *key_args, "-nodes", "-days", str(days), "-subj", f"/CN={name}", "-keyout", str(ca_key),
            "-out", str(ca))
    ca_key.chmod(0o600)
    return ca, ca_key


def issue(folder: Path, stem: str, ca: tuple[Path, Path], name: str, days: int, host: str | None = None,
          ec: bool = False) -> tuple[Path, Path]:
    """A certificate (``folder``/STEM.crt, STEM.key, mode 600) named `name` and signed by `ca` (crt, key): a server's
    for `host` (its names: DNS:host and IP:127.0.0.1), or a client's when `host` is None."""
    folder.mkdir(parents=True, exist_ok=True)
    key, csr, crt, ext = (folder / f"{stem}.{n}" for n in ("key", "csr", "crt", "cnf"))
    key_args = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"] if ec else ["-newkey", "rsa:2048"]
    openssl("req", *key_args, "-nodes", "-subj", f"/CN={name}", "-keyout", str(key), "-out", str(csr))
    key.chmod(0o600)
    ext.write_text(f"subjectAltName=DNS:{host},IP:127.0.0.1\n" if host else "extendedKeyUsage=clientAuth\n")
    openssl("x509", "-req", "-in", str(csr), "-CA", str(ca[0]), "-CAkey", str(ca[1]), "-CAcreateserial",
            "-days", str(days), "-extfile", str(ext), "-out", str(crt))
    csr.unlink()
    return crt, key


def make_ca(folder: Path, host: str = "localhost", days: int = 30) -> tuple[Path, Path, Path]:
    """A club CA and a server certificate for `host` signed by it: (ca.crt, server.crt, server.key)."""
    ca = new_ca(folder, "Gamao club CA", days)
    crt, key = issue(folder, "server", ca, host, days, host=host)
    return ca[0], crt, key


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
                  f"topic write {PREFIX}/{club}/+/command",
                  # the league's asks come in over the bridge (its local user is the director's) to the director
                  f"topic readwrite {LEAGUE_ASKS}/{club}/ask"]
    lines.append("topic read $SYS/#")
    for name, cred in sorted(pairing.boards().items()):
        if not NAME.match(name) or not NAME.match(cred["club"]):
            continue
        t = f"{PREFIX}/{cred['club']}/{name}"
        lines += ["", f"user {name}", f"topic write {t}/state", f"topic write {t}/events",
                  f"topic write {t}/verdicts", f"topic read {t}/resend", f"topic read {t}/command"]
    return "\n".join(lines) + "\n"


def broker_owner() -> tuple[int, int] | None:
    """(uid, gid) the broker's files must belong to: Mosquitto's own user's when this runs as root (Mosquitto
    started as root drops to it before it reads them); None otherwise (a broker started by this user stays it)."""
    if os.geteuid() != 0:
        return None
    try:
        user = pwd.getpwnam(BROKER_USER)
    except KeyError:
        raise ClubConfigError(f"running as root, but this machine has no user {BROKER_USER!r}, which Mosquitto "
                              "drops to and which must own its password file and ACL: install Mosquitto first "
                              "(apt-get install mosquitto), or run broker-config as the user who runs the broker"
                              ) from None
    return user.pw_uid, user.pw_gid


def closed_to(owner: tuple[int, int] | None, folder: Path) -> Path | None:
    """The first folder on the way to `folder` that the broker's user cannot pass (root's home, a pytest folder):
    Mosquitto, having dropped to that user, cannot open the files below it whoever owns them. None when it can,
    or when this does not run as root."""
    if owner is None:
        return None
    uid, gid = owner
    for step in [*reversed(folder.parents), folder]:
        try:
            st = step.stat()
        except OSError:
            return step
        bit = stat.S_IXUSR if st.st_uid == uid else stat.S_IXGRP if st.st_gid == gid else stat.S_IXOTH
        if not st.st_mode & bit:
            return step
    return None


def _hand_over(owner: tuple[int, int] | None, *paths: Path) -> None:
    """The broker's files to the broker's user (root only), readable by it alone (a folder: usable by it alone)."""
    if owner is None:
        return
    for path in paths:
        if path.exists():
            os.chown(path, *owner)
            path.chmod(0o700 if path.is_dir() else 0o600)
            if path.is_dir():
                for inner in path.iterdir():
                    os.chown(inner, *owner)


def write_broker_config(pairing: Pairing, out: str | Path, listen: str = "0.0.0.0:8883", tls: bool = True,
                        tls_host: str | None = None) -> Path:
    """Write OUT/mosquitto.conf, OUT/passwd, OUT/acl (and OUT/tls/ with a club CA when `tls` and none is there
    yet). Returns the configuration's path. Run as root, the files Mosquitto reads are its own user's."""
    out = Path(out).resolve()
    host, port = parse_listen(listen)
    owner = broker_owner()
    write_users(out, pairing.director(), [(c["username"], c["password"]) for _, c in sorted(pairing.boards().items())],
                acl_text(pairing))
    lines = ["# written by `gamao director broker-config` (docs/club.md); write it again after pairing a board,",
             "# then reload the broker (SIGHUP re-reads the password file and the ACL).",
             "per_listener_settings false",
             f"listener {port} {host}"]
    if tls:
        folder = out / "tls"
        ca, crt, key = folder / "ca.crt", folder / "server.crt", folder / "server.key"
        if not (ca.is_file() and crt.is_file() and key.is_file()):
            name = tls_host or (host if host not in ("0.0.0.0", "::") else "localhost")
            make_ca(folder, name, days=3650)
            os.chmod(key, 0o600)
            (folder / "ca.key").chmod(0o600)
        lines += [f"cafile {ca}", f"certfile {crt}", f"keyfile {key}", "tls_version tlsv1.2"]
        _hand_over(owner, key)
    return write_conf(out, owner, lines)


def write_users(out: Path, director: dict[str, str], others: list[tuple[str, str]], acl: str) -> None:
    """OUT/passwd (the director and the `others` (user, password), each password hashed as Mosquitto's), OUT/acl and
    the persistence folder OUT/data (OUT made if need be)."""
    out.mkdir(parents=True, exist_ok=True)
    users = [(director["username"], director["password"]), *others]
    write_private(out / "passwd", "\n".join(f"{user}:{mosquitto_hash(password)}" for user, password in users) + "\n")
    write_private(out / "acl", acl)
    (out / "data").mkdir(exist_ok=True)


def write_conf(out: Path, owner: tuple[int, int] | None, lines: list[str]) -> Path:
    """OUT/mosquitto.conf: `lines` (its listeners) and what every Gamão broker (a club's, the league's) shares:
    users and ACL from write_users' files, the byte and queue bounds, persistence; the files Mosquitto reads are
    handed to its user (`owner`, when run as root)."""
    lines = [*lines, "allow_anonymous false", f"password_file {out / 'passwd'}", f"acl_file {out / 'acl'}",
             "use_username_as_clientid true",
             f"max_packet_size {MAX_MESSAGE + 1024}", f"message_size_limit {MAX_MESSAGE}",
             "persistence true", f"persistence_location {out / 'data'}/", "autosave_interval 5",
             f"max_queued_messages {MAX_QUEUED_MESSAGES}", f"max_queued_bytes {MAX_QUEUED_BYTES}",
             "max_inflight_messages 100", f"max_inflight_bytes {MAX_INFLIGHT_BYTES}", "max_connections 1024"]
    _hand_over(owner, out / "passwd", out / "acl", out / "data")
    conf = out / "mosquitto.conf"
    conf.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return conf
