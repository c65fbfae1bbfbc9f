"""The table's conventions (R19-R22, seed 003; issue 36) in each rule set, the referee alone.

Each test names the convention it checks and the rule sets it runs in; docs/tournament.md's table "The table's
conventions" points at them, cell by cell.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from core.referee import Referee
from core.referee.conventions import from_points, hit_step, leaves
from core.referee.events import EventError, parse_event
from core.referee.inference import Observation, TurnModel, vec_of_position
from core.referee.rulesets import NAMES
from core.rules.position import Position, Side
from tests.core.referee.scenarios import START, after, bd, kinds, moved, roll

TOUCH = {"casual": True, "tournament_usbgf": False, "tournament_ukbgf": False, "lesson": False}
TOURNAMENT = ("tournament_usbgf", "tournament_ukbgf")


def ref_of(rule_set: str | None, length: int = 5) -> Referee:
    ref = Referee()
    rules: dict[str, Any] = {"rule_set": rule_set} if rule_set else {}
    ref.feed({"event": "new_match", "length": length, "players": {"light": "Ana", "dark": "Bruno"}, "rules": rules})
    return ref


def claim(by: str, point: int) -> dict[str, Any]:
    return {"event": "touch_move", "by": by, "point": point}


# ----- R19 touch-move -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_r19_claim_is_ruled_only_where_touch_move_is_in_the_rules(name: str) -> None:
    """Ana (light) rolls 3-1; Bruno claims she touched her 8-point. Casual: upheld (8/5 is playable). Tournament
    sets and the lesson: touch_move_not_in_rules, and nothing is kept against her play."""
    ref = ref_of(name)
    ref.feed(roll(3, 1))
    (v,) = ref.feed(claim("dark", 8))
    if TOUCH[name]:
        assert (v["verdict"], v["point"], v["by"], v["side"]) == ("touch_move_upheld", 8, "dark", "light")
        assert "casa 8" in v["message"]["pt"]
    else:
        assert v["verdict"] == "touch_move_not_in_rules"
        assert "to" not in v
    out = ref.feed(bd(after(START, (3, 1), "13/10 6/5")))
    out += ref.feed(roll(6, 4))
    assert "touch_move_ignored" in kinds(out) if TOUCH[name] else "touch_move_ignored" not in kinds(out)


def claimed_then_played(play: str) -> tuple[Referee, list[Any]]:
    """Casual rules: Ana (light) rolls 3-1, Bruno claims her 8-point, she plays ``play`` and Bruno rolls 6-4; the
    referee and what the roll brought."""
    ref = ref_of("casual")
    ref.feed(roll(3, 1))
    ref.feed(claim("dark", 8))
    ref.feed(bd(after(START, (3, 1), play)))
    return ref, ref.feed(roll(6, 4))


def test_r19_upheld_claim_honoured_is_not_flagged_and_the_record_keeps_the_claim() -> None:
    ref, out = claimed_then_played("8/5 6/5")
    assert kinds(out) == ["play", "roll"]
    (entry,) = ref.games[-1]["touch_moves"]
    assert entry == {"by": "dark", "mover": "light", "point": 8, "dice": [3, 1], "at": 2, "ruling": "upheld"}


def test_r19_upheld_claim_ignored_is_flagged_after_the_play_and_marked_in_the_record() -> None:
    """The play stands (R23: the opponent has rolled) with the mark; the claim's entry says it was ignored."""
    ref, out = claimed_then_played("24/21 6/5")
    assert kinds(out) == ["play", "roll", "touch_move_ignored"]  # last: on the banner
    ignored = out[2]
    assert (ignored["side"], ignored["by"], ignored["point"], ignored["play"]) == ("light", "dark", 8, "24/21 6/5")
    move = [a for a in ref.games[-1]["actions"] if a.get("kind") == "move"][-1]
    assert move["touch_move_ignored"] == [8] and ref.games[-1]["touch_moves"][0]["ignored"] is True


def test_r19_no_legal_play_from_the_point_no_penalty() -> None:
    """Light's 6-point with 6-5 at the start: a 5 lands on dark's closed 24-point (light's 1), a 6 would bear off
    with checkers outside: no checker leaves 6, so the touched checker carries no penalty."""
    ref = ref_of("casual")
    ref.feed(roll(6, 5))
    (v,) = ref.feed(claim("dark", 6))
    assert (v["verdict"], v["point"]) == ("touch_move_no_penalty", 6)
    assert "sem penalidade" in v["message"]["pt"]
    assert ref.games[-1]["touch_moves"][0]["ruling"] == "no_penalty"


def test_r19_a_claim_out_of_turn_or_by_the_mover_is_not_expected() -> None:
    ref = ref_of("casual")
    assert kinds(ref.feed(claim("dark", 8))) == ["touch_move_not_expected"]  # before the opening roll
    ref.feed(roll(3, 1))
    assert kinds(ref.feed(claim("light", 8))) == ["touch_move_not_expected"]  # the mover herself


def test_r19_the_event_is_checked() -> None:
    with pytest.raises(EventError, match='"point" must be a point 1-24'):
        parse_event({"event": "touch_move", "by": "dark", "point": 25})
    with pytest.raises(EventError, match='"by" must be "light" or "dark"'):
        parse_event({"event": "touch_move", "by": "both", "point": 8})
    assert parse_event({"event": "touch_move", "by": "dark", "point": 8}) == {"event": "touch_move", "by": "dark", "point": 8}


def test_r19_from_points_counts_every_way_of_a_play() -> None:
    """6-2 from 10 and 8 to 2: the same result as 10/2, reached through 8 too: a checker leaves 8 in one way."""
    pos = Position.from_physical([0] * 1 + [0] * 6 + [1, 0, 1] + [0] * 14, [0] * 23 + [2], turn=Side.LIGHT)
    plays = [lp for lp in pos.legal_plays((6, 2))]
    assert any(8 in from_points(lp) and 10 in from_points(lp) for lp in plays)


@pytest.mark.parametrize("name", NAMES)
def test_r19_a_checker_seen_lifted_and_put_back_is_said_to_the_opponent_only_where_touch_move_applies(name: str) -> None:
    """A settled board with 8/5 half made, then the board as it was: the opponent is told, not ruled for."""
    ref = ref_of(name)
    ref.feed(roll(3, 1))
    ref.feed(bd(moved(START, Side.LIGHT, 8, 5)))
    out = ref.feed(bd(START))
    seen = [v for v in out if v["verdict"] == "touch_move_seen"]
    if TOUCH[name]:
        assert [(v["point"], v["to"]) for v in seen] == [(8, ["dark"])]
        assert kinds(ref.feed(bd(moved(START, Side.LIGHT, 8, 5)))) == ["in_progress"]
        assert "touch_move_seen" not in kinds(ref.feed(bd(START)))  # said once a turn
    else:
        assert seen == []


# ----- R20 a play complete only when the turn ends ------------------------------------------------------------
def _hit_setup(name: str | None) -> tuple[Referee, Position]:
    """Light opens 6-4 with 24/18 13/9, a blot on its 18-point (dark's 7); dark rolls 6-1 to hit it with
    13/7* 8/7. The step boards are dark's."""
    ref = ref_of(name)
    ref.feed(roll(6, 4))
    p1 = after(START, (6, 4), "24/18 13/9")
    ref.feed(bd(p1))
    ref.feed(roll(6, 1))
    return ref, p1


def _blot_lifted_first(p1: Position) -> Position:
    """Dark has lifted light's blot (light's 18) to the bar, the hitting checker not yet on it."""
    own = {s: list(p1.own(s)) for s in Side}
    own[Side.LIGHT][18] -= 1
    own[Side.LIGHT][25] += 1
    return Position((tuple(own[Side.LIGHT]), tuple(own[Side.DARK])), Side.DARK)


@pytest.mark.parametrize("name", NAMES)
def test_r20_a_hit_half_made_is_in_progress_not_a_fault(name: str) -> None:
    ref, p1 = _hit_setup(name)
    out = ref.feed(bd(_blot_lifted_first(p1)))
    assert [(v["verdict"], v.get("step"), v.get("complete"), v.get("point")) for v in out] == [
        ("in_progress", "hit", False, 7)]
    assert out[0]["message"]["pt"] == "As escuras estão capturando na casa 7: a jogada continua."
    assert "to" not in out[0] and "answers" not in out[0]
    done = after(p1, (6, 1), "13/7* 8/7")
    out = ref.feed(bd(done))
    assert kinds(out) == ["in_progress"] and out[0]["complete"]
    out = ref.feed(roll(3, 2))
    assert kinds(out)[0] == "play" and out[0]["play"] == "13/7* 8/7"


def test_r20_without_a_rule_set_a_hit_half_made_is_called_as_before() -> None:
    ref, p1 = _hit_setup(None)
    assert kinds(ref.feed(bd(_blot_lifted_first(p1)))) == ["illegal"]
    ref, p1 = _hit_setup(None)
    assert kinds(ref.feed(bd(moved(p1, Side.DARK, 13, 7)))) == ["unplayed_die"]


def test_r19_a_point_refilled_by_another_checker_is_no_put_back() -> None:
    """6-2 played 8/2 then 10/8: a checker left 8 and another came: the play, not a touched checker put back."""
    pos = Position.from_physical([0] * 7 + [2, 0, 1] + [0] * 14, [0] * 23 + [2], turn=Side.LIGHT)
    ref = ref_of("casual")
    ref.pos, ref.turn, ref.phase = pos, Side.LIGHT, "awaiting_roll"
    ref.feed(roll(6, 2))
    ref.feed(bd(moved(pos, Side.LIGHT, 8, 2)))
    out = ref.feed(bd(moved(moved(pos, Side.LIGHT, 8, 2), Side.LIGHT, 10, 8)))
    assert "touch_move_seen" not in kinds(out)


@pytest.mark.parametrize("name", NAMES)
def test_r20_the_hitting_checker_on_the_point_before_the_blot_is_lifted_is_in_progress(name: str) -> None:
    """Both checkers on the point a moment (13/7 with light's blot still there): not a die left unplayed."""
    ref, p1 = _hit_setup(name)
    out = ref.feed(bd(moved(p1, Side.DARK, 13, 7)))
    assert [(v["verdict"], v.get("step"), v.get("point")) for v in out] == [("in_progress", "hit", 7)]


@pytest.mark.parametrize("name", NAMES)
def test_r20_a_turn_ended_on_a_hit_half_made_is_judged_then(name: str) -> None:
    """The end-turn button on that board: the play is judged complete now, and it is not a play."""
    ref, p1 = _hit_setup(name)
    ref.feed(bd(_blot_lifted_first(p1)))
    out = ref.feed({"event": "button", "name": "end_turn"})
    assert kinds(out)[0] == "illegal" and ref.public_state()["turn"] == "dark"
    if name in TOURNAMENT:
        assert out[0]["to"] == ["light", "dark", "director"]


@pytest.mark.parametrize("name", NAMES)
def test_r20_no_verdict_while_a_hand_is_over_the_board(name: str) -> None:
    ref = ref_of(name)
    ref.feed(roll(3, 1))
    for board in (moved(START, Side.LIGHT, 8, 4), moved(START, Side.LIGHT, 6, 1), START):
        assert ref.feed(bd(board, stable=False)) == []


@pytest.mark.parametrize("name", NAMES)
def test_r20_the_first_settled_whole_play_is_not_the_play_the_turn_end_is(name: str) -> None:
    """8/5 6/5 settles (complete), then Ana changes her mind to 13/10 6/5: the play is the one on the board when
    the opponent rolls."""
    ref = ref_of(name)
    ref.feed(roll(3, 1))
    assert ref.feed(bd(after(START, (3, 1), "8/5 6/5")))[0]["complete"]
    ref.feed(bd(after(START, (3, 1), "13/10 6/5")))
    out = ref.feed(roll(6, 4))
    assert out[0]["verdict"] == "play" and out[0]["play"] == "13/10 6/5"


# ----- R21 a checker forgotten off the board ------------------------------------------------------------------
def _camera(pos: Position, **change: Any) -> dict[str, Any]:
    ev = bd(pos)
    ev["off_seen"] = False
    for side in ("light", "dark"):
        ev["off"][side] = 15 - sum(ev[side]) - ev["bar"][side]
    return ev


@pytest.mark.parametrize("name", NAMES)
def test_r21_a_hit_checker_left_beside_the_board_is_told_where_it_goes(name: str) -> None:
    """Dark hits 13/7* 8/7 and leaves light's checker beside the board (not on the bar): three settled boards
    with the count short (the count-keeping needs several). The screen says it goes on the bar; no penalty; the play and the record as made."""
    ref, p1 = _hit_setup(name)
    done = after(p1, (6, 1), "13/7* 8/7")
    beside = _camera(done)
    beside["bar"]["light"] = 0
    beside["off"]["light"] = 1
    out = [v for _ in range(4) for v in ref.feed(dict(beside))]
    said = [v for v in out if v["verdict"] == "checker_off_board"]
    assert [(v["side"], v["point"]) for v in said] == [("light", "bar")]
    assert "vai para a barra" in said[0]["message"]["pt"] and "sem penalidade" in said[0]["message"]["pt"]
    assert "illegal" not in kinds(out) and all("to" not in v for v in said)
    out = ref.feed(roll(3, 2))
    assert out[0]["verdict"] == "play" and out[0]["play"] == "13/7* 8/7" and out[0]["legal"]


@pytest.mark.parametrize("name", NAMES)
def test_r21_a_checker_borne_off_by_mistake_goes_back_and_the_play_is_the_legal_one(name: str) -> None:
    """6-5 played 24/13 and a checker of the 6-point put in the tray (counted) by mistake, checkers still outside:
    not the illegal play 24/13 6/off but 24/13 with a checker to put back on 6, no penalty, said once."""
    ref = ref_of(name)
    ref.feed(roll(6, 5))
    tray = moved(after(START, (6, 5), "24/13"), Side.LIGHT, 6, 0)
    out = ref.feed(bd(tray))
    assert [(v["verdict"], v.get("point")) for v in out] == [("in_progress", None), ("checker_off_board", 6)]
    assert out[0]["play"] == "24/18/13" and out[0]["complete"]
    assert "volta para a casa 6" in out[1]["message"]["pt"] and "Sem penalidade" in out[1]["message"]["pt"]
    assert ref.feed(bd(tray)) == []
    out = ref.feed(roll(3, 1))
    assert (out[0]["verdict"], out[0]["play"], out[0]["legal"]) == ("play", "24/18/13", True)
    assert [a["play"] for a in ref.games[-1]["actions"] if a.get("kind") == "move"] == ["24/18/13"]


def test_r21_without_a_rule_set_a_checker_borne_off_too_early_is_the_illegal_play_as_before() -> None:
    ref = ref_of(None)
    ref.feed(roll(6, 5))
    out = ref.feed(bd(moved(after(START, (6, 5), "24/13"), Side.LIGHT, 6, 0)))
    assert [(v["verdict"], v["reason"], v["play"]) for v in out] == [("illegal", "bear_off_too_early", "24/13 6/off")]


def test_r21_without_a_rule_set_the_checker_is_called_missing_as_before() -> None:
    ref, p1 = _hit_setup(None)
    beside = _camera(after(p1, (6, 1), "13/7* 8/7"))
    beside["bar"]["light"] = 0
    beside["off"]["light"] = 1
    out = [v for _ in range(4) for v in ref.feed(dict(beside))]
    assert [(v["verdict"], v.get("reason")) for v in out] == [("in_progress", None), ("illegal", "checker_missing")]


# ----- R22 checkers moved before the one on the bar entered ---------------------------------------------------
def _light_on_bar(name: str) -> tuple[Referee, Position]:
    ref, p1 = _hit_setup(name)
    p2 = after(p1, (6, 1), "13/7* 8/7")
    ref.feed(bd(p2))
    ref.feed(roll(4, 3))
    return ref, p2


@pytest.mark.parametrize("name", NAMES)
def test_r22_moving_before_entering_is_a_hint_for_the_mover_alone(name: str) -> None:
    ref, p2 = _light_on_bar(name)
    out = ref.feed(bd(moved(p2, Side.LIGHT, 13, 9)))
    (v,) = out
    assert (v["verdict"], v["reason"], v["side"], v["to"]) == ("bar_first_hint", "bar_first", "light", ["light"])
    assert v["message"]["pt"].startswith("As claras têm uma peça na barra: voltem as peças movidas")
    assert "answers" not in v and "answer_by" not in v
    # moved back and entered: the play goes on as any other
    out = ref.feed(bd(after(p2, (4, 3), "bar/21 13/10")))
    assert kinds(out) == ["in_progress"]
    out = ref.feed(roll(5, 2))
    assert out[0]["verdict"] == "play" and out[0]["play"] == "bar/21 13/10"


@pytest.mark.parametrize("name", NAMES)
def test_r22_at_the_turn_end_it_is_the_fault_it_always_was(name: str) -> None:
    """The clock's press / end-turn button with the checker still on the bar: the fault, and in the tournament
    sets it now goes to both players and the director."""
    ref, p2 = _light_on_bar(name)
    ref.feed(bd(moved(p2, Side.LIGHT, 13, 9)))
    out = ref.feed({"event": "button", "name": "end_turn"})
    faults = [v for v in out if v["verdict"] == "illegal"]
    if name == "casual":  # casual lets an illegal play stand at the turn's end, flagged (today's casual)
        assert [v["verdict"] for v in out][-1] == "play" and out[-1]["legal"] is False
        assert out[-1]["reason"] == "bar_first"
    else:
        assert [v["reason"] for v in faults] == ["bar_first"]
        if name in TOURNAMENT:
            assert faults[0]["to"] == ["light", "dark", "director"]


def test_r22_without_a_rule_set_the_fault_is_called_at_once_as_before() -> None:
    ref, p2 = _light_on_bar("casual")
    ref.rules["bar_first"] = "fault"
    out = ref.feed(bd(moved(p2, Side.LIGHT, 13, 9)))
    assert [(v["verdict"], v["reason"]) for v in out] == [("illegal", "bar_first")]


def test_rule_set_keys_are_checked() -> None:
    with pytest.raises(EventError, match='"rules.touch_move" must be true or false'):
        parse_event({"event": "new_match", "rules": {"touch_move": "yes"}})
    with pytest.raises(EventError, match='"rules.bar_first" must be one of fault, hint'):
        parse_event({"event": "new_match", "rules": {"bar_first": "warn"}})
    plain = parse_event({"event": "new_match"})
    assert not {"touch_move", "steps", "forgotten_checker", "bar_first"} & set(plain["rules"])


@pytest.mark.parametrize("name", NAMES)
def test_r20_a_fault_while_the_turn_is_open_goes_to_the_opponent_and_director_only_when_it_ends(name: str) -> None:
    """8/4 6/5 with 3-1 (a 4 not rolled) settles: in the tournament sets it is the mover's to put right (to: the
    mover, no answer); at the clock's press it goes to both players and the director with the answer. Casual and
    the lesson address nobody (anyone may point it out), as before."""
    ref = ref_of(name)
    ref.feed(roll(3, 1))
    bad = moved(moved(START, Side.LIGHT, 8, 4), Side.LIGHT, 6, 5)
    (v,) = ref.feed(bd(bad))
    assert v["verdict"] == "illegal" and "answers" not in v
    assert v.get("to") == (["light"] if name in TOURNAMENT else None)
    out = ref.feed({"event": "button", "name": "clock", "side": "light"} if name in TOURNAMENT
                   else {"event": "button", "name": "end_turn"})
    faults = [f for f in out if f["verdict"] == "illegal"]
    if name in TOURNAMENT:
        assert faults[-1]["to"] == ["light", "dark", "director"] and faults[-1]["answer_by"] == "dark"


def test_r19_leaves_agrees_with_every_way_of_every_play() -> None:
    """The claim's ruling asks the plays' results and steps first and only a few plays for all their ways (a
    double's ways took seconds); on random positions it rules as asking every way of every play would."""
    rng = random.Random(36)
    checked = 0
    for _ in range(12):
        pos = Position.start().with_turn(Side.LIGHT)
        for _ in range(rng.randint(4, 20)):
            plays = pos.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))
            pos = plays[rng.randrange(len(plays))].result if len(plays) else pos.with_turn(pos.turn.other)
        for dice in ((6, 5), (6, 2), (3, 3)):
            model = TurnModel(pos, dice)
            if len(model.legal) > 60:
                continue
            for point in range(1, 25):
                if pos.own(pos.turn)[point]:
                    assert leaves(model, point) == any(point in from_points(lp) for lp in model.legal), (pos, dice, point)
                    checked += 1
    assert checked > 200


def test_r20_hit_step_is_none_for_a_board_with_no_hit_to_make() -> None:
    model = TurnModel(START.with_turn(Side.LIGHT), (3, 1))
    assert hit_step(model, Observation(vec_of_position(START))) is None
