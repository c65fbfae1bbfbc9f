"""Position ID and XGID: encode, decode, and agreement with GNU Backgammon."""

from __future__ import annotations

import pytest

from core import InvalidPositionError, Position, Side
from core.rules.xgid import XGID
from tests.oracles.gnubg_turns import gnubg_nn_or_none, random_turns, to_position

START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"


def test_position_id_round_trip_start() -> None:
    pos = Position.start()
    assert pos.position_id() == "4HPwATDgc/ABMA"
    assert Position.from_position_id("4HPwATDgc/ABMA") == pos
    assert Position.from_position_id("4HPwATDgc/ABMA", turn=Side.DARK) == pos.with_turn(Side.DARK)


@pytest.mark.parametrize(
    "bad, message",
    [
        ("4HPwATDgc/AB", "invalid Position ID '4HPwATDgc/AB': expected 14 characters, like 4HPwATDgc/ABMA"),
        ("4HPwATDgc/AB!!", "invalid Position ID '4HPwATDgc/AB!!': not base64 text"),
        ("//////////////", "invalid Position ID '//////////////': it does not describe two sides"),
        ("AAAAAAAAAAAAAA", "invalid Position ID 'AAAAAAAAAAAAAA': both sides have borne off every checker"),
    ],
)
def test_bad_position_id_is_named(bad: str, message: str) -> None:
    with pytest.raises(InvalidPositionError) as err:
        Position.from_position_id(bad)
    assert str(err.value).startswith(message)


@pytest.mark.skipif(gnubg_nn_or_none() is None, reason="gnubg-nn not installed: Position ID oracle check skipped")
def test_position_id_matches_gnubg_on_2000_positions() -> None:
    nn = gnubg_nn_or_none()
    for board, _, _ in random_turns(2000, seed=3):
        pos = to_position(board)
        assert pos.position_id() == nn.position_id(board)
        assert Position.from_position_id(pos.position_id()) == pos


def test_xgid_round_trip() -> None:
    x = XGID.from_text(START_XGID)
    assert x.position == Position.start()
    assert x.text() == START_XGID
    bar = XGID.from_text("XGID=aa----E-C---eE---c-e----B-:1:-1:-1:52:2:3:1:7:10")
    assert bar.position.bar[Side.DARK] == 1 and bar.position.turn is Side.DARK
    assert bar.cube == 2 and bar.cube_owner is Side.DARK and bar.dice == (5, 2)
    assert bar.score == (2, 3) and bar.match_length == 7 and bar.flags == 1
    assert XGID.from_text(bar.text()) == bar


def test_xgid_position_matches_gnubg_position_id() -> None:
    # Checked once by gnubg's own XGID parser: this XGID is Position ID 4HPwAVDgc/ABMA from light's side.
    x = XGID.from_text("XGID=aa----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10")
    assert x.position.position_id() == "4HPwAVDgc/ABMA"


def test_bad_xgid() -> None:
    with pytest.raises(InvalidPositionError, match="expected 26 checker characters"):
        XGID.from_text("XGID=abc")
