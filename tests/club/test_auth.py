"""A board speaks only for itself (issue 22): boards paired with `gamao director pair NAME --json`, a real Mosquitto
configured by `gamao director broker-config`, every message signed (club/auth.py). Forgers with their own paired
credentials and with none publish forged and replayed events for another board: the director's archive equals
the board's journal (R11 game results, R13 score) and every forgery is counted."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from cli.main import main as gamao
from club import mosquitto
from club.auth import AuthError, ReplayGuard, open_signed, sign
from club.broker_config import mosquitto_hash
from club.config import Broker, make_client, read_credentials
from club.director import Director, wait_for
from club.mosquitto import LocalBroker, free_port
from club.pairing import Pairing
from tests.club.conftest import CLUB, Board, caught_up, check_director


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    capsys.readouterr()
    assert gamao(list(argv)) == 0
    return capsys.readouterr().out


class Client:
    """A raw MQTT client: a forger, or a sniffer that keeps every payload it sees (to replay them)."""

    def __init__(self, broker: Broker, name: str, subscribe: str | None = None) -> None:
        self.got: list[tuple[str, bytes]] = []
        self.result: list[str] = []
        ready = threading.Event()
        self.client = make_client(name, broker)

        def connected(c: Any, u: Any, f: Any, r: Any, p: Any) -> None:
            self.result.append("ok" if not r.is_failure else str(r))
            if subscribe and not r.is_failure:
                c.subscribe(subscribe, qos=1)  # ready at the broker's SUBACK: nothing published before is missed
            else:
                ready.set()

        self.client.on_connect = connected
        self.client.on_subscribe = lambda c, u, mid, codes, p: ready.set()
        self.client.on_message = lambda c, u, m: self.got.append((m.topic, m.payload))
        self.client.connect(broker.host, broker.port)
        self.client.loop_start()
        ready.wait(10)

    def publish(self, topic: str, payload: bytes) -> None:
        self.client.publish(topic, payload, qos=1).wait_for_publish(5)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def _forgeries(topic_of: Any, real_match: int) -> list[tuple[str, bytes]]:
    """What a forger writes for mesa01 without its key: unsigned, wrongly signed, a high match id, an undo."""
    out = []
    for i in range(5):
        event = {"board": "mesa01", "club": CLUB, "match": real_match, "index": i, "event": {"event": "undo"},
                 "sent": time.time(), "seq": 10**9 + i}
        body = json.dumps(event).encode()
        out.append((topic_of("events"), body))                                   # unsigned
        out.append((topic_of("events"), sign(topic_of("events"), body, bytes(32))))  # a guessed key
    high = {"board": "mesa01", "club": CLUB, "match": 10**15, "index": 0, "seq": 10**9,
            "event": {"event": "new_match", "length": 3, "players": {"light": "FORGED-Winner", "dark": "x"}}}
    out.append((topic_of("events"), sign(topic_of("events"), json.dumps(high).encode(), b"k" * 32)))
    return out


def test_forgers_with_and_without_credentials_on_the_generated_broker(capsys, tmp_path: Path) -> None:
    if not mosquitto.available():
        pytest.skip(f"Mosquitto is not installed at {mosquitto.MOSQUITTO}")
    data, conf_dir, port = tmp_path / "director", tmp_path / "broker-conf", free_port()
    creds = {}
    for name in ("mesa01", "mesa02"):
        creds[name] = json.loads(_cli(capsys, "director", "--data-dir", str(data), "pair", name, "--club", CLUB,
                                      "--json"))
        assert set(creds[name]) >= {"board", "club", "username", "password", "key"}
    _cli(capsys, "director", "--data-dir", str(data), "broker-config", str(conf_dir), "--listen",
         f"127.0.0.1:{port}", "--tls-host", "localhost")
    conf = (conf_dir / "mosquitto.conf").read_text()
    assert "allow_anonymous false" in conf and "message_size_limit" in conf and "max_packet_size" in conf
    assert "certfile" in conf and f"listener {port} 127.0.0.1" in conf
    acl = (conf_dir / "acl").read_text()
    assert f"user mesa01\ntopic write gamao/{CLUB}/mesa01/state" in acl and "%u" not in acl and "gamao/+/" not in acl
    pairing = Pairing(data)
    broker = LocalBroker.paired(tmp_path / "broker", pairing, tls=True, port=port,
                                generated=conf_dir / "mosquitto.conf").start()
    ca = str(broker.ca)
    (tmp_path / "mesa01.json").write_text(json.dumps(creds["mesa01"]))
    director = Director(Broker.parse(broker.url, "director", pairing.director()["password"], ca_file=ca), data,
                        club=CLUB).start()
    forger = nobody = board = None
    try:
        assert wait_for(director.intake.connected.is_set, 10)
        # mesa01 plays with the credentials file it was given
        cred = read_credentials(tmp_path / "mesa01.json")
        board = Board(broker, "mesa01", tmp_path / "mesa01", match="2pt", url=broker.url_for("mesa01"),
                      key=bytes.fromhex(cred["key"]), ca=ca)
        # a sniffer on the wire keeps mesa01's messages (as they reach the director: a second client with the
        # director's user would take the director's session, the broker binding a client id to its user)
        wire: list[tuple[str, bytes]] = []
        receive = director.intake._receive
        director.intake._receive = lambda t, p: (wire.append((t, p)), receive(t, p))[1]  # type: ignore[method-assign]
        board.play()
        assert wait_for(board.done, 60) and board.publisher.wait_idle(20)
        assert wait_for(lambda: caught_up(director, [board]), 30)
        # A forger with no credentials cannot even connect.
        nobody = Client(Broker.parse(broker.url, ca_file=ca), "nobody")
        assert nobody.result != ["ok"]
        # A forger with its own paired credentials (mesa02): the broker drops what it writes under mesa01's name;
        # what it may write (its own topics) the director refuses: mesa01's messages replayed there, or forged.
        forger = Client(Broker.parse(broker.url_for("mesa02"), ca_file=ca), "forger")
        assert forger.result == ["ok"]
        real = board.journal.matches()[-1]["id"]
        for topic, payload in _forgeries(lambda k: f"gamao/{CLUB}/mesa01/{k}", real):
            forger.publish(topic, payload)
        replays = [(t, p) for t, p in wire if t.startswith(f"gamao/{CLUB}/mesa01/")
                   and t.endswith(("/events", "/verdicts", "/state"))][:40]
        assert len(replays) == 40
        for topic, payload in replays:
            forger.publish(topic, payload)                                # dropped by the broker (ACL)
            forger.publish(topic.replace("/mesa01/", "/mesa02/"), payload)  # signed for mesa01's topic
        assert wait_for(lambda: director.intake.refused["forged"] >= 40, 10), director.intake.refused
        check_director(director, [board])
        assert director.archive.matches() == [(CLUB, "mesa01", m["id"]) for m in board.journal.matches()]
        assert [b["board"] for b in director.boards()] == ["mesa01"]
        print(f"generated broker: refused {director.status()['refused']}")
    finally:
        for c in (forger, nobody):
            if c is not None:
                c.close()
        if board is not None:
            board.close()
        director.close()
        broker.stop()


def _authentic(topic: str, payload: bytes, key: bytes) -> bool:
    try:
        open_signed(topic, payload, key)
    except AuthError:
        return False
    return True


def test_forged_and_replayed_events_are_refused_whatever_the_brokers_acl(tmp_path: Path) -> None:
    """An anonymous broker that lets anyone write anywhere: the director alone keeps mesa01's record true."""
    if not mosquitto.available():
        pytest.skip(f"Mosquitto is not installed at {mosquitto.MOSQUITTO}")
    pairing = Pairing(tmp_path / "director")
    key = bytes.fromhex(pairing.pair("mesa01", CLUB)["key"])
    with LocalBroker(tmp_path / "open") as broker:
        director = Director(Broker.parse(broker.url), tmp_path / "director", club=CLUB).start()
        board = Board(broker, "mesa01", tmp_path / "mesa01", match="2pt", url=broker.url, key=key)
        sniffer = Client(Broker.parse(broker.url), "sniffer", f"gamao/{CLUB}/mesa01/#")
        forger = Client(Broker.parse(broker.url), "forger")
        try:
            assert wait_for(director.intake.connected.is_set, 10)
            topic_of = lambda k: f"gamao/{CLUB}/mesa01/{k}"  # noqa: E731
            # forgeries first: before the board has said anything, they must not take index 0..4's place
            for topic, payload in _forgeries(topic_of, 1):
                forger.publish(topic, payload)
            for i in range(30):  # 5,000 fake boards, in small: never shown, never a view, counted
                forger.publish(f"gamao/{CLUB}/fake{i}/state", b'{"online": true, "journal": [[1, 99999]]}')
            board.play()
            assert wait_for(board.done, 60) and board.publisher.wait_idle(20)
            assert wait_for(lambda: caught_up(director, [board]), 30)
            captured = [(t, p) for t, p in sniffer.got if t.endswith(("/events", "/verdicts", "/state"))
                        and _authentic(t, p, key)]  # the board's own messages (the forgeries went by too)
            for topic, payload in captured[:60]:  # replayed verbatim on the board's own topic
                forger.publish(topic, payload)
            undo = [(t, p) for t, p in captured if b'"undo"' in p or b'"roll"' in p][:20]
            for topic, payload in undo:  # the audit's 40 forged undos, now as replays of real messages
                forger.publish(topic, payload)
            assert wait_for(lambda: director.intake.refused["replayed"] >= 60 + len(undo), 10), str(director.intake.refused)
            assert director.intake.refused["unsigned"] == 5 and director.intake.refused["forged"] == 6
            assert director.intake.refused["unpaired"] == 30
            checked = check_director(director, [board])
            assert checked == board.journal.count()
            assert [b["board"] for b in director.boards()] == ["mesa01"]
            assert director.boards()[0]["players"] != {"light": "FORGED-Winner", "dark": "x"}
            assert all("FORGED" not in json.dumps(r) for r in director.results())
            print(f"open broker: {checked} events equal to the journal; refused {director.intake.refused}")
        finally:
            sniffer.close()
            forger.close()
            board.close()
            director.close()
    # A restarted director keeps its counters: the retained state is taken again, an old one is not.
    director = Director(None, tmp_path / "director", club=CLUB).start()
    guard = director.archive.guard(CLUB, "mesa01")
    assert guard.state_seq > 0 and guard.high >= guard.state_seq
    director.close()


def test_signing_and_counters() -> None:
    key = bytes(range(32))
    topic = f"gamao/{CLUB}/mesa01/events"
    payload = sign(topic, b'{"match":1,"index":0,"seq":5}', key)
    assert open_signed(topic, payload, key) == {"match": 1, "index": 0, "seq": 5}
    for bad, reason in ((payload.replace(b'"index":0', b'"index":1'), "forged"),
                        (b'{"match":1,"index":0,"seq":5}', "unsigned"),
                        (payload[:-3] + b'0"}', "forged")):
        with pytest.raises(AuthError) as info:
            open_signed(topic, bad, key)
        assert info.value.reason == reason
    with pytest.raises(AuthError):
        open_signed(topic, sign(topic, b'{"seq":-1}', key), key)
    g = ReplayGuard()
    assert g.copy(3) and g.copy(1) and not g.copy(3) and g.copy(70000) and not g.copy(2)
    assert g.state(70001, "a", True) == "new" and g.state(70001, "a", True) == "again"
    assert g.state(70000, "b", True) is None
    g.will = 69000
    assert g.state(69000, "w", False) == "new" and g.state(69000, "w", False) is None  # a will fires once
    assert g.state(70001, "a", True) == "again"  # the newest state's copy, resent, is still that state
    # mosquitto_passwd's own hash of "secret" with this salt (Mosquitto 2, $7$ PBKDF2-SHA512, 101 rounds)
    import base64
    salt = base64.b64decode("yjMU5sVLiQt6PkMC")
    assert mosquitto_hash("secret", salt) == ("$7$101$yjMU5sVLiQt6PkMC$kux2J7Ze9Ct96nBRLYLBBjiJ2mmXZic7p0CVrrT392pDezDO1"
                                              "/uxnHTjhMcw18La2rwEc+5MZ/f/c8+lD9T36A==")


def test_pairing_on_the_command_line_refuses_what_it_cannot_use(capsys, tmp_path: Path) -> None:
    data = str(tmp_path / "d")
    cred = json.loads(_cli(capsys, "director", "--data-dir", data, "pair", "mesa01", "--club", CLUB, "--json",
                           "--broker", "mqtts://user:secret@clube.local:8883"))
    assert cred["broker"] == "mqtts://clube.local:8883" and len(bytes.fromhex(cred["key"])) == 32
    for argv, words in ((["pair", "mesa01"], "paired already"), (["pair", "mesa 02"], "1-40 letters"),
                        (["pair", "director"], "director's broker user"), (["pair", "x" * 41], "1-40 letters"),
                        (["broker-config", str(tmp_path / "c"), "--listen", "nowhere"], "HOST:PORT")):
        capsys.readouterr()
        assert gamao(["director", "--data-dir", data, *argv]) == 2
        err = capsys.readouterr().err
        assert words in err and "Traceback" not in err, err
    again = json.loads(_cli(capsys, "director", "--data-dir", data, "pair", "mesa01", "--again", "--json"))
    assert again["key"] != cred["key"] and again["password"] != cred["password"]
    assert (tmp_path / "d" / "pairing.json").stat().st_mode & 0o077 == 0  # readable by its owner only
    # the board's side: its [club] table names the credentials file
    from club.config import ClubConfig, ClubConfigError

    path = tmp_path / "mesa01.json"
    path.write_text(json.dumps(again))
    config = ClubConfig.from_dict({"credentials": str(path), "broker": "mqtt://127.0.0.1:1883"})
    assert config is not None and config.board == "mesa01" and config.key == bytes.fromhex(again["key"])
    assert config.broker.username == "mesa01" and config.club == CLUB
    path.write_text("{}")
    with pytest.raises(ClubConfigError, match="lack 'board'"):
        ClubConfig.from_dict({"credentials": str(path), "broker": "mqtt://127.0.0.1:1883"})
    capsys.readouterr()
    assert gamao(["demo", "--board", "mesa02", "--broker", "mqtt://127.0.0.1:1", "--credentials", str(path)]) == 2
    assert "lack 'board'" in capsys.readouterr().err
