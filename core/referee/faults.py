"""When no legal play explains the board: the simplest explanation, as a reason code.

The board is compared with the position at the start of the turn. First what only a board can show: a
takeback, checkers missing or added, the wrong side moved. Then the mover's checkers alone, explained by
core.rules.explain exactly as a play written in a file is (``Position.parse_play``): the bar first (R07),
direction, closed points (R05), bearing off too early (R10), distances (R04), and finally dice left
unplayed (R09). A play typed and the same play seen on the board get the same reason and the same words.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from core.referee.inference import TurnModel, Vec, cross_table, own_of_vec, vec_name, vec_of_position
from core.rules.explain import UNPLAYED as UNPLAYED_REASONS
from core.rules.explain import Roll, expand, explain_boards, play_text
from core.rules.notation import BAR, OFF
from core.rules.position import Side

ILLEGAL, UNPLAYED = "illegal", "unplayed_die"


@dataclass
class Fault:
    verdict: str  # illegal | unplayed_die
    reason: str
    params: dict[str, Any] = field(default_factory=dict)
    moves: tuple[tuple[int, int], ...] = ()  # the mover's moves seen (own numbering), for the record

    def play_text(self) -> str:
        return play_text(self.moves)


def _example(model: TurnModel, obs: Vec | None = None) -> str:
    """A legal play to propose: the one whose board is nearest the board shown (fewest checkers to move back;
    the generator's order breaks ties), so after 8/4 6/5 with 3-1 the hint is 8/5 6/5, the play the players were
    making, not the generator's first (24/23 24/21). Without a board, the generator's first."""
    if not len(model.legal):
        return ""
    if obs is None:
        return model.legal[0].play.text()
    best, cost = model.legal[0], None
    for c in model.by_vec.values():
        if c.legal is None:
            continue
        d = sum(abs(a - b) for a, b in zip(c.vec, obs, strict=True))
        if cost is None or d < cost:
            best, cost = c.legal, d
    return best.play.text()


def roll_of(model: TurnModel, obs: Vec | None = None) -> Roll:
    """The roll as core.rules.explain needs it (its example play the one nearest ``obs``, when given)."""
    return Roll(model.dice, model.max_dice, _example(model, obs), model.mover.value, model.cls.block_at,
                cross_table(model.mover, model.cls))


def classify(model: TurnModel, obs: Vec, earlier: Sequence[Vec] = (), nearest: Vec | None = None) -> Fault:
    """Why the board ``obs`` is no legal play (or play in progress) of ``model``'s roll."""
    mover, other = model.mover, model.mover.other
    cls = model.cls
    params: dict[str, Any] = {"dice": list(model.dice), "side": mover.value, "other": other.value,
                              "example": _example(model, obs)}
    if obs in earlier:
        return Fault(ILLEGAL, "takeback", params)
    me0, opp0 = own_of_vec(model.start, mover, cls), own_of_vec(model.start, other, cls)
    me1, opp1 = own_of_vec(obs, mover, cls), own_of_vec(obs, other, cls)
    # Checker counts first: a checker knocked off the board explains everything else it disturbs.
    for side, arr in ((mover, me1), (other, opp1)):
        total = sum(arr)
        if total != cls.checkers:
            code = "checker_missing" if total < cls.checkers else "checker_added"
            point: str | int = "?"
            if nearest is not None:
                want = -1 if total < cls.checkers else 1
                for i, x in enumerate(obs):
                    s, where = vec_name(i)
                    if s is side and (x - nearest[i]) * want > 0:
                        point = where
                        break
            return Fault(ILLEGAL, code, {**params, "side": side.value, "point": point})
    d_opp = [b - a for a, b in zip(opp0, opp1, strict=True)]
    gone_me = [i for i, (a, b) in enumerate(zip(me0, me1, strict=True)) if b < a]
    gone_opp, came_opp = expand(d_opp)
    # The opponent's checkers change on the mover's turn only by being hit (to the bar).
    if gone_opp and came_opp and all(p == OFF for p in came_opp) and len(gone_opp) == len(came_opp):
        # An opposing checker gone from the board (a camera derives "off" from what it no longer sees).
        p = gone_opp[0]
        where = "bar" if p == BAR else cls.routes[other][24 - p]
        return Fault(ILLEGAL, "checker_missing", {**params, "side": other.value, "point": where})
    opp_moved = [p for p in came_opp if p != BAR]
    if opp_moved or (gone_opp and not gone_me):
        return Fault(ILLEGAL, "wrong_side_moved", params)
    if not gone_me:
        return Fault(ILLEGAL, "illegal_play", params)
    # The mover's checkers alone: the same explanation as for a play written in a file (core.rules.explain).
    reason, found, moves = explain_boards(roll_of(model, obs), me0, opp0, me1)
    return Fault(UNPLAYED if reason in UNPLAYED_REASONS else ILLEGAL, reason, found, moves)


def vec_history(positions: Sequence[Any]) -> list[Vec]:
    return [vec_of_position(p) for p in positions]


__all__ = ["Fault", "classify", "vec_history", "Side"]
