"""Reading a photo from disk safely: its size is read from the file's header and checked before decoding.

A 30,000-pixel-square PNG is a few kilobytes on disk and 2.7 GB once decoded (5.3 GB at OpenCV's peak):
`read_image` refuses anything above `MAX_PIXELS` (40 megapixels; a Pi camera's largest still is 12) or
below `MIN_SIDE` pixels a side (too small to show a board) before OpenCV sees it. Formats: JPEG, PNG, BMP
and WebP, the ones the camera and `gamao detect` use; anything else is refused by name.

>>> image_size(bytes.fromhex("89504e470d0a1a0a0000000d49484452") + (640).to_bytes(4, "big") + (480).to_bytes(4, "big"))
('PNG', 640, 480)
"""

from __future__ import annotations

import contextlib
import os
import struct
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

MAX_PIXELS = 40_000_000
MIN_SIDE = 32
HEADER_BYTES = 64 * 1024  # JPEG's frame header can come after EXIF data; 64 KiB is plenty for a camera's


class ImageFileError(ValueError):
    """The file is not an image this program can use; the message says why in one line."""


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:  # markers without a length
            i += 2
            continue
        (length,) = struct.unpack(">H", data[i + 2:i + 4])
        if length < 2:
            return None
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            if i + 9 > len(data):
                return None
            height, width = struct.unpack(">HH", data[i + 5:i + 9])
            return width, height
        i += 2 + length
    return None


def image_size(head: bytes) -> tuple[str, int, int] | None:
    """(format, width, height) from the first bytes of an image file, or None if it cannot be told."""
    if head.startswith(b"\x89PNG\r\n\x1a\n") and len(head) >= 24 and head[12:16] == b"IHDR":
        width, height = struct.unpack(">II", head[16:24])
        return "PNG", width, height
    if head.startswith(b"\xff\xd8"):
        size = _jpeg_size(head)
        return ("JPEG", *size) if size else None
    if head.startswith(b"BM") and len(head) >= 26:
        width, height = struct.unpack("<ii", head[18:26])
        return "BMP", abs(width), abs(height)
    if head.startswith(b"RIFF") and head[8:12] == b"WEBP" and len(head) >= 30:
        chunk = head[12:16]
        if chunk == b"VP8 " and head[23:26] == b"\x9d\x01\x2a":
            width, height = struct.unpack("<HH", head[26:30])
            return "WebP", width & 0x3FFF, height & 0x3FFF
        if chunk == b"VP8L" and head[20] == 0x2F:
            bits = int.from_bytes(head[21:25], "little")
            return "WebP", (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
        if chunk == b"VP8X":
            width = int.from_bytes(head[24:27], "little") + 1
            height = int.from_bytes(head[27:30], "little") + 1
            return "WebP", width, height
    return None


def check_image(path: str | Path, max_pixels: int = MAX_PIXELS, min_side: int = MIN_SIDE) -> tuple[str, int, int]:
    """The image's (format, width, height) if it may be decoded; ImageFileError (one line) if not."""
    path = Path(path)
    try:
        with path.open("rb") as fh:
            head = fh.read(HEADER_BYTES)
    except IsADirectoryError:
        raise ImageFileError(f"{path} is a folder, not an image") from None
    except FileNotFoundError:
        raise ImageFileError(f"cannot read {path}: no such file") from None
    except OSError as exc:
        raise ImageFileError(f"cannot read {path}: {exc.strerror or exc}") from None
    if not head:
        raise ImageFileError(f"{path} is empty")
    found = image_size(head)
    if found is None:
        raise ImageFileError(f"{path} is not a JPEG, PNG, BMP or WebP image (or its header is damaged)")
    kind, width, height = found
    if width * height > max_pixels:
        raise ImageFileError(f"{path} is {width}x{height} pixels ({width * height / 1e6:.0f} megapixels): "
                             f"images above {max_pixels / 1e6:.0f} megapixels are refused; scale it down first")
    if min(width, height) < max(1, min_side):
        raise ImageFileError(f"{path} is {width}x{height} pixels: too small to show a board "
                             f"(at least {min_side} pixels a side)")
    return kind, width, height


@contextlib.contextmanager
def _quiet_stderr() -> Iterator[None]:
    """libjpeg and libpng print warnings ("Premature end of JPEG file") straight to file descriptor 2."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def read_image(path: str | Path, max_pixels: int = MAX_PIXELS, quiet: bool = False,
               min_side: int = MIN_SIDE) -> Any:
    """The image as a BGR array, decoded only after `check_image` has accepted its header. `quiet` (for
    command-line use: it silences the whole process's stderr meanwhile) keeps the decoders' own warnings
    off the terminal; the error raised here says what was wrong."""
    import cv2

    kind, width, height = check_image(path, max_pixels, min_side)
    try:
        with _quiet_stderr() if quiet else contextlib.nullcontext():
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    except cv2.error as exc:
        raise ImageFileError(f"{path}: OpenCV cannot decode this {kind} file ({str(exc).strip().splitlines()[-1]})") from None
    if image is None:
        raise ImageFileError(f"{path}: the {kind} data is damaged or cut short; OpenCV cannot decode it")
    if sorted(image.shape[:2]) != sorted((width, height)):  # EXIF orientation may turn it a quarter
        raise ImageFileError(f"{path}: the header says {width}x{height} but the picture is "
                             f"{image.shape[1]}x{image.shape[0]}; the file is damaged")
    return image
