"""The match's state: the position between plays, the rolls, the committed plays, the cube and the games.

``MatchState`` is what a score sheet and the cube show: whose turn it is and with which dice, the
position as the turn began, every committed play (R23) and cube action of every game, the score. It
rules on nothing about boards (that is ``core.referee.turn``, one turn's view) and emits no verdicts
(``core.referee.machine``, the referee, does, composing both). Cube and score rules are
core.match.cube and core.match.score.

>>> st = MatchState(3, {"light": "Ana", "dark": "Bia"}, {"crawford": True})
>>> st.begin_roll(st.turn, (3, 1))
>>> str(st.phase), st.rolls[st.turn]
('moving', 1)
"""

from __future__ import annotations

import copy
from enum import StrEnum
from typing import Any

from core.match.cube import Cube
from core.match.record import MatchRules
from core.match.score import Match
from core.referee.games import start_position
from core.rules.matchid import MatchIdState
from core.rules.position import Position, Side


class Phase(StrEnum):
    """Where the match stands. A str: public_state()'s ``"phase"`` and the journal show its value."""

    OPENING = "opening"  # the board set up, nobody on roll yet (R03)
    MOVING = "moving"  # a side rolled and is playing
    AWAITING_ROLL = "awaiting_roll"  # between turns
    CUBE_OFFERED = "cube_offered"  # a double waits for its answer
    GAME_OVER = "game_over"
    MATCH_OVER = "match_over"


#: How many committed plays the undo button can take back in a row.
UNDO_DEPTH = 4
#: What a snapshot for undo keeps of the match's state (the cube and the game's actions come apart).
_UNDO_FIELDS = ("pos", "turn", "phase", "dice", "history", "moves", "rolls")


class MatchState:
    """The match as the players and the score sheet know it. ``rules`` as in the new_match event."""

    def __init__(self, length: int, players: dict[str, str], rules: dict[str, Any]) -> None:
        self.length = length
        self.players = players
        self.rules = rules
        cap = rules.get("cube_cap")
        self.match = Match(length, MatchRules(
            crawford=bool(rules.get("crawford", True)) and length > 0,
            jacoby=bool(rules.get("jacoby")), beavers=bool(rules.get("beavers")),
            raccoons=bool(rules.get("beavers")), holland=bool(rules.get("holland")),
            cube_cap=cap if cap and cap > 1 else None, cube_use=cap != 1))
        self.games: list[dict[str, Any]] = []
        self._undo: list[tuple[dict[str, Any], Any]] = []
        self.new_game()

    # ----- games ---------------------------------------------------------------------------------------------
    def new_game(self) -> None:
        """The board set up for the next game: nobody on roll yet, a fresh cube, an empty game record."""
        self._undo = []
        self.pos = start_position(self.rules)
        self.turn = Side.LIGHT
        self.phase = Phase.OPENING
        self.dice: tuple[int, int] | None = None
        self.cube = Cube(self.match.cube_settings())
        self.rolls = {Side.LIGHT: 0, Side.DARK: 0}
        self.history: list[Position] = []  # the positions before the last few plays, newest last
        self.moves: list[dict[str, Any]] = []
        self.awaiting_ack = 0  # the die (1 or 2) the players must acknowledge as cocked, 0 if none
        self.resignation: tuple[Side, int] | None = None
        self.games.append({"number": self.match.game_number, "crawford": self.match.crawford,
                           "score": {s.value: self.match.score[s] for s in Side}, "actions": [], "result": None})

    def end_game(self, winner: Side | None, points: int, how: str) -> bool:
        """Score the game; True when that ends the match."""
        if winner is None:  # a draw (Plakoto, both mothers pinned): no points, the next game
            self.match.game_number += 1
        else:
            self.match.record_result(winner, points)
        self.games[-1]["result"] = {"winner": winner.value if winner else None, "points": points, "how": how}
        self.phase = Phase.MATCH_OVER if self.match.over else Phase.GAME_OVER
        return self.match.over

    def abandon_game(self) -> int:
        """The players start again before the game ended: it stays in the record unfinished, with no
        points. Returns its number."""
        number = self.games[-1]["number"]
        self.games[-1]["abandoned"] = True
        self.match.game_number += 1
        self.new_game()
        return int(number)

    def points(self, multiplier: int) -> int:
        return self.match.game_points(multiplier, self.cube)

    # ----- turns -------------------------------------------------------------------------------------------
    def begin_roll(self, side: Side, dice: tuple[int, int]) -> None:
        """``side`` rolled ``dice`` and is moving."""
        self.turn = side
        self.pos = self.pos.with_turn(side)
        self.dice = dice
        self.rolls[side] += 1
        self.phase = Phase.MOVING

    def pass_turn(self, new_pos: Position) -> None:
        """The play is committed: ``new_pos`` (its side on roll) stands and that side is to roll."""
        self.history.append(self.pos)
        del self.history[:-8]
        self.pos = new_pos
        self.turn = new_pos.turn
        self.phase = Phase.AWAITING_ROLL
        self.dice = None

    def record(self, action: dict[str, Any]) -> None:
        self.games[-1]["actions"].append(action)

    def move_row(self, side: Side, dice: tuple[int, int], play: str) -> dict[str, Any]:
        return {"game": len(self.games), "number": len(self.moves) + 1, "side": side.value,
                "roll": list(dice), "play": play}

    def add_move(self, side: Side, dice: tuple[int, int], play: str, **extra: Any) -> tuple[dict[str, Any],
                                                                                           dict[str, Any]]:
        """Record a committed play in the game and the move list; returns (record action, move row)."""
        record = {"kind": "move", "side": side.value, "dice": list(dice), "play": play, **extra}
        self.record(record)
        row = self.move_row(side, dice, play)
        self.moves.append(row)
        return record, row

    # ----- undo (both players agree, R23) ------------------------------------------------------------------------
    def push_undo(self, turn_snapshot: Any = None) -> None:
        """Remember the state before a commit; ``turn_snapshot`` is the turn's view to bring back with it."""
        snap = {k: copy.copy(getattr(self, k)) for k in _UNDO_FIELDS}
        snap["games_actions"] = len(self.games[-1]["actions"])
        snap["cube"] = copy.deepcopy(self.cube)
        self._undo.append((snap, turn_snapshot))
        del self._undo[:-UNDO_DEPTH]

    def last_commit(self) -> Any:
        """The turn's view saved with the last committed play (None if there is none to take back)."""
        return self._undo[-1][1] if self._undo else None

    def can_undo(self) -> bool:
        return bool(self._undo) and self.phase in (Phase.AWAITING_ROLL, Phase.MOVING)

    def undo(self) -> Any:
        """Take back the last committed play (its mover moves again with the same dice); returns the
        turn's view saved with it. Call only when ``can_undo()``."""
        snap, turn_snapshot = self._undo.pop()
        del self.games[-1]["actions"][snap.pop("games_actions"):]
        for k, v in snap.items():
            setattr(self, k, v)
        return turn_snapshot

    # ----- the cube (R12, R14, R16-R18) ------------------------------------------------------------------------
    def double_problem(self, side: Side) -> str | None:
        """Why ``side`` may not double now (a reason code of core.messages), or None."""
        if self.match.crawford:
            return "crawford_no_cube"
        if not self.match.rules.cube_use:
            return "cube_not_used"
        if self.cube.owner is not None and self.cube.owner is not side:
            return "cube_not_yours"
        cap = self.cube.settings.cap
        if cap is not None and self.cube.value * 2 > cap:
            return "cube_cap"
        if self.match.why_not_double(side, self.cube, self.rolls) is not None:
            return "holland"
        return None

    # ----- ids -----------------------------------------------------------------------------------------------
    def match_id(self, on_roll: Side | None = None, passed: bool = False) -> str:
        on_roll = on_roll or self.turn
        state = "playing"
        if self.phase in (Phase.GAME_OVER, Phase.MATCH_OVER):
            state = "over"
        dice = (0, 0) if passed or self.dice is None or self.phase != Phase.MOVING else self.dice
        owner = None if self.cube.owner is None else (0 if self.cube.owner is Side.LIGHT else 1)
        score = (self.match.score[Side.LIGHT], self.match.score[Side.DARK])
        if self.length:
            score = (min(score[0], 32767), min(score[1], 32767))
        return MatchIdState(
            cube=min(self.cube.value, 2**15), cube_owner=owner, on_roll=0 if on_roll is Side.LIGHT else 1,
            crawford=self.match.crawford, game_state=state if self.phase != Phase.OPENING else "none",
            doubled=self.cube.offered_by is not None, dice=dice, match_length=min(self.length, 32767),
            score=score, jacoby=bool(self.rules.get("jacoby")),
        ).encode()

    # ----- what the kiosk shows ------------------------------------------------------------------------------
    def public_match(self) -> dict[str, Any]:
        m = self.match
        return {
            "length": self.length, "players": dict(self.players),
            "score": {s.value: m.score[s] for s in Side},
            "crawford": m.crawford, "post_crawford": m.post_crawford,
            "game": len(self.games),
            "rules": dict(self.rules),
        }

    def public_cube(self) -> dict[str, Any]:
        cube = self.cube
        return {"value": cube.value, "owner": cube.owner.value if cube.owner else None,
                "offered_by": cube.offered_by.value if cube.offered_by else None,
                "offered": cube.offered or None}


__all__ = ["MatchState", "UNDO_DEPTH"]
