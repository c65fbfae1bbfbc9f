"""Frame sources: folder of images, video file, and the Pi camera's clear error where picamera2 is absent."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.camera import CameraError, CaptureSource, FolderSource, PiCameraSource, open_source
from vision.pipeline import Pipeline
from vision.render import Options, Scene, render


def test_folder_source_plays_images_in_name_order_at_fixed_rate(tmp_path: Path) -> None:
    for i in (2, 0, 1):
        cv2.imwrite(str(tmp_path / f"f{i}.png"), np.full((20, 30, 3), i * 50, np.uint8))
    (tmp_path / "notes.txt").write_text("ignored")
    frames = list(open_source(str(tmp_path)).frames())
    assert [int(f[0, 0, 0]) for f, _ in frames] == [0, 50, 100]
    assert [t for _, t in frames] == [0.0, 1 / 30, 2 / 30]


def test_video_file_source_feeds_the_pipeline(tmp_path: Path) -> None:
    image, corners = render(Scene.start(), 3, Options(size=(320, 180)))
    path = tmp_path / "board.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30.0, (320, 180))
    for _ in range(20):
        writer.write(image)
    writer.release()
    source = CaptureSource(str(path))
    events = list(Pipeline(corners=corners, learn_start=False).events(source.frames()))
    assert [e["stable"] for e in events] == [False, True]


def test_missing_sources_say_what_is_wrong(tmp_path: Path) -> None:
    with pytest.raises(CameraError, match="no images"):
        FolderSource(tmp_path)
    with pytest.raises(CameraError, match="no video file"):
        CaptureSource(str(tmp_path / "none.mp4"))


def test_pi_camera_without_picamera2_is_a_clear_error() -> None:
    try:
        import picamera2  # noqa: F401
    except ImportError:
        with pytest.raises(CameraError, match="picamera2 is not installed"):
            PiCameraSource()
    else:
        pytest.skip("picamera2 is installed here")
