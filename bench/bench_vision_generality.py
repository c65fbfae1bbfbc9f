"""How well the camera reads boards it was not tuned on (issue 33): an honest figure, never a timed test.

    .venv/bin/python bench/bench_vision_generality.py [--boards 20] [--per-kind 10] [--real-weight 10]

1. The labelled real photos beside the checkout (../shared/vision/real, read in place, never copied), by source
   (a source is one board: each Deeper Systems photo, the WTC 2022 broadcast frames, the fmgammon frames, the
   walnut board), columns exact (counts without colour, as the Deeper truth has it) and whole boards right:
   - before: today's ring score alone (its thresholds were tuned by hand on these very photos: an in-sample
     figure, the best it can look);
   - renders only: the judge trained on the renders alone (every real photo held out);
   - leave-one-source-out: the judge trained again on the renders plus the real photos of every other source,
     and tested on the source left out (the honest figure for the shipped judge on a board it has not seen);
   - shipped: the judge in vision/slots_model.npz, trained on the renders and every source (in-sample here).
   All in the same run.
2. Renders of each board kind of vision.synthetic.KINDS (seeds apart from the training's), before and after:
   points exact with colour, whole boards, and the objects' columns found covered / columns wrongly covered.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace

import cv2
import numpy as np

from vision.geometry import columns_to_points
from vision.reader import BoardReader
from vision.render import render
from vision.slots import SlotModel, default_model
from vision.synthetic import KINDS, kind_case, random_options, random_scene
from vision.train_slots import real_boards, real_data, render_data, scene_counts, train


def ring_only() -> BoardReader:
    base = BoardReader()
    return BoardReader(replace(base.cfg, detect=replace(base.cfg.detect, slot_model=False)))


def with_judge(model: SlotModel) -> BoardReader:
    base = BoardReader()
    return BoardReader(replace(base.cfg, detect=replace(base.cfg.detect, slot_model=True)), model)


def read_counts(reader: BoardReader, photo, corners) -> list[int]:
    r = reader.read(cv2.imread(str(photo)), corners)
    return [c.count for c in r.top + r.bottom]


def real_section(args: argparse.Namespace) -> None:
    boards = real_boards()
    if not boards:
        print("real photos: ../shared/vision/real is absent; skipped")
        return
    shipped = default_model()
    assert shipped is not None, "vision/slots_model.npz is missing: python -m vision.train_slots"
    t0 = time.process_time()
    if args.cache:  # features of renders saved by an earlier run (np.savez x=..., y=...)
        with np.load(args.cache) as d:
            xr_all, yr_all = d["x"], d["y"]
    else:
        xr_all, yr_all = render_data(args.boards)
    print(f"(renders for the folds' training: {len(yr_all)} slots, {time.process_time() - t0:.0f} CPU-s)")
    sources = sorted({b[0] for b in boards})
    renders_only = train(xr_all, yr_all, epochs=args.epochs)
    rows = []
    for source in sources:
        held = [b for b in boards if b[0] == source]
        rest = [b for b in boards if b[0] != source]
        xr, yr = real_data(rest)
        x = np.concatenate([xr_all, xr])
        y = np.concatenate([yr_all, yr])
        w = np.concatenate([np.ones(len(yr_all)), np.full(len(yr), args.real_weight)])
        fold = train(x, y, epochs=args.epochs, weights=w)
        readers = {"before": ring_only(), "renders": with_judge(renders_only), "loso": with_judge(fold),
                   "shipped": with_judge(shipped)}
        row = {"source": source, "photos": len(held)}
        for name, reader in readers.items():
            right = whole = 0
            for _, _, photo, corners, counts in held:
                got = read_counts(reader, photo, corners)
                n = sum(g == t for g, t in zip(got, counts, strict=True))
                right += n
                whole += n == 24
            row[name] = (right, whole)
        rows.append(row)
        print(f"  {source:20s} {len(held)} photo(s): " + "  ".join(
            f"{k} {row[k][0]}/{24 * len(held)} cols {row[k][1]}/{len(held)} whole"
            for k in ("before", "renders", "loso", "shipped")), flush=True)
    n_cols = 24 * len(boards)
    print(f"real photos, {len(boards)} photos of {len(sources)} sources (columns exact, whole boards):")
    for k, label in (("before", "before (ring score alone, tuned on these photos)"),
                     ("renders", "judge trained on renders only (all held out)"),
                     ("loso", "leave-one-source-out judge (renders + other sources)"),
                     ("shipped", "shipped judge (renders + every source: in-sample)")):
        cols = sum(r[k][0] for r in rows)
        whole = sum(r[k][1] for r in rows)
        print(f"  {label:55s} {cols}/{n_cols} ({100 * cols / n_cols:.1f}%)  {whole}/{len(boards)} boards")


def kinds_section(args: argparse.Namespace) -> None:
    readers = {"before": ring_only(), "after": BoardReader()}
    print(f"renders, {args.per_kind} a kind, 640x360 unless the kind says (points exact with colour; whole boards; "
          "objects: covered columns found / wrongly covered):")
    for kind in [*KINDS, "classic"]:
        line = f"  {kind:13s}"
        for name, reader in readers.items():
            exact = points = whole = found = objects = false = 0
            for s in range(args.per_kind):
                if kind == "classic":
                    rng = np.random.default_rng([s, 99])
                    scene, o = random_scene(rng), random_options(rng, (640, 360))
                else:
                    scene, o = kind_case(kind, s)
                image, corners = render(scene, 1000 + s, o)
                reading = reader.read(image, corners)
                _, covers = scene_counts(scene, o)
                top, bottom = columns_to_points(o.light_home)
                ok = True
                for c, (col, p) in enumerate(zip(reading.top + reading.bottom, top + bottom, strict=True)):
                    points += 1
                    right = (col.light, col.dark) == (scene.light[p - 1], scene.dark[p - 1])
                    exact += right
                    ok &= right
                    if covers[c]:
                        objects += 1
                        found += col.covered is not None
                    elif col.covered is not None:
                        false += 1
                whole += ok
            line += f" | {name} {100 * exact / points:5.1f}% {whole:2d}/{args.per_kind}"
            if name == "after":
                line += f" objects {found}/{objects} false {false}"
        print(line, flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--boards", type=int, default=20, help="renders a kind for each fold's training")
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--real-weight", type=float, default=10.0, help="weight of a real slot against a rendered one")
    ap.add_argument("--per-kind", type=int, default=10, help="renders a kind for the kinds' figures")
    ap.add_argument("--skip-real", action="store_true")
    ap.add_argument("--skip-kinds", action="store_true")
    ap.add_argument("--cache", help="an .npz of render features (x, y) to train the folds on instead of rendering")
    args = ap.parse_args()
    if not args.skip_kinds:
        kinds_section(args)
    if not args.skip_real:
        real_section(args)


if __name__ == "__main__":
    main()
