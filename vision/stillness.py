"""Is the board still? Frame differencing plus hand/arm detection on the registered board image.

A board is reported stable only after nothing has moved and no hand has been seen for `still_seconds`.
A hand resting motionless over the board must still block it, so besides motion two cues are kept
against the last stable board: skin-coloured pixels that were not there, and changes that reach the
frame around the field (an arm always comes in over the edge; a checker moved by the camera's own
perspective never crosses the whole frame band).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.config import StillnessConfig


@dataclass
class StillnessState:
    stable: bool
    moving: bool
    hand: bool
    motion: float  # fraction of pixels that changed since the previous frame
    skin: float  # fraction of new skin-coloured pixels


def skin_mask(small_bgr: np.ndarray) -> np.ndarray:
    """Skin in YCrCb (a common, lighting-tolerant box), also matching tanned and pale hands."""
    ycc = cv2.cvtColor(small_bgr, cv2.COLOR_BGR2YCrCb)
    return cv2.inRange(ycc, (40, 136, 80), (245, 175, 128)) > 0


class Stillness:
    """``checker_px``: a checker's width in the images fed (the canonical board), if known. Skin-coloured
    checkers (orange, tan, wood) then do not count as skin where they moved: only new skin wider than a
    checker chain, or reaching the picture's edge (an arm), is a hand."""

    def __init__(self, cfg: StillnessConfig, checker_px: float | None = None) -> None:
        self.cfg = cfg
        self.checker_px = checker_px
        self.prev: np.ndarray | None = None
        self.ref: np.ndarray | None = None
        self.ref_skin: np.ndarray | None = None
        self.quiet_since: float | None = None
        self.motionless_since: float | None = None

    def _small(self, image: np.ndarray) -> np.ndarray:
        h, w = image.shape[:2]
        s = self.cfg.downscale_px / max(w, h)
        small = cv2.resize(image, (max(8, int(w * s)), max(8, int(h * s))), interpolation=cv2.INTER_AREA)
        return cv2.GaussianBlur(small, (3, 3), 0)

    def update(self, image: np.ndarray, t: float) -> StillnessState:
        """Feed one registered board image taken at time t (seconds)."""
        cfg = self.cfg
        small = self._small(image)
        grey = small.astype(np.int16)  # colour, not grey: a hand can be as bright as a wooden board
        skin = skin_mask(small)
        motion = 1.0 if self.prev is None or self.prev.shape != grey.shape else \
            float(np.mean(_largest_channel(np.abs(grey - self.prev)) > cfg.diff_threshold))
        self.prev = grey
        if self.ref is None:
            self.ref, self.ref_skin = grey, skin
        changed = _largest_channel(np.abs(grey - self.ref)) > cfg.diff_threshold
        assert self.ref_skin is not None  # set with ref
        new_skin = self._hand_skin(skin & ~self.ref_skin & changed, image.shape[:2])
        arm = _arm_from_edge(changed, cfg.arm_area_fraction) or \
            _crosses_frame(changed, cfg.frame_band, cfg.frame_crossing)
        moving = motion > cfg.moving_fraction
        if moving:
            self.motionless_since = None
        elif self.motionless_since is None:
            self.motionless_since = t
        still_for = -1.0 if self.motionless_since is None else t - self.motionless_since
        if (arm and new_skin <= cfg.skin_fraction and still_for >= cfg.rebase_seconds) or \
                still_for >= cfg.rebase_skin_seconds:
            # long motionless: the reference itself held the arm (a hand at start-up), or a whole new set-up
            # of skin-coloured checkers was made; a real hand does not stay that still for that long
            self.ref, self.ref_skin, arm, new_skin = grey, skin, False, 0.0
        hand = new_skin > cfg.skin_fraction or arm
        if moving or hand:
            self.quiet_since = None
        elif self.quiet_since is None:
            self.quiet_since = t
        stable = self.quiet_since is not None and t - self.quiet_since >= cfg.still_seconds
        if stable:
            self.ref, self.ref_skin = grey, skin
        return StillnessState(stable=stable, moving=moving, hand=hand, motion=motion, skin=new_skin)


    def _hand_skin(self, mask: np.ndarray, full_shape: tuple[int, ...]) -> float:
        """Share of the picture that is new skin shaped like a hand. A moved skin-coloured checker, or a
        chain of them along a point (as wide as one checker), is not; a blob wider than
        ``skin_blob_checkers`` checkers, or one reaching the picture's edge, is."""
        if self.checker_px is None or not mask.any():
            return float(np.mean(mask))
        cw = self.checker_px * mask.shape[1] / full_shape[1]
        _, _, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
        h, w = mask.shape
        area = 0
        for x, y, bw, bh, a in stats[1:]:
            edge = x == 0 or y == 0 or x + bw == w or y + bh == h
            if edge or min(bw, bh) > self.cfg.skin_blob_checkers * cw:
                area += int(a)
        return area / mask.size


def _largest_channel(a: np.ndarray) -> np.ndarray:
    """``a.max(axis=2)`` of an HxWx3 picture, the same values: numpy's reduction over an axis of 3 took 13 times
    as long (0.75 ms a frame twice, a fifth of the stillness check's time)."""
    return np.maximum(np.maximum(a[:, :, 0], a[:, :, 1]), a[:, :, 2])


def _arm_from_edge(changed: np.ndarray, min_area: float) -> bool:
    """A changed region that touches the picture's edge and is large: an arm reaching in. A checker borne
    off into a tray also changes the edge, but only by a checker's area."""
    if not changed.any():
        return False
    n, labels, stats, _ = cv2.connectedComponentsWithStats(changed.astype(np.uint8), connectivity=8)
    k = max(2, changed.shape[0] // 30)
    edge = np.zeros_like(changed)
    edge[:k], edge[-k:], edge[:, :k], edge[:, -k:] = True, True, True, True
    touching = np.unique(labels[edge & changed])
    areas = stats[touching[touching > 0], cv2.CC_STAT_AREA] / changed.size
    return bool((areas > min_area).any())


def _crosses_frame(changed: np.ndarray, band: float, width: float) -> bool:
    """Something wide changed on the outer frame at the players' sides (top and bottom of the canonical
    board): no checker goes there, an arm must cross it, even a hand the colour of the board."""
    h, w = changed.shape
    k = max(1, int(round(band * h)))
    need = max(2, int(round(width * w)))
    for rows in (changed[:k], changed[-k:]):
        cols = np.asarray(rows.any(axis=0), np.int8)
        run = best = 0
        for v in cols:
            run = run + 1 if v else 0
            best = max(best, run)
        if best >= need:
            return True
    return False
