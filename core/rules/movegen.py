"""Legal-play generation (R04-R10, R25) on the mover's own numbering.

Boards here are lists of 26 counts in the mover's own numbering: index 0 = borne off, 1..24 = the mover's
points (1..6 home), 25 = the bar. The opponent is seen through ``oa`` ("opponent at"): ``oa[i]`` is the
number of opposing checkers on the mover's point ``i``. A hit only empties ``oa[i]``; which points were hit
is enough to rebuild the opponent's board afterwards, so a result is the mover's 26 counts and the points
hit. Routes and the cross table (mover's point -> opponent's own point) live in ``core.rules.position``;
nothing here knows where points are physically.

``plays`` keeps only plays that use the most dice and, among one-die plays, the larger die (R09), exactly
as GNU Backgammon's ``GenerateMoves`` does, with one representative sequence of steps per distinct
resulting position. It is the hot path (the referee, the replay and the coach call it for every roll), so
each kind of turn has its own routine that knows which of its sequences can meet the same result and
compares only those, instead of keying every sequence by its whole resulting board. The order of the
plays is part of the behaviour (``gamao plays`` prints it; the first play is the example in messages):
sequences come in the order of a depth-first walk that plays the first die first, sources highest first.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress, repeat
from typing import TypeVar

from core.rules import ways

Step = tuple[int, int, bool]  # (from, to, hit) in the mover's numbering
Steps = tuple[Step, ...]
Key = tuple[int, ...]  # the mover's 26 counts, then the points hit (ascending)
Found = dict[Key, Steps]
Key2 = tuple[tuple[int, ...], tuple[int, ...]]  # the mover's counts, the points hit (ascending)
T = TypeVar("T")
_DOWN_FROM_24 = range(24, 0, -1)
# Every plain step, made once: _STEPS[die][from][hit] is (from, from - die, hit).
_STEPS = [[((i, i - d, False), (i, i - d, True)) for i in range(26)] for d in range(7)]


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
    top = min(max_from, 24)
    by_die = _STEPS[die]
    out = [by_die[i][o == 1] for i in compress(range(top, die, -1), me[top:die:-1]) if (o := oa[i - die]) < block_at]
    if not any(me[7:25]):
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


def result_of(me: Sequence[int], path: Sequence[Step]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The mover's counts after a sequence of steps, and the points hit (ascending)."""
    after = list(me)
    for frm, to, _ in path:
        after[frm] -= 1
        after[to] += 1
    return tuple(after), tuple(sorted(t for _, t, h in path if h))


def generate(me: list[int], oa: list[int], d1: int, d2: int, block_at: int = 2) -> Found:
    """Map each distinct result (``result_of``'s counts followed by the points hit) to its sequence of steps."""
    found: Found = {}
    for path in plays(me, oa, d1, d2, block_at):
        after, hits = result_of(me, path)
        found[(*after, *hits)] = path
    return found


def plays(me: list[int], oa: list[int], d1: int, d2: int, block_at: int = 2) -> list[Steps]:
    """One representative sequence of steps per distinct legal result, in generation order."""
    if d1 == d2:
        if me[25]:
            return _doubles_from_bar(me, oa, d1, block_at)
        if sum(me[7:25]) >= 4:
            return _doubles_contact(me, oa, d1, block_at)
        return _doubles_walk(me, oa, d1, block_at, 4, 25, ())
    if me[25]:
        return _from_bar(me, oa, d1, d2, block_at)
    if sum(me[7:25]) >= 2:
        return _contact(me, oa, d1, d2, block_at)
    return _race(me, oa, d1, d2, block_at)


def _larger_first(d1: int, d2: int, one: list[T], two: list[T]) -> list[T]:
    """R09: when only one die can be played, the larger one if it can (``one``/``two``: plays of d1/d2)."""
    hi, lo = (one, two) if d1 > d2 else (two, one)
    return hi or lo


def _from_bar(me: list[int], oa: list[int], d1: int, d2: int, block_at: int) -> list[Steps]:
    """Non-doubles with a checker on the bar (R07). The entered checker stands outside home (on 19..24), so
    nothing bears off this turn; the only two sequences that can meet are the entered checker using both
    dice in either order (they differ only by what they hit on the way)."""
    e1, e2 = 25 - d1, 25 - d2
    o1, o2 = oa[e1], oa[e2]
    enter1 = (25, e1, o1 == 1) if o1 < block_at else None
    enter2 = (25, e2, o2 == 1) if o2 < block_at else None
    if me[25] >= 2:
        if enter1 and enter2:
            return [(enter1, enter2)]
        return [(enter1,)] if enter1 else [(enter2,)] if enter2 else []
    out: list[Steps] = []
    chains: set[tuple[int, int]] = set()
    for s1, b in ((enter1, d2), (enter2, d1)):
        if s1 is None:
            continue
        ea = s1[1]
        # The second die: any checker (the entered one too) onto a point that is not closed; the entry point
        # itself holds no opposing checker any more.
        for i in range(24, b, -1):
            if me[i] or i == ea:
                t = i - b
                o = oa[t]
                if o < block_at:
                    if i == ea:
                        hits = (ea if s1[2] else 0, t if o == 1 else 0)
                        if hits in chains:
                            continue
                        chains.add(hits)
                    out.append((s1, (i, t, o == 1 and t != ea)))
    if out:
        return out
    return _larger_first(d1, d2, [(enter1,)] if enter1 else [], [(enter2,)] if enter2 else [])


def _contact(me: list[int], oa: list[int], d1: int, d2: int, block_at: int) -> list[Steps]:
    """Non-doubles with nothing on the bar and two or more checkers outside home (no bear-off possible
    during the turn): plays are pairs of single moves from the original board, plus one checker using both
    dice. Two pairs of moves of different checkers never leave the same board; only one checker using both
    dice (a chain) can be met twice, through either intermediate point, so only chains are compared, by
    (start, end, points hit)."""
    occupied = list(compress(_DOWN_FROM_24, me[24:0:-1]))
    by1, by2 = _STEPS[d1], _STEPS[d2]
    first = [by1[i][o == 1] for i in occupied if i > d1 and (o := oa[i - d1]) < block_at]
    second = [by2[i][o == 1] for i in occupied if i > d2 and (o := oa[i - d2]) < block_at]
    # Where each second-die move sits in ``second``, by its starting point (up to 24 + 6), or -1.
    at2 = [-1] * 31
    for k, s2 in enumerate(second):
        at2[s2[0]] = k
    # Most pairs are two checkers each using one die: all different results. The few exceptions sit where
    # a second-die move starts where the first-die move starts or ends, or ends where it starts or ends.
    out: list[Steps | None] = [(s1, s2) for s1 in first for s2 in second]
    n2 = len(second)
    row = -n2
    drop = False
    chains: set[tuple[int, int, int]] = set()
    for f1, t1, h1 in first:
        row += n2
        k = at2[f1]
        if k >= 0 and me[f1] < 2:
            out[row + k] = None  # the one checker on f1 cannot leave twice
            drop = True
        k = at2[t1]
        if k >= 0:  # this checker (or one already on t1) goes on: a chain f1 -> t1 -> t2
            _, t2, h2 = second[k]
            key = (f1, t2, (h1 << t1) | (h2 << t2))
            if key in chains:
                out[row + k] = None
                drop = True
            else:
                chains.add(key)
        k = at2[f1 + d2]
        if k >= 0:  # the second die lands on f1: a chain f2 -> f1 -> t1 the other way round
            f2, _, h2 = second[k]
            key = (f2, t1, (h1 << t1) | (h2 << f1))
            if key in chains:
                out[row + k] = None
                drop = True
            else:
                chains.add(key)
        if h1:
            k = at2[t1 + d2]
            if k >= 0:  # both dice landing on one blot: the first hits it
                out[row + k] = ((f1, t1, h1), (t1 + d2, t1, False))
    if drop:
        out = list(filter(None, out))
    # One checker using both dice through an empty intermediate point (R04); through a point of our own
    # the pairs above already hold it.
    for a_steps, b in ((first, d2), (second, d1)):
        by_b = _STEPS[b]
        for s1 in a_steps:
            t1 = s1[1]
            if t1 > b and not me[t1] and (o := oa[t1 - b]) < block_at:
                s2 = by_b[t1][o == 1]
                key = (s1[0], t1 - b, (s1[2] << t1) | (s2[2] << t1 - b))
                if key not in chains:
                    chains.add(key)
                    out.append((s1, s2))
    if out:
        return out  # type: ignore[return-value]
    # R09: at most one die can be played; the larger if it can.
    return [(s,) for s in _larger_first(d1, d2, first, second)]


def _race(me: list[int], oa: list[int], d1: int, d2: int, block_at: int) -> list[Steps]:
    """Non-doubles with nothing on the bar and at most one checker outside home: bearing off may start
    during the turn, so every pair of steps is played out and results are compared whole."""
    out: list[Steps] = []
    seen: set[Key] = set()
    singles: dict[int, list[Steps]] = {d1: [], d2: []}
    for a, b in ((d1, d2), (d2, d1)):
        for s1 in steps(me, oa, a, block_at):
            me1, oa1 = apply_step(me, oa, s1)
            seconds = steps(me1, oa1, b, block_at)
            if seconds:
                for s2 in seconds:
                    frm, to, hit = s2
                    me2 = me1.copy()
                    me2[frm] -= 1
                    me2[to] += 1
                    if hit or s1[2]:
                        me2.extend(sorted(t for _, t, h in (s1, s2) if h))
                    key = tuple(me2)
                    if key not in seen:
                        seen.add(key)
                        out.append((s1, s2))
            elif not out:
                # Different single steps never leave the same board.
                singles[a].append((s1,))
    return out or _larger_first(d1, d2, singles[d1], singles[d2])


def _sources(me: Sequence[int], oa: Sequence[int], d: int, block_at: int, max_from: int) -> list[int]:
    """Doubles: the points (highest first, none above ``max_from``) a checker may leave during the turn by a
    plain move of ``d``: where one stands or can arrive, with the landing point not closed."""
    src = []
    arrives = [False] * 25
    for i in range(min(max_from, 24), d, -1):
        if (me[i] or arrives[i]) and oa[i - d] < block_at:
            src.append(i)
            arrives[i - d] = True
    return src


def _doubles_from_bar(me: list[int], oa: list[int], d: int, block_at: int) -> list[Steps]:
    """R07 with doubles: up to four checkers enter on the one entry point, the dice left move the rest."""
    entry = 25 - d
    o = oa[entry]
    if o >= block_at:
        return []  # R25: dance
    n = min(me[25], 4)
    entered: Steps = ((25, entry, o == 1), *repeat((25, entry, False), n - 1))
    if n == 4:
        return [entered]
    board = me.copy()
    board[25] = 0
    board[entry] += n
    if o == 1:
        oa = oa.copy()
        oa[entry] = 0
    # An entered checker stands on 19..24 and needs all the dice left to reach home: no bearing off.
    return _doubles_walk(board, oa, d, block_at, 4 - n, 25, entered)


def _doubles_walk(
    me: list[int], oa: list[int], d: int, block_at: int, left: int, max_from: int, prefix: Steps
) -> list[Steps]:
    """Doubles (R08) in general (bearing off may start during the turn), nothing on the bar: the plays of
    ``left`` more moves after ``prefix`` that use the most dice.

    Moves are explored with non-increasing source points, which reaches every multiset of moves that some
    order can play, once; the board after a multiset of sources fixes the multiset (read the board from the
    top point down), so no two leaves meet and none is compared.
    """
    c = me.copy()
    src = _sources(me, oa, d, block_at, max_from)
    by_d = _STEPS[d]
    step = {i: by_d[i][oa[i - d] == 1] for i in src}
    join = {i: by_d[i][0] for i in src}  # a second checker landing where the first just hit
    n_src = len(src)
    outside = sum(c[7:25])
    best: list[Steps] = []
    best_used = 0

    tails = [src[k:] for k in range(n_src + 1)]

    def bear_off(prev: int) -> int:
        """R10: the point a checker bears off from (the die's, or the highest when the die is larger), or 0."""
        if c[d]:
            return d if d <= prev else 0
        i = d - 1
        while i and not c[i]:
            i -= 1
        return 0 if i and (i > prev or any(c[i + 1 : 7])) else i

    def walk(start: int, left: int, prev: int, path: Steps) -> None:
        nonlocal outside, best, best_used
        if left == 1:
            # The last die: every way to play it ends a play, listed at once.
            ends = [(*path, join[i] if i == prev else step[i]) for i in tails[start] if c[i]]
            if not outside:
                i = bear_off(prev)
                if i:
                    ends.append((*path, (i, 0, False)))
            if ends:
                used = len(path) + 1
                if used > best_used:
                    best = ends
                    best_used = used
                elif used == best_used:
                    best += ends
                return
        elif left:
            moved = False
            for a in range(start, n_src):
                i = src[a]
                if c[i]:
                    moved = True
                    t = i - d
                    c[i] -= 1
                    c[t] += 1
                    home = i > 6 >= t
                    if home:
                        outside -= 1
                    walk(a, left - 1, i, (*path, join[i] if i == prev else step[i]))
                    if home:
                        outside += 1
                    c[i] += 1
                    c[t] -= 1
            if not outside:
                i = bear_off(prev)
                if i:
                    moved = True
                    c[i] -= 1
                    c[0] += 1
                    walk(n_src, left - 1, i, (*path, (i, 0, False)))
                    c[i] += 1
                    c[0] -= 1
            if moved:
                return
        used = len(path)
        if used > best_used:
            best = [path]
            best_used = used
        elif used == best_used and used:
            best.append(path)

    walk(0, left, max_from, prefix)
    return best


def _doubles_contact(me: list[int], oa: list[int], d: int, block_at: int) -> list[Steps]:
    """Doubles with nothing on the bar and four or more checkers outside home (no bear-off this turn).

    Which points can be landed on cannot change during the turn (a hit only empties a point), and two
    different multisets of starting points always leave different boards, so taking starting points in
    non-increasing order meets each result exactly once. The four levels are written out as loops because
    this is the generator's hottest path.
    """
    src = _sources(me, oa, d, block_at, 24)
    n = len(src)
    tails = [src[k:] for k in range(n + 1)]
    by_d = _STEPS[d]
    st = {i: by_d[i][oa[i - d] == 1] for i in src}
    jn = {i: by_d[i][0] for i in src}  # a second checker landing where the first just hit
    c = me.copy()
    l1: list[Steps] = []
    l2: list[Steps] = []
    l3: list[Steps] = []
    l4: list[Steps] = []
    for a in range(n):
        i = src[a]
        if not c[i]:
            continue
        c[i] -= 1
        c[i - d] += 1
        si = st[i]
        more1 = False
        for b in range(a, n):
            j = src[b]
            if not c[j]:
                continue
            more1 = True
            c[j] -= 1
            c[j - d] += 1
            sj = jn[j] if j == i else st[j]
            more2 = False
            for k3 in range(b, n):
                k = src[k3]
                ck = c[k]
                if not ck:
                    continue
                more2 = True
                sk = jn[k] if k == j else st[k]
                # The fourth move, after k's: from k again if a checker is left there, from where k's
                # checker arrived (kd), or from any other occupied point (counts read as before k moved).
                kd = k - d
                fourth = [(si, sj, sk, st[m]) for m in tails[k3 if ck > 1 else k3 + 1] if c[m] or m == kd]
                if fourth:
                    if ck > 1 and st[k][2]:
                        fourth[0] = (si, sj, sk, jn[k])  # the first tail is k itself: joins its own hit
                    l4 += fourth
                elif not l4:
                    l3.append((si, sj, sk))
            if not more2 and not l3 and not l4:
                l2.append((si, sj))
            c[j] += 1
            c[j - d] -= 1
        if not more1 and not l2 and not l3 and not l4:
            l1.append((si,))
        c[i] += 1
        c[i - d] -= 1
    return l4 or l3 or l2 or l1


def all_ways(
    me: list[int], oa: list[int], d1: int, d2: int, target: tuple[tuple[int, ...], tuple[int, ...]], n_moves: int,
    block_at: int = 2, searched: ways.Searched[Key2] | None = None,
) -> list[tuple[Step, ...]]:
    """Every ordered sequence of ``n_moves`` single moves (any dice order) that ends on ``target``
    (the mover's counts and the points hit, as ``result_of`` gives them).

    Used on demand (explanations, matching a half-finished play), never on the generation hot path. The ways
    are core.rules.ways' (the variants' mechanism too) on states (the mover's counts, the points hit so far):
    the opponent's board of a state is ``oa`` with those points emptied. ``searched``: the roll's searches,
    shared by the plays of one roll (LegalPlays).
    """
    if d1 == d2:
        dice_orders: list[tuple[int, ...]] = [(d1,) * 4]
    elif n_moves == 1:
        dice_orders = [(d1,), (d2,)]
    else:
        dice_orders = [(d1, d2), (d2, d1)]
    boards: dict[tuple[int, ...], list[int]] = {(): oa}  # the opponent's board after these points were hit

    def moves(state: Key2, die: int) -> list[tuple[Step, Key2]]:
        cur_me, hits = state
        cur_oa = boards[hits]
        out = []
        for s in steps(cur_me, cur_oa, die, block_at):
            frm, to, hit = s
            me2 = list(cur_me)
            me2[frm] -= 1
            me2[to] += 1
            if hit:
                hits2 = tuple(sorted((*hits, to)))
                if hits2 not in boards:
                    oa2 = boards[hits2] = cur_oa.copy()
                    oa2[to] = 0
                out.append((s, (tuple(me2), hits2)))
            else:
                out.append((s, (tuple(me2), hits)))
        return out

    orders = [order[:n_moves] for order in dice_orders]
    return list(ways.iter_ways((tuple(me), ()), orders, moves, target, searched))
