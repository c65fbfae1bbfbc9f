"""Board proportions from the picture: the bar's width, found once per registration.

Boards differ (a bar of 0.4 to 1.2 point widths); with four field corners known, the point columns of each
half hang from the outer edges, so the bar's width decides where every column lies. The tips of the
points, at three quarters of their length, stand out from the field at the column centres: the bar width
whose predicted centres fall on the most tip colour (and the least between them) wins.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.config import GeometryConfig
from vision.geometry import BoardLayout


def estimate_bar_ratio(canonical: np.ndarray, layout: BoardLayout, g: GeometryConfig) -> float:
    """Bar width / point width for a canonical image warped with `layout`."""
    lab = canonical.astype(np.float32)
    pl, m = layout.point_length, layout.margin
    rows = []
    for lo, hi in ((0.6, 0.9), ):
        rows.append(np.arange(int(m + lo * pl), int(m + hi * pl)))
        rows.append(np.arange(int(m + layout.field_height - hi * pl), int(m + layout.field_height - lo * pl)))
    band = lab[np.concatenate(rows)]  # (rows, W, 3)
    mid = lab[int(m + 0.45 * layout.field_height): int(m + 0.55 * layout.field_height)]
    field = np.median(mid.reshape(-1, 3), axis=0)
    profile = np.linalg.norm(band - field, axis=2).mean(axis=0)  # (W,): how unlike the field each x is
    xs = np.arange(len(profile), dtype=np.float32)
    fw = layout.field_width
    best, best_score = g.bar_to_checker, -np.inf
    for r in np.arange(g.bar_min, g.bar_max + 1e-6, 0.02):
        cw = fw / (12 + r)
        j = np.arange(6)
        centres = np.concatenate([m + (j + 0.5) * cw, m + fw - (5 - j + 0.5) * cw])
        between = np.concatenate([m + (j[1:]) * cw, m + fw - (5 - j[:-1]) * cw])
        score = np.interp(centres, xs, profile).mean() - np.interp(between, xs, profile).mean()
        if score > best_score:
            best, best_score = float(r), score
    return round(best, 2)


def calibrated(g: GeometryConfig, canonical: np.ndarray, layout: BoardLayout) -> GeometryConfig:
    """The configured proportions, with the bar's width replaced only when the picture clearly disagrees:
    the estimate is good to about a tenth of a point, and small corrections cost more than they bring."""
    est = estimate_bar_ratio(canonical, layout, g)
    return replace(g, bar_to_checker=est) if abs(est - g.bar_to_checker) >= g.auto_bar_min_change else g
