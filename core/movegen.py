"""Legal-play generation (R04-R10, R25) on the mover's own numbering.

Boards here are lists of 26 counts in the mover's own numbering: index 0 = borne off, 1..24 = the mover's
points (1..6 home), 25 = the bar. The opponent is seen through ``oa`` ("opponent at"): ``oa[i]`` is the
number of opposing checkers on the mover's point ``i``. A hit only empties ``oa[i]``; which points were hit
is enough to rebuild the opponent's board afterwards, so a result is keyed by the mover's 26 counts
followed by the hit points. Routes and the cross table (mover's point -> opponent's own point) live in
``core.position``; nothing here knows where points are physically.

``generate`` keeps only plays that use the most dice and, among one-die plays, the larger die (R09),
exactly as GNU Backgammon's ``GenerateMoves`` does, with one entry per distinct resulting position.
"""

from __future__ import annotations

from collections.abc import Sequence

Step = tuple[int, int, bool]  # (from, to, hit) in the mover's numbering
Key = tuple[int, ...]  # the mover's 26 counts, then the points hit (ascending)
Found = dict[Key, tuple[Step, ...]]


def opponent_at(opp: Sequence[int], cross: Sequence[int]) -> list[int]:
    """The opponent's counts indexed by the mover's points 1..24 (0 and 25 unused)."""
    return [0, *(opp[cross[i]] for i in range(1, 25)), 0]


def steps(me: Sequence[int], oa: Sequence[int], die: int, block_at: int = 2, max_from: int = 25) -> list[Step]:
    """Every legal single-checker move with one die (R04-R07, R10), from points no higher than ``max_from``."""
    if me[25]:
        # R07: a checker on the bar enters before anything else moves.
        to = 25 - die
        o = oa[to]
        return [(25, to, o == 1)] if o < block_at else []
    out = []
    for i in range(min(max_from, 24), die, -1):
        if me[i]:
            o = oa[i - die]
            if o < block_at:
                out.append((i, i - die, o == 1))
    if sum(me[7:]) == 0:
        # R10: all home; bear off from the die's point, or from the highest point when the die is larger.
        if me[die]:
            if die <= max_from:
                out.append((die, 0, False))
        else:
            for i in range(die - 1, 0, -1):
                if me[i]:
                    if not any(me[i + 1 : 7]) and i <= max_from:
                        out.append((i, 0, False))
                    break
    return out


def _apply(me: list[int], oa: list[int], step: Step) -> tuple[list[int], list[int]]:
    frm, to, hit = step
    me2 = me.copy()
    me2[frm] -= 1
    me2[to] += 1
    if hit:
        oa2 = oa.copy()
        oa2[to] = 0
        return me2, oa2
    return me2, oa


def _key(me: list[int], path: tuple[Step, ...]) -> Key:
    hits = sorted(t for _, t, h in path if h)
    return (*me, *hits) if hits else tuple(me)


def generate(me: list[int], oa: list[int], d1: int, d2: int, block_at: int = 2) -> Found:
    """Map each distinct result key to one representative sequence of steps."""
    if d1 == d2:
        return _generate_doubles(me, oa, d1, block_at)
    results: Found = {}
    singles: dict[int, Found] = {d1: {}, d2: {}}
    for a, b in ((d1, d2), (d2, d1)):
        single = singles[a]
        for s1 in steps(me, oa, a, block_at):
            me1, oa1 = _apply(me, oa, s1)
            seconds = steps(me1, oa1, b, block_at)
            if seconds:
                for s2 in seconds:
                    frm, to, hit = s2
                    me2 = me1.copy()
                    me2[frm] -= 1
                    me2[to] += 1
                    path = (s1, s2)
                    key = _key(me2, path) if (hit or s1[2]) else tuple(me2)
                    if key not in results:
                        results[key] = path
            elif not results:
                key = _key(me1, (s1,))
                if key not in single:
                    single[key] = (s1,)
    if results:
        return results
    # R09: only one die can be played: the larger one if it can, otherwise the smaller. Nothing: R25.
    hi, lo = (d1, d2) if d1 > d2 else (d2, d1)
    return singles[hi] or singles[lo]


def _generate_doubles(me: list[int], oa: list[int], d: int, block_at: int) -> Found:
    # R08: four moves of the same number. Moves are explored with non-increasing source points, which
    # reaches every multiset of moves that some order can play, once.
    best: Found = {}
    best_used = 0

    def dfs(cur_me: list[int], cur_oa: list[int], left: int, max_from: int, path: tuple[Step, ...], hits: tuple[int, ...]) -> None:
        nonlocal best, best_used
        if left:
            nxt = steps(cur_me, cur_oa, d, block_at, max_from)
            if nxt:
                for s in nxt:
                    me2, oa2 = _apply(cur_me, cur_oa, s)
                    dfs(me2, oa2, left - 1, s[0], (*path, s), (*hits, s[1]) if s[2] else hits)
                return
        used = len(path)
        if used < best_used or used == 0:
            return
        if used > best_used:
            best = {}
            best_used = used
        key = (*cur_me, *sorted(hits)) if hits else tuple(cur_me)
        if key not in best:
            best[key] = path

    dfs(me, oa, 4, 25, (), ())
    return best


def all_ways(me: list[int], oa: list[int], d1: int, d2: int, target: Key, n_moves: int, block_at: int = 2) -> list[tuple[Step, ...]]:
    """Every ordered sequence of ``n_moves`` single moves (any dice order) that ends on ``target``.

    Used on demand (explanations, matching a half-finished play), never on the generation hot path.
    """
    if d1 == d2:
        dice_orders: list[tuple[int, ...]] = [(d1,) * 4]
    elif n_moves == 1:
        dice_orders = [(d1,), (d2,)]
    else:
        dice_orders = [(d1, d2), (d2, d1)]
    found: list[tuple[Step, ...]] = []
    seen: set[tuple[Step, ...]] = set()

    def dfs(cur_me: list[int], cur_oa: list[int], dice: tuple[int, ...], path: tuple[Step, ...]) -> None:
        if len(path) == n_moves:
            if _key(cur_me, path) == target and path not in seen:
                seen.add(path)
                found.append(path)
            return
        for s in steps(cur_me, cur_oa, dice[len(path)], block_at):
            me2, oa2 = _apply(cur_me, cur_oa, s)
            dfs(me2, oa2, dice, (*path, s))

    for order in dice_orders:
        dfs(me, oa, order, ())
    return found
