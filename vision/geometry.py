"""Board proportions, the homography to a canonical top-down board, and which corner is whose home.

Corners are always the playing field (24 points and the bar, not the trays or frame) in the order
top-left, top-right, bottom-right, bottom-left *of the board as given*. In the canonical image, `top`
columns run along the edge from the first corner to the second and `bottom` columns from the fourth to
the third; the bar is the vertical strip between the sixth and seventh column of each row.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.config import GeometryConfig

CORNER_NAMES = ("tl", "tr", "br", "bl")


class CornersError(ValueError):
    """The four corners given cannot describe a board."""


def parse_corners(text: str) -> np.ndarray:
    """Parse "x1,y1;x2,y2;x3,y3;x4,y4" into a 4x2 float array."""
    try:
        pairs = [p.split(",") for p in text.strip().split(";") if p.strip()]
        pts = np.array([[float(a), float(b)] for a, b in pairs], dtype=np.float32)
    except ValueError:
        raise CornersError(f'cannot read corners "{text}": write them as "x1,y1;x2,y2;x3,y3;x4,y4"') from None
    if pts.shape != (4, 2):
        raise CornersError(f'expected 4 corners, got {len(pts)} in "{text}": write "x1,y1;x2,y2;x3,y3;x4,y4"')
    return validate_corners(pts)


def validate_corners(pts: np.ndarray) -> np.ndarray:
    pts = np.asarray(pts, dtype=np.float32).reshape(4, 2)
    area = cv2.contourArea(pts)
    if abs(area) < 100.0 or not cv2.isContourConvex(pts.reshape(-1, 1, 2)):
        raise CornersError("the four corners do not form a convex board: give them as top-left, top-right, "
                           "bottom-right, bottom-left of the playing field")
    return pts


@dataclass(frozen=True)
class BoardLayout:
    """Pixel layout of the canonical (top-down) board image, derived from the proportions in the config."""

    checker: float  # point (and checker) width in canonical pixels
    bar: float  # bar width in canonical pixels
    width: int  # canonical image, margins included
    height: int
    point_length: float
    margin: int  # around the field: checkers stand up, so in oblique views their tops lean past the edge
    field_width: float
    field_height: float

    @classmethod
    def from_config(cls, g: GeometryConfig) -> BoardLayout:
        checker = float(g.checker_px)
        bar = g.bar_to_checker * checker
        fw = 12 * checker + bar
        fh = fw / g.field_width_to_height
        m = int(round(g.margin * checker))
        return cls(checker=checker, bar=bar, width=int(round(fw)) + 2 * m, height=int(round(fh)) + 2 * m,
                   point_length=g.point_length_to_height * fh, margin=m, field_width=fw, field_height=fh)

    def column_x(self, j: int) -> float:
        """Centre x of column j (0..11, from the left of the field) in canonical pixels."""
        x = self.margin + (j + 0.5) * self.checker
        return x + self.bar if j >= 6 else x

    @property
    def bar_x(self) -> float:
        return self.margin + 6 * self.checker + self.bar / 2

    @property
    def top_y(self) -> float:
        return float(self.margin)

    @property
    def bottom_y(self) -> float:
        return self.margin + self.field_height

    def dst_corners(self) -> np.ndarray:
        m, w, h = float(self.margin), self.field_width, self.field_height
        return np.array([[m, m], [m + w, m], [m + w, m + h], [m, m + h]], dtype=np.float32)

    def homography(self, corners: np.ndarray) -> np.ndarray:
        """Image -> canonical homography from the four field corners (tl, tr, br, bl)."""
        return cv2.getPerspectiveTransform(np.asarray(corners, dtype=np.float32), self.dst_corners())

    def warp(self, image: np.ndarray, corners: np.ndarray) -> np.ndarray:
        """Canonical top-down image. Large photos are shrunk first so the warp averages instead of aliasing."""
        c = np.asarray(corners, dtype=np.float32)
        edge = max(float(np.linalg.norm(c[1] - c[0])), float(np.linalg.norm(c[3] - c[0])))
        scale = 2.0 * max(self.width, self.height) / edge
        if scale < 0.5:
            image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
            c = c * scale
        return cv2.warpPerspective(image, self.homography(c), (self.width, self.height),
                                   flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def columns_to_points(light_home: str) -> tuple[list[int], list[int]]:
    """Physical point (1..24) of each top column and each bottom column, given the corner of light's home.

    Light's home (points 1-6) sits at `light_home`; point 1 is the column in that corner, and dark's home
    (19-24) is across the board on the same end.
    """
    if light_home == "br":
        return [13 + j for j in range(12)], [12 - j for j in range(12)]
    if light_home == "bl":
        return [24 - j for j in range(12)], [1 + j for j in range(12)]
    if light_home == "tr":
        return [12 - j for j in range(12)], [13 + j for j in range(12)]
    if light_home == "tl":
        return [1 + j for j in range(12)], [24 - j for j in range(12)]
    raise ValueError(f'light_home must be one of {", ".join(CORNER_NAMES)}, not "{light_home}"')
