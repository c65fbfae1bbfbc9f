"""The network namespaces the PIN tests attack from (tests/kiosk/netns.py) are made and removed without a network
change in the machine's own namespace: a bridge or a veth end made or removed there is heard by every browser on
the machine (Chromium ended the page tests' waiting requests with net::ERR_NETWORK_CHANGED while the PIN tests ran
beside them, issue 35)."""

from __future__ import annotations

import http.client
import subprocess
import time
from pathlib import Path

import pytest

from kiosk.config import Settings
from kiosk.main import create_app
from tests.kiosk import netns
from tests.kiosk.fakes import FakeService


def test_namespaces_made_served_and_removed_without_a_change_the_machine_hears(tmp_path: Path) -> None:
    why = netns.available()
    if why is not None:
        pytest.skip(f"no network namespaces here: {why}")
    app = create_app(Settings(data_dir=tmp_path, language="en"), service=FakeService(), coach_engine=None)
    monitor = subprocess.Popen(["ip", "-o", "monitor", "link", "address", "route"], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    try:
        time.sleep(0.3)  # the monitor listening (a change before it would go unseen, not be invented)
        with netns.Namespaces(3) as nets, nets.serve(app) as server:
            answers = []
            for ns in nets.names:  # each client reaches the server on the bridge, inside the hub
                def get() -> int:
                    conn = http.client.HTTPConnection(nets.host, server.port, timeout=10)
                    try:
                        conn.request("GET", "/api/state")
                        return conn.getresponse().status
                    finally:
                        conn.close()
                answers.append(netns.in_namespace(ns, get))
            assert answers == [200, 200, 200]
            with pytest.raises(OSError):  # and the machine's own namespace has no way to it
                http.client.HTTPConnection(nets.host, server.port, timeout=1).request("GET", "/api/state")
        time.sleep(0.3)
    finally:
        monitor.terminate()
        heard, _ = monitor.communicate(timeout=10)
    ours = (nets.bridge, f"gv{nets.tag}x", f"10.231.{nets.subnet}.")  # another program's changes are not ours
    assert [line for line in heard.splitlines() if any(name in line for name in ours)] == [], heard
    assert not [n for n in subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout.split()
                if n.startswith(f"gm{nets.tag}")]
