"""club/mosquitto.py's one "wait until it listens" (wait_listening), which the club's broker (LocalBroker.start) and
the league bridge's own Mosquitto (club/league_watch.py BridgeWatch) both wait with: a listener found, a process that
ended, a watch told to stop, a port nobody opens; and LocalBroker.start's errors built on it."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from club import mosquitto
from club.mosquitto import LocalBroker, free_port, wait_listening


def test_a_listener_is_found() -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        assert wait_listening("127.0.0.1", server.getsockname()[1], 5)


def test_a_process_that_ended_or_a_stop_ends_the_wait_without_a_listener() -> None:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait(10)
    assert not wait_listening("127.0.0.1", port, 60, proc)  # not the 60 s: the process is gone
    stop = threading.Event()
    stop.set()
    assert not wait_listening("127.0.0.1", port, 60, stop=stop)
    assert not wait_listening("127.0.0.1", port, 0.3)  # nobody opens it: False once the time is up


def test_the_club_broker_says_why_it_did_not_start(tmp_path: Path) -> None:
    if not mosquitto.available():
        pytest.skip("Mosquitto is not installed: `apt-get install -y mosquitto` (./dev test does it)")
    with LocalBroker(tmp_path / "ok", users=None) as broker:
        assert wait_listening("127.0.0.1", broker.port, 1)
    broken = LocalBroker(tmp_path / "broken", users=None)
    broken.conf.write_text("no_such_option 1\n")
    with pytest.raises(RuntimeError, match="mosquitto exited .*no_such_option"):
        broken.start(timeout=30)
    broken.stop()
