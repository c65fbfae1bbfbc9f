"""Random self-play games of the seeds' variants (R30-R32) as referee event streams on exact boards
(the games themselves: core.referee.selfplay).

A game is drawn as core.rules.variants.selfplay draws it (each roll from a seeded ``random.Random``, a legal
play picked at random with ``VariantPosition.random_play``), but it keeps what the referee needs: the opening
roll as the referee rules it (no double; the higher die starts, R03), the Russian doubles on a first roll that
are rolled again (R31), and each play's single-die steps, so the stream has a board after every die and after
every play, as tests/core/referee/referee_streams.py does for backgammon.

Each turn is a ``Turn``: the roller, the dice, the play's text and steps, the position before and after.
"""

from __future__ import annotations

from typing import Any

from core.referee.selfplay import Game, Turn, random_game
from core.rules.position import Side
from core.rules.variants import VariantPosition


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


__all__ = ["Game", "Turn", "board_event", "game_events", "random_game"]
