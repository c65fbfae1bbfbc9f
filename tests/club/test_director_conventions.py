"""The director sees no hint meant for the players (issue 36): a verdict whose ``to`` names only players (R22's hint
while the turn is open, touch_move_seen) is never the board's last verdict on the director's page."""

from __future__ import annotations

from club.intake import Intake, for_director


def test_r22_the_director_sees_no_hint_meant_for_the_players() -> None:
    hint = {"verdict": "bar_first_hint", "to": ["light"]}
    fault = {"verdict": "illegal", "to": ["light", "dark", "director"]}
    roll = {"verdict": "roll"}
    assert Intake._last([roll, hint], None) == roll
    assert Intake._last([hint], fault) == fault
    assert Intake._last([hint, fault], None) == fault
    assert [for_director(v) for v in (hint, fault, roll)] == [False, True, True]
