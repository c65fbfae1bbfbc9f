"""Frame sources: a USB camera (OpenCV VideoCapture), the Pi camera (picamera2), a folder of images, a video file.

Every source yields (frame BGR uint8, t seconds). Files and folders play at a fixed frame rate so replays
are deterministic; live cameras use the monotonic clock.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.camera_controls import CameraControls

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp"}


class CameraError(RuntimeError):
    """A frame source cannot be opened."""


class FolderSource:
    def __init__(self, folder: str | Path, fps: float = 30.0) -> None:
        self.files = sorted(p for p in Path(folder).iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.files:
            raise CameraError(f"no images (jpg, png, bmp, webp) in folder {folder}")
        self.fps = fps

    def frames(self) -> Iterator[tuple[np.ndarray, float]]:
        from vision.imagefile import ImageFileError, read_image

        for i, path in enumerate(self.files):
            try:
                frame = read_image(path, min_side=1)  # its size checked from the header before decoding
            except ImageFileError as exc:
                raise CameraError(str(exc)) from None
            yield frame, i / self.fps


class CaptureSource:
    """OpenCV VideoCapture: a device index (USB camera) or a video file path."""

    def __init__(self, device: int | str, width: int | None = None, height: int | None = None) -> None:
        self.is_file = isinstance(device, str)
        if isinstance(device, str) and not Path(device).is_file():
            raise CameraError(f"no video file {device}")
        self.cap = cv2.VideoCapture(device)
        if not self.cap.isOpened():
            raise CameraError(f"cannot open camera or video {device}")
        if width and height:
            self.cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
            self.cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        self.fps = self.cap.get(cv2.CAP_PROP_FPS) or 30.0

    def frames(self) -> Iterator[tuple[np.ndarray, float]]:
        i, t0 = 0, time.monotonic()
        try:
            while True:
                ok, frame = self.cap.read()
                if not ok:
                    return
                yield frame, (i / self.fps if self.is_file else time.monotonic() - t0)
                i += 1
        finally:
            self.cap.release()


class PiCameraSource:
    """The Pi's own camera through picamera2 (imported only here: it exists only on Raspberry Pi OS). Its "RGB888"
    format arrives in BGR order, which is what OpenCV wants, so frames are used as they come. ``controls``: the
    config's fixed focus, exposure and flicker period (vision.camera_controls), set with the configuration so
    the first frame already has them; controls this camera lacks are left out and listed in ``missing``."""

    def __init__(self, width: int = 1280, height: int = 720, controls: CameraControls | None = None) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError as exc:
            raise CameraError("picamera2 is not installed: on Raspberry Pi OS `sudo apt install python3-picamera2` "
                              "(hardware/pi/install.sh does it)") from exc
        try:
            self.cam = Picamera2()
        except (RuntimeError, IndexError) as exc:  # no camera, or another program holds it
            raise CameraError(f"the Pi camera cannot be opened ({exc})") from exc
        self.controls = controls or CameraControls()
        wanted, self.missing = self.controls.libcamera(getattr(self.cam, "camera_controls", None))
        self.cam.configure(self.cam.create_video_configuration(main={"size": (width, height), "format": "RGB888"},
                                                               controls=wanted))
        self.wanted = wanted

    def read_back(self, frames: int = 10) -> dict[str, Any]:
        """Start, let the camera settle for a few frames, and return the last frame's metadata (what the
        camera really used); then stop and release the camera."""
        self.cam.start()
        try:
            metadata: dict[str, Any] = {}
            for _ in range(max(1, frames)):
                metadata = dict(self.cam.capture_metadata())
            return metadata
        finally:
            self.cam.stop()
            self.cam.close()

    def frames(self) -> Iterator[tuple[np.ndarray, float]]:
        self.cam.start()
        t0 = time.monotonic()
        try:
            while True:
                frame = self.cam.capture_array()
                yield frame[:, :, :3], time.monotonic() - t0
        finally:
            self.cam.stop()


def open_source(spec: str, controls: CameraControls | None = None) -> FolderSource | CaptureSource | PiCameraSource:
    """"picamera", a device number ("0"), a folder of images, or a video file. ``controls``: the Pi camera's."""
    if spec == "picamera":
        return PiCameraSource(controls=controls)
    if spec.isdigit():
        return CaptureSource(int(spec))
    if Path(spec).is_dir():
        return FolderSource(spec)
    return CaptureSource(spec)
