"""The kiosk's public contract: response and request schemas, kept apart from the referee's internals.

Response models are tolerant (optional fields, extra keys kept on verdicts) so a referee that adds a key
does not break the page; request models are strict so bad input is refused with a 422 naming the field.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from core.match.names import name_problem

SideName = Literal["light", "dark"]
Points = Annotated[list[Annotated[int, Field(ge=0, le=15)]], Field(min_length=24, max_length=24)]

EXAMPLE_STATE: dict[str, Any] = {
    "match": {"length": 5, "players": {"light": "lasse", "dark": "bb2106"}, "score": {"light": 2, "dark": 4},
              "crawford": True, "post_crawford": False, "game": 4,
              "rules": {"crawford": True, "jacoby": False, "beavers": False, "holland": False,
                        "cube_cap": None, "mode": "casual", "tournament": False}},
    "position": {"light": [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2],
                 "dark": [2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 3, 0, 5, 0, 0, 0, 0, 0],
                 "bar": {"light": 0, "dark": 0}, "off": {"light": 0, "dark": 0},
                 "position_id": "4HPwATDgc/ABMA", "match_id": "cAkAAAAAAAAA"},
    "turn": "light", "phase": "moving",
    "dice": {"values": [5, 2], "cocked": [False, False], "used": [5]},
    "cube": {"value": 1, "owner": None, "offered_by": None},
    "pips": {"light": 167, "dark": 167},
    "verdicts": [{"at": 12, "verdict": "legal", "side": "dark", "play": "13/8 13/11"}],
    "moves": [{"game": 4, "number": 1, "side": "light", "roll": [5, 2], "play": "13/8 13/11"}],
}


class Players(BaseModel):
    light: str = ""
    dark: str = ""


class Score(BaseModel):
    light: int = 0
    dark: int = 0


class MatchOut(BaseModel):
    model_config = ConfigDict(extra="allow")
    id: str | int | None = Field(None, description="Journal id of the match, for the export links")
    length: int = Field(0, description="Match length in points; 0 for money play")
    players: Players = Players()
    score: Score = Score()
    crawford: bool = False
    post_crawford: bool = False
    game: int = 0
    rules: dict[str, Any] = {}


class BarOff(BaseModel):
    light: int = 0
    dark: int = 0


class PositionOut(BaseModel):
    light: list[int] = Field(default_factory=lambda: [0] * 24, description="24 counts, physical point 1 first")
    dark: list[int] = Field(default_factory=lambda: [0] * 24)
    bar: BarOff = BarOff()
    off: BarOff = BarOff()
    position_id: str | None = None
    match_id: str | None = None
    # The seeds' variants (R30-R32), as in the --position JSON: Plakoto's pins, Russian checkers not yet entered
    # and first-roll flags, Jacquet's messengers. Absent (null) in backgammon.
    pinned: list[dict[str, Any]] | None = Field(None, description='Plakoto: [{"point": 10, "side": "dark"}], pinned checkers')
    waiting: BarOff | None = Field(None, description="Russian backgammon: checkers not yet entered")
    first_roll: dict[str, bool] | None = None
    messenger: dict[str, bool] | None = Field(None, description="Jacquet: each side's messenger has arrived")


class DiceOut(BaseModel):
    values: list[int] = []
    cocked: list[bool] = []
    used: list[int] = []


class CubeOut(BaseModel):
    value: int = 1
    owner: SideName | None = Field(None, description="null when the cube is centred")
    offered_by: SideName | None = None


class Pips(BaseModel):
    light: int | None = None
    dark: int | None = None


class VerdictOut(BaseModel):
    model_config = ConfigDict(extra="allow")
    at: int | None = None
    verdict: str


class MoveOut(BaseModel):
    model_config = ConfigDict(extra="allow")
    game: int | None = None
    number: int | None = None
    side: SideName | None = None
    roll: list[int] | None = None
    play: str | None = None


class StateOut(BaseModel):
    """Referee.public_state(), as GET /api/state returns it and /ws pushes it."""

    model_config = ConfigDict(json_schema_extra={"examples": [EXAMPLE_STATE]})
    match: MatchOut = MatchOut()
    position: PositionOut = PositionOut()
    position_at_turn_start: PositionOut | None = Field(
        None, description="the committed position the turn began from; position is the board as it stands")
    turn: SideName | None = None
    phase: str = "opening"
    dice: DiceOut | None = None
    cube: CubeOut = CubeOut()
    pips: Pips = Pips()
    verdicts: list[VerdictOut] = []
    moves: list[MoveOut] = []
    resignation: dict[str, Any] | None = Field(None, description='{"side": "dark", "value": 1} while offered')
    chouette: dict[str, Any] | None = Field(
        None, description="a chouette's roles, each member's cube, the pending double and the ledger (R26-R29; "
        "docs/CONTRACTS.md, kiosk/chouette.py); absent for a two-player match")
    notices: list[dict[str, Any]] = Field(
        [], description='what the screen must say about the journal: {"kind": "journal_salvaged" | '
        '"journal_went_back" | "write_failed" | "archive_failed", "message": {"pt", "en"}, "at", ...}')
    variant: dict[str, Any] | None = Field(None, description='a variant game: {"name": "plakoto", "rule": "R30", "settings": {...}}')
    clock: dict[str, Any] | None = Field(
        None, description='a timed match (issue 21): {"light": seconds_left, "dark": seconds_left, "running": side | null, '
        '"delay_left": seconds, "delay", "delay_kind", "flag": side | null, "at": event time}; null: no clock')
    chain: dict[str, Any] | None = Field(
        None, description='Russian backgammon: {"link": "double"|"complement"|"roll", "dice": [3, 3], "played": [[3, 3]]}')


class KioskInfo(BaseModel):
    """What the page needs before the first state: language and whether a PIN exists."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"language": "pt", "languages": ["pt", "en"],
                                                                "pin_set": True, "camera": False, "voice": "on"}]})
    language: Literal["pt", "en"]
    language_set: bool = Field(False, description="whether the config chose `language`; false: the page follows the "
                               "browser's languages (never the system's locale)")
    languages: list[str]
    pin_set: bool
    camera: bool
    voice: Literal["on", "off", "missing"] = Field("off", description="the referee's spoken calls (kiosk/voice.py): "
                                                   "on, off (silent by the owner's choice) or missing (no espeak-ng)")


# ---- requests (strict) --------------------------------------------------------------------------

class Strict(BaseModel):
    """Unknown keys refused, and no coercion: `true` is not a number, `"5"` is not 5 (subclasses inherit this)."""

    model_config = ConfigDict(extra="forbid", strict=True)


class ActionIn(Strict):
    """A request whose `action` is one of several, one of which needs another field: NEEDS is (that action, the
    field, why), and the request is refused when the action comes without the field."""

    NEEDS: ClassVar[tuple[str, str, str]]

    @model_validator(mode="after")
    def _needed_field(self) -> ActionIn:
        action, name, why = self.NEEDS
        if getattr(self, "action", None) == action and getattr(self, name) is None:
            raise ValueError(f"{name} is required when action is {action}{why}")
        return self


def _printable_name(name: str) -> str:
    """A player's name goes into the .mat and SGF files line by line (core/match/names.py): no control characters
    (newline, tab, NUL, ...), no line or paragraph separators, no bidi overrides, no lone surrogates, not only
    spaces, at most 40 characters."""
    problem = name_problem(name)
    if problem is not None:
        raise ValueError(problem)
    return name.strip()


Name = Annotated[str, Field(min_length=1, max_length=40), AfterValidator(_printable_name)]


class PinIn(Strict):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"pin": "2468"}]})
    pin: str = Field(pattern=r"^[0-9]{4,12}$", description="4 to 12 digits")


class ClockIn(Strict):
    per_point: float | None = Field(120, ge=0, le=86400, description="seconds per point of the match length")
    per_match: float | None = Field(None, ge=0, le=86400, description="seconds for the whole match (wins over per_point)")
    delay: float = Field(12, ge=0, le=3600, description="seconds per turn before the bank runs")
    delay_kind: Literal["simple", "bronstein"] = "simple"
    flag_fall: Literal["match"] = "match"


class RulesIn(Strict):
    crawford: bool = True
    jacoby: bool = False
    beavers: bool = False
    holland: bool = False
    cube_cap: int | None = Field(None, ge=1, le=4096)
    mode: Literal["casual", "strict"] = "casual"
    tournament: bool = False
    premature_roll: Literal["reject", "commit"] = "reject"
    # The rule sets' settings (core/referee/rulesets.py, issue 21); unset: the rule set's, or none.
    illegal_play: Literal["stands", "answer", "correct"] | None = None
    point_out: Literal["anyone", "players_director"] | None = None
    coach: bool | None = None
    clock: ClockIn | None = Field(None, description="the clock (core/referee/clock.py); null: no clock")
    # The table's conventions (R19-R22, core/referee/conventions.py, issue 36); unset: the rule set's, or none.
    touch_move: bool | None = None
    steps: Literal["fault", "in_progress"] | None = None
    forgotten_checker: Literal["fault", "hint"] | None = None
    bar_first: Literal["fault", "hint"] | None = None


class PlayersIn(Strict):
    light: Name = "Light"
    dark: Name = "Dark"


class NewMatchIn(Strict):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [
        {"length": 7, "players": {"light": "Ana", "dark": "Bruno"}, "rules": {"crawford": True, "tournament": False}}]})
    length: int = Field(ge=0, le=64, description="Match length in points; 0 for money play")
    players: PlayersIn = PlayersIn()
    rules: RulesIn = RulesIn()
    variant: Literal["backgammon", "standard", "plakoto", "russian", "jacquet"] | None = Field(
        None, description="one of the seeds' other games (docs/variants.md); null: backgammon")
    variant_settings: dict[str, Any] | None = Field(None, description="the variant's settings; omitted: the seed's defaults")
    rule_set: Literal["casual", "tournament_usbgf", "tournament_ukbgf", "lesson"] | None = Field(
        None, description="a named rule set (docs/tournament.md); null: the config's rule_set, else today's rules")


class ClockPressIn(Strict):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"side": "light"}]})
    side: SideName


class IllegalPlayAnswerIn(Strict):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"side": "dark", "answer": "correct"}]})
    side: SideName
    answer: Literal["accept", "correct"]


class TouchMoveIn(Strict):
    """The opponent's touch-move claim (R19, issue 36): the point touched, in the mover's own numbering."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"by": "dark", "point": 8}]})
    by: SideName
    point: int = Field(ge=1, le=24, description="1-24 in the mover's own numbering")


class CubeIn(Strict):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"action": "double", "side": "light"}]})
    action: Literal["double", "take", "drop", "beaver", "raccoon"]
    side: SideName


class ResignationIn(ActionIn):
    """offer: ``side`` resigns a single (1), gammon (2) or backgammon (3); accept / reject: the opponent's answer."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [
        {"action": "offer", "side": "dark", "value": 1}, {"action": "accept"}]})
    action: Literal["offer", "accept", "reject"]
    side: SideName | None = None
    value: Annotated[int, Field(ge=1, le=3)] = 1
    NEEDS = ("offer", "side", " (who resigns)")


class BarOffIn(Strict):
    light: Annotated[int, Field(ge=0, le=15)] = 0
    dark: Annotated[int, Field(ge=0, le=15)] = 0


class BoardIn(Strict):
    """A whole board as it stands: each side's 15 checkers are on the points, on the bar or borne off, and
    no point holds checkers of both sides."""

    light: Points
    dark: Points
    bar: BarOffIn = BarOffIn()
    off: BarOffIn = BarOffIn()

    @model_validator(mode="after")
    def _possible(self) -> BoardIn:
        for side in ("light", "dark"):
            total = sum(getattr(self, side)) + getattr(self.bar, side) + getattr(self.off, side)
            if total != 15:
                raise ValueError(f"{side} has {total} checkers (points + bar + off); a side has 15")
        both = [i + 1 for i in range(24) if self.light[i] and self.dark[i]]
        if both:
            raise ValueError(f"point {both[0]} holds checkers of both sides")
        return self


class CorrectionIn(ActionIn):
    """undo / end_turn / ack_cocked / new_game press that button (new_game in the middle of a game leaves it
    unfinished, with no points); set_board replaces what the camera saw."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"action": "undo"}]})
    action: Literal["undo", "end_turn", "ack_cocked", "new_game", "set_board"]
    board: BoardIn | None = None
    NEEDS = ("set_board", "board", "")


class CalibrationIn(Strict):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [
        {"corners": [[40, 30], [600, 30], [600, 450], [40, 450]]}]})
    corners: Annotated[list[Annotated[list[Annotated[float, Field(ge=0, le=10000)]], Field(min_length=2, max_length=2)]],
                       Field(min_length=4, max_length=4)]


class LearnIn(Strict):
    """The calibration page's "learn this board" (issue 33): the board the camera shows now."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"board": "start"}, {"board": "empty"}]})
    board: Literal["start", "empty"]


class ControlOut(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"verdicts": [{"at": 3, "verdict": "cube_offered"}]}]})
    verdicts: list[VerdictOut]


class VersusIn(Strict):
    """A match against GNU Backgammon on the board (issue 24): its level (gnubg's named players), its side."""

    level: Literal["beginner", "casual", "intermediate", "advanced", "expert", "worldclass", "supremo",
                   "grandmaster"] = "expert"
    side: Literal["light", "dark"] = "dark"
    length: int = Field(5, ge=0, le=64)
    player: Name = "Jogador"  # the versus player's name: the same check as every player's (issue 34, finding 9)


class VersusAnswerIn(Strict):
    """The human's answer to GNU Backgammon's double (issue 37): take or drop, one touch on the screen."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"answer": "take"}]})
    answer: Literal["take", "drop"]


class CoachSettingsIn(Strict):
    """The coach's settings for the current match; fields left out keep their value."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"tutor": "bad", "live_plies": 0,
                                                                                 "tutor_plies": 2}]})
    tutor: Literal["off", "very_bad", "bad", "doubtful"] | None = None
    live_plies: int | None = Field(None, ge=0, le=4)
    tutor_plies: int | None = Field(None, ge=0, le=4)
    marks: Literal["xg", "gnubg"] | None = None  # XG's 0.020/0.080 marks or gnubg's own (issue 24)
    takeback: bool | None = None  # both players agreed a mistake may be taken back after the roll (R23)
