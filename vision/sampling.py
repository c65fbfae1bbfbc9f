"""Pixel indexes of fixed sample offsets around centres, kept from frame to frame (issue 33's speed).

The camera and the board do not move between frames, so the detector looks at the same centres frame after
frame: each column's first slot, the second layer's and the bar's grid, the steps of the stacks it follows, and
the judge's crops at those centres. Working out which pixels a centre's samples fall on (a clip and a rounding
per sample) cost as much as reading them; a table keeps each centre's flat indexes, one row a centre, and a
frame's lookup is one `take`. The rows are exactly what the computation gives (it runs on a centre the table has
not seen), so the readings are the same with or without the table.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import numpy as np

#: centres a table keeps before it starts again (a frame looks at about 350; a row is a few KB at most)
LIMIT = 4096


class _Table:
    """Rows are only ever added (the array grows by doubling into a new one), so a row once known stays valid in
    whichever array a reader holds; a lock keeps two writers apart (a learning request may read with the camera
    loop's detector)."""

    def __init__(self, key: tuple[int, int, str, str]) -> None:
        self.key = key
        self.index = np.zeros((0, 0), np.int32)
        self.used = 0
        self.at: dict[tuple[float, float], int] = {}
        self._adding = threading.Lock()

    def rows(self, xs: list[float], ys: list[float]) -> np.ndarray:
        at = self.at
        return np.array([at.get(c, -1) for c in zip(xs, ys, strict=True)], np.intp)

    def add(self, xs: list[float], ys: list[float], index: np.ndarray) -> np.ndarray:
        with self._adding:
            start, end = self.used, self.used + len(index)
            if end > len(self.index):
                grown = np.zeros((max(end, 2 * len(self.index), 64), index.shape[1]), np.int32)
                if start:
                    grown[:start] = self.index[:start]
                self.index = grown
            self.index[start:end] = index
            self.used = end
        rows = np.arange(start, end)
        for c, row in zip(zip(xs, ys, strict=True), rows.tolist(), strict=True):
            self.at.setdefault(c, row)
        return rows


class CentreIndex:
    """Flat indexes of one set of sample offsets around centres (x, y), for images of one shape at a time."""

    def __init__(self, limit: int | None = None) -> None:
        self.limit = limit
        self._table: _Table | None = None

    def __call__(self, shape: tuple[int, ...], cx: np.ndarray, cy: np.ndarray,
                 compute: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
        """(N, samples) flat indexes into an image of ``shape`` for the centres (cx, cy); ``compute(which)``
        gives them for the centres ``which`` (indexes into cx, cy) the table does not hold yet."""
        key = (int(shape[0]), int(shape[1]), cx.dtype.str, cy.dtype.str)
        table = self._table
        if table is None or table.key != key:
            table = self._table = _Table(key)
        rows = table.rows(cx.tolist(), cy.tolist())
        missing = np.flatnonzero(rows < 0)
        limit = LIMIT if self.limit is None else self.limit
        if len(missing) and table.used and table.used + len(missing) > limit:  # full: start again
            table = self._table = _Table(key)
            rows[:] = -1
            missing = np.arange(len(cx))
        if len(missing):
            rows[missing] = table.add(cx[missing].tolist(), cy[missing].tolist(), compute(missing))
        index: np.ndarray = table.index  # read once: another thread may grow the table meanwhile
        return index.take(rows, axis=0)

    @property
    def kept(self) -> int:
        """How many centres the table holds."""
        return 0 if self._table is None else self._table.used
