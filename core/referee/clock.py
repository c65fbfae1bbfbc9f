"""The backgammon clock: a time bank per player and a delay per turn, charged from the events' times.

Pure bookkeeping, standard library only; the referee (core.referee.machine) says whose time runs after each
event and this module charges it. Times are the events' ``"t"`` (seconds, any origin, only differences count).

A player's time runs from the moment it starts (the opponent's press, a cube action handing the decision over,
the opening roll) until it stops (the player's own press, a cube action handing it back, the game's end). Each
time it starts the delay is fresh. Whichever delay kind, the bank after a turn is the bank before it less
``max(0, used - delay)``; the kinds differ only while the turn runs:

- ``simple`` (US Backgammon Clock Rules, March 2013: "Simple Delay Clocks Only"): the delay counts down first,
  the bank only after it; the flag falls when ``used >= delay + bank``.
- ``bronstein`` (Unified Backgammon Tournament Clock Rules, 2001/2003): the bank counts down from the start and
  the time used, up to the delay, is given back at the press; the flag falls when ``used >= bank``.

>>> c = Clock(ClockSettings(per_point=120, delay=12), length=1)
>>> c.start("light", 0.0)
>>> c.switch("dark", 30.0)     # light used 30 s: 12 s were the delay's, 18 s the bank's
>>> c.public()["light"], c.public()["running"]
(102.0, 'dark')
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

DELAY_KINDS = ("simple", "bronstein")
FLAG_FALL = ("match",)
SIDES = ("light", "dark")
#: Seconds left at which the clock warns a player (said once per side and threshold).
WARNINGS = (60.0, 10.0)
MAX_SECONDS = 24 * 3600.0


class ClockError(ValueError):
    """Clock settings that cannot be used; the message names the field."""


def _number(value: Any, field: str, allow_none: bool = False) -> float | None:
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ClockError(f'"{field}" must be a number of seconds{" or null" if allow_none else ""}, got {value!r}')
    if not 0 <= value <= MAX_SECONDS:
        raise ClockError(f'"{field}" must be from 0 to {MAX_SECONDS:.0f} seconds, got {value!r}')
    return float(value)


@dataclass(frozen=True)
class ClockSettings:
    """``per_point`` seconds per point of the match length, or ``per_match`` seconds for the whole match (it
    wins when both are given); ``delay`` seconds per turn; ``delay_kind``; what a flag fall costs."""

    per_point: float | None = 120.0
    per_match: float | None = None
    delay: float = 12.0
    delay_kind: str = "simple"
    flag_fall: str = "match"

    @classmethod
    def parse(cls, value: Any) -> ClockSettings | None:
        """The ``rules.clock`` of a new_match: None or an object; ClockError names what is wrong."""
        if value is None:
            return None
        if not isinstance(value, Mapping):
            raise ClockError('"clock" must be null or an object {"per_point", "per_match", "delay", "delay_kind"}')
        known = ("per_point", "per_match", "delay", "delay_kind", "flag_fall")
        unknown = sorted(set(value) - set(known))
        if unknown:
            raise ClockError(f'unknown clock setting "{unknown[0]}" (known: {", ".join(known)})')
        per_point = _number(value.get("per_point", 120), "clock.per_point", allow_none=True)
        per_match = _number(value.get("per_match"), "clock.per_match", allow_none=True)
        if per_point is None and per_match is None:
            raise ClockError('"clock" needs "per_point" or "per_match"')
        delay = _number(value.get("delay", 12), "clock.delay")
        kind = value.get("delay_kind", "simple")
        if kind not in DELAY_KINDS:
            raise ClockError(f'"clock.delay_kind" must be "simple" or "bronstein", got {kind!r}')
        flag = value.get("flag_fall", "match")
        if flag not in FLAG_FALL:
            raise ClockError(f'"clock.flag_fall" must be "match" (a fallen flag loses the match), got {flag!r}')
        assert delay is not None
        return cls(per_point, per_match, delay, kind, flag)

    def to_json(self) -> dict[str, Any]:
        return {"per_point": self.per_point, "per_match": self.per_match, "delay": self.delay,
                "delay_kind": self.delay_kind, "flag_fall": self.flag_fall}

    def bank(self, length: int) -> float:
        """Each player's bank at the start of a match of ``length`` points (money play counts as 1)."""
        if self.per_match is not None:
            return self.per_match
        assert self.per_point is not None
        return self.per_point * max(1, length)


class Clock:
    """Both players' banks, whose time runs, since when, and the flag. All times are event times."""

    def __init__(self, settings: ClockSettings, length: int) -> None:
        self.settings = settings
        self.bank = {s: settings.bank(length) for s in SIDES}
        self.running: str | None = None
        self.since = 0.0          # when the running side's time started (its delay with it)
        self.now: float | None = None
        self.flag: str | None = None   # the side whose flag fell
        self.flag_at: float | None = None
        # A bank that starts at or under a warning's threshold is not warned of it.
        self.warned: set[tuple[str, float]] = {(s, w) for s in SIDES for w in WARNINGS if self.bank[s] <= w}

    # ----- time passing ---------------------------------------------------------------------------------------
    def used(self) -> float:
        """Seconds the running side has used this turn."""
        if self.running is None or self.now is None:
            return 0.0
        return max(0.0, self.now - self.since)

    def left(self, side: str) -> float:
        """Seconds left in ``side``'s bank now (as its clock shows it)."""
        bank = self.bank[side]
        if side != self.running:
            return bank
        used = self.used()
        if self.settings.delay_kind == "bronstein":
            return max(0.0, bank - used)
        return max(0.0, bank - max(0.0, used - self.settings.delay))

    def delay_left(self) -> float:
        if self.running is None:
            return 0.0
        return max(0.0, self.settings.delay - self.used())

    def falls_at(self) -> float | None:
        """When the running side's flag falls if nothing happens (an event time), or None."""
        if self.running is None or self.flag is not None:
            return None
        bank = self.bank[self.running]
        return self.since + bank + (0.0 if self.settings.delay_kind == "bronstein" else self.settings.delay)

    def next_deadline(self) -> float | None:
        """The next time something is due to be said (a warning or the flag): the kiosk wakes then."""
        falls = self.falls_at()
        if falls is None or self.running is None:
            return None
        due = [falls]
        for level in WARNINGS:
            if (self.running, level) not in self.warned and self.bank[self.running] > level:
                due.append(falls - level)
        return min(due)

    def advance(self, t: float | None) -> tuple[str | None, list[tuple[str, float]]]:
        """Time passes to ``t`` (never backwards). Returns the side whose flag fell now (once) and the warnings
        now due, as (side, seconds) pairs, each once per side and threshold."""
        if t is None:
            return None, []
        if self.now is not None and t < self.now:
            t = self.now
        self.now = t
        side = self.running
        if side is None or self.flag is not None:
            return None, []
        falls = self.falls_at()
        assert falls is not None
        if t >= falls:
            self.flag, self.flag_at = side, falls
            self.bank[side] = 0.0
            self.running = None
            return side, []
        warnings = []
        left = self.left(side)
        for level in WARNINGS:
            if left <= level and (side, level) not in self.warned:
                self.warned.add((side, level))
                warnings.append((side, level))
        return None, warnings

    # ----- the presses ----------------------------------------------------------------------------------------
    def _charge(self) -> None:
        """The running side stops: its bank pays what the delay did not cover."""
        if self.running is None:
            return
        self.bank[self.running] = max(0.0, self.bank[self.running] - max(0.0, self.used() - self.settings.delay))
        for level in WARNINGS:
            if self.bank[self.running] <= level:
                self.warned.add((self.running, level))
        self.running = None

    def start(self, side: str, t: float | None) -> None:
        """``side``'s time starts now (with a fresh delay); whoever ran before is charged."""
        self.switch(side, t)

    def switch(self, side: str | None, t: float | None) -> None:
        """Stop the running side (charged) and start ``side`` (None: both stopped) at ``t``."""
        if self.flag is not None:
            return
        if t is not None and (self.now is None or t > self.now):
            self.now = t
        self._charge()
        if side is not None:
            self.running = side
            self.since = self.now if self.now is not None else 0.0

    def stop(self, t: float | None) -> None:
        self.switch(None, t)

    def public(self) -> dict[str, Any]:
        """``public_state()["clock"]`` (docs/CONTRACTS.md)."""
        return {"light": round(self.left("light"), 3), "dark": round(self.left("dark"), 3),
                "running": self.running, "delay_left": round(self.delay_left(), 3),
                "delay": self.settings.delay, "delay_kind": self.settings.delay_kind,
                "flag": self.flag, "at": self.now}


def clock_of(rules: Mapping[str, Any], length: int) -> Clock | None:
    """The clock a match's rules ask for (``rules["clock"]``, already checked), or None."""
    settings = ClockSettings.parse(rules.get("clock"))
    return Clock(settings, length) if settings is not None else None
