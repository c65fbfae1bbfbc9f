"""`gamao plays --variant NAME --position JSON DICE --json`: the variants' command-line contract (R30-R32), run
as a real process. Positions are in physical numbering, as board events lay them out (docs/CONTRACTS.md)."""

from __future__ import annotations

import json

import pytest

from tests.cli_run import gamao


def board(counts: dict[int, int]) -> list[int]:
    out = [0] * 24
    for p, n in counts.items():
        out[p - 1] = n
    return out


def plays(variant: str, position: dict, dice: str) -> dict:
    out = gamao("plays", "--variant", variant, "--position", json.dumps(position), dice, "--json")
    assert out.returncode == 0, out.stderr
    assert out.stderr == ""
    return json.loads(out.stdout)


PLAKOTO_START = {"turn": "light", "light": board({24: 15}), "dark": board({1: 15}), "bar": {"light": 0, "dark": 0},
                 "off": {"light": 0, "dark": 0}, "pinned": []}


def test_r30_plakoto_start() -> None:
    data = plays("plakoto", PLAKOTO_START, "65")
    assert data["variant"] == "plakoto" and data["dice"] == [6, 5]
    assert sorted(p["play"] for p in data["plays"]) == ["24/18/13", "24/19 24/18"]
    result = next(p["result"] for p in data["plays"] if p["play"] == "24/18/13")
    assert result == {"turn": "dark", "light": board({24: 14, 13: 1}), "dark": board({1: 15}),
                      "bar": {"light": 0, "dark": 0}, "off": {"light": 0, "dark": 0}, "pinned": []}


def test_r30_plakoto_pin_in_the_result() -> None:
    pos = {"turn": "light", "light": board({13: 1, 6: 14}), "dark": board({10: 1, 1: 14})}
    data = plays("plakoto", pos, "32")
    pinning = [p for p in data["plays"] if p["result"]["pinned"]]
    assert pinning and all(p["result"]["pinned"] == [{"point": 10, "side": "dark"}] for p in pinning)
    assert all(p["result"]["light"][9] == 1 and p["result"]["dark"][9] == 1 for p in pinning)
    assert any("13/10*" in p["play"] for p in pinning)


def test_r31_russian_chain_lists_each_play_of_the_chain() -> None:
    pos = {"turn": "light", "light": board({20: 1}), "dark": board({4: 2}), "waiting": {"light": 0, "dark": 13},
           "first_roll": {"light": False, "dark": False}}
    data = plays("russian", pos, "11")
    assert data["variant"] == "russian" and data["dice"] == [1, 1]
    assert [p["play"] for p in data["plays"]] == ["20/19/18/17/16/10"]  # stops halfway through the 6-6
    assert data["plays"][0]["result"]["turn"] == "dark"
    assert data["plays"][0]["result"]["waiting"] == {"light": 0, "dark": 13}


def test_r31_russian_complete_chain_rolls_again() -> None:
    pos = {"turn": "light", "light": board({24: 2}), "dark": board({}), "waiting": {"light": 0, "dark": 15}}
    data = plays("russian", pos, "11")
    assert data["plays"] and all(p["result"]["turn"] == "light" for p in data["plays"])


def test_r31_russian_first_roll_double_is_rolled_again() -> None:
    pos = {"turn": "light", "light": board({}), "dark": board({}), "waiting": {"light": 15, "dark": 15}}
    assert plays("russian", pos, "33") == {"variant": "russian", "dice": [3, 3], "plays": [], "reroll": True}
    data = plays("russian", pos, "31")
    assert [p["play"] for p in data["plays"]] == ["in/24 in/22"]
    assert data["plays"][0]["result"]["first_roll"] == {"light": False, "dark": True}


def test_r32_jacquet_start_messenger() -> None:
    pos = {"turn": "dark", "light": board({13: 15}), "dark": board({1: 15}), "messenger": {"light": False, "dark": False}}
    data = plays("jacquet", pos, "65")
    assert [p["play"] for p in data["plays"]] == ["24/18/13"]
    assert data["plays"][0]["result"]["dark"] == board({1: 14, 12: 1})
    assert data["plays"][0]["result"]["messenger"] == {"light": False, "dark": False}


def test_backgammon_physical_position() -> None:
    pos = {"turn": "light", "light": board({24: 2, 13: 5, 8: 3, 6: 5}), "dark": board({1: 2, 12: 5, 17: 3, 19: 5})}
    data = plays("backgammon", pos, "31")
    assert data["variant"] == "backgammon" and len(data["plays"]) == 16
    made = next(p for p in data["plays"] if p["play"] == "8/5 6/5")
    assert made["result"]["light"] == board({24: 2, 13: 5, 8: 2, 6: 4, 5: 2}) and made["result"]["turn"] == "dark"


@pytest.mark.parametrize(("variant", "position", "field"), [
    ("plakoto", {"turn": "light", "light": board({24: 16}), "dark": board({1: 15})}, "light: 16 checkers"),
    ("plakoto", {"turn": "light", "light": board({24: 15}), "dark": board({1: 15}), "pinned": [{"point": 5, "side": "dark"}]},
     "pinned[0]"),
    ("plakoto", {"turn": "light", "light": board({24: 14}), "dark": board({1: 15}), "bar": {"light": 1, "dark": 0}}, "bar.light"),
    ("russian", {"turn": "light", "light": board({10: 1}), "dark": board({10: 1})}, "point 10"),
    ("russian", {"turn": "light", "light": board({}), "dark": board({}), "waiting": {"light": 16, "dark": 15}}, "waiting.light"),
    ("jacquet", {"turn": "light", "light": board({13: 14, 20: 1}), "dark": board({1: 15}), "messenger": {"light": True, "dark": False}},
     "messenger.light"),
    ("jacquet", {"turn": "white", "light": board({13: 15}), "dark": board({1: 15})}, "turn"),
    ("backgammon", {"turn": "light", "light": board({24: 15}), "dark": board({24: 15})}, "point 24"),
])
def test_bad_position_one_line_naming_the_field(variant: str, position: dict, field: str) -> None:
    out = gamao("plays", "--variant", variant, "--position", json.dumps(position), "31", "--json")
    assert out.returncode == 2
    assert out.stdout == ""
    assert out.stderr.count("\n") == 1 and out.stderr.startswith("gamao plays: ")
    assert field in out.stderr


def test_bad_variant_and_bad_json() -> None:
    out = gamao("plays", "--variant", "nard", "--position", "{}", "31", "--json")
    assert out.returncode == 2 and "--variant" in out.stderr and out.stderr.count("\n") == 1
    out = gamao("plays", "--variant", "plakoto", "--position", "{not json", "31", "--json")
    assert out.returncode == 2 and "position: not JSON" in out.stderr and out.stderr.count("\n") == 1
