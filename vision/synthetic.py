"""Random positions and scenes for tests and threshold tuning (seeded, deterministic)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.render import Options, Scene


def random_scene(rng: np.random.Generator, max_per_point: int = 6) -> Scene:
    """15 checkers a side spread over points (no point shared by both sides), up to 3 on the bar, some off."""
    light, dark = [0] * 24, [0] * 24
    bar = {side: int(rng.choice(4, p=[0.7, 0.15, 0.1, 0.05])) for side in ("light", "dark")}  # after hits
    off = {"light": int(rng.integers(0, 3)) if rng.random() < 0.2 else 0,
           "dark": int(rng.integers(0, 3)) if rng.random() < 0.2 else 0}
    for counts, other, side in ((light, dark, "light"), (dark, light, "dark")):
        left = 15 - bar[side] - off[side]
        while left > 0:
            p = int(rng.integers(24))
            if other[p] or counts[p] >= max_per_point:
                continue
            k = int(min(left, rng.integers(1, 4), max_per_point - counts[p]))
            counts[p] += k
            left -= k
    return Scene(light, dark, bar, off)


def random_options(rng: np.random.Generator, size: tuple[int, int], hand: bool = False) -> Options:
    return Options(size=size, perspective=float(rng.uniform(0.0, 0.06)), rotate=float(rng.uniform(0, 8)),
                   blur=float(rng.uniform(0.3, 1.0)), noise=float(rng.uniform(1, 5)), glare=bool(rng.random() < 0.6),
                   gradient=float(rng.uniform(0, 0.3)), dice=bool(rng.random() < 0.8), hand=hand,
                   bar_to_checker=float(rng.uniform(0.4, 0.8)), aspect=float(rng.uniform(0.95, 1.05)),
                   point_length=float(rng.uniform(0.36, 0.42)))


class SensorNoise:
    """A camera's per-frame sensor noise on a rendered still: Gaussian, ``sigma`` grey levels, a new draw each
    frame. Drawn from a bank of ``bank`` seeded noise images picked at random per frame, then added with
    saturation: per pixel the same Gaussian as a fresh ``rng.normal`` per frame (two frames in a row share their
    noise one time in ``bank``), at 0.3 ms a 640x360 frame instead of 11 ms (the rendered games' hot spot)."""

    def __init__(self, rng: np.random.Generator, sigma: float, bank: int = 16) -> None:
        self.rng, self.sigma, self.size = rng, sigma, bank
        self._bank: dict[tuple[int, ...], list[np.ndarray]] = {}

    def __call__(self, image: np.ndarray) -> np.ndarray:
        bank = self._bank.get(image.shape)
        if bank is None:
            bank = self._bank[image.shape] = [np.rint(self.rng.normal(0, self.sigma, image.shape)).astype(np.int16)
                                              for _ in range(self.size)]
        return cv2.add(image, bank[int(self.rng.integers(self.size))], dtype=cv2.CV_8U)
