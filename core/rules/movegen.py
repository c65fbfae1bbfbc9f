"""Legal-play generation (R04-R10, R25) on the mover's own numbering.

Boards here are lists of 26 counts in the mover's own numbering: index 0 = borne off, 1..24 = the mover's
points (1..6 home), 25 = the bar. The opponent is seen through ``oa`` ("opponent at"): ``oa[i]`` is the
number of opposing checkers on the mover's point ``i``. A hit only empties ``oa[i]``; which points were hit
is enough to rebuild the opponent's board afterwards, so a result is keyed by the mover's 26 counts
followed by the hit points. Routes and the cross table (mover's point -> opponent's own point) live in
``core.rules.position``; nothing here knows where points are physically.

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


def apply_step(me: list[int], oa: list[int], step: Step) -> tuple[list[int], list[int]]:
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
    """Map each distinct result key to one representative sequence of steps.

    Keys identify results within one call only (two kinds are used); callers rebuild boards from the steps.
    """
    if d1 == d2:
        return _generate_doubles(me, oa, d1, block_at)
    if not me[25] and sum(me[7:25]) >= 2:
        return _generate_contact(me, oa, d1, d2, block_at)
    results: Found = {}
    singles: dict[int, Found] = {d1: {}, d2: {}}
    for a, b in ((d1, d2), (d2, d1)):
        single = singles[a]
        for s1 in steps(me, oa, a, block_at):
            me1, oa1 = apply_step(me, oa, s1)
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


def _generate_contact(me: list[int], oa: list[int], d1: int, d2: int, block_at: int) -> Found:
    """Non-doubles with nothing on the bar and two or more checkers outside home (no bear-off possible
    during the turn): the order of two different checkers never matters, so plays are pairs of single
    moves from the original board, plus one checker using both dice. A result is keyed by what leaves and
    what arrives (after a chain's middle point cancels) and the points hit."""
    first = steps(me, oa, d1, block_at)
    second = steps(me, oa, d2, block_at)
    results: Found = {}
    # Key: (left, left, arrived, arrived, hit mask); a chain's middle point cancels, leaving zeros (no
    # real point is 0 here since nothing bears off).
    for s1 in first:
        f1, t1, h1 = s1
        for s2 in second:
            f2, t2, h2 = s2
            if f1 == f2 and me[f1] < 2:
                continue
            mask = (h1 << t1) | (h2 << t2)
            if t1 == f2:
                key = (f1, 0, t2, 0, mask)
            elif t2 == f1:
                key = (f2, 0, t1, 0, mask)
            elif f1 >= f2:
                key = (f1, f2, t1, t2, mask) if t1 >= t2 else (f1, f2, t2, t1, mask)
            else:
                key = (f2, f1, t1, t2, mask) if t1 >= t2 else (f2, f1, t2, t1, mask)
            if key not in results:
                # Both dice landing on one blot: the first hits it, the second just joins.
                results[key] = (s1, (f2, t2, False)) if (h1 and h2 and t1 == t2) else (s1, s2)
    # One checker using both dice through an empty intermediate point (R04); through a point of our own
    # the pairs above already hold it.
    for a_steps, b in ((first, d2), (second, d1)):
        for s1 in a_steps:
            f1, t1, h1 = s1
            t2 = t1 - b
            if t2 >= 1 and not me[t1] and oa[t2] < block_at:
                h2 = oa[t2] == 1
                key = (f1, 0, t2, 0, (h1 << t1) | (h2 << t2))
                if key not in results:
                    results[key] = (s1, (t1, t2, h2))
    if results:
        return results
    # R09: at most one die can be played; the larger if it can.
    hi_steps, lo_steps = (first, second) if d1 > d2 else (second, first)
    return {(s[0], 0, s[1], 0, s[2] << s[1]): (s,) for s in (hi_steps or lo_steps)}


def _doubles_contact(me: list[int], oa: list[int], d: int, block_at: int) -> Found:
    """Doubles with nothing on the bar and four or more checkers outside home (no bear-off this turn).

    Which points can be landed on cannot change during the turn (a hit only empties a point), and two
    different multisets of starting points always leave different boards, so taking starting points in
    non-increasing order meets each result exactly once: the tuple of starting points is its own key.
    The four levels are written out as loops because this is the generator's hottest path.
    """
    src = [i for i in range(24, d, -1) if oa[i - d] < block_at]
    n = len(src)
    tails = [src[k:] for k in range(n)]
    c = me.copy()
    levels: list[list[tuple[int, ...]]] = [[], [], [], []]
    l1, l2, l3, l4 = levels
    for a in range(n):
        i = src[a]
        if not c[i]:
            continue
        c[i] -= 1
        c[i - d] += 1
        more1 = False
        for b in range(a, n):
            j = src[b]
            if not c[j]:
                continue
            more1 = True
            c[j] -= 1
            c[j - d] += 1
            more2 = False
            for k3 in range(b, n):
                k = src[k3]
                if not c[k]:
                    continue
                more2 = True
                c[k] -= 1
                c[k - d] += 1
                fourth = [(i, j, k, m) for m in tails[k3] if c[m]]
                if fourth:
                    l4 += fourth
                elif not l4:
                    l3.append((i, j, k))
                c[k] += 1
                c[k - d] -= 1
            if not more2 and not l3 and not l4:
                l2.append((i, j))
            c[j] += 1
            c[j - d] -= 1
        if not more1 and not l2 and not l3 and not l4:
            l1.append((i,))
        c[i] += 1
        c[i - d] -= 1
    leaves = l4 or l3 or l2 or l1
    hit = {i: (i, i - d, oa[i - d] == 1) for i in src}
    joins = {i: (i, i - d, False) for i in src}  # a second checker landing where the first just hit
    found: Found = {}
    for leaf in leaves:
        prev = 0
        steps_ = []
        for i in leaf:
            steps_.append(joins[i] if i == prev else hit[i])
            prev = i
        found[leaf] = tuple(steps_)
    return found


def _generate_doubles(me: list[int], oa: list[int], d: int, block_at: int) -> Found:
    if not me[25] and sum(me[7:25]) >= 4:
        return _doubles_contact(me, oa, d, block_at)
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
                    me2, oa2 = apply_step(cur_me, cur_oa, s)
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


def result_of(me: Sequence[int], path: Sequence[Step]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The mover's counts after a sequence of steps, and the points hit (ascending)."""
    after = list(me)
    for frm, to, _ in path:
        after[frm] -= 1
        after[to] += 1
    return tuple(after), tuple(sorted(t for _, t, h in path if h))


def all_ways(
    me: list[int], oa: list[int], d1: int, d2: int, target: tuple[tuple[int, ...], tuple[int, ...]], n_moves: int,
    block_at: int = 2,
) -> list[tuple[Step, ...]]:
    """Every ordered sequence of ``n_moves`` single moves (any dice order) that ends on ``target``
    (the mover's counts and the points hit, as ``result_of`` gives them).

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
            if (tuple(cur_me), tuple(sorted(t for _, t, h in path if h))) == target and path not in seen:
                seen.add(path)
                found.append(path)
            return
        for s in steps(cur_me, cur_oa, dice[len(path)], block_at):
            me2, oa2 = apply_step(cur_me, cur_oa, s)
            dfs(me2, oa2, dice, (*path, s))

    for order in dice_orders:
        dfs(me, oa, order, ())
    return found
