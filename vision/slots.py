"""A learned judge of each slot of a point: empty, a checker, or an object (a dice cup, a die, the cube, a phone).

The ring score (detect.py) finds checkers by their round outline whatever their colour; on fields it was not
tuned on it also finds rings in the field's own texture (cork's granules, mosaic tiles, a painted field's
pictures) and in the mouth of a dice cup. This judge looks at the same slot as the ring score did, at the
centre the ring score chose: a small crop of the canonical board (brightness shape, colour against the board's
own, smoothness inside and on the rim) plus the ring score itself, through a one-hidden-layer network in plain
NumPy (no new run-time dependency). The weights ship in `vision/slots_model.npz` and are made by
`python -m vision.train_slots` (seeded renders of every board kind of vision.synthetic plus, optionally, our
labelled real photos: see that module).

The detector uses it as a veto and a finder of objects, never to add checkers: where the judge says a slot is
not a checker, the ring's probability is scaled down; where it says object, the column is covered.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from vision.sampling import CentreIndex

MODEL = Path(__file__).with_name("slots_model.npz")
CLASSES = ("empty", "checker", "object")
#: what an object is (board events' ``covered[].by``); "object" when the kinds' model is not sure
OBJECT_KINDS = ("cup", "die", "cube", "phone")
#: the kinds' model: the same features, the judge's object split by kind (vision/kinds_model.npz)
KIND_MODEL = Path(__file__).with_name("kinds_model.npz")
KIND_CLASSES = ("empty", "checker", *OBJECT_KINDS)
GRID = 10  # the crop's side in samples (a checker's width across)
CHROMA = 5  # the colour crop's side in samples
CONTEXT = 6  # the surroundings' side in samples, over two checker widths (a dice cup is wider than a checker)


@dataclass(frozen=True)
class SlotModel:
    mean: np.ndarray  # (F,) feature standardisation
    scale: np.ndarray  # (F,)
    w1: np.ndarray  # (F, H)
    b1: np.ndarray  # (H,)
    w2: np.ndarray  # (H, 3)
    b2: np.ndarray  # (3,)

    def predict(self, features: np.ndarray) -> np.ndarray:
        """(N, F) features -> (N, classes) probabilities: the judge's empty, checker, object; the kinds' model's
        KIND_CLASSES."""
        x = (features - self.mean) / self.scale
        h = np.maximum(x @ self.w1 + self.b1, 0.0)
        z = h @ self.w2 + self.b2
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=1, keepdims=True)

    def save(self, path: Path) -> None:
        np.savez_compressed(path, **{k: getattr(self, k).astype(np.float32) for k in
                                     ("mean", "scale", "w1", "b1", "w2", "b2")})

    @classmethod
    def load(cls, path: Path) -> SlotModel:
        with np.load(path) as d:
            return cls(*(d[k].astype(np.float32) for k in ("mean", "scale", "w1", "b1", "w2", "b2")))


@cache
def default_model() -> SlotModel | None:
    return SlotModel.load(MODEL) if MODEL.is_file() else None


@cache
def default_kind_model() -> SlotModel | None:
    return SlotModel.load(KIND_MODEL) if KIND_MODEL.is_file() else None


class SlotFeatures:
    """Sampling offsets for one checker width, built once per detector."""

    def __init__(self, cw: float) -> None:
        t = (np.arange(GRID, dtype=np.float32) + 0.5) / GRID - 0.5
        gx, gy = np.meshgrid(t * cw, t * cw)
        self.dx, self.dy = gx.ravel(), gy.ravel()
        c = (np.arange(CHROMA, dtype=np.float32) + 0.5) / CHROMA - 0.5
        cx, cy = np.meshgrid(c * 0.8 * cw, c * 0.8 * cw)
        self.cdx, self.cdy = cx.ravel(), cy.ravel()
        o = (np.arange(CONTEXT, dtype=np.float32) + 0.5) / CONTEXT - 0.5
        ox, oy = np.meshgrid(o * 2.0 * cw, o * 2.0 * cw)
        self.odx, self.ody = ox.ravel(), oy.ravel()
        r = np.hypot(gx, gy).ravel() / cw
        self.inner = r < 0.3
        self.rim = (r >= 0.33) & (r < 0.5)
        self.cw = cw
        self.offsets_x = np.concatenate([self.dx, self.cdx, self.odx])  # the grid, the colour crop, the surroundings
        self.offsets_y = np.concatenate([self.dy, self.cdy, self.ody])
        self._index = CentreIndex()  # their pixels around the centres seen so far (vision/sampling.py)

    def __call__(self, canonical: np.ndarray, x: np.ndarray, y: np.ndarray, ring: np.ndarray,
                 slot: np.ndarray) -> np.ndarray:
        """(N, F) features for N slots centred at (x, y) with their ring scores and slot indices, from an 8-bit
        BGR canonical image.

        The values are those of the whole-image float computation (Lab, its L as float32, |Laplacian| of it)
        sampled at the slots; the Laplacian of 8-bit L is whole numbers, so it is taken in 16 bits and the
        board's colour and the texture, medians of whole numbers, are counted (np.median sorted them)."""
        lab = cv2.cvtColor(canonical, cv2.COLOR_BGR2LAB)
        h, w = lab.shape[:2]
        grey = cv2.extractChannel(lab, 0).reshape(-1)
        lap = np.abs(cv2.Laplacian(grey.reshape(h, w), cv2.CV_16S, ksize=3))
        counts = np.bincount((lab[::4, ::4].reshape(-1, 3) + np.array([0, 256, 512], np.intp)).ravel(), minlength=768)
        board = np.array([median_of_counts(c) for c in counts.reshape(3, 256)], np.float32)
        texture = median_of_counts(np.bincount(lap[::2, ::2].ravel())) + 1.0
        lap = lap.reshape(-1)

        def compute(which: np.ndarray) -> np.ndarray:
            xi = np.clip(x[which, None] + self.offsets_x + 0.5, 0, w - 1).astype(np.intp)
            yi = np.clip(y[which, None] + self.offsets_y + 0.5, 0, h - 1).astype(np.intp)
            return yi * w + xi

        at = self._index((h, w), x, y, compute)
        grid, chroma, context = np.split(at, np.cumsum([len(self.dx), len(self.cdx)]), axis=1)
        g = grey.take(grid).astype(np.float32)  # (N, G*G)
        m = g.mean(axis=1, keepdims=True)
        s = g.std(axis=1, keepdims=True)
        shape = (g - m) / (s + 8.0)
        ab = (lab.reshape(-1, 3).take(chroma, axis=0)[:, :, 1:].astype(np.float32) - board[1:]) / 20.0
        around = (grey.take(context).astype(np.float32) - m) / (s + 8.0)
        lp = lap.take(grid).astype(np.float32)
        inner = lp[:, self.inner].mean(axis=1) / texture
        rim = lp[:, self.rim].mean(axis=1) / texture
        extra = np.stack([(m[:, 0] - board[0]) / 40.0, s[:, 0] / 30.0, ring, inner, rim, inner / (rim + 0.5),
                          slot.astype(np.float32), np.log(texture) * np.ones_like(ring)], axis=1)
        return np.concatenate([shape, ab.reshape(len(x), -1), around, extra], axis=1).astype(np.float32)


def median_of_counts(counts: np.ndarray) -> float:
    """The median of whole numbers given as counts per value (np.median's: the mean of the two middle values)."""
    below = np.cumsum(counts)
    n = int(below[-1])
    lo, hi = np.searchsorted(below, [(n - 1) // 2 + 1, n // 2 + 1])
    return (int(lo) + int(hi)) / 2
