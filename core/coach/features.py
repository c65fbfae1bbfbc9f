"""What a teacher looks at in a position, for one side, counted from the position itself.

Points are in that side's own numbering (the notation's: 1-6 its home board, 19-24 the opponent's, 25 the
bar). Shots at a blot are counted over the 36 rolls by generating the opponent's legal plays (R04-R10),
so closed points, the bar and the dice's order are all taken into account.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from core.rules.notation import BAR, OFF
from core.rules.position import Position, Side

ROLLS: tuple[tuple[tuple[int, int], int], ...] = tuple(
    ((d1, d2), 1 if d1 == d2 else 2) for d1 in range(1, 7) for d2 in range(d1, 7)
)


def made_points(counts: tuple[int, ...]) -> set[int]:
    return {p for p in range(1, 25) if counts[p] >= 2}


def longest_run(points: set[int]) -> tuple[int, ...]:
    """The longest run of consecutive points (highest first); the farthest run wins a tie."""
    best: tuple[int, ...] = ()
    for p in sorted(points, reverse=True):
        if p + 1 in points:
            continue  # not the start of a run
        run = [p]
        while run[-1] - 1 in points:
            run.append(run[-1] - 1)
        if len(run) > len(best):
            best = tuple(run)
    return best


def in_contact(pos: Position, side: Side) -> bool:
    """Whether a checker of ``side`` still has an opposing checker ahead of it (else the game is a race)."""
    me, opp = pos.own(side), pos.own(side.other)
    rearmost = max((p for p in range(1, 26) if me[p]), default=0)
    # The opponent's own point q is this side's point 25 - q; its bar (25) is this side's 0.
    foremost_opp = min((25 - q for q in range(1, 26) if opp[q]), default=25)
    return rearmost > foremost_opp


@dataclass(frozen=True)
class Features:
    """One side's view of a position (usually the mover's, just after its play)."""

    pos: Position
    side: Side

    @cached_property
    def me(self) -> tuple[int, ...]:
        return self.pos.own(self.side)

    @cached_property
    def opp(self) -> tuple[int, ...]:
        return self.pos.own(self.side.other)

    @cached_property
    def made(self) -> set[int]:
        return made_points(self.me)

    @cached_property
    def blots(self) -> tuple[int, ...]:
        return tuple(p for p in range(24, 0, -1) if self.me[p] == 1)

    @cached_property
    def home_points(self) -> tuple[int, ...]:
        return tuple(p for p in range(6, 0, -1) if self.me[p] >= 2)

    @cached_property
    def prime(self) -> tuple[int, ...]:
        return longest_run(self.made)

    @cached_property
    def anchors(self) -> tuple[int, ...]:
        return tuple(p for p in range(24, 18, -1) if self.me[p] >= 2)

    @cached_property
    def pips(self) -> int:
        return self.pos.pips(self.side)

    @cached_property
    def opp_pips(self) -> int:
        return self.pos.pips(self.side.other)

    @cached_property
    def contact(self) -> bool:
        return in_contact(self.pos, self.side)

    @cached_property
    def off(self) -> int:
        return self.me[OFF]

    @cached_property
    def opp_bar(self) -> int:
        return self.opp[BAR]

    @cached_property
    def shots(self) -> tuple[int, dict[int, int]]:
        """(rolls of 36 that hit at least one blot, rolls of 36 that hit each blot)."""
        per = dict.fromkeys(self.blots, 0)
        if not self.blots or not self.contact:
            return 0, per
        total = 0
        opponent_on_roll = self.pos.with_turn(self.side.other)
        for dice, weight in ROLLS:
            hit: set[int] = set()
            for lp in opponent_on_roll.legal_plays(dice):
                after = lp.result.own(self.side)
                hit.update(p for p in self.blots if after[p] == 0)
                if len(hit) == len(self.blots):
                    break
            for p in hit:
                per[p] += weight
            if hit:
                total += weight
        return total, per
