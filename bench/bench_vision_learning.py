"""Learning the board at set-up (issue 33, vision/learning.py): columns and whole boards read right before and
after, on synthetic boards in three lights.

    .venv/bin/python bench/bench_vision_learning.py [--boards 15] [--positions 3] [--json]
    .venv/bin/python bench/bench_vision_learning.py --kinds [--boards 8]     # the issue's board kinds

For each board (a seed: its field, checkers and camera) and light (the sensor's noise 4, 18 and 25: a good
light, a dim room, a dark one), mid-game positions are read by a pipeline that learnt the board
- before: as today, by itself from the start, when it reads the start exactly (a few frames of it);
- after: from the empty board and the start, as the owner shows them on the calibration page.
Prints per light and in all: columns right, whole boards right, and phantom checkers on empty points.
``--kinds``: the same on the board kinds of issue 33 (vision.synthetic.KINDS: cork, painted, mosaic, inlay, felt,
leather, wood on wood, glossy, translucent, pearl, small pictures, keystone; one mid-game position per seed,
``kind_case``), the start and the empty board shown with the same board and camera.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.learning import BoardLearning, LearnError  # noqa: E402
from vision.pipeline import Pipeline, board_event  # noqa: E402
from vision.render import FIELDS, Options, Scene, render  # noqa: E402
from vision.synthetic import KINDS, kind_case, random_scene  # noqa: E402

LIGHTS = {"good (noise 4)": (4.0, 0.25), "dim (noise 18)": (18.0, 0.3), "dark (noise 25)": (25.0, 0.3)}
MODES = ("before", "after")


def run(boards: int, positions: int) -> dict[str, dict[str, dict[str, int]]]:
    out: dict[str, dict[str, dict[str, int]]] = {}
    for light, (noise, gradient) in LIGHTS.items():
        score = _scores()
        for seed in range(boards):
            rng = np.random.default_rng([seed, 99])
            opts = Options(size=(960, 540), field=list(FIELDS)[seed % len(FIELDS)], dice=False, hand=False,
                           noise=noise, gradient=gradient)
            start, corners = render(Scene.start(), seed, opts)
            empty = render(Scene([0] * 24, [0] * 24), seed, opts)[0]
            scenes = [random_scene(rng) for _ in range(positions)]
            images = [render(s, seed, opts)[0] for s in scenes]
            for mode in MODES:
                pipeline, refused = _learnt(mode, start, empty, corners)
                score[mode]["refused"] += refused
                for scene, image in zip(scenes, images, strict=True):
                    _tally(score[mode], pipeline, scene, image, corners)
        out[light] = score
    return out


def _scores() -> dict[str, dict[str, int]]:
    return {m: {"columns": 0, "columns_right": 0, "boards": 0, "boards_right": 0, "phantoms": 0, "refused": 0}
            for m in MODES}


def _learnt(mode: str, start: np.ndarray, empty: np.ndarray, corners: np.ndarray) -> tuple[Pipeline, bool]:
    """A pipeline that learnt the board as ``mode`` says; and whether the learning was refused."""
    pipeline = Pipeline(corners=corners)
    if mode == "before":
        for k in range(6):
            pipeline.process(start, 0.2 * k)
        return pipeline, False
    learning = BoardLearning(pipeline.light_home)
    try:
        learning.learn(pipeline, pipeline.reader.canonical(empty, corners), "empty")
        learning.learn(pipeline, pipeline.reader.canonical(start, corners), "start")
    except LearnError:
        return pipeline, True
    return pipeline, False


def _tally(s: dict[str, int], pipeline: Pipeline, scene: Scene, image: np.ndarray, corners: np.ndarray) -> None:
    """One board read by the pipeline, counted in `s`: its columns (right), the board (right), phantom checkers."""
    canonical = pipeline.reader.canonical(image, corners)
    ev = board_event(pipeline.reader.detector.read(canonical, pipeline.reader.colours), pipeline.light_home)
    right = [ev["light"][i] == scene.light[i] and ev["dark"][i] == scene.dark[i] for i in range(24)]
    s["columns"] += 24
    s["columns_right"] += sum(right)
    s["boards"] += 1
    s["boards_right"] += all(right)
    s["phantoms"] += sum(ev["light"][i] + ev["dark"][i] for i in range(24) if not scene.light[i] and not scene.dark[i])


def run_kinds(boards: int) -> dict[str, dict[str, dict[str, int]]]:
    out: dict[str, dict[str, dict[str, int]]] = {}
    for kind, (_, _, extra) in KINDS.items():
        if extra == "objects":
            continue  # objects on the field are the covered points' business, not learning's
        score = _scores()
        for seed in range(boards):
            scene, opts = kind_case(kind, seed)
            setup = replace(opts, objects=(), hand=False)
            start, corners = render(Scene.start(), seed, setup)
            empty = render(Scene([0] * 24, [0] * 24), seed, setup)[0]
            image = render(scene, seed, replace(opts, hand=False))[0]
            for mode in MODES:
                pipeline, refused = _learnt(mode, start, empty, corners)
                score[mode]["refused"] += refused
                _tally(score[mode], pipeline, scene, image, corners)
        out[kind] = score
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--boards", type=int, default=15)
    parser.add_argument("--positions", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--kinds", action="store_true", help="the board kinds of issue 33 instead of the lights")
    args = parser.parse_args()
    result = run_kinds(args.boards) if args.kinds else run(args.boards, args.positions)
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    for light, score in result.items():
        for mode in MODES:
            s = score[mode]
            print(f"{light:16} {mode:6}: columns {s['columns_right']}/{s['columns']}"
                  f" ({100 * s['columns_right'] / s['columns']:.2f}%), boards {s['boards_right']}/{s['boards']},"
                  f" phantoms on empty points {s['phantoms']}" + (f", refused {s['refused']}" if s["refused"] else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
