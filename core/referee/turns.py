"""A turn's start and end: the roll's candidates computed once, a roll with no legal play (R25), the turn passed,
and a chain's next link (R31) applied as the game rules it."""

from __future__ import annotations

from core.referee.games import Link
from core.referee.inference import Observation, vec_of_position
from core.referee.part import Part
from core.referee.verdicts import Verdict, verdict
from core.rules.position import Position, Side


class Turns(Part):
    """Owns the passage from one turn to the next (``MatchState.begin_roll``/``pass_turn``, ``TurnState.begin``/``end``)."""

    def begin_turn(self, at: int, side: Side, dice: tuple[int, int], out: list[Verdict]) -> None:
        ms, ts = self.match_state, self.turn_state
        ms.begin_roll(side, dice)
        model = ts.begin(ms.pos, dice)
        if ts.pending is not None:
            ts.pending.build_models(ms.pos, ts.model, side, dice)
        else:
            # Not while the previous play is open: the open plays differ exactly where this turn's boards
            # show no change, and reading changes would hide that difference.
            model.baseline = ts.baseline(at)
        ts.reset_reading()
        if ts.pending is not None and any(m is not None and len(m.legal) == 0 for m in ts.pending.models):
            # Rare (a double came between): the roll cannot wait for the boards, take the likeliest play.
            self.ref.committer.try_resolve(at, ts.last_obs or Observation(vec_of_position(ms.pos)), out, force=True)
        self.dance(at, out)

    def dance(self, at: int, out: list[Verdict]) -> None:
        """R25: no legal play; the turn passes at once, nothing to commit."""
        if self.turn_state.model is None or self.match_state.dice is None or len(self.turn_state.model.legal) != 0:
            return
        side, dice = self.match_state.turn, self.match_state.dice
        verdict(out, at, "play", side=side.value, dice=list(dice), play="", legal=True,
                position_id=self.match_state.pos.position_id(side.other), match_id=self.match_state.match_id(side.other, passed=True))
        self.match_state.record({"kind": "move", "side": side.value, "dice": list(dice), "play": ""})
        self.match_state.moves.append(self.match_state.move_row(side, dice, ""))
        self.pass_turn(self.match_state.pos.with_turn(side.other))

    def pass_turn(self, new_pos: Position) -> None:
        self.match_state.pass_turn(new_pos)
        self.turn_state.end()

    def next_link(self, at: int, link: Link, out: list[Verdict]) -> None:
        """A chain's link played in full (R31): record it, then the same player goes on with the game's next link
        (no roll). If that cannot be played at all the chain stops there and the turn passes (R25)."""
        ms, ts = self.match_state, self.turn_state
        mover, dice = ms.turn, ms.dice
        assert dice is not None
        self.ref.push_undo()
        _, row = ms.add_move(mover, dice, link.text, chain=link.chain)
        row["chain"] = link.chain
        verdict(out, at, "play", side=mover.value, dice=list(dice), play=link.text, legal=True,
                position_id=link.after.position_id(mover), match_id=ms.match_id(mover, passed=True), **link.fields)
        ms.history.append(ms.pos)
        del ms.history[:-8]
        ms.pos = link.model.pos
        ms.dice = link.dice
        ts.end()
        ts.model = link.model
        self.dance(at, out)
