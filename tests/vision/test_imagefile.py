"""Image sizes read from file headers, checked before decoding (issue 16: a 30,000-pixel-square image)."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.camera import CameraError, FolderSource
from vision.imagefile import ImageFileError, check_image, image_size, read_image


@pytest.mark.parametrize("suffix,kind", [(".jpg", "JPEG"), (".png", "PNG"), (".bmp", "BMP"), (".webp", "WebP")])
def test_header_size_matches_what_opencv_decodes(tmp_path: Path, suffix: str, kind: str) -> None:
    path = tmp_path / f"frame{suffix}"
    assert cv2.imwrite(str(path), np.full((123, 321, 3), 77, np.uint8))
    assert image_size(path.read_bytes()[:65536]) == (kind, 321, 123)
    assert read_image(path).shape == (123, 321, 3)


def test_lossless_webp_header(tmp_path: Path) -> None:
    path = tmp_path / "lossless.webp"
    assert cv2.imwrite(str(path), np.zeros((50, 70, 3), np.uint8), [cv2.IMWRITE_WEBP_QUALITY, 101])
    assert image_size(path.read_bytes()) == ("WebP", 70, 50)


def _png_header(width: int, height: int) -> bytes:
    body = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + body
            + struct.pack(">I", zlib.crc32(b"IHDR" + body)))


def test_too_many_pixels_refused_before_decoding(tmp_path: Path) -> None:
    path = tmp_path / "huge.png"
    path.write_bytes(_png_header(30_000, 30_000) + b"\x00" * 100)
    with pytest.raises(ImageFileError, match="30000x30000 pixels \\(900 megapixels\\)"):
        check_image(path)
    check_image(path, max_pixels=10**9)  # the limit is the only reason
    folder = tmp_path / "frames"
    folder.mkdir()
    (folder / "a.png").write_bytes(path.read_bytes())
    with pytest.raises(CameraError, match="megapixels"):
        next(FolderSource(folder).frames())


def test_not_an_image_and_damaged_data(tmp_path: Path) -> None:
    text = tmp_path / "notes.png"
    text.write_text("hello")
    with pytest.raises(ImageFileError, match="not a JPEG, PNG, BMP or WebP image"):
        check_image(text)
    cut = tmp_path / "cut.png"
    cut.write_bytes(_png_header(400, 300))
    with pytest.raises(ImageFileError, match="damaged or cut short"):
        read_image(cut, quiet=True)
