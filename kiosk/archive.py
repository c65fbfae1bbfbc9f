"""The archive: every finished match also as a Jellyfish .mat and a GNU Backgammon SGF file, written the moment
it ends, in the data folder's ``archive/`` (one of each per match). A second copy that no single damaged file
can take: the journal may be cut short or lose its WAL, these files stay.

Names: ``match-0005-20261124-191230.mat`` (the journal's match id, then when the match started, UTC), so a
match id given again after a journal lost its end never overwrites an older match's files. Each file is
written to a temporary name, flushed to the disk and renamed, so a power cut leaves the old file or the new
one, never half of one.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

ARCHIVE = "archive"
NAME = re.compile(r"^match-(\d+)-(\d{8}-\d{6})\.(mat|sgf)$")


def file_stem(match_id: int, started: float) -> str:
    return f"match-{match_id:04d}-{time.strftime('%Y%m%d-%H%M%S', time.gmtime(started))}"


def write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)
        raise
    try:
        fd = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def archive_match(folder: Path, match_id: int, started: float, mat: str, sgf: str | None) -> list[Path]:
    """Write the files of one finished match (no .sgf for a variant game, which SGF cannot name); returns their
    paths. OSError when the disk refuses."""
    folder.mkdir(parents=True, exist_ok=True)
    stem = file_stem(match_id, started)
    paths = []
    for ext, text in (("mat", mat), ("sgf", sgf)):
        if text is not None:
            paths.append(folder / f"{stem}.{ext}")
            write_atomic(paths[-1], text)
    return paths


def archived(folder: Path) -> dict[str, dict[str, Path]]:
    """The archive's matches: stem -> {"mat": path, "sgf": path} (either may be missing)."""
    out: dict[str, dict[str, Path]] = {}
    if not folder.is_dir():
        return out
    for path in sorted(folder.iterdir()):
        m = NAME.match(path.name)
        if m:
            out.setdefault(path.name.rsplit(".", 1)[0], {})[m.group(3)] = path
    return out
