"""Rules R01-R11 and R25 of ../shared/RULES.md on the standard game."""

from __future__ import annotations

import pytest

from core import IllegalPlayError, Position, Side


def results(pid: str, dice: tuple[int, int]) -> dict[str, str]:
    pos = Position.from_position_id(pid)
    return {lp.play.text(): lp.result.position_id(Side.LIGHT) for lp in pos.legal_plays(dice)}


def test_r01_each_side_numbers_points_from_its_own_home() -> None:
    pos = Position.start()
    assert pos.physical_point(Side.LIGHT, 6) == 6
    assert pos.physical_point(Side.DARK, 6) == 19
    assert all(pos.physical_point(Side.DARK, n) == 25 - n for n in range(1, 25))


def test_r02_start_position() -> None:
    pos = Position.start()
    assert pos.own(Side.LIGHT)[24] == 2 and pos.own(Side.LIGHT)[13] == 5
    assert pos.own(Side.LIGHT)[8] == 3 and pos.own(Side.LIGHT)[6] == 5
    assert pos.light[23] == 2 and pos.dark[0] == 2  # both 24-points, at opposite ends
    assert pos.position_id() == "4HPwATDgc/ABMA"
    assert pos.pips(Side.LIGHT) == pos.pips(Side.DARK) == 167


def test_r04_opening_31_has_16_results_66_has_11_11_has_42() -> None:
    pos = Position.start()
    assert len(pos.legal_plays((3, 1))) == 16
    assert len(pos.legal_plays((6, 6))) == 11
    assert len(pos.legal_plays((1, 1))) == 42


def test_r04_both_dice_only_in_one_order() -> None:
    # 61: the intermediate point decides which order is possible; only one result.
    assert list(results("8H8AgDH+f4AAAA", (6, 1))) == ["10/9/3"]


def test_r05_closed_point_blocks_landing_and_intermediate_stop() -> None:
    pos = Position.start()
    # Light's 19 is dark's 6-point (5 checkers): no 5 from the 24-point.
    with pytest.raises(IllegalPlayError, match=r"point 19 is closed \(two or more opposing checkers\) \(R05\)"):
        pos.play((5, 5), "24/19")
    # Light's 12 is dark's midpoint: 13/11 with 11 would have to stop on it.
    assert "13/11" not in pos.legal_plays((1, 1))
    assert not any(m.frm == 13 for lp in pos.legal_plays((1, 1)) for m in lp.play.moves)
    # 24/13 with 65 may pass through 18 (open) although 19 is closed.
    assert "24/13" in pos.legal_plays((6, 5))


def test_r06_intermediate_hit_vs_none_six_results() -> None:
    got = results("8P8DEADg/wcEAA", (3, 2))
    assert len(got) == 6
    assert "13/10*/8" in got and "13/11/8" in got  # same checker, hit on the way or not


def test_r07_two_on_the_bar_entry_blocked_no_play() -> None:
    pos = Position.from_position_id("8P8NAADg/wMAYA")
    assert pos.bar[Side.LIGHT] == 2
    assert len(pos.legal_plays((6, 6))) == 0


def test_r07_bar_checker_enters_first() -> None:
    pos = Position.start().apply_unchecked("24/23").with_turn(Side.DARK).apply_unchecked("13/2*").with_turn(Side.LIGHT)
    assert pos.bar[Side.LIGHT] == 1
    for lp in pos.legal_plays((5, 3)):
        assert lp.play.moves[0].frm == 25 or any(m.frm == 25 for m in lp.play.moves)
    with pytest.raises(IllegalPlayError):
        pos.play((5, 3), "13/8 13/10")


def test_r08_doubles_are_played_four_times() -> None:
    pos = Position.start()
    assert all(len(lp.play) == 4 for lp in pos.legal_plays((6, 6)))
    assert pos.play((6, 6), "24/18(2) 13/7(2)") in pos.legal_plays((6, 6))


def test_r09_larger_die_when_only_one_playable() -> None:
    assert list(results("8P8BADD+fwACAA", (6, 5))) == ["12/6"]


def test_r09_unplayed_die_is_illegal_when_both_can_be_played() -> None:
    pos = Position.start()
    with pytest.raises(IllegalPlayError, match="leaves a die unplayed"):
        pos.play((3, 1), "8/5")


def test_r10_bear_off_with_higher_die() -> None:
    assert list(results("sP8PAAAqAAAAAA", (6, 5))) == ["4/off 3/off"]


def test_r10_higher_die_may_not_bear_off_lower_checker_while_higher_point_occupied() -> None:
    got = results("sP8PAABCAAAAAA", (5, 4))
    assert len(got) == 2
    assert all("2/off" in p or "/off" in p for p in got)


def test_r10_no_bear_off_while_a_checker_is_outside() -> None:
    pos = Position.start()
    assert not any(m.to == 0 for lp in pos.legal_plays((6, 5)) for m in lp.play.moves)


def test_r11_single_gammon_backgammon() -> None:
    win = [0] * 24
    light_single = Position.from_physical(win, [0] * 23 + [1], off={"light": 15, "dark": 14})
    assert light_single.result() == (Side.LIGHT, 1)
    light_gammon = Position.from_physical(win, [0] * 12 + [15] + [0] * 11, off={"light": 15, "dark": 0})
    assert light_gammon.result() == (Side.LIGHT, 2)
    in_home = [1] + [0] * 11 + [14] + [0] * 11
    assert Position.from_physical(win, in_home, off={"light": 15, "dark": 0}).result() == (Side.LIGHT, 3)
    on_bar = [0] * 12 + [14] + [0] * 11
    assert Position.from_physical(win, on_bar, bar={"dark": 1}, off={"light": 15, "dark": 0}).result() == (Side.LIGHT, 3)
    assert Position.start().result() is None


def test_r25_no_legal_play_means_the_turn_is_lost() -> None:
    pos = Position.from_position_id("8P8NAADg/wMAYA")
    legal = pos.legal_plays((6, 6))
    assert len(legal) == 0
    assert pos.parse_play("", (6, 6)).result == pos.with_turn(Side.DARK)


def test_play_keeps_the_position_id_in_error_messages() -> None:
    pos = Position.start()
    with pytest.raises(IllegalPlayError) as err:
        pos.play((3, 1), "8/3")
    assert str(err.value).startswith("illegal play '8/3' with 31 in position 4HPwATDgc/ABMA: ")


def test_result_is_the_mover_side_board_not_turned_round() -> None:
    pos = Position.start()
    after = pos.play((3, 1), "8/5 6/5")
    assert after.turn is Side.DARK
    assert pos.parse_play("6/5 8/5", (1, 3)).result == after
    assert after.position_id(Side.LIGHT) != pos.position_id()


def test_r06_two_checkers_landing_on_one_blot_hit_it_once() -> None:
    pos = Position.from_position_id("nbwNAhCY14MBAw")
    before = pos.bar[Side.DARK]
    lp = pos.parse_play("7/2* 4/2", (2, 5))
    assert lp.result.bar[Side.DARK] == before + 1
    assert sum(lp.result.own(Side.DARK)) == 15
    assert lp.play.text(style="gnubg") in {"7/2* 4/2", "4/2* 7/2"}
