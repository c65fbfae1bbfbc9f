"""The coach's settings, per match: what the tutor warns about, the engine's depths, the marks, the takeback.

``CoachSettings`` is one match's (validated on creation); ``SettingsStore`` keeps them per match, falls back to
the kiosk's defaults and writes them to ``coach.json`` in the data folder. The store has no lock of its own: the
coach service calls it under its lock.
"""

from __future__ import annotations

import json
import logging
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from engine.base import Thresholds

log = logging.getLogger(__name__)
TUTOR_LEVELS = ("off", "very_bad", "bad", "doubtful")
# The marks of a play's size. "xg": Galaxy's and eXtreme Gammon's, an error from 0.020 and a blunder from 0.080
# (normalised equity; doubtful is not marked); "gnubg": the installed gnubg's own (doubtful, bad, very bad).
MARKS = ("xg", "gnubg")
XG_MARKS = Thresholds(doubtful=0.020, bad=0.020, very_bad=0.080)


@dataclass(frozen=True)
class CoachSettings:
    """Per match. tutor: which plays get a warning before they are committed (off, very bad only, bad, doubtful).
    live_plies: the engine's depth for ratings and ranked plays while the game is live; the tutor judges at
    live_plies at once (the first verdict), then looks again at tutor_plies within tutor_budget seconds and
    confirms or withdraws its warning. marks: "xg" (0.020 error / 0.080 blunder) or "gnubg" (its own marks).
    takeback: both players agreed before the match that a mistake may be taken back after the roll (R23)."""

    tutor: str = "bad"
    live_plies: int = 0
    tutor_plies: int = 2
    tutor_budget: float = 2.0
    timeout: float = 10.0
    marks: str = "xg"
    takeback: bool = False

    def __post_init__(self) -> None:
        if self.tutor not in TUTOR_LEVELS:
            raise ValueError(f"unknown tutor setting {self.tutor!r}: use one of {', '.join(TUTOR_LEVELS)}")
        if not (0 <= self.live_plies <= 4 and 0 <= self.tutor_plies <= 4):
            raise ValueError("plies must be 0 to 4")
        if self.marks not in MARKS:
            raise ValueError(f"unknown marks {self.marks!r}: use one of {', '.join(MARKS)}")

    def marks_of(self, engine: Thresholds) -> Thresholds:
        """The thresholds that name a play's size: XG's, or the engine's own."""
        return XG_MARKS if self.marks == "xg" else engine

    def threshold(self, thresholds: Thresholds) -> float | None:
        return {"off": None, "very_bad": thresholds.very_bad, "bad": thresholds.bad,
                "doubtful": thresholds.doubtful}[self.tutor]


class SettingsStore:
    """Each match's settings (the defaults until changed), kept in ``file`` (None: in memory only)."""

    def __init__(self, defaults: CoachSettings | None = None, file: Path | None = None) -> None:
        self.defaults = defaults or CoachSettings()
        self._file = file
        self._settings: dict[str, CoachSettings] = {}
        self._load()

    def _load(self) -> None:
        if self._file is None or not self._file.exists():
            return
        try:
            data = json.loads(self._file.read_text(encoding="utf-8"))
            self._settings = {k: CoachSettings(**v) for k, v in data.items()}
        except (ValueError, TypeError) as exc:
            log.warning("ignoring unreadable coach settings %s: %s", self._file, exc)

    def get(self, match: str) -> CoachSettings:
        return self._settings.get(match, self.defaults)

    def update(self, match: str, changes: dict[str, Any]) -> CoachSettings:
        """``match``'s settings with ``changes``, kept and written; ValueError (or TypeError) naming what is wrong."""
        new = replace(self.get(match), **changes)
        self._settings[match] = new
        if self._file is not None:
            self._file.parent.mkdir(parents=True, exist_ok=True)
            self._file.write_text(json.dumps({k: asdict(v) for k, v in self._settings.items()}), encoding="utf-8")
        return new
