"""What each part of the referee has: the referee it belongs to, and through it the match's state, the turn's
state and the game being played (core.referee.games). Each part owns one concern (core.referee.machine lists
them) and reaches another part only through the referee's named attributes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.referee.games import Game, game_of
from core.referee.state import MatchState
from core.referee.turn import TurnState

if TYPE_CHECKING:
    from core.referee.machine import Referee


class Part:
    """One part of the referee (the held roll, board reading, the commit, ...)."""

    __slots__ = ("ref",)

    def __init__(self, ref: Referee) -> None:
        self.ref = ref

    @property
    def match_state(self) -> MatchState:
        return self.ref.match_state

    @property
    def turn_state(self) -> TurnState:
        return self.ref.turn_state

    @turn_state.setter
    def turn_state(self, value: TurnState) -> None:
        self.ref.turn_state = value

    @property
    def game(self) -> Game:
        """The game of the position being played: its hooks answer what differs between games."""
        return game_of(self.match_state.pos)
