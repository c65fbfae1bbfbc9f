"""Learning a board at set-up (issue 33): what this board's empty points and its two checker sets look like.

The appliance's calibration knows the starting position: with the board set up, the checkers on the start's
points teach the two checker colours and the points empty at the start teach what those empty points look like
(``Detector.learn_start``, as the pipeline already does when it first sees the start). When the owner also shows
the empty board, every point's empty look is learnt (its slots' patches, and which of them already look
somewhat like a checker: a drawn or inlaid field), so that a ring in a point's own drawing is not taken for a
checker anywhere on the board. The result is one ``ColourModel`` the pipeline reads with for the whole match
(``Pipeline.reader.colours``).

``BoardLearning`` keeps what was learnt and from what, and says it for the calibration page (``summary``): the
two checker colours, each point's empty colour, and how sure the latest reading is, point by point (the
probability the camera gives the count it read; 0 under an object), so that an owner sees a bad light or a bad
angle before the first game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from vision.detect import ColourModel, Detector
from vision.geometry import columns_to_points
from vision.pipeline import START_COUNTS, board_event

#: What the owner may show to be learnt from.
BOARDS = ("start", "empty")
#: A reading this sure of a point's count is "sure" on the calibration page; below ``DOUBT`` it is "unsure".
SURE, DOUBT = 0.9, 0.6
#: Of the start's eight occupied points, at least this many must show the start's side there to learn from "the
#: start". The empty board is taken on the owner's word unless as many show the start's side and counts (one
#: off at most): in a dim room or on a drawn field it may show many phantoms, which is what learning it is for.
LEAST_START_POINTS = 6


def _occupied(light0: Sequence[int], dark0: Sequence[int]) -> int:
    return sum(1 for i in range(24) if light0[i] or dark0[i])


def _like_start(event: dict[str, Any], light0: Sequence[int], dark0: Sequence[int], counts: bool = False) -> int:
    """How many of the start's occupied points show the start's side there (and its count, one off at most)."""
    n = 0
    for i in range(24):
        for side, want in (("light", light0[i]), ("dark", dark0[i])):
            if want and event[side][i] and (not counts or abs(event[side][i] - want) <= 1):
                n += 1
    return n


class LearnError(ValueError):
    """The board shown is not the one asked for (a clear sentence, pt and en)."""

    def __init__(self, pt: str, en: str) -> None:
        super().__init__(en)
        self.message = {"pt": pt, "en": en}


def start_counts(start: tuple[Sequence[int], Sequence[int]] | None = None) -> tuple[list[int], list[int]]:
    """(light's 24 counts, dark's 24 counts) at the start: ``start``, or backgammon's."""
    if start is not None:
        return list(start[0]), list(start[1])
    light = [0] * 24
    for p, n in START_COUNTS.items():
        light[p - 1] = n
    return light, light[::-1]


def empty_slots(detector: Detector, canonical: np.ndarray,
                columns: Sequence[int]) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """For each column in ``columns`` (0-23: top then bottom), seen empty: its slots' patches and which slots
    already look somewhat like a checker (a ring in the field's own drawing), as ``Detector.learn_start``
    keeps them for the points empty at the start."""
    if not columns:
        return {}
    gx, gy, scale = detector.gradients(canonical)
    out = {}
    for c in columns:
        ys = (detector.edge_y[c] + detector.inward[c] * (np.arange(detector.slots) + 0.5) * detector.cw).astype(np.float32)
        xs = np.full_like(ys, detector.col_x[c])
        score, _, _ = detector.disc_scores(gx, gy, scale, xs, ys, np.repeat(detector.arcs[c:c + 1], detector.slots, axis=0))
        out[c] = (detector.slot_patches(canonical, c), score > detector.cfg.disc_threshold - detector.cfg.empty_risk)
    return out


def hex_of_lab(lab: np.ndarray | None) -> str | None:
    """A Lab prototype (L 0..255, a and b centred on 0) as #rrggbb."""
    if lab is None:
        return None
    pixel = np.clip(np.asarray(lab, np.float32) + np.array([0.0, 128.0, 128.0], np.float32), 0, 255)
    b, g, r = cv2.cvtColor(pixel.astype(np.uint8).reshape(1, 1, 3), cv2.COLOR_LAB2BGR)[0, 0]
    return f"#{int(r):02x}{int(g):02x}{int(b):02x}"


def hex_of_patches(patches: np.ndarray) -> str:
    """The median colour of a column's empty slots (BGR patches) as #rrggbb."""
    b, g, r = np.median(patches.reshape(-1, 3), axis=0)
    return f"#{int(r):02x}{int(g):02x}{int(b):02x}"


def sureness(event: dict[str, Any]) -> list[float]:
    """How sure the reading is of each physical point's count (index 0 = point 1): the probability the camera
    gives the count it read (1.0 where its table is {} or missing: sure), 0.0 under an object."""
    unc = event.get("uncertainty") or {}
    covered = {c["point"] for c in event.get("covered") or ()}
    out = []
    for i in range(24):
        if i + 1 in covered:
            out.append(0.0)
            continue
        light, dark = event["light"][i], event["dark"][i]
        sides = ["light"] if light else ["dark"] if dark else ["light", "dark"]
        p = 1.0
        for side in sides:
            table = (unc.get(side) or [{}] * 24)[i]
            if table:
                p = min(p, float(table.get(str(light if side == "light" else dark), 0.0)))
        out.append(round(p, 3))
    return out


@dataclass
class BoardLearning:
    """What the pipeline reads this board with, and what it was learnt from (``sources``, in order)."""

    light_home: str
    start: tuple[Sequence[int], Sequence[int]] | None = None
    sources: list[str] = field(default_factory=list)

    def learn(self, pipeline: Any, canonical: np.ndarray, board: str) -> dict[str, Any]:
        """Learn from ``canonical`` (the pipeline's top-down view of the board) showing ``board`` ("start" or
        "empty"); the pipeline reads with the result from now on. Returns the board event read with it.
        LearnError when the picture plainly is not that board."""
        if board not in BOARDS:
            raise LearnError(f"quadro desconhecido: {board}", f"unknown board: {board}")
        detector = pipeline.reader.detector
        now = board_event(detector.read(canonical, pipeline.reader.colours), self.light_home)
        top, bottom = columns_to_points(self.light_home)
        light0, dark0 = start_counts(self.start)
        old: ColourModel | None = pipeline.reader.colours
        if board == "start":
            if _like_start(now, light0, dark0) < min(LEAST_START_POINTS, _occupied(light0, dark0)):
                raise LearnError("O tabuleiro não está na posição inicial: arrume as peças e tente de novo.",
                                 "The board is not at the starting position: set the checkers up and try again.")
            model = detector.learn_start(canonical, top, bottom, self.start)
            if old is not None and old.empty:  # the empty board's look of the points the start covers, kept
                model.empty = {**old.empty, **(model.empty or {})}
        else:
            if _like_start(now, light0, dark0, counts=True) >= min(LEAST_START_POINTS, _occupied(light0, dark0)):
                raise LearnError("O tabuleiro não está vazio, está na posição inicial: tire todas as peças e tente de "
                                 "novo.", "The board is not empty, it is set up: take every checker off and try again.")
            empty = empty_slots(detector, canonical, range(24))
            model = ColourModel(old.light if old else None, old.dark if old else None, empty)
        pipeline.reader.colours = model
        if board not in self.sources:
            self.sources.append(board)
        return board_event(detector.read(canonical, model), self.light_home)

    def noticed(self, pipeline: Any) -> None:
        """The pipeline learnt the checker colours by itself (it saw the start): say so in ``sources``."""
        colours = pipeline.reader.colours if pipeline is not None else None
        if colours is not None and colours.light is not None and colours.dark is not None and "start" not in self.sources:
            self.sources.append("start")

    def summary(self, pipeline: Any, event: dict[str, Any] | None) -> dict[str, Any]:
        """For the calibration page: what was learnt (from what; the checker colours; each point's empty colour,
        where known) and how sure the latest reading is, point by point."""
        self.noticed(pipeline)
        colours: ColourModel | None = pipeline.reader.colours if pipeline is not None else None
        top, bottom = columns_to_points(self.light_home)
        points = top + bottom
        empty: dict[int, str] = {}
        if colours is not None and colours.empty:
            empty = {points[c]: hex_of_patches(patches) for c, (patches, _) in colours.empty.items()}
        sure = sureness(event) if event is not None else [None] * 24
        return {"from": list(self.sources),
                "light": hex_of_lab(colours.light) if colours is not None else None,
                "dark": hex_of_lab(colours.dark) if colours is not None else None,
                "points": [{"point": p, "empty": empty.get(p), "sure": (s := sure[p - 1]),
                            "level": None if s is None else level(s)} for p in range(1, 25)]}


def level(p: float) -> str:
    """A point's sureness in words for the page: "sure", "doubt" or "unsure"."""
    return "sure" if p >= SURE else "doubt" if p >= DOUBT else "unsure"


__all__ = ["BOARDS", "BoardLearning", "LearnError", "empty_slots", "hex_of_lab", "level", "sureness"]
