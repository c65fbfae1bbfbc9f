"""Random positions and scenes for tests and threshold tuning (seeded, deterministic)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.render import Options, Scene, gaussian


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
            k = min(left, int(rng.integers(1, 4)), max_per_point - counts[p])
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
    frame. Drawn from a bank of ``bank`` seeded noise images picked at random per frame, each kept as its
    positive and its negative part, added and then subtracted with saturation: per pixel the same values as
    ``clip(image + rint(noise), 0, 255)`` (one of the two parts is 0), at 0.6 ms a 1280x720 frame (an int16
    noise added with cv2.add: 1.8 ms; a fresh ``rng.normal`` per frame: 11 ms at 640x360). Two frames in a row
    share their noise one time in ``bank``."""

    def __init__(self, rng: np.random.Generator, sigma: float, bank: int = 16) -> None:
        self.rng, self.sigma, self.size = rng, sigma, bank
        self._bank: dict[tuple[int, ...], list[tuple[np.ndarray, np.ndarray]]] = {}

    def _draw(self, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
        noise = np.rint(gaussian(self.rng, self.sigma, shape))
        return np.clip(noise, 0, 255).astype(np.uint8), np.clip(-noise, 0, 255).astype(np.uint8)

    def __call__(self, image: np.ndarray) -> np.ndarray:
        bank = self._bank.get(image.shape)
        if bank is None:
            bank = self._bank[image.shape] = [self._draw(image.shape) for _ in range(self.size)]
        up, down = bank[int(self.rng.integers(self.size))]
        return cv2.subtract(cv2.add(image, up), down)
