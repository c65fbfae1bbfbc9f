"""Random games of the seeds' variants (R30-R32) as the referee sees them: every die's board.

A game is drawn as core.rules.variants.selfplay draws it (each roll from a seeded ``random.Random``, a legal
play picked at random with ``VariantPosition.random_play``), but it keeps what a referee needs: the opening roll
as the referee rules it (no double; the higher die starts, R03), the Russian doubles on a first roll that are
rolled again (R31), and each play's single-die steps, so a board can be shown after every die. The tests
(tests/core/referee/variant_streams.py), bench/bench_referee_variants.py and ``gamao demo --variant`` use it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from core.rules.position import Position, Side
from core.rules.variants import VariantPosition
from core.rules.variants.base import Settings, State, Step


@dataclass
class Turn:
    side: Side
    dice: tuple[int, int]
    before: VariantPosition
    after: VariantPosition
    text: str = ""
    boards: list[VariantPosition] = field(default_factory=list)  # after each single-die step
    reroll: bool = False


@dataclass
class Game:
    variant: str
    seed: int
    turns: list[Turn] = field(default_factory=list)
    final: VariantPosition | None = None


def _states(pos: VariantPosition, dice: tuple[int, int], steps: tuple[Step, ...]) -> list[State]:
    """The states after each step of a way of playing ``dice`` (the dice order found by trying each)."""
    seq = pos._dice_sequence(dice)
    orders = [seq] if dice[0] == dice[1] else [seq, seq[::-1]]
    for order in orders:
        state, out = pos._state(), []
        for k, step in enumerate(steps):
            nxt = [s2 for st, s2 in pos._moves(state, order[k]) if st == step] if k < len(order) else []
            if not nxt:
                break
            state = nxt[0]
            out.append(state)
        else:
            return out
    raise AssertionError(f"no dice order plays {steps} with {dice}")


def random_game(cls: type[Position], seed: int, settings: Settings | None = None, max_turns: int = 600) -> Game:
    """A random game of the variant ``cls`` (one of the seeds' games) from ``seed``."""
    assert issubclass(cls, VariantPosition), f"{cls.__name__} is not one of the seeds' variants"
    rng = random.Random(seed)
    while True:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        if dice[0] != dice[1]:
            break
    starter = Side.LIGHT if dice[0] > dice[1] else Side.DARK
    pos = cls.start(starter, settings)
    game = Game(cls.variant, seed)
    first = True
    while not pos.is_game_over() and len(game.turns) < max_turns:
        if not first:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
        first = False
        side = pos.turn
        if pos._reroll(dice):
            game.turns.append(Turn(side, dice, pos, pos, reroll=True))
            continue
        chosen = pos.random_play(dice, rng)
        if chosen is None:
            after = pos.with_turn(side.other)
            game.turns.append(Turn(side, dice, pos, after))
        else:
            after = chosen.result
            states = _states(pos, dice, chosen._steps)
            boards = [pos._position_of(st, side) for st in states]
            game.turns.append(Turn(side, dice, pos, after, chosen.text(), boards))
        pos = after
    game.final = pos
    return game


__all__ = ["Game", "Turn", "random_game"]
