"""A disk that fills: a 3 MiB tmpfs mounted for one test (root), and filling it to ENOSPC."""

from __future__ import annotations

import errno
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


@contextmanager
def small_disk(folder: Path, size: str = "3m") -> Iterator[Path]:
    mount = folder / "disk"
    mount.mkdir()
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount)], capture_output=True,
                       text=True)
    if r.returncode != 0:
        pytest.skip(f"mounting a small tmpfs is not permitted here ({r.stderr.strip()}); the disk-full test needs it")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def fill_disk(folder: Path, name: str = "filler") -> Path:
    filler = folder / name
    with open(filler, "wb", buffering=0) as fh:
        try:
            while True:
                fh.write(b"\0" * 4096)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
    return filler
