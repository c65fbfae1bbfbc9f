"""A play's label: as gnubg's Skill() (analysis.c), a loss must pass a threshold, not just reach it."""

from __future__ import annotations

import pytest

from engine.base import Thresholds

T = Thresholds(doubtful=0.03, bad=0.06, very_bad=0.12)  # what gnubg 1.07's `show analysis` prints


@pytest.mark.parametrize(("loss", "label"), [
    (0.0, None), (0.03, None), (0.0301, "doubtful"), (0.06, "doubtful"), (0.0601, "bad"), (0.12, "bad"),
    (0.1201, "very_bad"), (1.5, "very_bad"),
])
def test_a_loss_must_pass_the_threshold(loss: float, label: str | None) -> None:
    assert T.label(loss) == label
