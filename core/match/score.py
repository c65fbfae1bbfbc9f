"""Match play (R13), the Crawford rule (R14), Holland (R16) and money play with Jacoby (R15).

A ``Match`` keeps the score between games and says, for each game, whether it is the Crawford game,
whether the cube may be used, and what a finished game is worth.

>>> m = Match(3)
>>> m.record_result(Side.LIGHT, 2); m.crawford
True
>>> m.why_not_double(Side.DARK, Cube(m.cube_settings()))
'no doubling in the Crawford game (R14)'
>>> m.record_result(Side.DARK, 1); (m.crawford, m.post_crawford)
(False, True)
"""

from __future__ import annotations

from core.match.cube import Cube, CubeSettings
from core.match.record import MatchRules
from core.rules.position import Side

RESULT_NAMES = {1: "single", 2: "gammon", 3: "backgammon"}


class Match:
    """Score and game-level rules of a match to ``length`` points (0 = money session)."""

    def __init__(
        self, length: int, rules: MatchRules | None = None, score: dict[Side, int] | None = None
    ) -> None:
        if length < 0:
            raise ValueError(f"match length {length} must be 0 (money) or more")
        self.length = length
        self.rules = rules or MatchRules(crawford=length > 0)
        self.score = dict(score) if score else {Side.LIGHT: 0, Side.DARK: 0}
        self.game_number = 1
        self.crawford = False
        self.post_crawford = False
        if self.length > 1 and self.rules.crawford:
            # As gnubg does for a match that starts at a given score: exactly one side at N-1 means
            # this is the Crawford game; both there means it has been played already. A 1-point match has
            # no Crawford game (each side is at N-1 from the start): neither Crawford nor post-Crawford.
            at = [s for s in self.score.values() if s == self.length - 1]
            self.crawford = len(at) == 1
            self.post_crawford = len(at) == 2

    @property
    def money(self) -> bool:
        return self.length == 0

    @property
    def over(self) -> bool:
        return not self.money and max(self.score.values()) >= self.length

    @property
    def winner(self) -> Side | None:
        if not self.over:
            return None
        return max(self.score, key=lambda s: self.score[s])

    def away(self, side: Side) -> int:
        return self.length - self.score[side]

    def cube_settings(self) -> CubeSettings:
        r = self.rules
        return CubeSettings(
            cap=r.cube_cap,
            beavers=self.money and r.beavers,
            raccoons=self.money and r.beavers and r.raccoons,
            enabled=r.cube_use and not self.crawford,
        )

    def why_not_double(self, side: Side, cube: Cube, rolls: dict[Side, int] | None = None) -> str | None:
        """None when ``side`` may double now in this match (cube state, Crawford, Holland)."""
        if self.crawford:
            return "no doubling in the Crawford game (R14)"
        if not self.rules.cube_use:
            return "the cube is not used in this match"
        if self.rules.holland and self.post_crawford and rolls is not None:
            trailer = self.score[side] < self.score[side.other]
            if trailer and min(rolls.get(Side.LIGHT, 0), rolls.get(Side.DARK, 0)) < 2:
                return "Holland rule: after Crawford the trailer may double only once each side has played two rolls (R16)"
        return cube.why_not_double(side)

    def game_points(self, value: int, cube: Cube) -> int:
        """Points for a game won with ``value`` (1 single, 2 gammon, 3 backgammon) at this cube (R11, R15)."""
        if self.money and self.rules.jacoby and not cube.turned:
            value = 1
        return value * cube.value

    def record_result(self, winner: Side, points: int) -> None:
        """Add a finished game to the score and work out whether the next game is the Crawford game (R14)."""
        was_crawford = self.crawford
        self.score[winner] += points
        self.game_number += 1
        self.crawford = False
        if self.money or not self.rules.crawford or self.over:
            return
        if was_crawford:
            self.post_crawford = True
        elif not self.post_crawford and self.score[winner] == self.length - 1:
            if self.score[winner.other] == self.length - 1:
                self.post_crawford = True  # both at N-1: the Crawford game was already played
            else:
                self.crawford = True

    def state(self) -> dict[str, object]:
        """The ``match`` part of the kiosk's public state."""
        return {
            "length": self.length,
            "score": {Side.LIGHT.value: self.score[Side.LIGHT], Side.DARK.value: self.score[Side.DARK]},
            "crawford": self.crawford,
            "post_crawford": self.post_crawford,
            "game": self.game_number,
            "rules": self.rules.as_dict(),
        }
