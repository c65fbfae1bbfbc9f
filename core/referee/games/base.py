"""The standard game's referee behaviour, and the interface every game's behaviour has (``Game``).

The machine (core.referee.machine) never asks which game is played: it asks the position's game
(``core.referee.games.game_of(pos)``, chosen by the position's class, as python-chess asks ``type(board)``
for a variant's facts) and applies what its hooks return. A hook returns a value (a model, a fault, a
result, a ``Link``); it never touches the referee.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.match.score import RESULT_NAMES
from core.referee.faults import Fault, classify
from core.referee.inference import Candidate, Inference, Observation, TurnModel, Vec, vec_of_position
from core.rules.position import Position, Side

#: (winner, multiplier, how): None as winner is a draw.
Result = tuple[Side | None, int, str]


@dataclass(frozen=True)
class Link:
    """A link of a chain played in full inside one turn (R31), as the game rules it: the machine records the
    play (``fields`` go on its verdict, ``chain`` on its row), and the same player goes on with ``dice``
    (no roll) from ``after``, read with ``model``."""

    cand: Candidate
    text: str
    after: Position
    dice: tuple[int, int]
    model: TurnModel
    chain: str
    fields: Mapping[str, Any] = field(default_factory=dict)


class Game:
    """Backgammon (and Nackgammon, the same rules from another start): the hooks' default answers."""

    name = "standard"

    def turn_model(self, pos: Position, dice: Sequence[int]) -> TurnModel:
        """Every candidate board of a roll (core.referee.inference)."""
        return TurnModel(pos, dice)

    def board(self, pos: Position, obs: Observation) -> Observation:
        """A camera's board with what the camera cannot see put back (nothing, for backgammon)."""
        return obs

    def rerolls(self, pos: Position, dice: tuple[int, int]) -> bool:
        """True when the side on roll in ``pos`` rolls again instead of playing ``dice``."""
        return False

    def classify(self, model: TurnModel, obs: Vec, earlier: Sequence[Vec] = (), nearest: Vec | None = None) -> Fault:
        """Why the board ``obs`` fits no candidate of the roll (core.referee.faults)."""
        return classify(model, obs, earlier, nearest)

    #: May a flagged play stand when committed in casual mode (its board read as counts alone)?
    lets_stand = True

    def result(self, pos: Position) -> Result | None:
        """(winner, multiplier, how) when the game is over, else None."""
        result = pos.result()
        if result is None:
            return None
        winner, mult = result
        return winner, mult, RESULT_NAMES[mult]

    def start_vec(self, pos: Position) -> Vec:
        """The board of this game set up for its start (the set-up check, R01 and R30-R32)."""
        return start_vec(type(pos), None, type(pos).start)

    def public(self, pos: Position, model: TurnModel | None, moves: Sequence[Mapping[str, Any]], turn: Side,
               phase: str) -> dict[str, Any]:
        """What the kiosk shows of this game beyond the board (public_state's extra keys)."""
        return {}

    def reading(self, model: TurnModel, obs: Observation, inf: Inference) -> Inference:
        """The reading of a board the roll's candidates fit several ways, as this game settles it."""
        return inf

    def next_link(self, model: TurnModel, cand: Candidate | None) -> Link | None:
        """A chain's link played in full (``cand``) after which the same player goes on, else None."""
        return None

    def skipped_link(self, model: TurnModel, vec: Vec) -> Link | None:
        """A board that no play of the link explains but the link and part of the next do, else None."""
        return None


_STARTS: dict[tuple[type[Position], Any], Vec] = {}


def start_vec(cls: type[Position], settings: Any, start: Callable[[], Position]) -> Vec:
    """The board of ``start()``, computed once per position class and settings."""
    key = (cls, settings)
    vec = _STARTS.get(key)
    if vec is None:
        vec = _STARTS[key] = vec_of_position(start())
    return vec


STANDARD = Game()

__all__ = ["STANDARD", "Game", "Link", "Result"]
