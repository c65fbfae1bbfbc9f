"""`gamao setup-moves FROM TO --json`: the contract (docs/CONTRACTS.md, issue 38)."""

from __future__ import annotations

import json

from core import Position, Side
from tests.cli_run import gamao

START = "4HPwATDgc/ABMA"


def test_setup_moves_json_from_the_start_to_a_played_opening() -> None:
    # R02: the start; 31 played as 8/5 6/5
    target = Position.start().play((3, 1), "8/5 6/5").position_id(Side.LIGHT)
    out = gamao("setup-moves", START, target, "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data == {"moves": [{"side": "light", "from": 8, "to": 5, "count": 1},
                              {"side": "light", "from": 6, "to": 5, "count": 1}], "checkers_moved": 2}


def test_setup_moves_dark_numbering_bar_and_off_and_text() -> None:
    # dark on roll: the IDs are encoded for dark; dark's own numbering
    dark_hit = Position.from_physical([0] * 5 + [2] + [0] * 18, [0] * 23 + [1], bar={"dark": 1}, turn=Side.DARK)
    start = Position.start(Side.DARK)
    out = gamao("setup-moves", start.position_id(Side.DARK), dark_hit.position_id(Side.DARK), "--turn", "dark", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["checkers_moved"] == 28  # light: 13 off (2 stay on 6); dark: 1 to the bar, 1 to its ace point, 13 off
    dark = [m for m in data["moves"] if m["side"] == "dark"]
    assert {"side": "dark", "from": 24, "to": "bar", "count": 1} in dark
    assert all(m["to"] == "off" for m in data["moves"] if m["side"] == "light" and m["from"] != 6)
    text = gamao("setup-moves", START, START)
    assert text.returncode == 0 and "already" in text.stdout


def test_setup_moves_bad_ids_exit_2_with_one_line() -> None:
    for args in (("nonsense", START), (START, "4HPwATDgc/AB!A"), (START, "//////////////")):
        out = gamao("setup-moves", *args, "--json")
        assert out.returncode == 2
        assert out.stdout == ""
        assert len(out.stderr.strip().splitlines()) == 1 and out.stderr.startswith("gamao setup-moves: ")
