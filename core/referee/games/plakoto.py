"""Plakoto (R30) on the referee's side: pinned checkers hidden under their pinners, a pinned checker that
moved, and the game won by pinning the mother."""

from __future__ import annotations

from typing import Any

from core.referee.faults import ILLEGAL, Fault
from core.referee.games.base import Result
from core.referee.games.variant import Boards, VariantGame, VariantTurnModel
from core.referee.inference import Observation
from core.rules.notation import OFF
from core.rules.position import Position
from core.rules.variants.plakoto import PlakotoPosition


class PlakotoGame(VariantGame):
    name = "plakoto"

    def board(self, pos: Position, obs: Observation) -> Observation:
        """A camera's board with the pinned checkers put back where the camera cannot see them.

        A pinned checker lies under its pinner, so the camera sees only the pinner's colour on that point. The
        referee knows the pins from the plays: a checker that was pinned, or stood alone, on a point that now
        shows only the other colour is under it (in one turn only the mover's checkers move, and the only way
        onto a lone opposing checker is to pin it). It is counted there and taken out of the derived borne-off
        count. Boards that count the pinned checker (both colours on the point) are unchanged.
        """
        if not isinstance(pos, PlakotoPosition) or not obs.derived_off:
            return obs
        j = pos.to_json()
        pinned = {(q["point"], q["side"]) for q in j["pinned"]}
        v = list(obs.vec)
        dists = dict(obs.dists)
        for side, other, base, other_base, off in (("light", "dark", 0, 24, 50), ("dark", "light", 24, 0, 51)):
            # No more than the side's checkers not borne off: when all of them are seen elsewhere, the pinned one
            # came out from under its pinner (a fault the referee must see, R30), it is not hidden there.
            room = 15 - j["off"][side] - sum(v[base:base + 24]) - v[48 if side == "light" else 49]
            for p in range(1, 25):
                alone = j[side][p - 1] == 1 and ((p, side) in pinned or j[other][p - 1] == 0)
                if alone and room > 0 and v[base + p - 1] == 0 and v[other_base + p - 1] >= 1:
                    room -= 1
                    v[base + p - 1] = 1
                    dists.pop(base + p - 1, None)
                    v[off] = max(0, v[off] - 1)
        return obs if v == list(obs.vec) else Observation(tuple(v), dists, True, obs.covered)

    def rule_fault(self, model: VariantTurnModel, boards: Boards, params: dict[str, Any]) -> Fault | None:
        pos, mover = model.pos, model.mover
        if not isinstance(pos, PlakotoPosition) or not boards.all_there():
            return None
        for p in sorted(pos.pinned(mover), reverse=True):
            if boards.me1[p] < boards.me0[p]:
                # The mover's own number, as the play is written and the board is labelled on the screen (one
                # numbering per game; issue 37): "10/5" and "the checker on point 15" in the same count.
                return Fault(ILLEGAL, "pinned_checker_moved", {**params, "point": p},
                             boards.moves())
        return None

    def result(self, pos: Position) -> Result | None:
        """Plakoto's ``mother`` (a mother pinned) and ``draw`` (both mothers pinned: no winner, 0) besides the rest."""
        result = super().result(pos)
        if result is None or result[0] is None:
            return result
        winner, mult = result[0], result[1]
        if isinstance(pos, PlakotoPosition) and pos.mother_pinned(winner.other) and pos._rel[winner.index][OFF] < 15:
            return winner, mult, "mother"
        return result


PLAKOTO = PlakotoGame()

__all__ = ["PLAKOTO", "PlakotoGame"]
