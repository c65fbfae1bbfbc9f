"""A tournament night through a real Mosquitto, in process (issue 39): the director's desk sends each ready match
to a free paired board with a signed command, the board says the call and plays the match (a recorded one of that
length), the result comes back from the board's own record and moves the bracket on; nobody types. The director
is closed and started again on its folder mid-tournament: nothing is lost. Commands the board cannot verify are
refused. (The same with `gamao director` and `gamao demo --board` processes: tests/club/test_tournament_processes.py.)
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest

from club.auth import AuthError
from club.commands import MAX_AGE, CommandGate, signed_command, topic
from club.outbox import Outbox
from club.tournament import Journal
from club.tournament_boards import Desk, table_of
from kiosk.demo import DemoRunner
from kiosk.tournament_board import TournamentBoard, call_text, demo_steps, records_by_length
from tests.club.conftest import CLUB, Board, names, wait_for

PLAYERS = ["Ana", "Bruno", "Carla", "Duda"]


class Voice:
    """Records what the board would say (the real voice, espeak-ng, speaks in the processes' test)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def say(self, key: str, **params: Any) -> bool:
        self.calls.append((key, params))
        return True


class TableBoard:
    """A simulated board (journal, referee service, club publisher) that plays what the director sends."""

    def __init__(self, broker: Any, name: str, folder: Path) -> None:
        self.board = Board(broker, name, folder)
        self.name = name
        self.voice = Voice()
        self.runner = DemoRunner(self.board.service, speed=1e6, vision=False, dice=False, say=lambda text: None)
        self.records = records_by_length(None)
        self.table = TournamentBoard(self.board.service, self.board.publisher, folder, voice=self.voice,
                                     play=self.play).start()

    def play(self, cmd: dict[str, Any]) -> None:
        self.runner.steps = demo_steps(cmd, self.records, self.board.service)
        self.runner.done.clear()
        self.runner.start()

    @property
    def journal(self) -> Any:
        return self.board.journal

    def close(self) -> None:
        self.table.close()
        self.runner.close()
        self.board.close()


def started_matches(journal: Any) -> list[dict[str, Any]]:
    out = []
    for m in journal.matches():
        first = next(iter(journal.events(m["id"])), None)
        if first and first.get("event") == "new_match" and first.get("players", {}).get("light") in PLAYERS:
            out.append(first)
    return out


def test_table_of() -> None:
    assert table_of("mesa03", None) == "3" and table_of("b", "Mesa 12") == "12" and table_of("janela", None) == "janela"


def test_the_call_in_both_languages() -> None:
    cmd = {"table": "3", "players": {"light": "Ana", "dark": "Bruno"}, "length": 5}
    assert call_text(cmd) == ("Mesa 3: Ana x Bruno, partida de 5 pontos", "Table 3: Ana v Bruno, a 5-point match")
    assert call_text({**cmd, "length": 1})[0].endswith("partida de 1 ponto")


def test_the_board_refuses_what_it_cannot_verify(tmp_path: Path) -> None:
    key, other = bytes(range(32)), bytes(32)
    gate = CommandGate(CLUB, "mesa01", key, Outbox(tmp_path / "club_outbox.sqlite").obeyed)
    where = topic(CLUB, "mesa01")
    body = {"command": "start_match", "tournament": "T", "match": "M1-1", "table": "1",
            "players": {"light": "Ana", "dark": "Bruno"}, "length": 5, "rule_set": None}
    good = signed_command(CLUB, "mesa01", key, body, 10)
    assert gate.take(where, good)["players"] == {"light": "Ana", "dark": "Bruno"}
    cases = {
        "replayed": (where, good),
        "forged": (where, signed_command(CLUB, "mesa01", other, body, 11)),
        "unsigned": (where, json.dumps({**body, "seq": 12}).encode()),
        "stale": (where, signed_command(CLUB, "mesa01", key, body, 13, now=time.time() - MAX_AGE - 5)),
        "unknown": (where, signed_command(CLUB, "mesa01", key, {**body, "command": "erase_journal"}, 14)),
        "malformed": (where, signed_command(CLUB, "mesa01", key, {**body, "length": 10**9}, 15)),
        "too_large": (where, signed_command(CLUB, "mesa01", key, {**body, "table": "x" * 5000}, 16)),
    }
    for reason, (t, payload) in cases.items():
        with pytest.raises(AuthError) as exc:
            gate.take(t, payload)
        assert exc.value.reason == reason
    # another board's topic: the MAC is over the topic, so the same bytes are forged there
    with pytest.raises(AuthError):
        CommandGate(CLUB, "mesa02", key, Outbox(tmp_path / "b2.sqlite").obeyed).take(topic(CLUB, "mesa02"), good)
    for bad_name in ("Eve : 9", "a\x00b", ""):
        with pytest.raises(AuthError):
            gate.take(where, signed_command(CLUB, "mesa01", key, {**body, "players": {"light": bad_name,
                                                                                     "dark": "B"}}, 20))
    # the counter survives a restart: the good command replayed to a board started again is refused
    with pytest.raises(AuthError, match="replayed"):
        CommandGate(CLUB, "mesa01", key, Outbox(tmp_path / "club_outbox.sqlite").obeyed).take(where, good)
    # one counter for the director's commands: a start below a resend the board obeyed is a replay
    outbox = Outbox(tmp_path / "other.sqlite")
    assert outbox.obeyed(100)  # a resend, counter 100
    with pytest.raises(AuthError, match="replayed"):
        CommandGate(CLUB, "mesa01", key, outbox.obeyed).take(where, signed_command(CLUB, "mesa01", key, body, 99))


def test_an_evening_in_process_with_the_director_restarted(broker: Any, make_director: Any, tmp_path: Path) -> None:
    folder = tmp_path / "director"
    director = make_director()
    journal = Journal(folder)
    desk = Desk(director, journal).start()
    boards = [TableBoard(broker, name, tmp_path / name) for name in names(3)]
    try:
        assert wait_for(lambda: len(desk.free_boards()) == 3, 20), "the boards did not show up at the director"
        journal.create("Noite", "double_elimination", PLAYERS, length=3, seed=2)
        # some results in, then the director goes away (a restart), with matches on the boards
        assert wait_for(lambda: len([m for m in journal.load("Noite").view()["matches"]
                                     if m["winner"]]) >= 2, 120)
        desk.close()
        director.close()
        journal.close()
        before = Journal(folder).log("Noite")
        time.sleep(0.5)  # the boards play on meanwhile
        director = make_director(folder)
        journal = Journal(folder)
        desk = Desk(director, journal).start()
        assert Journal(folder).log("Noite")[:len(before)] == before  # nothing lost
        assert wait_for(lambda: journal.load("Noite").view()["champion"] is not None, 180), \
            json.dumps(journal.load("Noite").view()["matches"], indent=1)
        view = journal.load("Noite").view()
        log = journal.log("Noite")
        started = {b.name: started_matches(b.journal) for b in boards}
    finally:
        desk.close()
        for b in boards:
            b.close()
    # every match was played on a board and its result came from the board's record: one result each, no typing
    assert all(m["source"] == "board" and m["board"] in names(3) for m in view["matches"])
    results = [op for op in log if op["op"] == "result"]
    assert sorted(op["match"] for op in results) == sorted(m["id"] for m in view["matches"])
    assert len(view["matches"]) in (6, 7)  # 3 main, 2 consolation, 1-2 finals (4 players, DE)
    # each board started exactly the matches assigned to it, with those names and lengths, and said the call
    for b in boards:
        mine = [m for m in view["matches"] if m["board"] == b.name]
        assert len(started[b.name]) == len(mine) == b.table.stats["started"]
        for m in mine:
            assert any(s["players"] == {"light": m["light"], "dark": m["dark"]} and s["length"] == m["length"]
                       for s in started[b.name])
        table = table_of(b.name, None)
        assert [p["light"] for k, p in b.voice.calls] == [s["players"]["light"] for s in started[b.name]]
        assert all(k == "tournament_call" and p["table"] == table for k, p in b.voice.calls)
    # the board's own record: the winner in the tournament is the winner on the board
    for m in view["matches"]:
        r = director.archive.result(CLUB, m["board"], next(op for op in results if op["match"] == m["id"])
                                    ["board_match"])
        assert r is not None and r["players"][r["winner"]] == m["winner"]


def test_a_forged_command_over_the_broker_starts_nothing(broker: Any, tmp_path: Path) -> None:
    b = TableBoard(broker, "mesa01", tmp_path / "mesa01")
    try:
        assert wait_for(b.board.publisher.connected.is_set, 10)
        time.sleep(0.3)
        forger = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="forger")
        forger.username_pw_set("director", broker.users["director"])  # even the director's broker user
        forger.connect("127.0.0.1", broker.port)
        forger.loop_start()
        other = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="mesa02-probe")
        other.username_pw_set("mesa02", broker.users["mesa02"])  # another board: the ACL does not let it write there
        other.connect("127.0.0.1", broker.port)
        other.loop_start()
        body = {"command": "start_match", "tournament": "T", "match": "M1-1", "table": "1",
                "players": {"light": "Ana", "dark": "Bruno"}, "length": 3, "rule_set": None}
        other.publish(topic(CLUB, "mesa01"), signed_command(CLUB, "mesa01", bytes(32), body, 1), qos=1).wait_for_publish(5)
        other.loop_stop()
        other.disconnect()
        forger.publish(topic(CLUB, "mesa01"), signed_command(CLUB, "mesa01", bytes(32), body, 1), qos=1).wait_for_publish(5)
        forger.publish(topic(CLUB, "mesa01"), json.dumps({**body, "seq": 2}).encode(), qos=1).wait_for_publish(5)
        forger.publish(topic(CLUB, "mesa01"), b"\xff" * 100, qos=1).wait_for_publish(5)
        assert wait_for(lambda: b.table.stats["refused"] == 3, 10), b.table.stats
        # the real key: obeyed (so the link was alive all along)
        forger.publish(topic(CLUB, "mesa01"), signed_command(CLUB, "mesa01", broker.keys["mesa01"], body, 3),
                       qos=1).wait_for_publish(5)
        assert wait_for(lambda: b.table.stats["started"] == 1, 10)
        forger.loop_stop()
        forger.disconnect()
        assert b.table.gate.refused == {"forged": 1, "unsigned": 2}
    finally:
        b.close()


def test_a_retained_command_is_refused(broker: Any, tmp_path: Path) -> None:
    """Rightly signed but retained (the director never retains one): the copy the broker hands a board at every
    subscription is refused before it is read, as a retained resend is."""
    director = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="director-probe")
    director.username_pw_set("director", broker.users["director"])
    director.connect("127.0.0.1", broker.port)
    director.loop_start()
    body = {"command": "start_match", "tournament": "T", "match": "M1-1", "table": "1",
            "players": {"light": "Ana", "dark": "Bruno"}, "length": 3, "rule_set": None}
    director.publish(topic(CLUB, "mesa01"), signed_command(CLUB, "mesa01", broker.keys["mesa01"], body, 5),
                     qos=1, retain=True).wait_for_publish(5)
    director.loop_stop()
    director.disconnect()
    b = TableBoard(broker, "mesa01", tmp_path / "mesa01")
    try:
        assert wait_for(lambda: b.board.publisher.stats["refused_commands"] >= 1, 10), b.board.publisher.stats
        time.sleep(0.3)
        assert b.table.stats["started"] == 0 and not b.journal.matches()
    finally:
        b.close()
