"""eXtreme Gammon's position text, XGID.

``XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10``: 26 characters of checkers, then cube (log2),
cube owner (0 centred, 1 light, -1 dark), turn (1 light, -1 dark), dice (``00`` before the roll), light's
score, dark's score, Crawford (match) or Jacoby/beaver flags (money), match length (0 = money), max cube (log2).
Light is XG's bottom player (upper-case letters); character i (1..24) is light's point i, 0 dark's bar,
25 light's bar.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.errors import InvalidPositionError
from core.rules.position import Position, Side


@dataclass(frozen=True)
class XGID:
    position: Position
    cube: int = 1
    cube_owner: Side | None = None
    dice: tuple[int, int] | None = None
    score: tuple[int, int] = (0, 0)  # (light, dark)
    flags: int = 0  # match: 1 = Crawford game; money: 1 Jacoby, 2 beavers
    match_length: int = 0
    max_cube_log: int = 10

    def text(self) -> str:
        pos = self.position
        chars = ["-"] * 26
        light, dark = pos.light, pos.dark
        for p in range(1, 25):
            if light[p - 1]:
                chars[p] = chr(ord("A") + light[p - 1] - 1)
            elif dark[p - 1]:
                chars[p] = chr(ord("a") + dark[p - 1] - 1)
        if pos.bar[Side.LIGHT]:
            chars[25] = chr(ord("A") + pos.bar[Side.LIGHT] - 1)
        if pos.bar[Side.DARK]:
            chars[0] = chr(ord("a") + pos.bar[Side.DARK] - 1)
        owner = 0 if self.cube_owner is None else (1 if self.cube_owner is Side.LIGHT else -1)
        turn = 1 if pos.turn is Side.LIGHT else -1
        dice = "00" if self.dice is None else f"{self.dice[0]}{self.dice[1]}"
        fields = [
            "".join(chars), str(self.cube.bit_length() - 1), str(owner), str(turn), dice,
            str(self.score[0]), str(self.score[1]), str(self.flags), str(self.match_length), str(self.max_cube_log),
        ]
        return "XGID=" + ":".join(fields)

    @classmethod
    def from_text(cls, text: str) -> XGID:
        raw = text.strip()
        body = raw[5:] if raw.upper().startswith("XGID=") else raw
        parts = body.split(":")
        if len(parts) < 10 or len(parts[0]) != 26:
            raise InvalidPositionError(
                f"invalid XGID {text!r}: expected 26 checker characters and 9 fields separated by ':'"
            )
        light = [0] * 24
        dark = [0] * 24
        bar = {"light": 0, "dark": 0}
        for i, ch in enumerate(parts[0]):
            if ch == "-":
                continue
            if "A" <= ch <= "O":
                n, side = ord(ch) - ord("A") + 1, "light"
            elif "a" <= ch <= "o":
                n, side = ord(ch) - ord("a") + 1, "dark"
            else:
                raise InvalidPositionError(f"invalid XGID {text!r}: {ch!r} at {i} is not a checker count (A-O, a-o or -)")
            if i == 0 or i == 25:
                if (i == 25) != (side == "light"):
                    raise InvalidPositionError(f"invalid XGID {text!r}: the wrong side's checkers on a bar")
                bar[side] = n
            else:
                (light if side == "light" else dark)[i - 1] = n
        try:
            cube_log, owner, turn = int(parts[1]), int(parts[2]), int(parts[3])
            score = (int(parts[5]), int(parts[6]))
            flags, length, max_cube = int(parts[7]), int(parts[8]), int(parts[9])
        except ValueError:
            raise InvalidPositionError(f"invalid XGID {text!r}: cube, turn, score and length must be numbers") from None
        dice_text = parts[4]
        dice = (int(dice_text[0]), int(dice_text[1])) if len(dice_text) == 2 and dice_text.isdigit() and dice_text != "00" else None
        position = Position.from_physical(light, dark, bar=bar, turn=Side.LIGHT if turn == 1 else Side.DARK)
        cube_owner = None if owner == 0 else (Side.LIGHT if owner == 1 else Side.DARK)
        return cls(position, 1 << cube_log, cube_owner, dice, score, flags, length, max_cube)
