"""Vision speed on one core: ms per 1280x720 frame for registration + counting, and for the whole pipeline
(registration, warp, stillness, counting). Optionally a larger synthetic accuracy run.

    .venv/bin/python bench/bench_vision.py [--frames 200] [--accuracy 5000] [--hands 100] [--stacks 30]
        [--vs DIR] [--stages]

--vs DIR times another checkout's code (e.g. `git worktree add /tmp/before <commit>`) on the same frames, in
turn with this one's, frame by frame (a worker process runs DIR's vision; both measure their own thread's CPU
time). --stages prints where a frame's time goes, stage by stage.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from vision.geometry import columns_to_points
from vision.pipeline import Pipeline, board_event
from vision.reader import BoardReader
from vision.registration import _detector, find_marker_corners
from vision.render import Options, Scene, render
from vision.synthetic import random_options, random_scene

# CPU time of this thread: the machine is shared, and wall-clock time there measures the neighbours too.
clock = time.thread_time


def _ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = clock()
        fn()
        times.append((clock() - t0) * 1000)
    return statistics.median(times)


def speed(frames: int) -> None:
    reader = BoardReader()
    frames_hd = hd_frames()
    per = max(1, frames // len(frames_hd))
    reg_count = statistics.median(_ms(lambda f=f, c=c: reader.read(f, c), per) for f, c in frames_hd)
    warp = statistics.median(_ms(lambda f=f, c=c: reader.canonical(f, c), per) for f, c in frames_hd)
    still_ms, moving_ms = [], []
    for f, c in frames_hd:
        pipe = Pipeline(corners=c, learn_start=False)
        for i in range(max(per, 20)):
            t0 = clock()
            ev = pipe.process(f, i / 30)
            (still_ms if ev["stable"] else moving_ms).append((clock() - t0) * 1000)
    flat = [render(random_scene(np.random.default_rng(s)), s, Options(size=(1280, 720), rotate=0.0, perspective=0.01, fill=0.75))
            for s in range(3)]
    marked = [(_with_markers(f, c), c) for f, c in flat]
    detector = _detector(reader.cfg.registration)
    aruco = statistics.median(_ms(lambda f=f: find_marker_corners(f, reader.cfg.registration, detector), per)
                              for f, _ in marked)
    marker_ms = []
    for f, _ in marked:
        pipe = Pipeline(learn_start=False)
        for i in range(20):
            t0 = clock()
            ev = pipe.process(f, i / 30)
            if ev is not None and ev["stable"]:
                marker_ms.append((clock() - t0) * 1000)
    print(f"1280x720, one core (thread CPU time): registration (warp) + counting {reg_count:.2f} ms/frame "
          f"(warp alone {warp:.2f} ms); ArUco marker search {aruco:.2f} ms/frame")
    print(f"whole pipeline (registration, warp, stillness, counting): {statistics.median(still_ms):.2f} ms per "
          f"still frame, {statistics.median(moving_ms):.2f} ms per frame while moving (not counted); "
          f"with ArUco markers found every frame {statistics.median(marker_ms):.2f} ms per still frame")


def _with_markers(image: np.ndarray, corners: np.ndarray, size: int = 50) -> np.ndarray:
    """Markers 0-3 on the frame at the field corners; 50 px is about a 50 mm marker with the board filling
    a 1280x720 view."""
    out = image.copy()
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    for i, (x, y) in enumerate(np.round(corners).astype(int)):
        m = cv2.copyMakeBorder(cv2.aruco.generateImageMarker(dictionary, i, size), 6, 6, 6, 6, cv2.BORDER_CONSTANT,
                               value=255)
        q = m.shape[0]
        x0 = x - q + 6 if i in (0, 3) else x - 6
        y0 = y - q + 6 if i in (0, 1) else y - 6
        out[y0:y0 + q, x0:x0 + q] = cv2.cvtColor(m, cv2.COLOR_GRAY2BGR)
    return out


def hd_frames() -> list[tuple[np.ndarray, np.ndarray]]:
    return [render(random_scene(np.random.default_rng(s)), s, Options(size=(1280, 720))) for s in range(10)]


# The worker that reads the same frames with another checkout's code (--vs): it renders them itself (the renderer
# draws the same picture for a seed in both), reads "ring|judged FRAME TIMES" lines and answers each with the
# thread CPU milliseconds of those reads, as a JSON list. Like this side it reads a frame once untimed (the bar's
# calibration) and then only timed reads: a warm-up before every timed read made the worker's figures look better.
WORKER = """
import json, sys, time
from dataclasses import replace
import cv2, numpy as np
from vision.reader import BoardReader
from vision.render import Options, render
from vision.synthetic import random_scene
cv2.setNumThreads(1)
judged = BoardReader()
ring = BoardReader(replace(judged.cfg, detect=replace(judged.cfg.detect, slot_model=False)))
frames = [render(random_scene(np.random.default_rng(s)), s, Options(size=(1280, 720))) for s in range(10)]
warm = set()
for line in sys.stdin:
    kind, i, n = line.split()
    reader, (f, c) = (judged if kind == "judged" else ring), frames[int(i)]
    if (kind, i) not in warm:  # the bar's calibration once per registration, as this side's first read does
        warm.add((kind, i))
        reader.read(f, c)
    times = []
    for _ in range(int(n)):
        t0 = time.thread_time()
        reader.read(f, c)
        times.append((time.thread_time() - t0) * 1000)
    print(json.dumps(times), flush=True)
"""


def judge_cost(frames: int, vs: Path | None = None) -> None:
    """Issue 33's slot judge: registration + counting with and without it, on the same 1280x720 frames, in
    turn (the same minute of a shared machine for both); with ``vs``, another checkout's code in turn too."""
    from dataclasses import replace

    judged = BoardReader()
    ring = BoardReader(replace(judged.cfg, detect=replace(judged.cfg.detect, slot_model=False)))
    frames_hd = hd_frames()
    per = max(1, frames // len(frames_hd))
    times: dict[str, list[float]] = {"ring": [], "judged": [], "vs ring": [], "vs judged": []}
    worker = None
    if vs is not None:
        worker = subprocess.Popen([sys.executable, "-c", WORKER], cwd=vs, env={**os.environ, "PYTHONPATH": str(vs)},
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    for i, (f, c) in enumerate(frames_hd):
        ring.read(f, c), judged.read(f, c)  # warm: calibration of the bar once per registration
        for _ in range(per):
            for kind, reader in (("ring", ring), ("judged", judged)):
                times[kind].append(_ms(lambda f=f, c=c, r=reader: r.read(f, c), 1))
                if worker is not None and worker.stdin is not None and worker.stdout is not None:
                    worker.stdin.write(f"{kind} {i} 1\n")
                    worker.stdin.flush()
                    times[f"vs {kind}"].extend(json.loads(worker.stdout.readline()))
    if worker is not None and worker.stdin is not None:
        worker.stdin.close()
        worker.wait()
    print(f"1280x720, one core, registration + counting: ring score alone {_spread(times['ring'])}, with the slot "
          f"judge {_spread(times['judged'])} (in turn, {len(times['ring'])} frames each)")
    if vs is not None:
        print(f"  {vs}'s code in turn on the same frames: ring score alone {_spread(times['vs ring'])}, with the "
              f"slot judge {_spread(times['vs judged'])}")


def _spread(ms: list[float]) -> str:
    q = statistics.quantiles(ms, n=4)
    return f"{statistics.median(ms):.2f} ms/frame (quartiles {q[0]:.2f}-{q[2]:.2f})"


STAGES = ("gradients", "_slots", "_seen_empty", "_second_layer", "_judge", "slot_features", "_colour_assigner",
          "_unlike_checkers", "_bar", "ring_edges", "disc_colours")


def _timed(fn, name: str, spent: dict[str, float]):  # type: ignore[no-untyped-def]
    def timed(*a, **k):  # type: ignore[no-untyped-def]
        t0 = clock()
        out = fn(*a, **k)
        spent[name] += clock() - t0
        return out
    return timed


def stages(frames: int) -> None:
    """Where a frame's time goes: thread CPU per stage of Detector.read (stages inside others are listed under
    them too: slot_features is part of _judge; ring_edges and disc_colours of several)."""
    reader = BoardReader()
    frames_hd = hd_frames()
    per = max(1, frames // len(frames_hd))
    spent = dict.fromkeys(("warp", "read", *STAGES), 0.0)
    n = 0
    for f, c in frames_hd:
        reader.read(f, c)  # calibration of the bar once per registration (it may make a new detector)
        detector = reader.detector
        timers: dict[str, float] = dict.fromkeys(STAGES, 0.0)
        plain = {name: getattr(detector, name) for name in STAGES}
        for name in STAGES:
            setattr(detector, name, _timed(plain[name], name, timers))
        for _ in range(per):
            t0 = clock()
            canonical = reader.canonical(f, c)
            t1 = clock()
            detector.read(canonical, reader.colours)
            spent["warp"] += t1 - t0
            spent["read"] += clock() - t1
            n += 1
        for name in STAGES:
            spent[name] += timers[name]
            delattr(detector, name)
    print(f"stages, ms per 1280x720 frame (thread CPU, {n} frames; the timers add a little):")
    for name, s in spent.items():
        print(f"  {name:18s} {1000 * s / n:6.2f}")


def accuracy(n: int) -> None:
    reader = BoardReader()
    top, bottom = columns_to_points("br")
    right = total = 0
    for s in range(n):
        rng = np.random.default_rng(100_000 + s)
        scene = random_scene(rng)
        image, corners = render(scene, 100_000 + s, random_options(rng, (640, 360)))
        ev = board_event(reader.read(image, corners), "br")
        right += sum((ev["light"][p], ev["dark"][p]) == (scene.light[p], scene.dark[p]) for p in range(24))
        total += 24
    print(f"synthetic accuracy: {right}/{total} points exact ({100 * right / total:.3f}%) on {n} renders")


def hands(videos: int) -> None:
    """Board videos with a hand reaching in and resting: stable boards emitted while the hand is there."""
    stable_with_hand = hand_frames = 0
    for seed in range(videos):
        rng = np.random.default_rng(200_000 + seed)
        scene = random_scene(rng)
        base, corners = render(scene, seed, Options(size=(480, 270)))
        pipe = Pipeline(corners=corners, learn_start=False)
        noise = np.random.default_rng(seed)
        plan = [(None, 15), (-0.2, 3), (-0.1, 3), (0.0, 30), (None, 15)]
        i = 0
        for offset, n in plan:
            img = base if offset is None else render(scene, seed, Options(size=(480, 270), hand=True,
                                                                           hand_offset=offset))[0]
            for _ in range(n):
                frame = np.clip(img + noise.normal(0, 2, img.shape), 0, 255).astype(np.uint8)
                ev = pipe.process(frame, i / 30)
                i += 1
                if offset is not None:
                    hand_frames += 1
                    stable_with_hand += ev["stable"]
    print(f"hands: {stable_with_hand} stable boards emitted in {hand_frames} frames with a hand ({videos} videos)")


def stacks(boards: int, size: tuple[int, int] = (640, 360)) -> None:
    """Tall stacks: one dark stack of 5-9 on a random point of a varied board (colours learnt from the start
    position, as in a game); how often the count is exact, per height."""
    from dataclasses import replace

    exact = {n: 0 for n in range(5, 10)}
    reads: dict[int, list[int]] = {n: [] for n in exact}
    for seed in range(boards):
        rng = np.random.default_rng(seed + 500)
        opts = replace(random_options(np.random.default_rng([seed, 7]), size), dice=False)
        start, corners = render(Scene.start(), seed, opts)
        reader = BoardReader()
        reader.learn_start(start, corners)
        for n in exact:
            point = int(rng.integers(13, 25))
            dark = [0] * 24
            dark[point - 1] = n
            left = 15 - n
            while left:
                p = int(rng.integers(1, 25))
                if p != point:
                    k = min(left, 2)
                    dark[p - 1] += k
                    left -= k
            light = [0] * 24
            left = 15
            while left:
                p = int(rng.integers(1, 25))
                if not dark[p - 1] and light[p - 1] < 5:
                    k = min(left, 3, 5 - light[p - 1])
                    light[p - 1] += k
                    left -= k
            image, _ = render(Scene(light, dark), seed, opts)
            seen = board_event(reader.read(image, corners), "br")["dark"][point - 1]
            exact[n] += seen == n
            reads[n].append(seen)
    for n in exact:
        print(f"stacks of {n}: exact on {exact[n]}/{boards} boards; read as {sorted(reads[n])}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--frames", type=int, default=200)
    parser.add_argument("--accuracy", type=int, default=0, help="renders for a larger synthetic accuracy run")
    parser.add_argument("--hands", type=int, default=0, help="hand videos for a larger stillness run")
    parser.add_argument("--stacks", type=int, default=0, help="varied boards for the tall-stack count")
    parser.add_argument("--vs", type=Path, help="another checkout whose code is timed in turn on the same frames")
    parser.add_argument("--stages", action="store_true", help="where a frame's time goes, stage by stage")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    judge_cost(args.frames, args.vs)
    if args.stages:
        stages(args.frames)
    speed(args.frames)
    if args.accuracy:
        accuracy(args.accuracy)
    if args.hands:
        hands(args.hands)
    if args.stacks:
        stacks(args.stacks)


if __name__ == "__main__":
    main()
