"""Objects on the field: a roll that waits while a dice cup (a die, the cube, a hand...) covers a point.

A board event's ``covered`` names the points an object stands on; the camera cannot see them, so the referee
never counts them (``Observation.from_event``: any count there is as likely as another) and never calls a
fault there. The opponent's roll commits the mover's play (R23): if the last stable board still has a covered
point, the referee does not rule on a board it cannot see. The roll waits (``TurnState.blocked``) and the
screen says what to take off which point, numbered as the screen numbers the board (the mover's own points).
The first stable board with nothing covered lets the roll through, ruled as it would have been; any other
event (another roll, a cube action, a button) lets it through first on the board as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.messages import message
from core.referee.inference import Observation
from core.referee.part import Part
from core.referee.state import Phase
from core.referee.verdicts import Verdict, verdict


class Cover(Part):
    """Owns ``TurnState.blocked``: the roll that waits for the field to be cleared."""

    def before(self, at: int, ev: Mapping[str, Any], out: list[Verdict]) -> None:
        """Before any event but a board, a tick or a new match: a roll still waiting for the field to be cleared
        goes through first, on the board as it is (the players went on)."""
        if self.turn_state.blocked is not None and ev["event"] not in ("board", "tick", "new_match"):
            self.release(out)

    def hold(self, at: int, ev: Mapping[str, Any], out: list[Verdict]) -> bool:
        """A roll while the mover plays and an object covers a point on the last stable board: it waits, and
        the screen says what to take away. True when it was held."""
        obs = self.turn_state.last_obs
        if self.match_state.phase != Phase.MOVING or obs is None or not obs.covered:
            return False
        self.turn_state.blocked = (at, dict(ev))
        self.say(at, obs, out)
        return True

    def say(self, at: int, obs: Observation, out: list[Verdict]) -> None:
        mover = self.match_state.turn
        pos = self.match_state.pos
        points = [pos.own_point(mover, p) for p, _ in obs.covered]
        things = {by for _, by in obs.covered}
        by = things.pop() if len(things) == 1 else "object"
        verdict(out, at, "uncertain", side=mover.value, dice=list(self.match_state.dice or ()), committing=True,
                candidates=[], reason="point_covered", point=points[0], covered=points, by=by,
                message=message("point_covered", covered=points, by=by))

    def board(self, at: int, obs: Observation, out: list[Verdict]) -> None:
        """A stable board (already ruled on as the mover's): with nothing covered, the waiting roll goes on."""
        if self.turn_state.blocked is None or obs.covered:
            return
        self.release(out)

    def release(self, out: list[Verdict]) -> None:
        """The waiting roll goes through now, ruled on the last stable board (its verdicts keep its index)."""
        blocked, self.turn_state.blocked = self.turn_state.blocked, None
        if blocked is not None:
            self.ref.take_roll(blocked[0], blocked[1], out)


__all__ = ["Cover"]
