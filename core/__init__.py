"""The rules and the referee: pure Python, no I/O, no third-party imports.

The names most callers need are exported here; the modules hold the rest (``core.referee``,
``core.inference``, ``core.events``, ``core.messages``, ``core.formats``).
"""

from core.cube import Cube, CubeError, CubeSettings
from core.errors import (
    AmbiguousPlayError,
    GamaoError,
    IllegalPlayError,
    InvalidPlayError,
    InvalidPositionError,
    InvalidRollError,
)
from core.events import EventError, parse_event, read_lines, write_lines
from core.formats import MatchFileError, decode_text
from core.formats.mat import read_mat, write_mat
from core.formats.sgf import read_sgf, write_sgf
from core.inference import Observation, TurnModel
from core.match import Match, MatchRules
from core.matchid import MatchIdError, MatchIdState
from core.messages import REASONS, describe, message
from core.notation import BAR, OFF, Move, Play
from core.position import LegalPlay, LegalPlays, Position, Side, check_dice
from core.record import Action, GameRecord, GameResult, MatchRecord, Problem
from core.referee import Referee
from core.replay import ReplayReport, replay
from core.variants import VARIANTS, variant
from core.xgid import XGID

__all__ = [
    "REASONS", "EventError", "Observation", "Referee", "TurnModel", "describe", "message", "parse_event",
    "read_lines", "write_lines",
    "BAR", "OFF", "VARIANTS", "XGID", "Action", "AmbiguousPlayError", "Cube", "CubeError", "CubeSettings",
    "GameRecord", "GameResult", "GamaoError", "IllegalPlayError", "InvalidPlayError", "InvalidPositionError",
    "InvalidRollError", "LegalPlay", "LegalPlays", "Match", "MatchFileError", "MatchIdError", "MatchIdState",
    "MatchRecord", "MatchRules", "Move", "Play", "Position", "Problem", "ReplayReport", "Side", "check_dice",
    "decode_text", "read_mat", "read_sgf", "replay", "variant", "write_mat", "write_sgf",
]
