"""A real Mosquitto on loopback, configured the way docs/club.md sets up a club's broker.

For the tests, the bench and a club simulated on one laptop: a password file (one user per board, and the
director), an ACL (a board writes only under its own name), persistence, and optionally TLS with a CA made
here by `openssl`. ``kill()`` is SIGKILL (a crash); ``start()`` again reuses the same port and files.
"""

from __future__ import annotations

import getpass
import os
import shutil
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

from club.broker_config import make_ca, write_broker_config
from club.pairing import Pairing

MOSQUITTO = os.environ.get("GAMAO_MOSQUITTO", shutil.which("mosquitto") or "/usr/sbin/mosquitto")
PASSWD = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
DIRECTOR = "director"

ACL = """# docs/club.md: the director reads everything and may ask any board to send a match again;
# a board (user name = board name) writes only its own state, events and verdicts.
user {director}
topic read gamao/#
topic write gamao/+/+/resend
topic write gamao/+/+/command
topic read $SYS/#

pattern write gamao/+/%u/state
pattern write gamao/+/%u/events
pattern write gamao/+/%u/verdicts
pattern read gamao/+/%u/resend
pattern read gamao/+/%u/command
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_listening(host: str, port: int, seconds: float, proc: subprocess.Popen[bytes] | None = None,
                   stop: threading.Event | None = None) -> bool:
    """Wait until a server just started takes a TCP connection on `host`:`port` (True), or until its process `proc`
    ended, `stop` was set or `seconds` went by (False): the club's broker (LocalBroker.start) and the league bridge's
    own Mosquitto (club/league_watch.py) before anyone talks to them."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if (proc is not None and proc.poll() is not None) or (stop is not None and stop.is_set()):
            return False
        try:
            with socket.create_connection((host, port), timeout=0.2):
                return True
        except OSError:
            time.sleep(0.05)
    return False


def available() -> bool:
    return Path(MOSQUITTO).exists()


class LocalBroker:
    """`users`: name -> password (boards by their board name, and "director"); None: anonymous, no ACL."""

    def __init__(self, folder: Path, users: dict[str, str] | None = None, tls: bool = False,
                 port: int = 0, sys_interval: int = 10) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.users = users
        self.pairing: Pairing | None = None    # LocalBroker.paired(): the director's pairing it was written for
        self.keys: dict[str, bytes] = {}
        self.tls = tls
        self.port = port or free_port()
        self.sys_interval = sys_interval
        self.proc: subprocess.Popen[bytes] | None = None
        self.ca: Path | None = None
        self.conf = self.folder / "mosquitto.conf"
        self.log = self.folder / "mosquitto.log"
        self._write_config()

    @property
    def url(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://{'localhost' if self.tls else '127.0.0.1'}:{self.port}"

    def url_for(self, user: str) -> str:
        assert self.users is not None
        host = "localhost" if self.tls else "127.0.0.1"
        return f"{'mqtts' if self.tls else 'mqtt'}://{user}:{self.users[user]}@{host}:{self.port}"

    def add_user(self, name: str, password: str) -> None:
        """Add (or change) a user in the password file; the running broker reads it on SIGHUP."""
        assert self.users is not None
        self.users[name] = password
        pw = self.folder / "passwd"
        subprocess.run([PASSWD, "-b", str(pw), name, password], check=True, capture_output=True)
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGHUP)
            time.sleep(0.3)

    def _write_config(self) -> None:
        lines = [f"listener {self.port} 127.0.0.1", f"user {getpass.getuser()}", "persistence true",
                 f"persistence_location {self.folder}/", "autosave_interval 5", "max_queued_messages 100000",
                 "max_inflight_messages 100", f"log_dest file {self.log}", "log_type error", "log_type warning",
                 "log_type notice", "connection_messages true",
                 f"sys_interval {self.sys_interval}"]
        if self.users is None:
            lines.append("allow_anonymous true")
        else:
            pw = self.folder / "passwd"
            pw.write_text("")
            for name, password in self.users.items():
                subprocess.run([PASSWD, "-b", str(pw), name, password], check=True, capture_output=True)
            (self.folder / "acl").write_text(ACL.format(director=DIRECTOR))
            lines += ["allow_anonymous false", f"password_file {pw}", f"acl_file {self.folder / 'acl'}"]
        if self.tls:
            self.ca, crt, key = make_ca(self.folder / "tls")
            lines += [f"cafile {self.ca}", f"certfile {crt}", f"keyfile {key}", "tls_version tlsv1.2"]
        self.conf.write_text("\n".join(lines) + "\n")

    @classmethod
    def paired(cls, folder: Path, pairing: Pairing, tls: bool = False, port: int = 0,
               sys_interval: int = 10, generated: Path | None = None) -> LocalBroker:
        """The broker exactly as `gamao director broker-config` writes it for `pairing`'s boards (club/pairing.py),
        plus what a test needs: run as this user, log to a file, $SYS every `sys_interval` s."""
        self = cls.__new__(cls)
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.tls, self.port, self.sys_interval, self.proc = tls, port or free_port(), sys_interval, None
        self.pairing = pairing
        if generated is None:  # else: the configuration `gamao director broker-config` wrote there, as it is
            generated = write_broker_config(pairing, self.folder / "generated", listen=f"127.0.0.1:{self.port}",
                                            tls=tls, tls_host="localhost")
        self.ca = generated.parent / "tls" / "ca.crt" if tls else None
        self.users = {"director": pairing.director()["password"],
                      **{n: c["password"] for n, c in pairing.boards().items()}}
        self.keys = {n: bytes.fromhex(c["key"]) for n, c in pairing.boards().items()}
        self.log = self.folder / "mosquitto.log"
        self.conf = self.folder / "mosquitto.conf"
        self.conf.write_text(generated.read_text() + "\n".join([
            "# tests only: run as this user, log to a file", f"user {getpass.getuser()}", f"log_dest file {self.log}",
            "log_type error", "log_type warning", "log_type notice", "connection_messages true",
            f"sys_interval {sys_interval}"]) + "\n")
        return self

    def reload(self) -> None:
        """Write the generated configuration again (after pairing a board) and SIGHUP the broker."""
        assert self.pairing is not None, "LocalBroker.paired() makes a broker that can be reloaded"
        write_broker_config(self.pairing, self.folder / "generated", listen=f"127.0.0.1:{self.port}", tls=self.tls)
        self.users = {"director": self.pairing.director()["password"],
                      **{n: c["password"] for n, c in self.pairing.boards().items()}}
        self.keys = {n: bytes.fromhex(c["key"]) for n, c in self.pairing.boards().items()}
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGHUP)
            time.sleep(0.3)

    def start(self, timeout: float = 10.0) -> LocalBroker:
        self.proc = subprocess.Popen([MOSQUITTO, "-c", str(self.conf)], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE)
        if wait_listening("127.0.0.1", self.port, timeout, self.proc):
            return self
        if self.proc.poll() is not None:
            err = self.proc.stderr.read().decode() if self.proc.stderr else ""
            raise RuntimeError(f"mosquitto exited ({self.proc.returncode}): {err.strip()} {self._log_tail()}")
        raise TimeoutError(f"mosquitto did not listen on port {self.port} within {timeout:.0f} s")

    def _log_tail(self) -> str:
        try:
            return self.log.read_text()[-500:]
        except OSError:
            return ""

    def kill(self) -> None:
        """SIGKILL: a crash, nothing saved since the last autosave."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        if self.proc is not None and self.proc.stderr is not None:
            self.proc.stderr.close()
        self.proc = None

    def __enter__(self) -> LocalBroker:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class CutProxy:
    """A TCP relay in front of the broker whose connections can be dropped: the board's network cut.

    ``cut()`` closes every relayed connection at once and turns new ones away until ``restore()``; the
    board sees what it would see when a cable is pulled or the club's Wi-Fi goes (a reset connection,
    then refused reconnections).
    """

    def __init__(self, upstream_port: int, port: int = 0) -> None:
        self.upstream = upstream_port
        self.port = port or free_port()
        self._server = socket.socket()
        self._server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._server.bind(("127.0.0.1", self.port))
        self._server.listen(16)
        self._pairs: list[tuple[socket.socket, socket.socket]] = []
        self._cut = False
        self._lock = threading.Lock()
        self._closed = False
        self.cuts = 0
        threading.Thread(target=self._accept, name="cut-proxy", daemon=True).start()

    def url(self, user: str, password: str) -> str:
        return f"mqtt://{user}:{password}@127.0.0.1:{self.port}"

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._server.accept()
            except OSError:
                return
            if self._cut:
                client.close()
                continue
            try:
                up = socket.create_connection(("127.0.0.1", self.upstream), timeout=2)
            except OSError:
                client.close()
                continue
            # the 2 s were for connecting only: left on, a broker quiet for 2 s (a board idle after its match)
            # timed out the relay's read and dropped a connection nobody had cut
            up.settimeout(None)
            with self._lock:
                self._pairs.append((client, up))
            for a, b in ((client, up), (up, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self) -> None:
        self._cut = True
        self.cuts += 1
        with self._lock:
            pairs, self._pairs = self._pairs, []
        for pair in pairs:
            for s in pair:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()

    def restore(self) -> None:
        self._cut = False

    def close(self) -> None:
        self._closed = True
        self.cut()
        self._server.close()
