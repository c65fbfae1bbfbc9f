"""Learning the board at set-up (issue 33, vision/learning.py): columns and whole boards read right before and
after, on synthetic boards in three lights.

    .venv/bin/python bench/bench_vision_learning.py [--boards 15] [--positions 3] [--json]

For each board (a seed: its field, checkers and camera) and light (the sensor's noise 4, 18 and 25: a good
light, a dim room, a dark one), mid-game positions are read by a pipeline that learnt the board
- before: as today, by itself from the start, when it reads the start exactly (a few frames of it);
- after: from the empty board and the start, as the owner shows them on the calibration page.
Prints per light and in all: columns right, whole boards right, and phantom checkers on empty points.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.learning import BoardLearning, LearnError  # noqa: E402
from vision.pipeline import Pipeline, board_event  # noqa: E402
from vision.render import FIELDS, Options, Scene, render  # noqa: E402
from vision.synthetic import random_scene  # noqa: E402

LIGHTS = {"good (noise 4)": (4.0, 0.25), "dim (noise 18)": (18.0, 0.3), "dark (noise 25)": (25.0, 0.3)}
MODES = ("before", "after")


def run(boards: int, positions: int) -> dict[str, dict[str, dict[str, int]]]:
    out: dict[str, dict[str, dict[str, int]]] = {}
    for light, (noise, gradient) in LIGHTS.items():
        score = {m: {"columns": 0, "columns_right": 0, "boards": 0, "boards_right": 0, "phantoms": 0, "refused": 0}
                 for m in MODES}
        for seed in range(boards):
            rng = np.random.default_rng([seed, 99])
            opts = Options(size=(960, 540), field=list(FIELDS)[seed % len(FIELDS)], dice=False, hand=False,
                           noise=noise, gradient=gradient)
            start, corners = render(Scene.start(), seed, opts)
            empty = render(Scene([0] * 24, [0] * 24), seed, opts)[0]
            scenes = [random_scene(rng) for _ in range(positions)]
            images = [render(s, seed, opts)[0] for s in scenes]
            for mode in MODES:
                s = score[mode]
                pipeline = Pipeline(corners=corners)
                if mode == "before":
                    for k in range(6):
                        pipeline.process(start, 0.2 * k)
                else:
                    learning = BoardLearning(pipeline.light_home)
                    try:
                        learning.learn(pipeline, pipeline.reader.canonical(empty, corners), "empty")
                        learning.learn(pipeline, pipeline.reader.canonical(start, corners), "start")
                    except LearnError:
                        s["refused"] += 1
                for scene, image in zip(scenes, images, strict=True):
                    canonical = pipeline.reader.canonical(image, corners)
                    ev = board_event(pipeline.reader.detector.read(canonical, pipeline.reader.colours),
                                     pipeline.light_home)
                    right = [ev["light"][i] == scene.light[i] and ev["dark"][i] == scene.dark[i] for i in range(24)]
                    s["columns"] += 24
                    s["columns_right"] += sum(right)
                    s["boards"] += 1
                    s["boards_right"] += all(right)
                    s["phantoms"] += sum(ev["light"][i] + ev["dark"][i] for i in range(24)
                                         if not scene.light[i] and not scene.dark[i])
        out[light] = score
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--boards", type=int, default=15)
    parser.add_argument("--positions", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = run(args.boards, args.positions)
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
