"""Random self-play games of the seeds' variants (R30-R32) as referee event streams on exact boards.

A game is drawn as core.rules.variants.selfplay draws it (each roll from a seeded ``random.Random``, a legal
play picked at random with ``VariantPosition.random_play``), but it keeps what the referee needs: the opening
roll as the referee rules it (no double; the higher die starts, R03), the Russian doubles on a first roll that
are rolled again (R31), and each play's single-die steps, so the stream has a board after every die and after
every play, as tests/core/referee/referee_streams.py does for backgammon.

Each turn is a ``Turn``: the roller, the dice, the play's text and steps, the position before and after.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from core.rules.position import Side
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


def random_game(cls: type[VariantPosition], seed: int, settings: Settings | None = None, max_turns: int = 600) -> Game:
    rng = random.Random(seed)
    while True:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        if dice[0] != dice[1]:
            break
    starter = Side.LIGHT if dice[0] > dice[1] else Side.DARK
    pos = cls.start(starter, settings)  # type: ignore[arg-type]
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


def board_event(pos: VariantPosition) -> dict[str, Any]:
    return {"event": "board", **pos.to_json(), "stable": True}


def game_events(game: Game, rules: dict[str, Any] | None = None) -> list[tuple[dict[str, Any], Turn | None]]:
    """(event, the turn it belongs to) for a whole game: new_match, the start board, then per turn the roll
    and a board after every die."""
    assert game.turns
    start = game.turns[0].before
    out: list[tuple[dict[str, Any], Turn | None]] = [
        ({"event": "new_match", "length": 0, "variant": game.variant,
          "variant_settings": {k: v for k, v in vars_of(start.settings).items()},
          "rules": {"premature_roll": "commit", **(rules or {})}}, None),
        (board_event(start.with_turn(Side.LIGHT)), None),
    ]
    for k, turn in enumerate(game.turns):
        d = turn.dice
        if k == 0:
            hi, lo = max(d), min(d)
            dice = [hi, lo] if turn.side is Side.LIGHT else [lo, hi]
        else:
            dice = [d[0], d[1]]
        out.append(({"event": "roll", "dice": dice}, turn))
        for board in turn.boards:
            out.append((board_event(board), turn))
    return out


def vars_of(settings: Any) -> dict[str, Any]:
    import dataclasses

    return dataclasses.asdict(settings)
