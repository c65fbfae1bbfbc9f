"""The director's commands to a board (``resend``) are signed and checked like the boards' messages, and nothing a
message holds ends a board's link (issue 34, finding 5).

The broker here is an open one (anonymous, no ACL), so that anyone can write on a board's resend topic: the
generated ACL lets only the director write there, and the signature holds when that line falls (a leaked
director password, a misconfigured broker)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from club import mosquitto
from club.auth import AuthError, sign
from club.commands import RESEND, CommandGate, signed_command
from club.commands import topic as command_topic
from club.config import Broker, make_client
from club.director import Director, wait_for
from club.mosquitto import LocalBroker
from club.outbox import Outbox
from club.pairing import Pairing
from tests.club.conftest import CLUB, Board, caught_up, check_director

ROLL = {"event": "roll", "dice": [5, 2]}
NEW = {"event": "new_match", "length": 3, "players": {"light": "Ana", "dark": "Bia"}}


class Sender:
    """Anyone on an open broker: publishes what it is told on the board's resend topic."""

    def __init__(self, broker: LocalBroker) -> None:
        self.client = make_client("someone", Broker.parse(broker.url))
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()
        self.topic = f"gamao/{CLUB}/mesa01/resend"

    def send(self, payload: bytes, retain: bool = False) -> None:
        self.client.publish(self.topic, payload, qos=1, retain=retain).wait_for_publish(5)

    def signed(self, key: bytes, seq: int, **body: Any) -> bytes:
        return sign(self.topic, json.dumps({**body, "seq": seq}, separators=(",", ":")).encode(), key)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def _altered(payload: bytes) -> bytes:
    """The message with its MAC's last hex digit changed (to another digit: never the same one)."""
    last = payload[-3:-2]
    return payload[:-3] + (b"1" if last == b"0" else b"0") + payload[-2:]


def _alive(board: Board, event: dict[str, Any]) -> bool:
    """The board's link still carries its copies: a new event reaches the broker."""
    board.service.submit(event)
    return board.publisher.wait_idle(10)


@pytest.fixture
def open_broker(tmp_path: Path):
    if not mosquitto.available():
        pytest.skip(f"Mosquitto is not installed at {mosquitto.MOSQUITTO}")
    with LocalBroker(tmp_path / "open") as broker:
        yield broker


def test_a_board_obeys_only_a_fresh_command_signed_with_its_key(open_broker: LocalBroker, tmp_path: Path) -> None:
    """Used to fail: a board obeyed an unsigned resend (anyone could make it send a match again, as often as they
    liked)."""
    key = bytes.fromhex(Pairing(tmp_path / "d").pair("mesa01", CLUB)["key"])
    board = Board(open_broker, "mesa01", tmp_path / "mesa01", url=open_broker.url, key=key)
    anyone = Sender(open_broker)
    try:
        assert wait_for(board.publisher.connected.is_set, 10) and _alive(board, NEW)
        match = board.journal.matches()[-1]["id"]
        stats = board.publisher.stats
        sent = stats["catch_up"]  # the first event may have gone by the catch-up path (it raced the connection)
        refusals = [anyone.send(p) for p in (
            json.dumps({"match": match, "from": 0}).encode(),                   # unsigned
            anyone.signed(bytes(32), 10**15, match=match, **{"from": 0}),        # another key's
            _altered(anyone.signed(key, 10**15, match=match, **{"from": 0})),    # its MAC's last digit changed
            anyone.signed(key, 10**15, match=match, **{"from": -1}),            # out of bounds
            anyone.signed(key, 10**15, match=float(match), **{"from": 0}),      # not an integer
        )]
        assert wait_for(lambda: stats["refused_commands"] == len(refusals), 10), stats
        assert stats["resend_requests"] == 0 and stats["catch_up"] == sent
        good = anyone.signed(key, 10**15, match=match, **{"from": 0})
        anyone.send(good)
        assert wait_for(lambda: stats["resend_requests"] == 1 and stats["catch_up"] > sent, 10), stats
        anyone.send(good)                                                       # the same again: a replay
        anyone.send(anyone.signed(key, 10**15 - 1, match=match, **{"from": 0}))  # an older one
        assert wait_for(lambda: stats["refused_commands"] == len(refusals) + 2, 10), stats
        assert stats["resend_requests"] == 1
    finally:
        anyone.close()
        board.close()


@pytest.mark.parametrize("payload", [b'{"match": 1e999, "from": 0}', b'{"match": 1, "from": 1e999}',
                                     b'{"match": NaN, "from": 0}', b'[1, 2]', b'\xff\xfe', b'{"match": "1"}',
                                     b'{"match": 1, "from": 0, "seq": 1, "mac": "' + b'0' * 64 + b'"}'])
def test_no_message_ends_a_boards_link_even_retained(open_broker: LocalBroker, tmp_path: Path,
                                                     payload: bytes) -> None:
    """Used to fail: {"match": 1e999, "from": 0} raised OverflowError in paho's thread and ended the board's link;
    retained, it ended it again at every start until someone cleared it by hand."""
    key = bytes.fromhex(Pairing(tmp_path / "d").pair("mesa01", CLUB)["key"])
    anyone = Sender(open_broker)
    try:
        board = Board(open_broker, "mesa01", tmp_path / "mesa01", url=open_broker.url, key=key)
        try:
            assert wait_for(board.publisher.connected.is_set, 10) and _alive(board, NEW)
            anyone.send(payload)
            anyone.send(payload, retain=True)
            assert wait_for(lambda: board.publisher.stats["refused_commands"] >= 2, 10)
            assert _alive(board, ROLL), "the board's link ended"
        finally:
            board.close()
        board = Board(open_broker, "mesa01", tmp_path / "mesa01", url=open_broker.url, key=key)  # a restart
        try:
            assert wait_for(board.publisher.connected.is_set, 10)
            assert wait_for(lambda: board.publisher.stats["refused_commands"] >= 1, 10)  # the retained one
            assert _alive(board, {"event": "roll", "dice": [3, 1]}), "the board's link ended at its start"
        finally:
            board.close()
    finally:
        anyone.send(b"", retain=True)  # clears the retained message
        anyone.close()


def test_the_director_signs_what_it_asks_and_the_board_obeys(open_broker: LocalBroker, tmp_path: Path) -> None:
    """The director's resend carries a counter that only goes up across its restarts (a board takes a lower one for
    a replay): the board played while no director listened; a director fetches the match, and another on the same
    archive, which lost the match's end, fetches that again."""
    pairing = Pairing(tmp_path / "d")
    key = bytes.fromhex(pairing.pair("mesa01", CLUB)["key"])
    board = Board(open_broker, "mesa01", tmp_path / "mesa01", match="2pt", url=open_broker.url, key=key).play()
    try:
        assert wait_for(board.done, 60) and board.publisher.wait_idle(20)
        for run in range(2):
            if run:
                db = sqlite3.connect(tmp_path / "d" / "club.sqlite")
                with db:
                    assert db.execute("DELETE FROM events WHERE idx >= 100").rowcount == 33
                db.close()
            director = Director(Broker.parse(open_broker.url), tmp_path / "d", club=CLUB, pairing=pairing).start()
            try:
                assert wait_for(lambda: caught_up(director, [board]), 30)  # noqa: B023
                assert check_director(director, [board]) == 133
            finally:
                director.close()
        assert board.publisher.stats["resend_requests"] >= 2 and board.publisher.stats["refused_commands"] == 0
    finally:
        board.close()


def test_one_gate_takes_the_resend_and_the_start_on_their_own_topics(tmp_path: Path) -> None:
    """club/commands.py's one gate: a resend and a start share the board's command counter (a replay of either is
    refused), each is checked by its own fields, and neither is taken on the other's topic."""
    key = bytes(range(32))
    gate = CommandGate(CLUB, "mesa01", key, Outbox(tmp_path / "club_outbox.sqlite").obeyed)
    resend_topic, start_topic = command_topic(CLUB, "mesa01", RESEND), command_topic(CLUB, "mesa01")
    start = {"command": "start_match", "tournament": "T", "match": "M1-1", "table": "1",
             "players": {"light": "Ana", "dark": "Bruno"}, "length": 5, "rule_set": None}
    resend = {"match": 7, "from": 12}
    assert gate.take(resend_topic, signed_command(CLUB, "mesa01", key, resend, 10, kind=RESEND)) == \
        {"command": "resend", "match": 7, "from": 12, "seq": 10}
    refused = {
        "replayed": (start_topic, signed_command(CLUB, "mesa01", key, start, 10)),        # the resend's counter
        "malformed": (resend_topic, signed_command(CLUB, "mesa01", key, {"match": 7, "from": -1}, 11, kind=RESEND)),
        "forged": (resend_topic, signed_command(CLUB, "mesa01", key, start, 12)),          # signed for the other topic
        "retained": (resend_topic, signed_command(CLUB, "mesa01", key, resend, 13, kind=RESEND)),
    }
    for reason, (where, payload) in refused.items():
        with pytest.raises(AuthError, match=reason):
            gate.take(where, payload, retained=reason == "retained")
    assert gate.take(start_topic, signed_command(CLUB, "mesa01", key, start, 14))["command"] == "start_match"
    with pytest.raises(AuthError, match="unpaired"):
        CommandGate(CLUB, "mesa01", None, Outbox(tmp_path / "other.sqlite").obeyed).take(resend_topic, b"{}")
    assert gate.refused == {"replayed": 1, "malformed": 1, "forged": 1, "retained": 1}
