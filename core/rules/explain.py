"""Why checkers moved so are no legal play: the one explanation, as a reason code of core.messages.

A play typed in a file (``Position.parse_play``) and the same play seen on the board (the referee,
core.referee.faults) are explained here, from the same thing: where the mover's checkers stood before and
after. The checkers that left a place and arrived somewhere are paired into moves (the board does not
say which went where, so every pairing is tried, and the one that breaks the least serious rule wins)
and each move is checked against the rules in the order a human referee would name them: the bar first
(R07), direction, closed points (R05), bearing off too early (R10), distances (R04), bearing off from
the highest point (R10), and finally dice left unplayed (R09).

Boards are the mover's 26 own-numbered counts (0 = off, 25 = bar) and the opponent's, as in
``Position.own``. The result is ``(reason, params, moves)``: a code of ``core.messages.REASONS``, the
values its sentence needs, and the moves (own numbering) that were judged.

>>> from core.rules.position import Position
>>> reason, params, moves = explain_play(Position.start(), (5, 5), "24/19")
>>> reason, params["point"], moves
('closed_point', 19, ((24, 19),))
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from core.rules.notation import BAR, OFF, Move, Play, check_dice

if TYPE_CHECKING:
    from core.rules.position import Position

Moves = tuple[tuple[int, int], ...]
Explanation = tuple[str, dict[str, Any], Moves]

#: A play that uses fewer dice than a legal play would (R09); the others are illegal outright.
UNPLAYED = ("unplayed_die", "larger_die_required")
# Among the pairings of a board, the least serious reason is the explanation.
_RANK = {"illegal_play": 0, "unplayed_die": 1, "larger_die_required": 1, "bear_off_from_highest": 2,
         "wrong_distance": 3, "closed_point": 4, "bear_off_too_early": 5, "wrong_direction": 6, "bar_first": 7}


class Roll:
    """What the explanation needs of the roll: the dice, how many a legal play uses, an example."""

    __slots__ = ("dice", "max_dice", "example", "side", "block_at", "cross")

    def __init__(self, dice: tuple[int, int], max_dice: int, example: str, side: str, block_at: int,
                 cross: Sequence[int]) -> None:
        self.dice = dice
        self.max_dice = max_dice
        self.example = example
        self.side = side
        self.block_at = block_at
        self.cross = cross  # the mover's point -> the opponent's own number of it

    @classmethod
    def of(cls, pos: Position, dice: tuple[int, int], legal: Any = None) -> Roll:
        """The roll of ``pos``'s side on roll; ``legal``: its legal plays, if the caller has them."""
        legal = pos.legal_plays(dice) if legal is None else legal
        max_dice = len(legal[0].play) if len(legal) else 0
        example = legal[0].play.text() if len(legal) else ""
        return cls(dice, max_dice, example, pos.turn.value, pos.block_at, pos._cross(pos.turn))


def expand(diff: Sequence[int]) -> tuple[list[int], list[int]]:
    """Places that lost checkers and places that gained them, with multiplicity."""
    gone: list[int] = []
    came: list[int] = []
    for i, d in enumerate(diff):
        if d < 0:
            gone += [i] * -d
        elif d > 0:
            came += [i] * d
    return gone, came


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


def check_moves(roll: Roll, me0: Sequence[int], opp0: Sequence[int], moves: list[tuple[int, int]],
                me_after: Sequence[int]) -> Explanation:
    """The first rule these moves (one pairing) break, in a referee's order."""
    cross = roll.cross
    block_at = roll.block_at
    dice = list(roll.dice) * (2 if roll.dice[0] == roll.dice[1] else 1)
    params: dict[str, Any] = {"dice": list(roll.dice), "side": roll.side, "example": roll.example}
    seen = tuple(moves)

    def text(f: int, t: int) -> str:
        return Move(f, t).text()

    if me0[BAR] and me_after[BAR] and any(f != BAR for f, _ in moves):
        return "bar_first", params, seen
    for f, t in moves:
        if t > f or f == OFF:
            return "wrong_direction", {**params, "move": text(f, t)}, seen
    for f, t in moves:
        if t != OFF and opp0[cross[t]] >= block_at:
            return "closed_point", {**params, "point": t, "move": text(f, t)}, seen
    if any(t == OFF for _, t in moves) and any(me_after[i] for i in range(7, 26)):
        f = next(f for f, t in moves if t == OFF)
        return "bear_off_too_early", {**params, "point": f}, seen
    assigned = _assign(moves, dice)
    if assigned is None:
        # Name the move that no die fits; when every move fits alone, the dice were used twice.
        for f, t in moves:
            if not _subsets_for(f - t, t == OFF, dice):
                return "wrong_distance", {**params, "move": text(f, t), "count": f - t}, seen
        return "illegal_play", params, seen
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
                    if pos <= 0 or opp0[cross[pos]] >= block_at:
                        clear = False
                        break
                ok = ok or clear
            if not ok:
                mid = f - parts[0]
                return "closed_point", {**params, "point": mid, "move": text(f, t)}, seen
        if t == OFF and sum(dice[i] for i in combo) > f and any(me0[p] for p in range(f + 1, 7)):
            die = sum(dice[i] for i in combo)
            return "bear_off_from_highest", {**params, "die": die, "point": f}, seen
    larger = max(roll.dice)
    if n_used < roll.max_dice:
        used = sorted((dice[i] for c in combos for i in c), reverse=True)
        unplayed = list(dice)
        for d in used:
            unplayed.remove(d)
        if roll.max_dice == 1 and roll.dice[0] != roll.dice[1]:
            return "larger_die_required", {**params, "die": larger}, seen
        return "unplayed_die", {**params, "unplayed": unplayed[: roll.max_dice - n_used]}, seen
    if roll.max_dice == 1 and roll.dice[0] != roll.dice[1] and n_used == 1:
        if dice[combos[0][0]] < larger:
            return "larger_die_required", {**params, "die": larger}, seen
    return "illegal_play", params, seen


def explain_boards(roll: Roll, me0: Sequence[int], opp0: Sequence[int], me_after: Sequence[int]) -> Explanation:
    """Why the mover's checkers going from ``me0`` to ``me_after`` (the opponent's board ``opp0`` as the turn
    began) are no legal play of ``roll``: the least serious rule that some pairing of the moves breaks."""
    gone, came = expand([b - a for a, b in zip(me0, me_after, strict=True)])
    best: Explanation | None = None
    seen: set[tuple[int, ...]] = set()
    for perm in itertools.permutations(range(len(came))):
        if perm in seen or len(seen) > 720:
            continue
        seen.add(perm)
        moves = sorted(((gone[k], came[j]) for k, j in enumerate(perm)), reverse=True)
        found = check_moves(roll, me0, opp0, moves, me_after)
        if best is None or _RANK.get(found[0], 9) < _RANK.get(best[0], 9):
            best = found
    assert best is not None
    return best


def explain_play(pos: Position, dice: Sequence[int], play: str | Play, legal: Any = None) -> Explanation:
    """Why ``play`` (as written, checked by nobody) is no legal play of ``dice`` from ``pos``: judged, like a
    board, by where it leaves the mover's checkers. Call it for a play the rules refused."""
    roll = Roll.of(pos, check_dice(dice), legal)
    play = play if isinstance(play, Play) else Play.from_text(play)
    me0 = pos.own(pos.turn)
    after = list(me0)
    for mv in play.moves:
        after[mv.frm] -= 1
        after[mv.to] += 1
    return explain_boards(roll, me0, pos.own(pos.turn.other), after)


def play_text(moves: Moves) -> str:
    return Play(tuple(Move(f, t) for f, t in moves)).text()


__all__ = ["UNPLAYED", "Explanation", "Roll", "check_moves", "expand", "explain_boards", "explain_play", "play_text"]
