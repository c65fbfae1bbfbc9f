"""A small in-memory stand-in for the referee service, shaped like docs/CONTRACTS.md's public state.

It is not a referee: it records events and produces the verdicts a test asks for, so the kiosk can be
tested before (and independently of) core/referee/machine.py.
"""

from __future__ import annotations

import copy
import logging
import threading
from collections.abc import Callable
from typing import Any

from kiosk.subscribers import Subscribers

log = logging.getLogger(__name__)

START_LIGHT = [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]
START_DARK = list(reversed(START_LIGHT))


def start_state() -> dict[str, Any]:
    return {
        "match": {"id": "1", "length": 7, "players": {"light": "Ana", "dark": "Bruno"},
                  "score": {"light": 2, "dark": 4}, "crawford": False, "post_crawford": False, "game": 3,
                  "rules": {"crawford": True, "tournament": False}},
        "position": {"light": list(START_LIGHT), "dark": list(START_DARK), "bar": {"light": 0, "dark": 0},
                     "off": {"light": 0, "dark": 0}, "position_id": "4HPwATDgc/ABMA", "match_id": "cAkAAAAAAAAA"},
        "turn": "light", "phase": "awaiting_roll",
        "dice": None,
        "cube": {"value": 1, "owner": None, "offered_by": None},
        "pips": {"light": 167, "dark": 167},
        "verdicts": [],
        "moves": [],
    }


class FakeService:
    def __init__(self, state: dict[str, Any] | None = None) -> None:
        self._state = state or start_state()
        self._subs: Subscribers[[dict[str, Any]]] = Subscribers(log, "a state subscriber")
        self._lock = threading.Lock()
        self.events: list[dict[str, Any]] = []
        self.refuse: str | None = None

    def state(self) -> dict[str, Any]:
        with self._lock:
            return copy.deepcopy(self._state)

    def subscribe(self, callback: Callable[[dict[str, Any]], None]) -> Callable[[], None]:
        return self._subs.add(callback)

    def subscribers(self) -> int:
        return len(self._subs)

    def update(self, **changes: Any) -> None:
        """Change the state as a referee would and push it."""
        with self._lock:
            self._state.update(copy.deepcopy(changes))
            snapshot = copy.deepcopy(self._state)
            subs = list(self._subs)
        for callback in subs:
            callback(snapshot)

    def submit(self, event: dict[str, Any]) -> list[dict[str, Any]]:
        if self.refuse:
            raise ValueError(self.refuse)
        self.events.append(event)
        verdict = {"at": len(self.events) - 1, "verdict": f"{event['event']}_accepted"}
        self.update(verdicts=[*self._state["verdicts"], verdict][-10:])
        return [verdict]

    def export(self, match_id: str, fmt: str) -> str:
        if match_id not in ("current", "1"):
            raise KeyError(match_id)
        return " 7 point match\n" if fmt == "mat" else "(;FF[4]GM[6])\n"


class FakeCamera:
    """A camera with one grey frame; remembers the corners the calibration page sends."""

    def __init__(self) -> None:
        import cv2
        import numpy as np

        ok, buf = cv2.imencode(".jpg", np.full((480, 640, 3), 90, np.uint8))
        self.jpeg = buf.tobytes()
        self.corners: list[tuple[float, float]] | None = None

    def frame_jpeg(self) -> bytes | None:
        return self.jpeg

    def overlay(self) -> dict[str, Any]:
        return {"width": 640, "height": 480, "corners": self.corners,
                "points": [{"point": 6, "x": 500.0, "y": 400.0, "side": "light", "count": 5}],
                "markers": {"found": [0, 1, 2], "missing": [3]}}

    def learn(self, board: str) -> dict[str, Any]:
        self.learnt = board
        return self.overlay()

    def set_corners(self, corners: list[tuple[float, float]]) -> dict[str, Any]:
        if len({c for c in corners}) < 4:
            raise ValueError("two corners are the same point")
        self.corners = [list(c) for c in corners]  # type: ignore[misc]
        return self.overlay()
