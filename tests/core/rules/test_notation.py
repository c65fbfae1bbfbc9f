"""Play notation in the dialects of real files (../shared/formats/MAT.md section 4)."""

from __future__ import annotations

import pytest

from core import AmbiguousPlayError, IllegalPlayError, InvalidPlayError, Move, Play, Position, Side


@pytest.mark.parametrize(
    "text, moves",
    [
        ("13/7* 8/7", [(13, 7, True), (8, 7, False)]),
        ("bar/22", [(25, 22, False)]),
        ("25/22", [(25, 22, False)]),
        ("6/off", [(6, 0, False)]),
        ("6/0", [(6, 0, False)]),
        ("24/18/12", [(24, 18, False), (18, 12, False)]),
        ("13/7*/1", [(13, 7, True), (7, 1, False)]),
        ("6/4(2)", [(6, 4, False), (6, 4, False)]),
        ("24/20/16(2)", [(24, 20, False), (20, 16, False)] * 2),
        ("bar/22(2)", [(25, 22, False)] * 2),
        ("B/22 6/O", [(25, 22, False), (6, 0, False)]),
        ("", []),
    ],
)
def test_read_dialects(text: str, moves: list[tuple[int, int, bool]]) -> None:
    assert Play.from_text(text).moves == tuple(Move(*m) for m in moves)


@pytest.mark.parametrize(
    "text, message",
    [
        ("13-7", "invalid play '13-7': '13-7' is not a move (write FROM/TO, e.g. 13/7, bar/22 or 6/off)"),
        ("13/x", "invalid play '13/x': 'x' is not a point (use 1-24, bar or 25 for the bar, off or 0 for off)"),
        ("26/20", "invalid play '26/20': '26' is not a point (use 1-24, bar or 25 for the bar, off or 0 for off)"),
        ("7/13", "invalid play '7/13': 7/13 moves backwards (checkers move from higher to lower points)"),
        ("off/3", "invalid play 'off/3': a checker cannot move from off the board"),
        ("13/bar", "invalid play '13/bar': a checker cannot move to the bar"),
        ("6/4(9)", "invalid play '6/4(9)': a repeat must be (1) to (4), not (9)"),
        ("13/", "invalid play '13/': '13/' is not a move (write FROM/TO, e.g. 13/7, bar/22 or 6/off)"),
    ],
)
def test_malformed_notation_is_named(text: str, message: str) -> None:
    with pytest.raises(InvalidPlayError) as err:
        Play.from_text(text)
    assert str(err.value) == message
    assert isinstance(err.value, ValueError)


def test_write_standard_and_gnubg() -> None:
    play = Play.from_text("13/7* 7/1")
    assert play.text() == "13/7*/1"
    assert play.text(style="gnubg") == "13/7* 7/1"
    assert Play.from_text("6/4 6/4 8/6 8/6").text() == "8/6/4(2)"
    assert Play.from_text("25/22 6/0").text() == "bar/22 6/off"
    assert repr(Play.from_text("bar/22 6/off")) == "Play.from_text('25/22 6/0')"
    assert eval(repr(Play.from_text("13/7* 8/7"))) == Play.from_text("13/7* 8/7")


def test_combined_move_expands_to_the_legal_order() -> None:
    pos = Position.start()
    lp = pos.parse_play("24/13", (6, 5))
    assert lp.play.text() == "24/18/13"
    assert pos.parse_play("13/8 13/7", (5, 6)).result == pos.parse_play("13/7 13/8", (6, 5)).result
    assert pos.parse_play("13/5(2)", (4, 4)).play.text() == "13/9/5(2)"


def test_combined_move_through_a_blot_hit_vs_no_hit() -> None:
    # 32: 13/8 can go 13/10*/8 (hitting on 10) or 13/11/8: the two orders differ by a hit.
    pos = Position.from_position_id("8P8DEADg/wcEAA")
    assert pos.parse_play("13/10*/8", (3, 2)).play.text() == "13/10*/8"
    assert pos.parse_play("13/8", (3, 2)).play.text() == "13/11/8"  # files that mark hits: unmarked = no hit
    with pytest.raises(AmbiguousPlayError, match=r"ambiguous play '13/8' with 32 in position 8P8DEADg/wcEAA: it can be"):
        pos.parse_play("13/8", (3, 2), marks_hits=False)


def test_sub_move_order_and_dice_order_do_not_matter() -> None:
    pos = Position.start()
    a = pos.parse_play("8/5 6/5", (3, 1))
    b = pos.parse_play("6/5 8/5", (1, 3))
    assert a.result == b.result


def test_ways_lists_each_order_and_checker() -> None:
    pos = Position.start()
    lp = pos.parse_play("8/5 6/5", (3, 1))
    ways = {w.text(style="gnubg") for w in lp.ways()}
    assert ways == {"8/5 6/5", "6/5 8/5"}
    for way in lp.ways():  # every listed way really reaches the result
        assert pos.apply_unchecked(way) == lp.result


def test_illegal_play_names_input_and_position() -> None:
    pos = Position.start()
    with pytest.raises(IllegalPlayError) as err:
        pos.play((6, 5), "24/13 13/8")
    assert str(err.value) == (
        "illegal play '24/13 13/8' with 65 in position 4HPwATDgc/ABMA: it moves 16 pips in all but 65 gives 11 (R04)"
    )


def test_apply_unchecked_hits_and_refuses_closed_points() -> None:
    pos = Position.start()
    with pytest.raises(IllegalPlayError, match="point 19 holds 5 opposing checkers"):
        pos.apply_unchecked("24/19")
    with pytest.raises(IllegalPlayError, match="no checker on point 23"):
        pos.apply_unchecked("23/20")
    after = pos.apply_unchecked("6/2").with_turn(Side.DARK).apply_unchecked("24/23")
    assert after.bar[Side.LIGHT] == 1


def _blot_on_light_22() -> Position:
    start = Position.start()
    dark = list(start.dark)
    dark[18] -= 1  # one checker from dark's 6-point (physical 19) ...
    dark[21] += 1  # ... to dark's 3-point, light's 22
    return Position.from_physical(start.light, dark)


def test_written_stops_decide_the_hit_without_marks() -> None:
    pos = _blot_on_light_22()
    # Galaxy writes every step and never marks hits: stopping on 22 is hitting there.
    hit = pos.parse_play("24/22 22/18", (4, 2), marks_hits=False)
    assert hit.result.bar[Side.DARK] == 1
    # A combined move through a blot, unmarked, is ambiguous where files do not mark hits ...
    with pytest.raises(AmbiguousPlayError):
        pos.parse_play("24/18", (4, 2), marks_hits=False)
    # ... and means "no hit" where they do (XG writes 24/22*/18 for the hit).
    assert pos.parse_play("24/18", (4, 2)).result.bar[Side.DARK] == 0
    assert pos.parse_play("24/22*/18", (4, 2)).result.bar[Side.DARK] == 1


def test_spelled_out_play_agrees_with_the_generator() -> None:
    from tests.oracles.gnubg_turns import gnubg_nn_or_none, random_turns, to_position

    if gnubg_nn_or_none() is None:
        pytest.skip("gnubg-nn not installed: needs its random turns")
    for board, d1, d2 in random_turns(300, seed=5):
        pos = to_position(board)
        for lp in pos.legal_plays((d1, d2)):
            for way in lp.ways()[:2]:
                assert pos.parse_play(way, (d1, d2)).result == lp.result
