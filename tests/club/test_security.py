"""The broker's guard (docs/club.md): a user and password per board, an ACL that lets a board write only
under its own name, and TLS. Refusals are checked against a real Mosquitto."""

from __future__ import annotations

import json
import ssl
import threading
from pathlib import Path

import pytest

from club import mosquitto
from club.config import Broker, ClubConfig, make_client
from club.director import wait_for
from club.mosquitto import LocalBroker
from club.publisher import BoardPublisher
from kiosk.service import RefereeService
from tests.club.conftest import CLUB, Board


class Listener:
    """A raw subscriber (the director's credentials) that records every message on gamao/#."""

    def __init__(self, url: str, ca: str | None = None) -> None:
        self.got: list[tuple[str, dict]] = []
        self.ready = threading.Event()
        self.client = make_client(f"listener-{id(self)}", Broker.parse(url, ca_file=ca))
        # Ready once the broker has acknowledged the subscription (SUBACK), not when the connection is up: a
        # message published between the two would never reach this listener.
        self.client.on_connect = lambda c, u, f, r, p: c.subscribe("gamao/#", qos=1)
        self.client.on_subscribe = lambda c, u, mid, codes, p: self.ready.set()
        self.client.on_message = lambda c, u, m: self.got.append((m.topic, json.loads(m.payload)))
        b = Broker.parse(url, ca_file=ca)
        self.client.connect(b.host, b.port)
        self.client.loop_start()
        assert self.ready.wait(10)

    def topics(self) -> list[str]:
        return [t for t, _ in self.got]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def _connect_result(url: str, ca: str | None = None) -> str:
    """'ok' or the broker's refusal reason, for one connection attempt."""
    b = Broker.parse(url, ca_file=ca)
    result: list[str] = []
    done = threading.Event()
    client = make_client("probe", b)
    client.on_connect = lambda c, u, f, r, p: (result.append("ok" if not r.is_failure else str(r)), done.set())
    client.connect(b.host, b.port)
    client.loop_start()
    done.wait(10)
    client.disconnect()
    client.loop_stop()
    return result[0] if result else "no answer"


def test_wrong_password_is_refused_and_the_board_loses_nothing(broker: LocalBroker, tmp_path: Path) -> None:
    assert _connect_result(broker.url_for("mesa01")) == "ok"
    wrong = f"mqtt://mesa01:not-the-password@127.0.0.1:{broker.port}"
    assert _connect_result(wrong) in ("Not authorized", "Bad user name or password")
    assert _connect_result(f"mqtt://127.0.0.1:{broker.port}") != "ok"  # no anonymous boards
    # A board configured with the wrong password plays on; its copies wait in the outbox.
    service = RefereeService(tmp_path / "b" / "journal.sqlite")
    config = ClubConfig(broker=Broker.parse(wrong), club=CLUB, board="mesa01")
    publisher = BoardPublisher(config, service, tmp_path / "b").start()
    try:
        service.submit({"event": "new_match", "length": 1, "players": {"light": "Ana", "dark": "Bia"}})
        service.submit({"event": "roll", "dice": [5, 2]})
        assert not wait_for(publisher.connected.is_set, 2)
        assert publisher.pending() == 2 and service.journal.count() == 2
    finally:
        service.close()


def test_a_board_cannot_write_under_another_boards_name(broker: LocalBroker, tmp_path: Path) -> None:
    listener = Listener(broker.url_for("director"))
    mesa01 = make_client("mesa01-probe", Broker.parse(broker.url_for("mesa01")))
    mesa01.connect("127.0.0.1", broker.port)
    mesa01.loop_start()
    try:
        for topic in (f"gamao/{CLUB}/mesa02/events", f"gamao/{CLUB}/mesa02/state", f"gamao/{CLUB}/mesa02/resend",
                      f"gamao/{CLUB}/mesa01/resend", "gamao/other/mesa02/events"):
            mesa01.publish(topic, json.dumps({"forged": True}), qos=1).wait_for_publish(5)
        mesa01.publish(f"gamao/{CLUB}/mesa01/events", json.dumps({"own": True}), qos=1).wait_for_publish(5)
        # The board's own message comes after the forged ones on the same connection: once it is here,
        # the others would have been too.
        assert wait_for(lambda: f"gamao/{CLUB}/mesa01/events" in listener.topics(), 10)
        assert listener.topics() == [f"gamao/{CLUB}/mesa01/events"]
        # The same through the real publisher: a board named mesa02 but holding mesa01's password.
        board = Board(broker, "mesa02", tmp_path / "b", match="2pt", url=broker.url_for("mesa01")).play()
        assert wait_for(board.done, 30) and wait_for(lambda: board.publisher.pending() == 0, 10)
        own = Board(broker, "mesa03", tmp_path / "c", match="2pt").play()
        assert wait_for(own.done, 30) and own.publisher.wait_idle(10)
        assert wait_for(lambda: any(t.startswith(f"gamao/{CLUB}/mesa03/") for t in listener.topics()), 10)
        assert not any("/mesa02/" in t for t in listener.topics())
        board.close()
        own.close()
    finally:
        mesa01.disconnect()
        mesa01.loop_stop()
        listener.close()


def test_tls_to_the_broker(tmp_path: Path) -> None:
    if not mosquitto.available():
        pytest.skip(f"Mosquitto is not installed at {mosquitto.MOSQUITTO}")
    with LocalBroker(tmp_path / "tls", users={"director": "d", "mesa01": "p1"}, tls=True) as tls:
        ca = str(tls.ca)
        assert tls.url.startswith("mqtts://")
        assert _connect_result(tls.url_for("mesa01"), ca) == "ok"
        with pytest.raises(ssl.SSLError):  # a board that does not trust the club's CA will not talk
            _connect_result(tls.url_for("mesa01"))
        listener = Listener(tls.url_for("director"), ca)
        service = RefereeService(tmp_path / "b" / "journal.sqlite")
        config = ClubConfig.from_dict({"broker": tls.url_for("mesa01"), "club": CLUB, "board": "mesa01",
                                       "ca_file": ca})
        assert config is not None
        publisher = BoardPublisher(config, service, tmp_path / "b").start()
        try:
            service.submit({"event": "new_match", "length": 1, "players": {"light": "Ana", "dark": "Bia"}})
            assert publisher.wait_idle(10)
            assert wait_for(lambda: f"gamao/{CLUB}/mesa01/events" in listener.topics(), 10)
        finally:
            service.close()
            listener.close()
