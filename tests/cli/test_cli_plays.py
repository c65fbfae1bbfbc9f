"""`gamao plays`: the command-line contract, run as a real process."""

from __future__ import annotations

import json

import pytest

from tests.cli_run import gamao
from tests.oracles.gnubg_turns import gnubg_nn_or_none, random_turns


def test_plays_json_opening_31() -> None:
    out = gamao("plays", "4HPwATDgc/ABMA", "31", "--json")
    assert out.returncode == 0
    data = json.loads(out.stdout)
    assert data["position_id"] == "4HPwATDgc/ABMA" and data["dice"] == [3, 1]
    assert len(data["plays"]) == 16
    assert {"play": "8/5 6/5", "result": "4HPwATCwZ/ABMA"} in data["plays"]


def test_plays_no_legal_play() -> None:
    out = gamao("plays", "8P8NAADg/wMAYA", "66", "--json")
    assert json.loads(out.stdout) == {"position_id": "8P8NAADg/wMAYA", "dice": [6, 6], "plays": []}


@pytest.mark.parametrize(
    "args, message",
    [
        (("plays", "xx", "31"), "gamao plays: invalid Position ID 'xx': expected 14 characters, like 4HPwATDgc/ABMA\n"),
        (("plays", "4HPwATDgc/ABMA", "71"), "gamao plays: invalid roll 71: each die shows 1 to 6\n"),
        (("plays", "4HPwATDgc/ABMA", "3"), "gamao plays: invalid roll '3': write two dice 1-6, e.g. 31 or 66\n"),
    ],
)
def test_bad_input_one_line_exit_2(args: tuple[str, ...], message: str) -> None:
    out = gamao(*args)
    assert out.returncode == 2
    assert out.stderr == message


def test_batch_reports_bad_line_and_continues() -> None:
    out = gamao("plays", "--count", stdin="4HPwATDgc/ABMA 31\nbad 77\n8P8BADD+fwACAA 65\n")
    assert out.returncode == 2
    lines = out.stdout.splitlines()
    assert lines[0] == "16" and lines[2] == "1"
    assert json.loads(lines[1])["line"] == 2
    assert "line 2: invalid Position ID 'bad'" in out.stderr


@pytest.mark.skipif(gnubg_nn_or_none() is None, reason="gnubg-nn not installed: oracle check skipped")
def test_batch_json_agrees_with_gnubg() -> None:
    nn = gnubg_nn_or_none()
    turns = random_turns(500, seed=11)
    stdin = "".join(f"{nn.position_id(b)} {d1}{d2}\n" for b, d1, d2 in turns)
    out = gamao("plays", stdin=stdin)
    assert out.returncode == 0, out.stderr
    for (board, d1, d2), line in zip(turns, out.stdout.splitlines(), strict=True):
        got = {p["result"] for p in json.loads(line)["plays"]}
        want = {nn.position_id([list(b) for b in nn.board_from_position_key(k)]) for k in nn.moves(board, d1, d2)}
        assert got == want
