"""Issue 33: boards the detector was not tuned on (rendered kinds of vision.synthetic.KINDS), objects standing on
points, and the slot judge that reads them (vision/slots.py). Larger figures: bench/bench_vision_generality.py."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace

import cv2
import numpy as np
import pytest

from core.messages import COVER_WORDS
from vision.geometry import columns_to_points
from vision.pipeline import board_event
from vision.reader import BoardReader, ring_only
from vision.render import KIND_CHECKERS, KIND_FIELDS, OBJECTS, Options, Scene, render
from vision.slots import (
    KIND_CLASSES,
    KIND_MODEL,
    MODEL,
    OBJECT_KINDS,
    SlotModel,
    default_kind_model,
    default_model,
)
from vision.synthetic import KINDS, kind_case
from vision.train_slots import train


def exact_points(reader: BoardReader, scene: Scene, o: Options, seed: int) -> int:
    image, corners = render(scene, seed, o)
    ev = board_event(reader.read(image, corners), o.light_home)
    return sum((ev["light"][i], ev["dark"][i]) == (scene.light[i], scene.dark[i]) for i in range(24))


MODEL_FEATURES = 194  # the judge's features (vision/slots.py SlotFeatures), which the kinds' model reads too


def test_the_shipped_judge_is_small_and_loads() -> None:
    assert MODEL.is_file() and MODEL.stat().st_size < 100_000
    model = default_model()
    assert model is not None and model.w2.shape[1] == 3


@pytest.mark.parametrize("kind", ["cork", "mosaic"])
def test_textured_fields_are_not_read_as_checkers(kind: str) -> None:
    """Cork's granules and mosaic tiles made rings on empty points (the phantoms of issue 33): with the judge
    the same renders are read nearly right, without it far from it."""
    judged, ring = BoardReader(), ring_only()
    with_judge = without = 0
    for s in range(3):
        scene, o = kind_case(kind, s)
        with_judge += exact_points(judged, scene, o, 1000 + s)
        without += exact_points(ring, scene, o, 1000 + s)
    assert with_judge >= 66, (with_judge, without)  # of 72 (measured 70 and 69 here)
    assert without <= 52, (with_judge, without)  # measured 42 and 25: what it was


def dice_cup_scene() -> tuple[Scene, Options, int]:
    scene = Scene.start()
    light, dark = list(scene.light), list(scene.dark)
    light[12], light[7] = 3, 5  # 13: 3, 8: 5; point 10 empty, a dice cup standing on it
    scene = Scene(light, dark, off={"light": 0, "dark": 0})
    o = Options(size=(640, 360), field="wood", checkers="black_white", objects=(("cup", 10, 0.2),))
    return scene, o, 7


def test_a_dice_cup_on_an_empty_point_is_no_checker_and_covers_it() -> None:
    scene, o, seed = dice_cup_scene()
    image, corners = render(scene, seed, o)
    ev = board_event(BoardReader().read(image, corners), o.light_home)
    assert ev["covered"] == [{"point": 10, "by": "cup"}]  # the kinds' model names it
    assert ev["light"][9] == ev["dark"][9] == 0
    assert ev["uncertainty"]["light"][9] == ev["uncertainty"]["dark"][9] == {}
    assert (ev["light"], ev["dark"]) == (scene.light, scene.dark)
    assert "covered" not in board_event(ring_only().read(image, corners), o.light_home)  # no judge, no objects
    unnamed = BoardReader(replace(BoardReader().cfg, detect=replace(BoardReader().cfg.detect, kind_model=False)))
    assert board_event(unnamed.read(image, corners), o.light_home)["covered"] == [{"point": 10, "by": "object"}]


@pytest.mark.parametrize(("kind", "point", "slot"), [("die", 11, 0.5), ("die", 10, 1.5), ("cube", 10, 1.5),
                                                     ("cube", 13, 3.3)])
def test_a_lone_die_or_the_cube_covers_its_point_and_is_never_counted(kind: str, point: int, slot: float) -> None:
    """A die or the cube alone on an empty point, or just beyond a stack (13: three light checkers), is named
    and covers the point; the counts are the checkers beside it. Figures over many renders and the real photos'
    dice: bench/bench_vision_generality.py (a die whose outline makes a clear ring is still counted as a checker,
    as before)."""
    scene, o, seed = dice_cup_scene()
    o = replace(o, objects=((kind, point, slot),))
    image, corners = render(scene, seed, o)
    ev = board_event(BoardReader().read(image, corners), o.light_home)
    assert ev["covered"] == [{"point": point, "by": kind}]
    assert (ev["light"], ev["dark"]) == (scene.light, scene.dark)


def test_the_kinds_model_is_small_and_knows_the_renderer_s_objects() -> None:
    assert KIND_MODEL.is_file() and KIND_MODEL.stat().st_size < 100_000
    kinds = default_kind_model()
    assert kinds is not None and kinds.w2.shape[1] == len(KIND_CLASSES) and kinds.w1.shape[0] == MODEL_FEATURES
    assert set(OBJECT_KINDS) == set(OBJECTS) and set(OBJECT_KINDS) <= set(COVER_WORDS)  # each has its words


def test_nothing_covered_means_no_covered_key() -> None:
    image, corners = render(Scene.start(), 3, Options(size=(640, 360)))
    assert "covered" not in board_event(BoardReader().read(image, corners), "br")


def test_cli_detect_json_says_what_covers_a_column(tmp_path) -> None:
    scene, o, seed = dice_cup_scene()
    image, corners = render(scene, seed, o)
    path = tmp_path / "cup.png"
    cv2.imwrite(str(path), image)
    arg = ";".join(f"{x:.1f},{y:.1f}" for x, y in corners)
    out = subprocess.run([sys.executable, "-m", "cli", "detect", str(path), "--corners", arg, "--json"],
                         capture_output=True, text=True, check=True)
    data = json.loads(out.stdout)
    assert set(data) == {"top", "bottom", "bar", "covered", "ms"}
    top, bottom = columns_to_points(o.light_home)
    row, j = ("top", top.index(10)) if 10 in top else ("bottom", bottom.index(10))
    assert data["covered"][row][j] == "cup"
    assert sum(c is not None for r in ("top", "bottom") for c in data["covered"][r]) == 1
    assert data[row][j] == {"light": 0, "dark": 0}


def test_every_kind_renders_deterministically() -> None:
    assert set(KINDS) >= {"cork", "painted", "mosaic", "inlay", "felt", "leather", "wood_on_wood", "glossy_brown",
                          "translucent", "pearl", "cups", "small", "keystone"}
    for kind in KINDS:
        scene, o = kind_case(kind, 1)
        a, ca = render(scene, 5, o)
        b, cb = render(scene, 5, o)
        assert np.array_equal(a, b) and np.array_equal(ca, cb), kind
    for f in KIND_FIELDS:
        for c in KIND_CHECKERS:
            render(Scene.start(), 2, Options(size=(320, 240), field=f, checkers=c))
    for kind in OBJECTS:
        render(Scene.start(), 2, Options(size=(320, 240), objects=((kind, 10, 0.0),)))
    with pytest.raises(ValueError, match="unknown object"):
        render(Scene.start(), 2, Options(size=(320, 240), objects=(("teapot", 10, 0.0),)))


def test_objects_and_keystone_leave_a_seed_s_board_as_it_was() -> None:
    """Options added for issue 33 draw nothing when unused: a seed's picture is what it was."""
    scene = Scene.start()
    plain, _ = render(scene, 11, Options(size=(320, 240)))
    again, _ = render(scene, 11, Options(size=(320, 240), objects=(), keystone=0.0))
    assert np.array_equal(plain, again)


def test_training_is_reproducible() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(0, 1, (600, 8)).astype(np.float32)
    y = (x[:, 0] > 0).astype(np.int64) + (x[:, 1] > 1.5)
    a, b = train(x, y, hidden=4, epochs=2), train(x, y, hidden=4, epochs=2)
    assert all(np.array_equal(getattr(a, k), getattr(b, k)) for k in ("w1", "b1", "w2", "b2"))
    assert isinstance(a, SlotModel) and a.predict(x).shape == (600, 3)
