"""`gamao detect IMAGE`: count the checkers on a photo of a board."""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from cli import fail

NAME = "detect"
HELP = "Read checker counts per point from a photo of the board (corners given or found by ArUco markers)."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("image", help="photo of the board (JPEG, PNG, ...)")
    parser.add_argument("--corners", help='playing-field corners "x1,y1;x2,y2;x3,y3;x4,y4": top-left, top-right, '
                                          "bottom-right, bottom-left (the 24 points and the bar, not the trays)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--repeat", type=int, default=1, help="run registration and counting N times; ms is the median")
    parser.add_argument("--config", help="vision config JSON (default: vision/config.json)")


def _fail(message: str) -> int:
    return fail("detect", message)


def run(args: argparse.Namespace) -> int:
    import cv2

    from vision.imagefile import ImageFileError, read_image

    if args.repeat < 1:
        return _fail(f"--repeat must be at least 1, not {args.repeat}")
    if args.repeat > 1000:
        return _fail(f"--repeat must be at most 1000, not {args.repeat}")
    path = Path(args.image)
    if not path.is_file():
        return _fail(f"cannot read {args.image}: no such file")
    try:
        image = read_image(path, quiet=True)  # the size is checked from the header before decoding
    except ImageFileError as exc:
        return _fail(str(exc))
    try:
        return _detect(args, image)
    except cv2.error as exc:
        # OpenCV's own message is several lines naming its source files: keep its last line.
        detail = str(exc).strip().splitlines()[-1] if str(exc).strip() else type(exc).__name__
        return _fail(f"cannot read a board in {args.image} ({detail}); is it a photo of the board?")


def _detect(args: argparse.Namespace, image: object) -> int:
    import numpy as np

    from vision.config import load_config
    from vision.geometry import CornersError, parse_corners
    from vision.reader import BoardReader
    from vision.registration import find_marker_corners

    try:
        cfg = load_config(args.config)
    except (OSError, ValueError) as exc:
        return _fail(f"cannot use config {args.config}: {exc}")
    corners = None
    if args.corners:
        try:
            corners = parse_corners(args.corners)
        except CornersError as exc:
            return _fail(str(exc))
    reader = BoardReader(cfg)
    times, reading = [], None
    # one untimed pass first: OpenCV and NumPy set themselves up on first use, and a camera pays that once
    for timed in [False] + [True] * args.repeat:
        t0 = time.perf_counter()
        found = corners
        if found is None:
            found, seen = find_marker_corners(image, cfg.registration)
            if found is None:
                ids = ", ".join(map(str, seen)) or "none"
                return _fail(f"no ArUco board markers found in {args.image} (seen ids: {ids}; need DICT_4X4_50 ids "
                             '0,1,2,3 at the field corners): give --corners "x1,y1;x2,y2;x3,y3;x4,y4"')
        try:
            reading = reader.read(image, np.asarray(found))
        except CornersError as exc:
            return _fail(str(exc))
        if timed:
            times.append((time.perf_counter() - t0) * 1000.0)
    assert reading is not None
    out = reading.as_json()
    out["ms"] = round(statistics.median(times), 3)
    if args.json:
        print(json.dumps(out))
        return 0
    for row in ("top", "bottom"):
        cells = " ".join(f"{c['light']}L" if c["light"] else (f"{c['dark']}D" if c["dark"] else ".")
                         for c in out[row])
        print(f"{row:6s} {cells}")
    print(f"bar    light {out['bar']['light']} dark {out['bar']['dark']}")
    print(f"{out['ms']:.1f} ms")
    return 0
