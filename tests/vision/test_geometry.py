"""Board geometry, corner parsing and the corner -> physical point mapping (docs/CONTRACTS.md numbering)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from vision.config import load_config
from vision.geometry import BoardLayout, CornersError, columns_to_points, parse_corners


def test_light_home_bottom_right_numbers_points_as_light_counts() -> None:
    top, bottom = columns_to_points("br")
    assert bottom == list(range(12, 0, -1))  # point 1 in the bottom-right corner
    assert top == list(range(13, 25))


@pytest.mark.parametrize("home", ["tl", "tr", "br", "bl"])
def test_every_home_corner_holds_points_1_to_6_and_all_24_once(home: str) -> None:
    top, bottom = columns_to_points(home)
    assert sorted(top + bottom) == list(range(1, 25))
    row = {"t": top, "b": bottom}[home[0]]
    corner = row[-6:] if home[1] == "r" else row[:6]
    assert sorted(corner) == [1, 2, 3, 4, 5, 6]


def test_unknown_home_corner_is_refused() -> None:
    with pytest.raises(ValueError, match='light_home must be one of tl, tr, br, bl, not "middle"'):
        columns_to_points("middle")


def test_corners_parse_and_errors() -> None:
    assert parse_corners("0,0;100,0;100,90;0,90").shape == (4, 2)
    with pytest.raises(CornersError, match='expected 4 corners, got 2 in "1,2;3,4"'):
        parse_corners("1,2;3,4")
    with pytest.raises(CornersError, match='cannot read corners "a,b"'):
        parse_corners("a,b")
    with pytest.raises(CornersError, match="do not form a convex board"):
        parse_corners("0,0;100,100;100,0;0,100")


def test_layout_columns_leave_room_for_the_bar() -> None:
    lay = BoardLayout.from_config(load_config().geometry)
    assert lay.column_x(6) - lay.column_x(5) == pytest.approx(lay.checker + lay.bar)
    assert lay.column_x(5) < lay.bar_x < lay.column_x(6)
    h = lay.homography(np.array([[10, 10], [110, 12], [112, 100], [8, 98]], np.float32))
    assert h.shape == (3, 3)


def test_config_refuses_unknown_settings(tmp_path) -> None:
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"detect": {"disc_treshold": 0.4}}))
    with pytest.raises(ValueError, match=r"unknown setting\(s\) \['disc_treshold'\]"):
        load_config(path)


def test_bar_width_estimate_for_boards_with_unusual_bars() -> None:
    """geometry.auto_bar: a board's bar width read from where the point tips stand."""
    from vision.calibrate import estimate_bar_ratio
    from vision.reader import BoardReader
    from vision.render import Options, Scene, render

    reader = BoardReader()
    for bar in (0.4, 0.8, 1.2):
        image, corners = render(Scene.start(), 1, Options(size=(960, 540), bar_to_checker=bar))
        est = estimate_bar_ratio(reader.base.warp(image, corners), reader.base, reader.cfg.geometry)
        assert abs(est - bar) <= 0.12, (bar, est)
