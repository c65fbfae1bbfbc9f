"""The rules and the referee: pure Python, no I/O, no third-party imports.

The names most callers need are exported here; the modules hold the rest (``core.referee``,
``core.referee.inference``, ``core.referee.events``, ``core.messages``, ``core.match.formats``).
"""

from core.errors import (
    AmbiguousPlayError,
    GamaoError,
    IllegalPlayError,
    InvalidPlayError,
    InvalidPositionError,
    InvalidRollError,
)
from core.match.cube import Cube, CubeError, CubeSettings
from core.match.formats import MatchFileError, decode_text
from core.match.formats.mat import read_mat, write_mat
from core.match.formats.sgf import read_sgf, write_sgf
from core.match.record import Action, GameRecord, GameResult, MatchRecord, Problem
from core.match.replay import ReplayReport, replay
from core.match.score import Match, MatchRules
from core.messages import REASONS, describe, message
from core.referee import Referee
from core.referee.events import EventError, parse_event, read_lines, write_lines
from core.referee.inference import Observation, TurnModel
from core.rules.matchid import MatchIdError, MatchIdState
from core.rules.notation import BAR, OFF, Move, Play
from core.rules.position import LegalPlay, LegalPlays, Position, Side, check_dice
from core.rules.variants import VARIANTS, variant
from core.rules.xgid import XGID

__all__ = [
    "REASONS", "EventError", "Observation", "Referee", "TurnModel", "describe", "message", "parse_event",
    "read_lines", "write_lines",
    "BAR", "OFF", "VARIANTS", "XGID", "Action", "AmbiguousPlayError", "Cube", "CubeError", "CubeSettings",
    "GameRecord", "GameResult", "GamaoError", "IllegalPlayError", "InvalidPlayError", "InvalidPositionError",
    "InvalidRollError", "LegalPlay", "LegalPlays", "Match", "MatchFileError", "MatchIdError", "MatchIdState",
    "MatchRecord", "MatchRules", "Move", "Play", "Position", "Problem", "ReplayReport", "Side", "check_dice",
    "decode_text", "read_mat", "read_sgf", "replay", "variant", "write_mat", "write_sgf",
]
