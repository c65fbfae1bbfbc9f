"""Registration + counting for one image: the stage shared by `gamao detect`, the pipeline and the tests."""

from __future__ import annotations

import numpy as np

from vision.config import VisionConfig, load_config
from vision.detect import BoardReading, ColourModel, Detector
from vision.geometry import BoardLayout, validate_corners


class BoardReader:
    def __init__(self, cfg: VisionConfig | None = None) -> None:
        self.cfg = cfg or load_config()
        self.layout = BoardLayout.from_config(self.cfg.geometry)
        self.detector = Detector(self.layout, self.cfg.detect)
        self.colours: ColourModel | None = None

    def canonical(self, image: np.ndarray, corners: np.ndarray) -> np.ndarray:
        return self.layout.warp(image, validate_corners(corners))

    def read(self, image: np.ndarray, corners: np.ndarray) -> BoardReading:
        return self.detector.read(self.canonical(image, corners), self.colours)

    def learn_start(self, image: np.ndarray, corners: np.ndarray, light_home: str | None = None) -> ColourModel:
        """Learn the two checker colours from a board known to be at the starting position."""
        from vision.geometry import columns_to_points

        canonical = self.canonical(image, corners)
        top, bottom = columns_to_points(light_home or self.cfg.geometry.light_home)
        self.colours = self.detector.learn_start(canonical, top, bottom)
        return self.colours
