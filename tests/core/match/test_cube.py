"""The doubling cube: R12 (double, take, drop, owner redoubles, cap), R17 beavers, R18 raccoons."""

from __future__ import annotations

import pytest

from core.match.cube import Cube, CubeError, CubeSettings
from core.rules.position import Side

L, D = Side.LIGHT, Side.DARK


def test_r12_cube_starts_centred_at_one() -> None:
    cube = Cube()
    assert (cube.value, cube.owner, cube.centred, cube.turned) == (1, None, True, False)
    assert cube.why_not_double(L) is None and cube.why_not_double(D) is None


def test_r12_take_gives_the_cube_to_the_taker_at_twice_the_value() -> None:
    cube = Cube()
    assert cube.double(L) == 2
    assert cube.offered_by is L and cube.stage == "double"
    cube.take(D)
    assert (cube.value, cube.owner, cube.offered_by, cube.turned) == (2, D, None, True)


def test_r12_drop_loses_the_value_before_the_double() -> None:
    cube = Cube()
    cube.double(L)
    cube.take(D)
    cube.double(D)
    assert cube.drop(L) == (D, 2)
    assert cube.why_not_double(D) == "the game is over: a double was dropped"


def test_r12_only_the_owner_redoubles() -> None:
    cube = Cube()
    cube.double(L)
    cube.take(D)
    assert cube.why_not_double(L) == "only the owner of the cube (dark) may redouble (R12)"
    with pytest.raises(CubeError, match=r"^light cannot double: only the owner of the cube \(dark\) may redouble \(R12\)$"):
        cube.double(L)
    assert cube.double(D) == 4
    cube.take(L)
    assert (cube.value, cube.owner) == (4, L)


def test_r12_no_second_double_while_one_awaits_an_answer() -> None:
    cube = Cube()
    cube.double(L)
    assert cube.why_not_double(L) == "a double to 2 by light awaits an answer"


def test_r12_the_doubler_cannot_answer_their_own_double() -> None:
    cube = Cube()
    cube.double(L)
    with pytest.raises(CubeError, match="^light cannot take their own double$"):
        cube.take(L)


def test_r12_take_without_a_double_is_refused() -> None:
    with pytest.raises(CubeError, match="^dark cannot take: no double is offered$"):
        Cube().take(D)


def _redoubled(cube: Cube, times: int) -> Side:
    """Double and take `times` times, light doubling first, each owner redoubling in turn; returns the owner."""
    side = L
    for _ in range(times):
        cube.double(side)
        cube.take(side.other)
        side = side.other
    return side


def test_r12_no_cap_by_default() -> None:
    cube = Cube()
    _redoubled(cube, 10)
    assert cube.value == 1024


def test_r12_cap_of_64_setting() -> None:
    cube = Cube(CubeSettings(cap=64))
    side = _redoubled(cube, 6)
    assert cube.value == 64
    assert cube.why_not_double(side) == "the cube is at its cap of 64 (R12)"


def test_r12_cap_must_be_a_power_of_two() -> None:
    with pytest.raises(ValueError, match="power of two"):
        CubeSettings(cap=48)


def test_r17_beaver_keeps_the_cube_with_the_taker_at_four() -> None:
    cube = Cube(CubeSettings(beavers=True))
    cube.double(L)
    assert cube.beaver(D) == 4
    assert (cube.value, cube.owner, cube.offered_by, cube.stage) == (2, D, D, "beaver")
    cube.take(L)
    assert (cube.value, cube.owner) == (4, D)


def test_r17_dropping_a_beaver_loses_the_doubled_value() -> None:
    cube = Cube(CubeSettings(beavers=True))
    cube.double(L)
    cube.beaver(D)
    assert cube.drop(L) == (D, 2)


def test_r17_beaver_refused_when_not_allowed() -> None:
    cube = Cube()
    cube.double(L)
    with pytest.raises(CubeError, match=r"^dark cannot beaver: beavers are not allowed \(money play setting, R17\)$"):
        cube.beaver(D)


def test_r18_raccoon_redoubles_and_the_cube_stays_with_the_beaver_side() -> None:
    cube = Cube(CubeSettings(beavers=True, raccoons=True))
    cube.double(L)
    cube.beaver(D)
    assert cube.raccoon(L) == 8
    cube.take(D)
    assert (cube.value, cube.owner) == (8, D)


def test_r18_raccoon_only_answers_a_beaver() -> None:
    cube = Cube(CubeSettings(beavers=True, raccoons=True))
    cube.double(L)
    with pytest.raises(CubeError, match=r"a raccoon answers a beaver \(R18\)"):
        cube.raccoon(D)


def test_r18_raccoons_need_beavers() -> None:
    with pytest.raises(ValueError, match=r"allow beavers too \(R18\)"):
        CubeSettings(raccoons=True)
