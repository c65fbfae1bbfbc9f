"""Legal-play generation (R04-R10, R25) on the mover's own numbering.

Boards here are lists of 26 counts in one side's own numbering: index 0 = borne off, 1..24 = the side's
points (1..6 home), 25 = the bar. ``cross[i]`` is the opponent's own number for the mover's point ``i``
(25 - i in the standard game; other routes give other tables), so the generator never needs to know
where the points are physically.

The result of ``generate`` is one entry per distinct resulting position (mover and opponent boards),
keeping only plays that use the most dice and, among one-die plays, the larger die (R09), exactly as
GNU Backgammon's ``GenerateMoves`` does.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

Step = tuple[int, int, bool]  # (from, to, hit) in the mover's numbering
Board = list[int]
Key = tuple[int, ...]


def steps(me: Sequence[int], opp: Sequence[int], die: int, cross: Sequence[int], block_at: int = 2) -> Iterator[Step]:
    """Every legal single-checker move with one die (R04-R07, R10)."""
    if me[25]:
        # R07: a checker on the bar enters before anything else moves.
        to = 25 - die
        o = opp[cross[to]]
        if o < block_at:
            yield (25, to, o == 1)
        return
    home = True
    highest = 0
    for i in range(24, 0, -1):
        if me[i]:
            if i > 6:
                home = False
            if not highest:
                highest = i
            to = i - die
            if to > 0:
                o = opp[cross[to]]
                if o < block_at:
                    yield (i, to, o == 1)
    if home and highest:
        # R10: bear off from the die's point, or from the highest point when the die is larger.
        if me[die]:
            yield (die, 0, False)
        elif die > highest:
            yield (highest, 0, False)


def apply_step(me: Board, opp: Board, step: Step, cross: Sequence[int]) -> tuple[Board, Board]:
    frm, to, hit = step
    me2 = me.copy()
    me2[frm] -= 1
    me2[to] += 1
    if hit:
        opp2 = opp.copy()
        j = cross[to]
        opp2[j] -= 1
        opp2[25] += 1
        return me2, opp2
    return me2, opp


def generate(
    me: Board, opp: Board, d1: int, d2: int, cross: Sequence[int], block_at: int = 2
) -> dict[Key, tuple[Board, Board, tuple[Step, ...]]]:
    """Map each distinct result (mover board + opponent board as one tuple) to (me, opp, representative steps)."""
    if d1 == d2:
        return _generate_doubles(me, opp, d1, cross, block_at)
    results: dict[Key, tuple[Board, Board, tuple[Step, ...]]] = {}
    singles: dict[int, dict[Key, tuple[Board, Board, tuple[Step, ...]]]] = {d1: {}, d2: {}}
    for a, b in ((d1, d2), (d2, d1)):
        single = singles[a]
        for s1 in steps(me, opp, a, cross, block_at):
            me1, opp1 = apply_step(me, opp, s1, cross)
            played_both = False
            for s2 in steps(me1, opp1, b, cross, block_at):
                played_both = True
                me2, opp2 = apply_step(me1, opp1, s2, cross)
                key = (*me2, *opp2)
                if key not in results:
                    results[key] = (me2, opp2, (s1, s2))
            if not played_both and not results:
                key = (*me1, *opp1)
                if key not in single:
                    single[key] = (me1, opp1, (s1,))
    if results:
        return results
    # R09: only one die can be played: the larger one if it can, otherwise the smaller.
    hi, lo = max(d1, d2), min(d1, d2)
    if singles[hi]:
        return singles[hi]
    if singles[lo]:
        return singles[lo]
    # One die may be playable only in a way that blocks the other; those were recorded above unless
    # the other die was playable after it, in which case a two-dice play exists. Nothing to play: R25.
    return {}


def _generate_doubles(
    me: Board, opp: Board, d: int, cross: Sequence[int], block_at: int
) -> dict[Key, tuple[Board, Board, tuple[Step, ...]]]:
    # R08: four moves of the same number. Moves are explored with non-increasing source points, which
    # reaches every multiset of moves that some order can play, once.
    best: dict[Key, tuple[Board, Board, tuple[Step, ...]]] = {}
    best_used = 0

    def dfs(cur_me: Board, cur_opp: Board, left: int, max_from: int, path: tuple[Step, ...]) -> None:
        nonlocal best, best_used
        extended = False
        if left:
            for s in steps(cur_me, cur_opp, d, cross, block_at):
                if s[0] > max_from:
                    continue
                extended = True
                me2, opp2 = apply_step(cur_me, cur_opp, s, cross)
                dfs(me2, opp2, left - 1, s[0], (*path, s))
        if extended:
            return
        used = len(path)
        if used < best_used or used == 0:
            return
        if used > best_used:
            best = {}
            best_used = used
        key = (*cur_me, *cur_opp)
        if key not in best:
            best[key] = (cur_me, cur_opp, path)

    dfs(me, opp, 4, 25, ())
    return best


def all_ways(
    me: Board, opp: Board, d1: int, d2: int, cross: Sequence[int], target: Key, n_moves: int, block_at: int = 2
) -> list[tuple[Step, ...]]:
    """Every ordered sequence of ``n_moves`` single moves (any dice order) that ends on ``target``.

    Used on demand (explanations, matching a half-finished play), never on the generation hot path.
    """
    dice_orders = [(d1,) * 4] if d1 == d2 else [(d1, d2), (d2, d1)]
    if d1 != d2 and n_moves == 1:
        dice_orders = [(d1,), (d2,)]
    found: list[tuple[Step, ...]] = []
    seen: set[tuple[Step, ...]] = set()

    def dfs(cur_me: Board, cur_opp: Board, dice: tuple[int, ...], path: tuple[Step, ...]) -> None:
        if len(path) == n_moves:
            if (*cur_me, *cur_opp) == target and path not in seen:
                seen.add(path)
                found.append(path)
            return
        for s in steps(cur_me, cur_opp, dice[len(path)], cross, block_at):
            me2, opp2 = apply_step(cur_me, cur_opp, s, cross)
            dfs(me2, opp2, dice, (*path, s))

    for order in dice_orders:
        dfs(me, opp, order, ())
    return found
