"""Match play: R13 scoring, R14 Crawford, R15 Jacoby, R16 Holland, resignations."""

from __future__ import annotations

from core.match.cube import Cube
from core.match.record import MatchRules
from core.match.score import Match
from core.rules.position import Side

L, D = Side.LIGHT, Side.DARK


def _turned_cube(value: int) -> Cube:
    cube = Cube()
    side = L
    while cube.value < value:
        cube.double(side)
        cube.take(side.other)
        side = side.other
    return cube


def test_r13_games_score_value_times_cube() -> None:
    m = Match(7)
    assert m.game_points(1, Cube()) == 1
    assert m.game_points(2, _turned_cube(2)) == 4
    assert m.game_points(3, _turned_cube(4)) == 12
    m.record_result(L, 4)
    assert m.score == {L: 4, D: 0} and m.game_number == 2 and not m.over


def test_r13_match_is_over_at_the_length() -> None:
    m = Match(3)
    m.record_result(D, 4)
    assert m.over and m.winner is D


def test_r14_game_after_first_reaching_n_minus_1_is_crawford() -> None:
    m = Match(5)
    m.record_result(L, 2)
    assert not m.crawford
    m.record_result(L, 2)
    assert m.score[L] == 4 and m.crawford


def test_r14_crawford_game_has_no_cube() -> None:
    m = Match(3, score={L: 2, D: 0})
    assert m.crawford
    assert not m.cube_settings().enabled
    assert m.why_not_double(D, Cube(m.cube_settings())) == "no doubling in the Crawford game (R14)"


def test_r14_post_crawford_games_use_the_cube_again() -> None:
    m = Match(3, score={L: 2, D: 0})
    m.record_result(D, 1)
    assert (m.crawford, m.post_crawford) == (False, True)
    assert m.cube_settings().enabled
    assert m.why_not_double(D, Cube(m.cube_settings())) is None


def test_r14_only_one_crawford_game_even_when_the_other_side_reaches_n_minus_1() -> None:
    m = Match(5)
    m.record_result(L, 4)
    assert m.crawford
    m.record_result(D, 4)
    assert m.score == {L: 4, D: 4} and not m.crawford and m.post_crawford


def test_r14_jumping_past_n_minus_1_has_no_crawford_game() -> None:
    m = Match(5)
    m.record_result(L, 3)
    m.record_result(L, 2)
    assert m.over and not m.crawford


def test_r14_crawford_is_a_setting() -> None:
    m = Match(3, MatchRules(crawford=False))
    m.record_result(L, 2)
    assert not m.crawford and m.why_not_double(D, Cube(m.cube_settings())) is None


def test_r14_starting_score_both_at_n_minus_1_is_post_crawford() -> None:
    m = Match(5, score={L: 4, D: 4})
    assert not m.crawford and m.post_crawford


def test_r15_jacoby_gammon_counts_single_with_the_cube_unturned() -> None:
    m = Match(0, MatchRules(crawford=False, jacoby=True))
    assert m.game_points(2, Cube()) == 1
    assert m.game_points(3, Cube()) == 1
    assert m.game_points(2, _turned_cube(2)) == 4


def test_r15_jacoby_is_money_only() -> None:
    m = Match(7, MatchRules(jacoby=True))
    assert m.game_points(2, Cube()) == 2


def test_r15_money_session_never_ends_and_has_no_crawford() -> None:
    m = Match(0, MatchRules(crawford=False))
    m.record_result(L, 64)
    assert not m.over and not m.crawford


def test_r16_holland_trailer_doubles_only_after_two_rolls_each() -> None:
    m = Match(5, MatchRules(holland=True), score={L: 4, D: 1})
    m.record_result(D, 1)  # the Crawford game
    assert m.post_crawford
    cube = Cube(m.cube_settings())
    assert m.why_not_double(D, cube, {L: 1, D: 1}) == (
        "Holland rule: after Crawford the trailer may double only once each side has played two rolls (R16)"
    )
    assert m.why_not_double(D, cube, {L: 2, D: 2}) is None


def test_r16_holland_is_off_by_default() -> None:
    m = Match(5, score={L: 4, D: 4})
    assert m.why_not_double(D, Cube(m.cube_settings()), {L: 0, D: 0}) is None


def test_r17_beavers_are_money_only() -> None:
    rules = MatchRules(beavers=True, raccoons=True)
    assert not Match(7, rules).cube_settings().beavers
    assert Match(0, MatchRules(crawford=False, beavers=True, raccoons=True)).cube_settings().raccoons


def test_cube_cap_setting_reaches_the_cube() -> None:
    assert Match(7, MatchRules(cube_cap=64)).cube_settings().cap == 64
    assert Match(7).cube_settings().cap is None


def test_match_state_for_the_kiosk() -> None:
    m = Match(7, score={L: 2, D: 4})
    state = m.state()
    assert state["score"] == {"light": 2, "dark": 4} and state["length"] == 7 and state["crawford"] is False


def test_r14_a_one_point_match_has_no_crawford_game() -> None:
    """Issue 37: a 1-point match showed "Pós-Crawford" at 0-0 (both sides at N-1 read as the Crawford game played)."""
    from core.match.score import Match

    m = Match(1)
    assert (m.crawford, m.post_crawford) == (False, False)
