"""The broker's configuration `gamao director broker-config` writes, against one board's credentials (issue 34):
what Mosquitto queues for the director is bounded in bytes (finding 2), a client id is its user's (finding 3),
and the files are the broker's own when the command runs as root, as docs/club.md tells it (finding 12)."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from club import broker_config
from club.broker_config import BROKER_USER, MAX_INFLIGHT_BYTES, MAX_QUEUED_BYTES, write_broker_config
from club.config import Broker, make_client
from club.director import wait_for
from club.mosquitto import MOSQUITTO, LocalBroker, available, free_port, wait_listening
from club.pairing import Pairing
from tests.cli_run import gamao
from tests.club.attacks import Takeover, director_session, flood, memory, saved_database
from tests.club.conftest import CLUB, Board, caught_up, check_director
from tests.soak import soak

MB = 2**20


def test_the_configuration_bounds_the_queues_in_bytes_and_binds_client_ids_to_users(tmp_path: Path) -> None:
    pairing = Pairing(tmp_path / "d")
    pairing.pair("mesa01", CLUB)
    conf = write_broker_config(pairing, tmp_path / "broker", listen="127.0.0.1:1883", tls=False).read_text()
    lines = conf.splitlines()
    assert f"max_queued_bytes {MAX_QUEUED_BYTES}" in lines and f"max_inflight_bytes {MAX_INFLIGHT_BYTES}" in lines
    assert "use_username_as_clientid true" in lines
    assert not any(line.startswith("user ") for line in lines)  # Mosquitto drops to its own user (finding 12)


# ----- finding 2: the flood --------------------------------------------------------------------------------------
def test_what_the_broker_queues_for_an_absent_director_is_bounded_in_bytes(broker: LocalBroker, make_director,
                                                                           tmp_path: Path) -> None:
    """Used to fail: 3,000 messages of 255 kB from one board's credentials, the director away, took Mosquitto to
    773 MB and a 766 MB database (queues bounded by count only: 100,000 messages, about 25 GB). Here 200 of them
    (3,000 with --soak): the database holds at most MAX_QUEUED_BYTES of them, and the director, back, takes in the
    board that plays meanwhile whole."""
    count = 3000 if soak() else 200
    assert broker.proc is not None
    director_session(broker, CLUB)
    before = memory(broker.proc.pid)[0]
    got = flood(broker, "mesa01", CLUB, count)
    after, peak = memory(broker.proc.pid)
    database = saved_database(broker)
    print(f"flood {got}: Mosquitto {before / MB:.0f} -> {after / MB:.0f} MB (peak {peak / MB:.0f}), "
          f"database {database / MB:.1f} MB")
    assert got["acked"] == count  # the broker takes them in, and drops for the director what is beyond its bound
    assert database <= MAX_QUEUED_BYTES + 2 * MB
    assert after - before <= MAX_QUEUED_BYTES + MAX_INFLIGHT_BYTES + 24 * MB

    board = Board(broker, "mesa02", tmp_path / "mesa02", match="2pt").play()
    try:
        director = make_director()
        assert wait_for(board.done, 60) and board.publisher.wait_idle(20)
        assert wait_for(lambda: caught_up(director, [board]), 60)
        assert check_director(director, [board]) == 133
        status = director.status()
        assert status["refused"]["too_large"] + status["refused"]["over_limit"] > 0  # the flood, refused unread
        assert director.archive.count(CLUB, "mesa01") == 0
    finally:
        board.close()


# ----- finding 3: client ids ----------------------------------------------------------------------------------
def test_a_boards_credentials_cannot_throw_the_director_or_another_board_off(broker: LocalBroker, make_director,
                                                                            tmp_path: Path) -> None:
    """Used to fail: mesa01's credentials connecting with the director's client id threw the director off (15 of
    21 tries) and replaced its persistent session with a clean one; with mesa02's, mesa02 showed offline. With
    `use_username_as_clientid` the broker gives each connection its user's name as its id."""
    director = make_director()
    board = Board(broker, "mesa02", tmp_path / "mesa02", match="2pt")
    try:
        assert wait_for(board.publisher.connected.is_set, 10)
        board.play()
        attacks = [Takeover(broker, "mesa01", director.intake.client_id).run(8),
                   Takeover(broker, "mesa01", "gamao-porto-mesa02").run(8)]
        assert all(a.connected == 8 for a in attacks)  # the broker takes the login, under mesa01's own id
        assert wait_for(board.done, 60) and board.publisher.wait_idle(20)
        assert wait_for(lambda: caught_up(director, [board]), 30)
        assert check_director(director, [board]) == 133
        link = director.status()["link"]
        print(f"after 16 takeover tries: director {link}, mesa02 connections {board.publisher.stats['connections']}")
        assert link["disconnections"] == 0 and link["sessions_lost"] == 0 and link["connections"] == 1
        assert board.publisher.stats["connections"] == 1
        assert director.boards()[0]["online"] is True
    finally:
        board.close()


def test_the_director_notices_its_session_taken_over(broker: LocalBroker, make_director, tmp_path: Path) -> None:
    """Someone with the director's own user (pairing.json) takes its session with a clean one: the director counts
    it, says so in its log and /api/status, takes its session back and asks the boards for what it missed."""
    director = make_director()
    board = Board(broker, "mesa02", tmp_path / "mesa02", match="2pt")
    try:
        Takeover(broker, "director", "whatever-id").run(1, hold=1.0)
        assert wait_for(lambda: director.status()["link"]["sessions_lost"] >= 1, 15)
        board.play()
        assert wait_for(board.done, 60) and board.publisher.wait_idle(20)
        assert wait_for(lambda: caught_up(director, [board]), 30)
        assert check_director(director, [board]) == 133
        assert director.status()["link"]["disconnections"] >= 1
    finally:
        board.close()


# ----- finding 12: run as root -----------------------------------------------------------------------------------
@pytest.fixture
def open_folder() -> Iterator[Path]:
    """A folder the broker's user can reach (pytest's own are its owner's only), removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="gamao-broker-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def _mosquitto_user() -> pwd.struct_passwd | None:
    try:
        return pwd.getpwnam(BROKER_USER)
    except KeyError:
        return None


@pytest.mark.skipif(os.geteuid() != 0, reason="docs/club.md's set-up as root: only root can show it")
def test_the_configuration_written_as_root_runs_under_mosquittos_own_user(open_folder: Path) -> None:
    """Used to fail: run as root, broker-config wrote passwd and acl readable by root only (and the TLS key, the
    persistence folder root's), and Mosquitto, which drops to its own user, stopped at "Unable to open pwfile"."""
    if not available() or _mosquitto_user() is None:
        pytest.skip(f"needs Mosquitto and its user {BROKER_USER!r} (apt-get install -y mosquitto)")
    user = _mosquitto_user()
    assert user is not None
    pairing = Pairing(open_folder / "director")
    pairing.pair("mesa01", CLUB)
    port = free_port()
    out = open_folder / "broker"
    conf = write_broker_config(pairing, out, listen=f"127.0.0.1:{port}", tls=True, tls_host="localhost")
    for name in ("passwd", "acl", "data", "tls/server.key"):
        st = (out / name).stat()
        assert (st.st_uid, st.st_gid) == (user.pw_uid, user.pw_gid), name
    assert (out / "tls" / "ca.key").stat().st_uid == 0  # the CA's key is not the broker's business
    proc = subprocess.Popen([MOSQUITTO, "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        assert wait_listening("127.0.0.1", port, 10, proc), proc.stderr.read().decode() if proc.stderr else ""
        cred = pairing.boards()["mesa01"]
        client = make_client("mesa01", Broker.parse(f"mqtts://localhost:{port}", cred["username"], cred["password"],
                                                    ca_file=str(out / "tls" / "ca.crt")))
        accepted = threading.Event()
        client.on_connect = lambda c, u, f, reason, p: (not reason.is_failure) and accepted.set()
        client.connect("127.0.0.1", port)
        client.loop_start()
        try:
            assert accepted.wait(10), "the board's login was refused"
            info = client.publish(f"gamao/{CLUB}/mesa01/state", b"{}", qos=1, retain=True)
            info.wait_for_publish(10)
            assert info.is_published()
        finally:
            client.disconnect()
            client.loop_stop()
    finally:
        proc.terminate()
        proc.wait(10)
        if proc.stderr is not None:
            proc.stderr.close()
    db = out / "data" / "mosquitto.db"
    assert db.is_file() and db.stat().st_uid == user.pw_uid  # it saved its state where it was told, as itself


def test_as_root_without_the_brokers_user_the_command_says_so(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(broker_config, "BROKER_USER", "no-such-user-gamao")
    monkeypatch.setattr(broker_config.os, "geteuid", lambda: 0)
    pairing = Pairing(tmp_path / "d")
    pairing.pair("mesa01", CLUB)
    with pytest.raises(broker_config.ClubConfigError, match="no-such-user-gamao"):
        write_broker_config(pairing, tmp_path / "broker", listen="127.0.0.1:1883", tls=False)



@pytest.mark.skipif(os.geteuid() != 0, reason="only root's broker-config hands the files to Mosquitto's user")
def test_as_root_the_command_warns_of_a_folder_mosquitto_cannot_reach(open_folder: Path) -> None:
    """docs/club.md's step 3 run as root writes ~/clube/broker, that is /root/clube/broker: /root is closed to the
    user Mosquitto drops to, whoever owns the files. The command says so and where to write them instead."""
    if _mosquitto_user() is None:
        pytest.skip(f"needs Mosquitto's user {BROKER_USER!r}")
    closed = open_folder / "root"  # closed to others, as root's home is
    closed.mkdir(mode=0o700)
    for out, warned in ((closed / "clube" / "broker", True), (open_folder / "broker", False)):
        data = out.parent / "director"
        assert gamao("director", "--data-dir", str(data), "pair", "mesa01").returncode == 0
        r = gamao("director", "--data-dir", str(data), "broker-config", str(out), "--no-tls",
                  "--listen", "127.0.0.1:1883")
        assert r.returncode == 0, r.stderr
        assert ("warning: Mosquitto drops to the user 'mosquitto'" in r.stderr) is warned, r.stderr
        if warned:
            assert str(closed) in r.stderr and "/etc/mosquitto/gamao" in r.stderr
