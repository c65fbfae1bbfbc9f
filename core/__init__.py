"""The rules and the referee: pure Python, no I/O, no third-party imports."""

from core.errors import (
    AmbiguousPlayError,
    GamaoError,
    IllegalPlayError,
    InvalidPlayError,
    InvalidPositionError,
    InvalidRollError,
)
from core.notation import BAR, OFF, Move, Play
from core.position import LegalPlay, LegalPlays, Position, Side, check_dice

__all__ = [
    "BAR", "OFF", "AmbiguousPlayError", "GamaoError", "IllegalPlayError", "InvalidPlayError",
    "InvalidPositionError", "InvalidRollError", "LegalPlay", "LegalPlays", "Move", "Play", "Position",
    "Side", "check_dice",
]
