"""Print the four ArUco markers that tell the camera where the playing field is (see markers.md).

    .venv/bin/python hardware/make_markers.py            # writes hardware/markers/aruco-corners.svg and .png

DICT_4X4_50, ids 0, 1, 2, 3 = the field's top-left, top-right, bottom-right and bottom-left corners. The SVG
is vector (print at 100 %, "actual size"); the PNG is the same sheet at 300 dpi.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

DICTIONARY = "DICT_4X4_50"
IDS = {0: "top-left", 1: "top-right", 2: "bottom-right", 3: "bottom-left"}
PAGE_MM = (210.0, 297.0)  # A4 portrait
MARKER_MM = 50.0  # black square incl. the 1-cell border; 6 cells of 8.33 mm
MARGIN_MM = 25.0
HERE = Path(__file__).resolve().parent


def marker_cells(marker_id: int) -> np.ndarray:
    """The 6x6 cells of a marker (4x4 bits + black border), 1 = black."""
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, DICTIONARY))
    image = cv2.aruco.generateImageMarker(dictionary, marker_id, 6)
    return (image < 128).astype(np.uint8)


def _origins() -> dict[int, tuple[float, float]]:
    w, h = PAGE_MM
    left, right = MARGIN_MM, w - MARGIN_MM - MARKER_MM
    top, bottom = MARGIN_MM + 10, h - MARGIN_MM - MARKER_MM - 10
    return {0: (left, top), 1: (right, top), 2: (right, bottom), 3: (left, bottom)}


def svg_sheet() -> str:
    w, h = PAGE_MM
    cell = MARKER_MM / 6
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" viewBox="0 0 {w} {h}">',
             '<rect width="100%" height="100%" fill="white"/>',
             f'<text x="{w / 2}" y="15" font-family="sans-serif" font-size="5" text-anchor="middle">'
             f'Gamão board markers: ArUco {DICTIONARY}, {MARKER_MM:g} mm. Print at 100 %.</text>',
             f'<text x="{w / 2}" y="22" font-family="sans-serif" font-size="3.5" text-anchor="middle">'
             'Cut along the grey lines; stick each marker just outside its corner of the playing field '
             '(hardware/markers.md).</text>']
    for marker_id, (x0, y0) in _origins().items():
        cells = marker_cells(marker_id)
        q = 4.0  # white quiet zone the detector needs around the black square
        parts.append(f'<rect x="{x0 - q}" y="{y0 - q}" width="{MARKER_MM + 2 * q}" height="{MARKER_MM + 2 * q}" '
                     'fill="none" stroke="#bbb" stroke-width="0.2"/>')
        for r in range(6):
            for c in range(6):
                if cells[r, c]:
                    parts.append(f'<rect x="{x0 + c * cell:.3f}" y="{y0 + r * cell:.3f}" '
                                 f'width="{cell + 0.01:.3f}" height="{cell + 0.01:.3f}" fill="black"/>')
        parts.append(f'<text x="{x0 + MARKER_MM / 2}" y="{y0 + MARKER_MM + 9}" font-family="sans-serif" '
                     f'font-size="4" text-anchor="middle">id {marker_id}: {IDS[marker_id]}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def png_sheet(dpi: int = 300) -> np.ndarray:
    scale = dpi / 25.4
    w, h = (round(v * scale) for v in PAGE_MM)
    page = np.full((h, w), 255, np.uint8)
    size = round(MARKER_MM * scale)
    for marker_id, (x0, y0) in _origins().items():
        cells = marker_cells(marker_id)
        block = cv2.resize((1 - cells) * 255, (size, size), interpolation=cv2.INTER_NEAREST)
        x, y = round(x0 * scale), round(y0 * scale)
        page[y : y + size, x : x + size] = block
        cv2.putText(page, f"id {marker_id}: {IDS[marker_id]}", (x, y + size + round(9 * scale)),
                    cv2.FONT_HERSHEY_SIMPLEX, 1.6, 0, 3)
    return page


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE / "markers", help="folder for the sheet")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "aruco-corners.svg").write_text(svg_sheet(), encoding="utf-8")
    cv2.imwrite(str(args.out / "aruco-corners.png"), png_sheet())
    print(f"wrote {args.out / 'aruco-corners.svg'} and {args.out / 'aruco-corners.png'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
