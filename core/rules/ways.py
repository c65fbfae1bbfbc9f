"""The ways of a play: every ordered sequence of single-die steps that reaches one result of a roll.

One mechanism for backgammon (``core.rules.movegen.all_ways``) and the seeds' variants
(``core.rules.variants.base``). A game gives ``moves(state, die)``: each single-checker step with that die from a
hashable state, and the state after it, in its own order. For each order of the dice the roll's tree is searched
once, level by level, each state kept once with the states one die before it (``parents``); a result's ways are
then walked forward over only the states that lead to it (``leading_to``), so a play's ways cost its own steps
once the search is made, and the plays of one roll can share it (``Searched``; a Russian 6-6 chain has 33,714
results). The ways come in the order of the moves, dice order by dice order, each once.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator
from typing import TypeVar

S = TypeVar("S", bound=Hashable)
Step = tuple[int, int, bool]  # (from, to, hit) in the mover's numbering
Moves = Callable[[S, int], Iterable[tuple[Step, S]]]
#: (state, dice played) -> the states one die before it, over every path of one dice order.
Parents = dict[tuple[S, int], list[S]]
#: The searches behind one roll's ways, per dice order: made by the first play asked and shared by the others.
Searched = dict[tuple[int, ...], Parents[S]]


def parents(start: S, order: tuple[int, ...], moves: Moves[S]) -> Parents[S]:
    """The roll's tree for ``order`` from ``start``: (state, dice played) -> the states one die before it."""
    found: Parents[S] = {}
    level = [start]
    for k, die in enumerate(order, start=1):
        nxt = []
        for state in level:
            for _, after in moves(state, die):
                before = found.get((after, k))
                if before is None:
                    found[(after, k)] = [state]
                    nxt.append(after)
                elif before[-1] != state:
                    before.append(state)
        level = nxt
    return found


def leading_to(found: Parents[S], order: tuple[int, ...], target: S) -> set[tuple[S, int]]:
    """Every (state, dice played) from which ``order``'s remaining dice can reach ``target``: walked back from
    the target over the tree of ``parents``."""
    leading = {(target, len(order))}
    todo = [(target, len(order))]
    while todo:
        state, k = todo.pop()
        for parent in found.get((state, k), ()):
            if (parent, k - 1) not in leading:
                leading.add((parent, k - 1))
                todo.append((parent, k - 1))
    return leading


def _walk(order: tuple[int, ...], leading: set[tuple[S, int]], moves: Moves[S], state: S, k: int,
          path: tuple[Step, ...]) -> Iterator[tuple[Step, ...]]:
    if k == len(order):
        if (state, k) in leading:
            yield path
        return
    for step, after in moves(state, order[k]):
        if (after, k + 1) in leading:
            yield from _walk(order, leading, moves, after, k + 1, (*path, step))


def iter_ways(start: S, orders: Iterable[tuple[int, ...]], moves: Moves[S], target: S,
              searched: Searched[S] | None = None) -> Iterator[tuple[Step, ...]]:
    """Every sequence of steps from ``start`` to ``target`` playing one of ``orders`` (each order's dice in
    turn), order by order, each sequence once. ``searched``: the roll's searches, kept for its other plays."""
    searched = {} if searched is None else searched
    seen: set[tuple[Step, ...]] = set()
    for order in orders:
        if order not in searched:
            searched[order] = parents(start, order, moves)
        for path in _walk(order, leading_to(searched[order], order, target), moves, start, 0, ()):
            if path not in seen:
                seen.add(path)
                yield path
