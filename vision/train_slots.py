"""Train the slot judge (vision/slots.py) and write vision/slots_model.npz. Seeded: the same command gives the
same weights on the same machine (NumPy's float sums may differ in the last digits on another processor).

    python -m vision.train_slots [--kinds] [--boards 40] [--real] [--real-weight 10] [--epochs 15] [--cache FILE.npz]

The shipped judge (vision/slots_model.npz): `python -m vision.train_slots --real`; the shipped kinds' model
(vision/kinds_model.npz: the same features, the judge's "object" split into cup, die, cube, phone):
`python -m vision.train_slots --kinds --real` (the judge's renders plus object_render_data's, and the real photos
with the dice lying on them labelled).

Data: seeded renders of every board kind of vision.synthetic.KINDS (cork, painted, mosaic, inlay, dark felt,
leather, wood on wood, glossy, translucent, pearl, dice cups and other objects on points, small pictures,
keystone) and of the classic random boards, at 640x360 and 1280x720; each slot of each point column is
labelled from the scene (a checker below the stack's height, an object where one stands, else empty) at the
centre the ring score chose. With ``--real``, also the labelled real photos beside the checkout
(../shared/vision/real, read in place: evaluation photos are never copied into the project; their labels are
the Deeper Systems truth and tests/vision/real_labels.json; a real slot weighs ``--real-weight`` rendered ones).
The shipped model: `--boards 40 --real` plus 60 boards with piles of 7-15 (Plakoto's and Jacquet's starts, see
``pile_cases``); bench/bench_vision_generality.py reports it leave-one-source-out, since in-sample figures on
the real photos say little.
NumPy only: no training framework to install.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable
from pathlib import Path

import cv2
import numpy as np

from vision.geometry import columns_to_points
from vision.reader import BoardReader, ring_only
from vision.render import Options, Scene, render
from vision.slots import KIND_CLASSES, KIND_MODEL, MODEL, SlotModel
from vision.synthetic import KINDS, dice_objects, kind_case, random_objects, random_options, random_scene

REPO = Path(__file__).resolve().parents[1]
SHARED_REAL = REPO.parent / "shared" / "vision" / "real"
LABELS = REPO / "tests" / "vision" / "real_labels.json"
#: an object's extent along its point, in checker widths from its slot: (start, end)
EXTENT = {"cup": (0.0, 1.75), "die": (0.1, 0.9), "cube": (0.1, 0.9), "phone": (0.0, 2.8)}
#: the board kinds the shipped slot judge was trained on (KINDS has grown since: "dice", for the kinds' model)
JUDGE_KINDS = ("cork", "painted", "mosaic", "inlay", "felt", "leather", "wood_on_wood", "glossy_brown", "translucent",
               "pearl", "cups", "small", "keystone")


def board_samples(reader: BoardReader, image: np.ndarray, corners: np.ndarray, counts: list[int],
                  objects: list[list[tuple[float, float, str]]] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(features, labels) of every slot of one board; counts per column (top then bottom), objects per column
    as [(start, end, kind)] in checker widths from the edge (or none). Labels are KIND_CLASSES' indices (empty,
    checker, then each kind of object): `judge_labels` folds the kinds into the judge's one "object"."""
    canonical = reader.canonical(image, corners)
    det = reader.detector
    _, raw, centres = det.evidence(canonical)
    x = det.slot_features(canonical, raw, centres)
    y = np.zeros((24, det.slots), np.int64)
    for c in range(24):
        n = counts[c]
        y[c, : min(n, det.slots)] = 1
        if objects:
            for a, b, kind in objects[c]:
                for k in range(n, det.slots):  # checkers under an object's slot stay checkers
                    if a - 0.2 <= k + 0.5 <= b + 0.2:
                        y[c, k] = KIND_CLASSES.index(kind)
    return x, y.ravel()


def judge_labels(y: np.ndarray) -> np.ndarray:
    """KIND_CLASSES' labels as the judge's (empty, checker, object)."""
    return np.minimum(y, 2)


def scene_counts(scene: Scene, o: Options) -> tuple[list[int], list[list[tuple[float, float, str]]]]:
    top, bottom = columns_to_points(o.light_home)
    pts = top + bottom
    counts = [scene.light[p - 1] + scene.dark[p - 1] for p in pts]
    objects: list[list[tuple[float, float, str]]] = [[] for _ in range(24)]
    for kind, point, slot in o.objects:
        a, b = EXTENT[kind]
        objects[pts.index(point)].append((slot + a, slot + b, kind))
    return counts, objects


def render_cases(boards: int, seed0: int = 5000, kinds: Iterable[str] = JUDGE_KINDS) -> Iterable[tuple[Scene, Options, int]]:
    """Every kind `boards` times and as many classic random boards, some at 1280x720."""
    for kind in kinds:
        for i in range(boards):
            size = (1280, 720) if i % 4 == 3 else (640, 360)
            scene, o = kind_case(kind, seed0 + i, size)
            if not o.objects and i % 3 == 1:  # objects on every kind of board, not only the cups' kind
                o.objects = random_objects(np.random.default_rng([seed0, i, len(kind)]), scene, 2)
            yield scene, o, seed0 + 97 * i + len(kind)
    for i in range(boards * 3):
        rng = np.random.default_rng([seed0, i, 7])
        o = random_options(rng, (1280, 720) if i % 4 == 3 else (640, 360))
        scene = random_scene(rng)
        if i % 4 == 1:
            o.objects = random_objects(rng, scene, 2)
        yield scene, o, seed0 + 10_000 + i


def pile_cases(boards: int = 60) -> Iterable[tuple[Scene, Options, int]]:
    """Boards with piles of 7-15 (a third of them Plakoto's start: 15 on each side's first point) beside small
    stacks, half of them on a board kind of KINDS: the judge had seen no piles and took them for objects."""
    kinds = list(JUDGE_KINDS)
    for i in range(boards):
        rng = np.random.default_rng([i, 4242])
        light, dark = [0] * 24, [0] * 24
        if i % 3 == 0:
            light[23] = dark[0] = 15
        else:
            pts = rng.permutation(24)
            light[pts[0]] = int(rng.integers(7, 16))
            dark[pts[1]] = int(rng.integers(7, 16))
            left_l, left_d = 15 - light[pts[0]], 15 - dark[pts[1]]
            for k, p in enumerate(pts[2:10]):
                if k % 2 == 0 and left_l > 0:
                    n = min(left_l, int(rng.integers(1, 4)))
                    light[p] = n
                    left_l -= n
                elif left_d > 0:
                    n = min(left_d, int(rng.integers(1, 4)))
                    dark[p] = n
                    left_d -= n
        o = random_options(rng, (640, 360) if i % 4 else (1280, 720))
        if i % 2:
            fields, checkers, _ = KINDS[kinds[i % len(kinds)]]
            o.field, o.checkers = fields[0], checkers[0]
        yield Scene(light, dark), o, 20_000 + i


def object_cases(boards: int, seed0: int = 30_000) -> Iterable[tuple[Scene, Options, int]]:
    """Boards of every kind with 2-4 objects on points (cups, phones, and dice and the cube alone or beyond a
    stack) for the kinds' model: the judge's renders hold few of each kind."""
    kinds = list(KINDS)
    for i in range(boards):
        rng = np.random.default_rng([seed0, i])
        scene = random_scene(rng)
        o = random_options(rng, (1280, 720) if i % 4 == 3 else (640, 360))
        fields, checkers, _ = KINDS[kinds[i % len(kinds)]]
        o.field = fields[int(rng.integers(len(fields)))]
        o.checkers = checkers[int(rng.integers(len(checkers)))]
        kept: list[tuple[str, int, float]] = []
        for t in random_objects(rng, scene, int(rng.integers(1, 3))) + dice_objects(rng, scene, 2):
            if all(k[1] != t[1] for k in kept):  # one object a point
                kept.append(t)
        o.objects = tuple(kept)
        yield scene, o, seed0 + i


def render_data(boards: int, seed0: int = 5000, piles: int = 60, kinds: Iterable[str] = JUDGE_KINDS,
                objects: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Features and KIND_CLASSES' labels of the renders: every kind of ``kinds`` ``boards`` times, the classic
    boards, ``piles`` boards with piles and ``objects`` boards with objects (object_cases)."""
    reader = ring_only()
    xs, ys = [], []
    cases = [*render_cases(boards, seed0, kinds), *pile_cases(piles), *object_cases(objects)]
    for scene, o, seed in cases:
        image, corners = render(scene, seed, o)
        counts, on_columns = scene_counts(scene, o)
        x, y = board_samples(reader, image, corners, counts, on_columns)
        xs.append(x)
        ys.append(y)
    return np.concatenate(xs), np.concatenate(ys)


def object_render_data(boards: int) -> tuple[np.ndarray, np.ndarray]:
    """What the kinds' model sees beyond the judge's renders: the dice kind ``boards`` times (and its classic
    boards) and 4 x ``boards`` boards with objects of every kind."""
    return render_data(boards, seed0=7000, piles=0, kinds=("dice",), objects=4 * boards)


def kind_render_data(boards: int) -> tuple[np.ndarray, np.ndarray]:
    """The kinds' model's renders: the judge's (render_data: every kind of JUDGE_KINDS, classic boards, piles)
    and object_render_data's."""
    x, y = render_data(boards)
    xd, yd = object_render_data(boards)
    return np.concatenate([x, xd]), np.concatenate([y, yd])


def real_boards(shared: Path = SHARED_REAL) -> list[tuple[str, str, Path, np.ndarray, list[int]]]:
    """(source, name, photo, corners, counts per column) of every labelled real photo; [] without ../shared.
    Sources are boards: each Deeper Systems photo is its own board and camera, the broadcast frames are
    grouped by board (WTC 2022: frame0, test8; fmgammon: test10-12), the walnut board alone."""
    out: list[tuple[str, str, Path, np.ndarray, list[int]]] = []
    deeper = shared / "jvitors23__backgammon-checker-detection-openCV"
    if not (deeper / "bgsamples_truth.json").is_file():
        return out
    truth = json.loads((deeper / "bgsamples_truth.json").read_text())
    for key, counts in sorted(truth.items()):
        photo = deeper / "bgsamples" / key.replace(".checkers.json", "")
        info = json.loads(Path(str(photo) + ".info.json").read_text())
        source = "deeper-" + photo.stem.split("_")[0][:8]
        out.append((source, photo.name, photo, np.array(info["canonical_board"]["tl_tr_br_bl"], np.float32),
                    list(counts["top"]) + list(counts["bottom"])))
    groups = {"frame0": "broadcast-wtc", "test8": "broadcast-wtc", "test10": "broadcast-fmgammon",
              "test11": "broadcast-fmgammon", "test12": "broadcast-fmgammon", "test6": "walnut"}
    labels = json.loads(LABELS.read_text())
    for name, label in labels.items():
        if not name.endswith(".jpg"):
            continue
        counts = [0 if cell == "." else int(cell[:-1]) for row in ("top", "bottom") for cell in label[row]]
        out.append((groups.get(Path(name).stem, Path(name).stem), Path(name).name, shared / name,
                    np.array(label["corners"], np.float32), counts))
    return out


def real_objects(name: str) -> list[list[tuple[float, float, str]]]:
    """The objects lying on a labelled photo's field (tests/vision/real_labels.json "objects": dice), per column
    as scene_counts gives them; ``name`` the photo's file name."""
    objects: list[list[tuple[float, float, str]]] = [[] for _ in range(24)]
    for key, items in json.loads(LABELS.read_text()).get("objects", {}).items():
        if Path(key).name == name:
            for column, slot, kind in items:
                a, b = EXTENT[kind]
                objects[column].append((slot + a, slot + b, kind))
    return objects


def real_data(boards: list[tuple[str, str, Path, np.ndarray, list[int]]],
              objects: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Features and labels of the labelled photos' slots; with ``objects`` the dice lying on them are labelled
    (the kinds' model), else those slots are empty (as the shipped judge was trained)."""
    reader = ring_only()
    xs, ys = [], []
    for _, name, photo, corners, counts in boards:
        image = cv2.imread(str(photo))
        if image is None:
            raise SystemExit(f"cannot read {photo}")
        x, y = board_samples(reader, image, corners, counts, real_objects(name) if objects else None)
        xs.append(x)
        ys.append(y)
    return np.concatenate(xs), np.concatenate(ys)


def train(x: np.ndarray, y: np.ndarray, hidden: int = 32, epochs: int = 25, seed: int = 0,
          weights: np.ndarray | None = None, classes: int = 3) -> SlotModel:
    """A one-hidden-layer network, softmax over ``classes`` (the judge's empty, checker, object; the kinds'
    model's KIND_CLASSES), Adam, classes balanced."""
    rng = np.random.default_rng(seed)
    mean = x.mean(axis=0)
    scale = x.std(axis=0) + 1e-3
    xs = ((x - mean) / scale).astype(np.float32)
    n, f = xs.shape
    counts = np.bincount(y, minlength=classes).astype(np.float64)
    cw = (n / (classes * np.maximum(counts, 1))) ** 0.5
    sw = (cw[y] * (weights if weights is not None else 1.0)).astype(np.float32)
    params = {"w1": (rng.normal(0, 1, (f, hidden)) * np.sqrt(2 / f)).astype(np.float32),
              "b1": np.zeros(hidden, np.float32),
              "w2": (rng.normal(0, 1, (hidden, classes)) * np.sqrt(1 / hidden)).astype(np.float32),
              "b2": np.zeros(classes, np.float32)}
    m = {k: np.zeros_like(v) for k, v in params.items()}
    v = {k: np.zeros_like(p) for k, p in params.items()}
    lr, b1, b2, step, decay = 3e-3, 0.9, 0.999, 0, 1e-4
    onehot = np.eye(classes, dtype=np.float32)
    for _ in range(epochs):
        order = rng.permutation(n)
        for i in range(0, n, 256):
            idx = order[i:i + 256]
            xb, yb, wb = xs[idx], onehot[y[idx]], sw[idx][:, None]
            h = np.maximum(xb @ params["w1"] + params["b1"], 0)
            z = h @ params["w2"] + params["b2"]
            z -= z.max(axis=1, keepdims=True)
            pr = np.exp(z)
            pr /= pr.sum(axis=1, keepdims=True)
            dz = (pr - yb) * wb / len(idx)
            grads = {"w2": h.T @ dz + decay * params["w2"], "b2": dz.sum(axis=0)}
            dh = (dz @ params["w2"].T) * (h > 0)
            grads["w1"] = xb.T @ dh + decay * params["w1"]
            grads["b1"] = dh.sum(axis=0)
            step += 1
            for k in params:
                m[k] = b1 * m[k] + (1 - b1) * grads[k]
                v[k] = b2 * v[k] + (1 - b2) * grads[k] ** 2
                params[k] -= lr * (m[k] / (1 - b1**step)) / (np.sqrt(v[k] / (1 - b2**step)) + 1e-8)
        lr *= 0.9
    return SlotModel(mean.astype(np.float32), scale.astype(np.float32), params["w1"], params["b1"],
                     params["w2"], params["b2"])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--boards", type=int, default=40, help="renders per board kind (and 3x as many classic ones)")
    ap.add_argument("--real", action="store_true", help="add the labelled real photos of ../shared (see above)")
    ap.add_argument("--kinds", action="store_true",
                    help=f"train the kinds' model ({', '.join(KIND_CLASSES)}) into {KIND_MODEL.name} instead of the judge")
    ap.add_argument("--out", type=Path, help=f"default {MODEL.name}, with --kinds {KIND_MODEL.name}")
    ap.add_argument("--real-weight", type=float, default=10.0, help="weight of a real slot against a rendered one")
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--cache", type=Path, help="render features: read from this .npz if it exists, else saved there")
    args = ap.parse_args(argv)
    out = args.out or (KIND_MODEL if args.kinds else MODEL)
    if args.cache and args.cache.is_file():
        with np.load(args.cache) as d:
            x, y = d["x"], d["yk"]
    else:
        x, y = kind_render_data(args.boards) if args.kinds else render_data(args.boards)
        if args.cache:
            np.savez(args.cache, x=x, yk=y)
    w = np.ones(len(y))
    print("renders: " + ", ".join(f"{name} {int(np.sum(y == i))}" for i, name in enumerate(KIND_CLASSES)) + " slots")
    if args.real:
        boards = real_boards()
        if not boards:
            raise SystemExit(f"no labelled real photos at {SHARED_REAL}")
        xr, yr = real_data(boards, objects=args.kinds)
        x, y = np.concatenate([x, xr]), np.concatenate([y, yr])
        w = np.concatenate([w, np.full(len(yr), args.real_weight)])
        print(f"real photos: {len(yr)} slots from {len(boards)} photos, weight {args.real_weight}")
    if args.kinds:
        model = train(x, y, epochs=args.epochs, weights=w, classes=len(KIND_CLASSES))
    else:
        y = judge_labels(y)
        model = train(x, y, epochs=args.epochs, weights=w)
    acc = float((model.predict(x).argmax(axis=1) == y).mean())
    model.save(out)
    print(f"wrote {out} ({out.stat().st_size} bytes); training accuracy {acc:.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
