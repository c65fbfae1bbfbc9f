"""The fewest checker moves that turn one position into another: setting up a position on a real board.

Setting up is not playing: a hand lifts one checker from anywhere (a point, the bar or the borne-off tray) and
puts it anywhere else. Each side is a transport problem on its own: points holding more checkers than the target
send the extra ones to points holding fewer. A checker that must leave its place is moved once and only once,
straight to a place that needs it, so the fewest moves is the sum of the surpluses (no plan can do with fewer: every
surplus checker has to be lifted at least once, and a lift fills one place). Among the plans with that many
moves, surpluses and shortages are paired in order along the side's route (off = 0, points 1..24, bar = 25), the
pairing that carries checkers the shortest total distance on a line (the one-dimensional transport problem).

Points are in each side's own numbering (1 = its ace point, 25 = bar, 0 = off), as in ``Play``.

The variants' positions too (any ``Position`` subclass, each with its own routes): checkers a side has off the
board without having borne them off (Russian backgammon's checkers waiting to enter) are in the same place as the
borne-off ones for the hand (off the board; a side never has both: it bears off only once all have entered), named
``waiting`` instead of ``off`` when the target has such checkers. A Plakoto pin (the board layout's ``pinned``: a
lone checker under an opposing checker) is set up by putting the pinned checker on its point first, or under the
pinner already there (``under``: lift the pinner, put the checker down, put the pinner back on it); a pin the wrong
way round (the target's pinner under the target's pinned checker) is one more move, the pinned checker put under
on the same point.

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
    under: bool = False  # Plakoto: put it under the other side's checker on ``to`` (a pin)
    waiting: bool = False  # Russian backgammon: the off-board place is the checkers waiting to enter

    def as_json(self) -> dict[str, object]:
        off = "waiting" if self.waiting else "off"
        out: dict[str, object] = {"side": self.side.value, "from": _place(self.frm, off), "to": _place(self.to, off),
                                  "count": self.count}
        if self.under:
            out["under"] = True
        return out


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


def _place(point: int, off: str = "off") -> int | str:
    return "bar" if point == BAR else off if point == OFF else point


def _counts(pos: Position, side: Side) -> list[int]:
    """The side's 26 own-numbered counts with every checker it has off the board at OFF (borne off, or waiting to
    enter in Russian backgammon)."""
    counts = list(pos.own(side))
    counts[OFF] = 15 - sum(counts[1:])
    return counts


def _as_game(pos: Position, game: Position) -> Position:
    """``pos``'s checkers, where they physically are, as a position of ``game``'s class (its own numbering)."""
    layout = pos.to_dict()
    rel = []
    for side in (Side.LIGHT, Side.DARK):
        own = [0] * 26
        physical = layout[side.value]
        assert isinstance(physical, list)
        for phys, n in enumerate(physical, start=1):
            own[game.own_point(side, phys)] += n
        own[BAR] = pos.own(side)[BAR]
        own[OFF] = pos.own(side)[OFF]
        rel.append(tuple(own))
    return type(game)((rel[0], rel[1]), pos.turn)


def _pins(pos: Position) -> dict[int, Side]:
    """Physical point -> the side pinned there (Plakoto's layout ``pinned``; none in the other games)."""
    pinned = pos.to_dict().get("pinned") or []
    assert isinstance(pinned, list)
    return {int(q["point"]): Side(q["side"]) for q in pinned}


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
    if type(now) is not type(target):  # the board as the target's game numbers it (each game has its routes)
        now = _as_game(now, target)
    counts = {side: _counts(now, side) for side in sides}
    goal = {side: _counts(target, side) for side in sides}
    waiting = {side: target.own(side)[OFF] < goal[side][OFF] for side in sides}  # off the board, not borne off
    pins = _pins(target)
    held = {side: [0] * 25 for side in sides}  # physical point -> checkers
    for side in sides:
        for point in range(1, 25):
            held[side][now.physical_point(side, point)] += counts[side][point]

    def free(side: Side, to: int) -> bool:
        if to in (BAR, OFF):
            return True
        q = now.physical_point(side, to)
        if pins.get(q) is side:  # its pin: the checker goes under whatever is there
            return True
        if pins.get(q) is side.other:  # it pins there: onto the lone checker to be pinned (or an empty point)
            return held[side.other][q] <= 1
        return not held[side.other][q]

    now_pins = _pins(now)
    bottom: dict[int, Side | None] = {}  # physical point -> the side whose checker lies at the bottom of its stack
    for q in range(1, 25):
        bottom[q] = now_pins.get(q) or next((side for side in sides if held[side][q]), None)
    steps: list[tuple[Side, int, int, bool]] = []
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
        q = now.physical_point(side, to) if to not in (BAR, OFF) else 0
        under = bool(q) and pins.get(q) is side and bool(held[side.other][q])
        counts[side][frm] -= 1
        counts[side][to] += 1
        if frm not in (BAR, OFF):
            f = now.physical_point(side, frm)
            held[side][f] -= 1
            if bottom[f] is side and not held[side][f]:
                bottom[f] = side.other if held[side.other][f] else None
        if q:
            held[side][q] += 1
            if under or bottom[q] is None:
                bottom[q] = side
        steps.append((side, frm, to, under))
    moves: list[SetupMove] = []
    for side, frm, to, under in steps:  # the same lift again and again: one move with its count
        if moves and (moves[-1].side, moves[-1].frm, moves[-1].to, moves[-1].under) == (side, frm, to, under):
            moves[-1] = SetupMove(side, frm, to, moves[-1].count + 1, under, waiting[side])
        else:
            moves.append(SetupMove(side, frm, to, 1, under, waiting[side]))
    # A pin the wrong way round once the lifts are made (the target's pinned checker stayed, on top): put under.
    for q, side in sorted(pins.items()):
        if bottom[q] is not side:
            point = now.own_point(side, q)
            moves.append(SetupMove(side, point, point, 1, True, waiting[side]))
    return SetupPlan(tuple(moves))
