"""The chouette on the kiosk's service (R26-R29): real board events, the journal, a restart, the exports.

The twelve games are core's hand-computed table (tests/core/match/test_chouette.py): five players, doubles by the
box and by the team, a captain's drop taken over by a crew member (games 4 and 10), crew members dropping alone
(games 3, 5, 6), a game every cube drops (8) and one the box drops every cube (9). Played here on the board through
the service, the ledger the kiosk shows must be that table, equal core's own Chouette, and sum to zero.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from core.match.chouette import Chouette
from core.match.formats.mat import read_mat
from core.match.replay import replay
from core.rules.position import Side
from kiosk.chouette import ChouetteInputError, game_mat, ledger, ledger_text, new_match_event
from kiosk.service import RefereeService
from tests.core.match.test_chouette import GAMES, ROLLS, TABLE
from tests.kiosk.chouette_table import PLAYERS, Table

NAMES = ["Ana", "Bruno", "Carla", "Davi", "Eva"]

# The games of core's table as what happens at the board: ("box",) the box doubles; ("team", members) members
# double; ("ans", {member: take}); ("end", box wins, points) the board game ends.
STEPS: list[list[tuple[Any, ...]]] = [
    [("end", True, 1)],
    [("end", False, 2)],
    [("box",), ("ans", {"Carla": True, "Eva": False, "Bruno": True, "Ana": False}), ("end", True, 1)],
    [("box",), ("ans", {"Eva": False, "Bruno": False, "Ana": True, "Carla": True}), ("team", ["Ana", "Carla"]),
     ("ans", {"Ana": True, "Carla": False}), ("end", False, 1)],
    [("box",), ("ans", {"Bruno": True, "Carla": True, "Eva": False, "Davi": True}), ("end", True, 2)],
    [("team", ["Carla", "Eva"]), ("ans", {"Carla": True, "Eva": False}), ("box",),
     ("ans", {"Carla": True, "Davi": False, "Bruno": True}), ("end", False, 1)],
    [("end", True, 3)],
    [("box",), ("ans", {"Davi": False, "Bruno": False, "Ana": False, "Eva": False})],
    [("team", None), ("ans", {"Bruno": False, "Ana": False, "Eva": False, "Davi": False})],
    [("box",), ("ans", {"Ana": False, "Eva": False, "Davi": True, "Carla": True}), ("team", ["Davi"]),
     ("ans", {"Davi": True}), ("end", True, 1)],
    [("end", False, 1)],
    [("box",), ("ans", {"Carla": True, "Ana": False, "Davi": True, "Bruno": True}), ("team", ["Carla", "Davi"]),
     ("ans", {"Carla": True, "Davi": True}), ("end", False, 2)],
]
BOX_SIDE = Side.DARK  # the box plays dark: the team (light) opens every game with 31


def chouette_of(service: RefereeService) -> dict[str, Any]:
    state = service.state()
    assert state["chouette"] is not None
    return state["chouette"]


def play_game(service: RefereeService, table: Table, steps: list[tuple[Any, ...]]) -> None:
    for step in steps:
        if step[0] == "box":
            table.to_double(BOX_SIDE)
            service.submit({"event": "chouette", "action": "box_double"})
        elif step[0] == "team":
            table.to_double(BOX_SIDE.other)
            event: dict[str, Any] = {"event": "chouette", "action": "team_double"}
            if step[1] is not None:
                event["members"] = step[1]
            service.submit(event)
        elif step[0] == "ans":
            for member, take in step[1].items():
                service.submit({"event": "chouette", "action": "answer", "member": member, "take": take})
        else:
            _, box_wins, points = step
            table.end(BOX_SIDE if box_wins else BOX_SIDE.other, points)


def start(service: RefereeService) -> Table:
    service.submit(new_match_event({"players": PLAYERS, "box_side": BOX_SIDE.value, "consult": False}))
    return Table(service.submit, lambda: service.referee)


def test_r26_r29_five_players_twelve_games_on_the_board_match_core_and_the_hand_table(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    service = RefereeService(path)
    table = start(service)
    core = Chouette.from_rolls(ROLLS)
    for number, (steps, core_game, (roles, after)) in enumerate(zip(STEPS, GAMES, TABLE, strict=True), start=1):
        shown = chouette_of(service)
        assert (shown["box"], shown["captain"], shown["crew"]) == roles, f"roles at the start of game {number}"
        assert shown["game"] == number
        # The board's players are the box (dark) and the captain (light).
        assert service.state()["match"]["players"] == {"dark": roles[0], "light": roles[1]}
        play_game(service, table, steps)
        core_game(core)
        shown = chouette_of(service)
        points = {row["name"]: row["points"] for row in shown["ledger"]}
        assert tuple(points[n] for n in NAMES) == after, f"ledger after game {number}"
        assert points == core.ledger and sum(points.values()) == 0
        if number in (4, 8, 12):  # a power cut: the service comes back from the journal alone
            service.close()
            service = RefereeService(path)
            table = Table(service.submit, lambda s=service: s.referee)
            again = chouette_of(service)
            assert again == {**shown, "log": again["log"]}
            assert again["log"] == shown["log"]
    shown = chouette_of(service)
    assert (shown["box"], shown["captain"], shown["crew"]) == ("Carla", "Ana", ["Davi", "Bruno", "Eva"])
    assert shown["consult"] is False
    # Game 4: Eva (captain) dropped, Ana (the first crew member in order who took) played on as captain.
    assert shown["games"][3]["captains"] == ["Eva", "Ana"]
    # Games 8 and 9 ended on drops: their board games were left unfinished, with no points on the board.
    abandoned = [g for g in service.referee.games if g.get("abandoned")]
    assert len(abandoned) == 2

    # The exports: the ledger (JSON and text) and each game's board play as .mat, read back.
    tab = service.table("current")
    data = ledger(tab)
    assert data["format"] == "gamao-chouette-ledger" and data["total"] == 0 and data["ledger"] == core.ledger
    assert [tuple(g["ledger"][n] for n in NAMES) for g in data["games"]] == [t[1] for t in TABLE]
    assert json.loads(json.dumps(data)) == data
    text = ledger_text(tab)
    assert text.splitlines()[-1].split()[1:] == [str(core.ledger[n]) for n in data["players"]]
    for number in range(1, 13):
        record = read_mat(game_mat(tab, number))
        report = replay(record)
        assert not [p for p in report.problems if p.kind not in ("missing_result",)], (number, report.problems)
        g = data["games"][number - 1]
        assert record.players[BOX_SIDE] == g["box"] and record.players[BOX_SIDE.other] == g["captains"][-1]
    # Game 10: the box doubled, Ana (captain) dropped, Davi took and played on at 2, then redoubled to 4: box won.
    mat10 = game_mat(tab, 10)
    assert "Doubles => 2" in mat10 and "Doubles => 4" in mat10 and "Wins 4 points" in mat10
    # Game 8: every cube dropped: the .mat ends with the captain's drop, the box winning the cube's value.
    assert "Drops" in game_mat(tab, 8) and "Wins 1 point" in game_mat(tab, 8)
    with pytest.raises(KeyError):
        game_mat(tab, 14)
    # The archive folder holds the ledger and every finished game's .mat, rewritten after each game.
    archive = tmp_path / "archive"
    assert len(list(archive.glob("chouette-*-game-*.mat"))) == 12
    (saved,) = archive.glob("chouette-*-ledger.json")
    assert json.loads(saved.read_text(encoding="utf-8")) == data
    assert next(archive.glob("chouette-*-game-10.mat")).read_text(encoding="utf-8") == mat10
    service.close()


def test_r29_what_a_chouette_refuses_is_not_journaled(tmp_path: Path) -> None:
    service = RefereeService(tmp_path / "j.sqlite")
    table = start(service)
    count = service.journal.count()
    refusals = [
        ({"event": "chouette", "action": "box_double"}, "may double only before its own roll"),
        ({"event": "chouette", "action": "answer", "member": "Eva", "take": True}, "no double of Eva's cube"),
        ({"event": "chouette", "action": "answer", "member": "Zoe", "take": True}, "member: a player of this chouette"),
        ({"event": "chouette", "action": "answer", "member": "Eva", "take": "yes"}, "take: true"),
        ({"event": "chouette", "action": "redouble"}, "action: one of box_double"),
        ({"event": "chouette", "action": "team_double", "members": ["Ana"]}, "Ana may not double"),
        ({"event": "cube", "action": "double", "side": "light"}, "each member has their own cube"),
    ]
    for event, message in refusals:
        with pytest.raises(ValueError, match=message):
            service.submit(event)
    assert service.journal.count() == count
    table.to_double(BOX_SIDE)
    service.submit({"event": "chouette", "action": "box_double"})
    count = service.journal.count()
    with pytest.raises(ValueError, match="waiting for answers from Bruno, Davi, Carla, Eva: answer it first"):
        service.submit({"event": "roll", "dice": [6, 5]})
    with pytest.raises(ValueError, match="a double is waiting for answers"):
        service.submit({"event": "chouette", "action": "box_double"})
    assert service.journal.count() == count


def test_r29_physical_buttons_answer_in_order_and_double_for_whoever_is_to_roll(tmp_path: Path) -> None:
    service = RefereeService(tmp_path / "j.sqlite")
    table = start(service)
    table.to_double(BOX_SIDE)
    service.submit({"event": "button", "name": "double"})  # the box is to roll: the box doubles
    assert chouette_of(service)["pending"]["waiting"] == ["Bruno", "Davi", "Carla", "Eva"]
    for name in ("drop", "take", "take", "drop"):  # Bruno (captain) drops, Davi takes and becomes captain
        service.submit({"event": "button", "name": name})
    shown = chouette_of(service)
    assert (shown["captain"], shown["crew"]) == ("Davi", ["Carla", "Eva", "Bruno"])
    assert {c["member"]: (c["value"], c["live"]) for c in shown["cubes"]} == {
        "Davi": (2, True), "Carla": (2, True), "Eva": (1, False), "Bruno": (1, False)}
    assert [e["action"] for e in service.journal.events(service.journal.current_match())
            if e["event"] == "chouette"] == ["box_double", "answer", "answer", "answer", "answer"]
    with pytest.raises(ValueError, match="no double is waiting"):
        service.submit({"event": "button", "name": "take"})


def test_r26_setup_errors_name_the_field() -> None:
    bad = [
        ({"players": PLAYERS[:2]}, "players"),
        ({"players": [*PLAYERS[:2], {"name": "Ana", "rolls": [3]}]}, "players[2].name"),
        ({"players": [*PLAYERS[:2], {"name": "Caio", "rolls": [7]}]}, "players[2].rolls"),
        ({"players": [*PLAYERS[:2], {"name": "Caio", "rolls": [5]}]}, "players"),  # ties Bruno: roll again
        ({"players": PLAYERS, "box_side": "red"}, "box_side"),
        ({"players": PLAYERS, "cube_cap": 48}, "cube_cap"),
        ({"players": PLAYERS, "consult": "no"}, "consult"),
    ]
    for setup, field in bad:
        with pytest.raises(ChouetteInputError) as err:
            new_match_event(setup)
        assert err.value.field == field
    with pytest.raises(ChouetteInputError, match="Bruno, Caio tie on roll 1: each rolls again"):
        new_match_event({"players": [*PLAYERS[:2], {"name": "Caio", "rolls": [5]}]})


def test_r27_consult_setting_is_journaled(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    service = RefereeService(path)
    start(service)
    assert chouette_of(service)["consult"] is False
    service.submit({"event": "chouette", "action": "consult", "value": True})
    service.close()
    assert chouette_of(RefereeService(path))["consult"] is True


def test_a_new_match_ends_the_chouette(tmp_path: Path) -> None:
    service = RefereeService(tmp_path / "j.sqlite")
    start(service)
    chouette_match = service.state()["match"]["id"]
    service.submit({"event": "new_match", "length": 3})
    assert service.state().get("chouette") is None
    with pytest.raises(ValueError, match="no chouette is being played"):
        service.submit({"event": "chouette", "action": "box_double"})
    assert service.table(chouette_match).session is not None  # still exportable
