"""Game and match records: every roll, play, cube action, resignation and result.

A record is what a file says (or what the referee saw) plus, once replayed, the position before each
action and each game's computed result. It is enough to replay a match, export it (.mat, SGF) and show
a move list. Readers fill ``Action.text`` with the cell as written; ``core.match.replay`` resolves it into a
``Play`` against the position and fills ``Action.position`` and ``GameRecord.result``.

Players: ``Side.LIGHT`` is player 0 (the left column of a .mat file, gnubg's X, SGF ``W``), ``Side.DARK``
is player 1 (the right column, gnubg's O, SGF ``B``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from core.rules.position import Side

if TYPE_CHECKING:
    from core.rules.notation import Play
    from core.rules.position import Position

# Action kinds.
MOVE = "move"  # dice rolled and a play (possibly empty: no legal play, or rolled then resigned)
DOUBLE = "double"
TAKE = "take"
DROP = "drop"
BEAVER = "beaver"  # the taker redoubles at once and keeps the cube (R17)
RACCOON = "raccoon"  # the doubler answers a beaver by redoubling again (R18)
RESIGN = "resign"  # value 1, 2 or 3 (single, gammon, backgammon) in ``value``
ACCEPT = "accept"  # resignation accepted
REJECT = "reject"  # resignation rejected
KINDS = (MOVE, DOUBLE, TAKE, DROP, BEAVER, RACCOON, RESIGN, ACCEPT, REJECT)

RESIGN_NAMES = {1: "single", 2: "gammon", 3: "backgammon"}


def player_index(side: Side) -> int:
    """0 for the left column / gnubg player 0, 1 for the right."""
    return 0 if side == Side.LIGHT else 1


def side_of(player: int) -> Side:
    return Side.LIGHT if player == 0 else Side.DARK


@dataclass
class Action:
    """One thing a player did. ``text`` keeps the play as written (``None`` when the roll was not played)."""

    kind: str
    side: Side | None
    dice: tuple[int, int] | None = None
    text: str | None = None
    play: Play | None = None
    value: int | None = None  # new cube value (double/beaver/raccoon), resignation value 1-3, Losses points
    line: int | None = None
    position: Position | None = None  # before the action, filled by replay
    note: str = ""  # reader's remark: "cannot move", "rolled then resigned", "losses", ...

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown action kind {self.kind!r}; expected one of {', '.join(KINDS)}")

    def describe(self) -> str:
        who = self.side.value if self.side is not None else "?"
        if self.kind == MOVE:
            roll = f"{self.dice[0]}{self.dice[1]}" if self.dice else "??"
            if self.play is not None:
                body = self.play.text() or "(no play)"
            else:
                body = self.text if self.text else "(no play)"
            return f"{who} {roll}: {body}"
        if self.kind in (DOUBLE, BEAVER, RACCOON):
            return f"{who} {self.kind}s to {self.value}"
        if self.kind == RESIGN:
            return f"{who} resigns {RESIGN_NAMES.get(self.value or 0, self.value)}"
        return f"{who} {self.kind}s"


@dataclass(frozen=True)
class Problem:
    """Something wrong in a record, at a line of its file (None for records without lines)."""

    line: int | None
    game: int
    kind: str
    message: str

    def as_dict(self) -> dict[str, Any]:
        return {"line": self.line, "game": self.game, "kind": self.kind, "message": self.message}


@dataclass(frozen=True)
class GameResult:
    """How a game ended. ``how``: single, gammon, backgammon, drop or resign (Plakoto's mother and draw, R30);
    ``value`` the 1-3 multiplier. ``winner`` None: a draw (no points)."""

    winner: Side | None
    points: int
    how: str
    value: int = 1
    cube: int = 1


@dataclass(frozen=True)
class StatedResult:
    """The result a file writes (``Wins N point(s)``), with the line it is on."""

    winner: Side
    points: int
    line: int | None = None
    and_the_match: bool = False


@dataclass
class GameRecord:
    number: int
    score: dict[Side, int] = field(default_factory=lambda: {Side.LIGHT: 0, Side.DARK: 0})  # before the game
    actions: list[Action] = field(default_factory=list)
    stated: StatedResult | None = None
    line: int | None = None  # of the "Game N" title
    score_line: int | None = None
    crawford: bool = False  # computed by replay from the match score
    result: GameResult | None = None  # computed by replay
    final_position: Position | None = None  # computed by replay
    start: Position | None = None  # set-up position when not the standard start (SGF AE/AW/AB)

    @property
    def plays(self) -> list[Action]:
        return [a for a in self.actions if a.kind == MOVE]

    def move_list(self) -> list[dict[str, Any]]:
        """Rows for a move list: one per roll, like the kiosk's ``moves`` array."""
        rows: list[dict[str, Any]] = []
        number = 0
        for a in self.actions:
            if a.kind != MOVE or a.dice is None or a.side is None:
                continue
            number += 1
            play = a.play.text() if a.play is not None else (a.text or "")
            rows.append({"game": self.number, "number": number, "side": a.side.value, "roll": list(a.dice), "play": play})
        return rows


@dataclass(frozen=True)
class MatchRules:
    """Rules in force for a match or money session (see core.match.score for what each one does)."""

    crawford: bool = True
    jacoby: bool | None = False  # money only (R15); None = unknown (a file that does not say)
    beavers: bool = False  # money only (R17)
    raccoons: bool = False  # money only (R18), needs beavers
    holland: bool = False  # post-Crawford (R16)
    cube_cap: int | None = None  # None = no limit (R12, 004); 64 = the cap of 000
    cube_use: bool = True  # False: no doubling at all (gnubg's CubeLimit "1")
    variation: str = "standard"  # standard | nackgammon

    def as_dict(self) -> dict[str, Any]:
        return {
            "crawford": self.crawford,
            "jacoby": self.jacoby,
            "beavers": self.beavers,
            "raccoons": self.raccoons,
            "holland": self.holland,
            "cube_cap": self.cube_cap,
            "cube_use": self.cube_use,
            "variation": self.variation,
        }


@dataclass
class MatchRecord:
    length: int  # 0 = money session
    players: dict[Side, str] = field(default_factory=lambda: {Side.LIGHT: "", Side.DARK: ""})
    rules: MatchRules = field(default_factory=MatchRules)
    games: list[GameRecord] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)  # ; [Key "Value"] lines, in order
    comments: list[str] = field(default_factory=list)  # other header lines, without the leading ';'/'#'
    date: str | None = None  # YYYY-MM-DD
    source: str = ""  # dialect read: gnubg, galaxy, studio, sgf, kiosk
    problems: list[Problem] = field(default_factory=list)  # found while reading the file

    @property
    def final_score(self) -> dict[Side, int]:
        """The score after the last game: the first game's score plus each result (computed, else stated)."""
        score = dict(self.games[0].score) if self.games else {Side.LIGHT: 0, Side.DARK: 0}
        for g in self.games:
            res = g.result
            if res is not None:
                if res.winner is not None:  # None: a draw (Plakoto, R30)
                    score[res.winner] += res.points
            elif g.stated is not None:
                score[g.stated.winner] += g.stated.points
        return score

    def move_list(self) -> list[dict[str, Any]]:
        return [row for g in self.games for row in g.move_list()]
