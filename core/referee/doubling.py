"""The cube (R12, R14, R16-R18): double, take, drop, beaver and raccoon, ruled against the match's cube."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.messages import message
from core.referee.part import Part
from core.referee.state import Phase
from core.referee.verdicts import Verdict, verdict
from core.rules.position import Side


class Doubling(Part):
    """Owns the cube's actions (``MatchState.cube``)."""

    def on_cube(self, at: int, ev: Mapping[str, Any], out: list[Verdict]) -> None:
        self.cube(at, ev["action"], Side(ev["side"]), out)

    def fault(self, out: list[Verdict], at: int, side: Side, code: str) -> None:
        owner = self.match_state.cube.owner.value if self.match_state.cube.owner else side.value
        params: dict[str, Any] = {"side": side.value, "owner": owner, "cap": self.match_state.cube.settings.cap or ""}
        verdict(out, at, "illegal", side=side.value, reason=code, message=message(code, **params))

    def cube(self, at: int, action: str, side: Side, out: list[Verdict]) -> None:
        if action == "double":
            self.ref.held_roll.release_first(out)
            if self.match_state.phase == Phase.MOVING and side is self.match_state.turn.other:
                if not self.ref.committer.commit(at, {"event": "cube", "action": action, "side": side.value}, out):
                    return
            if self.match_state.phase != Phase.AWAITING_ROLL or side is not self.match_state.turn:
                self.fault(out, at, side, "cube_after_roll")
                return
            code = self.match_state.double_problem(side)
            if code:
                self.fault(out, at, side, code)
                return
            value = self.match_state.cube.double(side)
            self.match_state.phase = Phase.CUBE_OFFERED
            self.match_state.record({"kind": "double", "side": side.value, "value": value})
            verdict(out, at, "cube", action="double", side=side.value, value=value)
            return
        offer = self.match_state.cube.offered_by
        if self.match_state.phase != Phase.CUBE_OFFERED or offer is None:
            self.fault(out, at, side, "no_cube_offered")
            return
        if side is offer:
            self.fault(out, at, side.other, "cube_answer_wrong_side")
            return
        if action == "take":
            self.match_state.cube.take(side)
            self.match_state.phase = Phase.AWAITING_ROLL
            self.match_state.record({"kind": "take", "side": side.value, "value": self.match_state.cube.value})
            verdict(out, at, "cube", action="take", side=side.value, value=self.match_state.cube.value)
        elif action == "drop":
            winner, points = self.match_state.cube.drop(side)
            self.match_state.record({"kind": "drop", "side": side.value})
            verdict(out, at, "cube", action="drop", side=side.value, value=points)
            self.ref.ending.game_over(at, winner, points, "drop", out)
        elif action in ("beaver", "raccoon"):
            allowed = self.match_state.cube.settings.raccoons if action == "raccoon" else self.match_state.cube.settings.beavers
            stage_ok = self.match_state.cube.stage == ("beaver" if action == "raccoon" else "double")
            if not (allowed and stage_ok):
                self.fault(out, at, side, "beaver_not_allowed")
                return
            value = self.match_state.cube.raccoon(side) if action == "raccoon" else self.match_state.cube.beaver(side)
            self.match_state.record({"kind": action, "side": side.value, "value": value})
            verdict(out, at, "cube", action=action, side=side.value, value=value)
