"""Issue 33's speed: the faster frame reads exactly what the straightforward computation read.

The reference below is the code as it stood before the speed work (vision/detect.py and vision/slots.py at
4c1b2c8), kept verbatim: whole-image float32 gradients picked with np.where, ring samples by 2-D fancy indexing,
np.median of each disc and of each column's stack, the judge's features from the whole image's float Lab and
Laplacian. A detector built on it must give the same counts, covered points, chances and colours, and the same
features (to 1e-6; they are bit-identical here), on rendered boards of every kind and on the real photos beside
the checkout. The timing is bench/bench_vision.py's, never a test's."""

from __future__ import annotations

import threading
from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision import sampling
from vision.colours import two_colours
from vision.detect import ColourModel, Detector, lab_values
from vision.reader import BoardReader
from vision.render import Options, Scene, render
from vision.slots import SlotFeatures, median_of_counts
from vision.synthetic import kind_case, random_options, random_scene
from vision.train_slots import real_boards


class ReferenceFeatures(SlotFeatures):
    """SlotFeatures.__call__ as it was: Lab and the Laplacian of the whole image in float32, then sampled."""

    def __call__(self, canonical: np.ndarray, x: np.ndarray, y: np.ndarray, ring: np.ndarray,
                 slot: np.ndarray) -> np.ndarray:
        lab = cv2.cvtColor(canonical, cv2.COLOR_BGR2LAB)
        h, w = lab.shape[:2]
        grey = lab[:, :, 0].astype(np.float32)
        lap = np.abs(cv2.Laplacian(grey, cv2.CV_32F, ksize=3))
        board = np.median(lab[::4, ::4].reshape(-1, 3), axis=0).astype(np.float32)
        texture = float(np.median(lap[::2, ::2])) + 1.0
        xi = np.clip(x[:, None] + self.dx + 0.5, 0, w - 1).astype(np.intp)
        yi = np.clip(y[:, None] + self.dy + 0.5, 0, h - 1).astype(np.intp)
        g = grey[yi, xi]
        m = g.mean(axis=1, keepdims=True)
        s = g.std(axis=1, keepdims=True)
        shape = (g - m) / (s + 8.0)
        cxi = np.clip(x[:, None] + self.cdx + 0.5, 0, w - 1).astype(np.intp)
        cyi = np.clip(y[:, None] + self.cdy + 0.5, 0, h - 1).astype(np.intp)
        ab = (lab[cyi, cxi, 1:].astype(np.float32) - board[1:]) / 20.0
        oxi = np.clip(x[:, None] + self.odx + 0.5, 0, w - 1).astype(np.intp)
        oyi = np.clip(y[:, None] + self.ody + 0.5, 0, h - 1).astype(np.intp)
        around = (grey[oyi, oxi] - m) / (s + 8.0)
        lp = lap[yi, xi]
        inner = lp[:, self.inner].mean(axis=1) / texture
        rim = lp[:, self.rim].mean(axis=1) / texture
        extra = np.stack([(m[:, 0] - board[0]) / 40.0, s[:, 0] / 30.0, ring, inner, rim, inner / (rim + 0.5),
                          slot.astype(np.float32), np.log(texture) * np.ones_like(ring)], axis=1)
        return np.concatenate([shape, ab.reshape(len(x), -1), around, extra], axis=1).astype(np.float32)


class ReferenceDetector(Detector):
    """The detector with its evidence computed as it was before the speed work."""

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self.features = ReferenceFeatures(self.cw)

    def gradients(self, image: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
        gx = cv2.Sobel(image, cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(image, cv2.CV_32F, 0, 1, ksize=3)
        m = gx * gx + gy * gy
        best_x, best_y, best_m = gx[:, :, 0], gy[:, :, 0], m[:, :, 0]
        for c in (1, 2):
            take = m[:, :, c] > best_m
            best_x = np.where(take, gx[:, :, c], best_x)
            best_y = np.where(take, gy[:, :, c], best_y)
            best_m = np.where(take, m[:, :, c], best_m)
        scale = float(np.sqrt(np.percentile(best_m[::2, ::2], self.cfg.gradient_percentile))) + 1.0
        return best_x, best_y, scale

    def ring_edges(self, gx: np.ndarray, gy: np.ndarray, scale: float, cx: np.ndarray,
                   cy: np.ndarray) -> np.ndarray:
        h, w = gx.shape
        px = cx[:, None, None, None] + self.shift_x[None, :, None, None] + self.ring_dx[None, None]
        py = cy[:, None, None, None] + self.shift_y[None, :, None, None] + self.ring_dy[None, None]
        xi = np.clip(px + 0.5, 0, w - 1).astype(np.intp)
        yi = np.clip(py + 0.5, 0, h - 1).astype(np.intp)
        a, b = gx[yi, xi], gy[yi, xi]
        rad = np.abs(a * self.cos + b * self.sin)
        tan = np.abs(b * self.cos - a * self.sin)
        ok = (rad > self.cfg.edge_strength * scale) & (rad > self.cfg.radial_over_tangential * tan)
        return np.asarray(ok.any(axis=2))

    def _column_colours(self, cols: np.ndarray, contiguous: np.ndarray) -> np.ndarray:
        return np.array([np.median(cols[c][contiguous[c]], axis=0) if contiguous[c].any() else np.zeros(3)
                         for c in range(24)], np.float32)

    def _junction_scores(self, gx: np.ndarray, gy: np.ndarray, scale: float) -> np.ndarray:
        cw, n_half = self.cw, self.slots - 1
        cols = np.repeat(np.arange(24), n_half)
        k = np.tile(np.arange(n_half), 24)
        cy = self.edge_y[cols] + self.inward[cols] * (k + 1.0) * cw
        s, _, _ = self.disc_scores(gx, gy, scale, self.col_x[cols], cy.astype(np.float32), self.arcs[cols])
        return s.reshape(24, n_half)

    def disc_colours(self, image: np.ndarray, cx: np.ndarray, cy: np.ndarray) -> np.ndarray:
        h, w = image.shape[:2]
        xi = np.clip(cx[:, None] + self.disc_dx + 0.5, 0, w - 1).astype(np.intp)
        yi = np.clip(cy[:, None] + self.disc_dy + 0.5, 0, h - 1).astype(np.intp)
        bgr = np.median(image[yi, xi], axis=1).astype(np.uint8)[:, None, :]
        return lab_values(cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB)[:, 0, :])


def reference_reader(cfg_from: BoardReader) -> BoardReader:
    """A reader like ``cfg_from`` whose detectors are ReferenceDetectors (also after the bar's calibration)."""
    reader = BoardReader(cfg_from.cfg)
    reader.detector = ReferenceDetector(reader.layout, reader.cfg.detect)
    calibrate = reader.calibrate

    def calibrate_then_refer(image: np.ndarray, corners: np.ndarray) -> None:
        calibrate(image, corners)
        if not isinstance(reader.detector, ReferenceDetector):
            reader.detector = ReferenceDetector(reader.layout, reader.cfg.detect)

    reader.calibrate = calibrate_then_refer  # type: ignore[method-assign]
    return reader


def assert_same(new: BoardReader, ref: BoardReader, image: np.ndarray, corners: np.ndarray, what: str) -> None:
    got, want = new.read(image, corners), ref.read(image, corners)
    assert got.as_json() == want.as_json(), what  # counts, bar, covered points
    for g, w in zip(got.columns(), want.columns(), strict=True):
        assert (g.probs, g.colour_confidence) == (w.probs, w.colour_confidence), what
    assert got.bar_probs == want.bar_probs, what
    canonical = new.canonical(image, corners)
    assert np.array_equal(canonical, ref.canonical(image, corners))
    nd, rd = new.detector, ref.detector
    for a, b in zip(nd.gradients(canonical), rd.gradients(canonical), strict=True):
        assert np.array_equal(a, b), what
    p, raw, centres = nd.evidence(canonical)
    p0, raw0, centres0 = rd.evidence(canonical)
    assert np.array_equal(raw, raw0) and np.array_equal(centres, centres0) and np.array_equal(p, p0), what
    f, f0 = nd.slot_features(canonical, raw, centres), rd.slot_features(canonical, raw0, centres0)
    assert f.shape == f0.shape and float(np.max(np.abs(f - f0))) <= 1e-6, what


def renders() -> list[tuple[str, np.ndarray, np.ndarray, np.ndarray | None]]:
    """(what, image, corners, the start position's image to learn colours from or None)."""
    out: list[tuple[str, np.ndarray, np.ndarray, np.ndarray | None]] = []
    for kind in ("cork", "mosaic", "painted", "cups", "felt", "translucent", "keystone"):
        scene, o = kind_case(kind, 0)
        image, corners = render(scene, 1000, o)
        out.append((kind, image, corners, None))
    for s in range(2):
        rng = np.random.default_rng([s, 99])
        scene, o = random_scene(rng), random_options(rng, (640, 360))
        image, corners = render(scene, 1000 + s, o)
        start, _ = render(Scene.start(), 1000 + s, o)
        out.append((f"classic {s}", image, corners, None))
        out.append((f"classic {s}, colours learnt from the start", image, corners, start))
    image, corners = render(random_scene(np.random.default_rng(3)), 3, Options(size=(1280, 720)))
    out.append(("1280x720", image, corners, None))
    # piles: a second layer of discs on top of the first row (Plakoto's 15 on one point, tall stacks)
    for seed, (point, n) in enumerate(((19, 9), (14, 12), (24, 15))):
        dark = [0] * 24
        dark[point - 1] = n
        dark[(point + 4) % 24] = 15 - n
        light = [0] * 24
        light[0], light[5], light[7] = 5, 5, 5
        image, corners = render(Scene(light, dark), 50 + seed, Options(size=(640, 360)))
        out.append((f"a pile of {n}", image, corners, None))
    return out


@pytest.mark.parametrize("judge", [True, False], ids=["with the judge", "ring score alone"])
def test_rendered_boards_read_the_same(judge: bool) -> None:
    base = BoardReader()
    new = BoardReader(replace(base.cfg, detect=replace(base.cfg.detect, slot_model=judge)))
    for what, image, corners, start in renders():
        ref = reference_reader(new)
        if start is not None:
            new.learn_start(start, corners)
            ref.learn_start(start, corners)
            assert_colour_models_equal(new.colours, ref.colours)
        assert_same(new, ref, image, corners, what)
        new.colours = None


def assert_colour_models_equal(a: ColourModel | None, b: ColourModel | None) -> None:
    assert a is not None and b is not None
    assert np.array_equal(a.light, b.light) and np.array_equal(a.dark, b.dark)
    assert a.empty is not None and b.empty is not None and a.empty.keys() == b.empty.keys()
    for c in a.empty:
        assert all(np.array_equal(x, y) for x, y in zip(a.empty[c], b.empty[c], strict=True))


def test_real_photos_read_the_same() -> None:
    boards = real_boards()
    if not boards:
        pytest.skip("real photos not found (../shared is absent): their check is skipped")
    new = BoardReader()
    for _, name, photo, corners, _ in boards:
        image = cv2.imread(str(photo))
        assert image is not None, photo
        assert_same(new, reference_reader(new), image, corners, name)


def test_sample_indexes_kept_across_frames_stay_right(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tables of sample indexes (vision/sampling.py), also when they overflow and start again: the same ring
    edges as the reference's for centres seen before, new ones and a mix, on images of two sizes; the same
    features on two boards read in turn."""
    monkeypatch.setattr(sampling, "LIMIT", 30)
    reader = BoardReader()
    new, ref = reader.detector, ReferenceDetector(reader.layout, reader.cfg.detect)
    rng = np.random.default_rng(7)
    for size in ((330, 330), (200, 260)):
        gx = rng.integers(-400, 400, size).astype(np.float32)
        gy = rng.integers(-400, 400, size).astype(np.float32)
        seen = rng.uniform(-20, 350, (2, 12)).astype(np.float32)
        for _ in range(6):
            fresh = rng.uniform(-20, 350, (2, 12)).astype(np.float32)
            cx, cy = np.concatenate([seen, fresh], axis=1)
            assert np.array_equal(new.ring_edges(gx, gy, 90.0, cx, cy), ref.ring_edges(gx, gy, 90.0, cx, cy))
        assert new._rings.kept <= 30
    boards = [render(random_scene(np.random.default_rng(s)), s, Options(size=(640, 360))) for s in (1, 2)]
    for image, corners in boards + boards:
        canonical = reader.canonical(image, corners)
        _, raw, centres = reader.detector.evidence(canonical)
        assert np.array_equal(reader.detector.slot_features(canonical, raw, centres),
                              ref.slot_features(canonical, raw, centres))


@pytest.mark.parametrize("radius", [0.3, 0.25, 0.41])
def test_disc_colours_are_the_medians_np_median_gave(radius: float) -> None:
    """Discs of an even and an odd number of pixels, on a noisy image and on one of few values (ties)."""
    base = BoardReader()
    cfg = replace(base.cfg.detect, colour_radius=radius)
    new, ref = Detector(base.layout, cfg), ReferenceDetector(base.layout, cfg)
    rng = np.random.default_rng(1)
    cx, cy = rng.uniform(-5, 335, (2, 60)).astype(np.float32)
    for image in (rng.integers(0, 256, (330, 330, 3)), rng.integers(0, 3, (330, 330, 3)) * 120):
        image = image.astype(np.uint8)
        assert np.array_equal(new.disc_colours(image, cx, cy), ref.disc_colours(image, cx, cy))


def test_median_of_counts_is_np_median() -> None:
    rng = np.random.default_rng(2)
    for n in (1, 2, 3, 10, 11, 1000, 1001):
        for top in (2, 256, 2041):
            values = rng.integers(0, top, n)
            assert median_of_counts(np.bincount(values)) == float(np.median(values))


def test_two_threads_reading_with_one_detector_read_what_one_reads_alone() -> None:
    """The kiosk learns a board (an HTTP request) with the camera loop's detector, which may be reading a frame
    at the same time: the kept indexes and each thread's working planes must not mix their frames."""
    reader = BoardReader()
    canonicals = [reader.canonical(*render(random_scene(np.random.default_rng(s)), s, Options(size=(640, 360))))
                  for s in (4, 5)]
    detector = reader.detector
    alone = [detector.read(c).as_json() for c in canonicals]
    fresh = BoardReader().detector  # empty tables: both threads fill them at once
    got: list[list[dict]] = [[], []]

    def read(i: int) -> None:
        for _ in range(6):
            got[i].append(fresh.read(canonicals[i]).as_json())

    threads = [threading.Thread(target=read, args=(i,)) for i in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got[0] == [alone[0]] * 6 and got[1] == [alone[1]] * 6


def test_the_two_checker_colours_are_the_same_at_every_call() -> None:
    """The discs' two colours (k-means++, vision/colours.py two_colours) do not depend on what the thread read
    before: OpenCV's random generator, which every call moved on, split close colours differently 1 call in 3, so
    this file's comparison of two readers failed now and then (the second reader's split was not the first's)."""
    rng = np.random.default_rng(0)
    discs = [rng.normal(0, 30, (int(rng.integers(3, 24)), 3)).astype(np.float32) + np.float32([128, 0, 0])
             for _ in range(40)]

    def models() -> list[tuple[np.ndarray | None, np.ndarray | None]]:
        return [(m.light, m.dark) for m in (two_colours(x, 10.0) for x in discs)]

    def same(a: np.ndarray | None, b: np.ndarray | None) -> bool:
        return (a is None and b is None) or (a is not None and b is not None and np.array_equal(a, b))

    first = models()
    beside: list[tuple[np.ndarray | None, np.ndarray | None]] = []
    thread = threading.Thread(target=lambda: beside.extend(models()))  # a learning request beside the camera
    thread.start()
    again = models()
    thread.join()
    for other in (again, beside):
        assert all(same(a[0], b[0]) and same(a[1], b[1]) for a, b in zip(first, other, strict=True))
