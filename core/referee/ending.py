"""Game and match end: a game won on the board, by a drop or by a resignation (R19-R22)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.referee.part import Part
from core.referee.state import Phase
from core.referee.verdicts import Verdict, verdict
from core.rules.position import Side


class GameEnd(Part):
    """Owns the resignation and the game's end (``MatchState.end_game``)."""

    def on_resign(self, at: int, ev: Mapping[str, Any], out: list[Verdict]) -> None:
        side = Side(ev["side"])
        self.ref.held_roll.release_first(out)
        finished = self.turn_state.last_kind == "play" and self.turn_state.last_fault is None
        if self.match_state.phase == Phase.MOVING and (side is self.match_state.turn.other or finished):
            # A resignation after a finished play (or before one's own roll) commits that play first (R23).
            if not self.ref.committer.commit(at, ev, out):
                return
        if self.match_state.phase in (Phase.OPENING, Phase.MOVING, Phase.AWAITING_ROLL, Phase.CUBE_OFFERED):
            self.match_state.resignation = (side, ev["value"])
            self.match_state.record({"kind": "resign", "side": ev["side"], "value": ev["value"]})

    def on_resign_reply(self, at: int, ev: Mapping[str, Any], out: list[Verdict]) -> None:
        if self.match_state.resignation is None:
            return
        side, value = self.match_state.resignation
        self.match_state.resignation = None
        self.match_state.record({"kind": "accept" if ev["accept"] else "reject", "side": side.other.value})
        if ev["accept"]:
            self.game_over(at, side.other, self.match_state.points(value), "resign", out)

    def game_over(self, at: int, winner: Side | None, points: int, how: str, out: list[Verdict]) -> None:
        if self.turn_state.pending is not None:
            obs = self.turn_state.last_obs
            if obs is None or not self.ref.committer.try_resolve(at, obs, out):
                self.ref.committer.resolve(at, 0, out, sure=False)  # the game ended first: the likeliest play, marked guessed
        match_over = self.match_state.end_game(winner, points, how)
        self.turn_state.model = None
        self.turn_state.held = None
        verdict(out, at, "game_over", winner=winner.value if winner else None, points=points, how=how)
        if match_over:
            assert winner is not None  # a draw ends no match
            verdict(out, at, "match_over", score=[self.match_state.match.score[Side.LIGHT], self.match_state.match.score[Side.DARK]],
                    winner=winner.value)
