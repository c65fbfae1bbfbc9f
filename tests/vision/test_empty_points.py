"""A point seen empty on the starting board is remembered: a slot that still looks like that is empty, so the
drawing of an empty white point (its base between two dark frames) is not read as white checkers when the
camera's noise sharpens its corners. Checkers later put on such points are still counted."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.pipeline import board_event
from vision.reader import BoardReader, ring_only
from vision.render import Options, Scene, render
from vision.synthetic import random_options

# From a rendered real match (corpus match6050379, game 2): light bearing off, point 7 an empty white point
# beside the bar; one noisy frame in sixty read two light checkers there and the game went astray (seed 21).
# Since the renderer draws its camera noise from a table of the normal's quantiles (vision/render.py `gaussian`),
# seed 21 no longer shows it in 60 frames; seed 143 does, on a navy board: without the remembered empty points,
# the empty white point 11 is read as two light checkers in 26 of the 60 frames.
LIGHT = [0, 3, 3] + [0] * 14 + [1] + [0] * 6
DARK = [0] * 15 + [1, 0, 0, 2, 0, 2, 4, 3, 3]
SEED = 143


def test_empty_points_learnt_from_the_start_stay_empty_under_noise() -> None:
    opts = replace(random_options(np.random.default_rng([SEED, 7]), (640, 360)), dice=False)
    start, corners = render(Scene.start(), SEED, opts)
    image = render(Scene(LIGHT, DARK, {"light": 0, "dark": 0}, {"light": 8, "dark": 0}), SEED, opts)[0]
    # the ring score alone: the slot judge (vision/slots.py) also tells this empty point from checkers, so the
    # memory is checked without it, where the regression showed
    reader = ring_only()
    judged = BoardReader()
    reader.learn_start(start, corners)
    assert reader.colours is not None and reader.colours.empty and len(reader.colours.empty) == 16
    rng = np.random.default_rng(0)
    wrong_with = wrong_without = wrong_judged = 0
    for _ in range(60):
        frame = np.clip(image + rng.normal(0, 1.5, image.shape), 0, 255).astype(np.uint8)
        canonical = reader.canonical(frame, corners)
        ev = board_event(reader.detector.read(canonical, reader.colours), "br")
        wrong_with += (ev["light"], ev["dark"]) != (LIGHT, DARK)
        bare = replace(reader.colours, empty=None)
        ev = board_event(reader.detector.read(canonical, bare), "br")
        wrong_without += (ev["light"], ev["dark"]) != (LIGHT, DARK)
        ev = board_event(judged.detector.read(judged.canonical(frame, corners), bare), "br")
        wrong_judged += (ev["light"], ev["dark"]) != (LIGHT, DARK)
    assert wrong_with == 0  # light's checkers on points 2 and 3 (empty at the start) are counted every time
    assert wrong_without >= 1  # what it was before: the regression this guards
    assert wrong_judged == 0  # the judge without the memory (issue 33: a board not seen at the start)


@pytest.mark.parametrize("field", ["wood", "felt_green", "felt_grey", "leather_cream", "leather_navy"])
@pytest.mark.parametrize("checkers", ["red_white", "black_white", "acrylic"])
def test_checkers_put_on_points_empty_at_the_start_are_counted(field: str, checkers: str) -> None:
    """Remembering the empty points must not hide a checker put there later, black on a black point included:
    one or two checkers on each of the 16 points empty at the start, on every board style."""
    opts = Options(size=(640, 360), field=field, checkers=checkers, dice=False)
    start, corners = render(Scene.start(), 8, opts)
    reader = BoardReader()
    reader.learn_start(start, corners)
    empty_at_start = [p for p in range(1, 25) if Scene.start().light[p - 1] + Scene.start().dark[p - 1] == 0]
    light, dark = [0] * 24, [0] * 24
    for i, p in enumerate(empty_at_start):
        (light if i % 2 else dark)[p - 1] = 1 + i % 3 // 2
    image = render(Scene(light, dark, {"light": 0, "dark": 0},
                         {"light": 15 - sum(light), "dark": 15 - sum(dark)}), 8, opts)[0]
    ev = board_event(reader.read(image, corners), "br")
    assert (ev["light"], ev["dark"]) == (light, dark)
