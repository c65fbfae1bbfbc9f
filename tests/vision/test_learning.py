"""Learning a board at set-up (issue 33, vision/learning.py): from the starting position the two checker sets and
the points empty at the start, from the empty board every point's empty look; the pipeline reads with it for the
whole match. How sure a reading is, point by point, for the calibration page."""

from __future__ import annotations

import numpy as np
import pytest

from vision.config import load_config
from vision.learning import BoardLearning, LearnError, hex_of_lab, level, sureness
from vision.pipeline import Pipeline, board_event
from vision.render import Options, Scene, render
from vision.synthetic import random_scene

# A dim room (the sensor's noise at 25) over a navy leather board: learnt from the start alone, three empty points
# of a mid-game position read phantom checkers; learnt from the empty board too, none (seed 4, measured).
SEED = 4
OPTS = Options(size=(960, 540), field="leather_navy", checkers="red_white", dice=False, hand=False, noise=25.0)
EMPTY = Scene([0] * 24, [0] * 24)


def _pipeline(*shown: Scene) -> tuple[Pipeline, BoardLearning, np.ndarray]:
    corners = render(Scene.start(), SEED, OPTS)[1]
    # the ring score alone: the slot judge (vision/slots.py) also keeps these phantoms off without the learning,
    # so what the learning itself does is measured without it
    pipeline = Pipeline(load_config().with_detect(slot_model=False), corners=corners)
    learning = BoardLearning(pipeline.light_home)
    for scene in shown:
        image = render(scene, SEED, OPTS)[0]
        learning.learn(pipeline, pipeline.reader.canonical(image, corners), "start" if any(scene.light) else "empty")
    return pipeline, learning, corners


def _wrong_points(pipeline: Pipeline, corners: np.ndarray, scene: Scene) -> list[int]:
    image = render(scene, SEED, OPTS)[0]
    ev = board_event(pipeline.reader.detector.read(pipeline.reader.canonical(image, corners), pipeline.reader.colours),
                     pipeline.light_home)
    return [i + 1 for i in range(24) if (ev["light"][i], ev["dark"][i]) != (scene.light[i], scene.dark[i])]


def test_the_empty_board_learnt_keeps_phantoms_off_every_point() -> None:
    game = random_scene(np.random.default_rng(SEED))
    pipeline, learning, corners = _pipeline(Scene.start())
    assert learning.sources == ["start"] and pipeline.reader.colours is not None
    assert len(pipeline.reader.colours.empty or {}) == 16  # the points empty at the start
    before = _wrong_points(pipeline, corners, game)
    pipeline, learning, corners = _pipeline(Scene.start(), EMPTY)
    assert learning.sources == ["start", "empty"]
    colours = pipeline.reader.colours
    assert colours is not None and colours.light is not None and colours.dark is not None
    assert len(colours.empty or {}) == 24
    after = _wrong_points(pipeline, corners, game)
    assert len(before) == 3 and after == []


def test_the_empty_board_first_then_the_start_keeps_both() -> None:
    pipeline, learning, _ = _pipeline(EMPTY, Scene.start())
    colours = pipeline.reader.colours
    assert learning.sources == ["empty", "start"]
    assert colours is not None and colours.light is not None and len(colours.empty or {}) == 24


def test_the_wrong_board_shown_is_refused_in_words() -> None:
    """In a good light the start is not taken for the empty board, nor the empty board for the start (in a dim
    room the empty board is taken on the owner's word: its phantoms are what learning it is for)."""
    opts = Options(**{**OPTS.__dict__, "noise": 4.0})
    corners = render(Scene.start(), SEED, opts)[1]
    pipeline = Pipeline(corners=corners)
    learning = BoardLearning(pipeline.light_home)
    start = pipeline.reader.canonical(render(Scene.start(), SEED, opts)[0], corners)
    empty = pipeline.reader.canonical(render(EMPTY, SEED, opts)[0], corners)
    with pytest.raises(LearnError) as err:
        learning.learn(pipeline, start, "empty")
    assert err.value.message["pt"].startswith("O tabuleiro não está vazio")
    with pytest.raises(LearnError) as err:
        learning.learn(pipeline, empty, "start")
    assert err.value.message["en"].startswith("The board is not at the starting position")
    with pytest.raises(LearnError):
        learning.learn(pipeline, empty, "middle")
    assert pipeline.reader.colours is None and learning.sources == []


def test_the_summary_says_what_was_learnt_point_by_point() -> None:
    pipeline, learning, corners = _pipeline(Scene.start(), EMPTY)
    image = render(Scene.start(), SEED, OPTS)[0]
    ev = board_event(pipeline.reader.detector.read(pipeline.reader.canonical(image, corners), pipeline.reader.colours),
                     pipeline.light_home)
    summary = learning.summary(pipeline, ev)
    assert summary["from"] == ["start", "empty"]
    light, dark = summary["light"], summary["dark"]
    assert light.startswith("#") and dark.startswith("#") and int(light[1:3], 16) > int(dark[1:3], 16) - 60
    assert [p["point"] for p in summary["points"]] == list(range(1, 25))
    assert all(p["empty"] and p["empty"].startswith("#") for p in summary["points"])
    assert all(p["level"] in ("sure", "doubt", "unsure") for p in summary["points"])


def test_sureness_is_the_probability_of_the_count_read() -> None:
    light, dark = [0] * 24, [0] * 24
    light[5], dark[11] = 5, 2
    unc_light: list[dict[str, float]] = [{} for _ in range(24)]
    unc_dark: list[dict[str, float]] = [{} for _ in range(24)]
    unc_light[5] = {"5": 0.7, "4": 0.3}
    unc_dark[11] = {"2": 0.95, "1": 0.05}
    unc_light[2], unc_dark[2] = {"0": 0.5, "1": 0.5}, {"0": 0.4, "1": 0.6}
    ev = {"light": light, "dark": dark, "uncertainty": {"light": unc_light, "dark": unc_dark},
          "covered": [{"point": 10, "by": "object"}]}
    sure = sureness(ev)
    assert sure[5] == 0.7 and sure[11] == 0.95 and sure[2] == 0.4 and sure[9] == 0.0 and sure[0] == 1.0
    assert [level(p) for p in (sure[5], sure[11], sure[2])] == ["doubt", "sure", "unsure"]
    assert sureness({"light": light, "dark": dark}) == [1.0] * 24  # no tables: every count taken as seen


def test_lab_prototypes_as_hex() -> None:
    assert hex_of_lab(None) is None
    assert hex_of_lab(np.array([255.0, 0.0, 0.0], np.float32)) == "#ffffff"
    assert hex_of_lab(np.array([0.0, 0.0, 0.0], np.float32)) == "#000000"
