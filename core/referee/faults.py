"""When no legal play explains the board: the simplest explanation, as a reason code.

The board is compared with the position at the start of the turn. The mover's checkers that left a
place and arrived somewhere are paired into moves (every pairing is tried, the one that breaks the fewest
rules wins) and each move is checked against the rules the referee cares about, in the order a human
referee would name them: takeback, wrong side, checkers missing or added, the bar first (R07), direction,
closed points (R05), bearing off too early (R10), distances (R04), and finally dice left unplayed (R09).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from core.referee.inference import TurnModel, Vec, cross_table, own_of_vec, vec_name, vec_of_position
from core.rules.notation import BAR, OFF, Move, Play
from core.rules.position import Side

ILLEGAL, UNPLAYED = "illegal", "unplayed_die"


@dataclass
class Fault:
    verdict: str  # illegal | unplayed_die
    reason: str
    params: dict[str, Any] = field(default_factory=dict)
    moves: tuple[tuple[int, int], ...] = ()  # the mover's moves seen (own numbering), for the record

    def play_text(self) -> str:
        return Play(tuple(Move(f, t) for f, t in self.moves)).text()


def _expand(diff: Sequence[int]) -> tuple[list[int], list[int]]:
    """Places that lost checkers and places that gained them, with multiplicity."""
    gone: list[int] = []
    came: list[int] = []
    for i, d in enumerate(diff):
        if d < 0:
            gone += [i] * -d
        elif d > 0:
            came += [i] * d
    return gone, came


def _example(model: TurnModel) -> str:
    if not len(model.legal):
        return ""
    return model.legal[0].play.text()


def _subsets_for(distance: int, to_off: bool, dice: list[int]) -> list[tuple[int, ...]]:
    """Index sets of the dice that can carry a checker ``distance`` points (more when bearing off)."""
    out = []
    idx = range(len(dice))
    for r in range(1, len(dice) + 1):
        for combo in itertools.combinations(idx, r):
            total = sum(dice[i] for i in combo)
            if total == distance or (to_off and total > distance and total - dice[combo[-1]] < distance):
                out.append(combo)
    return out


def _assign(moves: list[tuple[int, int]], dice: list[int]) -> tuple[int, list[tuple[int, ...]]] | None:
    """Give each move its own dice; None if impossible. Returns (dice used, per-move dice indexes)."""
    options = [_subsets_for(f - t, t == OFF, dice) for f, t in moves]

    def rec(k: int, used: frozenset[int]) -> list[tuple[int, ...]] | None:
        if k == len(moves):
            return []
        for combo in options[k]:
            if used.isdisjoint(combo):
                rest = rec(k + 1, used | set(combo))
                if rest is not None:
                    return [combo, *rest]
        return None

    found = rec(0, frozenset())
    if found is None:
        return None
    return sum(len(c) for c in found), found


def _check_moves(model: TurnModel, me0: list[int], opp0: list[int], moves: list[tuple[int, int]],
                 me_obs: list[int]) -> Fault:
    mover = model.mover
    cross = cross_table(mover, model.cls)
    dice = list(model.dice) * (2 if model.dice[0] == model.dice[1] else 1)
    params: dict[str, Any] = {"dice": list(model.dice), "side": mover.value, "example": _example(model)}

    def text(f: int, t: int) -> str:
        return Move(f, t).text()

    if me0[BAR] and me_obs[BAR] and any(f != BAR for f, _ in moves):
        return Fault(ILLEGAL, "bar_first", params, tuple(moves))
    for f, t in moves:
        if t > f or f == OFF:
            return Fault(ILLEGAL, "wrong_direction", {**params, "move": text(f, t)}, tuple(moves))
    for f, t in moves:
        if t != OFF and opp0[cross[t]] >= model.cls.block_at:
            return Fault(ILLEGAL, "closed_point", {**params, "point": t, "move": text(f, t)}, tuple(moves))
    if any(t == OFF for _, t in moves) and any(me_obs[i] for i in range(7, 26)):
        f = next(f for f, t in moves if t == OFF)
        return Fault(ILLEGAL, "bear_off_too_early", {**params, "point": f}, tuple(moves))
    assigned = _assign(moves, dice)
    if assigned is None:
        # Name the move that no die fits; when every move fits alone, the dice were used twice.
        for f, t in moves:
            if not _subsets_for(f - t, t == OFF, dice):
                return Fault(ILLEGAL, "wrong_distance",
                             {**params, "move": text(f, t), "count": f - t}, tuple(moves))
        return Fault(ILLEGAL, "illegal_play", params, tuple(moves))
    n_used, combos = assigned
    for (f, t), combo in zip(moves, combos, strict=True):
        # A combined move needs an open intermediate point (R04/R05) for some order of its dice.
        if len(combo) > 1:
            parts = [dice[i] for i in combo]
            ok = False
            for order in set(itertools.permutations(parts)):
                pos, clear = f, True
                for d in order[:-1]:
                    pos -= d
                    if pos <= 0 or opp0[cross[pos]] >= model.cls.block_at:
                        clear = False
                        break
                ok = ok or clear
            if not ok:
                mid = f - parts[0]
                return Fault(ILLEGAL, "closed_point", {**params, "point": mid, "move": text(f, t)}, tuple(moves))
        if t == OFF and sum(dice[i] for i in combo) > f and any(me0[p] for p in range(f + 1, 7)):
            die = sum(dice[i] for i in combo)
            return Fault(ILLEGAL, "bear_off_from_highest", {**params, "die": die, "point": f}, tuple(moves))
    if n_used < model.max_dice:
        used = sorted((dice[i] for c in combos for i in c), reverse=True)
        unplayed = list(dice)
        for d in used:
            unplayed.remove(d)
        if model.max_dice == 1 and model.dice[0] != model.dice[1]:
            die = max(model.dice)
            return Fault(UNPLAYED, "larger_die_required", {**params, "die": die}, tuple(moves))
        return Fault(UNPLAYED, "unplayed_die", {**params, "unplayed": unplayed[: model.max_dice - n_used]},
                     tuple(moves))
    if model.max_dice == 1 and model.dice[0] != model.dice[1] and n_used == 1:
        die_used = dice[combos[0][0]]
        if die_used < max(model.dice):
            return Fault(UNPLAYED, "larger_die_required", {**params, "die": max(model.dice)}, tuple(moves))
    return Fault(ILLEGAL, "illegal_play", params, tuple(moves))


def classify(model: TurnModel, obs: Vec, earlier: Sequence[Vec] = (), nearest: Vec | None = None) -> Fault:
    """Why the board ``obs`` is no legal play (or play in progress) of ``model``'s roll."""
    mover, other = model.mover, model.mover.other
    cls = model.cls
    params: dict[str, Any] = {"dice": list(model.dice), "side": mover.value, "other": other.value,
                              "example": _example(model)}
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
    d_me = [b - a for a, b in zip(me0, me1, strict=True)]
    d_opp = [b - a for a, b in zip(opp0, opp1, strict=True)]
    gone_me, came_me = _expand(d_me)
    gone_opp, came_opp = _expand(d_opp)
    # The opponent's checkers change on the mover's turn only by being hit (to the bar).
    if gone_opp and came_opp and all(p == OFF for p in came_opp) and len(gone_opp) == len(came_opp):
        # An opposing checker gone from the board (a camera derives "off" from what it no longer sees).
        p = gone_opp[0]
        where: str | int = "bar" if p == BAR else cls.routes[other][24 - p]
        return Fault(ILLEGAL, "checker_missing", {**params, "side": other.value, "point": where})
    opp_moved = [p for p in came_opp if p != BAR]
    if opp_moved or (gone_opp and not gone_me):
        if not gone_me:
            return Fault(ILLEGAL, "wrong_side_moved", params)
        return Fault(ILLEGAL, "wrong_side_moved", params)
    if not gone_me:
        return Fault(ILLEGAL, "illegal_play", params)
    best: Fault | None = None
    rank = {"illegal_play": 0, "unplayed_die": 1, "larger_die_required": 1, "bear_off_from_highest": 2,
            "wrong_distance": 3, "closed_point": 4, "bear_off_too_early": 5, "wrong_direction": 6, "bar_first": 7}
    seen: set[tuple[int, ...]] = set()
    for perm in itertools.permutations(range(len(came_me))):
        if perm in seen or len(seen) > 720:
            continue
        seen.add(perm)
        moves = sorted(((gone_me[k], came_me[j]) for k, j in enumerate(perm)), reverse=True)
        fault = _check_moves(model, me0, opp0, moves, me1)
        if best is None or rank.get(fault.reason, 9) < rank.get(best.reason, 9):
            best = fault
    assert best is not None
    return best


def vec_history(positions: Sequence[Any]) -> list[Vec]:
    return [vec_of_position(p) for p in positions]


__all__ = ["Fault", "classify", "vec_history", "Side"]
