"""A chouette table for the kiosk's tests and the demo's checks: real board events through the real service.

``Table`` plays the board game between the box and the captain with simple legal plays (the first legal play of
fixed dice), brings the board to the moment a side may double (R29: before its own roll), and ends a board game by
a resignation of 1, 2 or 3 points (the board's result per cube, R29).
"""

from __future__ import annotations

from typing import Any

from core.rules.position import Position, Side

DICE = [(6, 5), (4, 2), (5, 3), (6, 1), (3, 2), (5, 4), (6, 2), (4, 1)]

# The five players of core's hand-computed table (tests/core/match/test_chouette.py, R26): box Ana, captain Bruno,
# crew Davi, Carla, Eva (Carla and Davi tie on 4 and roll again).
PLAYERS = [{"name": "Ana", "rolls": [6]}, {"name": "Bruno", "rolls": [5]}, {"name": "Carla", "rolls": [4, 2]},
           {"name": "Davi", "rolls": [4, 5]}, {"name": "Eva", "rolls": [1]}]


def board(pos: Position) -> dict[str, Any]:
    return {"event": "board", **pos.to_dict(), "stable": True}


class Table:
    def __init__(self, submit: Any, referee: Any) -> None:
        self.submit = submit  # service.submit, or a function that posts to the API
        self.referee = referee  # a function returning the service's referee (it is replaced on a new match)
        self.k = 0

    def _roll(self) -> tuple[int, int]:
        self.k += 1
        return DICE[self.k % len(DICE)]

    def play_one(self) -> None:
        """The side on roll rolls and plays the first legal play; the play is committed (end turn)."""
        ref = self.referee()
        if ref.phase in ("opening", "game_over"):
            self.submit({"event": "roll", "dice": [3, 1]})  # light opens with 31
        else:
            self.submit({"event": "roll", "dice": list(self._roll())})
        ref = self.referee()
        if ref.phase == "moving":
            pos = ref.pos
            plays = pos.legal_plays(ref.dice)
            if len(plays):
                self.submit(board(next(iter(plays)).result))
            self.submit({"event": "button", "name": "end_turn"})

    def to_double(self, side: Side) -> None:
        """Play on until ``side`` is to roll (the moment it may double)."""
        for _ in range(6):
            ref = self.referee()
            if ref.phase == "awaiting_roll" and ref.turn is side:
                return
            self.play_one()
        raise AssertionError(f"{side.value} never came to roll")

    def end(self, winner: Side, points: int) -> None:
        """The board game ends: the loser resigns ``points`` (1, 2 or 3) and the winner accepts."""
        ref = self.referee()
        if ref.phase in ("opening", "game_over"):
            self.play_one()
        self.submit({"event": "resign", "side": winner.other.value, "value": points})
        self.submit({"event": "resign_reply", "accept": True})
