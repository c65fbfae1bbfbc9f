"""A deterministic stand-in engine for unit tests: plays ranked by a crude count, no process.

Its numbers mean nothing about backgammon strength; they are stable, so tests of the coach's plumbing
(ranking, labels, tutor warnings, timeouts) can assert on them. ``delay`` makes it slow and ``fail``
makes it raise, to test that the kiosk never waits on its engine.
"""

from __future__ import annotations

import time

from core.rules.position import Position, Side
from engine.base import CubeAdvice, EngineError, EngineTimeout, RankedPlay, Thresholds

# Round thresholds for the fake; the installed gnubg 1.07 says 0.03 / 0.06 / 0.12 (`show analysis`).
FAKE_THRESHOLDS = Thresholds(doubtful=0.04, bad=0.08, very_bad=0.16)


def _score(pos: Position, mover: Side) -> float:
    """Higher is better for ``mover``: fewer pips, fewer blots, more made points."""
    own = pos.own(mover)
    blots = sum(1 for n in own[1:25] if n == 1)
    made = sum(1 for n in own[1:25] if n >= 2)
    return -pos.pips(mover) / 100.0 - 0.05 * blots + 0.03 * made


class FakeEngine:
    """Ranks by ``_score``; equity = score scaled into [-1, 1]."""

    name = "fake"

    def __init__(self, delay: float = 0.0, fail: bool = False,
                 thresholds: Thresholds = FAKE_THRESHOLDS) -> None:
        self.delay = delay
        self.fail = fail
        self._thresholds = thresholds
        self.calls: list[tuple[str, ...]] = []

    def _wait(self, timeout: float | None) -> None:
        if self.fail:
            raise EngineError("the fake engine was told to fail")
        if self.delay:
            if timeout is not None and self.delay > timeout:
                time.sleep(timeout)
                raise EngineTimeout(f"the fake engine takes {self.delay} s, more than {timeout} s")
            time.sleep(self.delay)

    def rank_plays(
        self, position_id: str, dice: tuple[int, int], match_id: str | None = None, plies: int = 0,
        timeout: float | None = None,
    ) -> list[RankedPlay]:
        self.calls.append(("rank_plays", position_id, f"{dice[0]}{dice[1]}"))
        self._wait(timeout)
        pos = Position.from_position_id(position_id, turn=Side.LIGHT)
        scored = []
        for lp in pos.legal_plays(dice):
            result = lp.result
            equity = max(-1.0, min(1.0, _score(result, Side.LIGHT) + 1.5))
            scored.append((round(equity, 3), lp.play.text(), result.position_id(Side.LIGHT)))
        scored.sort(key=lambda row: (-row[0], row[1]))
        if not scored:
            return []
        best = scored[0][0]
        return [RankedPlay(play=text, result=rid, equity=eq, loss=round(best - eq, 3),
                           label=self._thresholds.label(round(best - eq, 3)))
                for eq, text, rid in scored]

    def cube_advice(
        self, position_id: str, match_id: str | None = None, plies: int = 0, timeout: float | None = None
    ) -> CubeAdvice:
        self.calls.append(("cube_advice", position_id))
        self._wait(timeout)
        pos = Position.from_position_id(position_id, turn=Side.LIGHT)
        lead = (pos.pips(Side.DARK) - pos.pips(Side.LIGHT)) / 100.0
        nd = max(-1.0, min(1.0, lead))
        dt = max(-2.0, min(2.0, 2 * lead - 0.1))
        action = "no_double" if lead < 0.1 else ("double_take" if lead < 0.3 else
                                                  ("double_pass" if lead < 0.6 else "too_good_pass"))
        return CubeAdvice(action=action, equities={"no_double": round(nd, 3), "double_take": round(dt, 3),
                                                   "double_pass": 1.0})

    def thresholds(self) -> Thresholds:
        return self._thresholds

    def close(self) -> None:
        self.calls.append(("close",))
