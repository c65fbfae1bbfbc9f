"""A tournament's draw: the matches each format makes, as pure functions over the tournament's list of matches.

The bookkeeping (core/match/brackets.py ``Tournament``: operations, results, who plays whom, standings) calls
these when a tournament is created, when a late entry changes a round robin, and when a modified Swiss round is
over. A match's slots are *sources* (who fills them): ``("seed", i)`` the i-th slot of the elimination's round 1,
``("player", name)``, ``("winner", mid)`` / ``("loser", mid)`` of another match, ``("reset", mid, side)`` the
double elimination's second final, ``("drop", mid, next_mid)`` a first loss there or in the next round after a bye.
The formats and their sources: docs/tournament-formats.md.

>>> defs: list[MatchDef] = []
>>> round_robin(defs, ["Ana", "Bruno", "Carla"])
>>> [(d.id, d.slots) for d in defs][:2]
[('M1-1', (('player', 'Bruno'), ('player', 'Carla'))), ('M2-1', (('player', 'Carla'), ('player', 'Ana')))]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

PREFIX = {"main": "M", "consolation": "C", "last_chance": "L", "final": "F"}
BYE = "\x00bye"  # a slot nobody fills (never a player's name: names cannot hold control characters)
Source = tuple[Any, ...]


@dataclass
class MatchDef:
    id: str
    round: int
    bracket: str
    slots: tuple[Source, Source]
    order: int


@dataclass
class Resolved:
    """A match as resolved from its sources and the results: who plays, who won."""
    light: str | None = None   # a name, BYE, or None (not known yet)
    dark: str | None = None
    winner: str | None = None  # a name, BYE (nobody), or None (not decided)
    loser: str | None = None
    walkover: bool = False


def who(src: Source, seeds: list[str | None], resolved: Mapping[str, Resolved]) -> str | None:
    """Who fills a slot, from the matches resolved so far (in order): a name, BYE, or None (not known yet)."""
    kind = src[0]
    if kind == "seed":
        p = seeds[src[1]]
        return BYE if p is None else p
    if kind == "player":
        return str(src[1])
    r = resolved[src[1]] if src[1] is not None else None
    if kind == "winner":
        return r.winner if r else None
    if kind == "loser":
        return r.loser if r else None
    if kind == "reset":  # the final's second match: only when the consolation's winner won the first
        if r is None or r.winner is None:
            return None
        if r.winner == r.light or r.winner == BYE:
            return BYE
        return r.light if src[2] == 0 else r.dark
    if kind == "drop":  # a first loss: in this round, or in the next after a bye here
        if r is None:
            return None
        if BYE not in (r.light, r.dark):
            return r.loser
        holder = r.winner
        if holder in (None, BYE):
            return holder
        nxt = resolved.get(src[2]) if src[2] is not None else None
        if nxt is None:
            return BYE
        if nxt.winner is None:
            return None
        return holder if nxt.loser == holder else BYE
    raise ValueError(f"unknown source {src!r}")


def seed_positions(size: int) -> list[int]:
    """Seed numbers (1 = best) in bracket order: 1 meets ``size`` in round 1, 1 and 2 can meet only in the final.

    >>> seed_positions(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    order = [1]
    while len(order) < size:
        m = 2 * len(order) + 1
        order = [x for s in order for x in (s, m - s)]
    return order


def add(defs: list[MatchDef], bracket: str, rnd: int, a: Source, b: Source) -> Source:
    """A match of `bracket`'s round `rnd` between `a` and `b`, appended; its winner as a source."""
    order = sum(1 for d in defs if d.bracket == bracket and d.round == rnd)
    mid = f"{PREFIX.get(bracket, 'M')}{rnd}-{order + 1}" if bracket != "final" else f"F{rnd}"
    defs.append(MatchDef(mid, rnd, bracket, (a, b), order))
    return ("winner", mid)


def elimination(defs: list[MatchDef], fmt: str, players: list[str]) -> list[str | None]:
    """The main bracket of `players` (in seed order) and the format's others; returns round 1's slots (the seeds,
    None for a bye)."""
    size = 2
    while size < len(players):
        size *= 2
    seeds = [players[n - 1] if n <= len(players) else None for n in seed_positions(size)]
    rounds: list[list[str]] = []
    cur: list[Source] = [("seed", i) for i in range(size)]
    rnd = 0
    while len(cur) > 1:
        rnd += 1
        cur = [add(defs, "main", rnd, cur[i], cur[i + 1]) for i in range(0, len(cur), 2)]
        rounds.append([src[1] for src in cur])
    k = len(rounds)
    if fmt == "double_elimination":
        champ = _losers(defs, "consolation", rounds, k)
        f1 = add(defs, "final", 1, ("winner", rounds[-1][0]), champ)
        add(defs, "final", 2, ("reset", f1[1], 0), ("reset", f1[1], 1))
    elif fmt == "progressive":
        _losers(defs, "consolation", rounds, max(1, k - 2))
    else:
        first = [("drop", rounds[0][i], rounds[1][i // 2] if k > 1 else None) for i in range(len(rounds[0]))]
        cons = _single(defs, "consolation", first)
        if fmt == "last_chance" and cons:
            again = [("drop", cons[0][i], cons[1][i // 2] if len(cons) > 1 else None) for i in range(len(cons[0]))]
            _single(defs, "last_chance", again)
    return seeds


def _single(defs: list[MatchDef], bracket: str, entrants: list[Source]) -> list[list[str]]:
    rounds: list[list[str]] = []
    rnd = 0
    cur = entrants
    while len(cur) > 1:
        rnd += 1
        cur = [add(defs, bracket, rnd, cur[i], cur[i + 1]) for i in range(0, len(cur), 2)]
        rounds.append([src[1] for src in cur])
    return rounds


def _losers(defs: list[MatchDef], bracket: str, main: list[list[str]], drops: int) -> Source:
    """A losers' bracket: main round 1's losers paired, then each later dropping round's losers met by the
    bracket's survivors (in reverse order every other round, so two players do not meet again at once)."""
    rnd = 1
    cur = [add(defs, bracket, rnd, ("loser", main[0][i]), ("loser", main[0][i + 1]))
           for i in range(0, len(main[0]) - 1, 2)] if len(main[0]) > 1 else [("loser", main[0][0])]
    for j in range(1, drops):
        new = [("loser", mid) for mid in main[j]]
        if j % 2:
            new.reverse()
        while len(cur) > len(new):
            rnd += 1
            cur = [add(defs, bracket, rnd, cur[i], cur[i + 1]) for i in range(0, len(cur), 2)]
        rnd += 1
        cur = [add(defs, bracket, rnd, cur[i], new[i]) for i in range(len(cur))]
    while len(cur) > 1:
        rnd += 1
        cur = [add(defs, bracket, rnd, cur[i], cur[i + 1]) for i in range(0, len(cur), 2)]
    return cur[0]


def round_robin(defs: list[MatchDef], players: list[str]) -> None:
    """Everyone against everyone, by the circle method (a bye each round for an odd number)."""
    people: list[str | None] = list(players)
    if len(people) % 2:
        people.append(None)
    n = len(people)
    for rnd in range(1, n):
        for i in range(n // 2):
            a, b = people[i], people[n - 1 - i]
            if a is None or b is None:
                continue
            if rnd % 2 == 0 and i == 0:
                a, b = b, a  # the fixed player changes colour every other round
            add(defs, "main", rnd, ("player", a), ("player", b))
        people = [people[0], people[-1], *people[1:-1]]


def swiss_round(active: list[str], records: Mapping[str, tuple[int, int]], draw: Mapping[str, int],
                byes: Mapping[str, int], met: set[frozenset[str]]) -> tuple[str | None, list[tuple[str, str]]]:
    """A modified Swiss round of the `active` players ((wins, losses) in `records`, `draw` their draw order):
    the bye (or None) to the worst record among those who have had the fewest `byes`; the others paired with the
    same record where they can, no rematch (`met`) where they can."""
    active = sorted(active, key=lambda p: (records[p][1], -records[p][0], draw[p]))
    bye = None
    if len(active) % 2:
        fewest = min(byes.get(p, 0) for p in active)
        bye = max((p for p in active if byes.get(p, 0) == fewest), key=lambda p: (records[p][1], -records[p][0], draw[p]))
        active.remove(bye)
    pairs = _pair_without_rematch(active, met) or [(active[i], active[i + 1]) for i in range(0, len(active), 2)]
    return bye, pairs


def _pair_without_rematch(players: list[str], met: set[frozenset[str]], budget: int = 20_000) -> \
        list[tuple[str, str]] | None:
    """Pairs in order (each player with the nearest in the list they have not met); None when there is none
    within the search's budget."""
    steps = [0]

    def go(rest: list[str]) -> list[tuple[str, str]] | None:
        if not rest:
            return []
        steps[0] += 1
        if steps[0] > budget:
            return None
        first = rest[0]
        for i in range(1, len(rest)):
            if frozenset((first, rest[i])) in met:
                continue
            tail = go(rest[1:i] + rest[i + 1:])
            if tail is not None:
                return [(first, rest[i]), *tail]
        return None

    return go(players)
