"""Checker counting per point from the canonical (top-down) board image.

A checker is found by its round outline, not by its colour, because a checker may be the colour of its
point (black on black, white on white) or of the field. For each point column, slots of one checker width
are examined from the outer edge inwards, up to about 1.4 point lengths (stacks of six and more run past
the tip). A slot's score is the share of a ring of checker size whose edges run along the ring (radial
gradient, little tangential gradient), taking the worse of the whole ring and of its inward arc: the
inward arc is what tells a checker from the straight sides of an empty point and the frame's edge.

Scores become probabilities per slot; stacks are contiguous from the edge, so
P(count = n) = p1 * ... * pn * (1 - p(n+1)): an honest distribution over counts for the referee.
Colours come afterwards from the disc interiors: prototypes learnt from a known position (the start),
or split into two clusters within the image (vision/colours.py).

Issue 33: a learned slot judge (vision/slots.py) looks at each slot where the ring score looked; where the ring
is doubtful it vetoes rings that are no checker (a cork, mosaic or painted field's texture), and two slots in a
row it judges an object (a dice cup, a phone) cover the column: `ColumnReading.covered`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.colours import CHROMA_WEIGHT, ColourModel, lab_values, two_colours
from vision.config import DetectConfig
from vision.geometry import BoardLayout
from vision.sampling import CentreIndex
from vision.slots import (
    KIND_CLASSES,
    OBJECT_KINDS,
    SlotFeatures,
    SlotModel,
    default_kind_model,
    default_model,
)

ROWS = ("top", "bottom")


@dataclass
class ColumnReading:
    light: int
    dark: int
    probs: dict[int, float]  # count -> probability (colour-free)
    colour_confidence: float = 1.0
    #: what stands on the column's slots that is not a checker ("object": a dice cup, a die, the cube, a phone);
    #: None when nothing does. The counts are the checkers seen beside it, never the object.
    covered: str | None = None

    @property
    def count(self) -> int:
        return self.light + self.dark

    def as_dict(self) -> dict[str, int]:
        return {"light": self.light, "dark": self.dark}


@dataclass
class BoardReading:
    top: list[ColumnReading]
    bottom: list[ColumnReading]
    bar: dict[str, int] = field(default_factory=lambda: {"light": 0, "dark": 0})
    bar_probs: dict[str, dict[int, float]] = field(default_factory=dict)  # side -> count -> probability

    def as_json(self) -> dict:
        return {"top": [c.as_dict() for c in self.top], "bottom": [c.as_dict() for c in self.bottom],
                "bar": dict(self.bar),
                "covered": {"top": [c.covered for c in self.top], "bottom": [c.covered for c in self.bottom]}}

    def columns(self) -> list[ColumnReading]:
        return self.top + self.bottom


class Detector:
    """Reads checker counts from canonical images of one layout; sampling offsets are built once."""

    def __init__(self, layout: BoardLayout, cfg: DetectConfig, model: SlotModel | None = None,
                 kinds: SlotModel | None = None) -> None:
        self.layout, self.cfg = layout, cfg
        cw = self.cw = layout.checker
        #: the learned judge of each slot (vision/slots.py); None reads with the ring score alone
        self.model = (model or default_model()) if cfg.slot_model else None
        #: the kinds' model (vision/slots.py): what an object is; None says "object" and covers no lone die
        self.kinds = (kinds or default_kind_model()) if cfg.slot_model and cfg.kind_model else None
        self.features = SlotFeatures(cw)
        length = min(cfg.column_length_to_point * layout.point_length, cfg.column_max_fraction * layout.field_height)
        self.slots = max(1, int(length / cw))
        th = np.arange(cfg.ring_angles) * 2 * np.pi / cfg.ring_angles
        self.cos, self.sin = np.cos(th).astype(np.float32), np.sin(th).astype(np.float32)
        radii = np.array(cfg.ring_radii, np.float32) * cw
        self.ring_dx = radii[:, None] * self.cos[None, :]  # (R, K)
        self.ring_dy = radii[:, None] * self.sin[None, :]
        steps = np.linspace(-1.0, 1.0, cfg.shift_steps) if cfg.shift_steps > 1 else np.zeros(1)
        sx, sy = np.meshgrid(steps * cfg.shift_x * cw, steps * cfg.shift_y * cw)
        self.shift_x, self.shift_y = sx.ravel().astype(np.float32), sy.ravel().astype(np.float32)
        self.shift_cost = 0.01 * (np.abs(steps[None, :]) + np.abs(steps[:, None])).ravel()
        # image y grows downwards: a top column's inward direction is +y, a bottom column's -y
        self.arc_top = np.cos(th - np.pi / 2) > cfg.inward_arc
        self.arc_bottom = np.cos(th + np.pi / 2) > cfg.inward_arc
        r = cfg.colour_radius * cw
        gx, gy = np.meshgrid(np.arange(-r, r + 1), np.arange(-r, r + 1))
        keep = gx**2 + gy**2 <= r * r
        self.disc_dx, self.disc_dy = gx[keep].astype(np.float32), gy[keep].astype(np.float32)
        self.col_x = np.array([layout.column_x(j) for j in range(12)] * 2, np.float32)
        self.edge_y = np.array([layout.top_y] * 12 + [layout.bottom_y] * 12, np.float32)
        self.inward = np.array([1.0] * 12 + [-1.0] * 12, np.float32)
        self.arcs = np.array([self.arc_top] * 12 + [self.arc_bottom] * 12)  # (24, K)
        self._rings = CentreIndex()  # ring sample indexes of the centres seen so far (vision/sampling.py)
        self._work = threading.local()  # each thread's working planes (a learning request may read beside the camera)

    # -- evidence ------------------------------------------------------------------------------------
    def gradients(self, image: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
        """Colour gradient of an 8-bit BGR image: per pixel, the channel with the strongest edge (black on black
        still has a rim); (x, y) as int16 (H, W) planes (Sobel's 3x3 values, whole numbers) and the edge scale."""
        # Channel by channel on contiguous planes (numpy on an (H, W, 3) array's channel strides, np.where on masks
        # of random pixels and np.percentile on a strided view were most of the time). An 8-bit image's Sobel values
        # are whole numbers below 1021: 16 bits hold them (cv2.spatialGradient is Sobel's 3x3 pair in 16 bits), and
        # their squares and sums are exact in float32, so every value is the one float32 throughout gave.
        h, w = image.shape[:2]
        work = getattr(self._work, "gradients", None)  # this thread's planes, kept between frames
        if work is None or work[0].shape != (h, w):
            work = self._work.gradients = (
                *(np.empty((h, w), np.uint8) for _ in range(3)), np.empty((h, w), np.int16),
                np.empty((h, w), np.int16), np.empty((h, w), np.float32), np.empty((h, w), np.float32),
                np.empty((h, w), np.float32), np.empty((h, w), np.uint8))
        b, g, r, x, y, m, best_m, sq, take = work
        planes = cv2.split(image, [b, g, r])
        best_x, best_y = np.empty((h, w), np.int16), np.empty((h, w), np.int16)
        cv2.spatialGradient(planes[0], best_x, best_y)
        cv2.multiply(best_x, best_x, best_m, dtype=cv2.CV_32F)
        cv2.add(best_m, cv2.multiply(best_y, best_y, sq, dtype=cv2.CV_32F), best_m)
        # the first channel of the largest m, as m.argmax(axis=2) picks it (a later one only when strictly larger)
        for c in (1, 2):
            cv2.spatialGradient(planes[c], x, y)
            cv2.multiply(x, x, m, dtype=cv2.CV_32F)
            cv2.add(m, cv2.multiply(y, y, sq, dtype=cv2.CV_32F), m)
            cv2.compare(m, best_m, cv2.CMP_GT, take)
            cv2.copyTo(x, take, best_x)
            cv2.copyTo(y, take, best_y)
            cv2.max(best_m, m, best_m)
        # a percentile is a function of the sorted values: sorted first, numpy's own interpolation is kept
        scale = float(np.sqrt(np.percentile(np.sort(best_m[::2, ::2], axis=None), self.cfg.gradient_percentile))) + 1.0
        return best_x, best_y, scale

    def ring_edges(self, gx: np.ndarray, gy: np.ndarray, scale: float, cx: np.ndarray,
                   cy: np.ndarray) -> np.ndarray:
        """(N, shifts, angles): whether the ring around each shifted centre has an edge running along it."""
        n, s, r, k = len(cx), len(self.shift_x), len(self.ring_dx), len(self.cos)
        at = self.ring_index(gx.shape, cx, cy)
        # the same float32 operations as on whole arrays, into fewer temporaries
        a = gx.reshape(-1).take(at).reshape(n, s, r, k).astype(np.float32)
        b = gy.reshape(-1).take(at).reshape(n, s, r, k).astype(np.float32)
        rad = a * self.cos
        rad += b * self.sin
        np.abs(rad, out=rad)
        tan = b * self.cos
        tan -= a * self.sin
        np.abs(tan, out=tan)
        ok = rad > self.cfg.edge_strength * scale
        ok &= rad > self.cfg.radial_over_tangential * tan
        return ok[:, :, 0] | ok[:, :, 1] | ok[:, :, 2] if r == 3 else np.asarray(ok.any(axis=2))

    def ring_index(self, shape: tuple[int, ...], cx: np.ndarray, cy: np.ndarray) -> np.ndarray:
        """(N, shifts * radii * angles): the flat pixel index of each ring sample around each shifted centre,
        kept per centre from frame to frame (vision/sampling.py)."""
        h, w = shape[:2]

        def compute(m: np.ndarray) -> np.ndarray:
            px = cx[m, None, None, None] + self.shift_x[None, :, None, None] + self.ring_dx[None, None]
            py = cy[m, None, None, None] + self.shift_y[None, :, None, None] + self.ring_dy[None, None]
            xi = np.clip(px + 0.5, 0, w - 1).astype(np.intp)
            yi = np.clip(py + 0.5, 0, h - 1).astype(np.intp)
            return (yi * w + xi).reshape(len(m), -1)

        return self._rings(shape, cx, cy, compute)

    def _best(self, score: np.ndarray, cx: np.ndarray, cy: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        score = score - self.shift_cost[None, :]
        k = score.argmax(axis=1)
        n = np.arange(len(cx))
        return score[n, k] + self.shift_cost[k], cx + self.shift_x[k], cy + self.shift_y[k]

    def disc_scores(self, gx: np.ndarray, gy: np.ndarray, scale: float, cx: np.ndarray, cy: np.ndarray,
                    arcs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Best ring score over small shifts for N centres; returns (score, best_x, best_y)."""
        ok = self.ring_edges(gx, gy, scale, cx, cy)
        whole = ok.mean(axis=2)
        inward = (ok & arcs[:, None, :]).sum(axis=2) / arcs.sum(axis=1)[:, None]
        return self._best(np.minimum(whole, self.cfg.inward_weight * inward), cx, cy)

    def disc_colours(self, image: np.ndarray, cx: np.ndarray, cy: np.ndarray) -> np.ndarray:
        """(N, 3) Lab: the median colour of the disc inside the ring at each centre of an 8-bit BGR image."""
        h, w = image.shape[:2]
        xi = np.clip(cx[:, None] + self.disc_dx + 0.5, 0, w - 1).astype(np.intp)
        yi = np.clip(cy[:, None] + self.disc_dy + 0.5, 0, h - 1).astype(np.intp)
        # each channel's median over the disc as np.median(axis=1).astype(np.uint8) gave it (the mean of the two
        # middle values, rounded down), from a sort of 16-bit values (a fifth of the time of np.median on 8 bits)
        px = np.sort(image.reshape(-1, 3).take(yi * w + xi, axis=0).transpose(0, 2, 1).astype(np.int16), axis=2)
        d = px.shape[2]
        bgr = ((px[:, :, (d - 1) // 2] + px[:, :, d // 2]) // 2).astype(np.uint8)[:, None, :]
        return lab_values(cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB)[:, 0, :])  # (N, 3)

    def learn_start(self, canonical: np.ndarray, top_points: list[int], bottom_points: list[int],
                    start: tuple[Sequence[int], Sequence[int]] | None = None) -> ColourModel:
        """Colour prototypes from a board at the starting position (physical points as in core): backgammon's,
        or ``start`` = (light's 24 counts, dark's 24 counts), a variant's (Plakoto's and Jacquet's 15 on one
        point each, R30/R32), which must have both colours on the board."""
        if start is None:
            from core import Position

            bg = Position.start()
            start = (bg.light, bg.dark)
        start_light, start_dark = start
        lab = canonical
        light: list[np.ndarray] = []
        dark: list[np.ndarray] = []
        for c, point in enumerate(top_points + bottom_points):
            nl, nd = start_light[point - 1], start_dark[point - 1]
            k = np.arange(min(nl + nd, 3), dtype=np.float32)
            if len(k) == 0:
                continue
            ys = self.edge_y[c] + self.inward[c] * (k + 0.5) * self.cw
            xs = np.full_like(ys, self.col_x[c])
            (light if nl else dark).extend(self.disc_colours(lab, xs, ys))
        gx, gy, scale = self.gradients(canonical)
        empty = {}
        for c, point in enumerate(top_points + bottom_points):
            if start_light[point - 1] + start_dark[point - 1]:
                continue
            ys = (self.edge_y[c] + self.inward[c] * (np.arange(self.slots) + 0.5) * self.cw).astype(np.float32)
            xs = np.full_like(ys, self.col_x[c])
            score, _, _ = self.disc_scores(gx, gy, scale, xs, ys, np.repeat(self.arcs[c:c + 1], self.slots, axis=0))
            empty[c] = (self.slot_patches(canonical, c), score > self.cfg.disc_threshold - self.cfg.empty_risk)
        return ColourModel(np.median(light, axis=0), np.median(dark, axis=0), empty)

    def slot_patches(self, canonical: np.ndarray, c: int) -> np.ndarray:
        """(slots, h, w, 3) float32: each slot of column c on the grid, nine tenths of a checker square."""
        h = max(2, int(0.45 * self.cw))
        x = int(round(self.col_x[c]))
        out = []
        for k in range(self.slots):
            y = int(round(self.edge_y[c] + self.inward[c] * (k + 0.5) * self.cw))
            out.append(canonical[max(0, y - h): y + h, max(0, x - h): x + h].astype(np.float32))
        shape = min(p.shape for p in out)
        return np.stack([p[: shape[0], : shape[1]] for p in out])

    def _seen_empty(self, canonical: np.ndarray, colours: ColourModel | None) -> np.ndarray:
        """(24, slots) bool: a slot that already looked somewhat like a checker when empty on the starting board
        (a white point's base between dark frames) and looks the same now: a ring found there is the point's
        own drawing under noise, not a checker. Slots that looked plain when empty are left to the rings,
        since a black checker on a black point can look like the point at its middle."""
        out = np.zeros((24, self.slots), bool)
        if colours is None or not colours.empty:
            return out
        for c, (empty, risky) in colours.empty.items():
            if not risky.any():
                continue
            now = self.slot_patches(canonical, c)
            if now.shape != empty.shape:
                continue
            out[c] = risky & (np.abs(now - empty).mean(axis=(1, 2, 3)) < self.cfg.empty_match)
        return out

    # -- reading -------------------------------------------------------------------------------------
    def read(self, canonical: np.ndarray, colours: ColourModel | None = None) -> BoardReading:
        cfg, cw = self.cfg, self.cw
        lab = canonical  # BGR; only the few disc samples are converted to Lab
        gx, gy, scale = self.gradients(canonical)
        p, raw, cols, lean, centres = self._slots(gx, gy, scale, lab, 0.0)
        if abs(lean) > cfg.lean_retry * cw:
            # seen from low down, checkers' tops lean off their points (parallax): read again with that lean
            p2, raw2, cols2, _, centres2 = self._slots(gx, gy, scale, lab, lean)
            if (p2[:, :-1] > 0.5).sum() > (p[:, :-1] > 0.5).sum():
                p, raw, cols, centres = p2, raw2, cols2, centres2
        readings = []
        p[:, :-1][self._seen_empty(canonical, colours)] = 0.0
        layered = self._second_layer(gx, gy, scale, p, raw)
        # a second layer of discs is a tall stack, which the judge has not learnt: it vetoes on the other columns
        covered = self._judge(canonical, p, raw, centres, spare=list(layered))
        layered = {c: d for c, d in layered.items() if covered[c] is None}
        colour_of = self._colour_assigner(p, cols, colours)
        p = self._unlike_checkers(p, cols, self._last_model)
        self._supported(p)
        for c in range(24):
            probs = layered.get(c) or count_distribution(p[c], cfg.tall_stack_tail)
            n = max(probs, key=probs.__getitem__)
            side, conf = colour_of(c, n)
            readings.append(ColumnReading(light=n if side == "light" else 0, dark=n if side == "dark" else 0,
                                          probs=probs, colour_confidence=conf, covered=covered[c]))
        bar, bar_probs = self._bar(gx, gy, scale, lab, colours or self._last_model)
        return BoardReading(top=readings[:12], bottom=readings[12:], bar=bar, bar_probs=bar_probs)

    def slot_features(self, canonical: np.ndarray, raw: np.ndarray, centres: np.ndarray) -> np.ndarray:
        """(24 * slots, F): the judge's features of every slot at the centre the ring score chose."""
        k = np.tile(np.arange(self.slots), 24)
        return self.features(canonical, centres[:, :, 0].ravel(), centres[:, :, 1].ravel(), raw.ravel(), k)

    def evidence(self, canonical: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The ring score's first pass (no lean, no judge): (p (24, slots + 1), raw, centres (24, slots, 2))."""
        gx, gy, scale = self.gradients(canonical)
        p, raw, _, _, centres = self._slots(gx, gy, scale, canonical, 0.0)
        return p, raw, centres

    def _supported(self, p: np.ndarray, cap: np.ndarray | None = None) -> None:
        """Checkers do not float, in place on p (24, slots + 1): a clear checker further out means the slots under it
        are taken, even where their own outline is lost (a black checker between the black frame and another black
        checker): each slot's chance is at least ``support`` times the next one's (at most `cap`'s, per slot)."""
        for k in range(self.slots - 2, -1, -1):
            held = self.cfg.support * p[:, k + 1]
            p[:, k] = np.maximum(p[:, k], held if cap is None else np.minimum(cap[:, k], held))

    def _judge(self, canonical: np.ndarray, p: np.ndarray, raw: np.ndarray, centres: np.ndarray,
               spare: list[int]) -> list[str | None]:
        """The learned judge's veto and objects, in place on p (not on the columns ``spare``); returns what
        covers each column."""
        covered: list[str | None] = [None] * 24
        if self.model is None:
            return covered
        features = self.slot_features(canonical, raw, centres)
        q = self.model.predict(features).reshape(24, self.slots, 3)
        kq = None if self.kinds is None else self.kinds.predict(features).reshape(24, self.slots, len(KIND_CLASSES))
        cfg = self.cfg
        # a clear ring is a checker whatever the judge says (real checkers it was not trained on have them, and
        # a field's texture or a cup's mouth rarely makes one): the judge rules where the ring is doubtful
        doubt = np.clip((cfg.judge_ring - raw) / 0.1, 0.0, 1.0)
        # nor under a clear ring: a slot with a checker clearly above it is taken (a pile of 15, whose first row
        # the upper rows hide in part, looked like an object to the judge, which has seen no piles)
        clear = raw >= cfg.judge_ring
        under = np.flip(np.maximum.accumulate(np.flip(clear, axis=1), axis=1), axis=1)  # a clear ring here or beyond
        doubt[under] = 0.0
        veto = doubt.copy()
        veto[spare] = 0.0
        ring = p[:, :-1].copy()
        p[:, :-1] *= 1.0 - veto * (1.0 - np.clip(q[:, :, 1] / cfg.slot_veto, 0.0, 1.0))
        # the judge vetoes the end of a stack, never a slot under a checker it keeps (a first slot leaning over the
        # frame is hard to judge): the ring's chance stands there
        self._supported(p, cap=ring)
        # an object covers a column where two slots in a row look like one (a dice cup or a phone is wider than a
        # checker): one slot alone judged "object" was a false cover too often (a die or the cube: below)
        sure = (q[:, :, 2] > cfg.object_threshold) & (doubt > 0.5)
        half = q[:, :, 2] > cfg.object_threshold / 2
        obj = sure & (np.pad(half[:, 1:], ((0, 0), (0, 1))) | np.pad(half[:, :-1], ((0, 0), (1, 0))))
        on_point = self.layout.point_length / self.cw - 0.5  # slots whose centre lies on the point
        for c in np.flatnonzero(obj.any(axis=1)):
            k0 = int(np.flatnonzero(obj[c])[0])
            k0 -= int(k0 > 0 and bool(half[c, k0 - 1]))  # where the object starts
            p[c, k0:] = 0.0  # an object ends the stack: what is beyond it is not read
            if k0 < on_point:  # past the point's tip (dice thrown in the middle) it covers no point
                k1 = k0 + int(np.cumprod(half[c, k0:]).sum())  # the object's slots
                covered[c] = "object" if kq is None else self._kind(kq[c, k0:max(k1, k0 + 1)])
        if kq is None:
            return covered
        # a die or the cube, smaller than a checker, fills one slot: it covers its column only where the kinds'
        # model is sure of it (one slot judged "object" alone gave false covers on real photos)
        small = kq[:, :, KIND_CLASSES.index("die")] + kq[:, :, KIND_CLASSES.index("cube")]
        # only where the ring is doubtful, as the judge: a die's outline sometimes makes a clear ring (then it is
        # counted as a checker, as before), but a real checker the kinds' model had not seen was taken for the cube
        # where a clear ring counted too (a pearl checker of the fmgammon broadcast, held out)
        lone = (small > cfg.lone_object) & (doubt > 0.5)
        lone[spare] = False  # a second layer of discs (a pile of 11 looked like the cube to it)
        lone[:, int(np.ceil(on_point)):] = False
        for c in np.flatnonzero(lone.any(axis=1)):
            if covered[c] is None:
                k0 = int(np.flatnonzero(lone[c])[0])
                p[c, k0:] = 0.0
                covered[c] = self._kind(kq[c, k0:k0 + 1])
        return covered

    def _kind(self, kq: np.ndarray) -> str:
        """What an object is from the kinds' model on its slots ((k, KIND_CLASSES)): the kind with more than
        ``kind_share`` of the object classes' chance over them, else "object"."""
        share = kq[:, 2:].sum(axis=0)
        share = share / max(float(share.sum()), 1e-6)
        best = int(share.argmax())
        return OBJECT_KINDS[best] if share[best] > self.cfg.kind_share else "object"

    def _slots(self, gx: np.ndarray, gy: np.ndarray, scale: float, image: np.ndarray,
               lean: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, float, np.ndarray]:
        """Per column and slot: probability of a checker, raw ring score and disc colour; the median
        sideways offset of the checkers found from their points' axes; and each slot's centre (x, y)."""
        cfg, cw = self.cfg, self.cw
        x = self.col_x + lean
        y = self.edge_y + self.inward * 0.5 * cw
        p = np.zeros((24, self.slots + 1), np.float32)
        raw = np.zeros((24, self.slots), np.float32)
        centres = np.zeros((24, self.slots, 2), np.float32)
        offsets: list[np.ndarray] = []
        for k in range(self.slots):
            s, bx, by = self.disc_scores(gx, gy, scale, x, y, self.arcs)
            # following the stack can drift half a checker onto a junction (a disc on a second layer pulls the
            # fit): where nothing is found off the grid, look on the grid as well
            grid = self.edge_y + self.inward * (k + 0.5) * cw
            redo = np.flatnonzero((s < cfg.disc_threshold) & (np.abs(y - grid) > cfg.regrid * cw))
            if len(redo):
                s2, bx2, by2 = self.disc_scores(gx, gy, scale, x[redo], grid[redo].astype(np.float32), self.arcs[redo])
                better = s2 > s[redo]
                s[redo[better]], bx[redo[better]], by[redo[better]] = s2[better], bx2[better], by2[better]
            raw[:, k] = s
            centres[:, k, 0], centres[:, k, 1] = bx, by
            p[:, k] = 1.0 / (1.0 + np.exp(-(s - cfg.disc_threshold) / cfg.disc_softness))
            # follow the stack: a found checker fixes where the next one starts
            found = p[:, k] > 0.5
            offsets.append((bx - self.col_x)[found])
            x = np.where(found, bx, x)
            y = np.where(found, by, y) + self.inward * cw
        # the discs' colours, all slots at once (each disc's median is its own: the same as slot by slot)
        cols = self.disc_colours(image, centres[:, :, 0].ravel(), centres[:, :, 1].ravel()).reshape(24, self.slots, 3)
        found_dx = np.concatenate(offsets)
        return p, raw, cols, float(np.median(found_dx)) if len(found_dx) >= 4 else 0.0, centres

    def _second_layer(self, gx: np.ndarray, gy: np.ndarray, scale: float, p: np.ndarray,
                      raw: np.ndarray) -> dict[int, dict[int, float]]:
        """Checkers stacked on top of a row sit over the junctions of the row below, at whole checker widths
        from the edge, and hide the row's own outlines. Where such discs are found, the count is the row
        below (seen or covered) plus the discs on top, reported with a spread: the camera cannot be sure."""
        cfg = self.cfg
        if self.slots < 2:
            return {}
        s = self._junction_scores(gx, gy, scale)
        half = s > cfg.layer_threshold
        out: dict[int, dict[int, float]] = {}
        for c in range(24):
            top = int(np.cumprod(half[c]).sum())
            if top == 0:
                continue
            # a row hidden under discs on top shows as a gap: a lost outline with checkers found beyond it
            lost = np.flatnonzero(p[c, : top + 1] <= 0.5)
            hidden = len(lost) > 0 and bool((p[c, lost[0] + 1: -1] > 0.5).any())
            clearer = float(s[c, :top].mean() - raw[c, :top].mean()) > cfg.layer_margin
            if not (hidden or clearer):
                continue  # the row below shows its outlines as well: junctions of flat checkers, not a layer
            # each disc on top rests on two below, and checkers do not float: the row runs to the last one seen
            seen = np.flatnonzero(p[c, :-1] > 0.5)
            bottom = max(top + 1, int(seen[-1]) + 1 if len(seen) else 0)
            n = bottom + top
            out[c] = {n - 1: 0.15, n: 0.6, n + 1: 0.2, n + 2: 0.05}
        return out

    def _junction_scores(self, gx: np.ndarray, gy: np.ndarray, scale: float) -> np.ndarray:
        """The disc scores at each column's junctions (24, slots - 1), junction by junction outwards, only on the
        columns whose junctions so far all held a disc: a layer is counted from the edge (the rest were never read,
        -inf; each centre's score is its own, so the same values)."""
        cfg, cw, n_half = self.cfg, self.cw, self.slots - 1
        s = np.full((24, n_half), -np.inf)
        cols = np.arange(24)
        for j in range(n_half):
            k = np.full(len(cols), j)
            cy = self.edge_y[cols] + self.inward[cols] * (k + 1.0) * cw
            s[cols, j], _, _ = self.disc_scores(gx, gy, scale, self.col_x[cols], cy.astype(np.float32), self.arcs[cols])
            cols = cols[s[cols, j] > cfg.layer_threshold]
            if not len(cols):
                break
        return s

    def _colour_assigner(self, p: np.ndarray, cols: np.ndarray,
                         colours: ColourModel | None) -> Callable[[int, int], tuple[str, float]]:
        seen = p[:, :-1] > 0.5
        contiguous = np.cumprod(seen, axis=1).astype(bool)
        per_col = self._column_colours(cols, contiguous)
        model = colours if colours is not None and colours.light is not None and colours.dark is not None \
            else two_colours(per_col[contiguous.any(axis=1)], self.cfg.colour_split)
        self._last_model = model

        def colour_of(c: int, n: int) -> tuple[str, float]:
            if n == 0:
                return "light", 1.0
            return model.classify(per_col[c] if contiguous[c].any() else cols[c, 0])

        return colour_of

    def _column_colours(self, cols: np.ndarray, contiguous: np.ndarray) -> np.ndarray:
        """Each column's median disc colour over its stack (the first `run` slots; zeros for none), as np.median gave
        it (the mean of the two middle values), for every column of the same height at once."""
        run = contiguous.sum(axis=1)
        per_col = np.zeros((24, 3), np.float32)
        for n in sorted(set(run.tolist()) - {0}):
            same = np.flatnonzero(run == n)
            s = np.sort(cols[same, :n], axis=1)
            per_col[same] = (s[:, (n - 1) // 2] + s[:, n // 2]) / 2
        return per_col

    _last_model: ColourModel = ColourModel(None, None)

    def _unlike_checkers(self, p: np.ndarray, cols: np.ndarray, model: ColourModel) -> np.ndarray:
        """Beyond the first slot, a ring whose inside looks like no checker colour (the field, a die) is
        not part of a stack; the first slot is spared because there a checker leans over the frame."""
        protos = [q for q in (model.light, model.dark) if q is not None]
        if not protos:
            return p
        d = np.min([np.linalg.norm(cols - q, axis=2) for q in protos], axis=0)  # (24, slots)
        keep = 1.0 / (1.0 + np.exp((d - self.cfg.colour_match) / self.cfg.colour_match_softness))
        keep[:, 0] = 1.0
        out = p.copy()
        out[:, :-1] *= keep
        return out

    def _bar(self, gx: np.ndarray, gy: np.ndarray, scale: float, lab: np.ndarray,
             model: ColourModel) -> tuple[dict[str, int], dict[str, dict[int, float]]]:
        """Checkers on the bar: ring peaks along the bar's axis, at least a checker apart. Each peak is a
        checker with a probability from its roundness and its colour; the counts are the likeliest, and the
        distribution over counts (the sum of those chances) goes to the referee."""
        cfg, cw, lay = self.cfg, self.cw, self.layout
        ys = np.arange(lay.top_y + 0.5 * cw, lay.bottom_y - 0.5 * cw + 1, cfg.bar_step * cw, dtype=np.float32)
        xs = np.full_like(ys, lay.bar_x)
        ok = self.ring_edges(gx, gy, scale, xs, ys)
        up = ok[:, :, self.arc_top].mean(axis=2)
        down = ok[:, :, self.arc_bottom].mean(axis=2)
        s, bx, by = self._best(np.minimum(np.minimum(up, down), ok.mean(axis=2)), xs, ys)
        chances: dict[str, list[float]] = {"light": [], "dark": []}
        taken: list[float] = []
        floor = cfg.bar_threshold - 4 * cfg.bar_softness
        found: list[tuple[float, float, str]] = []  # (y, chance, side) of every round enough peak
        peaks = [i for i in np.argsort(-s) if s[i] > floor]
        colours = self.disc_colours(lab, bx[peaks], by[peaks]) if peaks else np.empty((0, 3), np.float32)
        for i, colour in zip(peaks, colours, strict=True):
            p_round = 1.0 / (1.0 + np.exp(-(float(s[i]) - cfg.bar_threshold) / cfg.bar_softness))
            found.append((float(by[i]), min(p_round, self._checker_colour_chance(colour, model)),
                          model.classify(colour)[0]))
        # likely checkers first (they alone keep others away), then doubtful ones in the gaps; a ring's score
        # is flat within about 0.15 of a checker of its centre, so two touching checkers (1 apart) can be
        # found 0.7 apart, while a ring 0.7 off one checker crosses its inside
        for sure in (True, False):
            for y, p, side in found:
                if (p > 0.5) == sure and p >= 0.02 and all(abs(y - t) >= cfg.bar_separation * cw for t in taken):
                    taken.append(y)
                    chances[side].append(p)
        counts = {side: sum(1 for p in ps if p > 0.5) for side, ps in chances.items()}
        return counts, {side: sum_of_chances(ps) for side, ps in chances.items()}

    def _checker_colour_chance(self, colour: np.ndarray, model: ColourModel) -> float:
        """How much a disc's colour looks like a checker's rather than a hinge's or latch's (also round, also
        on the bar). Near a prototype, or much nearer one prototype than the other: the middle of a board
        is often lit differently from the edges where the colours were learnt."""
        protos = [q for q in (model.light, model.dark) if q is not None]
        if not protos:
            return 1.0
        d = sorted(float(np.linalg.norm((colour - q) * CHROMA_WEIGHT)) for q in protos)
        cfg = self.cfg
        near = 1.0 / (1.0 + np.exp((d[0] - cfg.bar_colour_match) / cfg.colour_match_softness))
        if len(d) < 2:
            return float(near)
        ratio = d[0] / max(d[1], 1e-6)
        nearer = 1.0 / (1.0 + np.exp((ratio - cfg.bar_colour_ratio) / 0.05))
        return float(max(near, nearer))


def sum_of_chances(chances: list[float]) -> dict[int, float]:
    """P(n) for the number of independent events with these chances (a Poisson-binomial distribution)."""
    dist = np.array([1.0])
    for p in chances:
        dist = np.append(dist * (1 - p), 0.0) + np.append(0.0, dist * p)
    return {n: float(q) for n, q in enumerate(dist) if q > 1e-4}


def count_distribution(p: np.ndarray, tail: float = 0.0) -> dict[int, float]:
    """P(n) for a stack contiguous from the edge, from per-slot probabilities (last slot: nothing further).

    A column filled to its last slot may hold more than the camera can see (checkers on a second layer):
    a share `tail` of that case goes to one to four more checkers, halving each time."""
    probs: dict[int, float] = {}
    run = 1.0
    for n in range(len(p)):
        last = n == len(p) - 1
        q = run * (1.0 if last else (1.0 - float(p[n])))
        if last and tail > 0:
            extra = [tail * 0.5**k for k in range(1, 5)]
            for k, e in enumerate(extra, start=1):
                probs[n + k] = q * e / sum(extra) * tail
            q *= 1.0 - tail
        if q > 1e-4:
            probs[n] = q
        run *= float(p[n])
    total = sum(probs.values()) or 1.0
    return {n: q / total for n, q in sorted(probs.items()) if q / total > 1e-4}
