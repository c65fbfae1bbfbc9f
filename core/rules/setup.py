"""The fewest checker moves that turn one position into another: setting up a position on a real board.

Setting up is not playing: a hand lifts one checker from anywhere (a point, the bar or the borne-off tray) and
puts it anywhere else. Each side is a transport problem on its own: points holding more checkers than the target
send the extra ones to points holding fewer. A checker that must leave its place is moved once and only once,
straight to a place that needs it, so the fewest moves is the sum of the surpluses (no plan can do with fewer: every
surplus checker has to be lifted at least once, and a lift fills one place). Among the plans with that many
moves, surpluses and shortages are paired in order along the side's route (off = 0, points 1..24, bar = 25), the
pairing that carries checkers the shortest total distance on a line (the one-dimensional transport problem).

Points are in each side's own numbering (1 = its ace point, 25 = bar, 0 = off), as in ``Play``.

>>> from core.rules.position import Position
>>> start = Position.start()
>>> target = Position.from_position_id("4HPwATDgc/ABMA")
>>> setup_moves(start, target).checkers_moved
0
>>> [m.as_json() for m in setup_moves(start, start.play((3, 1), "8/5 6/5")).moves]
[{'side': 'light', 'from': 8, 'to': 5, 'count': 1}, {'side': 'light', 'from': 6, 'to': 5, 'count': 1}]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.rules.notation import BAR, OFF
from core.rules.position import Position, Side


@dataclass(frozen=True, slots=True)
class SetupMove:
    """``count`` checkers of ``side`` lifted from ``frm`` and put on ``to`` (own numbering, 25 = bar, 0 = off)."""

    side: Side
    frm: int
    to: int
    count: int

    def as_json(self) -> dict[str, object]:
        return {"side": self.side.value, "from": _place(self.frm), "to": _place(self.to), "count": self.count}


@dataclass(frozen=True, slots=True)
class SetupPlan:
    moves: tuple[SetupMove, ...]

    @property
    def checkers_moved(self) -> int:
        return sum(m.count for m in self.moves)

    @property
    def done(self) -> bool:
        return not self.moves

    def as_json(self) -> dict[str, object]:
        return {"moves": [m.as_json() for m in self.moves], "checkers_moved": self.checkers_moved}


def _place(point: int) -> int | str:
    return "bar" if point == BAR else "off" if point == OFF else point


def side_moves(now: Sequence[int], target: Sequence[int]) -> list[tuple[int, int, int]]:
    """(from, to, count) for one side's 26 own-numbered counts, fewest checkers moved, shortest total carry."""
    if len(now) != 26 or len(target) != 26 or sum(now) != sum(target):
        raise ValueError("both layouts need 26 places and the same number of checkers")
    give = [p for p in range(26) for _ in range(max(0, now[p] - target[p]))]
    need = [p for p in range(26) for _ in range(max(0, target[p] - now[p]))]
    pairs: dict[tuple[int, int], int] = {}
    for frm, to in zip(give, need, strict=True):  # both ascending: the monotone pairing is the shortest on a line
        pairs[frm, to] = pairs.get((frm, to), 0) + 1
    # The far checkers first (as a player reads the board, from the back), then by destination.
    return [(frm, to, n) for (frm, to), n in sorted(pairs.items(), key=lambda kv: (-kv[0][0], -kv[0][1]))]


def setup_moves(now: Position, target: Position) -> SetupPlan:
    """The fewest single-checker moves that turn ``now`` into ``target`` (the side on roll is not a move).

    Ordered so that a hand can make them one after the other: each move lands on the bar, the tray or a point where
    the other side has no checker at that moment. Any lift from a place holding too many to a place holding too few
    keeps the plan the fewest, so the order is found a checker at a time: the shortest-carry pairing's first move
    that lands free, else the shortest free lift between a surplus and a shortage (a side leaves a point before the
    other side needs it). Only where every shortage of both sides is held by the other side (a swap) does a move
    land on an occupied point: the count stays the fewest and the hand holds a checker meanwhile."""
    sides = (Side.LIGHT, Side.DARK)
    counts = {side: list(now.own(side)) for side in sides}
    goal = {side: target.own(side) for side in sides}
    held = {side: [0] * 25 for side in sides}  # physical point -> checkers
    for side in sides:
        for point in range(1, 25):
            held[side][now.physical_point(side, point)] += counts[side][point]

    def free(side: Side, to: int) -> bool:
        return to in (BAR, OFF) or not held[side.other][now.physical_point(side, to)]

    steps: list[tuple[Side, int, int]] = []
    while True:
        paired = [(side, frm, to) for side in sides for frm, to, _ in side_moves(counts[side], goal[side])]
        if not paired:
            break
        step = next((m for m in paired if free(m[0], m[2])), None)
        if step is None:
            lifts = [(abs(frm - to), k, (side, frm, to)) for k, side in enumerate(sides)
                     for frm in range(26) if counts[side][frm] > goal[side][frm]
                     for to in range(26) if counts[side][to] < goal[side][to] and free(side, to)]
            step = min(lifts)[2] if lifts else paired[0]  # paired[0]: a swap, nothing lands free
        side, frm, to = step
        counts[side][frm] -= 1
        counts[side][to] += 1
        if frm not in (BAR, OFF):
            held[side][now.physical_point(side, frm)] -= 1
        if to not in (BAR, OFF):
            held[side][now.physical_point(side, to)] += 1
        steps.append(step)
    moves: list[SetupMove] = []
    for side, frm, to in steps:  # the same lift again and again: one move with its count
        if moves and (moves[-1].side, moves[-1].frm, moves[-1].to) == (side, frm, to):
            moves[-1] = SetupMove(side, frm, to, moves[-1].count + 1)
        else:
            moves.append(SetupMove(side, frm, to, 1))
    return SetupPlan(tuple(moves))
