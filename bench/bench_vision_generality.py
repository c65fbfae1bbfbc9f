"""How well the camera reads boards it was not tuned on (issue 33): an honest figure, never a timed test.

    .venv/bin/python bench/bench_vision_generality.py [--boards 20] [--per-kind 10] [--real-weight 10] [--cache F]

1. The labelled real photos beside the checkout (../shared/vision/real, read in place, never copied), by source
   (a source is one board: each Deeper Systems photo, the WTC 2022 broadcast frames, the fmgammon frames, the
   walnut board), columns exact (counts without colour, as the Deeper truth has it) and whole boards right, and
   the dice lying on their points (tests/vision/real_labels.json "objects": 9 columns on 6 photos) found covered,
   named right, and columns covered where nothing lies (false covers):
   - before: today's ring score alone (its thresholds were tuned by hand on these very photos: an in-sample
     figure, the best it can look);
   - renders only: the judge trained on the renders alone (every real photo held out);
   - leave-one-source-out: the judge trained again on the renders plus the real photos of every other source,
     and tested on the source left out (the honest figure for the shipped judge on a board it has not seen);
     "+kinds": with a kinds' model trained the same way (renders with objects + the other sources' dice);
   - shipped: the judge in vision/slots_model.npz (and kinds_model.npz), trained on every source (in-sample).
   All in the same run.
2. Renders of each board kind of vision.synthetic.KINDS (seeds apart from the training's): points exact with
   colour, whole boards, and the objects' columns found covered / named right / columns wrongly covered; before
   (ring score alone), judge (the slot judge naming no kind: as before the kinds' model), after (with it).
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from vision.geometry import columns_to_points
from vision.reader import BoardReader, ring_only
from vision.render import render
from vision.slots import KIND_CLASSES, SlotModel, default_kind_model, default_model
from vision.synthetic import KINDS, kind_case, random_options, random_scene
from vision.train_slots import (
    judge_labels,
    object_render_data,
    real_boards,
    real_data,
    real_objects,
    render_data,
    scene_counts,
    train,
)


def without_kinds() -> BoardReader:
    base = BoardReader()
    return BoardReader(replace(base.cfg, detect=replace(base.cfg.detect, kind_model=False)))


def with_judge(model: SlotModel, kinds: SlotModel | None = None) -> BoardReader:
    base = BoardReader()
    return BoardReader(replace(base.cfg, detect=replace(base.cfg.detect, slot_model=True, kind_model=kinds is not None)),
                       model, kinds)


def read_counts(reader: BoardReader, photo, corners) -> tuple[list[int], list[str | None]]:
    """Counts per column and what the reading says covers each column."""
    r = reader.read(cv2.imread(str(photo)), corners)
    return [c.count for c in r.top + r.bottom], [c.covered for c in r.top + r.bottom]


def on_points(name: str) -> list[str | None]:
    """Per column, what lies on its point in a labelled photo (a die at slot 0-4; slot 5 is past the tip)."""
    return [next((kind for a, _, kind in col if a < 5), None) for col in real_objects(name)]


READERS = (("before", "before (ring score alone, tuned on these photos)"),
           ("renders", "judge trained on renders only (all held out)"),
           ("loso", "leave-one-source-out judge (renders + other sources)"),
           ("loso+kinds", "the same with its kinds' model (renders + other sources)"),
           ("shipped", "shipped judge (renders + every source: in-sample)"),
           ("shipped+kinds", "shipped judge and kinds' model (in-sample)"))


def real_section(args: argparse.Namespace) -> None:
    boards = real_boards()
    if not boards:
        print("real photos: ../shared/vision/real is absent; skipped")
        return
    shipped, shipped_kinds = default_model(), default_kind_model()
    assert shipped is not None and shipped_kinds is not None, \
        "vision/slots_model.npz or kinds_model.npz is missing: python -m vision.train_slots [--kinds]"
    t0 = time.process_time()
    if args.cache and Path(args.cache).is_file():  # features of renders saved by an earlier run with --cache
        with np.load(args.cache) as d:
            x_judge, y_judge, x_obj, y_obj = d["x_judge"], d["y_judge"], d["x_obj"], d["y_obj"]
    else:
        (x_judge, y_judge), (x_obj, y_obj) = render_data(args.boards), object_render_data(args.boards)
        if args.cache:
            np.savez(args.cache, x_judge=x_judge, y_judge=y_judge, x_obj=x_obj, y_obj=y_obj)
    xr_all, yr_all = x_judge, judge_labels(y_judge)
    xk_all, yk_all = np.concatenate([x_judge, x_obj]), np.concatenate([y_judge, y_obj])
    print(f"(renders for the folds' training: {len(yr_all)} slots for the judge, {len(yk_all)} for the kinds' "
          f"model, {time.process_time() - t0:.0f} CPU-s)")
    sources = sorted({b[0] for b in boards})
    renders_only = train(xr_all, yr_all, epochs=args.epochs)
    rows = []
    for source in sources:
        held = [b for b in boards if b[0] == source]
        rest = [b for b in boards if b[0] != source]
        xr, yr = real_data(rest)
        w = np.concatenate([np.ones(len(yr_all)), np.full(len(yr), args.real_weight)])
        fold = train(np.concatenate([xr_all, xr]), np.concatenate([yr_all, yr]), epochs=args.epochs, weights=w)
        xo, yo = real_data(rest, objects=True)
        wk = np.concatenate([np.ones(len(yk_all)), np.full(len(yo), args.real_weight)])
        fold_kinds = train(np.concatenate([xk_all, xo]), np.concatenate([yk_all, yo]), epochs=args.epochs,
                           weights=wk, classes=len(KIND_CLASSES))
        readers = {"before": ring_only(), "renders": with_judge(renders_only), "loso": with_judge(fold),
                   "loso+kinds": with_judge(fold, fold_kinds), "shipped": with_judge(shipped),
                   "shipped+kinds": with_judge(shipped, shipped_kinds)}
        row = {"source": source, "photos": len(held)}
        for name, reader in readers.items():
            right = whole = found = named = false = 0
            for _, photo_name, photo, corners, counts in held:
                got, covered = read_counts(reader, photo, corners)
                n = sum(g == t for g, t in zip(got, counts, strict=True))
                right += n
                whole += n == 24
                for said, truth in zip(covered, on_points(photo_name), strict=True):
                    found += said is not None and truth is not None
                    named += said is not None and said == truth
                    false += said is not None and truth is None
            row[name] = (right, whole, found, named, false)
        rows.append(row)
        print(f"  {source:20s} {len(held)} photo(s), {sum(t is not None for b in held for t in on_points(b[1]))} "
              "dice on points: " + "  ".join(
                  f"{k} {row[k][0]}/{24 * len(held)} cols {row[k][1]}/{len(held)} whole, covers {row[k][2]} "
                  f"(named {row[k][3]}) false {row[k][4]}" for k, _ in READERS), flush=True)
    n_cols = 24 * len(boards)
    dice = sum(t is not None for b in boards for t in on_points(b[1]))
    print(f"real photos, {len(boards)} photos of {len(sources)} sources (columns exact, whole boards; columns said "
          f"covered where a die lies on the point (of {dice}), named right, and where nothing lies: false covers):")
    for k, label in READERS:
        cols = sum(r[k][0] for r in rows)
        whole = sum(r[k][1] for r in rows)
        found, named, false = (sum(r[k][i] for r in rows) for i in (2, 3, 4))
        print(f"  {label:58s} {cols}/{n_cols} ({100 * cols / n_cols:.1f}%)  {whole}/{len(boards)} boards  "
              f"covers {found}/{dice} named {named} false {false}")


def kinds_section(args: argparse.Namespace) -> None:
    readers = {"before": ring_only(), "judge": without_kinds(), "after": BoardReader()}
    print(f"renders, {args.per_kind} a kind, 640x360 unless the kind says (points exact with colour; whole boards; "
          "objects: covered columns found / named right / wrongly covered); before = ring score alone, judge = "
          "the slot judge naming no kind, after = the judge and the kinds' model:")
    by_kind: dict[str, dict[str, int]] = {}  # the after reader's objects by what they are
    for kind in [*KINDS, "classic"]:
        line = f"  {kind:13s}"
        for name, reader in readers.items():
            exact = points = whole = found = named = objects = false = 0
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
                        what = covers[c][0][2]
                        objects += 1
                        found += col.covered is not None
                        named += col.covered == what
                        if name == "after":
                            tally = by_kind.setdefault(what, {"columns": 0, "found": 0, "named": 0, "object": 0})
                            tally["columns"] += 1
                            tally["found"] += col.covered is not None
                            tally["named"] += col.covered == what
                            tally["object"] += col.covered == "object"
                    elif col.covered is not None:
                        false += 1
                whole += ok
            line += f" | {name} {100 * exact / points:5.1f}% {whole:2d}/{args.per_kind}"
            if name != "before":
                line += f" obj {found}/{named}/{objects} false {false}"
        print(line, flush=True)
    print("  the after reader's objects by what they are (columns: covered found, named right, said \"object\"):")
    for what, t in sorted(by_kind.items()):
        print(f"    {what:6s} {t['columns']:3d} columns: found {t['found']}, named right {t['named']}, "
              f"\"object\" {t['object']}, named wrong {t['found'] - t['named'] - t['object']}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--boards", type=int, default=20, help="renders a kind for each fold's training")
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--real-weight", type=float, default=10.0, help="weight of a real slot against a rendered one")
    ap.add_argument("--per-kind", type=int, default=10, help="renders a kind for the kinds' figures")
    ap.add_argument("--skip-real", action="store_true")
    ap.add_argument("--skip-kinds", action="store_true")
    ap.add_argument("--cache", help="an .npz of the folds' render features: read if it exists, else written")
    args = ap.parse_args()
    if not args.skip_kinds:
        kinds_section(args)
    if not args.skip_real:
        real_section(args)


if __name__ == "__main__":
    main()
