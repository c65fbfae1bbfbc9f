"""Registration: where the playing field is in the camera image.

Sources: ArUco markers (DICT_4X4_50, ids 0..3 at the field's top-left, top-right, bottom-right and
bottom-left; the field corner is the marker corner nearest the board's centre, so the markers may be
stuck on in any rotation), or four corners clicked once on the kiosk. While hands hide markers the last
good registration is kept; markers found far from where they were mean the camera was bumped.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.config import RegistrationConfig


class NoMarkersError(LookupError):
    """The ArUco markers needed for registration are not in the image."""


def _detector(cfg: RegistrationConfig) -> cv2.aruco.ArucoDetector:
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, cfg.aruco_dictionary))
    return cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters())


def find_marker_corners(image: np.ndarray, cfg: RegistrationConfig,
                        detector: cv2.aruco.ArucoDetector | None = None) -> tuple[np.ndarray | None, list[int]]:
    """Field corners (tl, tr, br, bl) from the four markers, or None; also the ids that were seen."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    detector = detector or _detector(cfg)
    seen: dict[int, np.ndarray] = {}
    # search a smaller copy first (four times fewer pixels); the full image only when that misses a marker
    for scale in ((cfg.search_scale, 1.0) if cfg.search_scale < 1.0 else (1.0,)):
        small = grey if scale == 1.0 else cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        corners, ids, _ = detector.detectMarkers(small)
        seen = {}
        if ids is not None:
            for c, i in zip(corners, ids.ravel(), strict=True):
                if int(i) in cfg.marker_ids:
                    seen[int(i)] = c.reshape(4, 2) / scale
        if len(seen) == 4:
            if scale != 1.0:
                pts: np.ndarray = np.concatenate([seen[i] for i in cfg.marker_ids]).astype(np.float32)
                crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.05)
                pts = cv2.cornerSubPix(grey, pts.reshape(-1, 1, 2), (3, 3), (-1, -1), crit).reshape(-1, 4, 2)
                seen = {i: pts[k] for k, i in enumerate(cfg.marker_ids)}
            break
    if len(seen) < 4:
        return None, sorted(seen)
    centre = np.mean([seen[i].mean(axis=0) for i in cfg.marker_ids], axis=0)
    field = [seen[i][np.argmin(np.linalg.norm(seen[i] - centre, axis=1))] for i in cfg.marker_ids]
    return np.array(field, np.float32), sorted(seen)


@dataclass
class Registration:
    corners: np.ndarray
    source: str  # "markers", "clicked" or "kept"
    bumped: bool = False


class Registrar:
    """Keeps a registration across frames: markers when seen, else the last good one."""

    def __init__(self, cfg: RegistrationConfig, corners: np.ndarray | None = None) -> None:
        self.cfg = cfg
        self.detector = _detector(cfg)
        self.clicked = corners is not None
        self.last: np.ndarray | None = None if corners is None else np.asarray(corners, np.float32)
        self.reference: np.ndarray | None = None  # small view of the frame around the field, for bumps
        self.moved_frames = 0

    def update(self, frame: np.ndarray) -> Registration | None:
        found, _ = (None, []) if self.clicked else find_marker_corners(frame, self.cfg, self.detector)
        if found is not None:
            bumped = self.last is not None and float(np.abs(found - self.last).max()) > self.cfg.bump_px
            self.last = found
            return Registration(found, "markers", bumped)
        if self.last is None:
            return None
        if self.clicked:
            bumped = self._frame_moved(frame)
            return Registration(self.last, "clicked", bumped)
        return Registration(self.last, "kept")

    def _frame_moved(self, frame: np.ndarray) -> bool:
        """With clicked corners a bump shows as the surroundings of the board shifting, for good: phase
        correlation of a thumbnail with the field blanked out (hands and checkers move there), held for
        `bump_frames` frames. The corners then follow the shift, so a nudged camera keeps working."""
        grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        h, w = grey.shape
        scale = 96 / w
        thumb = cv2.resize(grey, (96, max(8, int(h * scale))), interpolation=cv2.INTER_AREA).astype(np.float32)
        assert self.last is not None
        field = np.zeros(thumb.shape, np.uint8)
        cv2.fillConvexPoly(field, np.round(self.last * scale).astype(np.int32), 1)
        thumb[field > 0] = float(thumb[field == 0].mean()) if (field == 0).any() else 0.0
        if self.reference is None:
            self.reference = thumb
            return False
        (dx, dy), response = cv2.phaseCorrelate(self.reference, thumb)
        # a shift of less than a thumbnail pixel is noise (in a 1280-wide frame one is 13 pixels: more than
        # bump_px, and a hand over the frame then looked like a bump that reset the stillness)
        shifted = response > 0.4 and float(np.hypot(dx, dy)) > max(self.cfg.bump_px * scale, 1.0)
        self.moved_frames = self.moved_frames + 1 if shifted else 0
        if self.moved_frames < self.cfg.bump_frames:
            return False
        self.last = self.last + np.array([dx, dy], np.float32) / scale
        self.reference, self.moved_frames = None, 0
        return True
