"""Where the shared real photos live (evaluation only: read in place, never copied into the project)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests import datasets

SHARED = datasets.SHARED / "vision" / "real"
DEEPER = SHARED / "jvitors23__backgammon-checker-detection-openCV"


def require_shared() -> Path:
    if not (DEEPER / "bgsamples_truth.json").is_file():
        pytest.skip(f"real photos not found at {SHARED} (../shared is absent): real-photo evaluation skipped")
    return SHARED


def deeper_samples() -> list[tuple[Path, list[list[float]], dict[str, list[int]]]]:
    """(photo, corners tl/tr/br/bl, truth counts per column without colour) for the five labelled photos."""
    require_shared()
    truth = json.loads((DEEPER / "bgsamples_truth.json").read_text())
    out = []
    for key, counts in sorted(truth.items()):
        photo = DEEPER / "bgsamples" / key.replace(".checkers.json", "")
        info = json.loads(Path(str(photo) + ".info.json").read_text())
        out.append((photo, info["canonical_board"]["tl_tr_br_bl"], counts))
    return out
