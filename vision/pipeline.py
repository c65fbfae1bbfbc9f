"""Frames in, `board` events out (docs/CONTRACTS.md): registration -> warp -> stillness -> counting.

Counts are in physical numbering (index 0 = point 1 as light counts it), mapped from the top/bottom columns
by which corner is light's home. `off` is not seen (the trays lie outside the field) and is inferred as
15 minus the checkers seen. A point an object covers (a dice cup, a die, the cube, a phone) is listed in
`covered` and its counts are not to be weighed. While a hand or motion is seen the event says `"stable": false` and repeats the
last stable counts, so nothing downstream mistakes a half-made play for a move.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

import numpy as np

from vision.config import VisionConfig, load_config
from vision.detect import BoardReading, ColumnReading
from vision.geometry import columns_to_points
from vision.reader import BoardReader
from vision.registration import Registrar
from vision.stillness import Stillness

START_COUNTS = {6: 5, 8: 3, 13: 5, 24: 2}  # light's start; dark's mirrors it (physical 25 - p)


def _side_probs(col: ColumnReading, side: str) -> dict[str, float]:
    p_side = col.colour_confidence if (col.light if side == "light" else col.dark) else 1 - col.colour_confidence
    if col.count == 0:
        p_side = 0.5
    out: dict[str, float] = {}
    for n, p in col.probs.items():
        if n == 0:
            out["0"] = out.get("0", 0.0) + p
        else:
            out[str(n)] = round(p * p_side, 4)
            out["0"] = out.get("0", 0.0) + p * (1 - p_side)
    out["0"] = round(out.get("0", 0.0), 4)
    return {k: v for k, v in out.items() if v > 0}


def board_event(reading: BoardReading, light_home: str, stable: bool = True, sure: float = 0.98) -> dict:
    """The contract's board event. `uncertainty` lists a distribution only for doubtful points (the best
    count below `sure`); a sure point has `{}`, which the referee reads as "take the count as seen"."""
    top_pts, bottom_pts = columns_to_points(light_home)
    light, dark = [0] * 24, [0] * 24
    unc_l: list[dict[str, float]] = [{} for _ in range(24)]
    unc_d: list[dict[str, float]] = [{} for _ in range(24)]
    covered: list[dict] = []
    for cols, pts in ((reading.top, top_pts), (reading.bottom, bottom_pts)):
        for col, p in zip(cols, pts, strict=True):
            light[p - 1], dark[p - 1] = col.light, col.dark
            if col.covered is not None:  # unseen: the referee weighs neither its counts nor their chances
                covered.append({"point": p, "by": col.covered})
                continue
            for side, unc in (("light", unc_l), ("dark", unc_d)):
                unc[p - 1] = _doubtful(_side_probs(col, side), sure)
    bar = dict(reading.bar)
    off = {"light": max(0, 15 - sum(light) - bar["light"]), "dark": max(0, 15 - sum(dark) - bar["dark"])}
    unc_bar = {side: _doubtful({str(n): round(q, 4) for n, q in reading.bar_probs.get(side, {}).items()}, sure)
               for side in ("light", "dark")}
    event = {"event": "board", "light": light, "dark": dark, "bar": bar, "off": off, "off_seen": False,
             "stable": stable, "uncertainty": {"light": unc_l, "dark": unc_d, "bar": unc_bar}}
    if covered:  # only when something covers a point (docs/CONTRACTS.md: absent = nothing covered)
        event["covered"] = sorted(covered, key=lambda c: c["point"])
    return event


def _doubtful(dist: dict[str, float], sure: float) -> dict[str, float]:
    """The distribution if its best count is below ``sure``; else {} ("take the count as seen")."""
    return dist if dist and max(dist.values()) < sure else {}


def is_start(event: dict, start: tuple[Sequence[int], Sequence[int]] | None = None) -> bool:
    """The board shows backgammon's start exactly, or ``start`` (a variant's: light's and dark's 24 counts) with
    checkers on the same points and no others (a stack of 15 shows one row or two: its count is not asked)."""
    if start is not None:  # each side's checkers on exactly the start's points, any count
        return not any(event["bar"].values()) and all(
            bool(event[side][i]) == bool(counts[i]) for side, counts in zip(("light", "dark"), start, strict=True)
            for i in range(24))
    light = [0] * 24
    for p, n in START_COUNTS.items():
        light[p - 1] = n
    return event["light"] == light and event["dark"] == light[::-1]


class Pipeline:
    def __init__(self, cfg: VisionConfig | None = None, corners: np.ndarray | None = None,
                 light_home: str | None = None, learn_start: bool = True,
                 start: tuple[Sequence[int], Sequence[int]] | None = None) -> None:
        """``start``: the start position the checker colours are learnt from, as (light's 24 counts, dark's 24
        counts), when it is not backgammon's (Plakoto, Jacquet). A game that starts on an empty board (Russian
        backgammon, R31) cannot teach the colours: they are kept from an earlier board (``reader.colours``)."""
        self.cfg = cfg or load_config()
        self.reader = BoardReader(self.cfg)
        self.registrar = Registrar(self.cfg.registration, corners)
        self.stillness = Stillness(self.cfg.stillness, self.reader.detector.cw)
        self.light_home = light_home or self.cfg.geometry.light_home
        self.learn_start = learn_start
        self.start = start if start is not None and any(start[0]) and any(start[1]) else None
        self.last: dict | None = None
        self.bumped = False
        # While the board stays still it is read until two reads in a row agree, then again only every
        # `reread_seconds` (each stable frame used to be read, 20 ms a frame at 640x360 here, for the same answer)
        self._still_read: tuple | None = None  # the counts of this still spell's last read
        self._agreed_at: float | None = None  # when two reads in a row agreed
        self.reads = 0

    def process(self, frame: np.ndarray, t: float) -> dict | None:
        """One frame -> a board event, or None while the board cannot be found at all."""
        reg = self.registrar.update(frame)
        if reg is None:
            return None
        if reg.bumped:
            self.bumped = True
            # a new view: wait for it to settle again
            self.stillness = Stillness(self.cfg.stillness, self.reader.detector.cw)
        canonical = self.reader.canonical(frame, reg.corners)
        still = self.stillness.update(canonical, t)
        if not still.stable:
            self._still_read = self._agreed_at = None
            base = self.last or board_event(BoardReading([ColumnReading(0, 0, {0: 1.0})] * 12,
                                                         [ColumnReading(0, 0, {0: 1.0})] * 12), self.light_home)
            return {**base, "stable": False}
        if self.last is not None and self._agreed_at is not None and \
                t - self._agreed_at < self.cfg.stillness.reread_seconds:
            return {**self.last}  # the same still board, read and agreed on (a copy, as a read gives a new event)
        reading = self.reader.detector.read(canonical, self.reader.colours)
        self.reads += 1
        event = board_event(reading, self.light_home)
        if self.learn_start and self.reader.colours is None and is_start(event, self.start):
            top, bottom = columns_to_points(self.light_home)
            self.reader.colours = self.reader.detector.learn_start(canonical, top, bottom, self.start)
            self._still_read = self._agreed_at = None  # the next read, with the colours, starts the agreement again
        else:
            counts = (event["light"], event["dark"], event["bar"], event.get("covered"))
            self._agreed_at = t if counts == self._still_read else None
            self._still_read = counts
        self.last = event
        return event

    def events(self, frames: Iterable[tuple[np.ndarray, float]]) -> Iterator[dict]:
        """Board events only when something changes: stability flips or the stable counts differ."""
        previous: tuple | None = None
        for frame, t in frames:
            ev = self.process(frame, t)
            if ev is None:
                continue
            key = (ev["stable"], ev["light"], ev["dark"], ev["bar"], ev.get("covered"))
            if previous is None or key != previous:
                previous = key
                yield ev
