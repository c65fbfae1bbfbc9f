"""The doubling cube (R12) with beavers (R17) and raccoons (R18).

The cube starts centred at 1. Before rolling, the player on turn may double if the cube is centred or
theirs; the opponent takes (and owns the cube at twice the value) or drops (and loses the value before the
double). With beavers allowed (money only), the taker may redouble at once and keep the cube; the doubler
then takes, drops (losing the beavered value) or, with raccoons allowed, redoubles again, the cube staying
with the beaver's side.

>>> cube = Cube()
>>> cube.double(Side.LIGHT)
2
>>> cube.take(Side.DARK); (cube.value, cube.owner)
(2, <Side.DARK: 'dark'>)
>>> cube.why_not_double(Side.LIGHT)
'only the owner of the cube (dark) may redouble (R12)'
"""

from __future__ import annotations

from dataclasses import dataclass

from core.errors import GamaoError
from core.rules.position import Side


class CubeError(GamaoError, ValueError):
    """A cube action the cube's state does not allow (out of turn, not the owner, over the cap, ...)."""


@dataclass(frozen=True)
class CubeSettings:
    cap: int | None = None  # R12: 000 caps at 64, 004 says no limit; default none
    beavers: bool = False  # R17, money only
    raccoons: bool = False  # R18, money only, needs beavers
    enabled: bool = True  # False in a Crawford game or with gnubg's CubeLimit "1"

    def __post_init__(self) -> None:
        if self.cap is not None and (self.cap < 1 or self.cap & (self.cap - 1)):
            raise ValueError(f"cube cap {self.cap} must be a power of two (64 in the 000 rules) or None")
        if self.raccoons and not self.beavers:
            raise ValueError("raccoons answer beavers: allow beavers too (R18)")


class Cube:
    """The cube's state during one game. ``offered`` is the value proposed by ``offered_by`` awaiting an answer."""

    def __init__(self, settings: CubeSettings | None = None) -> None:
        self.settings = settings or CubeSettings()
        self.value = 1
        self.owner: Side | None = None
        self.offered_by: Side | None = None
        self.offered = 0
        self.stage: str | None = None  # "double", "beaver" or "raccoon" while an offer waits
        self.turned = False  # the cube has been turned at least once (Jacoby, R15)
        self.dropped_by: Side | None = None

    def __repr__(self) -> str:
        owner = self.owner.value if self.owner else "centre"
        pending = f", {self.stage} to {self.offered} by {self.offered_by.value}" if self.offered_by else ""
        return f"<Cube {self.value} {owner}{pending}>"

    @property
    def centred(self) -> bool:
        return self.owner is None

    def why_not_double(self, side: Side) -> str | None:
        """None when ``side`` may double now (state only: the caller checks turn, Crawford and Holland)."""
        if not self.settings.enabled:
            return "the cube is not in use in this game"
        if self.dropped_by is not None:
            return "the game is over: a double was dropped"
        if self.offered_by is not None:
            return f"a {self.stage} to {self.offered} by {self.offered_by.value} awaits an answer"
        if self.owner is not None and self.owner != side:
            return f"only the owner of the cube ({self.owner.value}) may redouble (R12)"
        cap = self.settings.cap
        if cap is not None and self.value * 2 > cap:
            return f"the cube is at its cap of {cap} (R12)"
        return None

    def double(self, side: Side) -> int:
        """``side`` offers a double; returns the proposed value."""
        reason = self.why_not_double(side)
        if reason:
            raise CubeError(f"{side.value} cannot double: {reason}")
        self.offered_by, self.offered, self.stage = side, self.value * 2, "double"
        return self.offered

    def _answering(self, side: Side, what: str) -> Side:
        if self.offered_by is None:
            raise CubeError(f"{side.value} cannot {what}: no double is offered")
        if side == self.offered_by:
            raise CubeError(f"{side.value} cannot {what} their own {self.stage}")
        return self.offered_by

    def take(self, side: Side) -> None:
        self._answering(side, "take")
        # After a beaver or raccoon the cube stays with the beaver's side (R17, R18): the original taker.
        self.owner = self.offered_by if self.stage == "beaver" else side
        self.value, self.turned = self.offered, True
        self.offered_by, self.offered, self.stage = None, 0, None

    def drop(self, side: Side) -> tuple[Side, int]:
        """``side`` refuses: returns (winner, points before the refused double, R12)."""
        winner = self._answering(side, "drop")
        self.dropped_by = side
        points = self.offered // 2
        self.offered_by, self.offered, self.stage = None, 0, None
        return winner, points

    def beaver(self, side: Side) -> int:
        """The taker redoubles at once and keeps the cube (R17); returns the new proposed value."""
        self._redouble_at_once(side, "beaver", self.settings.beavers, "double", "R17", "only a double can be beavered")
        self.owner = side
        return self.offered

    def raccoon(self, side: Side) -> int:
        """The doubler answers a beaver by redoubling again; the cube stays with the beaver's side (R18)."""
        self._redouble_at_once(side, "raccoon", self.settings.raccoons, "beaver", "R18", "a raccoon answers a beaver")
        return self.offered

    def _redouble_at_once(self, side: Side, what: str, allowed: bool, answers: str, rule: str, why: str) -> None:
        """``side`` answers the pending ``answers`` by redoubling at once (``what``: a beaver or a raccoon): the
        offered value stands (the cube turned) and twice it is offered back by ``side``."""
        self._answering(side, what)
        if not allowed:
            raise CubeError(f"{side.value} cannot {what}: {what}s are not allowed (money play setting, {rule})")
        if self.stage != answers:
            raise CubeError(f"{side.value} cannot {what} a {self.stage}: {why} ({rule})")
        self.value, self.turned = self.offered, True
        self.offered_by, self.offered, self.stage = side, self.value * 2, what
