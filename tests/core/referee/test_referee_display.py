"""What the kiosk draws: public_state()["position"] is the board as it stands (the referee's reading of the
play so far), "position_at_turn_start" the committed position the turn began from; and the sentence of an
illegal play that stands (R23)."""

from __future__ import annotations

from typing import Any

from core.referee import Referee
from core.rules.position import Position, Side
from tests.core.referee.scenarios import (
    START,
    after,
    bd,
    kinds,
    light_on_bar,
    moved,
    referee,
    roll,
    unclear_31,
)


def shown(pos: Position, turn: Side) -> dict[str, Any]:
    """The public_state position block of ``pos`` with ``turn`` on roll (match_id aside)."""
    return {**pos.to_dict(), "position_id": pos.position_id(turn)}


def board(ref: Referee, key: str = "position") -> dict[str, Any]:
    state = ref.public_state()[key]
    return {k: v for k, v in state.items() if k != "match_id"}


def pips(pos: Position) -> dict[str, int]:
    return {s.value: pos.pips(s) for s in Side}


def test_turn_start_both_positions_equal() -> None:
    ref = referee()
    assert ref.public_state()["position"] == ref.public_state()["position_at_turn_start"]
    ref.feed(roll(3, 1))
    state = ref.public_state()
    assert state["position"] == state["position_at_turn_start"]
    assert board(ref) == shown(START, Side.LIGHT)
    ref.feed(bd(START))  # nothing moved yet
    assert ref.public_state()["position"] == ref.public_state()["position_at_turn_start"]


def test_r23_legal_play_not_yet_committed_is_drawn() -> None:
    ref = referee()
    ref.feed(roll(3, 1))
    played = after(START, (3, 1), "8/5 6/5")
    ref.feed(bd(played))
    state = ref.public_state()
    assert board(ref) == shown(played, Side.LIGHT)
    assert board(ref, "position_at_turn_start") == shown(START, Side.LIGHT)
    assert state["position"]["match_id"] == state["position_at_turn_start"]["match_id"]
    assert state["pips"] == pips(played) == {"light": 163, "dark": 167}
    assert state["turn"] == "light" and state["phase"] == "moving"  # not committed: still light's turn
    ref.feed(roll(6, 4))  # committed: the turn starts from the play's result
    state = ref.public_state()
    assert state["turn"] == "dark" and state["position"] == state["position_at_turn_start"]
    assert board(ref) == shown(played, Side.DARK)


def test_in_progress_prefix_is_drawn() -> None:
    ref = referee()
    ref.feed(roll(3, 1))
    half = moved(START, Side.LIGHT, 8, 5)
    (v,) = ref.feed(bd(half))
    assert v["verdict"] == "in_progress" and v["complete"] is False
    assert board(ref) == shown(half, Side.LIGHT)
    assert board(ref, "position_at_turn_start") == shown(START, Side.LIGHT)
    assert ref.public_state()["pips"] == pips(half)


def test_r07_bar_entry_drawn_off_the_bar() -> None:
    ref, p2 = light_on_bar()
    ref.feed(roll(3, 2))
    entered = after(p2.with_turn(Side.LIGHT), (3, 2), "bar/22 24/22")
    (v,) = ref.feed(bd(entered))
    assert v["verdict"] == "in_progress" and v["complete"] is True
    pos = ref.public_state()["position"]
    assert pos["bar"]["light"] == 0 and ref.public_state()["position_at_turn_start"]["bar"]["light"] == 1
    assert board(ref) == shown(entered, Side.LIGHT)


def test_unstable_board_changes_nothing() -> None:
    ref = referee()
    ref.feed(roll(3, 1))
    half = moved(START, Side.LIGHT, 8, 5)
    ref.feed(bd(half))
    before = ref.public_state()
    chaos = moved(moved(START, Side.LIGHT, 13, 2), Side.DARK, 13, 1)
    assert ref.feed(bd(chaos, stable=False)) == []
    assert ref.public_state() == before


def test_uncertain_board_keeps_the_last_confident_position() -> None:
    ref = referee()
    ref.feed(roll(3, 1))
    half = moved(START, Side.LIGHT, 13, 10)
    ref.feed(bd(half))
    assert kinds(ref.feed(unclear_31())) == ["uncertain"]
    assert board(ref) == shown(half, Side.LIGHT)


def test_fault_board_keeps_the_last_confident_position_until_it_stands() -> None:
    ref = referee()
    ref.feed(roll(6, 5))
    ref.feed(bd(moved(START, Side.LIGHT, 24, 18)))
    wrong = moved(moved(START, Side.LIGHT, 13, 9), Side.LIGHT, 13, 7)
    (v,) = ref.feed(bd(wrong))
    assert v["verdict"] == "illegal"
    assert board(ref) == shown(moved(START, Side.LIGHT, 24, 18), Side.LIGHT)
    ref.feed(roll(2, 1))  # casual: the play stands as played (R23)
    assert board(ref) == board(ref, "position_at_turn_start") == shown(wrong, Side.DARK)


def test_undo_restores_the_drawn_board() -> None:
    ref = referee()
    ref.feed(roll(3, 1))
    played = after(START, (3, 1), "8/5 6/5")
    ref.feed(bd(played))
    ref.feed(roll(6, 4))
    ref.feed({"event": "button", "name": "undo"})
    assert board(ref) == shown(played, Side.LIGHT)
    assert board(ref, "position_at_turn_start") == shown(START, Side.LIGHT)


# ----- the sentence of an illegal play that stands (R23) -------------------------------------------------------
def test_r23_illegal_play_stands_because_opponent_rolled_message() -> None:
    ref = referee()
    ref.feed(roll(6, 5))
    ref.feed(bd(moved(moved(START, Side.LIGHT, 13, 9), Side.LIGHT, 13, 7)))
    out = ref.feed(roll(2, 1))
    assert kinds(out) == ["play", "roll"] and out[0]["committed_by"] == "roll"
    assert out[0]["message"] == {
        "pt": "As claras jogaram 13/9 13/7 com 6-5. A jogada não era permitida, mas fica feita porque o adversário "
              "já lançou os dados (R23).",
        "en": "Light played 13/9 13/7 with 6-5. The play was not allowed, but it stands because the opponent has "
              "rolled (R23)."}


def test_r23_illegal_play_of_no_checker_is_not_a_lost_turn() -> None:
    ref = referee(premature_roll="commit")
    ref.feed(roll(3, 1))
    ref.feed(bd(START))
    out = ref.feed(roll(6, 4))
    play = next(v for v in out if v["verdict"] == "play")
    assert play["legal"] is False and play["play"] == ""
    assert play["message"] == {
        "pt": "As claras não moveram nenhuma peça com 3-1. A jogada não era permitida, mas fica feita porque o "
              "adversário já lançou os dados (R23).",
        "en": "Light moved no checker with 3-1. The play was not allowed, but it stands because the opponent has "
              "rolled (R23)."}


def test_r23_illegal_play_stands_at_end_turn_message() -> None:
    ref = referee()
    ref.feed(roll(6, 5))
    ref.feed(bd(moved(START, Side.LIGHT, 24, 18)))
    (_, p) = ref.feed({"event": "button", "name": "end_turn"})
    assert p["committed_by"] == "button"
    assert p["message"] == {
        "pt": "As claras jogaram 24/18 com 6-5. A jogada não era permitida, mas fica feita porque a vez foi dada "
              "por terminada (R23).",
        "en": "Light played 24/18 with 6-5. The play was not allowed, but it stands because the turn was ended "
              "(R23)."}
