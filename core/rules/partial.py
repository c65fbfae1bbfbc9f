"""Every way of playing a roll, one die at a time: the boards a legal play passes through (R04-R09).

A play of two dice (four for doubles) is made one checker move at a time, in either order of the dice;
the boards on the way are what a camera sees while the play is being made, and what a referee must tell
from a fault. ``partial_plays`` lists each of them once, with one way to reach it. It uses the single
steps of ``core.rules.movegen`` (the same rules as the full generator) on the same boards: the mover's 26
counts and the opponent's checkers on the mover's points (``oa``).

Only boards from which the play can still be completed with as many dice as the roll allows (R09) are
partial plays: a move after which the other die cannot be played is not on the way to any legal play.
Neither the start (nothing moved) nor a finished play is one.

>>> from core.rules.position import Position
>>> [p.text() for p in partial_plays(Position.start(), (6, 5))]
['24/18', '13/7', '8/2', '13/8', '8/3']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from core.rules import movegen
from core.rules.notation import Move, Play
from core.rules.position import Position, check_dice

Step = movegen.Step


class Partial(NamedTuple):
    """One board on the way to a legal play: the mover's counts, the points hit, one way there."""

    me: tuple[int, ...]  # the mover's 26 own-numbered counts (0 = off, 25 = bar)
    hits: tuple[int, ...]  # the mover's points where an opposing blot was hit, ascending
    steps: tuple[Step, ...]  # (from, to, hit) single-die moves that reach it, in order
    used: tuple[int, ...]  # the dice those moves used, in order

    def text(self) -> str:
        return Play(tuple(Move(f, t, h) for f, t, h in self.steps)).text()


def prefixes(me: Sequence[int], oa: Sequence[int], d1: int, d2: int, max_dice: int,
             block_at: int = 2) -> list[Partial]:
    """Every board after 1 .. ``max_dice`` - 1 single-die moves from which ``max_dice`` dice are played.

    ``max_dice`` is the length of the legal plays (core.rules.movegen.generate). The order is fixed:
    depth-first, the dice in the order (d1, d2) then (d2, d1), moves in ``movegen.steps`` order, and a board
    after the boards that continue from it; each board once, with the first way that reached it.
    """
    if max_dice < 2:
        return []
    orders = [(d1,) * 4] if d1 == d2 else [(d1, d2), (d2, d1)]
    last = max_dice - 1
    found: dict[tuple[int, ...], Partial] = {}
    memo: dict[tuple[tuple[int, ...], tuple[int, ...]], bool] = {}
    steps, apply_step = movegen.steps, movegen.apply_step

    def dfs(cur_me: list[int], cur_oa: list[int], order: tuple[int, ...], depth: int, path: tuple[Step, ...],
            hits: tuple[int, ...]) -> bool:
        # 1 <= depth <= last: a board on the way, if some continuation uses every die it can.
        key = (*cur_me, *hits) if hits else tuple(cur_me)
        mkey = (key, order[depth:])
        known = memo.get(mkey)
        if known is not None:
            return known
        die = order[depth]
        nxt = steps(cur_me, cur_oa, die, block_at)
        if depth == last:
            reaches = bool(nxt)  # one more move finishes a legal play
        else:
            reaches = False
            for st in nxt:
                me2, oa2 = apply_step(cur_me, cur_oa, st)
                if dfs(me2, oa2, order, depth + 1, (*path, st), tuple(sorted((*hits, st[1]))) if st[2] else hits):
                    reaches = True
        if reaches and key not in found:
            found[key] = Partial(key[:26], hits, path, order[:depth])
        memo[mkey] = reaches
        return reaches

    me0, oa0 = list(me), list(oa)
    for order in orders:
        for st in steps(me0, oa0, order[0], block_at):
            me1, oa1 = apply_step(me0, oa0, st)
            dfs(me1, oa1, order, 1, (st,), (st[1],) if st[2] else ())
    return list(found.values())


def partial_plays(pos: Position, dice: Sequence[int], max_dice: int | None = None) -> list[Partial]:
    """The boards on the way to the legal plays of ``dice`` from ``pos`` (its side on roll), as ``prefixes``
    gives them. ``max_dice``: how many dice the legal plays use, if the caller has them already."""
    d1, d2 = check_dice(dice)
    me, oa = pos._generator_boards()
    if max_dice is None:
        max_dice = max((len(p) for p in movegen.generate(me, oa, d1, d2, pos.block_at).values()), default=0)
    return prefixes(me, oa, d1, d2, max_dice, pos.block_at)


__all__ = ["Partial", "partial_plays", "prefixes"]
