"""Objects on the field (issue 33): a point a dice cup stands on is unseen, never counted, never a call; a roll
that comes while it still stands there waits, and the screen says what to take off which point."""

from __future__ import annotations

from typing import Any

import pytest

from core.messages import message
from core.referee import Referee
from core.referee.events import EventError, parse_event
from core.referee.inference import Observation, observation_cost, vec_of_position
from core.rules.position import Position, Side
from tests.core.referee.referee_streams import camera_tables
from tests.core.referee.scenarios import START, kinds, referee, roll

#: Dark opens with 3-1 and makes its 5-point (its own numbering): 8/5 6/5.
DARK_31 = START.with_turn(Side.DARK).play((3, 1), "8/5 6/5")
#: A dice cup on physical point 10 (light's 10, dark's 15), empty in the game.
CUP = 10


def camera(pos: Position, cup: int | None = None, under: int = 0, by: str = "cup") -> dict[str, Any]:
    """``pos`` as vision reports it (fairly sure tables, borne-off counts derived); ``cup``: a physical point an
    object stands on, where the camera reports ``under`` dark checkers (a phantom: the cup read as checkers)."""
    d = pos.to_dict()
    ev: dict[str, Any] = {"event": "board", "light": list(d["light"]), "dark": list(d["dark"]),  # type: ignore[call-overload]
                          "bar": dict(d["bar"]), "stable": True}  # type: ignore[call-overload]
    table = camera_tables(ev)
    if cup is not None:
        ev["dark"][cup - 1] = under
        ev["covered"] = [{"point": cup, "by": by}]
        for side in ("light", "dark"):
            table[side][cup - 1] = {}
    ev["uncertainty"] = table
    ev["off"] = {s: max(0, 15 - sum(ev[s]) - ev["bar"][s]) for s in ("light", "dark")}
    ev["off_seen"] = False
    return ev


def dark_played_with_a_cup(under: int = 0) -> Referee:
    ref = referee(length=5)
    assert kinds(ref.feed(roll(1, 3))) == ["opening"]
    out = ref.feed(camera(DARK_31, CUP, under))
    assert [(v["verdict"], v.get("play"), v.get("complete")) for v in out] == [("in_progress", "8/5 6/5", True)]
    return ref


@pytest.mark.parametrize("under", [0, 2, 6])
def test_r23_a_cup_on_an_empty_point_is_never_counted(under: int) -> None:
    """R23: the cup stands on an empty point; whatever the camera counts there (nothing, or the cup read as a
    stack), the play is read from the rest of the board: no checker added, no call."""
    ref = dark_played_with_a_cup(under)
    for _ in range(5):  # more boards than a count must stay wrong to be called (SUSPECT_BOARDS)
        assert kinds(ref.feed(camera(DARK_31, CUP, under))) == []
    assert ref.public_state()["position"]["dark"] == DARK_31.to_dict()["dark"]


def test_r23_a_roll_while_a_cup_covers_a_point_waits_and_says_so() -> None:
    """R23: light rolls while the cup still stands on the board: the referee does not rule on the board it cannot
    see. The screen says "Tire o copo da casa 15" (dark's own number of the point, as the screen numbers the
    board while dark plays) and nothing is committed; the same board again says nothing more. The cup taken
    away, the waiting roll goes through: dark's play committed, light's roll."""
    ref = dark_played_with_a_cup(under=2)
    out = ref.feed(roll(6, 4))
    assert [(v["verdict"], v.get("reason"), v.get("covered"), v.get("by")) for v in out] == [
        ("uncertain", "point_covered", [15], "cup")]
    assert out[0]["message"] == message("point_covered", covered=[15], by="cup")
    assert out[0]["message"]["pt"].startswith("Tire o copo da casa 15:")
    assert out[0]["message"]["en"].startswith("Take the dice cup off point 15:")
    state = ref.public_state()
    assert state["phase"] == "moving" and state["turn"] == "dark" and state["moves"] == []
    assert kinds(ref.feed(camera(DARK_31, CUP, under=2))) == []
    out = ref.feed(camera(DARK_31))
    assert [(v["verdict"], v.get("side"), v.get("play"), v.get("dice")) for v in out] == [
        ("play", "dark", "8/5 6/5", [1, 3]), ("roll", "light", None, [6, 4])]
    assert out[0]["at"] == out[1]["at"] == 3  # the roll's own index
    assert ref.public_state()["turn"] == "light"


def test_r23_another_event_lets_the_waiting_roll_through_first() -> None:
    """R23: the players go on without taking the cup away (the end-turn button): the waiting roll goes through
    first, ruled on the board as it is (the covered point unseen), and is not lost."""
    ref = dark_played_with_a_cup()
    ref.feed(roll(6, 4))
    out = ref.feed({"event": "button", "name": "end_turn"})
    assert [(v["verdict"], v.get("play")) for v in out][:2] == [("play", "8/5 6/5"), ("roll", None)]


def test_the_covered_points_cost_nothing_and_are_named_in_order() -> None:
    ev = parse_event(camera(DARK_31, CUP, under=6) | {"covered": [{"point": 12, "by": "object"},
                                                                 {"point": CUP, "by": "cup"}]})
    assert ev["covered"] == [{"point": CUP, "by": "cup"}, {"point": 12, "by": "object"}]
    obs = Observation.from_event(ev)
    assert obs.covered == ((CUP, "cup"), (12, "object"))
    assert observation_cost(obs, vec_of_position(DARK_31)) == 0.0


@pytest.mark.parametrize("covered", [
    "cup", [{"point": 0, "by": "cup"}], [{"point": 25, "by": "cup"}], [{"point": 3}], [{"point": 3, "by": ""}],
    [{"point": 3, "by": "x" * 33}], [{"point": 3, "by": 7}], [{"point": 3, "by": "cup", "n": 1}],
    [{"point": 3, "by": "cup"}, {"point": 3, "by": "die"}], [{"point": p % 24 + 1, "by": "cup"} for p in range(25)],
])
def test_a_malformed_covered_field_is_refused_with_a_clear_error(covered: Any) -> None:
    with pytest.raises(EventError, match='"covered"'):
        parse_event(camera(START) | {"covered": covered})
