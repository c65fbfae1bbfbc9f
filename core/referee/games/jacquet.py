"""Jacquet (R32) on the referee's side: the messenger that has not arrived, and a six-point block not yet
allowed."""

from __future__ import annotations

from typing import Any

from core.referee.faults import ILLEGAL, Fault
from core.referee.games.variant import Boards, VariantGame, VariantTurnModel
from core.rules.variants.base import longest_run
from core.rules.variants.jacquet import QUARTERS, JacquetPosition


class JacquetGame(VariantGame):
    name = "jacquet"

    def rule_fault(self, model: VariantTurnModel, boards: Boards, params: dict[str, Any]) -> Fault | None:
        pos = model.pos
        if not isinstance(pos, JacquetPosition) or not boards.all_there():
            return None
        me0, me1 = boards.me0, boards.me1
        mover = pos.turn
        if not pos.messenger_arrived(mover) and not any(me1[0:7]):
            may_leave = 1 if me0[24] == 15 else 0
            if me0[24] - me1[24] > may_leave:
                # The mover's own numbers, as its plays are written and the screen labels the board (one numbering
                # per game, issue 37): the start point is the mover's 24.
                return Fault(ILLEGAL, "messenger_not_arrived", {**params, "point": 24},
                             boards.moves())
        held_at = 2 if pos.settings.hitting else 1
        if me0[1] >= held_at and me0[2] >= held_at:
            return None
        held0 = [me0[p] >= held_at for p in range(1, 25)]
        held1 = [me1[p] >= held_at for p in range(1, 25)]
        q = pos.settings.prime_quarter
        lo = 0
        while lo < 24:
            if not held1[lo]:
                lo += 1
                continue
            hi = lo
            while hi + 1 < 24 and held1[hi + 1]:
                hi += 1
            if hi - lo + 1 >= 6 and any(not held0[k] for k in range(lo, hi + 1)) and longest_run(held1) >= 6:
                if q is None or any(lo + 1 <= p <= hi + 1 for p in QUARTERS[q]):
                    new = next(k + 1 for k in range(lo, hi + 1) if not held0[k])
                    return Fault(ILLEGAL, "six_block_not_allowed", {**params, "point": new},
                                 boards.moves())
            lo = hi + 1
        return None


JACQUET = JacquetGame()

__all__ = ["JACQUET", "JacquetGame"]
