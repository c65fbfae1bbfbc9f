"""Variants sit beside the standard game as subclasses: start positions and routes (R30-R32)."""

from __future__ import annotations

import pytest

from core import Position, Side
from core.rules.variants import (
    VARIANTS,
    JacquetPosition,
    PlakotoPosition,
    RussianPosition,
    variant,
)


def test_registry_finds_variants_by_name() -> None:
    assert set(VARIANTS) == {"standard", "nackgammon", "plakoto", "russian", "jacquet"}
    assert variant("Plakoto") is PlakotoPosition
    assert variant("backgammon") is Position
    with pytest.raises(ValueError, match="unknown variant 'nard': choose one of standard, nackgammon, plakoto, russian, jacquet"):
        variant("nard")


def test_r30_plakoto_start_all_on_own_24_point() -> None:
    pos = PlakotoPosition.start()
    assert pos.light[23] == 15  # light's 24-point is physical 24
    assert pos.dark[0] == 15  # dark's 24-point (red on white's casa 1) is physical 1
    assert pos.capture == "pin"
    assert pos.physical_point(Side.DARK, 1) == 24


def test_r31_russian_all_off_the_board_same_route() -> None:
    pos = RussianPosition.start()
    assert pos.bar == {Side.LIGHT: 0, Side.DARK: 0}
    assert pos.waiting(Side.LIGHT) == pos.waiting(Side.DARK) == 15
    assert sum(pos.light) == sum(pos.dark) == 0
    assert pos.routes[Side.LIGHT] == pos.routes[Side.DARK]
    # Same direction: each side's own point n is the same physical point.
    assert all(pos.physical_point(Side.LIGHT, n) == pos.physical_point(Side.DARK, n) for n in range(1, 25))
    assert RussianPosition._cross(Side.LIGHT)[5] == 5


def test_r32_jacquet_start_and_anticlockwise_routes() -> None:
    pos = JacquetPosition.start()
    assert pos.dark[0] == 15  # red on white's casa 1
    assert pos.light[12] == 15  # white on red's casa 12 = physical 13
    assert pos.routes[Side.LIGHT][0] == 13 and pos.routes[Side.LIGHT][-1] == 12
    # White bears off from white's casa 12 (physical 12): its last quarter is physical 7-12.
    assert [pos.physical_point(Side.LIGHT, n) for n in range(1, 7)] == [12, 11, 10, 9, 8, 7]
    # Red's last quarter is red's casas 6..1 = physical 19..24.
    assert [pos.physical_point(Side.DARK, n) for n in range(1, 7)] == [24, 23, 22, 21, 20, 19]
    assert pos.block_at == 1 and pos.capture is None


def test_every_route_visits_each_point_once() -> None:
    for cls in VARIANTS.values():
        for side in Side:
            assert sorted(cls.routes[side]) == list(range(1, 25))
        assert cls.start() == cls.start()
        assert sum(cls.start().own(Side.LIGHT)) == (0 if cls is RussianPosition else 15)
