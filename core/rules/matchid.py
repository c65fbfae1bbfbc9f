"""GNU Backgammon's Match ID: the match and cube state in 12 base64 characters.

The Match ID is 66 bits packed least significant bit first into 9 bytes, then base64 encoded
without padding. Field layout (bit offsets), as gnubg's matchid.c writes it:

====  =====  ==========================================================
bits  width  field
====  =====  ==========================================================
0     4      log2 of the cube value
4     2      cube owner: 0, 1, or 3 when centred
6     1      player on roll (owner of the dice)
7     1      this is the Crawford game
8     3      game state: 0 none, 1 playing, 2 over, 3 resigned, 4 dropped
11    1      player who must decide now (differs from bit 6 during a double or resignation)
12    1      a double is being offered
13    2      resignation offered: 0 none, 1 single, 2 gammon, 3 backgammon
15    3      first die (0 = not rolled)
18    3      second die
21    15     match length (0 = money session)
36    15     score of player 0
51    15     score of player 1
66    1      set when the Jacoby rule is NOT in force (always set in match play, where Jacoby never applies)
====  =====  ==========================================================

Players are numbered as gnubg does: 0 is the left column of a .mat file (gnubg's X, SGF ``W``), 1 the right.

>>> MatchIdState(cube=2, cube_owner=0, on_roll=1, turn=1, match_length=7, score=(3, 5), dice=(5, 2)).encode()
'QYnqADAAKAAE'
>>> MatchIdState.decode('QYnqADAAKAAE').score
(3, 5)
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass

GAME_STATES = {"none": 0, "playing": 1, "over": 2, "resigned": 3, "dropped": 4}
_STATE_NAMES = {v: k for k, v in GAME_STATES.items()}

# (name, offset, width)
_FIELDS = (
    ("cube_log", 0, 4),
    ("cube_owner", 4, 2),
    ("on_roll", 6, 1),
    ("crawford", 7, 1),
    ("game_state", 8, 3),
    ("turn", 11, 1),
    ("doubled", 12, 1),
    ("resigned", 13, 2),
    ("die0", 15, 3),
    ("die1", 18, 3),
    ("match_length", 21, 15),
    ("score0", 36, 15),
    ("score1", 51, 15),
    ("no_jacoby", 66, 1),
)


class MatchIdError(ValueError):
    """A Match ID that is not 12 base64 characters encoding a possible match state."""


@dataclass(frozen=True)
class MatchIdState:
    """Everything a gnubg Match ID holds. ``cube_owner`` is None when the cube is centred."""

    cube: int = 1
    cube_owner: int | None = None
    on_roll: int = 0
    turn: int | None = None  # who decides now; defaults to the player on roll
    crawford: bool = False
    game_state: str = "playing"
    doubled: bool = False
    resigned: int = 0
    dice: tuple[int, int] = (0, 0)
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = True  # money sessions only; gnubg marks every match as "no Jacoby"

    def __post_init__(self) -> None:
        if self.cube < 1 or self.cube & (self.cube - 1) or self.cube > 2**15:
            raise MatchIdError(f"cube value {self.cube} is not a power of two from 1 to 32768")
        if self.cube_owner not in (None, 0, 1):
            raise MatchIdError(f"cube owner {self.cube_owner!r} must be 0, 1 or None (centred)")
        if self.on_roll not in (0, 1) or self.turn not in (None, 0, 1):
            raise MatchIdError("players are numbered 0 and 1")
        if self.game_state not in GAME_STATES:
            raise MatchIdError(f"unknown game state {self.game_state!r}; expected one of {', '.join(GAME_STATES)}")
        if not 0 <= self.resigned <= 3:
            raise MatchIdError(f"resignation value {self.resigned} must be 0..3")
        if any(not 0 <= d <= 6 for d in self.dice):
            raise MatchIdError(f"dice {self.dice} must be 0 (not rolled) or 1..6")
        limit = 2**15 - 1
        if not 0 <= self.match_length <= limit or any(not 0 <= s <= limit for s in self.score):
            raise MatchIdError("match length and scores must be 0..32767")

    def encode(self) -> str:
        values = {
            "cube_log": self.cube.bit_length() - 1,
            "cube_owner": 3 if self.cube_owner is None else self.cube_owner,
            "on_roll": self.on_roll,
            "crawford": int(self.crawford and self.match_length > 0),  # no Crawford game in money play
            "game_state": GAME_STATES[self.game_state],
            "turn": self.on_roll if self.turn is None else self.turn,
            "doubled": int(self.doubled),
            "resigned": self.resigned,
            "die0": self.dice[0],
            "die1": self.dice[1],
            "match_length": self.match_length,
            "score0": self.score[0],
            "score1": self.score[1],
            "no_jacoby": int(self.match_length > 0 or not self.jacoby),
        }
        bits = 0
        for name, offset, _width in _FIELDS:
            bits |= values[name] << offset
        return base64.b64encode(bits.to_bytes(9, "little")).decode("ascii")

    @classmethod
    def decode(cls, match_id: str) -> MatchIdState:
        text = match_id.strip()
        if len(text) != 12:
            raise MatchIdError(f"Match ID {match_id!r} must be 12 characters long, not {len(text)}")
        try:
            raw = base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError) as exc:
            raise MatchIdError(f"Match ID {match_id!r} is not base64: {exc}") from None
        bits = int.from_bytes(raw, "little")
        v = {name: (bits >> offset) & ((1 << width) - 1) for name, offset, width in _FIELDS}
        if v["cube_owner"] == 2:
            raise MatchIdError(f"Match ID {match_id!r} has cube owner 2 (only 0, 1 and 3 = centred exist)")
        if v["game_state"] not in _STATE_NAMES:
            raise MatchIdError(f"Match ID {match_id!r} has unknown game state {v['game_state']}")
        if (v["die0"] == 0) != (v["die1"] == 0) or v["die0"] > 6 or v["die1"] > 6:
            raise MatchIdError(f"Match ID {match_id!r} has impossible dice {v['die0']}{v['die1']}")
        return cls(
            cube=1 << v["cube_log"],
            cube_owner=None if v["cube_owner"] == 3 else v["cube_owner"],
            on_roll=v["on_roll"],
            turn=v["turn"],
            crawford=bool(v["crawford"]),
            game_state=_STATE_NAMES[v["game_state"]],
            doubled=bool(v["doubled"]),
            resigned=v["resigned"],
            dice=(v["die0"], v["die1"]),
            match_length=v["match_length"],
            score=(v["score0"], v["score1"]),
            jacoby=v["match_length"] > 0 or not v["no_jacoby"],  # meaningless in a match: keep the default
        )


def encode_match_id(state: MatchIdState) -> str:
    return state.encode()


def decode_match_id(match_id: str) -> MatchIdState:
    return MatchIdState.decode(match_id)
